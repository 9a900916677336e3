import FoundationEssentials
import Glibc
import JSONLines
import Geo
import GPSInput
import Platform

/// A recorded track to match: points with a time when the file has one.
struct TracePoint: Sendable {
    var time: Double?
    var coordinate: Coordinate
    var speed: Double?
    var course: Double?
}

/// Reads tracks: GPX 1.0/1.1 (trkpt; a file with only a route or waypoints is refused), NMEA logs (each epoch with a fix),
/// JSON (Barefoot's `[{"point": "POINT(lon lat)", "time": ...}]`, or `[[lat, lon], ...]`), and a
/// drive log's `track.jsonl`. A file with no point in it is an error, not an empty match.
enum TraceReader {
    static func read(_ path: String) throws -> [TracePoint] {
        let data: Data
        do { data = Data(try RegularFile.read(path)) } catch { throw CommandError("\(path): cannot read: \(error)") }
        let lower = path.lowercased()
        let points: [TracePoint]
        if lower.hasSuffix(".gpx") {
            points = try gpx(data, path: path)
        } else if lower.hasSuffix(".jsonl") {
            points = try jsonLines(data, path: path)
        } else if lower.hasSuffix(".json") {
            points = try json(data, path: path)
        } else {
            let (fixes, _) = NMEAFile.parse(data)
            guard !fixes.isEmpty else {
                throw CommandError("\(path): no fix in it: not an NMEA log with positions (tracks: .gpx, .nmea, .json, track.jsonl)")
            }
            points = fixes.map { TracePoint(time: $0.time, coordinate: $0.coordinate, speed: $0.speedMetersPerSecond, course: $0.courseDegrees) }
        }
        guard !points.isEmpty else { throw CommandError("\(path): no points in it") }
        return points
    }

    /// A drive log's `track.jsonl`: one `{"t", "lat", "lon", "speed_mps", "course_deg", ...}` a line.
    static func jsonLines(_ data: Data, path: String) throws -> [TracePoint] {
        var out = [TracePoint]()
        for (i, line) in data.split(separator: 0x0a).enumerated() where !line.isEmpty {
            guard let o = try? JSONValue.parse(line) as? [String: Any],
                  let lat = JSONValue.double(o["lat"]), let lon = JSONValue.double(o["lon"]),
                  Coordinate(latitude: lat, longitude: lon).isValid else {
                throw CommandError("\(path):\(i + 1): expected {\"t\", \"lat\", \"lon\", ...} as a drive log's track.jsonl has")
            }
            out.append(TracePoint(time: (o["t"] as? String).flatMap(FixTime.parse), coordinate: Coordinate(latitude: lat, longitude: lon),
                                  speed: JSONValue.double(o["speed_mps"]), course: JSONValue.double(o["course_deg"])))
        }
        return out
    }

    static func gpx(_ data: Data, path: String) throws -> [TracePoint] {
        let d: GPXReader
        do { d = try GPXReader(data) } catch { throw CommandError("\(path): not valid GPX (\(error))") }
        if let track = d.points["trkpt"], !track.isEmpty { return track }
        // a route (rte) or waypoints are a plan, not a recorded drive: nothing to match
        let rte = d.points["rtept"]?.count ?? 0, wpt = d.points["wpt"]?.count ?? 0
        if rte + wpt > 0 {
            throw CommandError("\(path): no tracks found: the GPX holds \(rte) route points and \(wpt) waypoints but no <trk> (a recorded track is needed to match)")
        }
        throw CommandError("\(path): no tracks found: no <trkpt> in the GPX")
    }

    static func json(_ data: Data, path: String) throws -> [TracePoint] {
        guard let root = try? JSONValue.parse(data) as? [Any] else { throw CommandError("\(path): expected a JSON array of points") }
        var out = [TracePoint]()
        for (i, item) in root.enumerated() {
            if let o = item as? [String: Any], let wkt = o["point"] as? String,
               let m = wkt.firstMatch(of: /POINT\s*\(\s*([-\d.]+)\s+([-\d.]+)\s*\)/), let lon = Double(m.1), let lat = Double(m.2) {
                out.append(TracePoint(time: (o["time"] as? String).flatMap(FixTime.parse), coordinate: Coordinate(latitude: lat, longitude: lon)))
            } else if let pair = item as? [Double], pair.count >= 2 {
                out.append(TracePoint(time: nil, coordinate: Coordinate(latitude: pair[0], longitude: pair[1])))
            } else {
                throw CommandError("\(path): point \(i): expected {\"point\": \"POINT(lon lat)\"} or [lat, lon]")
            }
        }
        if let bad = out.firstIndex(where: { !$0.coordinate.isValid }) {
            throw CommandError("\(path): point \(bad): not a position on the globe (\(out[bad].coordinate.latitude), \(out[bad].coordinate.longitude))")
        }
        return out
    }
}
