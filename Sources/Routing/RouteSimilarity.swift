import MapData

/// How alike two routes are: the share of the new route's length that drives the same directed
/// edges as the old one (0 nothing shared, 1 the same roads). Rerouting prefers the most similar
/// candidate when it is nearly as fast.
public enum RouteSimilarity {
    public static func similarity(_ a: Route, _ b: Route, map: RoadMap) -> Double {
        var old = Set<DirectedEdge>()
        for leg in a.legs { old.formUnion(leg.edges) }
        return similarity(of: b, to: old, map: map)
    }

    /// The share of `b`'s length on the directed edges `old`.
    public static func similarity(of b: Route, to old: Set<DirectedEdge>, map: RoadMap) -> Double {
        var shared = 0.0, total = 0.0
        for leg in b.legs {
            for d in leg.edges {
                let len = map.lengthMeters(ofEdge: d.edge)
                total += len
                if old.contains(d) { shared += len }
            }
        }
        return total > 0 ? shared / total : 0
    }
}
