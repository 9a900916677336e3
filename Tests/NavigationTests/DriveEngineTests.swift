import Drive
import Foundation
import Geo
import Navigation
import Routing
import Simulation
import TestSupport
import Testing

/// The engine's own duties beyond the navigator: the status line once a second whatever the
/// fix, the clock keeping it going when gpsd says nothing, and route answers that come later
/// than the request (the appliance's worker).
@Suite struct DriveEngineTests {
    /// A 20 s tunnel: gpsd still reports epochs, without a fix. The status goes on every second,
    /// says NO GPS, ESTIMATED (the `uncertain` state) without a fix mode, and guiding resumes after.
    @Test func statusEverySecondThroughATunnel() throws {
        let m = try TestMaps.demoTown()
        var o = DriveSimulator.Options()
        o.noiseMeters = 2
        o.seed = 3
        o.outages = [(start: 30, seconds: 20)]
        let fixes = DriveSimulator(map: m, options: o).drive(try Router(map: m).route([DemoTown.start, DemoTown.destination]))
        var h = Harness(map: m)
        h.apply(.setDestination([DemoTown.destination], time: fixes[0].time))
        h.drive(fixes)
        #expect(h.navigator.state == .arrived)
        let times = h.statuses.map(\.time)
        let gaps = zip(times.dropFirst(), times).map { $0 - $1 }
        #expect(gaps.allSatisfy { $0 <= 1.0 + 1e-9 }, "largest gap \(gaps.max() ?? 0) s")
        let outage = fixes[0].time + 31...fixes[0].time + 49
        let inside = h.statuses.filter { outage.contains($0.time) }
        #expect(inside.count >= 18)
        #expect(inside.allSatisfy { $0.fixMode == nil && $0.state == .uncertain }, "\(inside.map(\.state))")
        #expect(h.statuses.contains { $0.time > outage.upperBound + 2 && $0.state == .tracking && $0.fixMode != nil })
        #expect(h.statuses.last?.state == .arrived)
    }

    /// gpsd goes silent mid-drive (no epochs at all): the appliance's clock ticks keep the status
    /// and the dead reckoning going, and GPS is declared lost once, as on epochs without a fix.
    @Test func ticksStandInForASilentReceiver() throws {
        let m = try TestMaps.demoTown()
        let fixes = try simulate(m, [DemoTown.start, DemoTown.destination], noise: 2, seed: 4)
        var h = Harness(map: m)
        h.apply(.setDestination([DemoTown.destination], time: fixes[0].time))
        h.drive(Array(fixes.prefix(25)))
        let last = fixes[24].time
        let before = h.named("position").count
        for k in 1...8 { h.feed(.tick(time: last + Double(k))) }
        #expect(h.named("gpsLost").count == 1)
        let estimated = h.named("position").dropFirst(before).filter { if case let .position(_, _, _, _, _, _, e, _) = $0.kind { return e }; return false }
        #expect(estimated.count >= 6)  // from 1.5 s after the last epoch
        #expect(h.statuses.filter { $0.time > last }.count == 8)
        #expect(h.statuses.last?.state == .uncertain)
        // ticks while epochs come do not dead-reckon
        var steady = Harness(map: m)
        steady.apply(.setDestination([DemoTown.destination], time: fixes[0].time))
        for f in fixes.prefix(25) {
            steady.drive([f])
            steady.feed(.tick(time: f.time + 0.5))
        }
        #expect(steady.named("position").allSatisfy { if case let .position(_, _, _, _, _, _, e, _) = $0.kind { return !e }; return true })
    }

    /// Routes answered later, as by the appliance's worker: REROUTING shows on the status while
    /// the answer is out, an answer to an overtaken request is dropped, and guiding resumes on
    /// the awaited one.
    @Test func reroutingShowsUntilTheAnswerComes() throws {
        let m = try TestMaps.demoTown()
        // the car goes straight on where the route turns (DemoTown's wrong-turn drive)
        let sim = DriveSimulator(map: m, options: DriveSimulator.Options())
        let wrong = try sim.wrongTurn(from: DemoTown.start, to: DemoTown.destination, at: 1)
        let fixes = sim.drive(wrong.driven)
        var h = Harness(map: m)
        h.answerRoutes = false
        h.apply(.setDestination([DemoTown.destination], time: fixes[0].time))
        var i = 0
        while h.requests.isEmpty, i < fixes.count { h.drive([fixes[i]]); i += 1 }  // (the first fix gives the origin)
        h.apply(h.answer(try #require(h.requests.first)))
        while h.requests.count < 2, i < fixes.count { h.drive([fixes[i]]); i += 1 }
        let reroute = try #require(h.requests.last)
        #expect(reroute.reason == .reroute)
        h.drive([fixes[i]])
        #expect(h.statuses.last?.state == .rerouting)
        // an answer to the first request again: not awaited, dropped
        let eventsBefore = h.events.count
        h.apply(h.answer(h.requests[0]))
        #expect(h.events.count == eventsBefore && h.navigator.state == .rerouting)
        h.apply(h.answer(reroute))
        #expect(h.named("rerouted").count == 1)
        #expect(h.statuses.last?.state == .tracking)
        h.answerRoutes = true
        h.drive(Array(fixes[(i + 1)...]))
        #expect(h.navigator.state == .arrived)
    }

    /// The speech thread's real timings replace the estimate from the text's length: a prompt
    /// that really plays for 40 s holds the next one back until it has ended, and a speaker that
    /// fell silent early frees it at once.
    @Test func realSpeechTimingsHoldTheNextPrompt() throws {
        let m = try TestMaps.demoTown()
        let fixes = try simulate(m, [DemoTown.start, DemoTown.destination])
        func prompts(holdFor seconds: Double?) -> [Double] {
            var h = Harness(map: m)
            h.apply(.setDestination([DemoTown.destination], time: fixes[0].time))
            var held = false
            for f in fixes {
                h.drive([f])
                if let s = seconds, !held, let first = h.prompts.first {
                    h.apply(.speechStarted(endsAt: first.time + s))
                    held = true
                }
            }
            return h.prompts.map { $0.time - fixes[0].time }
        }
        let estimated = prompts(holdFor: nil), long = prompts(holdFor: 40)
        #expect(estimated.count >= 3 && estimated[1] < 40)
        #expect(long.dropFirst().allSatisfy { $0 >= 40 }, "\(long)")
        // the speaker silent again at once: as with the estimate
        var h = Harness(map: m)
        h.apply(.setDestination([DemoTown.destination], time: fixes[0].time))
        h.drive([fixes[0]])
        h.apply(.speechStarted(endsAt: fixes[0].time + 40))
        h.apply(.speechEnded(time: fixes[0].time + 1))
        h.drive(Array(fixes.dropFirst()))
        #expect(h.prompts.map { $0.time - fixes[0].time } == estimated)
    }
}
