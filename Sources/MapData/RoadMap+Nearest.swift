import Geo

/// A position on the road network: an edge and how far along it (from its `from` node).
public struct Snap: Sendable, Equatable {
    public var edge: UInt32
    /// Metres from the edge's `from` node along its shape.
    public var offsetMeters: Double
    /// Length of the edge, metres.
    public var edgeLengthMeters: Double
    /// The point on the road.
    public var point: Coordinate
    /// Distance from the query point to `point`, metres.
    public var distanceMeters: Double
    /// Bearing of the road at `point` in the edge's from→to direction, degrees.
    public var bearingDegrees: Double

    public init(edge: UInt32, offsetMeters: Double, edgeLengthMeters: Double, point: Coordinate, distanceMeters: Double,
                bearingDegrees: Double) {
        self.edge = edge
        self.offsetMeters = offsetMeters
        self.edgeLengthMeters = edgeLengthMeters
        self.point = point
        self.distanceMeters = distanceMeters
        self.bearingDegrees = bearingDegrees
    }
}

extension RoadMap {
    /// The nearest edges within `radiusMeters`, closest first (at most `limit`), each with the
    /// closest point of its shape.
    public func nearestEdges(to c: Coordinate, radiusMeters: Double, limit: Int = 8) -> [Snap] {
        let ruler = CheapRuler(latitude: c.latitude)
        let dLat = radiusMeters / ruler.ky, dLon = radiusMeters / ruler.kx
        var found = [UInt32]()
        self.edges(nearLatitude: (c.latitude - dLat)...(c.latitude + dLat),
                   longitude: (c.longitude - dLon)...(c.longitude + dLon), into: &found)
        var result = [Snap]()
        for e in found {
            let shape = geometry(ofEdge: e)
            var best: Snap?
            var along = 0.0
            for k in 1..<shape.count {
                let segLen = ruler.distance(shape[k - 1], shape[k])
                let p = ruler.project(c, onto: shape[k - 1], shape[k])
                if p.distanceMeters <= radiusMeters, best == nil || p.distanceMeters < best!.distanceMeters {
                    best = Snap(edge: e, offsetMeters: along + p.fraction * segLen, edgeLengthMeters: 0, point: p.point,
                                distanceMeters: p.distanceMeters, bearingDegrees: ruler.bearing(shape[k - 1], shape[k]))
                }
                along += segLen
            }
            if var b = best {
                // Offsets are measured with the ruler; scale them to the stored (haversine) length.
                let stored = Double(edge(e).lengthMeters)
                if along > 0 { b.offsetMeters *= stored / along }
                b.edgeLengthMeters = stored
                result.append(b)
            }
        }
        result.sort { $0.distanceMeters < $1.distanceMeters || ($0.distanceMeters == $1.distanceMeters && $0.edge < $1.edge) }
        return Array(result.prefix(limit))
    }

}
