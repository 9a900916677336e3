import Geo
import MapData

/// One leg of a route: from a waypoint to the next, along directed edges.
public struct RouteLeg: Sendable {
    /// Directed edges in driving order.
    public var edges: [DirectedEdge]
    /// Where the leg starts on the first edge and ends on the last, in metres from the start of
    /// each directed edge (in its driving direction).
    public var startOffsetMeters: Double
    public var endOffsetMeters: Double
    /// The driven shape, from the start point to the end point.
    public var shape: [Coordinate]
    /// Distance and time from the leg's start to each shape point.
    public var cumulativeMeters: [Double]
    public var cumulativeSeconds: [Double]
    /// Shape index at which each edge begins (the first is 0).
    public var edgeShapeStart: [Int]
    public var from: Snap
    public var to: Snap
    /// What the search minimised (duration plus penalties such as entering a destination-only
    /// road), seconds.
    public var weightSeconds: Double = 0

    public var distanceMeters: Double { cumulativeMeters.last ?? 0 }
    public var durationSeconds: Double { cumulativeSeconds.last ?? 0 }

    /// The point `meters` from the leg's start along its shape, and the shape segment it lies on.
    public func position(atMeters meters: Double) -> (coordinate: Coordinate, segment: Int) {
        guard shape.count > 1 else { return (shape.first ?? from.point, 0) }
        // the first i in 1..<count-1 with cumulativeMeters[i] >= meters (count-1 if none): a
        // binary search, since guidance asks for every maneuver of a long leg
        var lo = 1, hi = shape.count - 1
        while lo < hi {
            let mid = (lo + hi) / 2
            if cumulativeMeters[mid] < meters { lo = mid + 1 } else { hi = mid }
        }
        let i = lo
        let len = cumulativeMeters[i] - cumulativeMeters[i - 1]
        let f = len > 0 ? min(1, max(0, (meters - cumulativeMeters[i - 1]) / len)) : 0
        return (shape[i - 1].interpolated(to: shape[i], f), i - 1)
    }

    /// The edge index (into `edges`) of a shape segment starting at `shapeIndex`.
    public func edgeIndex(atShapeIndex shapeIndex: Int) -> Int {
        var lo = 0, hi = edgeShapeStart.count - 1
        while lo < hi {
            let mid = (lo + hi + 1) / 2
            if edgeShapeStart[mid] <= shapeIndex { lo = mid } else { hi = mid - 1 }
        }
        return lo
    }
}

/// A route over one or more legs.
public struct Route: Sendable {
    public var legs: [RouteLeg]
    /// The requested waypoints (start, vias, destination).
    public var waypoints: [Coordinate]

    public init(legs: [RouteLeg], waypoints: [Coordinate]) {
        self.legs = legs
        self.waypoints = waypoints
    }

    public var distanceMeters: Double { legs.reduce(0) { $0 + $1.distanceMeters } }
    public var durationSeconds: Double { legs.reduce(0) { $0 + $1.durationSeconds } }
    public var weightSeconds: Double { legs.reduce(0) { $0 + $1.weightSeconds } }

    /// The whole shape, legs joined.
    public var shape: [Coordinate] {
        var out = [Coordinate]()
        for (i, leg) in legs.enumerated() { out += i == 0 ? leg.shape : Array(leg.shape.dropFirst()) }
        return out
    }
}

/// Why no route was found.
public enum RoutingError: Error, CustomStringConvertible, Equatable {
    case noRoadNear(Coordinate, index: Int)
    case noRoute(from: Int, to: Int)
    case tooFewWaypoints
    case noRoutingTables
    /// The map passed its checks but its hierarchy does not hold together (see Router.corruption).
    case corruptMap(path: String, detail: String)

    public var description: String {
        switch self {
        case let .noRoadNear(c, index): return "no road a car may use near waypoint \(index) (\(c))"
        case let .noRoute(from, to): return "no route from waypoint \(from) to waypoint \(to)"
        case .tooFewWaypoints: return "a route needs at least two waypoints"
        case .noRoutingTables: return "the map has no routing tables; re-import it with this tern"
        case let .corruptMap(path, detail): return "\(path): map is corrupt: \(detail); routing stopped (tern map-info --verify checks the whole file; import it again)"
        }
    }
}
