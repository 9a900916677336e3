import Foundation
import GPSInput
import Guidance
import MapData
import Routing
import Simulation
import TestSupport
import Testing

/// Issue #29: a drive whose receiver reports impossible numbers (speeds of inf and 1e9 knots,
/// a course of 1e9°, a ZDA year of 3000000000) trapped `replay --direct` and `match`. The whole
/// pipeline, as the car runs it, now guides it to the end.
@Suite struct HostileDriveTests {
    @Test func aDriveWithImpossibleNumbersIsGuidedToTheEnd() async throws {
        let dir = TempDir()
        defer { dir.remove() }
        let map = try TownDrive.map(dir)
        let clean = try await TownDrive.drive(dir, map: map)
        var hostile = [String](), rmc = 0
        let wild = ["inf", "nan", "1e19", "-1e19", "1000000000", "1e308"]
        for line in try String(contentsOfFile: clean, encoding: .utf8).split(whereSeparator: \.isNewline) {
            guard line.hasPrefix("$GPRMC"), let star = line.lastIndex(of: "*") else { hostile.append(String(line)); continue }
            var f = line[line.index(after: line.startIndex)..<star].split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            rmc += 1
            if rmc % 3 == 0 { f[7] = wild[(rmc / 3) % wild.count] }
            if rmc % 5 == 0 { f[8] = "1000000000" }
            hostile.append(NMEAWriter.checksummed(f.joined(separator: ",")))
            if rmc % 7 == 0 { hostile.append(NMEAWriter.checksummed("GPZDA,\(f[1]),15,06,3000000000,00,00")) }
        }
        let nmea = dir.file("hostile.nmea")
        try hostile.joined(separator: "\n").write(toFile: nmea, atomically: true, encoding: .utf8)
        let r = try await TernBinary.run(["replay", nmea, "--map", map, "--to", TownDrive.to, "--direct",
                                          "--log-dir", dir.file("drives"), "--mute"], timeout: 120, in: dir)
        #expect(r.exitCode == 0, "\(r.output.suffix(800))")
        #expect(r.output.contains("arrived"), "\(r.output.suffix(400))")
        let folders = try FileManager.default.contentsOfDirectory(atPath: dir.file("drives"))
        let events = try String(contentsOfFile: dir.file("drives/\(try #require(folders.first))/events.jsonl"), encoding: .utf8)
        #expect(!events.contains(#""lat":null"#) && !events.contains(#""lon":null"#))
        let m = try await TernBinary.run(["match", "--map", map, "--trace", nmea], timeout: 120, in: dir)
        #expect(m.exitCode == 0, "\(m.output.suffix(800))")
    }

    /// The other ways a wild number came in (found by reading every Double→Int conversion): a
    /// position off the globe in a trace, a grid look-up at a finite latitude of 1e295, a
    /// traffic speed of 1e-300 km/h, distances of NaN or inf to put into words.
    @Test func wildNumbersFromOtherInputsAreRefusedOrBounded() async throws {
        let dir = TempDir()
        defer { dir.remove() }
        let map = try TownDrive.map(dir)
        let trace = dir.file("trace.json")
        try "[[49.0, 8.0], [1e300, 0.5]]".write(toFile: trace, atomically: true, encoding: .utf8)
        let m = try await TernBinary.run(["match", "--map", map, "--trace", trace], timeout: 60, in: dir)
        #expect(m.exitCode == 1 && m.output.contains("point 1: not a position on the globe"), "\(m.output.suffix(300))")
        var cells = [Int]()
        try RoadMap(path: map).gridCells(nearLatitude: 1e295...2e295, longitude: -1e300...1e300, into: &cells)
        #expect(cells.isEmpty)
        #expect(throws: TrafficError.self) { try TrafficConditions.parse("42 1e-300\n", source: "t") }
        for wild in [Double.nan, .infinity, -.infinity, -1e300, 1e300] {
            #expect(!Instructions(units: .metric).shortDistance(wild).isEmpty)
        }
    }
}
