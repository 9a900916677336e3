import Foundation
import Geo
import GPSInput
import TestSupport
import Testing

/// gpsd killed mid-drive and started again on the same port: fixes resume within 3 s of its return.
@Suite struct GPSDReconnectTests {
    @Test func fixesResumeAfterGpsdRestarts() async throws {
        let feed = try GPSDFeed()
        defer { feed.stop() }
        let events = Collector<(Date, GPSInputEvent)>()
        let client = GPSDClient(options: .init(port: String(feed.port))) { events.append((Date(), $0)) }
        client.start()
        defer { client.stop() }

        // A receiver driving north at 10 epochs a second (fix times 1 s apart), fed until stopped,
        // on its own thread as a real receiver would be (not starved by other tests' tasks).
        let stop = Collector<Bool>()
        let feeder = Thread {
            var t = 1_718_452_800.0
            var c = Coordinate(latitude: 49.40, longitude: 8.69)
            while stop.count == 0 {
                let fix = GPSFix(time: t, coordinate: c, mode: .threeD, speedMetersPerSecond: 14, courseDegrees: 0)
                feed.feed(NMEAWriter.sentences(for: fix), pause: 0)
                t += 1
                c = c.moved(meters: 14, bearingDegrees: 0)
                usleep(100_000)
            }
        }
        feeder.start()
        defer { stop.append(true) }
        func fixes(after: Date) -> [Date] {
            events.all.compactMap { if case .fix = $0.1, $0.0 > after { return $0.0 }; return nil }
        }
        let begin = Date.distantPast
        #expect(await waitUntilAsync(seconds: 20) { fixes(after: begin).count >= 5 }, "no fixes before the restart")

        let killed = Date()
        feed.killGPSD()
        #expect(await waitUntilAsync(seconds: 5) { events.all.contains { if case .disconnected = $0.1, $0.0 >= killed { return true }; return false } },
                "the client did not notice gpsd going away")
        try await Task.sleep(for: .seconds(1))
        try feed.restartGPSD()
        let restarted = Date()
        #expect(await waitUntilAsync(seconds: 10) { !fixes(after: restarted).isEmpty }, "no fix after gpsd returned")
        let first = try #require(fixes(after: restarted).first)
        let delay = first.timeIntervalSince(restarted)
        print(String(format: "fixes resumed %.2f s after gpsd restarted", delay))
        #expect(delay <= 3.0)
    }
}

/// No gpsd yet (the unit boots, gpsfake starts its own): "waiting for gpsd" first, and only once
/// the start-up grace has passed without gpsd, "cannot connect".
@Suite struct GPSDStartupTests {
    @Test func waitingBeforeCannotConnect() async throws {
        // a port nothing listens on
        let events = Collector<GPSInputEvent>()
        var options = GPSDClient.Options(host: "127.0.0.1", port: "9")
        options.startupGraceSeconds = 1
        let client = GPSDClient(options: options) { events.append($0) }
        client.start()
        defer { client.stop() }
        let reasons = { events.all.compactMap { e -> String? in if case .disconnected(let why) = e { return why }; return nil } }
        #expect(await waitUntilAsync(seconds: 5) { reasons().count >= 2 })
        let said = reasons()
        #expect(said.first?.hasPrefix("waiting for gpsd at 127.0.0.1:9") == true, "\(said)")
        #expect(said.count == 2 && said[1].hasPrefix("cannot connect to gpsd at 127.0.0.1:9"), "\(said)")
    }
}
