import Dispatch
import FoundationEssentials
import Glibc
import Platform
import Geo
import JSONLines
import Navigation

/// Records one drive into its own folder: `raw.nmea` (sentences as received), `events.jsonl`
/// (the navigator's events) and `track.jsonl` (positions). Lines gather in a buffer per file and
/// go to the O_APPEND files in one write(2) each when the caller has handled an input (`flush`:
/// a fix, a command, a tick) or a buffer holds `flushBytes`, so a crash loses at most the lines of
/// the input being handled (written line by line, 6–7 calls a fix were 12% of a replay's CPU).
/// A write reaches the card only with an fsync: every `syncSeconds` of wall time at a flush, and
/// at `close`, so a power cut loses at most the last `syncSeconds` (2 s by default; `log-sync`
/// in tern.conf). A full disk stops the file it fills, not the others (the small events and track
/// files may still fit when the raw log does not); each stopped file is reported once, tried
/// again every `retrySeconds`, and what it lost is counted (`losses`). Guidance never stops.
public final class DriveRecorder {
    /// Where the drive is recorded (with `waitForFix`, where it will be once a fix comes).
    public private(set) var folder: String
    private let logDirectory: String
    /// Whether the folder and its files exist (with `waitForFix`, from the first fix on).
    private var opened = false
    /// What is kept of a drive's start while it has no fix yet (the newest sentences).
    static let waitingBytes = 512 * 1024
    private var raw = Output(name: "raw.nmea"), events = Output(name: "events.jsonl"), track = Output(name: "track.jsonl")
    /// The drive's folder could not be made: nothing is recorded.
    private var folderFailed = false
    /// How long a file that could not be written waits before it is tried again (a full disk may
    /// get room: retention removes old drives, a maintainer frees space).
    public var retrySeconds = 30.0
    private let onProblem: (String) -> Void
    /// A buffer this large is written without waiting for the input's end (a log replayed
    /// directly hands over all its sentences before its first fix).
    static let flushBytes = 64 * 1024
    /// How much of the drive a power cut may lose, seconds (0: every flush is synced).
    public var syncSeconds = 2.0
    private var lastSync = ProcessInfo.processInfo.systemUptime
    /// Which earlier drives to remove when this one begins (nil: all are kept).
    public var retention: DriveRetention?
    /// How many times the files were made durable (the policy is checked by it in tests).
    public private(set) var syncs = 0

    /// One file, the lines not yet written to it, and whether writing it stopped.
    private struct Output {
        let name: String
        var fd: Int32 = -1
        var pending: [UInt8] = []
        /// Why writing stopped (a full disk), and when (monotonic seconds); nil: writing.
        var stoppedBy: String?
        var stoppedAt = 0.0
        var lostLines = 0
        /// The last reason it stopped (kept when it is written again, for the summary).
        var lastProblem: String?
        /// The file ends inside a line (a write stopped part-way): the next write begins a new one.
        var torn = false
    }

    /// What a file lost: its name, the lines dropped, and why.
    public struct Loss: Sendable, Equatable {
        public let file: String
        public let lines: Int
        public let reason: String
        public init(file: String, lines: Int, reason: String) { (self.file, self.lines, self.reason) = (file, lines, reason) }
    }

    /// Creates `<logDirectory>/<name>/`; `name` defaults to the UTC start time (a suffix is added
    /// when it exists). With `waitForFix` (the appliance), nothing is made until the first fix:
    /// a unit started in a garage and switched off again leaves no empty drive behind, and the
    /// folder is named after the first fix's time; the sentences before it are kept (the newest
    /// `waitingBytes`) and written then.
    public init(logDirectory: String, name: String? = nil, waitForFix: Bool = false,
                onProblem: @escaping (String) -> Void = { _ in }) throws {
        self.onProblem = onProblem
        self.logDirectory = logDirectory
        try FileManager.default.createDirectory(atPath: logDirectory, withIntermediateDirectories: true)
        folder = Paths.join(logDirectory, name ?? "")
        if !waitForFix { try create(name ?? DriveRecorder.folderName(Date().timeIntervalSince1970)) }
    }

    /// Makes the drive's folder (a suffix where the name is taken) and opens its files.
    private func create(_ base: String) throws {
        var candidate = Paths.join(logDirectory, base)
        var n = 1
        while FileManager.default.fileExists(atPath: candidate) {
            n += 1
            candidate = Paths.join(logDirectory, "\(base)-\(n)")
        }
        try FileManager.default.createDirectory(atPath: candidate, withIntermediateDirectories: false)
        folder = candidate
        try openFiles()
        opened = true
        // the new folder and its files exist after a power cut only once their directories are
        // synced (a file's fsync covers its data, not its name)
        for dir in [candidate, logDirectory] {
            let fd = Glibc.open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
            if fd >= 0 {
                fsync(fd)
                Glibc.close(fd)
            }
        }
    }

    /// Records into an existing folder (appending), e.g. to go on with a drive after a restart.
    public init(existingFolder: String, onProblem: @escaping (String) -> Void = { _ in }) throws {
        self.onProblem = onProblem
        folder = existingFolder
        logDirectory = Paths.directory(existingFolder)
        try openFiles()
        opened = true
    }

    private func openFiles() throws {
        raw.fd = try open("raw.nmea")
        events.fd = try open("events.jsonl")
        track.fd = try open("track.jsonl")
    }

    deinit { close() }

    public static func folderName(_ t: Double) -> String {
        FixTime.iso8601(floor(t)).replacing(":", with: "").replacing("-", with: "")
    }

    public var eventsPath: String { Paths.join(folder, "events.jsonl") }
    public var rawPath: String { Paths.join(folder, "raw.nmea") }
    public var trackPath: String { Paths.join(folder, "track.jsonl") }

    private func open(_ file: String) throws -> Int32 {
        let path = Paths.join(folder, file)
        let fd = Glibc.open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        return fd
    }

    /// One NMEA sentence as received (CR LF added).
    public func recordNMEA(_ sentence: String) {
        buffer(&raw) { bytes in
            bytes.append(contentsOf: sentence.utf8)
            bytes.append(contentsOf: [0x0d, 0x0a])
        }
    }

    public func record(_ event: NavigationEvent) {
        if !opened, !folderFailed, case .position = event.kind {
            do {
                try create(DriveRecorder.folderName(event.time))
                if let r = retention {
                    // (a walk over every drive and deletes: not on the first fix's way to a route)
                    let (dir, now, current) = (logDirectory, event.time, folder)
                    // (the appliance's onProblem writes a line to standard error: safe from any thread)
                    nonisolated(unsafe) let report = onProblem
                    DispatchQueue.global(qos: .utility).async {
                        let removed = r.prune(logDirectory: dir, now: now, current: current)
                        if !removed.isEmpty { report("removed \(removed.count) old drive(s) (log-keep-days, log-max-mb)") }
                    }
                }
            } catch {
                folderFailed = true
                onProblem("cannot create a drive folder in \(logDirectory) (\(error)); drives are not logged, guidance goes on")
            }
        }
        appendLine(&events) { event.write(to: &$0) }
        if case let .position(lat, lon, speed, course, _, snapped, estimated, limit) = event.kind {
            appendLine(&track) { w in
                w.beginObject()
                w.key("t"); w.string(FixTime.iso8601(event.time))
                NavigationEvent.writeMotion(lat: lat, lon: lon, speed: speed, course: course, placeDigits: 7, to: &w)
                NavigationEvent.writeSnapped(snapped, limitKmh: limit, placeDigits: 7, to: &w)
                w.key("estimated"); w.bool(estimated)
                w.endObject()
            }
        }
    }

    /// Adds bytes to a file's buffer, written at the next `flush` or when the buffer is full.
    private func buffer(_ out: inout Output, _ fill: (inout [UInt8]) -> Void) {
        guard !folderFailed, out.fd >= 0 || !opened else { return }
        fill(&out.pending)
        if !opened {
            // no fix yet: keep the newest lines only, from the start of a line
            if out.pending.count > Self.waitingBytes, let cut = out.pending[(out.pending.count - Self.waitingBytes)...].firstIndex(of: 0x0a) {
                out.pending.removeSubrange(...cut)
            }
            return
        }
        if out.pending.count >= Self.flushBytes { write(&out) }
    }

    /// Adds a JSON line, written by `body` straight into the file's buffer (no string between).
    private func appendLine(_ out: inout Output, _ body: (inout JSONWriter) -> Void) {
        buffer(&out) { bytes in
            var w = JSONWriter(capacity: 0)
            swap(&w.bytes, &bytes)
            body(&w)
            w.newline()
            swap(&w.bytes, &bytes)
        }
    }

    /// Writes every buffered line (the caller has handled an input), and makes the files durable
    /// when `syncSeconds` have passed since they last were.
    public func flush() {
        guard opened else { return }
        write(&raw)
        write(&events)
        write(&track)
        let now = ProcessInfo.processInfo.systemUptime
        if now - lastSync >= syncSeconds {
            lastSync = now
            sync()
        }
    }

    /// fsync(2) of the three files; a failure stops that file as a failed write does (a full
    /// disk or a failing card may show only here, when the data reaches it).
    private func sync() {
        syncs += 1
        for k in 0..<3 {
            withOutput(k) { out in
                guard out.fd >= 0, out.stoppedBy == nil, fsync(out.fd) != 0, errno != EINVAL else { return }
                stop(&out, String(cString: strerror(errno)), lostLines: 0)
            }
        }
    }

    private func withOutput(_ k: Int, _ body: (inout Output) -> Void) {
        switch k {
        case 0: body(&raw)
        case 1: body(&events)
        default: body(&track)
        }
    }

    private func write(_ out: inout Output) {
        guard !out.pending.isEmpty else { return }
        defer { out.pending.removeAll(keepingCapacity: true) }
        guard out.fd >= 0 else { return }
        let now = ProcessInfo.processInfo.systemUptime
        if out.stoppedBy != nil, now - out.stoppedAt < retrySeconds {
            out.lostLines += out.pending.lazy.filter { $0 == 0x0a }.count
            return
        }
        let fd = out.fd
        var problem: String?, done = 0
        if out.torn, Glibc.write(fd, [UInt8(0x0a)], 1) != 1 { problem = String(cString: strerror(errno)) }
        if problem == nil {
            out.pending.withUnsafeBytes { bytes in
                while done < bytes.count {
                    let n = Glibc.write(fd, bytes.baseAddress! + done, bytes.count - done)
                    if n < 0, errno == EINTR { continue }
                    guard n > 0 else {
                        problem = n < 0 ? String(cString: strerror(errno)) : "short write"
                        return
                    }
                    done += n
                }
            }
        }
        if let problem {
            if done > 0 && out.pending[done - 1] != 0x0a { out.torn = true }
            stop(&out, problem, lostLines: out.pending[done...].lazy.filter { $0 == 0x0a }.count)
            return
        }
        out.torn = false
        if let why = out.stoppedBy {
            onProblem("drive log: \(out.name) written again in \(folder) after \(out.lostLines) line\(out.lostLines == 1 ? "" : "s") lost (\(why))")
            out.stoppedBy = nil
        }
    }

    /// A file could not be written: said once (until it is written again), its loss counted.
    private func stop(_ out: inout Output, _ why: String, lostLines: Int) {
        out.lostLines += lostLines
        if out.stoppedBy == nil {
            onProblem("drive log: \(out.name) stopped (\(why)) in \(folder); guidance goes on, the file is tried again every \(Int(retrySeconds)) s")
        }
        out.stoppedBy = why
        out.lastProblem = why
        out.stoppedAt = ProcessInfo.processInfo.systemUptime
    }

    /// "the drive log is incomplete: events.jsonl lost 12 lines (No space left on device)".
    public static func lossText(_ losses: [Loss]) -> String {
        "the drive log is incomplete: " + losses.map { "\($0.file) lost \($0.lines) line\($0.lines == 1 ? "" : "s") (\($0.reason))" }
            .joined(separator: ", ")
    }

    /// Whether a file is not being written now (e.g. a full disk), or the folder could not be made.
    public var hasStopped: Bool { folderFailed || [raw, events, track].contains { $0.stoppedBy != nil } }

    /// What each file lost, for the drive's summary (empty: the log is whole).
    public var losses: [Loss] {
        [raw, events, track].compactMap { o in
            o.lostLines > 0 || o.stoppedBy != nil ? Loss(file: o.name, lines: o.lostLines, reason: o.stoppedBy ?? o.lastProblem ?? "") : nil
        }
    }

    public func close() {
        guard opened else { return }  // (a drive that never had a fix leaves nothing)
        flush()
        sync()
        for fd in [raw.fd, events.fd, track.fd] where fd >= 0 { Glibc.close(fd) }
        raw.fd = -1; events.fd = -1; track.fd = -1
    }
}
