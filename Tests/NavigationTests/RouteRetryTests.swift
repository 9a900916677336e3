import Foundation
import Geo
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
