import Drive
import Dispatch
import FoundationEssentials
import Glibc
import Platform
import Geo
import GPSInput
import JSONLines
import MapData
import MapMatching
import Navigation
import Positioning
import Routing
import Simulation

/// `tern bench-match --map MAP --queries Q.json [--noise M] [--model road] [--follow] [--drives N] [--export DIR] [--free] [--json]`:
/// simulated 1 Hz drives along routes of the query file with the receiver noise model (white
/// noise, wandering bias, rare 30–60 m outliers), through the car's `DriveEngine` guided to the
/// drive's end (`--free`: no destination, so no route prior); prints how often the right road was matched, the distance from the true
/// position, raw and filtered RMS error, and the cost per fix. `--export` writes each drive's
/// noisy trace (Valhalla trace_attributes request JSON) with its truth, for comparisons.
enum BenchMatchCommand {
    struct Totals {
        var fixes = 0, rightRoad = 0, matched = 0, positions = 0, provisionalRightRoad = 0
        var matchedErrors: [Double] = []
        var rawSquared = 0.0, filteredSquared = 0.0
        var micros: [Double] = []
        /// Whole-drive time of the chain summed over drives (ns): the first pass (nothing of the
        /// map copied yet), and the best of the later passes.
        var coldDriveNanos: UInt64 = 0
        var bestDriveNanos: UInt64 = 0
        var flips = 0
    }

    static func run(_ args: [String]) throws -> Int32 {
        let a = try Arguments(args, valued: ["map", "queries", "noise", "drives", "export", "seed", "passes", "model"],
                              switches: ["json", "free", "follow"])
        let map: RoadMap
        do { map = try RoadMap(path: try a.require("map")) } catch { throw CommandError("\(error)") }
        let queries = try MapCommands.loadQueries(try a.require("queries"))
        let drives = try a.int("drives", default: queries.count, range: 1...10_000)
        let noise = try a.double("noise", default: 3, range: 0...50)
        let seed = try a.int("seed", default: 1, range: 0...Int(Int32.max))
        let passes = try a.int("passes", default: 4, range: 2...100)
        let export = a.value("export")
        if let e = export { try FileManager.default.createDirectory(atPath: e, withIntermediateDirectories: true) }
        let routes = RouteService(map: map)
        let router = routes.router
        let free = a.has("free")
        // --follow: each query's locations are points to drive through as given (another engine's
        // route, bench/peer_routes.py), turning round at one if the way on leads back
        let follow = a.has("follow")
        let road = try DriveCommands.roadModel(a.value("model"))
        var totals = Totals()
        var used = 0
        for (k, q) in queries.prefix(drives).enumerated() {
            guard let route = try? router.route(q.1, continueStraight: !follow) else { continue }
            var options = DriveSimulator.Options()
            options.noise = .typical(noise)
            options.seed = UInt64(seed + k)
            if road { options.useRoadModel() }
            let drive = DriveSimulator(map: map, options: options).simulate(route)
            used += 1
            if ProcessInfo.processInfo.environment["TERN_DEBUG_MATCH"] != nil { printError("drive \(k) (query \(q.0))") }
            let outcomes = evaluate(drive, map: map, routes: routes, free: free, into: &totals)
            let (cold, warm) = bestTime(drive, map: map, routes: routes, free: free, passes: passes)
            totals.coldDriveNanos += cold
            totals.bestDriveNanos += warm
            if let dir = export { try exportTrace(drive, outcomes: outcomes, map: map, id: "\(q.0)", to: dir) }
        }
        let errors = totals.matchedErrors.sorted()
        let rawRMS = (totals.rawSquared / Double(max(1, totals.positions))).squareRoot()
        let filteredRMS = (totals.filteredSquared / Double(max(1, totals.positions))).squareRoot()
        let micros = totals.micros.sorted()
        let meanMicros = Double(totals.bestDriveNanos) / 1000 / Double(max(1, totals.fixes))
        let coldMicros = Double(totals.coldDriveNanos) / 1000 / Double(max(1, totals.fixes))
        if ProcessInfo.processInfo.environment["TERN_DEBUG_MATCH"] != nil {
            let total = micros.reduce(0, +), slow = micros.filter { $0 > 8 }
            printError(String(printf: "per-fix sum %.0f µs, %d fixes over 8 µs hold %.0f µs (%.0f%%)", total, slow.count, slow.reduce(0, +), slow.reduce(0, +) / total * 100))
        }
        let right = Double(totals.rightRoad) / Double(max(1, totals.fixes))
        let rightNow = Double(totals.provisionalRightRoad) / Double(max(1, totals.fixes))
        if a.has("json") {
            printOut(JSONValue.object([
                ("drives", .int(used)), ("fixes", .int(totals.fixes)), ("right_road", .num(right, 4)),
                ("right_road_provisional", .num(rightNow, 4)), ("gate_rejected", .int(totals.fixes - totals.positions)),
                ("matched", .int(totals.matched)), ("median_error_m", .num(BenchCommand.median(errors), 2)),
                ("p95_error_m", .num(BenchCommand.percentile(errors, 95), 2)), ("raw_rms_m", .num(rawRMS, 2)),
                ("filtered_rms_m", .num(filteredRMS, 2)), ("road_flips", .int(totals.flips)),
                ("us_per_fix_median", .num(BenchCommand.median(micros), 2)), ("us_per_fix_p99", .num(BenchCommand.percentile(micros, 99), 2)),
                ("us_per_fix_mean", .num(meanMicros, 2)), ("us_per_fix_mean_cold", .num(coldMicros, 2)), ("passes", .int(passes)),
            ]).serialized())
        } else {
            printOut("\(used) simulated drives, \(totals.fixes) fixes (" + (road ? "road receiver and driver" : "noise \(noise) m white + bias + outliers") + (follow ? ", along the given points" : "") + ")")
            printOut(String(printf: "right road: %.2f%%   matched position vs truth: median %.2f m, p95 %.2f m", right * 100,
                            BenchCommand.median(errors), BenchCommand.percentile(errors, 95)))
            printOut(String(printf: "right road at once (provisional, before the 2-fix lag): %.2f%%; road flip-flops: %d; fixes the gate rejected: %d",
                            rightNow * 100, totals.flips, totals.fixes - totals.positions))
            printOut(String(printf: "RMS error (fixes the gate passed): raw fixes %.2f m, filtered %.2f m (%.0f%% lower)", rawRMS, filteredRMS,
                            (1 - filteredRMS / max(rawRMS, 0.001)) * 100))
            printOut(String(printf: "drive engine per fix (gate, filter, matchers, navigator): median %.2f µs, p99 %.2f µs; whole drives: mean %.2f µs (best of %d passes), %.2f µs on the first pass",
                            BenchCommand.median(micros), BenchCommand.percentile(micros, 99), meanMicros, max(2, passes) - 1, coldMicros))
        }
        return 0
    }

    /// One fix's outcome: the provisional match (shown at once in the car) and the decided one
    /// (two fixes later), with the time the chain took for it.
    struct FixOutcome {
        var fixIndex: Int
        var provisional: MatchedPosition
        var decided: MatchedPosition?
    }

    /// One drive through the car's `DriveEngine`, guided to the drive's end as in the car (the
    /// matcher has the route as prior; `free`: no destination). Route requests are answered
    /// outside the timed part. Returns the time the engine took over the drive's fixes (ns).
    static func drive(_ drive: SimulatedDrive, map: RoadMap, routes: RouteService, free: Bool,
                      each: (_ fixIndex: Int, _ engine: inout DriveEngine, _ nanos: UInt64) -> Void = { _, _, _ in })
        -> (nanos: UInt64, engine: DriveEngine) {
        var engine = DriveEngine(map: map, keepsMatchDecisions: true)
        func answer(_ effects: [DriveEffect]) {
            for case .requestRoute(let r) in effects { answer(engine.handle(.navigator(routes.answer(r)))) }
        }
        if !free, let first = drive.fixes.first, let end = drive.truth.last {
            answer(engine.handle(.navigator(.setDestination([end.coordinate], time: first.time))))
        }
        var total: UInt64 = 0
        for (i, fix) in drive.fixes.enumerated() {
            let t0 = DispatchTime.now().uptimeNanoseconds
            let effects = engine.handle(.fix(fix))
            let dt = DispatchTime.now().uptimeNanoseconds - t0
            total += dt
            answer(effects)
            each(i, &engine, dt)
        }
        return (total, engine)
    }

    /// Runs one drive through the engine, comparing what it shows with the truth.
    @discardableResult
    static func evaluate(_ sim: SimulatedDrive, map: RoadMap, routes: RouteService, free: Bool, into t: inout Totals) -> [FixOutcome] {
        var outcomes = [FixOutcome]()  // one per fix the gate passed, in order (the matcher's push index)
        var (_, engine) = drive(sim, map: map, routes: routes, free: free) { i, engine, nanos in
            let fix = sim.fixes[i]
            guard fix.isUsable else { return }
            t.fixes += 1  // every fix counts; one the gate rejects is not a right match
            guard engine.lastFix?.time == fix.time, let p = engine.navigator.lastFix, let m = engine.lastMatch else { return }
            t.micros.append(Double(nanos) / 1000)
            let truth = sim.truth[i]
            let raw = fix.coordinate.distance(to: truth.coordinate)
            let filtered = p.coordinate.distance(to: truth.coordinate)
            t.rawSquared += raw * raw
            t.filteredSquared += filtered * filtered
            t.positions += 1
            outcomes.append(FixOutcome(fixIndex: i, provisional: m, decided: nil))
            for (k, d) in engine.takeMatchDecisions() { outcomes[k].decided = d }
        }
        for (k, d) in engine.finishMatching() { outcomes[k].decided = d }
        t.flips += flipFlops(outcomes, drive: sim, map: map)
        for o in outcomes {
            let truth = sim.truth[o.fixIndex]
            if let e = o.provisional.edge, sameRoad(e, truth, map: map) { t.provisionalRightRoad += 1 }
            guard let m = o.decided else { continue }
            guard let e = m.edge else { continue }
            t.matched += 1
            if sameRoad(e, truth, map: map) { t.rightRoad += 1 } else if ProcessInfo.processInfo.environment["TERN_DEBUG_MATCH"] != nil {
                let te = map.edge(truth.edge.edge)
                let junction = min(truth.coordinate.distance(to: map.coordinate(ofNode: te.from)), truth.coordinate.distance(to: map.coordinate(ofNode: te.to)))
                printError(String(printf: "wrong road: truth %@ (%@) matched %@ (%@), %.1f m from a junction, error %.1f m, speed %.1f",
                                  map.name(te.nameID), te.roadClass.osmName, m.roadName, map.edge(e.edge).roadClass.osmName, junction,
                                  m.coordinate.distance(to: truth.coordinate), truth.speedMetersPerSecond))
            }
            t.matchedErrors.append(m.coordinate.distance(to: truth.coordinate))
        }
        return outcomes
    }

    /// The engine's time over a whole drive, the best of `passes` runs (each a new engine, as a
    /// new drive starts): what a fix costs on average, with the scheduler's noise taken out. The
    /// first pass is also reported alone (`cold`: nothing of the map in the page cache or copied).
    static func bestTime(_ sim: SimulatedDrive, map: RoadMap, routes: RouteService, free: Bool, passes: Int) -> (cold: UInt64, warm: UInt64) {
        var best = UInt64.max, cold = UInt64.max
        for pass in 0..<max(2, passes) {
            let t = drive(sim, map: map, routes: routes, free: free).nanos
            if pass == 0 { cold = t } else { best = min(best, t) }
        }
        return (cold, best)
    }

    /// Flip-flops of the road shown at once: a run of at most 4 fixes on another way between two
    /// runs on the same way, while the car was never on that other way.
    static func flipFlops(_ outcomes: [FixOutcome], drive: SimulatedDrive, map: RoadMap) -> Int {
        var runs = [(way: UInt32, from: Int, to: Int)]()
        for (k, o) in outcomes.enumerated() {
            guard let e = o.provisional.edge else { continue }
            let w = map.edge(e.edge).wayIndex
            if let last = runs.last, last.way == w { runs[runs.count - 1].to = k } else { runs.append((w, k, k)) }
        }
        var flips = 0
        for r in runs.indices.dropFirst().dropLast() where runs[r - 1].way == runs[r + 1].way && runs[r].to - runs[r].from < 4 {
            let truthWays = (runs[r].from...runs[r].to).map { map.edge(drive.truth[outcomes[$0].fixIndex].edge.edge).wayIndex }
            if !truthWays.contains(runs[r].way) {
                flips += 1
                if ProcessInfo.processInfo.environment["TERN_DEBUG_MATCH"] != nil {
                    for k in max(0, runs[r].from - 2)...min(outcomes.count - 1, runs[r].to + 2) {
                        let o = outcomes[k], tr = drive.truth[o.fixIndex], te = map.edge(tr.edge.edge)
                        let junction = min(tr.coordinate.distance(to: map.coordinate(ofNode: te.from)), tr.coordinate.distance(to: map.coordinate(ofNode: te.to)))
                        let me = o.provisional.edge.map { map.edge($0.edge) }
                        printError(String(printf: "flip %d: truth %@/%@ (junction %.0f m, speed %.1f) shown %@/%@ conf %.2f dist %.1f err %.1f", k,
                                          map.name(te.nameID), te.roadClass.osmName, junction, tr.speedMetersPerSecond,
                                          o.provisional.roadName, me?.roadClass.osmName ?? "-", o.provisional.confidence,
                                          o.provisional.distanceMeters, o.provisional.coordinate.distance(to: tr.coordinate)))
                    }
                }
            }
        }
        return flips
    }

    /// The right road: the true edge or way, the same named road in the same direction (a road
    /// mapped as several ways, or as parallel lanes a few metres apart), or, at a junction, the
    /// edge on the other side of the node the car is at.
    static func sameRoad(_ e: DirectedEdge, _ truth: TruePosition, map: RoadMap) -> Bool {
        let m = map.edge(e.edge), t = map.edge(truth.edge.edge)
        if e.edge == truth.edge.edge || m.wayIndex == t.wayIndex { return true }
        if m.nameID != 0 && m.nameID == t.nameID && m.refID == t.refID {
            let g = map.geometry(of: e)
            if abs(Angle.difference(from: g[0].bearing(to: g[g.count - 1]), to: truth.courseDegrees)) < 45 || truth.speedMetersPerSecond < 1 { return true }
        }
        for node in [t.from, t.to] where node == m.from || node == m.to {
            if map.coordinate(ofNode: node).distance(to: truth.coordinate) <= 10 { return true }
        }
        return false
    }

    /// Writes a drive as a Valhalla trace_attributes shape with, per fix, the truth and Tern's
    /// decided match (null where the gate rejected the fix), so other matchers can be scored on
    /// the same points in the same way.
    static func exportTrace(_ drive: SimulatedDrive, outcomes: [FixOutcome], map: RoadMap, id: String, to dir: String) throws {
        var byFix = [Int: MatchedPosition]()
        for o in outcomes { if let d = o.decided { byFix[o.fixIndex] = d } }
        var shape = [JSONValue](), truth = [JSONValue](), tern = [JSONValue]()
        for (i, f) in drive.fixes.enumerated() where f.isUsable {
            shape.append(.object([("lat", .num(f.coordinate.latitude, 7)), ("lon", .num(f.coordinate.longitude, 7)), ("time", .num(f.time, 1))]))
            let tr = drive.truth[i]
            truth.append(.object([("lat", .num(tr.coordinate.latitude, 7)), ("lon", .num(tr.coordinate.longitude, 7)),
                                  ("way_id", .int(Int(map.wayID(map.edge(tr.edge.edge).wayIndex))))]))
            if let m = byFix[i], let e = m.edge {
                tern.append(.object([("lat", .num(m.coordinate.latitude, 7)), ("lon", .num(m.coordinate.longitude, 7)),
                                     ("way_id", .int(Int(map.wayID(map.edge(e.edge).wayIndex))))]))
            } else {
                tern.append(.null)
            }
        }
        let doc = JSONValue.object([("id", .string(id)), ("shape", .array(shape)), ("truth", .array(truth)), ("tern", .array(tern))])
        try AtomicFile.write(doc.serialized(), to: Paths.join(dir, "\(id).json"))
    }
}
