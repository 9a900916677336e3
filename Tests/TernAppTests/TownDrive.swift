import Foundation
import Simulation
import TestSupport
import Testing

/// The demo town's map built into a test's folder, and a drive across it simulated by
/// `tern simulate` (the appliance's own simulator), for the tests that run the binary.
enum TownDrive {
    static var from: String { "\(DemoTown.start.latitude),\(DemoTown.start.longitude)" }
    static var to: String { "\(DemoTown.destination.latitude),\(DemoTown.destination.longitude)" }

    /// dir/town.tmap, built.
    static func map(_ dir: TempDir) throws -> String {
        let map = dir.file("town.tmap")
        _ = try DemoTown.build(mapPath: map, workDirectory: dir.path)
        return map
    }

    /// A simulated drive from the town's start to its destination, written to dir/`name`.
    static func drive(_ dir: TempDir, map: String, name: String = "drive.nmea") async throws -> String {
        let nmea = dir.file(name)
        let sim = try await TernBinary.run(["simulate", "--map", map, "--from", from, "--to", to, "-o", nmea], timeout: 60, in: dir)
        #expect(sim.exitCode == 0, "\(sim.output)")
        return nmea
    }
}
