import FoundationEssentials
import Glibc
import Geo

/// Reads an NMEA log file into fixes, for offline tools and `replay --direct`.
public enum NMEAFile {
    /// All fixes in the file, one per epoch, with what was skipped. Throws only when the file cannot be read.
    public static func read(path: String) throws -> (fixes: [GPSFix], stats: NMEAStats) {
        parse(lines: try lineBytes(contentsOf: path), reportsNoFix: false)
    }

    /// Every epoch with a date and time: fixes, and outages as fixes of mode .noFix; with what was skipped.
    public static func epochs(path: String) throws -> (epochs: [GPSFix], stats: NMEAStats) {
        let (epochs, stats) = parse(lines: try lineBytes(contentsOf: path), reportsNoFix: true)
        return (epochs, stats)
    }

    public static func parse(_ data: Data, reportsNoFix: Bool = false) -> (fixes: [GPSFix], stats: NMEAStats) {
        // bytes, not String lines: a log may hold binary frames or invalid UTF-8
        parse(lines: lineBytes(data), reportsNoFix: reportsNoFix)
    }

    static func parse(lines: [String], reportsNoFix: Bool) -> (fixes: [GPSFix], stats: NMEAStats) {
        var parser = NMEAParser()
        parser.reportsNoFix = reportsNoFix
        var fixes = [GPSFix]()
        for line in lines {
            if let f = parser.feed(line: line) { fixes.append(f) }
        }
        if let f = parser.finish() { fixes.append(f) }
        return (fixes, parser.stats)
    }

    /// The sentences of a log, one per line, as bytes-to-text (for pacing a replay).
    public static func lines(path: String) throws -> [String] {
        sentences(try lineBytes(contentsOf: path))
    }

    /// What `tern replay` needs to know of a log before playing it, read a block at a time
    /// (the replay then streams the log again: nothing of it is held, issue #27).
    public static func summary(path: String) throws -> NMEASummary {
        var parser = NMEAParser()
        var summary = NMEASummary()
        func take(_ f: GPSFix) {
            guard f.isUsable else { return }
            if summary.first == nil { summary.first = f }
            summary.last = f
            summary.usableFixes += 1
        }
        for line in try NMEALineReader(path: path) {
            if NMEAFile.isSentence(line) { summary.sentenceLines += 1 }
            if let f = parser.feed(line: line) { take(f) }
        }
        if let f = parser.finish() { take(f) }
        summary.stats = parser.stats
        return summary
    }

    /// A line gpsd would take as a sentence (NMEA `$`, AIS `!`): what a replay hands to gpsfake
    /// and records.
    public static func isSentence(_ line: String) -> Bool { line.hasPrefix("$") || line.hasPrefix("!") }

    /// The file's lines (`lineBytes`); the one place a whole log file is read.
    private static func lineBytes(contentsOf path: String) throws -> [String] {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw GPSInputError.cannotRead(path: path, reason: String(cString: strerror(errno)))
        }
        return lineBytes(data)
    }

    private static func sentences(_ lines: [String]) -> [String] {
        lines.compactMap { line in
            guard !line.isEmpty else { return nil }
            var s = line
            if s.hasSuffix("\r") { s.removeLast() }
            return s
        }
    }

    /// The lines of `data` (split at LF; the last one without LF too), decoded as UTF-8 with
    /// invalid bytes replaced. Scanned through a buffer pointer: `Data`'s subscript costs an
    /// exclusivity check per byte, which was a tenth of `replay --direct`'s time.
    static func lineBytes(_ data: Data) -> [String] {
        data.withUnsafeBytes { (raw: UnsafeRawBufferPointer) -> [String] in
            let bytes = raw.bindMemory(to: UInt8.self)
            var lines = [String]()
            var start = 0
            for i in 0..<bytes.count where bytes[i] == 0x0a {
                lines.append(String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<i]), as: UTF8.self))
                start = i + 1
            }
            if start < bytes.count { lines.append(String(decoding: UnsafeBufferPointer(rebasing: bytes[start...]), as: UTF8.self)) }
            return lines
        }
    }
}

/// Errors of the GPS input stage.
public enum GPSInputError: Error, CustomStringConvertible {
    case cannotRead(path: String, reason: String)
    case cannotStart(program: String, reason: String)
    case gpsd(String)

    public var description: String {
        switch self {
        case let .cannotRead(path, reason): return "\(path): cannot read: \(reason)"
        case let .cannotStart(program, reason): return "cannot start \(program): \(reason)"
        case let .gpsd(message): return "gpsd: \(message)"
        }
    }
}

/// A log's first and last usable fix, how many there are, how many of its lines are sentences,
/// and what was skipped.
public struct NMEASummary: Sendable {
    public var first: GPSFix?
    public var last: GPSFix?
    public var usableFixes = 0
    public var sentenceLines = 0
    public var stats = NMEAStats()
    public init() {}
}
