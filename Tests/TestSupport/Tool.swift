import Foundation

/// Runs a system tool (xmllint, aplay, systemd-analyze) to its end: its exit status and what it
/// printed, standard output and error together.
public enum Tool {
    public static func run(_ tool: String, _ arguments: [String], environment: [String: String]? = nil) throws -> (status: Int32, output: String) {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: tool)
        p.arguments = arguments
        if let environment { p.environment = environment }
        let pipe = Pipe()
        p.standardOutput = pipe
        p.standardError = pipe
        try p.run()
        let out = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        return (p.terminationStatus, out)
    }
}
