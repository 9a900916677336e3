import Foundation
import Geo
import MapCompiler
import MapData
import Routing
import TestSupport
import Testing

/// Routing under traffic: closures and slow ways, searched on the original roads.
@Suite struct TrafficTests {
    @Test func fileFormatAndErrors() throws {
        let t = try TrafficConditions.parse("""
            # roadworks
            1234 closed
            5678 20   # jam

            """, source: "jam.txt")
        #expect(t.closed == [1234])
        #expect(t.speedKmh == [5678: 20])
        #expect(throws: TrafficError("jam.txt:2: `fast` is not a speed in km/h (1–300), `closed` or `open`")) {
            try TrafficConditions.parse("1 closed\n2 fast\n", source: "jam.txt")
        }
        #expect(throws: TrafficError.self) { try TrafficConditions.parse("closed 12\n", source: "x") }
        var u = t
        try u.apply("1234 open", place: "console")
        #expect(u.closed.isEmpty)
    }

    @Test func closuresAndJamsChangeTheRoute() throws {
        let (s, m) = try TestMaps.twoWays()
        let router = Router(map: m)
        func names(_ r: Route) -> Set<String> { Set(r.legs.flatMap(\.edges).map { m.name(m.edge($0.edge).nameID) }) }
        let free = try router.route([s["a"]!, s["d"]!])
        #expect(names(free).contains("North Road"))
        let northWay = m.wayID(m.edge(try #require(free.legs[0].edges.first { m.name(m.edge($0.edge).nameID) == "North Road" }).edge).wayIndex)
        // closed: the other way round
        var closed = TrafficConditions()
        closed.closed.insert(northWay)
        router.traffic = closed
        let detour = try router.route([s["a"]!, s["d"]!])
        #expect(names(detour).contains("South Road"), "\(detour.legs[0].edges.map { m.name(m.edge($0.edge).nameID) }) \(detour.durationSeconds) \(free.durationSeconds)")
        // a jam: the same detour, and the jammed route's time under traffic is what a jam costs
        var jam = TrafficConditions()
        jam.speedKmh[northWay] = 5
        router.traffic = jam
        #expect(names(try router.route([s["a"]!, s["d"]!])).contains("South Road"))
        let times = try #require(router.seconds(along: free.legs[0].edges, traffic: jam))
        let northLength = free.legs[0].edges.filter { m.wayID(m.edge($0.edge).wayIndex) == northWay }.reduce(0.0) { $0 + m.lengthMeters(ofEdge: $1.edge) }
        #expect(abs((times.traffic - times.free) - (northLength / (5 / 3.6) - northLength / (m.speedKmh(of: free.legs[0].edges[0]) / 3.6))) < 1)
        // free flow again: the hierarchy's answer
        router.traffic = TrafficConditions()
        #expect(abs(try router.route([s["a"]!, s["d"]!]).durationSeconds - free.durationSeconds) < 0.01)
        #expect(router.seconds(along: free.legs[0].edges, traffic: closed) == nil)
    }
}
