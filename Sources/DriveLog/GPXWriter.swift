import FoundationEssentials
import Glibc
import Platform
import Geo

/// A drive as GPX 1.1 (what JOSM, QGIS, GPXSee and every map site read): the receiver's fixes,
/// the filtered track and the road-snapped track as three `trk`, and the prompts, off-routes,
/// reroutes and arrivals as `wpt`. Elements in the schema's order (gpsd's gpxlogger writes files
/// that fail it), so `xmllint --schema gpx-1.1.xsd` accepts what is written.
public enum GPXWriter {
    /// The events shown as waypoints, with the label each gets.
    static let marked: [String: String] = [
        "prompt": "Prompt", "offRoute": "Off route", "rerouteStarted": "Reroute", "arrived": "Arrived",
        "waypointArrived": "Stop reached", "gpsLost": "GPS lost", "gpsRecovered": "GPS back",
    ]

    public static func gpx(_ drive: DriveFolder, name: String) -> String {
        var x = #"<?xml version="1.0" encoding="UTF-8"?>"# + "\n"
        x += #"<gpx version="1.1" creator="tern" xmlns="http://www.topografix.com/GPX/1/1" "#
        x += #"xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" "#
        x += #"xsi:schemaLocation="http://www.topografix.com/GPX/1/1 http://www.topografix.com/GPX/1/1/gpx.xsd">"# + "\n"
        x += "  <metadata>\n    <name>\(escape(name))</name>\n"
        if let start = drive.raw.first?.time ?? drive.track.first?.time { x += "    <time>\(FixTime.iso8601(start))</time>\n" }
        x += "  </metadata>\n"
        for e in drive.events {
            guard let label = marked[e.name], let at = drive.position(at: e.time) else { continue }
            let detail = e.detail
            x += "  <wpt \(latLon(at))>\n    <time>\(FixTime.iso8601(e.time))</time>\n    <name>\(escape(label))</name>\n"
            if let d = detail, !d.isEmpty { x += "    <desc>\(escape(d))</desc>\n" }
            x += "    <type>\(escape(e.name))</type>\n  </wpt>\n"
        }
        // the receiver's fixes, with what it said of them
        x += track("Receiver (raw)", drive.raw.filter(\.isUsable).map { f in
            var inner = ""
            if let alt = f.altitudeMeters, alt.isFinite { inner += "<ele>\(String(printf: "%.1f", alt))</ele>" }
            inner += "<time>\(FixTime.iso8601(f.time))</time>"
            inner += "<fix>\(f.mode == .threeD ? "3d" : "2d")</fix>"
            if let n = f.satellitesUsed, n >= 0 { inner += "<sat>\(n)</sat>" }
            if let h = f.hdop, h.isFinite, h >= 0 { inner += "<hdop>\(String(printf: "%.1f", h))</hdop>" }
            return (f.coordinate, inner)
        })
        x += track("Filtered", drive.track.map { ($0.coordinate, "<time>\(FixTime.iso8601($0.time))</time>" + ($0.estimated ? "<type>estimated</type>" : "")) })
        x += track("Matched to roads", drive.track.compactMap { p in p.snapped.map { ($0, "<time>\(FixTime.iso8601(p.time))</time>") } })
        x += "</gpx>\n"
        return x
    }

    /// One `trk` of one `trkseg`; a track with no point is left out (the schema allows an empty
    /// segment, but a viewer shows nothing).
    private static func track(_ name: String, _ points: [(Coordinate, String)]) -> String {
        guard !points.isEmpty else { return "" }
        var x = "  <trk>\n    <name>\(escape(name))</name>\n    <trkseg>\n"
        for (c, inner) in points { x += "      <trkpt \(latLon(c))>\(inner)</trkpt>\n" }
        return x + "    </trkseg>\n  </trk>\n"
    }

    private static func latLon(_ c: Coordinate) -> String {
        String(printf: #"lat="%.7f" lon="%.7f""#, c.latitude, c.longitude)
    }

    /// Text as XML character data.
    static func escape(_ s: String) -> String {
        var out = ""
        for ch in s.unicodeScalars {
            switch ch {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            // (characters XML 1.0 cannot carry at all, a stray control byte in a name, are dropped)
            case _ where ch.value < 0x20 && ch != "\t" && ch != "\n" && ch != "\r": continue
            default: out.unicodeScalars.append(ch)
            }
        }
        return out
    }
}
