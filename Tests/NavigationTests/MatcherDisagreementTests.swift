import Foundation
import Geo
import MapCompiler
import MapData
import Navigation
import Routing
import Simulation
import TestSupport
import Testing

/// A matcher's disagreement alone is no off-route (issue #24): a receiver's bias of a few metres
/// is slow and steady, and a matcher that takes the road beside for the car must be confirmed by
/// distance or course.
@Suite struct MatcherDisagreementTests {
    /// Main Road, and a service road 15 m north of it along most of its length.
    static func parallelRoads() throws -> (ScenarioMap, RoadMap) {
        var s = ScenarioMap(ascii: """
              c . . . . . . . . . . . . d
            a . e . . . . . . . . . . f . b
            """, columnMeters: 40, rowMeters: 15, origin: Coordinate(latitude: 48.2, longitude: 11.3))
        s.ways = [.init("aefb", [("highway", "primary"), ("name", "Main Road")]),
                  .init("ec", [("highway", "service")]), .init("cd", [("highway", "service"), ("name", "Service Road")]),
                  .init("df", [("highway", "service")])]
        return (s, try TestMaps.scenario(s))
    }

    /// The car drives Main Road with its fixes 8 m north, towards the service road: no off-route.
    @Test func aSteadyBiasTowardsAParallelRoadIsNoOffRoute() throws {
        let (s, m) = try Self.parallelRoads()
        var o = DriveSimulator.Options()
        o.seed = 2
        let fixes = DriveSimulator(map: m, options: o).drive(try Router(map: m).route([s["a"]!, s["b"]!])).map { f -> GPSFix in
            var g = f
            g.coordinate = f.coordinate.moved(meters: 8, bearingDegrees: 0)
            return g
        }
        var h = Harness(map: m)
        h.apply(.setDestination([s["b"]!], time: fixes[0].time))
        h.drive(fixes)
        #expect(h.named("offRoute").isEmpty, "\(h.named("offRoute").map { $0.jsonLine() })")
        #expect(h.named("arrived").count == 1)
    }

    /// A bias that wanders up to 13 m north over half a minute, towards the service road 15 m
    /// away, as a real receiver's does: learnt from the fixes on Main Road (ReceiverBias), it is
    /// no off-route. (Judged on the distances as measured, the matcher took the service road
    /// once the fixes were 12 m out, and the distance confirmed it.)
    @Test func aBiasLearntOnTheRouteIsNoOffRoute() throws {
        let (s, m) = try Self.parallelRoads()
        var o = DriveSimulator.Options()
        o.seed = 2
        let fixes = DriveSimulator(map: m, options: o).drive(try Router(map: m).route([s["a"]!, s["b"]!]))
        let t0 = fixes[0].time
        let biased = fixes.map { f -> GPSFix in
            var g = f
            g.coordinate = f.coordinate.moved(meters: min(13, 13 * (f.time - t0) / 30), bearingDegrees: 0)
            return g
        }
        var h = Harness(map: m)
        h.apply(.setDestination([s["b"]!], time: t0))
        h.drive(biased)
        #expect(h.named("offRoute").isEmpty, "\(h.named("offRoute").map { $0.jsonLine() })")
        #expect(h.named("arrived").count == 1)
    }

    /// Driving the service road itself is still found, by the distance and course there.
    @Test func drivingTheParallelRoadIsAnOffRoute() throws {
        let (s, m) = try Self.parallelRoads()
        var o = DriveSimulator.Options()
        o.seed = 2
        let fixes = DriveSimulator(map: m, options: o).drive(try Router(map: m).route([s["a"]!, s["c"]!, s["b"]!], continueStraight: false))
        var h = Harness(map: m)
        h.apply(.setDestination([s["b"]!], time: fixes[0].time))
        h.drive(fixes, stopAtArrival: false)
        #expect(!h.named("offRoute").isEmpty)
    }
}
