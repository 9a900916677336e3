import Drive
import Foundation
import Geo
import Guidance
import MapCompiler
import MapData
import MapMatching
import Navigation
import Positioning
import Routing
import Simulation
import TestSupport
import Testing

/// Off-route policies (Tern's, Mapbox's and OsmAnd's anchors), backtracking on the route's own
/// road, step-level progress, and the Swift listener of a navigation session.
@Suite struct OffRouteTests {
    /// A square of two-way streets; the route from a goes east along North Street to c.
    static func square() throws -> (ScenarioMap, RoadMap) {
        var s = ScenarioMap(ascii: """
            a     x     c


            d           e
            """, gridMeters: 50, origin: Coordinate(latitude: 48.2, longitude: 11.3))
        s.ways = [.init("axc", [("highway", "residential"), ("name", "North Street")]),
                  .init("ad", [("highway", "residential"), ("name", "West Street")]),
                  .init("de", [("highway", "residential"), ("name", "South Street")]),
                  .init("ec", [("highway", "residential"), ("name", "East Street")])]
        return (s, try TestMaps.scenario(s))
    }

    /// The car turns round on North Street and drives back along the route: it never leaves the
    /// route's line, so no distance anchor fires; backtracking does, within 5 s of the turn, and
    /// the new route goes the way the car now drives (round the square), with no U-turn advice.
    @Test(arguments: OffRoutePolicy.allCases)
    func backtrackingOnTheRouteRoad(policy: OffRoutePolicy) throws {
        let (s, m) = try Self.square()
        var config = NavigatorConfig()
        config.offRoutePolicy = policy
        var h = Harness(map: m, config: config)
        let fixes = try simulate(m, [s["a"]!, s["x"]!, s["a"]!], noise: 2, seed: 5)
        h.apply(.setDestination([s["c"]!], time: fixes[0].time))
        // drive until the new route is there
        var newRoute: NavigationRoute?
        for f in fixes where newRoute == nil {
            h.drive([f], stopAtArrival: false)
            if !h.named("rerouted").isEmpty { newRoute = h.navigator.route }
        }
        let off = try #require(h.named("offRoute").first)
        #expect(off.jsonLine().contains(#""reason":"backtracking""#), "\(off.jsonLine())")
        // the turn: the fix nearest x; the car is back to speed two seconds later
        let turn = try #require(fixes.min { $0.coordinate.distance(to: s["x"]!) < $1.coordinate.distance(to: s["x"]!) })
        #expect(off.time > turn.time && off.time - turn.time <= 7, "turned at \(turn.time), off route at \(off.time)")
        if case let .offRoute(d, _) = off.kind { #expect(d < 12) }
        // round the square, the way the car now drives
        let roads = newRoute?.route.legs.flatMap { $0.edges.map { m.name(m.edge($0.edge).nameID) } } ?? []
        #expect(roads.starts(with: ["North Street", "West Street", "South Street", "East Street"]), "\(roads)")
        #expect(!h.prompts.contains { $0.text.contains("U-turn") }, "\(h.prompts.map(\.text))")
    }

    /// Every policy keeps quiet on a clean drive with receiver noise and catches a wrong turn
    /// within 5 s of leaving the route; within 50 m of the junction (the issue's target) with
    /// Tern's and Mapbox's anchors, while OsmAnd's 2 × (30 m + accuracy) lets the car go farther.
    @Test(arguments: OffRoutePolicy.allCases)
    func policiesOnCleanAndWrongDrives(policy: OffRoutePolicy) throws {
        let m = try TestMaps.demoTown()
        var config = NavigatorConfig()
        config.offRoutePolicy = policy
        for seed in UInt64(1)...4 {
            var clean = Harness(map: m, config: config)
            clean.apply(.setDestination([DemoTown.destination], time: 0))
            clean.drive(try simulate(m, [DemoTown.start, DemoTown.destination], noise: 4, seed: seed))
            #expect(clean.named("offRoute").isEmpty, "\(policy) seed \(seed): \(clean.named("offRoute").map { $0.jsonLine() })")
            #expect(clean.navigator.state == .arrived)
        }
        let p = LocalProjection(origin: DemoTown.origin)
        let pastMarketStreet = p.unproject(LocalPoint(x: 44 * 20, y: 0))
        let turnPoint = p.unproject(LocalPoint(x: 30 * 20, y: 0))
        let fixes = try simulate(m, [DemoTown.start, pastMarketStreet, DemoTown.destination], noise: 2, seed: 2)
        var h = Harness(map: m, config: config)
        h.apply(.setDestination([DemoTown.destination], time: 0))
        h.drive(fixes)
        let off = try #require(h.named("offRoute").first)
        let left = try #require(fixes.first { $0.coordinate.longitude > turnPoint.longitude && $0.coordinate.distance(to: turnPoint) > 5 })
        let atDetection = try #require(fixes.first { $0.time == off.time })
        #expect(off.time - left.time <= 5, "\(policy): left \(left.time), off \(off.time)")
        #expect(atDetection.coordinate.distance(to: turnPoint) <= (policy == .osmand ? 90 : 50))
        #expect(h.navigator.state == .arrived)
    }

    /// Progress carries route, leg and step: what remains of the step is the distance to the next
    /// maneuver, its time falls as the car drives it, and it never exceeds the leg's.
    @Test func stepProgress() throws {
        let m = try TestMaps.demoTown()
        var h = Harness(map: m)
        h.apply(.setDestination([DemoTown.destination], time: 0))
        h.drive(try simulate(m, [DemoTown.start, DemoTown.destination]))
        let progress = h.events.compactMap { e -> RouteProgress? in if case .progress(let p) = e.kind { return p }; return nil }
        #expect(progress.count > 10)
        for p in progress {
            #expect(p.stepRemainingMeters == p.distanceToNextMeters)
            #expect(p.stepRemainingSeconds <= p.legRemainingSeconds + 0.01)
            #expect(p.stepRemainingMeters <= p.legRemainingMeters + 0.01)
        }
        for (a, b) in zip(progress, progress.dropFirst()) where a.stepIndex == b.stepIndex {
            #expect(b.stepRemainingSeconds <= a.stepRemainingSeconds + 0.01)
        }
        let line = try #require(h.named("progress").first).jsonLine()
        #expect(line.contains(#""step_remaining_m":"#) && line.contains(#""step_remaining_s":"#))
    }
}

extension OffRouteTests {
    /// Arrival by distance (20 m) or by time at the car's speed (3 s, within 60 m): with the time
    /// rule the same drive arrives earlier, and never more than 60 m before the end.
    @Test func arrivalByDistanceOrTime() throws {
        let m = try TestMaps.demoTown()
        let fixes = try simulate(m, [DemoTown.start, DemoTown.destination])
        func arrival(seconds: Double) throws -> (time: Double, left: Double) {
            var config = NavigatorConfig()
            config.arrivalSeconds = seconds
            var h = Harness(map: m, config: config)
            h.apply(.setDestination([DemoTown.destination], time: 0))
            h.drive(fixes)
            let arrived = try #require(h.named("arrived").first)
            let last = h.events.last { if case .progress = $0.kind { return true }; return false }
            guard case .progress(let p)? = last?.kind else { return (arrived.time, .infinity) }
            return (arrived.time, p.legRemainingMeters)
        }
        let byDistance = try arrival(seconds: 0), byTime = try arrival(seconds: 3)
        #expect(byTime.time < byDistance.time, "\(byTime) \(byDistance)")
        #expect(byTime.left < 60 + 15)
    }
}

/// A Swift program's view: a `NavigationSession` with listeners gets every event the navigator
/// emits, in order, and the prompts to speak; a listener released is dropped.
@Suite struct NavigationSessionTests {
    final class Recorder: NavigationListener {
        var lines: [String] = []
        var prompts: [String] = []
        func navigation(didEmit event: NavigationEvent) { lines.append(event.jsonLine()) }
        func navigation(shouldSpeak prompt: Prompt) { prompts.append(prompt.text) }
    }

    @Test func listenersGetTheEventsOfTheLog() throws {
        let m = try TestMaps.demoTown()
        let fixes = try simulate(m, [DemoTown.start, DemoTown.destination], noise: 3, seed: 7)
        // the reference: the navigator driven directly (the same events that go to events.jsonl)
        var h = Harness(map: m)
        h.apply(.setDestination([DemoTown.destination], time: fixes[0].time))
        h.drive(fixes)

        let session = NavigationSession(map: m)
        let listener = Recorder()
        var transient: Recorder? = Recorder()
        session.addListener(listener)
        session.addListener(transient!)
        session.handle(.navigator(.setDestination([DemoTown.destination], time: fixes[0].time)))
        for (i, f) in fixes.enumerated() {
            session.handle(.fix(f))
            if i == 20 { transient = nil }  // released: no more calls, no crash
            if session.navigator.state == .arrived { break }
        }
        #expect(listener.lines == h.events.map { $0.jsonLine() })
        #expect(listener.lines.contains { $0.contains(#""event":"arrived""#) })
        #expect(listener.prompts.first == "Head east on Harbour Road.")
        #expect(listener.prompts.last == "You have arrived at your destination, on the right.")
        #expect(transient == nil)
    }
}

/// Clean drives on real maps through a 40 s tunnel two minutes in (receiver noise 3 m): where
/// the dead-reckoned estimate ran ahead of a car that slowed in the tunnel (mountain roads in
/// Andorra and Monaco), the first fixes after it once raised false off-routes. None now, and
/// every drive arrives.
@Suite struct TunnelExitTests {
    @Test(.enabled(if: SharedData.isAvailable, Comment(rawValue: SharedData.missingMessage)), arguments: [("andorra", [31, 55, 3]), ("monaco", [1, 2, 43]), ("liechtenstein", [32, 5])])
    func noOffRouteAfterATunnel(extract: String, drives: [Int]) throws {
        let m = try TestMaps.extract(extract)
        let queries = try BenchQueries.load(extract)
        for i in drives {
            let from = queries[i].locations.first!, to = queries[i].locations.last!
            var o = DriveSimulator.Options()
            o.noiseMeters = 3
            o.seed = UInt64(i + 1)
            o.outages = [(start: 120, seconds: 40)]
            let fixes = DriveSimulator(map: m, options: o).drive(try Router(map: m).route([from, to]))
            var h = Harness(map: m)
            h.apply(.setDestination([to], time: fixes[0].time))
            h.drive(fixes)
            #expect(h.named("offRoute").isEmpty, "\(extract) \(i): \(h.named("offRoute").map { $0.jsonLine() })")
            #expect(h.navigator.state == .arrived, "\(extract) \(i)")
        }
    }

    /// The fixes stop 30 s before the destination (a tunnel at the end of the drive): the dead
    /// reckoning runs on to the destination, but an arrival that far from the last fix is not
    /// declared (the car may have slowed or turned off in the tunnel); the first real fix there
    /// declares it. (Andorra drive 35 with a missed turn in the tunnel arrived on estimates.)
    @Test func noArrivalOnALongDeadReckoning() throws {
        var s = ScenarioMap(ascii: "a                                                                                         b",
                            gridMeters: 15, origin: Coordinate(latitude: 42.5, longitude: 1.5))
        s.ways = [.init("ab", [("highway", "secondary"), ("name", "Long Road")])]
        let m = try TestMaps.scenario(s)
        let route = try Router(map: m).route([s["a"]!, s["b"]!])
        var o = DriveSimulator.Options()
        o.noiseMeters = 2
        o.seed = 5
        let clean = DriveSimulator(map: m, options: o).drive(route)
        let end = try #require(clean.last).time
        o.outages = [(start: end - clean[0].time - 30, seconds: 600)]
        let fixes = DriveSimulator(map: m, options: o).drive(route)
        var h = Harness(map: m)
        h.apply(.setDestination([s["b"]!], time: fixes[0].time))
        h.drive(fixes, stopAtArrival: false)
        // the estimate reached the destination, but no arrival on it
        #expect(h.named("position").contains { if case let .position(lat, lon, _, _, _, _, estimated, _) = $0.kind { return estimated && Coordinate(latitude: lat, longitude: lon).distance(to: s["b"]!) < 20 }; return false })
        #expect(h.named("arrived").isEmpty, "\(h.named("arrived").map { $0.jsonLine() })")
        // a real fix at the destination
        var last = try #require(clean.last)
        last.time = end + 5
        h.drive([last], stopAtArrival: false)
        #expect(h.named("arrived").count == 1)
    }
}

extension OffRouteTests {
    /// A fork whose branches part at 3° (both the same road, as dual carriageways or a bypass
    /// leave a trunk road): the route keeps straight on, the car takes the other branch. The
    /// matcher holding the car on the route cannot tell for long; the matcher without the
    /// route's prior can: off route within 5 s and 50 m of the car being 10 m clear.
    @Test func slowlyPartingFork() throws {
        var s = ScenarioMap(ascii: """
            a         b                                                            c



                                                                                   d
            """, gridMeters: 10, origin: Coordinate(latitude: 49.3, longitude: 8.6))
        s.ways = [.init("abc", [("highway", "primary"), ("name", "B 3")]),
                  .init("bd", [("highway", "primary"), ("name", "B 3")])]
        let m = try TestMaps.scenario(s)
        let fixes = try simulate(m, [s["a"]!, s["d"]!], noise: 2, seed: 3)
        var h = Harness(map: m)
        h.apply(.setDestination([s["c"]!], time: fixes[0].time))
        h.drive(fixes, stopAtArrival: false)
        let off = try #require(h.named("offRoute").first)
        // 10 m clear of the route's line (a-b-c is straight along the first row)
        let line = s["a"]!.latitude
        let clear = try #require(fixes.first { abs($0.coordinate.latitude - line) * 111_195 > 10 })
        let atDetection = try #require(fixes.first { $0.time == off.time })
        #expect(off.time - clear.time <= 5, "clear at \(clear.time), off route at \(off.time): \(off.jsonLine())")
        #expect(atDetection.coordinate.distance(to: clear.coordinate) <= 50)
    }
}
