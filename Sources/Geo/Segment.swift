import FoundationEssentials
import Glibc

/// The closest point of a segment to a query point, in a local metric frame.
public struct SegmentProjection: Sendable {
    /// Position along the segment in [0, 1].
    public var fraction: Double
    /// The closest point itself.
    public var point: LocalPoint
    /// Distance from the query point to `point`, metres.
    public var distanceMeters: Double
}

extension LocalPoint {
    /// Projects `self` onto the segment a→b.
    public func projected(onto a: LocalPoint, _ b: LocalPoint) -> SegmentProjection {
        let ab = b - a
        let len2 = ab.dot(ab)
        var t = len2 > 0 ? (self - a).dot(ab) / len2 : 0
        t = min(1, max(0, t))
        let p = a + ab * t
        return SegmentProjection(fraction: t, point: p, distanceMeters: distance(to: p))
    }
}

/// Cheap distances in degrees-space for a small area, scaled by the local metres per degree:
/// used for snapping, where thousands of segments are tested per query.
public struct CheapRuler: Sendable {
    public let kx: Double  // metres per degree longitude
    public let ky: Double  // metres per degree latitude

    public init(latitude: Double) {
        let p = LocalProjection(origin: Coordinate(latitude: latitude, longitude: 0))
        kx = p.metersPerDegreeLongitude
        ky = p.metersPerDegreeLatitude
    }

    public func distance(_ a: Coordinate, _ b: Coordinate) -> Double {
        let dx = Angle.normalizedLongitude(a.longitude - b.longitude) * kx
        let dy = (a.latitude - b.latitude) * ky
        return (dx * dx + dy * dy).squareRoot()
    }

    /// Closest point of segment a→b to p: fraction in [0, 1], the point and the distance in metres.
    public func project(_ p: Coordinate, onto a: Coordinate, _ b: Coordinate) -> (fraction: Double, point: Coordinate, distanceMeters: Double) {
        let ax = a.longitude * kx, ay = a.latitude * ky
        let bx = b.longitude * kx, by = b.latitude * ky
        let px = p.longitude * kx, py = p.latitude * ky
        let dx = bx - ax, dy = by - ay
        let len2 = dx * dx + dy * dy
        var t = len2 > 0 ? ((px - ax) * dx + (py - ay) * dy) / len2 : 0
        t = min(1, max(0, t))
        let qx = ax + dx * t, qy = ay + dy * t
        let d = ((px - qx) * (px - qx) + (py - qy) * (py - qy)).squareRoot()
        return (t, Coordinate(latitude: qy / ky, longitude: qx / kx), d)
    }

    /// Bearing from a to b in degrees clockwise from north.
    public func bearing(_ a: Coordinate, _ b: Coordinate) -> Double {
        let dx = Angle.normalizedLongitude(b.longitude - a.longitude) * kx
        let dy = (b.latitude - a.latitude) * ky
        return Angle.normalized(atan2(dx, dy) * 180 / .pi)
    }
}
