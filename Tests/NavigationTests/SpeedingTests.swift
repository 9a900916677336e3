import Geo
import Guidance
import MapCompiler
import MapData
import Simulation
import TestSupport
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
        #expect(under < 10)
        for _ in 0..<10 { #expect(at(30, limit: 30) == nil) }
    }

    /// The spoken warning: once when speeding has lasted 3 s, not again while it lasts, and again
    /// for a new episode; the margin as km/h.
    @Test func warningOnceAfterThreeSeconds() {
        var m = SpeedingMonitor(margin: .kmh(5))
        var t = 0.0
        var warned = [Double]()
        func at(_ kmh: Double, limit: Double = 50, seconds: Int = 1) {
            for _ in 0..<seconds {
                t += 1
                let p = FilteredPosition(time: t, coordinate: Coordinate(latitude: 49, longitude: 8), speedMetersPerSecond: kmh / 3.6,
                                         courseDegrees: 90, accuracyMeters: 3)
                _ = m.update(p, limitKmh: limit)
                if m.warningDue(time: t, speakerFree: true) != nil { warned.append(t) }
            }
        }
        at(54, seconds: 10)      // 4 km/h over: within the margin
        #expect(warned.isEmpty)
        at(56, seconds: 2)       // over for 2 s only
        at(50, seconds: 2)
        #expect(warned.isEmpty)
        at(60, seconds: 20)      // a whole episode: one warning, 3 s in
        #expect(warned == [18])  // over from 15 s
        at(45, seconds: 5)
        at(60, seconds: 5)       // under the limit for 5 s only: the same episode, not said again
        #expect(warned.count == 1)
        at(45, seconds: 31)
        at(60, seconds: 5)       // under for 30 s: a new episode
        #expect(warned.count == 2)
        at(45, seconds: 31)
        for _ in 0..<10 {        // no limit mapped on this road: nothing to warn about
            t += 1
            let p = FilteredPosition(time: t, coordinate: Coordinate(latitude: 49, longitude: 8), speedMetersPerSecond: 30,
                                     courseDegrees: 90, accuracyMeters: 3)
            _ = m.update(p, limitKmh: nil)
            if m.warningDue(time: t, speakerFree: true) != nil { warned.append(t) }
        }
        #expect(warned.count == 2)
    }

    @Test func marginSettings() {
        #expect(SpeedingMargin.parse("10%") == .percent(10))
        #expect(SpeedingMargin.parse("5 km/h") == .kmh(5))
        #expect(SpeedingMargin.parse("5kmh") == .kmh(5))
        #expect(abs((SpeedingMargin.parse("3 mph").map { $0.threshold(limitKmh: 0) } ?? 0) - 4.828) < 0.01)
        for bad in ["", "ten", "10", "-5%", "80%", "5 knots"] { #expect(SpeedingMargin.parse(bad) == nil, "\(bad)") }
    }

    /// A straight road whose limit drops from 70 to 30 halfway: "Speed limit 30." is said once,
    /// before the lower limit begins and not earlier than a "turn in" prompt would be; in
    /// imperial units the sign's 20 mph.
    @Test func lowerLimitAheadIsToldBeforeItBegins() throws {
        var s = ScenarioMap(ascii: """
            a                    b                    c
            """, columnMeters: 50, rowMeters: 50, origin: Coordinate(latitude: 49.40, longitude: 8.69))
        s.ways = [.init("ab", [("highway", "primary"), ("name", "Long Road"), ("maxspeed", "70")]),
                  .init("bc", [("highway", "primary"), ("name", "Long Road"), ("maxspeed", "30")])]
        let m = try TestMaps.scenario(s)
        let start = s["a"]!.moved(meters: 20, bearingDegrees: 90), end = s["c"]!.moved(meters: 20, bearingDegrees: 270)
        let fixes = try simulate(m, [start, end])
        for units in [UnitSystem.metric, .imperial] {
            var config = NavigatorConfig()
            config.units = units
            var h = Harness(map: m, config: config)
            h.apply(.setDestination([end], time: 0))
            h.drive(fixes)
            let text = units == .metric ? "Speed limit 30." : "Speed limit 20."
            let told = h.events.filter { $0.jsonLine().contains(text) }
            #expect(told.count == 1, "\(h.spoken.map(\.text))")
            guard let t = told.first?.time, let at = fixes.last(where: { $0.time <= t }) else { continue }
            let toChange = at.coordinate.distance(to: s["b"]!)
            let v = at.speedMetersPerSecond ?? 0
            #expect(at.coordinate.longitude < s["b"]!.longitude, "said after the limit began")
            #expect(toChange >= v * 2, "said \(toChange) m before the change at \(v) m/s: too late to slow")
            #expect(toChange <= max(150, v * 13) + v * 4 + 30, "said \(toChange) m before the change at \(v) m/s: too early")
            #expect(h.navigator.state == .arrived)
        }
    }
}
