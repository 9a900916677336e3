import Foundation
import Geo
import MapCompiler
import MapData
import Routing
import TestSupport
import Testing

/// What a route costs and what it may use, from the profile's options and OSRM's rules.
@Suite struct RouteCostTests {
    let origin = Coordinate(latitude: 49.4, longitude: 8.6)

    func streets(_ r: Route, _ m: RoadMap) -> [String] {
        var out = [String]()
        for leg in r.legs { for d in leg.edges { let n = m.name(m.edge(d.edge).nameID); if out.last != n { out.append(n) } } }
        return out
    }

    /// From the tip of a dead end to the next junction: 1 km of residential street, 144 s
    /// (OSRM's maxspeed.feature).
    /// The search seeds the target with minus the part of its edge not driven; with that below
    /// zero, its stopping rule ended before the straight path met and kept one that turns round
    /// at the tip first (171.4 s: a u-turn of 27.4 s), which the trimmed shape then hid.
    @Test func aRouteFromADeadEndsTipDoesNotTurnRoundFirst() throws {
        var s = ScenarioMap(ascii: "a b c d", columnMeters: 500, rowMeters: 1000, origin: origin)
        s.ways = [.init("ab", [("highway", "residential"), ("name", "ab")]),
                  .init("bc", [("highway", "residential"), ("maxspeed", "90"), ("name", "bc")]),
                  .init("cd", [("highway", "living_street"), ("maxspeed", "FR:urban"), ("name", "cd")])]
        let m = try TestMaps.scenario(s)
        let r = try Router(map: m).route([s["a"]!, s["b"]!])
        let leg = r.legs[0]
        #expect(abs(leg.weightSeconds - 144) < 0.5, "weight \(leg.weightSeconds) s")
        #expect(abs(r.durationSeconds - 144) < 0.5, "time \(r.durationSeconds) s")
    }

    /// A ferry is no place to start (OSRM's startpoint rule), so a start at its landing is on the
    /// road beside it, and the route pays the turn from the road onto the ferry, and at the far
    /// landing off it, as OSRM's times do (ferry.feature: 67.4 s for a 60 s crossing).
    @Test func aStartAtAFerryLandingPaysTheTurnOntoIt() throws {
        var s = ScenarioMap(ascii: """
            a b c
                d
                e f g
            """, columnMeters: 50, rowMeters: 100, origin: origin)
        s.ways = [.init("abc", [("highway", "primary"), ("name", "abc")]),
                  .init("cde", [("route", "ferry"), ("duration", "00:01:00"), ("name", "cde")]),
                  .init("efg", [("highway", "primary"), ("name", "efg")])]
        let m = try TestMaps.scenario(s)
        let r = try Router(map: m).route([s["c"]!, s["e"]!])
        #expect(streets(r, m).contains("cde"))
        // a right turn onto the ferry (2.1 s) and a left one off it (5.3 s), truncated to tenths
        #expect(abs(r.durationSeconds - 67.4) < 0.05, "\(r.durationSeconds) s")
    }

    /// A map built to avoid motorways has none; one built for the shortest route takes the short
    /// slow road that the fastest route drives round.
    @Test func avoidAndShortestAreProfileOptions() throws {
        var s = ScenarioMap(ascii: """
            a   b   c

            d       e
            """, columnMeters: 100, rowMeters: 400, origin: origin)
        s.ways = [.init("abc", [("highway", "residential"), ("name", "short")]),
                  .init("adec", [("highway", "motorway"), ("oneway", "no"), ("name", "fast")])]
        let plain = try TestMaps.scenario(s)
        #expect(streets(try Router(map: plain).route([s["a"]!, s["c"]!]), plain) == ["fast"])

        var shortest = ProfileOptions()
        shortest.weightByDistance = true
        let byDistance = try TestMaps.scenario(s, options: shortest)
        let r = try Router(map: byDistance).route([s["a"]!, s["c"]!])
        #expect(streets(r, byDistance) == ["short"])
        #expect(abs(r.durationSeconds - r.distanceMeters / (25 / 3.6)) < 0.5 && abs(r.distanceMeters - 800) < 5,
               "times stay driving times: \(r.durationSeconds) s for \(r.distanceMeters) m")

        var avoid = ProfileOptions()
        avoid.avoidHighways = ["motorway"]
        let noMotorway = try TestMaps.scenario(s, options: avoid)
        #expect((0..<noMotorway.edgeCount).allSatisfy { noMotorway.edge(UInt32($0)).roadClass != .motorway })
        #expect(streets(try Router(map: noMotorway).route([s["a"]!, s["c"]!]), noMotorway) == ["short"])
    }

    /// Two ways drawn over the same street (a destination-only way over an open one, as in OSRM's
    /// destination.feature): one segment is kept per direction, the one first by name where they
    /// cost the same, so the street is destination-only and a through route goes round it.
    @Test func overlappingWaysKeepOneSegmentPerDirection() throws {
        var s = ScenarioMap(ascii: """
            b
             \\
              |
              e++d++++++c--i
              |             \\
               \\             h--a
                \\            |
                 \\___________g
            """, columnMeters: 50, rowMeters: 100, origin: origin)
        s.ways = [.init("ah", [("highway", "primary"), ("name", "ah")]), .init("ihg", [("highway", "primary"), ("name", "ihg")]),
                  .init("eg", [("highway", "primary"), ("name", "eg")]), .init("icde", [("highway", "primary"), ("name", "icde")]),
                  .init("cde", [("highway", "primary"), ("access", "destination"), ("name", "cde")]),
                  .init("eb", [("highway", "primary"), ("name", "eb")])]
        let m = try TestMaps.scenario(s)
        let router = Router(map: m)
        #expect(streets(try router.route([s["i"]!, s["b"]!]), m) == ["ihg", "eg", "eb"])
        #expect(streets(try router.route([s["b"]!, s["d"]!]), m) == ["eb", "cde"])
    }
}
