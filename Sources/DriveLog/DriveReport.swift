import FoundationEssentials
import Glibc
import Platform
import Geo

/// A drive as one self-contained HTML file (`tern report`): its figures, an SVG map of the
/// receiver's, the filtered and the matched tracks over the planned routes with the prompts,
/// off-routes and reroutes marked, and plots of speed against the limit and of the receiver's
/// accuracy over time. No script, no fonts, no tiles: it opens offline in any browser, and a
/// 45-minute drive stays well under 2 MB (tracks are thinned to what the map's scale can show).
public enum DriveReport {
    public static func html(_ drive: DriveFolder, title: String) -> String {
        let f = DriveFigures(drive)
        var h = "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>\(GPXWriter.escape(title))</title>\n"
        h += "<style>body{font:14px sans-serif;margin:1em auto;max-width:980px;color:#222}h1{font-size:1.4em}"
        h += "table{border-collapse:collapse}td{padding:2px 12px 2px 0}svg{border:1px solid #ccc;background:#fafafa}"
        h += ".k{color:#666}.legend span{margin-right:1.2em}</style></head><body>\n"
        h += "<h1>\(GPXWriter.escape(title))</h1>\n<table>\n"
        for (k, v) in f.rows { h += "<tr><td class=\"k\">\(GPXWriter.escape(k))</td><td>\(GPXWriter.escape(v))</td></tr>\n" }
        h += "</table>\n<h2>Map</h2>\n<p class=\"legend\"><span style=\"color:#bbb\">━ planned routes</span>"
        h += "<span style=\"color:#d33\">· receiver</span><span style=\"color:#27c\">━ filtered</span><span style=\"color:#2a2\">━ matched</span>"
        h += "<span>● prompt</span><span style=\"color:#e80\">▲ off route / reroute</span><span>★ arrival</span></p>\n"
        h += ReportMap(drive).svg(width: 960, height: 640)
        h += "\n<h2>Speed and limit</h2>\n" + ReportPlot.speed(drive, width: 960, height: 220)
        h += "\n<h2>Receiver accuracy</h2>\n" + ReportPlot.accuracy(drive, width: 960, height: 180)
        h += "\n<h2>Events</h2>\n<table>\n"
        for e in drive.events where GPXWriter.marked[e.name] != nil {
            let what = e.detail ?? ""
            h += "<tr><td class=\"k\">\(FixTime.iso8601(e.time))</td><td>\(GPXWriter.escape(e.name))</td><td>\(GPXWriter.escape(what))</td></tr>\n"
        }
        return h + "</table>\n</body></html>\n"
    }
}

/// The drive's figures, as the report's first table says them.
struct DriveFigures {
    var rows: [(String, String)] = []

    init(_ d: DriveFolder) {
        let times = d.track.map(\.time) + d.raw.map(\.time)
        let start = times.min() ?? 0, end = times.max() ?? 0
        var meters = 0.0
        for (a, b) in zip(d.track, d.track.dropFirst()) { meters += a.coordinate.distance(to: b.coordinate) }
        let count = { (name: String) in d.events.filter { $0.name == name }.count }
        let speeds = d.track.compactMap(\.speedMetersPerSecond)
        var overSeconds = 0.0
        for (a, b) in zip(d.track, d.track.dropFirst()) {
            if let v = a.speedMetersPerSecond, let l = a.limitKmh, v * 3.6 > l { overSeconds += min(5, b.time - a.time) }
        }
        let matched = d.track.filter { $0.snapped != nil }.count
        rows = [
            ("Started", FixTime.iso8601(start)),
            ("Duration", String(printf: "%d min %02d s", Int(end - start) / 60, Int(end - start) % 60)),
            ("Distance", String(printf: "%.1f km", meters / 1000)),
            ("Receiver fixes", "\(d.raw.count) (\(d.raw.filter(\.isUsable).count) with a position)"),
            ("Positions", "\(d.track.count), \(d.track.isEmpty ? 0 : 100 * matched / d.track.count)% matched to a road, \(d.track.filter(\.estimated).count) estimated (no fix)"),
            ("Routes", "\(count("routeComputed")) computed, \(count("rerouteStarted")) reroutes, \(count("offRoute")) off-routes"),
            ("Prompts", "\(count("prompt"))"),
            ("Arrival", count("arrived") > 0 ? "yes" : "no"),
            ("Top speed", speeds.max().map { String(printf: "%.0f km/h", $0 * 3.6) } ?? "-"),
            ("Above the posted limit", String(printf: "%.0f s (the speeding events use the margin set in tern.conf)", overSeconds)),
            ("GPS lost", "\(count("gpsLost")) times"),
        ]
        if d.tornLines > 0 { rows.append(("Lines torn by a power cut", "\(d.tornLines)")) }
    }
}
