import FoundationEssentials
import Glibc
import JSONLines
import Platform
import Geo
import GPSInput

/// A recorded drive read back (for `tern gpx` and `tern report`): the receiver's fixes from
/// `raw.nmea`, the filtered and road-snapped track from `track.jsonl`, and the events. A line
/// torn by a power cut (the last of a file) is left out and counted; any other line that does
/// not parse is an error naming the file and line.
public struct DriveFolder {
    public struct TrackPoint: Sendable, Equatable {
        public var time: Double
        public var coordinate: Coordinate
        public var speedMetersPerSecond: Double?
        /// Where the matcher put it on its road; nil: not matched.
        public var snapped: Coordinate?
        /// The posted limit of that road, km/h (nil: none mapped).
        public var limitKmh: Double?
        public var estimated: Bool
    }

    /// One line of `events.jsonl`: its time, name and fields.
    public struct Event {
        public var time: Double
        public var name: String
        public var fields: [String: Any]
        public func string(_ key: String) -> String? { fields[key] as? String }
        /// What a person reads of it: a prompt's words, an off-route's or a route's reason, an
        /// arrival's address.
        public var detail: String? { string("text") ?? string("reason") ?? string("address") }
    }

    public let path: String
    public private(set) var raw: [GPSFix] = []
    public private(set) var track: [TrackPoint] = []
    public private(set) var events: [Event] = []
    /// Lines left out because a power cut tore them (at most one per file).
    public private(set) var tornLines = 0

    public init(path: String) throws {
        self.path = path
        var isDir = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDir), isDir else {
            throw DriveFolderError("\(path): not a drive folder (expected a folder with raw.nmea, track.jsonl and events.jsonl)")
        }
        let rawPath = file("raw.nmea")
        if FileManager.default.fileExists(atPath: rawPath) { raw = try NMEAFile.read(path: rawPath).fixes }
        for (o, where_) in try lines("track.jsonl") {
            guard let t = (o["t"] as? String).flatMap(FixTime.parse), let lat = JSONValue.double(o["lat"]), let lon = JSONValue.double(o["lon"]) else {
                throw DriveFolderError("\(where_): expected t, lat and lon")
            }
            let snapped = JSONValue.double(o["snap_lat"]).flatMap { la in JSONValue.double(o["snap_lon"]).map { Coordinate(latitude: la, longitude: $0) } }
            track.append(TrackPoint(time: t, coordinate: Coordinate(latitude: lat, longitude: lon), speedMetersPerSecond: JSONValue.double(o["speed_mps"]),
                                    snapped: snapped, limitKmh: JSONValue.double(o["limit_kmh"]), estimated: o["estimated"] as? Bool ?? false))
        }
        for (o, where_) in try lines("events.jsonl") {
            guard let t = (o["t"] as? String).flatMap(FixTime.parse), let name = o["event"] as? String else {
                throw DriveFolderError("\(where_): expected t and event")
            }
            events.append(Event(time: t, name: name, fields: o))
        }
        guard !raw.isEmpty || !track.isEmpty else { throw DriveFolderError("\(path): the drive has no fix (raw.nmea and track.jsonl are empty or missing)") }
    }

    private func file(_ name: String) -> String { Paths.join(path, name) }

    /// The JSON objects of a file's lines, with "file:line" for errors; a missing file is empty.
    private mutating func lines(_ name: String) throws -> [([String: Any], String)] {
        let p = file(name)
        guard FileManager.default.fileExists(atPath: p) else { return [] }
        guard let data = FileManager.default.contents(atPath: p) else { throw DriveFolderError("\(p): cannot read") }
        let all = data.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
        let endsWhole = data.last == UInt8(ascii: "\n")
        var out = [([String: Any], String)]()
        for (i, line) in all.enumerated() where !line.isEmpty {
            let isLast = i == all.count - 1
            guard let o = try? JSONValue.parse(line) as? [String: Any] else {
                // the last line without its newline was being written when the power went
                if isLast && !endsWhole {
                    tornLines += 1
                    continue
                }
                throw DriveFolderError("\(p):\(i + 1): not a JSON object")
            }
            out.append((o, "\(p):\(i + 1)"))
        }
        return out
    }

    /// The filtered position at or just before `time` (the place of an event); nil before the first.
    public func position(at time: Double) -> Coordinate? {
        var lo = 0, hi = track.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if track[mid].time <= time { lo = mid + 1 } else { hi = mid }
        }
        return lo > 0 ? track[lo - 1].coordinate : track.first?.coordinate
    }
}

public struct DriveFolderError: Error, CustomStringConvertible {
    public let description: String
    init(_ d: String) { description = d }
}
