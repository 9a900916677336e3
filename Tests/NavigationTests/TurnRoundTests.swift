import Foundation
import Geo
import MapCompiler
import MapData
import Navigation
import Routing
import TestSupport
import Testing

/// A driver who turns round sooner than the route does (issue #24's road drive set: the
/// "backtracking" and "course" off-routes where the car was on the route, or had stopped at a
/// waypoint and turned round there).
@Suite struct TurnRoundTests {
    /// Main Street a–c, and Dead End from b 160 m south to d.
    static func deadEnd() throws -> (ScenarioMap, RoadMap) {
        var s = ScenarioMap(ascii: """
            a       b       c
                    |
                    x
                    |
                    d
            """, gridMeters: 40, origin: Coordinate(latitude: 48.5, longitude: 9.0))
        s.ways = [.init("abc", [("highway", "residential"), ("name", "Main Street")]),
                  .init("bxd", [("highway", "residential"), ("name", "Dead End")])]
        return (s, try TestMaps.scenario(s))
    }

    /// Into the dead end by mistake: the new route goes to its end and back. The driver turns
    /// round halfway, at x: the car is on the way back the route takes later, so it goes on from
    /// there, told to turn right onto Main Street; no second off-route, no second reroute. (It
    /// was held on the way in, driving backwards along it, and the turn was never said.)
    @Test func turningRoundBeforeTheRouteDoesIsNoOffRoute() throws {
        let (s, m) = try Self.deadEnd()
        let fixes = try simulate(m, [s["a"]!, s["x"]!, s["c"]!])
        var h = Harness(map: m)
        h.apply(.setDestination([s["c"]!], time: fixes[0].time))
        h.drive(fixes)
        let streets = h.named("routeComputed").count
        #expect(h.named("offRoute").count == 1, "\(h.named("offRoute").map { $0.jsonLine() })")
        #expect(streets == 2)
        #expect(h.prompts.contains { $0.text == "Turn right onto Main Street." }, "\(h.prompts.map(\.text))")
        #expect(h.navigator.state == .arrived)
    }

    /// Heading into the dead end when the route is asked for: it goes on to the end, turns there
    /// and comes back past the car. The driver turns round at once, at x, 10 m from where the route
    /// starts, and drives the way the route comes back: the car is on the route's later pass,
    /// in its direction, not off the route. (It is too soon for backtracking, which needs the
    /// car 15 m back along the route, and the course rule had it leave: heidelberg-37 of the
    /// road drive set; heidelberg-45 is the same with a loop round a block.)
    @Test func turningRoundAtTheStartOfARouteThatComesBackIsNoOffRoute() throws {
        let (s, m) = try Self.deadEnd()
        let fixes = try simulate(m, [s["a"]!, s["x"]!, s["c"]!])
        let x = s["x"]!
        // the destination given heading south, 10 m before x
        guard let k = fixes.firstIndex(where: { $0.coordinate.distance(to: x) < 10 && ($0.courseDegrees ?? 0) > 90 }) else {
            Issue.record("the drive never came near x")
            return
        }
        var h = Harness(map: m)
        h.drive(Array(fixes.prefix(k)))
        h.apply(.setDestination([s["c"]!], time: fixes[k].time))
        h.drive(Array(fixes.dropFirst(k)))
        #expect(h.named("offRoute").isEmpty, "\(h.named("offRoute").map { $0.jsonLine() })")
        #expect(h.named("routeComputed").count == 1)
        #expect(h.navigator.state == .arrived)
    }

    /// A via point at c on Main Street, the destination back at a. The route drives on through
    /// the via (OSRM's continue_straight) and round the block; the driver stops at c and turns
    /// round there, as at a drop-off. That is planned again quietly, as a standing start is: no
    /// off-route, and arrival at a.
    @Test func turningRoundAtAWaypointIsPlannedQuietly() throws {
        var s = ScenarioMap(ascii: """
            a       b       c       e
                    |               |
                    g . . . . . . . f
            """, gridMeters: 40, origin: Coordinate(latitude: 48.5, longitude: 9.0))
        s.ways = [.init("abce", [("highway", "residential"), ("name", "Main Street")]),
                  .init("efgb", [("highway", "residential"), ("name", "Back Lane")])]
        let m = try TestMaps.scenario(s)
        let fixes = try simulate(m, [s["a"]!, s["c"]!, s["a"]!])
        // (the destination is given once the car is moving, so the first route has its direction
        // and only the waypoint leaves the way open)
        var h = Harness(map: m)
        h.drive(Array(fixes.prefix(8)))
        h.apply(.setDestination([s["c"]!, s["a"]!], time: fixes[8].time))
        h.drive(Array(fixes.dropFirst(8)))
        #expect(h.named("waypointArrived").count == 1)
        #expect(h.named("offRoute").isEmpty, "\(h.named("offRoute").map { $0.jsonLine() })")
        #expect(h.named("routeComputed").count == 2)
        #expect(h.navigator.state == .arrived)
    }
}
