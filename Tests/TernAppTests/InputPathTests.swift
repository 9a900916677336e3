import Foundation
import Simulation
import TestSupport
import Testing

/// Issue #29: a FIFO given as the map hung `map-info`, `route` and `replay` (open waits for a
/// writer). Every file Tern reads is refused at once, with the reason, unless it is a regular file.
@Suite struct InputPathTests {
    @Test func aFIFOIsRefusedAtOnceWherever() async throws {
        let dir = TempDir()
        defer { dir.remove() }
        let map = try TownDrive.map(dir)
        let fifo = dir.file("fifo")
        #expect(mkfifo(fifo, 0o644) == 0)
        let (from, to) = (TownDrive.from, TownDrive.to)
        let nmea = try await TownDrive.drive(dir, map: map)
        let cases: [[String]] = [
            ["map-info", fifo],
            ["route", "--map", fifo, "--from", from, "--to", to],
            ["replay", nmea, "--map", fifo, "--to", to, "--direct", "--mute", "--log-dir", dir.file("drives")],
            ["replay", fifo, "--map", map, "--to", to, "--direct", "--mute", "--log-dir", dir.file("drives")],
            ["run", "--config", fifo],
            ["say", "--file", fifo, "--wav", dir.file("x.wav")],
        ]
        for args in cases {
            // (a FIFO's open waits for ever: a run that ends, with the reason, is the proof; the
            // time limit is only there to end the test, generous for a loaded machine)
            let r = try await TernBinary.run(args, timeout: 60, in: dir)
            #expect(r.exitCode == 1, "\(args): \(r.exitCode.map(String.init) ?? "hung"): \(r.output.suffix(300))")
            #expect(r.output.contains("not a regular file (a FIFO)"), "\(args): \(r.output.suffix(300))")
        }
    }
}
