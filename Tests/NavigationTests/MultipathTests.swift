import Foundation
import Geo
import MapCompiler
import MapData
import Navigation
import Routing
import Simulation
import TestSupport
import Testing

/// Multipath drags a receiver's fixes 15–25 m off for a few seconds, towards a road beside; the
/// Doppler speed and course stay true. A car standing at lights, crawling in a queue or driving
/// straight on cannot have moved that far across the route, so that is no off-route (issue #24,
/// the road drive set). Driving the parallel road for real still is one.
@Suite struct MultipathTests {
    /// Main Road with a service road 15 m beside it (MatcherDisagreementTests), driven with a
    /// stop-and-go driver and a burst of 22 m pull towards the service road every half minute.
    @Test func burstsTowardsAParallelRoadAreNoOffRoute() throws {
        let (s, m) = try MatcherDisagreementTests.parallelRoads()
        var o = DriveSimulator.Options()
        o.seed = 5
        o.driver.stopsPerKilometre = 2
        o.driver.crawls = 1
        let sim = DriveSimulator(map: m, options: o).simulate(try Router(map: m).route([s["a"]!, s["b"]!]))
        // a burst: 6 s rising to 22 m north and falling back, every 30 s
        let t0 = sim.fixes[0].time
        let fixes = sim.fixes.map { f -> GPSFix in
            let phase = (f.time - t0).truncatingRemainder(dividingBy: 30)
            guard phase < 6 else { return f }
            var g = f
            g.coordinate = f.coordinate.moved(meters: 22 * sin(.pi * phase / 6), bearingDegrees: 0)
            return g
        }
        #expect(sim.truth.contains { $0.speedMetersPerSecond == 0 } && fixes.count > 150)
        var h = Harness(map: m)
        h.apply(.setDestination([s["b"]!], time: fixes[0].time))
        h.drive(fixes)
        #expect(h.named("offRoute").isEmpty, "\(h.named("offRoute").map { $0.jsonLine() })")
        #expect(h.navigator.state == .arrived)
    }
}
