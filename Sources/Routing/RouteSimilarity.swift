import MapData

/// How alike two routes are: the share of the new route's length that drives the same directed
/// edges as the old one (0 nothing shared, 1 the same roads). The one resemblance rule (issue
/// #24: the navigator counted shared edges, the reroute choice weighed them by length): the
/// reroute choice prefers the most similar candidate when it is nearly as fast, and a new route
/// "resembles" the one it replaces from `resemblesAt` on.
public enum RouteSimilarity {
    /// The share from which a new route resembles the old one (events' `resembles_previous`).
    public static let resemblesAt = 0.6

    public static func similarity(_ a: Route, _ b: Route) -> Double {
        var old = Set<DirectedEdge>()
        for leg in a.legs { old.formUnion(leg.edges) }
        return similarity(of: b, to: old)
    }

    /// The share of `b`'s length on the directed edges `old`, each edge's length as `b` drives
    /// it (from its own geometry: the first and last edges of a leg only in part).
    public static func similarity(of b: Route, to old: Set<DirectedEdge>) -> Double {
        var shared = 0.0, total = 0.0
        for leg in b.legs {
            for (i, d) in leg.edges.enumerated() {
                let start = leg.cumulativeMeters[min(leg.edgeShapeStart[i], leg.cumulativeMeters.count - 1)]
                let end = i + 1 < leg.edgeShapeStart.count
                    ? leg.cumulativeMeters[min(leg.edgeShapeStart[i + 1], leg.cumulativeMeters.count - 1)] : leg.distanceMeters
                let len = max(0, end - start)
                total += len
                if old.contains(d) { shared += len }
            }
        }
        return total > 0 ? shared / total : 0
    }
}
