import Foundation
import Geo
import MapCompiler
import MapData
import Navigation
import Routing
import Simulation
import TestSupport
import Testing

/// Route requests that keep failing back off (issue #24: 64 failed reroutes in 2.5 minutes on a
/// closed road, one per fix).
@Suite struct RouteRetryTests {
    @Test func failingRequestsBackOff() throws {
        let m = try TestMaps.demoTown()
        let fixes = try simulate(m, [DemoTown.start, DemoTown.destination])
        var h = Harness(map: m)
        h.answerRoutes = false
        h.apply(.setDestination([DemoTown.destination], time: fixes[0].time))
        // every request fails (a closed road, no route from here); the car drives on
        var answered = 0
        for f in fixes.prefix(120) {
            h.drive([f], stopAtArrival: false)
            while answered < h.requests.count {
                let r = h.requests[answered]
                h.apply(.routeFailed(id: r.id, error: "no route", time: f.time))
                answered += 1
            }
        }
        let n = h.requests.count
        let span = (fixes.prefix(120).last?.time ?? 0) - fixes[0].time
        // three at once, then after 10, 20, 40 ... s or 150 m driven: a handful, not one a fix
        #expect(n >= 3 && n <= 12, "\(n) requests in \(span) s")
        #expect(h.named("rerouteFailed").count == n)
        // said once, as the back-off began: not once a failure
        #expect(h.spoken.map(\.text) == ["No route from here, still trying."])
        // and a route found ends the back-off: the next position asks again at once
        let last = try #require(fixes.prefix(121).last)
        h.answerRoutes = true
        h.apply(.setDestination([DemoTown.destination], time: last.time))
        #expect(h.requests.count == n + 1 && h.navigator.route != nil)
    }
}

/// Off the road network (issue #24: 11 reroutes in 4 minutes while the driver kept to a track
/// the car profile does not route on): one reroute, "no route from here" once, and the next
/// reroute when the car is on a road again.
@Suite struct OffNetworkTests {
    /// Main Street a–d with a loop south of it from b round to c: a fix every second along the
    /// loop at 5 m/s, then the simulated drive on from c to d.
    func loopDrive(_ m: RoadMap, _ s: ScenarioMap) throws -> [GPSFix] {
        var fixes = try simulate(m, [s["a"]!, s["b"]!])
        var t = fixes.last!.time
        for (from, to) in [("b", "t"), ("t", "u"), ("u", "c")] as [(Character, Character)] {
            let a = s[from]!, b = s[to]!
            let course = a.bearing(to: b), length = a.distance(to: b)
            for k in 1...Int(length / 5) {
                t += 1
                fixes.append(GPSFix(time: t, coordinate: a.moved(meters: Double(k) * 5, bearingDegrees: course), mode: .threeD,
                                    speedMetersPerSecond: 5, courseDegrees: course, horizontalErrorMeters: 5))
            }
        }
        let rest = try simulate(m, [s["c"]!, s["d"]!])
        fixes += rest.map { f -> GPSFix in
            var g = f
            g.time = t + 1 + (f.time - rest[0].time)
            return g
        }
        return fixes
    }

    /// The car driven from a round the loop (tagged `loopTags`) and on to d, its destination.
    func driveRound(_ loopTags: [(String, String)]) throws -> (Harness, [GPSFix], ScenarioMap) {
        var s = ScenarioMap(ascii: OffNetworkTests.loopMap, gridMeters: 40, origin: Coordinate(latitude: 48.5, longitude: 9.0))
        s.ways = [.init("abcd", [("highway", "residential"), ("name", "Main Street")]), .init("btuc", loopTags)]
        let m = try TestMaps.scenario(s)
        let fixes = try loopDrive(m, s)
        var h = Harness(map: m)
        h.apply(.setDestination([s["d"]!], time: fixes[0].time))
        h.drive(fixes)
        return (h, fixes, s)
    }

    static let loopMap = """
        a . . . b . . . . . . . . c . . . d
                |                 |
                |                 |
                |                 |
                t . . . . . . . . u
        """

    /// A private road is off the network a route may take the car through, as a track is: the
    /// car that drives round a private yard's lane gets one new route there, hears once that
    /// there is none from here, and gets the next when it is back on Main Street. Before, each
    /// 20 s on the lane was another wrong turn and another new route (3 reroutes).
    @Test func aPrivateRoadGetsOneRerouteUntilTheCarIsOnAnOpenRoad() throws {
        let (h, fixes, _) = try driveRound([("highway", "service"), ("access", "private"), ("name", "Werksstraße")])
        // one new route as the car turns in (it starts on Main Street: no route starts on a
        // private service road), then none until the car is back on Main Street, where it is
        // on that route again
        let reroutes = h.named("rerouteStarted").map(\.time)
        #expect(reroutes.count == 1, "reroutes at \(reroutes.map { $0 - fixes[0].time }) s")
        #expect(h.prompts.filter { $0.text.hasPrefix("No route from here") }.count == 1, "\(h.prompts.map(\.text))")
        #expect(h.navigator.state == .arrived)
    }

    /// A destination-only street (Anlieger frei) is no private yard: a route starts there and
    /// leads out, so a car that turns into one is rerouted from where it is, along the street,
    /// and nothing says there is no route.
    @Test func aDestinationOnlyStreetIsStillTheNetwork() throws {
        let (h, fixes, s) = try driveRound([("highway", "residential"), ("access", "destination"), ("name", "Anliegerweg")])
        let reroutes = h.named("rerouteStarted")
        #expect(reroutes.count == 1, "\(reroutes.count) reroutes")
        // the new route starts on the street itself (a private service road's would start on Main Street)
        let first = try #require(h.named("routeComputed").dropFirst().first)
        guard case let .routeComputed(_, _, _, _, shape) = first.kind else { return }
        let start = try #require(Polyline.decode(shape)?.first)
        #expect(s["a"]!.latitude - start.latitude > 10 / 111_195.0, "starts \((s["a"]!.latitude - start.latitude) * 111_195) m south of Main Street")
        _ = fixes
        #expect(h.prompts.filter { $0.text.hasPrefix("No route from here") }.isEmpty, "\(h.prompts.map(\.text))")
        #expect(h.navigator.state == .arrived)
    }

    @Test func aTrackGetsOneRerouteUntilTheCarIsOnARoadAgain() throws {
        // Main Street a–d; a farm track (not in the map) from b 160 m south, 320 m east, and back
        // north to c
        let (h, fixes, s) = try driveRound([("highway", "track")])
        let reroutes = h.named("rerouteStarted").map(\.time)
        // metres south of Main Street where each reroute started: beyond the matchers' reach of
        // it (25 m), the car is off the network
        let south = reroutes.map { t in
            fixes.first { $0.time >= t }.map { s["a"]!.latitude - $0.coordinate.latitude }.map { $0 * 111_195 } ?? 0
        }
        #expect(south.filter { $0 > 30 }.count == 1, "reroutes at \(reroutes.map { $0 - fixes[0].time }) s, \(south) m south of the road")
        #expect(reroutes.count <= 3, "\(reroutes.map { $0 - fixes[0].time })")
        #expect(h.prompts.filter { $0.text.hasPrefix("No route from here") }.count == 1, "\(h.prompts.map(\.text))")
        #expect(h.navigator.state == .arrived)
    }
}
