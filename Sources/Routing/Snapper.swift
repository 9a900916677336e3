import Geo
import MapData

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
}

/// Finds the road a point lies on (nearest edge, optionally in the direction of travel).
public struct Snapper: Sendable {
    public let map: RoadMap
    public init(map: RoadMap) { self.map = map }

    /// The nearest edges within `radiusMeters`, closest first (at most `limit`).
    public func candidates(near c: Coordinate, radiusMeters: Double, limit: Int = 8) -> [Snap] {
        let ruler = CheapRuler(latitude: c.latitude)
        let dLat = radiusMeters / ruler.ky, dLon = radiusMeters / ruler.kx
        var edges = [UInt32]()
        map.edges(nearLatitude: (c.latitude - dLat)...(c.latitude + dLat),
                  longitude: (c.longitude - dLon)...(c.longitude + dLon), into: &edges)
        var result = [Snap]()
        for e in edges {
            let shape = map.geometry(ofEdge: e)
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
                let stored = Double(map.edge(e).lengthMeters)
                if along > 0 { b.offsetMeters *= stored / along }
                b.edgeLengthMeters = stored
                result.append(b)
            }
        }
        result.sort { $0.distanceMeters < $1.distanceMeters || ($0.distanceMeters == $1.distanceMeters && $0.edge < $1.edge) }
        return Array(result.prefix(limit))
    }

    /// The nearest road point, searching up to `maxRadiusMeters`. With a heading (degrees), roads
    /// that cannot be driven within 90° of it are passed over when another candidate fits.
    public func snap(_ c: Coordinate, headingDegrees: Double? = nil, maxRadiusMeters: Double = 1000) -> Snap? {
        var radius = 50.0
        while true {
            let found = candidates(near: c, radiusMeters: radius, limit: 16)
            if !found.isEmpty {
                guard let h = headingDegrees else { return found[0] }
                let nearest = found[0].distanceMeters
                for s in found where s.distanceMeters <= nearest + 25 {
                    if headingFits(s, h) { return s }
                }
                return found[0]
            }
            if radius >= maxRadiusMeters { return nil }
            radius = min(maxRadiusMeters, radius * 4)
        }
    }

    func headingFits(_ s: Snap, _ heading: Double) -> Bool {
        let e = map.edge(s.edge)
        let diff = abs(Angle.difference(from: s.bearingDegrees, to: heading))
        return (e.flags.contains(.forward) && diff <= 90) || (e.flags.contains(.backward) && diff >= 90)
    }
}
