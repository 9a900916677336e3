import Foundation
import Geo
import MapData
import TestSupport
import Simulation
import Testing

/// `tern match` on the recorded tracks of ../shared/data/traces against what GraphHopper's tests
/// assert for them (expected-matches.json), `tern simulate` with outages and a wrong turn, and
/// `tern bench-match` on every extract against the accuracy targets.
@Suite struct MatchCommandTests {
    struct Summary {
        var points = 0, matched = 0
        var streets: [String] = []
        var trackMeters = 0.0, roadMeters = 0.0
    }

    /// Parses the text output: "N points, M matched; streets: a, b" and "track X m, matched road path Y m".
    static func summary(_ output: String) throws -> Summary {
        var s = Summary()
        let first = try #require(output.firstMatch(of: /(\d+) points, (\d+) matched; streets: ([^\n]*)/))
        s.points = Int(first.1)!
        s.matched = Int(first.2)!
        s.streets = first.3.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        let second = try #require(output.firstMatch(of: /track ([\d.]+) m, matched road path ([\d.]+) m/))
        s.trackMeters = Double(second.1)!
        s.roadMeters = Double(second.2)!
        return s
    }

    static func match(_ trace: String, map: RoadMap, extra: [String] = [], in dir: TempDir) async throws -> TernBinary.Result {
        try await TernBinary.run(["match", "--map", map.path, "--trace", SharedData.path(trace)] + extra, timeout: 120, in: dir)
    }

    /// GraphHopper issue 70 (Novi Sad): the streets in driving order.
    @Test(.enabled(if: SharedData.isAvailable, Comment(rawValue: SharedData.missingMessage))) func noviSadStreets() async throws {
        let dir = TempDir()
        defer { dir.remove() }
        let map = try TestMaps.shared("traces/novi-sad/issue-70.osm.pbf")
        let r = try await Self.match("traces/novi-sad/issue-70.gpx", map: map, in: dir)
        #expect(r.exitCode == 0, "\(r.output)")
        let s = try Self.summary(r.output)
        #expect(s.matched == s.points)
        #expect(s.streets == ["Милана Видака", "Бранка Радичевића", "Здравка Челара"], "\(r.output)")
    }

    /// GraphHopper issue 13 (Istanbul): the matched length within 2.5 m of the track's; issue
    /// 127: two identical points match without failing, a path of length 0.
    @Test(.enabled(if: SharedData.isAvailable, Comment(rawValue: SharedData.missingMessage))) func istanbulLengthsAndIdenticalPoints() async throws {
        let dir = TempDir()
        defer { dir.remove() }
        let map = try TestMaps.shared("traces/istanbul/map-issue13.osm.pbf")
        let r13 = try await Self.match("traces/istanbul/issue-13.gpx", map: map, in: dir)
        #expect(r13.exitCode == 0, "\(r13.output)")
        let s13 = try Self.summary(r13.output)
        #expect(s13.matched == s13.points)
        #expect(abs(s13.roadMeters - s13.trackMeters) <= 2.5, "\(r13.output)")
        let r127 = try await Self.match("traces/istanbul/issue-127.gpx", map: map, in: dir)
        #expect(r127.exitCode == 0, "\(r127.output)")
        let s127 = try Self.summary(r127.output)
        #expect(s127.points == 2 && s127.matched == 2)
        #expect(s127.roadMeters == 0)
    }

    /// GraphHopper issue 3023 (Andorra): no detours into dead ends, matched length below 1.5 ×
    /// the track's. expected-matches.json (after GraphHopper's test) says the track follows CG-2
    /// near Soldeu; on the map it runs along CG-3 (Carretera General) at les Salines, north of
    /// Ordino, and turns onto the unnamed secondary road towards el Serrat at OSM node 51582530;
    /// that is what is checked here.
    @Test(.enabled(if: SharedData.isAvailable, Comment(rawValue: SharedData.missingMessage))) func andorraNoDeadEndDetours() async throws {
        let dir = TempDir()
        defer { dir.remove() }
        let map = try TestMaps.extract("andorra")
        let r = try await Self.match("traces/andorra/andorra_for_map_matching.gpx", map: map, extra: ["--sigma", "20"], in: dir)
        #expect(r.exitCode == 0, "\(r.output)")
        let s = try Self.summary(r.output)
        #expect(s.matched == s.points)
        #expect(s.roadMeters / s.trackMeters < 1.5, "\(r.output)")
        #expect(s.streets == ["Carretera General", "(unnamed secondary)"], "\(r.output)")
        let json = try await Self.match("traces/andorra/andorra_for_map_matching.gpx", map: map, extra: ["--json"], in: dir)
        let items = try #require(try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [[String: Any]])
        #expect(items.count == s.points)
        #expect(items.map { $0["i"] as? Int } == Array(0..<s.points))
        // CG-3's two ways meeting at node 51582530, and the secondary road leaving it
        let ways = items.compactMap { $0["way_id"] as? Int }
        #expect(Set(ways).isSubset(of: [24374048, 177526454, 23857247]), "\(ways)")
        #expect(ways.first == 177526454 && ways.last == 23857247, "\(ways)")
    }

    /// GPX 1.0, Barefoot JSON and GPX without milliseconds parse; a file with only a route and
    /// waypoints, or without track points, is refused with a clear message.
    @Test(.enabled(if: SharedData.isAvailable, Comment(rawValue: SharedData.missingMessage))) func traceFormatsAndRefusals() async throws {
        let dir = TempDir()
        defer { dir.remove() }
        let map = try TestMaps.demoTown()  // far away from every trace: nothing matches, everything parses
        for (trace, points) in [("traces/gpx-edge-cases/gpxv1_0.gpx", 14), ("traces/gpx-edge-cases/test2_no_millis.gpx", 3),
                                ("traces/munich/x0001-015.json", 80), ("traces/munich/x0001-015.gpx", 80)] {
            let r = try await Self.match(trace, map: map, extra: ["--json"], in: dir)
            #expect(r.exitCode == 0, "\(trace): \(r.output)")
            let items = try JSONSerialization.jsonObject(with: Data(r.output.utf8)) as? [[String: Any]] ?? []
            #expect(items.count == points, "\(trace)")
            #expect(items.allSatisfy { $0["matched"] is NSNull }, "\(trace)")
        }
        for trace in ["traces/gpx-edge-cases/test-only-wpt.gpx", "traces/gpx-edge-cases/no_trk.gpx",
                      "traces/gpx-edge-cases/no_trkpt.gpx", "traces/gpx-edge-cases/no_trkseg.gpx"] {
            let r = try await Self.match(trace, map: map, in: dir)
            #expect(r.exitCode == 1, "\(trace): \(r.output)")
            #expect(r.output.contains("no tracks found"), "\(trace): \(r.output)")
            #expect(r.output.contains((trace as NSString).lastPathComponent))
        }
    }

    /// `tern simulate` with an outage and a missed turn writes RMC/GGA/GSA for every epoch
    /// (no-fix epochs marked void), and `tern match --json` on it gives one object per epoch
    /// with a fix, in order, matched to the demo town's roads.
    @Test func simulateWithOutageAndWrongTurnThenMatch() async throws {
        let dir = TempDir()
        defer { dir.remove() }
        let map = try TestMaps.demoTown()
        let nmea = dir.file("drive.nmea")
        let from = String(format: "%.6f,%.6f", DemoTownPoint.start.latitude, DemoTownPoint.start.longitude)
        let sim = try await TernBinary.run(["simulate", "--map", map.path, "--from", from, "--to", DemoTownPoint.destination,
                                            "--noise", "3", "--seed", "7", "--outage", "20@30", "--wrong-turn", "1", "-o", nmea],
                                           timeout: 60, in: dir)
        #expect(sim.exitCode == 0, "\(sim.output)")
        #expect(sim.output.contains("20 without a fix"), "\(sim.output)")
        #expect(sim.output.contains("turn 1 missed"), "\(sim.output)")
        let text = try String(contentsOfFile: nmea, encoding: .utf8)
        let rmc = text.components(separatedBy: "\r\n").filter { $0.hasPrefix("$GPRMC") }
        #expect(text.components(separatedBy: "\r\n").filter { $0.hasPrefix("$GPGGA") }.count == rmc.count)
        #expect(text.components(separatedBy: "\r\n").filter { $0.hasPrefix("$GPGSA") }.count == rmc.count)
        let void = rmc.filter { $0.split(separator: ",", omittingEmptySubsequences: false)[2] == "V" }
        #expect(void.count == 20)
        let r = try await TernBinary.run(["match", "--map", map.path, "--trace", nmea, "--json"], timeout: 60, in: dir)
        #expect(r.exitCode == 0, "\(r.output)")
        let items = try #require(try JSONSerialization.jsonObject(with: Data(r.output.utf8)) as? [[String: Any]])
        #expect(items.count == rmc.count - 20)
        #expect(items.map { $0["i"] as? Int } == Array(0..<items.count))
        let matched = items.filter { !($0["matched"] is NSNull) }.count
        #expect(Double(matched) >= 0.99 * Double(items.count))
        // the drive log's own track.jsonl reads as a track; an empty or foreign file is an error
        let track = dir.file("track.jsonl")
        try items.map { #"{"t":"2026-12-07T06:00:00Z","lat":\#($0["lat"]!),"lon":\#($0["lon"]!),"speed_mps":null}"# }
            .joined(separator: "\n").write(toFile: track, atomically: true, encoding: .utf8)
        let fromLog = try await TernBinary.run(["match", "--map", map.path, "--trace", track], timeout: 60, in: dir)
        #expect(fromLog.exitCode == 0 && fromLog.output.hasPrefix("\(items.count) points"), "\(fromLog.output)")
        for (name, text, says) in [("empty.nmea", "", "no fix in it"), ("notes.txt", "shopping list\n", "no fix in it"),
                                   ("empty.json", "[]", "no points in it"), ("bad.jsonl", "{\"x\":1}\n", "bad.jsonl:1: expected")] {
            try text.write(toFile: dir.file(name), atomically: true, encoding: .utf8)
            let r = try await TernBinary.run(["match", "--map", map.path, "--trace", dir.file(name)], timeout: 30, in: dir)
            #expect(r.exitCode == 1 && r.output.contains(says), "\(name): \(r.output)")
        }
        let bad = dir.file("bad")
        let refused = try await TernBinary.run(["simulate", "--map", map.path, "--from", from, "--to", DemoTownPoint.destination,
                                                "--outage", "forty", "-o", bad], timeout: 30, in: dir)
        #expect(refused.exitCode == 2 && refused.output.contains("SECONDS@START"), "\(refused.output)")
    }

    /// The issue's accuracy targets on simulated 1 Hz drives with receiver noise on every extract
    /// (a sample of drives here; `scripts/bench.sh` runs all 100 per extract and Valhalla beside).
    @Test(.enabled(if: SharedData.isAvailable, Comment(rawValue: SharedData.missingMessage)), arguments: ["monaco", "andorra", "liechtenstein", "heidelberg"])
    func benchMatchMeetsTargets(extract: String) async throws {
        let dir = TempDir()
        defer { dir.remove() }
        let map = try TestMaps.extract(extract)
        let r = try await TernBinary.run(["bench-match", "--map", map.path, "--queries", SharedData.path("bench/\(extract)-queries.json"),
                                          "--drives", "12", "--json"], timeout: 300, in: dir)
        #expect(r.exitCode == 0, "\(r.output)")
        let o = try #require(try JSONSerialization.jsonObject(with: Data(r.output.utf8)) as? [String: Any])
        let right = try #require(o["right_road"] as? Double), median = try #require(o["median_error_m"] as? Double)
        let raw = try #require(o["raw_rms_m"] as? Double), filtered = try #require(o["filtered_rms_m"] as? Double)
        #expect((o["fixes"] as? Int ?? 0) > 3000)
        #expect(right >= 0.99, "\(extract): right road \(right)")
        #expect(median <= 3, "\(extract): median error \(median) m")
        #expect(filtered <= 0.65 * raw, "\(extract): RMS \(raw) → \(filtered) m")
        #expect((o["road_flips"] as? Int ?? 99) <= 3, "\(extract): \(o["road_flips"] ?? "")")
        print("bench-match \(extract): \(r.output)")
    }
}

extension DemoTownPoint {
    static var start: Coordinate { DemoTown.start }
}
