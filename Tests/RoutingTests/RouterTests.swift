import Foundation
import Geo
import MapCompiler
import MapData
import Routing
import Simulation
import TestSupport
import Testing

@Suite struct RouterTests {
    func streets(_ r: Route, _ m: RoadMap) -> [String] {
        var out = [String]()
        for leg in r.legs { for d in leg.edges { let n = m.name(m.edge(d.edge).nameID); if out.last != n { out.append(n) } } }
        return out
    }

    @Test func demoDriveTakesTheRoundabout() throws {
        let m = try TestMaps.demoTown()
        let r = try Router(map: m).route([DemoTown.start, DemoTown.destination])
        #expect(streets(r, m) == ["Harbour Road", "Market Street", "Market Circle", "Park Avenue"])
        #expect(r.distanceMeters > 900 && r.distanceMeters < 1300)
        let leg = r.legs[0]
        #expect(leg.shape.first!.distance(to: DemoTown.start) < 1)
        #expect(leg.shape.last!.distance(to: DemoTown.destination) < 10)
        #expect(leg.cumulativeMeters == leg.cumulativeMeters.sorted())
        // lengths are measured on the ellipsoid (as OSRM does), the shape's on a sphere: within 0.5%
        #expect(abs(leg.cumulativeMeters.last! / leg.shape.lengthMeters - 1) < 0.005)
    }

    /// Church Street is one-way southbound: going north along it means driving round the block.
    @Test func onewayIsRespected() throws {
        let m = try TestMaps.demoTown()
        let p = LocalProjection(origin: DemoTown.origin)
        func at(_ col: Double, _ row: Double) -> Coordinate { p.unproject(LocalPoint(x: col * 20, y: -row * 20)) }
        let south = at(10, 15), north = at(10, 3)
        let down = try Router(map: m).route([north, south])
        let up = try Router(map: m).route([south, north])
        #expect(abs(down.distanceMeters - 240) < 5)
        #expect(up.distanceMeters > 400)
        #expect(!streets(up, m).contains("Church Street") || streets(up, m).first == "Church Street")
    }

    /// A moving car keeps its direction: with a heading the route starts forward, not behind it.
    @Test func headingChoosesTheDirection() throws {
        let m = try TestMaps.demoTown()
        let p = LocalProjection(origin: DemoTown.origin)
        let onMill = p.unproject(LocalPoint(x: 20 * 20, y: -6 * 20))  // Mill Lane between f and g
        let target = p.unproject(LocalPoint(x: 2 * 20, y: 0))  // Harbour Road, west
        let west = try Router(map: m).route([onMill, target], headingDegrees: 270)
        let east = try Router(map: m).route([onMill, target], headingDegrees: 90)
        #expect(west.distanceMeters < east.distanceMeters)
        #expect(east.legs[0].shape[1].longitude > onMill.longitude)  // starts eastwards
    }

    /// Through a waypoint the car keeps going the way it came, and turns at the first place it can
    /// (OSRM's continue_straight, via.feature): stopping at 1 on the way down bd, it drives on to
    /// the bollard at d and turns there, never starting the next leg backwards.
    @Test func aWaypointIsDrivenThrough() throws {
        var s = ScenarioMap(ascii: """
            a b c
              1
              d


            f e
            """, columnMeters: 50, rowMeters: 100, origin: Coordinate(latitude: 49.4, longitude: 8.6))
        s.ways = [.init("abc", [("highway", "primary"), ("name", "abc")]), .init("bd", [("highway", "primary"), ("name", "bd")]),
                  .init("afed", [("highway", "primary"), ("name", "afed")])]
        s.nodeTags["d"] = [("barrier", "bollard")]
        let m = try TestMaps.scenario(s)
        let r = try Router(map: m).route([s["a"]!, s["1"]!, s["c"]!])
        #expect(r.legs.count == 2)
        // the second leg goes on south from 1 to d first, then back north to b and on to c
        let second = r.legs[1].shape
        #expect(second[1].latitude < s["1"]!.latitude, "the next leg starts backwards: \(second.prefix(3))")
        #expect(streets(r, m) == ["abc", "bd", "abc"])
        #expect(r.legs[1].distanceMeters > 2 * s["1"]!.distance(to: s["d"]!))
    }

    /// A bearing at the destination (OSRM's bearings, turning_loop.feature): to arrive at c
    /// driving west, the car starting east at b goes on to the turning circle at d and comes back.
    @Test func arrivalHeadingIsKept() throws {
        var s = ScenarioMap(ascii: "a b c d e", columnMeters: 50, rowMeters: 100, origin: Coordinate(latitude: 49.4, longitude: 8.6))
        s.ways = [.init("abcde", [("highway", "primary"), ("name", "Main")])]
        s.nodeTags["d"] = [("highway", "turning_circle")]
        let m = try TestMaps.scenario(s)
        let router = Router(map: m)
        let plain = try router.route([s["b"]!, s["c"]!], headingDegrees: 90)
        let west = try router.route([s["b"]!, s["c"]!], headingDegrees: 90, arrivalHeadingDegrees: 270)
        let shape = west.legs[0].shape
        #expect(abs(plain.distanceMeters - s["b"]!.distance(to: s["c"]!)) < 2)
        #expect(west.distanceMeters > plain.distanceMeters + 2 * s["c"]!.distance(to: s["d"]!) - 2, "\(west.distanceMeters)")
        #expect(shape[shape.count - 1].longitude < shape[shape.count - 2].longitude, "arrives going east")
    }

    @Test func unreachableAndFarAwayGiveClearErrors() throws {
        let m = try TestMaps.demoTown()
        #expect(throws: RoutingError.noRoadNear(Coordinate(latitude: 10, longitude: 10), index: 1)) {
            try Router(map: m).route([DemoTown.start, Coordinate(latitude: 10, longitude: 10)])
        }
        #expect(throws: RoutingError.tooFewWaypoints) { try Router(map: m).route([DemoTown.start]) }
    }

    @Test func similarityOfRoutes() throws {
        let m = try TestMaps.demoTown()
        let router = Router(map: m)
        let a = try router.route([DemoTown.start, DemoTown.destination])
        #expect(RouteSimilarity.similarity(a, a) == 1)
        let p = LocalProjection(origin: DemoTown.origin)
        let b = try router.route([p.unproject(LocalPoint(x: 0, y: -18 * 20)), p.unproject(LocalPoint(x: 0, y: -6 * 20))])
        #expect(RouteSimilarity.similarity(a, b) == 0)
    }

    /// Every benchmark query of every extract gets a route; lengths agree with Valhalla's on most
    /// (issue #3 raises the bar to 90% within 10%; the differences left are explained there).
    @Test(.enabled(if: SharedData.isAvailable, Comment(rawValue: SharedData.missingMessage)), arguments: ["monaco", "andorra", "liechtenstein", "heidelberg"])
    func answersEveryBenchmarkQuery(extract: String) throws {
        let m = try TestMaps.extract(extract)
        let router = Router(map: m)
        let queries = try BenchQueries.load(extract)
        let valhalla = try BenchQueries.valhallaLengths(extract)
        var failures = [String](), within = 0
        for q in queries {
            do {
                let r = try router.route(q.locations)
                #expect(r.distanceMeters > 0)
                if let v = valhalla[q.id], abs(r.distanceMeters / v - 1) <= 0.10 { within += 1 }
            } catch {
                failures.append("\(q.id): \(error)")
            }
        }
        #expect(failures.isEmpty, "\(failures)")
        #expect(Double(within) >= 0.85 * Double(queries.count), "\(extract): only \(within) of \(queries.count) within 10% of Valhalla")
    }
}
