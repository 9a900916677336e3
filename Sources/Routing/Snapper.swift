import Geo
import MapData

/// Finds the road a point lies on (nearest edge, optionally in the direction of travel).
public struct Snapper: Sendable {
    public let map: RoadMap
    public init(map: RoadMap) { self.map = map }

    /// The nearest edges within `radiusMeters`, closest first (at most `limit`).
    public func candidates(near c: Coordinate, radiusMeters: Double, limit: Int = 8) -> [Snap] {
        map.nearestEdges(to: c, radiusMeters: radiusMeters, limit: limit)
    }

    /// The nearest road point, searching up to `maxRadiusMeters`. With a heading (degrees), roads
    /// that cannot be driven within 90° of it are passed over when another candidate fits.
    /// `allowIsolated: false` never returns an edge of a small cut-off piece of the network.
    /// `anyRoad` (OSRM's `snapping=any`) lets it snap to roads that are no start point too.
    public func snap(_ c: Coordinate, headingDegrees: Double? = nil, maxRadiusMeters: Double = 1000, allowIsolated: Bool = true,
                     anyRoad: Bool = false) -> Snap? {
        var radius = min(50.0, maxRadiusMeters)
        while true {
            // ferries and private service roads are never where a route starts or ends
            var found = candidates(near: c, radiusMeters: radius, limit: 64).filter { anyRoad || !map.flags(ofEdge: $0.edge).contains(.noStartpoint) }
            // Prefer the connected network: a small cut-off piece only when it is much closer.
            if let main = found.first(where: { !map.flags(ofEdge: $0.edge).contains(.isolated) }) {
                found = found.filter {
                    !map.flags(ofEdge: $0.edge).contains(.isolated) || (allowIsolated && $0.distanceMeters + 50 < main.distanceMeters)
                }
            } else if radius < maxRadiusMeters {
                radius = min(maxRadiusMeters, radius * 4)
                continue
            } else if !allowIsolated {
                return nil
            }
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
