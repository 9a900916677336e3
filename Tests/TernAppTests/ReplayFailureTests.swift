import Foundation
import GPSInput
import TestSupport
import Testing

/// Issue #29, through gpsfake and gpsd: a replay whose feed died exited 0, and a killed replay
/// left gpsfake and gpsd running.
@Suite(.serialized) struct ReplayFailureTests {
    /// `tern replay` through gpsd of the town drive at real time (long enough to be caught
    /// mid-drive), and the process group of its gpsfake once it runs.
    static func startReplay(_ dir: TempDir) async throws -> (tern: ChildProcess, fakeGroup: pid_t?) {
        let map = try TownDrive.map(dir)
        let nmea = try await TownDrive.drive(dir, map: map)
        let tern = try ChildProcess(try #require(TernBinary.path),
                                    ["replay", nmea, "--map", map, "--to", TownDrive.to, "--rate", "1", "--mute", "--quiet",
                                     "--log-dir", dir.file("drives")], outputPath: dir.file("replay.out"))
        var group: pid_t?
        _ = await waitUntilAsync(seconds: 20, poll: 0.1) {
            group = Self.gpsfake(under: dir.path)
            return group != nil
        }
        return (tern, group)
    }

    /// The pid of the gpsfake reading a paced log under `folder` (its process group's id).
    static func gpsfake(under folder: String) -> pid_t? {
        for entry in (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? [] {
            guard let pid = pid_t(entry), let cmd = FileManager.default.contents(atPath: "/proc/\(entry)/cmdline") else { continue }
            let args = cmd.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
            if args.contains(where: { $0.contains("gpsfake") }), args.contains(where: { $0.hasPrefix(folder) && $0.hasSuffix(".replay-input.nmea") }) {
                return pid
            }
        }
        return nil
    }

    /// Whether a process of the group still runs (a zombie does not: here PID 1 may never reap
    /// the orphans, which a real init does).
    static func groupAlive(_ pgid: pid_t) -> Bool {
        for entry in (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? [] where pid_t(entry) != nil {
            guard let stat = try? String(contentsOfFile: "/proc/\(entry)/stat", encoding: .utf8),
                  let close = stat.lastIndex(of: ")") else { continue }
            // after "pid (comm)": state ppid pgrp ...
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            if fields.count > 2, fields[2] == "\(pgid)", fields[0] != "Z" { return true }
        }
        return false
    }

    @Test func aReplayWhoseFeedDiedFails() async throws {
        let dir = TempDir()
        defer { dir.remove() }
        let (tern, group) = try await Self.startReplay(dir)
        defer { tern.stop(grace: 1) }
        let pgid = try #require(group, "gpsfake never started")
        try await Task.sleep(for: .seconds(2))
        kill(-pgid, SIGKILL)  // gpsfake and its gpsd, gone mid-drive
        _ = await waitUntilAsync(seconds: 40, poll: 0.2) { !tern.isRunning }
        let status = tern.wait(timeout: 1)
        let out = (try? String(contentsOfFile: dir.file("replay.out"), encoding: .utf8)) ?? ""
        #expect(status.map { ($0 >> 8) & 0xff } == 1, "\(out.suffix(500))")
        #expect(out.contains("the replay is incomplete"), "\(out.suffix(500))")
    }

    @Test func aKilledReplayLeavesNoGpsfakeOrGpsd() async throws {
        let dir = TempDir()
        defer { dir.remove() }
        let (tern, group) = try await Self.startReplay(dir)
        let pgid = try #require(group, "gpsfake never started")
        #expect(Self.groupAlive(pgid))
        kill(tern.pid, SIGKILL)  // no handler of tern's runs
        _ = tern.wait(timeout: 5)
        let gone = await waitUntilAsync(seconds: 10, poll: 0.2) { !Self.groupAlive(pgid) }
        #expect(gone, "gpsfake's group \(pgid) outlived tern")
        if !gone { kill(-pgid, SIGKILL) }
    }
}
