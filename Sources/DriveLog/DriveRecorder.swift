import Foundation
import Geo
import JSONLines
import Navigation

/// Records one drive into its own folder: `raw.nmea` (sentences as received), `events.jsonl`
/// (the navigator's events) and `track.jsonl` (positions). Lines are appended with single
/// write(2) calls on O_APPEND files, so a crash loses at most the line being written. A full disk
/// stops recording, is reported once, and never stops guidance.
public final class DriveRecorder {
    public let folder: String
    private var raw: Int32 = -1
    private var events: Int32 = -1
    private var track: Int32 = -1
    private var failed = false
    private let onProblem: (String) -> Void
    public private(set) var linesWritten = 0

    /// Creates `<logDirectory>/<name>/`; `name` defaults to the UTC start time (a suffix is added
    /// when it exists).
    public init(logDirectory: String, name: String? = nil, onProblem: @escaping (String) -> Void = { _ in }) throws {
        self.onProblem = onProblem
        let base = name ?? DriveRecorder.folderName(Date().timeIntervalSince1970)
        try FileManager.default.createDirectory(atPath: logDirectory, withIntermediateDirectories: true)
        var candidate = (logDirectory as NSString).appendingPathComponent(base)
        var n = 1
        while FileManager.default.fileExists(atPath: candidate) {
            n += 1
            candidate = (logDirectory as NSString).appendingPathComponent("\(base)-\(n)")
        }
        try FileManager.default.createDirectory(atPath: candidate, withIntermediateDirectories: false)
        folder = candidate
        raw = try open("raw.nmea")
        events = try open("events.jsonl")
        track = try open("track.jsonl")
    }

    /// Records into an existing folder (appending), e.g. to go on with a drive after a restart.
    public init(existingFolder: String, onProblem: @escaping (String) -> Void = { _ in }) throws {
        self.onProblem = onProblem
        folder = existingFolder
        raw = try open("raw.nmea")
        events = try open("events.jsonl")
        track = try open("track.jsonl")
    }

    deinit { close() }

    public static func folderName(_ t: Double) -> String {
        FixTime.iso8601(floor(t)).replacingOccurrences(of: ":", with: "").replacingOccurrences(of: "-", with: "")
    }

    public var eventsPath: String { (folder as NSString).appendingPathComponent("events.jsonl") }
    public var rawPath: String { (folder as NSString).appendingPathComponent("raw.nmea") }
    public var trackPath: String { (folder as NSString).appendingPathComponent("track.jsonl") }

    private func open(_ file: String) throws -> Int32 {
        let path = (folder as NSString).appendingPathComponent(file)
        let fd = Foundation.open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: path]) }
        return fd
    }

    /// One NMEA sentence as received (CR LF added).
    public func recordNMEA(_ sentence: String) {
        var line = sentence
        line.append("\r\n")
        append(raw, &line)
    }

    public func record(_ event: NavigationEvent) {
        var line = event.jsonLine()
        line.append("\n")
        append(events, &line)
        if case let .position(lat, lon, speed, course, _, matched, estimated) = event.kind {
            var point = JSONValue.object([
                ("t", .string(FixTime.iso8601(event.time))), ("lat", .num(lat, 7)), ("lon", .num(lon, 7)),
                ("speed_mps", speed.map { .num($0, 2) } ?? .null), ("course_deg", course.map { .num($0, 1) } ?? .null),
                ("matched", .bool(matched)), ("estimated", .bool(estimated)),
            ]).serialized()
            point.append("\n")
            append(track, &point)
        }
    }

    /// Writes a line (its UTF-8 in place: no copy into an array per line).
    private func append(_ fd: Int32, _ text: inout String) {
        guard !failed, fd >= 0 else { return }
        let (n, count) = text.withUTF8 { (Foundation.write(fd, $0.baseAddress!, $0.count), $0.count) }
        if n != count {
            failed = true
            let reason = n < 0 ? String(cString: strerror(errno)) : "short write"
            onProblem("drive log stopped (\(reason)) in \(folder); guidance goes on")
            return
        }
        linesWritten += 1
    }

    /// Whether recording stopped on an error (e.g. a full disk).
    public var hasStopped: Bool { failed }

    public func close() {
        for fd in [raw, events, track] where fd >= 0 { fsync(fd); Foundation.close(fd) }
        raw = -1; events = -1; track = -1
    }
}
