import Foundation
import Geo
import GPSInput
import TestSupport
import Testing

/// Real gpsd between the logs and the client: what the client delivers must be what gpsd reports
/// (read independently with `gpspipe -w` from the same gpsd), for every plain NMEA log.
@Suite(.serialized) struct GPSDReplayTests {
    static let warmUp = NMEAWriter.checksummed("GPTXT,01,01,02,tern warm-up")

    struct Outcome: Sendable {
        var log: String
        var clientFixes: [Coordinate] = []
        var gpsdFixes: [Coordinate] = []
        var error: String?
        var warmUpSeconds = 0.0
        var seconds = 0.0
    }

    /// Replays one log: starts gpsd on a pty, connects the client and gpspipe, waits until both
    /// see a warm-up sentence (gpsd has finished probing the device), feeds the log, and collects.
    static func replay(_ log: String) async -> Outcome {
        var outcome = Outcome(log: log)
        let started = Date()
        defer { outcome.seconds = Date().timeIntervalSince(started) }
        do {
            let feed = try GPSDFeed()
            defer { feed.stop() }
            let pipeOut = feed.dir.file("pipe.out")
            let pipe = try ChildProcess("gpspipe", ["-w", "-r", "localhost:\(feed.port)"], outputPath: pipeOut)
            defer { pipe.stop(grace: 0.5) }
            let events = Collector<GPSInputEvent>()
            let client = GPSDClient(options: .init(port: String(feed.port), watchNMEA: true)) { events.append($0) }
            client.start()
            defer { client.stop() }
            func clientSawWarmUp() -> Bool { events.all.contains { if case .nmea(let s) = $0 { return s.contains("tern warm-up") }; return false } }
            func pipeSawWarmUp() -> Bool { ((try? String(contentsOfFile: pipeOut, encoding: .utf8)) ?? "").contains("tern warm-up") }
            let deadline = Date().addingTimeInterval(TestTiming.seconds(15))
            while !(clientSawWarmUp() && pipeSawWarmUp()) {
                guard Date() < deadline else { outcome.error = "gpsd never passed the warm-up sentence on"; return outcome }
                feed.feed([warmUp], pause: 0)
                try await Task.sleep(for: .milliseconds(100))
            }
            outcome.warmUpSeconds = Date().timeIntervalSince(started)
            let lines = try NMEAFile.lines(path: SharedData.path("gpsd/\(log)"))
            for chunk in stride(from: 0, to: lines.count, by: 8) {
                feed.feed(Array(lines[chunk..<min(lines.count, chunk + 8)]), pause: 0.0005)
                try await Task.sleep(for: .milliseconds(4))
            }
            // quiet for 600 ms: gpsd has reported everything
            var last = -1
            while events.count != last {
                last = events.count
                try await Task.sleep(for: .milliseconds(600))
            }
            client.stop()
            pipe.stop(grace: 0.5)
            outcome.clientFixes = events.all.compactMap { if case .fix(let f) = $0 { return f.coordinate }; return nil }
            outcome.gpsdFixes = gpspipeFixes(try String(contentsOfFile: pipeOut, encoding: .utf8))
        } catch {
            outcome.error = "\(error)"
        }
        return outcome
    }

    /// TPVs from gpspipe with the client's rules: mode ≥ 2, a position and a time, first report of an epoch.
    static func gpspipeFixes(_ text: String) -> [Coordinate] {
        var out = [Coordinate]()
        var lastTime: String?
        for line in text.split(whereSeparator: \.isNewline) where line.hasPrefix("{\"class\":\"TPV\"") {
            guard let o = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                  let mode = o["mode"] as? Int, mode >= 2, let lat = o["lat"] as? Double, let lon = o["lon"] as? Double else { continue }
            guard let t = o["time"] as? String, t != lastTime else { continue }
            lastTime = t
            out.append(Coordinate(latitude: lat, longitude: lon))
        }
        return out
    }

    @Test(.enabled(if: SharedData.isAvailable, Comment(rawValue: SharedData.missingMessage))) func everyPlainLogThroughGpsd() async throws {
        let logs = NMEALogTests.logs
        var outcomes = [Outcome]()
        // eight at a time: each is mostly waiting on gpsd
        for batch in stride(from: 0, to: logs.count, by: 8) {
            await withTaskGroup(of: Outcome.self) { group in
                for log in logs[batch..<min(logs.count, batch + 8)] {
                    group.addTask {
                        // A gpsd that never finishes probing under load gets one fresh start.
                        let first = await Self.replay(log)
                        return first.error == nil ? first : await Self.replay(log)
                    }
                }
                for await o in group { outcomes.append(o) }
            }
        }
        var withFixes = 0
        for o in outcomes.sorted(by: { $0.log < $1.log }) {
            #expect(o.error == nil, "\(o.log): \(o.error ?? "")")
            let same = o.clientFixes.count == o.gpsdFixes.count
                && zip(o.clientFixes, o.gpsdFixes).allSatisfy { $0.distance(to: $1) < 0.01 }
            #expect(same, "\(o.log): client got \(o.clientFixes.count) fixes, gpspipe \(o.gpsdFixes.count)")
            if !o.clientFixes.isEmpty { withFixes += 1 }
            if ProcessInfo.processInfo.environment["TERN_TEST_VERBOSE"] != nil {
                print(o.log, o.error ?? "", String(format: "warm-up %.1f s, total %.1f s", o.warmUpSeconds, o.seconds))
            }
        }
        // all but the logs with no fix at all (9 in the manifest) and hp58534a deliver positions
        #expect(withFixes >= 100, "only \(withFixes) logs delivered fixes")
        print("gpsd replay: \(outcomes.count) logs, \(withFixes) with fixes, \(outcomes.reduce(0) { $0 + $1.clientFixes.count }) fixes")
    }
}
