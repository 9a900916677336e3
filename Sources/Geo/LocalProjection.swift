import FoundationEssentials
import Glibc

/// A point in a local east/north metric frame, in metres.
public struct LocalPoint: Hashable, Sendable {
    public var x: Double  // east, metres
    public var y: Double  // north, metres
    public init(x: Double, y: Double) { self.x = x; self.y = y }

    public func distance(to o: LocalPoint) -> Double { ((x - o.x) * (x - o.x) + (y - o.y) * (y - o.y)).squareRoot() }
    public static func - (a: LocalPoint, b: LocalPoint) -> LocalPoint { LocalPoint(x: a.x - b.x, y: a.y - b.y) }
    public static func + (a: LocalPoint, b: LocalPoint) -> LocalPoint { LocalPoint(x: a.x + b.x, y: a.y + b.y) }
    public static func * (a: LocalPoint, s: Double) -> LocalPoint { LocalPoint(x: a.x * s, y: a.y * s) }
    public func dot(_ o: LocalPoint) -> Double { x * o.x + y * o.y }
    public var length: Double { (x * x + y * y).squareRoot() }
}

/// Equirectangular projection around a reference point: accurate to well under 0.1% within tens of
/// kilometres, and cheap (a multiply per axis), which is what per-fix work on a Pi needs.
public struct LocalProjection: Sendable {
    public let origin: Coordinate
    /// Metres per degree of latitude and of longitude at the origin.
    public let metersPerDegreeLatitude: Double
    public let metersPerDegreeLongitude: Double

    public init(origin: Coordinate) {
        self.origin = origin
        // WGS 84 meridian and parallel radii of curvature at the origin's latitude ("cheap ruler").
        let lat = origin.latitude * .pi / 180
        let a = 6_378_137.0, e2 = 0.006_694_379_990_14
        let w = 1 - e2 * sin(lat) * sin(lat)
        let m = a * (1 - e2) / (w * w.squareRoot())
        let n = a / w.squareRoot()
        metersPerDegreeLatitude = m * .pi / 180
        metersPerDegreeLongitude = n * cos(lat) * .pi / 180
    }

    public func project(_ c: Coordinate) -> LocalPoint {
        LocalPoint(x: Angle.normalizedLongitude(c.longitude - origin.longitude) * metersPerDegreeLongitude,
                   y: (c.latitude - origin.latitude) * metersPerDegreeLatitude)
    }

    public func unproject(_ p: LocalPoint) -> Coordinate {
        Coordinate(latitude: origin.latitude + p.y / metersPerDegreeLatitude,
                   longitude: origin.longitude + p.x / metersPerDegreeLongitude)
    }
}
