import FoundationEssentials
import Glibc
import Platform
import Geo

/// How many drives are kept: none older than `maxAgeDays`, and the newest that fit in `maxBytes`
/// together (`log-keep-days`, `log-max-mb` in tern.conf). Applied when a drive begins, at its
/// first fix and by the fix's time (a Pi has no clock battery: the system time at boot may be
/// days old, the receiver's is right). Only folders that hold a drive's files are touched, and
/// never the drive being recorded.
public struct DriveRetention: Sendable, Equatable {
    public var maxAgeDays: Double?
    public var maxBytes: Int?

    public init(maxAgeDays: Double? = nil, maxBytes: Int? = nil) {
        self.maxAgeDays = maxAgeDays
        self.maxBytes = maxBytes
    }

    static let driveFiles = ["events.jsonl", "track.jsonl", "raw.nmea"]

    /// When a drive began, from its folder's name ("20261207T081502Z", a "-2" suffix allowed).
    static func started(_ name: String) -> Double? {
        let c = Array(name.prefix(16))
        guard c.count == 16, c[8] == "T", c[15] == "Z" else { return nil }
        func n(_ r: Range<Int>) -> Int? { Int(String(c[r])) }
        guard let y = n(0..<4), let mo = n(4..<6), let d = n(6..<8), let h = n(9..<11), let mi = n(11..<13), let s = n(13..<15) else { return nil }
        return FixTime.utc(year: y, month: mo, day: d, hour: h, minute: mi, second: Double(s))
    }

    /// Removes the drives in `logDirectory` the policy does not keep, oldest first; returns the
    /// folders removed. `now`: seconds since the epoch; `current`: the folder being recorded.
    @discardableResult
    public func prune(logDirectory: String, now: Double, current: String?) -> [String] {
        struct Drive { var path: String; var modified: Double; var bytes: Int }
        let fm = FileManager.default
        var drives = [Drive]()
        for name in (try? fm.contentsOfDirectory(atPath: logDirectory)) ?? [] {
            let path = Paths.join(logDirectory, name)
            guard path != current else { continue }
            var modified = -Double.infinity, bytes = 0, isDrive = false
            for file in (try? fm.contentsOfDirectory(atPath: path)) ?? [] {
                guard let st = Paths.fileStatus(Paths.join(path, file)) else { continue }
                if Self.driveFiles.contains(file) { isDrive = true }
                bytes += st.bytes
                modified = max(modified, st.modified)
            }
            // a drive's date is in its folder's name, from the receiver's clock (the files' times
            // are the system clock's, which a Pi without a clock battery may have wrong)
            if isDrive { drives.append(Drive(path: path, modified: Self.started(name) ?? modified, bytes: bytes)) }
        }
        drives.sort { $0.modified > $1.modified }  // newest first
        var kept = 0
        var removed = [String]()
        for d in drives {
            let tooOld = maxAgeDays.map { now - d.modified > $0 * 86_400 } ?? false
            let tooBig = maxBytes.map { kept + d.bytes > $0 } ?? false
            if tooOld || tooBig {
                if (try? fm.removeItem(atPath: d.path)) != nil { removed.append(d.path) }
            } else {
                kept += d.bytes
            }
        }
        return removed
    }
}
