import Geo
@testable import Navigation
import Positioning
import Testing

/// Speeding is an event when it begins, when the limit changes while it lasts, and when it ends:
/// not one on every fix (245 in one drive before).
@Suite struct SpeedingTests {
    @Test func eventsOnChangeOnly() {
        var m = SpeedingMonitor()
        var t = 0.0
        func at(_ kmh: Double, limit: Double?) -> NavigationEvent.Kind? {
            t += 1
            let p = FilteredPosition(time: t, coordinate: Coordinate(latitude: 49, longitude: 8), speedMetersPerSecond: kmh / 3.6,
                                     courseDegrees: 90, accuracyMeters: 3)
            return m.update(p, limitKmh: limit)?.kind
        }
        #expect(at(50, limit: 50) == nil)                      // at the limit
        #expect(at(54, limit: 50) == nil)                      // 8% over: within the margin
        guard case .speeding(let over, 50)? = at(60, limit: 50) else { Issue.record("no event when speeding began"); return }
        #expect(abs(over - 20) < 1e-9)
        for _ in 0..<30 { #expect(at(62, limit: 50) == nil) }  // while it lasts, nothing
        guard case .speeding(_, 30)? = at(62, limit: 30) else { Issue.record("no event when the limit changed"); return }
        #expect(at(62, limit: nil) == nil)                     // no limit known: nothing said
        guard case .speeding(let under, 30)? = at(30, limit: 30) else { Issue.record("no event when speeding ended"); return }
        #expect(under < SpeedingMonitor.overPercent)
        for _ in 0..<10 { #expect(at(30, limit: 30) == nil) }
    }
}
