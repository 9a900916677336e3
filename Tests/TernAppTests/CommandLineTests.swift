import Foundation
import Geo
import MapCompiler
import Speech
import TestSupport
import Testing

@Suite struct CommandLineTests {
    /// `tern demo`: the demo town, a simulated drive through gpsfake → gpsd → tern, arrival, within 120 s.
    @Test(.timeLimit(.minutes(TestTiming.minutes(3)))) func demoReachesArrival() async throws {
        let dir = TempDir()
        defer { dir.remove() }
        let r = try await TernBinary.run(["demo", "--rate", "20", "--log-dir", dir.file("drives")], timeout: 120, in: dir)
        #expect(r.status != nil, "tern demo did not finish in 120 s:\n\(r.output.suffix(2000))")
        #expect(r.exitCode == 0, "\(r.output.suffix(2000))")
        #expect(r.output.contains("[GUIDING]"))
        #expect(r.output.contains("[ARRIVED]"))
        let drives = try FileManager.default.contentsOfDirectory(atPath: dir.file("drives"))
        let folder = try #require(drives.first.map { dir.file("drives/\($0)") })
        let events = try String(contentsOfFile: folder + "/events.jsonl", encoding: .utf8)
        #expect(events.contains(#""event":"arrived""#))
        #expect(events.contains(#""event":"prompt""#))
        let raw = try String(contentsOfFile: folder + "/raw.nmea", encoding: .utf8)
        #expect(raw.contains("$GPRMC,"))  // gpsd passed the receiver's sentences on
        if SpeechEngine.deviceProblem("default") != nil {
            // no sound card here: the prompts went into the drive folder
            #expect(FileManager.default.fileExists(atPath: folder + "/prompts.wav"))
            #expect(r.output.contains("no sound card"))
        }
        print("tern demo: \(String(format: "%.1f", r.seconds)) s")
    }

    /// `tern import` succeeds on every extract and `tern route` answers every benchmark query.
    @Test(.enabled(if: SharedData.isAvailable, Comment(rawValue: SharedData.missingMessage)), arguments: ["monaco", "andorra", "liechtenstein", "heidelberg"])
    func importAndRouteEveryQuery(extract: String) async throws {
        let dir = TempDir()
        defer { dir.remove() }
        let map = dir.file("\(extract).tmap")
        let imp = try await TernBinary.run(["import", SharedData.path("osm/\(extract).osm.pbf"), "-o", map], timeout: 120, in: dir)
        #expect(imp.exitCode == 0, "\(imp.output)")
        #expect(imp.output.contains("kept"))
        // the size the binary reports is the file's (the process links no Foundation: a size
        // read as FileManager's UInt attribute was once silently 0)
        let size = try FileManager.default.attributesOfItem(atPath: map)[.size] as? NSNumber
        #expect(imp.output.contains(String(format: ", %.1f MB", (size?.doubleValue ?? 0) / 1e6)), "\(imp.output)")
        let info = try await TernBinary.run(["map-info", map, "--json"], timeout: 30, in: dir)
        #expect(info.exitCode == 0)
        let infoJSON = try JSONSerialization.jsonObject(with: Data(info.output.utf8)) as? [String: Any]
        #expect((infoJSON?["edges"] as? Int ?? 0) > 1000)
        let out = dir.file("routes.json")
        let route = try await TernBinary.run(["route", "--map", map, "--queries", SharedData.path("bench/\(extract)-queries.json"), "--json"], timeout: 300, in: dir)
        #expect(route.exitCode == 0)
        try route.output.write(toFile: out, atomically: true, encoding: .utf8)
        let answers = try JSONSerialization.jsonObject(with: Data(route.output.utf8)) as? [[String: Any]] ?? []
        let queries = try BenchQueries.load(extract)
        #expect(answers.count == queries.count)
        #expect(answers.map { $0["id"] as? String } == queries.map(\.id))
        for a in answers {
            #expect(a["ok"] as? Bool == true, "\(a["id"] ?? ""): \(a["error"] ?? "")")
            for key in ["micros", "distance_m", "duration_s", "shape", "maneuvers"] { #expect(a[key] != nil, "missing \(key)") }
            let maneuvers = a["maneuvers"] as? [[String: Any]] ?? []
            #expect(maneuvers.first?["type"] as? String == "depart")
            #expect(maneuvers.last?["type"] as? String == "arrive")
        }
    }

    /// The car profile's import options reach the map and are recorded in its build information.
    @Test func importOptionsAreKeptInTheMap() async throws {
        let dir = TempDir()
        defer { dir.remove() }
        var s = ScenarioMap(ascii: "a b c", columnMeters: 100, rowMeters: 100, origin: Coordinate(latitude: 51.5, longitude: -0.1))
        s.ways = [.init("ab", [("highway", "motorway"), ("name", "M1")]), .init("bc", [("highway", "primary"), ("name", "A1")])]
        try s.write(to: dir.file("uk.osm"))
        let imp = try await TernBinary.run(["import", dir.file("uk.osm"), "-o", dir.file("uk.tmap"), "--driving-side", "left",
                                            "--avoid", "motorway", "--shortest"], timeout: 60, in: dir)
        #expect(imp.exitCode == 0, "\(imp.output)")
        let info = try await TernBinary.run(["map-info", dir.file("uk.tmap"), "--json"], timeout: 30, in: dir)
        let json = try JSONSerialization.jsonObject(with: Data(info.output.utf8)) as? [String: Any]
        let build = json?["build"] as? [String: Any]
        #expect(build?["driving_side"] as? String == "left")
        #expect(build?["avoid"] as? [String] == ["motorway"])
        #expect(build?["weight"] as? String == "distance")
        #expect(json?["edges"] as? Int == 1, "the motorway is left out: \(info.output)")
    }

    @Test func badInputsGetOneLineErrors() async throws {
        let dir = TempDir()
        defer { dir.remove() }
        try "not a map".write(toFile: dir.file("bad.tmap"), atomically: true, encoding: .utf8)
        try "map = x.tmap\nprogress-meters = -5\n".write(toFile: dir.file("bad.conf"), atomically: true, encoding: .utf8)
        try "off-route = sometimes\n".write(toFile: dir.file("bad2.conf"), atomically: true, encoding: .utf8)
        // the shipped configuration has only settings tern knows: it gets as far as the map
        let shipped = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../deploy/tern.conf").path
        let cases: [([String], Int32, String)] = [
            (["run", "--config", dir.file("bad.conf")], 1, "bad.conf:2: progress-meters must be a positive number"),
            (["run", "--config", dir.file("bad2.conf")], 1, "bad2.conf:1: off-route must be tern, mapbox, osmand"),
            (["run", "--config", shipped, "--map", dir.file("missing.tmap")], 1, "cannot open map"),
            (["run", "--config", shipped, "--timezone", "Mars/Olympus_Mons"], 1, "--timezone: timezone Mars/Olympus_Mons is not a zone name"),
            (["replay", dir.file("none.nmea"), "--map", dir.file("bad.tmap"), "--to", "1,2", "--off-route", "often"], 2, "--off-route often"),
            (["map-info", dir.file("bad.tmap")], 1, "not a Tern map"),
            (["route", "--map", dir.file("missing.tmap"), "--from", "1,2", "--to", "3,4"], 1, "cannot open map"),
            (["route", "--map", dir.file("bad.tmap"), "--from", "north", "--to", "3,4"], 2, "expected LAT,LON"),
            (["import", dir.file("nothing.osm.pbf"), "-o", dir.file("x.tmap")], 1, "no such file"),
            (["import", dir.file("bad.conf"), "-o", dir.file("x.tmap"), "--driving-side", "middle"], 2, "--driving-side is left or right"),
            (["import", dir.file("bad.conf"), "-o", dir.file("x.tmap"), "--avoid", "motorwya"], 2, "motorwya is not a highway type"),
            (["frobnicate"], 2, "unknown command"),
            (["replay", dir.file("none.nmea"), "--map", dir.file("bad.tmap"), "--to", "1,2"], 1, "not readable"),
        ]
        for (args, code, text) in cases {
            let r = try await TernBinary.run(args, timeout: 30, in: dir)
            #expect(r.exitCode == code, "\(args): \(r.output)")
            #expect(r.output.contains(text), "\(args): \(r.output)")
            // a usage error is the error, the command's first usage line and where the rest is; not thirty lines
            if code == 2 { #expect(r.output.split(separator: "\n").count <= 3, "\(args): \(r.output)") }
        }
    }

    /// The same log replayed twice through gpsfake and gpsd gives byte-identical events.
    @Test(.timeLimit(.minutes(TestTiming.minutes(3)))) func replayThroughGpsdIsRepeatable() async throws {
        let dir = TempDir()
        defer { dir.remove() }
        let demo = try await TernBinary.run(["demo", "--rate", "40", "--quiet", "--mute", "--direct", "--log-dir", dir.file("d0")], timeout: 60, in: dir)
        #expect(demo.exitCode == 0, "\(demo.output)")
        let folder0 = dir.file("d0/" + (try FileManager.default.contentsOfDirectory(atPath: dir.file("d0")).first ?? ""))
        var runs = [String]()
        for i in 1...2 {
            let r = try await TernBinary.run(["replay", folder0 + "/demo-drive.nmea", "--map", folder0 + "/demo-town.tmap",
                                        "--to", "\(DemoTownPoint.destination)", "--rate", "40", "--quiet", "--mute",
                                        "--log-dir", dir.file("d\(i)")], timeout: 90, in: dir)
            #expect(r.exitCode == 0, "\(r.output)")
            let f = dir.file("d\(i)/" + (try FileManager.default.contentsOfDirectory(atPath: dir.file("d\(i)")).first ?? ""))
            runs.append(try String(contentsOfFile: f + "/events.jsonl", encoding: .utf8))
        }
        #expect(runs[0].contains(#""event":"arrived""#))
        #expect(runs[0] == runs[1])
    }
}

import Simulation

enum DemoTownPoint {
    static var destination: String { String(format: "%.7f,%.7f", DemoTown.destination.latitude, DemoTown.destination.longitude) }
}

/// `tern CMD --help` prints that command's usage and exits 0, for every command the usage lists.
@Test func everyCommandAnswersHelp() async throws {
    let dir = TempDir()
    defer { dir.remove() }
    for command in ["import", "map-info", "search", "route", "match", "simulate", "replay", "demo", "run", "ctl", "say", "gpx", "report",
                    "check-features", "bench-match", "bench"] {
        let r = try await TernBinary.run([command, "--help"], timeout: 30, in: dir)
        #expect(r.exitCode == 0, "\(command): \(r.output)")
        let lines = r.output.split(separator: "\n")
        #expect(lines.first == "usage:" && lines.dropFirst().first?.hasPrefix("  \(command)") == true, "\(command): \(r.output)")
        #expect(!r.output.contains("usage: tern COMMAND"), "\(command) printed the whole usage")
    }
}

/// `tern --version`: the version, the commit it was built from (or "unknown" outside git) and
/// the map format it reads.
@Test func versionNamesCommitAndMapFormat() async throws {
    let dir = TempDir()
    defer { dir.remove() }
    let r = try await TernBinary.run(["--version"], timeout: 30, in: dir)
    #expect(r.exitCode == 0)
    #expect(r.output.contains(/^tern \d+\.\d+\.\d+ \(commit ([0-9a-f]{12}(-modified)?|unknown)\); reads maps of format \d+/), "\(r.output)")
}

