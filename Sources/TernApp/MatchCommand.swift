import FoundationEssentials
import Glibc
import Platform
import Geo
import JSONLines
import MapData
import MapMatching
import Positioning

/// `tern match --map MAP --trace T.(gpx|nmea|json) [--json] [--sigma M]`: matches a recorded
/// track to the roads with the online HMM (decisions at the end of the track).
enum MatchCommand {
    static func run(_ args: [String]) throws -> Int32 {
        let a = try Arguments(args, valued: ["map", "trace", "sigma"], switches: ["json"])
        let mapPath = try a.require("map"), tracePath = try a.require("trace")
        let sigma = try a.double("sigma", default: 10, range: 1...200)
        let points = try TraceReader.read(tracePath)
        let map: RoadMap
        do { map = try RoadMap(path: mapPath) } catch { throw CommandError("\(error)") }
        let matches = match(points, map: map, sigma: sigma)
        if a.has("json") {
            var items = [JSONValue]()
            for (i, p) in points.enumerated() {
                let m = matches[i]
                items.append(.object([
                    ("i", .int(i)), ("lat", .num(p.coordinate.latitude, 7)), ("lon", .num(p.coordinate.longitude, 7)),
                    ("matched", m.isMatched ? .array([.num(m.coordinate.latitude, 7), .num(m.coordinate.longitude, 7)]) : .null),
                    ("way_id", m.edge.map { .int(Int(map.wayID(map.edge($0.edge).wayIndex))) } ?? .null),
                    ("street", m.isMatched ? .string(m.roadName.isEmpty ? m.roadRef : m.roadName) : .null),
                ]))
            }
            printOut(JSONValue.array(items).serialized())
        } else {
            var streets = [String]()
            for m in matches where m.isMatched {
                var s = m.roadName.isEmpty ? m.roadRef : m.roadName
                if s.isEmpty, let e = m.edge { s = "(unnamed \(map.edge(e.edge).roadClass.osmName))" }
                if streets.last != s { streets.append(s) }
            }
            let matched = matches.filter(\.isMatched).count
            // measured like the map's road lengths (WGS 84 ruler), so the two compare
            let gpsLength = zip(points, points.dropFirst()).reduce(0.0) {
                $0 + CheapRuler(latitude: $1.0.coordinate.latitude).distance($1.0.coordinate, $1.1.coordinate)
            }
            let roadLength = HMMMatcher.pathLength(matches, map: map)
            printOut("\(points.count) points, \(matched) matched; streets: \(streets.joined(separator: ", "))")
            printOut(String(printf: "track %.2f m, matched road path %.2f m", gpsLength, roadLength))
        }
        return 0
    }

    /// Every point's match, in order (points without a time are taken 1 s apart).
    static func match(_ points: [TracePoint], map: RoadMap, sigma: Double) -> [MatchedPosition] {
        var matcher = HMMMatcher(map: map)
        var out = [MatchedPosition?](repeating: nil, count: points.count)
        for (i, p) in points.enumerated() {
            let t = p.time ?? Double(i)
            var course = p.course
            if course == nil, i + 1 < points.count, p.coordinate.distance(to: points[i + 1].coordinate) > 5 {
                course = p.coordinate.bearing(to: points[i + 1].coordinate)
            }
            let fp = FilteredPosition(time: t, coordinate: p.coordinate, speedMetersPerSecond: p.speed ?? (course != nil ? 10 : nil),
                                      courseDegrees: course, accuracyMeters: sigma * 2.45)
            _ = matcher.push(fp)
            for (index, m) in matcher.takeDecisions() { out[index] = m }
        }
        for (index, m) in matcher.finish() { out[index] = m }
        return out.enumerated().map { i, m in
            m ?? MatchedPosition(edge: nil, offsetMeters: 0, coordinate: points[i].coordinate, roadName: "", roadRef: "",
                                 speedLimitKmh: nil, confidence: 0, distanceMeters: .infinity)
        }
    }
}
