import DriveLog
import FoundationEssentials
import Glibc
import Platform
import Geo
import GPSInput
import JSONLines
import MapData
import Navigation
import Routing
import Simulation
import Speech

/// `tern simulate`, `tern replay`, `tern demo`.
enum DriveCommands {
    static func simulate(_ args: [String]) throws -> Int32 {
        let a = try Arguments(args, valued: ["map", "from", "to", "via", "seed", "noise", "o", "output", "start", "outage", "wrong-turn", "model", "truth"],
                              switches: [])
        let mapPath = try a.require("map")
        guard let from = try a.coordinate("from"), let to = try a.coordinate("to") else { throw UsageError("simulate needs --from and --to") }
        guard let out = a.value("o") ?? a.value("output") else { throw UsageError("missing -o D.nmea") }
        let map: RoadMap
        do { map = try RoadMap(path: mapPath) } catch { throw CommandError("\(error)") }
        var options = DriveSimulator.Options()
        options.seed = UInt64(try a.int("seed", default: 1, range: 0...Int.max))
        options.noiseMeters = try a.double("noise", default: 0, range: 0...100)
        if try roadModel(a.value("model")) { options.useRoadModel() }
        if let s = a.value("start") {
            guard let t = FixTime.parse(s) else { throw UsageError("--start \(s): expected YYYY-MM-DDTHH:MM:SSZ") }
            options.startTime = t
        }
        for spec in a.all("outage") {
            // S@T: S seconds without a fix, starting T seconds into the drive
            let parts = spec.split(separator: "@")
            guard parts.count == 2, let seconds = Double(parts[0]), let start = Double(parts[1]), seconds > 0, start >= 0,
                  seconds.isFinite, start.isFinite else {
                throw UsageError("--outage \(spec): expected SECONDS@START, e.g. 40@120")
            }
            options.outages.append((start: start, seconds: seconds))
        }
        let simulator = DriveSimulator(map: map, options: options)
        let vias = try a.coordinates("via")
        let route: Route
        var note = ""
        var plannedRoute: Route?
        if let k = a.value("wrong-turn") {
            guard let turn = Int(k), turn >= 1 else { throw UsageError("--wrong-turn \(k): expected the number of a turn (1 = the first)") }
            guard vias.isEmpty else { throw UsageError("--wrong-turn works on a drive without --via") }
            do {
                let (planned, driven) = try simulator.wrongTurn(from: from, to: to, at: turn)
                route = driven
                plannedRoute = planned
                note = String(printf: ", turn %d missed (planned %.2f km)", turn, planned.distanceMeters / 1000)
            } catch { throw CommandError("\(error)") }
        } else {
            // (the simulated driver goes through the --via points as given, turning round at one
            // where the way on leads back, as before the router drove straight on through waypoints)
            do { route = try Router(map: map).route([from] + vias + [to], continueStraight: false) } catch { throw CommandError("\(error)") }
        }
        let drive = simulator.simulate(route)
        let fixes = drive.fixes
        if let planned = plannedRoute {
            // where the car leaves the planned route: on a road the route does not take and 10 m
            // clear of its line (the bench measures detection from here)
            let edges = Set(planned.legs.flatMap(\.edges)), shape = planned.shape
            func clear(_ c: Coordinate) -> Bool {
                let ruler = CheapRuler(latitude: c.latitude)
                return !zip(shape, shape.dropFirst()).contains { ruler.project(c, onto: $0, $1).distanceMeters < 10 }
            }
            if let off = drive.truth.first(where: { !edges.contains($0.edge) }),
               let leave = drive.truth.first(where: { $0.time >= off.time && !edges.contains($0.edge) && clear($0.coordinate) }) {
                note += String(printf: ", turns off at %@, leaves the route at %@ %.6f,%.6f", FixTime.iso8601(off.time),
                               FixTime.iso8601(leave.time), leave.coordinate.latitude, leave.coordinate.longitude)
                // a detour that comes back onto the planned route (round a block): where it does
                if let back = drive.truth.first(where: { $0.time > leave.time && edges.contains($0.edge) && !clear($0.coordinate) }) {
                    note += ", back on it at " + FixTime.iso8601(back.time)
                }
            }
        }
        do {
            try AtomicFile.write(DriveSimulator.nmea(fixes), to: out)
        } catch { throw CommandError("\(out): cannot write: \(errorText(error))") }
        if let path = a.value("truth") {
            // where the car really was, one JSON line per epoch (for the bench's judgements)
            let lines = drive.truth.map {
                JSONValue.object([("t", .num($0.time, 3)), ("lat", .num($0.coordinate.latitude, 7)), ("lon", .num($0.coordinate.longitude, 7)),
                                  ("speed", .num($0.speedMetersPerSecond, 2)), ("course", .num($0.courseDegrees, 1))]).serialized()
            }
            do { try AtomicFile.write(lines.joined(separator: "\n") + "\n", to: path) } catch {
                throw CommandError("\(path): cannot write: \(errorText(error))")
            }
        }
        let noFix = fixes.filter { $0.mode < .twoD }.count
        printError(String(printf: "tern simulate: %@: %d epochs (%d without a fix), %.0f s, %.2f km%@", out, fixes.count, noFix,
                          (fixes.last?.time ?? 0) - (fixes.first?.time ?? 0), route.distanceMeters / 1000, note))
        return 0
    }

    /// `--model bench|road` (absent: bench): whether the simulated drive uses the road receiver
    /// and driver (RoadConditions.swift).
    static func roadModel(_ value: String?) throws -> Bool {
        switch value ?? "bench" {
        case "bench": return false
        case "road": return true
        case let m: throw UsageError("--model \(m): expected bench or road")
        }
    }

    static let speechOptions: Set<String> = ["device", "wav"]

    static func speechOutput(_ a: Arguments) -> SpeechOutput? {
        if a.has("mute") { return nil }
        if let w = a.value("wav") { return .wavFile(w) }
        return .device(a.value("device") ?? "default")
    }

    static func replay(_ args: [String]) async throws -> Int32 {
        let a = try Arguments(args, valued: ["map", "to", "via", "rate", "log-dir", "device", "wav", "console", "baud", "lang", "units", "off-route"],
                              switches: ["direct", "mute", "quiet"])
        guard a.positional.count == 1 else { throw UsageError("replay takes one NMEA log") }
        guard let to = try a.coordinate("to") else { throw UsageError("replay needs --to LAT,LON") }
        var o = ReplayOptions(log: a.positional[0], mapPath: try a.require("map"), waypoints: (try a.coordinates("via")) + [to])
        o.rate = try a.double("rate", default: 1, range: 0.1...1000)
        o.logDirectory = a.value("log-dir") ?? "drives"
        o.direct = a.has("direct")
        o.speech = speechOutput(a)
        o.fallbackToWAV = a.value("device") == nil
        o.console = a.value("console")
        o.baud = try a.int("baud", default: 115_200, range: 1...4_000_000)
        o.quiet = a.has("quiet")
        if let v = a.value("off-route") {
            guard let policy = OffRoutePolicy(rawValue: v) else {
                throw UsageError("--off-route \(v): expected \(OffRoutePolicy.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            o.offRoutePolicy = policy
        }
        let locale: GuidanceLocale
        do {
            locale = try GuidanceLocale.parse(a.value("lang") ?? "en-GB", setting: "--lang")
            o.locale = locale.code
            // a language chosen brings its customary units; the built-in default is en-GB in metres
            o.units = try a.value("units").map { try Guidance.UnitSystem.parse($0, setting: "--units") }
                ?? (a.value("lang") != nil ? locale.defaultUnits : .metric)
        } catch { throw UsageError("\(error)") }
        guard FileManager.default.isReadableFile(atPath: o.log) else { throw CommandError("\(o.log): no such file or not readable") }
        let r = try await Replay.run(o)
        printSummary(r)
        // (a feed that died is a failed replay, whatever was recorded before it: issue #29)
        return r.feedFailure == nil ? 0 : 1
    }

    static func printSummary(_ r: ReplayResult) {
        if let why = r.feedFailure { printError("tern: \(why); the replay is incomplete") }
        if !r.logLosses.isEmpty { printError("tern: " + DriveRecorder.lossText(r.logLosses)) }
        printError(String(printf: "tern: drive %@ in %@: %d fixes, %d events, %d prompts, %@ (%.1f s)",
                          r.logLosses.isEmpty ? "recorded" : "partly recorded", r.folder, r.fixes, r.events,
                          r.prompts, r.arrived ? "arrived" : "did not arrive", r.seconds))
        if let w = r.wav { printError("tern: prompts spoken into \(w)") }
        if !r.rerouteMillis.isEmpty {
            printError(String(printf: "tern: %d reroutes; off-route detection to the new route's first prompt: %@ ms", r.rerouteMillis.count,
                              r.rerouteMillis.map { String(printf: "%.1f", $0) }.joined(separator: ", ")))
        }
    }

    static func demo(_ args: [String]) async throws -> Int32 {
        let a = try Arguments(args, valued: ["rate", "log-dir", "device", "wav", "noise"], switches: ["mute", "quiet", "direct"])
        let rate = try a.double("rate", default: 4, range: 0.1...1000)
        let noise = try a.double("noise", default: 2, range: 0...50)
        let logDir = a.value("log-dir") ?? "drives"
        let work = Paths.temporaryDirectory + "tern-demo-\(getpid())"
        try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: work) }
        let mapPath = Paths.join(work, "demo-town.tmap")
        let summary: ImportSummary
        do { summary = try DemoTown.build(mapPath: mapPath, workDirectory: work) } catch { throw CommandError("building the demo town: \(error)") }
        printError("tern demo: demo town imported: \(summary.line)")
        let map: RoadMap
        do { map = try RoadMap(path: mapPath) } catch { throw CommandError("\(error)") }
        let route: Route
        do { route = try Router(map: map).route([DemoTown.start, DemoTown.destination]) } catch { throw CommandError("demo route: \(error)") }
        var options = DriveSimulator.Options()
        options.noiseMeters = noise
        options.seed = 7
        let fixes = DriveSimulator(map: map, options: options).drive(route)
        let log = Paths.join(work, "demo-drive.nmea")
        try AtomicFile.write(DriveSimulator.nmea(fixes), to: log)
        printError(String(printf: "tern demo: simulated drive of %.2f km, %d fixes; replaying at %gx through %@", route.distanceMeters / 1000,
                          fixes.count, rate, a.has("direct") ? "the log directly" : "gpsfake → gpsd → tern"))
        var o = ReplayOptions(log: log, mapPath: mapPath, waypoints: [DemoTown.destination])
        o.rate = rate
        o.logDirectory = logDir
        o.speech = speechOutput(a)
        o.fallbackToWAV = a.value("device") == nil
        o.quiet = a.has("quiet")
        o.direct = a.has("direct")
        let r = try await Replay.run(o)
        // keep the demo's map and log beside the drive for `tern replay` and inspection
        for (file, name) in [(log, "demo-drive.nmea"), (mapPath, "demo-town.tmap")] {
            try? FileManager.default.copyItem(atPath: file, toPath: Paths.join(r.folder, name))
        }
        printSummary(r)
        return r.arrived ? 0 : 1
    }
}

import Guidance
import MapCompiler
