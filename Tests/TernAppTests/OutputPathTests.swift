import Foundation
import Simulation
import TestSupport
import Testing

/// Issue #29: `tern import -o /dev/full` replaced the device with a file. Every command's output
/// now replaces only a regular file or makes a new one, and says why not.
@Suite struct OutputPathTests {
    @Test func aMapIsNeverWrittenOverAFIFOOrADevice() throws {
        let dir = TempDir()
        defer { dir.remove() }
        let fifo = dir.file("map.fifo")
        #expect(mkfifo(fifo, 0o644) == 0)
        do {
            _ = try DemoTown.build(mapPath: fifo, workDirectory: dir.path)
            Issue.record("the map was written over a FIFO")
        } catch {
            #expect("\(error)".contains("not a regular file (a FIFO)"), "\(error)")
        }
        var st = stat()
        #expect(lstat(fifo, &st) == 0 && st.st_mode & S_IFMT == S_IFIFO)
    }

    @Test func simulateRefusesADeviceAsItsOutput() async throws {
        let dir = TempDir()
        defer { dir.remove() }
        let map = try TownDrive.map(dir)
        let folder = dir.file("out")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
        let r = try await TernBinary.run(["simulate", "--map", map, "--from", TownDrive.from, "--to", TownDrive.to, "-o", folder], timeout: 60, in: dir)
        #expect(r.exitCode == 1, "\(r.output)")
        #expect(r.output.contains("\(folder): cannot write: not a regular file (a folder)"), "\(r.output)")
        var isDir: ObjCBool = false
        #expect(FileManager.default.fileExists(atPath: folder, isDirectory: &isDir) && isDir.boolValue)
    }
}
