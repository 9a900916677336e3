import Geo
import MapData
import Positioning

/// Dead reckoning along the roads: from a position and course, the point some metres further on
/// the road being driven — along the route when one is given, else the straightest way on at each
/// junction. Used through outages (tunnels), so the estimate stays on the road.
public struct RoadFollower: RoadConstraint {
    public let map: RoadMap
    /// The active route's directed edges in order (empty when not guiding).
    public var route: [DirectedEdge]

    public init(map: RoadMap, route: [DirectedEdge] = []) {
        self.map = map
        self.route = route
    }

    public func advance(from c: Coordinate, courseDegrees: Double, meters: Double) -> (Coordinate, Double)? {
        // the road under the car, in its direction of travel
        let near = map.nearestEdges(to: c, radiusMeters: 40, limit: 6)
        var best: (score: Double, edge: DirectedEdge, offset: Double)?
        for s in near {
            for reversed in [false, true] where map.flags(ofEdge: s.edge).contains(reversed ? .backward : .forward) {
                let bearing = reversed ? Angle.normalized(s.bearingDegrees + 180) : s.bearingDegrees
                let turn = abs(Angle.difference(from: bearing, to: courseDegrees))
                guard turn < 80 else { continue }
                var score = s.distanceMeters + turn / 10
                let d = DirectedEdge(edge: s.edge, reversed: reversed)
                if route.contains(d) { score -= 10 }
                let offset = reversed ? s.edgeLengthMeters - s.offsetMeters : s.offsetMeters
                if best == nil || score < best!.score { best = (score, d, offset) }
            }
        }
        guard var (_, edge, offset) = best else { return nil }
        var left = meters
        var guardSteps = 0
        while true {
            let length = map.lengthMeters(ofEdge: edge.edge)
            if offset + left <= length || guardSteps > 200 {
                return point(on: edge, at: min(length, offset + left))
            }
            left -= length - offset
            guard let next = nextEdge(after: edge) else { return point(on: edge, at: length) }
            edge = next
            offset = 0
            guardSteps += 1
        }
    }

    /// Where the road goes on: the route's next edge, else the straightest continuation.
    func nextEdge(after e: DirectedEdge) -> DirectedEdge? {
        if let i = route.firstIndex(of: e), i + 1 < route.count { return route[i + 1] }
        let shape = map.geometry(of: e)
        let inBearing = shape[shape.count - 2].bearing(to: shape[shape.count - 1])
        var best: (Double, DirectedEdge)?
        map.forEachOutgoing(map.target(of: e)) { o in
            guard o.edge != e.edge else { return }
            let g = map.geometry(of: o)
            let turn = abs(Angle.difference(from: inBearing, to: g[0].bearing(to: g[1])))
            if best == nil || turn < best!.0 { best = (turn, o) }
        }
        return best?.1
    }

    func point(on e: DirectedEdge, at along: Double) -> (Coordinate, Double) {
        let shape = map.geometry(of: e)
        guard shape.count > 1 else { return (shape.last!, 0) }
        let scale = map.lengthMeters(ofEdge: e.edge) / max(0.01, shape.lengthMeters)
        let (c, i) = shape.point(atMeters: along, scale: scale)
        return (c, shape[i].bearing(to: shape[i + 1]))
    }
}
