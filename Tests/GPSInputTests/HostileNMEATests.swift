import Foundation
import Geo
import GPSInput
import Testing

/// Issue #29: numbers no receiver reports (a speed of inf or 1e9 knots, a course of 1e9°, a
/// year of 3000000000) trapped in `replay --direct` and `match`, or moved positions. They are
/// left out of the fix now, and the rest of the fix is kept.
@Suite struct HostileNMEATests {
    /// One epoch, RMC then GGA, with the given RMC speed (knots), course, date and GGA altitude.
    static func epoch(second: Int, speed: String = "27.0", course: String = "60.0", date: String = "150624",
                      altitude: String = "50.0", hdop: String = "0.9") -> [String] {
        let t = String(format: "1200%02d.00", second)
        return [NMEAWriter.checksummed("GPRMC,\(t),A,4344.3040,N,00725.4760,E,\(speed),\(course),\(date),,,A"),
                NMEAWriter.checksummed("GPGGA,\(t),4344.3040,N,00725.4760,E,1,08,\(hdop),\(altitude),M,47.0,M,,")]
    }

    @Test func impossibleSpeedsAndCoursesAreLeftOutOfTheFix() throws {
        let speeds = ["inf", "-inf", "nan", "1e19", "-1e19", "1000000000", "1e308", "-5"]
        var lines = [String]()
        for (i, s) in speeds.enumerated() { lines += Self.epoch(second: i, speed: s) }
        let courses = ["1000000000", "nan", "-inf", "1e308"]
        for (i, c) in courses.enumerated() { lines += Self.epoch(second: 10 + i, course: c) }
        lines += Self.epoch(second: 20, altitude: "1e308", hdop: "inf")
        lines += Self.epoch(second: 21, course: "-90.0")  // a receiver's -180…180 course
        lines += Self.epoch(second: 22, speed: "999.0")   // 514 m/s: the COCOM limit, a real number
        let (fixes, _) = NMEAFile.parse(Data(lines.joined(separator: "\r\n").utf8))
        #expect(fixes.count == speeds.count + courses.count + 3)
        for f in fixes.prefix(speeds.count) {
            #expect(f.speedMetersPerSecond == nil, "\(f)")
            #expect(f.courseDegrees == 60 && f.isUsable)
        }
        for f in fixes.dropFirst(speeds.count).prefix(courses.count) {
            #expect(f.courseDegrees == nil, "\(f)")
            #expect(f.speedMetersPerSecond != nil && f.isUsable)
        }
        let wild = fixes[speeds.count + courses.count]
        #expect(wild.altitudeMeters == nil && wild.hdop == nil && wild.isUsable)
        #expect(fixes[speeds.count + courses.count + 1].courseDegrees == 270)
        #expect(abs((fixes.last?.speedMetersPerSecond ?? 0) - 999 * 0.514444) < 0.01)
    }

    @Test func aDateNoCalendarHasIsNotTaken() throws {
        var lines = Self.epoch(second: 0)
        // a ZDA from the year 3000000000 and an RMC of the 45th month: the good date stands
        lines.append(NMEAWriter.checksummed("GPZDA,120001.00,15,06,3000000000,00,00"))
        lines += Self.epoch(second: 1)
        lines += Self.epoch(second: 2, date: "154524")
        lines.append(NMEAWriter.checksummed("GPZDA,120003.00,15,06,-2024,00,00"))
        lines += Self.epoch(second: 3)
        let (fixes, _) = NMEAFile.parse(Data(lines.joined(separator: "\n").utf8))
        #expect(fixes.map { FixTime.iso8601($0.time) } == ["2024-06-15T12:00:00Z", "2024-06-15T12:00:01Z",
                                                          "2024-06-15T12:00:02Z", "2024-06-15T12:00:03Z"])
    }
}
