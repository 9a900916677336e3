import FoundationEssentials
import Glibc
import Geo

/// A usage error: printed with the command's usage, exit status 2.
public struct UsageError: Error, CustomStringConvertible {
    public let description: String
    public init(_ d: String) { description = d }
}

/// A failure of a command: printed as one line, exit status 1.
public struct CommandError: Error, CustomStringConvertible {
    public let description: String
    public init(_ d: String) { description = d }
}

/// Command-line arguments: positionals and `--flag [value]` options.
struct Arguments {
    /// Set while a command line is only checked (`TernCLI.check`): every command parses its
    /// arguments first, and a successful parse ends there with `Checked`.
    @TaskLocal static var checkingOnly = false
    struct Checked: Error { let positional: [String] }

    private(set) var positional: [String] = []
    private var values: [String: [String]] = [:]
    private var flags: Set<String> = []

    /// `valued` lists the options that take a value; every other `--x` is a switch.
    init(_ args: [String], valued: Set<String>, switches: Set<String>) throws {
        var i = 0
        while i < args.count {
            let a = args[i]
            if a.hasPrefix("--") || (a.hasPrefix("-") && a.count == 2 && Double(a) == nil) {
                var name = a.hasPrefix("--") ? String(a.dropFirst(2)) : String(a.dropFirst(1))
                var inline: String?
                if let eq = name.firstIndex(of: "=") { inline = String(name[name.index(after: eq)...]); name = String(name[..<eq]) }
                if valued.contains(name) {
                    let v: String
                    if let inline { v = inline } else {
                        guard i + 1 < args.count else { throw UsageError("option --\(name) needs a value") }
                        v = args[i + 1]
                        i += 1
                    }
                    values[name, default: []].append(v)
                } else if switches.contains(name) {
                    flags.insert(name)
                } else {
                    throw UsageError("unknown option \(a)")
                }
            } else {
                positional.append(a)
            }
            i += 1
        }
        if Arguments.checkingOnly { throw Checked(positional: positional) }
    }

    func has(_ flag: String) -> Bool { flags.contains(flag) }
    func value(_ name: String) -> String? { values[name]?.last }
    func all(_ name: String) -> [String] { values[name] ?? [] }

    func require(_ name: String) throws -> String {
        guard let v = value(name) else { throw UsageError("missing --\(name)") }
        return v
    }

    func coordinate(_ name: String) throws -> Coordinate? {
        guard let v = value(name) else { return nil }
        guard let c = Coordinate(parsing: v) else { throw UsageError("--\(name) \(v): expected LAT,LON in degrees, e.g. 49.4093,8.6937") }
        return c
    }

    func coordinates(_ name: String) throws -> [Coordinate] {
        try all(name).map { v in
            guard let c = Coordinate(parsing: v) else { throw UsageError("--\(name) \(v): expected LAT,LON in degrees") }
            return c
        }
    }

    func double(_ name: String, default d: Double, range: ClosedRange<Double>) throws -> Double {
        guard let v = value(name) else { return d }
        guard let x = Double(v), range.contains(x) else { throw UsageError("--\(name) \(v): expected a number in \(range.lowerBound)...\(range.upperBound)") }
        return x
    }

    func int(_ name: String, default d: Int, range: ClosedRange<Int>) throws -> Int {
        guard let v = value(name) else { return d }
        guard let x = Int(v), range.contains(x) else { throw UsageError("--\(name) \(v): expected a whole number in \(range.lowerBound)...\(range.upperBound)") }
        return x
    }
}

/// Writes a line to standard error.
func printError(_ s: String) {
    let bytes = Array((s + "\n").utf8)
    _ = bytes.withUnsafeBytes { write(2, $0.baseAddress!, $0.count) }
}

/// Writes text to standard output without buffering.
func printOut(_ s: String) {
    let bytes = Array((s + "\n").utf8)
    _ = bytes.withUnsafeBytes { write(1, $0.baseAddress!, $0.count) }
}
