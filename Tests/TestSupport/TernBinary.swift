import Foundation
import GPSInput

/// The `tern` executable built beside the test bundle (`swift build --build-tests` builds both).
public enum TernBinary {
    public static var path: String? {
        let exe = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        var dir = exe.deletingLastPathComponent()
        // the test runner may live inside a .xctest bundle directory
        for _ in 0..<3 {
            let candidate = dir.appendingPathComponent("tern").path
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
            dir = dir.deletingLastPathComponent()
        }
        return nil
    }

    public struct Result: Sendable {
        public var status: Int32?
        public var output: String
        public var seconds: Double
        public var exitCode: Int32? { status.map { ($0 >> 8) & 0xff } }
    }

    /// Runs tern with `arguments`, output (stdout and stderr) to a file; killed after `timeout` seconds.
    /// Waits without blocking a cooperative thread.
    public static func run(_ arguments: [String], timeout: Double, in directory: TempDir) async throws -> Result {
        guard let tern = path else { throw GPSInputError.cannotStart(program: "tern", reason: "not built (run swift build --build-tests)") }
        let out = directory.file("tern-\(UUID().uuidString).out")
        let started = Date()
        let p = try ChildProcess(tern, arguments, outputPath: out)
        _ = await waitUntilAsync(seconds: timeout, poll: 0.05) { !p.isRunning }
        var status = p.wait(timeout: 0)
        if status == nil { p.stop(grace: 1); status = nil }
        let text = (try? String(contentsOfFile: out, encoding: .utf8)) ?? ""
        return Result(status: status, output: text, seconds: Date().timeIntervalSince(started))
    }
}
