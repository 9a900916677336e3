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
        let edgeBase = section(.edges), geo = section(.geometry)
        let radiusSquared = radiusMeters * radiusMeters
        for e in found {
            // the shape is read in place (no array): point 0 is the from node, then the stored
            // intermediate points, then the to node
            let o = edgeBase + Int(e) * EdgeRecord.byteSize
            let from = u32(o), to = u32(o + 4), gStart = Int(u32(o + 8)), gCount = Int(u32(o + 12))
            func point(_ k: Int) -> Coordinate {
                if k == 0 { return coordinate(ofNode: from) }
                if k > gCount { return coordinate(ofNode: to) }
                let q = geo + (gStart + k - 1) * 8
                return Coordinate(latitude: E7.decode(i32(q)), longitude: E7.decode(i32(q + 4)))
            }
            // scan in metres relative to the query point, squared distances only
            let start = point(0)
            var ax = Angle.normalizedLongitude(start.longitude - c.longitude) * ruler.kx
            var ay = (start.latitude - c.latitude) * ruler.ky
            // every point of the edge is within its length of its start: most edges in the
            // cells are ruled out here without reading their shape (1% slack for the ruler)
            let reach = Double(Float(bitPattern: u32(o + 16))) * 1.01 + radiusMeters
            if ax * ax + ay * ay > reach * reach { continue }
            var bestK = -1, bestSquared = radiusSquared
            for k in 1...(gCount + 1) {
                let b = point(k)
                let bx = Angle.normalizedLongitude(b.longitude - c.longitude) * ruler.kx, by = (b.latitude - c.latitude) * ruler.ky
                let dx = bx - ax, dy = by - ay
                let len2 = dx * dx + dy * dy
                let t = len2 > 0 ? min(1, max(0, -(ax * dx + ay * dy) / len2)) : 0
                let qx = ax + dx * t, qy = ay + dy * t
                let d2 = qx * qx + qy * qy
                if d2 < bestSquared || (bestK < 0 && d2 <= bestSquared) { bestK = k; bestSquared = d2 }
                ax = bx; ay = by
            }
            guard bestK > 0 else { continue }
            let p = ruler.project(c, onto: point(bestK - 1), point(bestK))
            guard p.distanceMeters <= radiusMeters else { continue }
            let bestDistance = p.distanceMeters, bestFraction = p.fraction, bestPoint = p.point
            var a = point(0)
            var along = 0.0, offset = 0.0, bearing = 0.0
            for k in 1...(gCount + 1) {
                let b = point(k)
                let segLen = ruler.distance(a, b)
                if k == bestK { offset = along + bestFraction * segLen; bearing = ruler.bearing(a, b) }
                along += segLen
                a = b
            }
            // Offsets are measured with the ruler; scale them to the stored (haversine) length.
            let stored = Double(Float(bitPattern: u32(o + 16)))
            if along > 0 { offset *= stored / along }
            result.append(Snap(edge: e, offsetMeters: offset, edgeLengthMeters: stored, point: bestPoint,
                               distanceMeters: bestDistance, bearingDegrees: bearing))
        }
        result.sort { $0.distanceMeters < $1.distanceMeters || ($0.distanceMeters == $1.distanceMeters && $0.edge < $1.edge) }
        return Array(result.prefix(limit))
    }

}
