import Foundation
import Geo
import Testing

@Suite struct GeoTests {
    /// Google's documented example: (38.5, -120.2), (40.7, -120.95), (43.252, -126.453) at 5 digits.
    @Test func polylineMatchesGooglesExample() {
        let pts = [Coordinate(latitude: 38.5, longitude: -120.2), Coordinate(latitude: 40.7, longitude: -120.95),
                   Coordinate(latitude: 43.252, longitude: -126.453)]
        #expect(Polyline.encode(pts, precision: 5) == "_p~iF~ps|U_ulLnnqC_mqNvxq`@")
        let back = Polyline.decode("_p~iF~ps|U_ulLnnqC_mqNvxq`@", precision: 5)!
        #expect(zip(back, pts).allSatisfy { abs($0.latitude - $1.latitude) < 1e-9 && abs($0.longitude - $1.longitude) < 1e-9 })
    }

    @Test func polyline6RoundTripsAndRejectsGarbage() {
        let pts = (0..<50).map { Coordinate(latitude: 49.4 + Double($0) * 0.000123, longitude: 8.69 - Double($0) * 0.000077) }
        let back = Polyline.decode(Polyline.encode(pts))!
        #expect(back.count == 50)
        #expect(zip(back, pts).allSatisfy { $0.distance(to: $1) < 0.2 })
        #expect(Polyline.decode("_p~iF~ps|U_") == nil)
    }

    @Test func distancesAndBearings() {
        let heidelberg = Coordinate(latitude: 49.4093, longitude: 8.6937)
        // one degree of latitude on the mean sphere: π/180 × 6 371 008.8 m
        let oneDegreeNorth = Coordinate(latitude: 50.4093, longitude: 8.6937)
        #expect(abs(heidelberg.distance(to: oneDegreeNorth) - 111_195.08) < 0.1)
        let north = heidelberg.moved(meters: 1000, bearingDegrees: 0)
        #expect(abs(heidelberg.distance(to: north) - 1000) < 0.01)
        #expect(abs(heidelberg.bearing(to: north)) < 1e-6)
        let east = heidelberg.moved(meters: 500, bearingDegrees: 90)
        #expect(abs(heidelberg.bearing(to: east) - 90) < 0.01)
    }

    @Test(arguments: [(10.0, 350.0, -20.0), (350.0, 10.0, 20.0), (0.0, 180.0, 180.0), (90.0, 80.0, -10.0)])
    func angleDifference(from: Double, to: Double, expected: Double) {
        #expect(abs(Angle.difference(from: from, to: to) - expected) < 1e-9)
    }

    @Test func localProjectionRoundTripsAndAgreesWithHaversine() {
        let origin = Coordinate(latitude: 49.41, longitude: 8.69)
        let p = LocalProjection(origin: origin)
        let c = Coordinate(latitude: 49.42, longitude: 8.71)
        let back = p.unproject(p.project(c))
        #expect(back.distance(to: c) < 1e-6)
        #expect(abs(p.project(c).length - origin.distance(to: c)) / origin.distance(to: c) < 0.003)
    }

    @Test func segmentProjectionClampsToTheEnds() {
        let a = LocalPoint(x: 0, y: 0), b = LocalPoint(x: 10, y: 0)
        #expect(LocalPoint(x: 5, y: 3).projected(onto: a, b).fraction == 0.5)
        #expect(LocalPoint(x: -5, y: 0).projected(onto: a, b).fraction == 0)
        #expect(LocalPoint(x: 15, y: 4).projected(onto: a, b).distanceMeters == (25.0 + 16).squareRoot())
    }

    @Test func fixTimeFormatsAndParses() {
        let t = FixTime.utc(year: 2024, month: 6, day: 15, hour: 12, minute: 0, second: 1.5)!
        #expect(FixTime.iso8601(t) == "2024-06-15T12:00:01.500Z")
        #expect(FixTime.iso8601(floor(t)) == "2024-06-15T12:00:01Z")
        #expect(FixTime.clock(t) == "12:00")
        #expect(FixTime.utc(year: 2024, month: 13, day: 1, hour: 0, minute: 0, second: 0) == nil)
    }

    @Test func coordinateParsing() {
        #expect(Coordinate(parsing: "49.4093,8.6937") == Coordinate(latitude: 49.4093, longitude: 8.6937))
        #expect(Coordinate(parsing: " -33.5 , 151.2 ") == Coordinate(latitude: -33.5, longitude: 151.2))
        #expect(Coordinate(parsing: "91,0") == nil)
        #expect(Coordinate(parsing: "49.4") == nil)
        #expect(Coordinate(parsing: "a,b") == nil)
    }
}

/// FixTime.parse reads what ISO8601DateFormatter read (issue #27 replaced it), and what Tern writes.
@Suite struct FixTimeParseTests {
    @Test func roundTripsWhatTernWrites() {
        for t in stride(from: 0.0, to: 2_000_000_000, by: 12_345_678.125) {
            #expect(FixTime.parse(FixTime.iso8601(t)) == (t * 1000).rounded() / 1000)
        }
    }

    @Test func agreesWithFoundation() {
        let plain = ISO8601DateFormatter()
        let fractional = ISO8601DateFormatter()
        fractional.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        for s in ["2024-06-15T12:00:00Z", "2024-06-15T12:00:00.5Z", "2024-06-15T14:00:00+02:00", "2024-06-15T08:30:00-03:30",
                  "2016-12-31T23:59:59.999Z", "1999-01-01T00:00:00.123+00:00"] {
            let expected = (fractional.date(from: s) ?? plain.date(from: s))?.timeIntervalSince1970
            #expect(expected != nil)
            #expect(abs((FixTime.parse(s) ?? .nan) - (expected ?? 0)) < 1e-6, "\(s)")
        }
        // Barefoot's logs
        #expect(FixTime.parse("2014-09-10 06:54:07+0200") == plain.date(from: "2014-09-10T06:54:07+02:00")?.timeIntervalSince1970)
    }

    @Test func refusesWhatIsNotATime() {
        for s in ["", "2024-06-15", "2024-06-15T12:00:00", "2024-13-01T00:00:00Z", "2024-06-15T12:00:00.Z", "2024-06-15T12:00:00Zx",
                  "2024-06-15T25:00:00Z", "2024-06-15T12:00:00+2", "garbage garbage garbage"] {
            #expect(FixTime.parse(s) == nil, "\(s)")
        }
    }
}
