import Foundation
import GPSInput
@testable import TernApp
import TestSupport
import Testing

/// The power goes off at any moment: `tern run` is killed (SIGKILL) at random moments while it
/// carries out `go`, `save` and `cancel`. After every kill the state file is whole, holding the
/// state before the command or after it, and the next start resumes the trip it holds.
/// (bench/state_kills.py does the same 200 times. A kill leaves the page cache, so this shows the
/// write-then-rename; that the fsyncs make it last through a real power cut rests on POSIX.)
@Suite(.enabled(if: SharedData.isAvailable, Comment(rawValue: SharedData.missingMessage)))
struct StateKillTests {
    @Test(.timeLimit(.minutes(TestTiming.minutes(3)))) func killedAtRandomTheStateIsOldOrNewNeverTorn() async throws {
        let dir = TempDir()
        defer { dir.remove() }
        let map = try TestMaps.extract("liechtenstein").path
        let tern = try #require(TernBinary.path)
        let sock = dir.file("control"), stateFile = dir.file("state/destinations.json")
        var rng = SystemRandomNumberGenerator()
        let commands = ["go 47.1410,9.5215", "go 47.0755,9.5121", "save fav", "cancel", "go vaduz"]
        var previous = TripState()
        var resumed = 0
        for round in 0..<25 {
            unlink(sock)  // (the killed tern's socket file stays behind; the new one binds afresh)
            let run = try ChildProcess(tern, ["run", "--map", map, "--gpsd", "127.0.0.1:9", "--console", "none", "--speech", "none",
                                              "--log-dir", dir.file("drives"), "--control", sock, "--state-dir", dir.file("state")],
                                       outputPath: dir.file("run-\(round).out"))
            #expect(await waitUntilAsync(seconds: 10, poll: 0.01) { FileManager.default.fileExists(atPath: sock) })
            if let trip = previous.trip {
                // the trip the file held is resumed at start, before any fix
                var status = try await TernBinary.run(["ctl", "--socket", sock, "status"], timeout: 10, in: dir)
                for _ in 0..<20 where status.output.contains("Connection refused") {  // (bound, not yet listening)
                    try await Task.sleep(for: .milliseconds(20))
                    status = try await TernBinary.run(["ctl", "--socket", sock, "status"], timeout: 10, in: dir)
                }
                #expect(status.output.contains("; going to \(trip.destination.label)"), "round \(round): \(status.output)")
                resumed += 1
            }
            let line = commands[Int.random(in: 0..<commands.count, using: &rng)]
            let ctl = try ChildProcess(tern, ["ctl", "--socket", sock] + line.split(separator: " ").map(String.init))
            try await Task.sleep(for: .milliseconds(Int.random(in: 0...60, using: &rng)))
            run.signal(SIGKILL)
            _ = run.wait(timeout: TestTiming.seconds(10))
            ctl.stop(grace: 0.2)
            let now: TripState
            do {
                now = try StateFile(path: stateFile).loadStrict()
            } catch {
                Issue.record("round \(round) after `\(line)`: the state file is torn: \(error)")
                return
            }
            // old or new: the trip is the one before, or the command's; favourites only grow
            let tripChanged = now.trip != previous.trip
            #expect(!tripChanged || line.hasPrefix("go") || line == "cancel", "round \(round): \(line) changed the trip")
            #expect(Set(previous.favourites.keys).isSubset(of: Set(now.favourites.keys)))
            previous = now
        }
        #expect(resumed > 0)
    }
}
