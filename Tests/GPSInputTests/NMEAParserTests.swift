import Foundation
import Geo
import GPSInput
import TestSupport
import Testing

@Suite struct NMEAParserTests {
    static let rmc = "$GPRMC,120000.00,A,4344.3040,N,00725.4760,E,27.0,60.0,150624,,,A*5F"
    static let gga = "$GPGGA,120000.00,4344.3040,N,00725.4760,E,1,08,0.9,50.0,M,47.0,M,,*5D"
    static let gsa = "$GPGSA,A,3,01,02,03,04,05,06,07,08,,,,,1.8,0.9,1.5*3E"

    @Test func oneEpochGivesOneFix() throws {
        let data = Data([Self.rmc, Self.gga, Self.gsa].joined(separator: "\r\n").utf8)
        let (fixes, stats) = NMEAFile.parse(data)
        #expect(fixes.count == 1)
        let f = try #require(fixes.first)
        #expect(abs(f.coordinate.latitude - (43 + 44.304 / 60)) < 1e-9)
        #expect(abs(f.coordinate.longitude - (7 + 25.476 / 60)) < 1e-9)
        #expect(f.mode == .threeD)
        #expect(abs(f.speedMetersPerSecond! - 27.0 * 0.514444) < 1e-3)
        #expect(f.courseDegrees == 60)
        #expect(f.altitudeMeters == 50)
        #expect(f.hdop == 0.9)
        #expect(FixTime.iso8601(f.time) == "2024-06-15T12:00:00Z")
        #expect(stats.badChecksum == 0 && stats.malformed == 0)
    }

    @Test func badChecksumIsSkippedAndCounted() {
        let bad = Self.rmc.replacingOccurrences(of: "*5F", with: "*5E")
        let (fixes, stats) = NMEAFile.parse(Data([bad, Self.gsa].joined(separator: "\n").utf8))
        #expect(fixes.isEmpty)
        #expect(stats.badChecksum == 1)
    }

    @Test(arguments: [
        "", "garbage", "$", "$GP", "$GPRMC", "$GPRMC,,,,,,,,,,,*", "$GPRMC,999999,A,xx,N,yy,E,,,,,,*00",
        "\u{0}\u{1}\u{2}$GPGGA,1,2,3*ZZ", "$GPGGA,120000.00,9944.3040,N,00725.4760,E,1,08,0.9,50.0,M,47.0,M,,",
        "$GPRMC,120000.00,A,4344.3040,Q,00725.4760,E,27.0,60.0,150624,,,A", String(repeating: "$GPRMC,", count: 1000),
        "$GPRMC,120000.00,A,4344.3040,N,00725.4760,E,27.0,60.0,991399,,,A",
    ])
    func garbageNeverTraps(line: String) {
        var parser = NMEAParser()
        _ = parser.feed(line: line)
        _ = parser.feed(line: Self.gga)
        _ = parser.finish()
        #expect(parser.stats.lines == 2)
    }

    /// What the parser tolerates around a sentence, read byte by byte since the parser no longer
    /// walks Characters: leading garbage, "$$", a lower-case checksum, CR/LF and trailing spaces;
    /// and a checksum that is not two hex digits is a bad checksum, not a good one.
    @Test func toleratedShapesOfASentence() throws {
        let lower = Self.rmc.replacingOccurrences(of: "*5F", with: "*5f")
        let shapes = ["xx\u{1}$" + Self.rmc, "$" + Self.rmc, lower, Self.rmc + " \r", Self.rmc + "\r\n"]
        for line in shapes {
            var parser = NMEAParser()
            _ = parser.feed(line: line)
            _ = parser.feed(line: Self.gga)
            let last = parser.finish()
            let fix = try #require(last, "\(line.debugDescription)")
            #expect(fix.courseDegrees == 60, "\(line.debugDescription)")
            #expect(parser.stats.badChecksum == 0 && parser.stats.malformed == 0, "\(line.debugDescription)")
        }
        for bad in ["*5", "*5G", "*+F", "*5F5"] {
            var parser = NMEAParser()
            _ = parser.feed(line: Self.rmc.replacingOccurrences(of: "*5F", with: bad))
            #expect(parser.stats.badChecksum == 1, "\(bad)")
        }
    }

    @Test func noDateMeansNoFix() {
        // GGA alone has a time of day but no date: a fix cannot be placed in time.
        let (fixes, stats) = NMEAFile.parse(Data(Self.gga.utf8))
        #expect(fixes.isEmpty)
        #expect(stats.sentences == 1)
    }

    @Test func epochsSplitOnTimeAndMidnightRollsTheDate() {
        var lines = [String]()
        for (i, t) in [(0, "235959.00"), (1, "000000.00"), (2, "000001.00")] {
            let body = "GPGGA,\(t),4344.3040,N,00725.4760,E,1,08,0.9,50.0,M,47.0,M,,"
            if i == 0 {
                lines.append(NMEAWriter.checksummed("GPRMC,\(t),A,4344.3040,N,00725.4760,E,1.0,60.0,150624,,,A"))
            }
            lines.append(NMEAWriter.checksummed(body))
        }
        let (fixes, _) = NMEAFile.parse(Data(lines.joined(separator: "\n").utf8))
        #expect(fixes.map { FixTime.iso8601($0.time) } == ["2024-06-15T23:59:59Z", "2024-06-16T00:00:00Z", "2024-06-16T00:00:01Z"])
    }

    @Test func writerRoundTrips() throws {
        let fix = GPSFix(time: 1_718_452_800.5, coordinate: Coordinate(latitude: -33.856789, longitude: -151.215432), mode: .threeD,
                         speedMetersPerSecond: 13.9, courseDegrees: 271.5, altitudeMeters: 20, horizontalErrorMeters: 5, hdop: 1.1)
        let (fixes, stats) = NMEAFile.parse(Data(NMEAWriter.sentences(for: fix).joined(separator: "\r\n").utf8))
        let f = try #require(fixes.first)
        #expect(stats.badChecksum == 0 && stats.malformed == 0 && stats.missingChecksum == 0)
        #expect(f.coordinate.distance(to: fix.coordinate) < 0.2)
        #expect(abs(f.time - fix.time) < 0.01)
        #expect(abs(f.speedMetersPerSecond! - 13.9) < 0.01)
        #expect(f.courseDegrees == 271.5)
        #expect(abs(f.horizontalErrorMeters! - 5) < 0.2)
    }
}
