import FoundationEssentials
import Glibc
import Platform
import Geo

/// The report's map: every line in one local projection, fitted to the picture with the same
/// scale on both axes, and thinned to about a pixel (a 45-minute drive has thousands of points
/// per track; the picture shows at most its width's worth of detail).
struct ReportMap {
    let drive: DriveFolder
    init(_ drive: DriveFolder) { self.drive = drive }

    func svg(width: Double, height: Double) -> String {
        let routes = drive.events.filter { $0.name == "routeComputed" }.compactMap { $0.string("shape").flatMap { Polyline.decode($0) } }
        let raw = drive.raw.filter(\.isUsable).map(\.coordinate)
        let filtered = drive.track.map(\.coordinate)
        let matched = drive.track.compactMap(\.snapped)
        let all = raw + filtered + routes.flatMap { $0 }
        guard let first = all.first else { return "<p>No positions.</p>" }
        let proj = LocalProjection(origin: first)
        let pts = all.map(proj.project)
        let minX = pts.map(\.x).min()!, maxX = pts.map(\.x).max()!, minY = pts.map(\.y).min()!, maxY = pts.map(\.y).max()!
        let margin = 12.0
        let scale = min((width - 2 * margin) / max(maxX - minX, 1), (height - 2 * margin) / max(maxY - minY, 1))
        // (centred: the drive's extent is rarely the picture's shape)
        let dx = (width - 2 * margin - (maxX - minX) * scale) / 2, dy = (height - 2 * margin - (maxY - minY) * scale) / 2
        func xy(_ c: Coordinate) -> (Double, Double) {
            let p = proj.project(c)
            return (margin + dx + (p.x - minX) * scale, height - margin - dy - (p.y - minY) * scale)
        }
        /// A polyline's points, one within a pixel of the last left out.
        func path(_ cs: [Coordinate]) -> String {
            ReportPlot.thinned(cs.map(xy), within: 1).map { String(printf: "%.1f,%.1f", $0.0, $0.1) }.joined(separator: " ")
        }
        var s = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(Int(width))\" height=\"\(Int(height))\" viewBox=\"0 0 \(Int(width)) \(Int(height))\">\n"
        for r in routes { s += "<polyline points=\"\(path(r))\" fill=\"none\" stroke=\"#bbb\" stroke-width=\"7\" stroke-linejoin=\"round\"/>\n" }
        let dots = ReportPlot.thinned(raw.map(xy), within: 1.5).map { String(printf: "M%.1f %.1fh0", $0.0, $0.1) }.joined()
        s += "<path d=\"\(dots)\" stroke=\"#d33\" stroke-width=\"2.5\" stroke-linecap=\"round\"/>\n"
        s += "<polyline points=\"\(path(filtered))\" fill=\"none\" stroke=\"#27c\" stroke-width=\"1.5\"/>\n"
        s += "<polyline points=\"\(path(matched))\" fill=\"none\" stroke=\"#2a2\" stroke-width=\"1.5\" stroke-dasharray=\"4 2\"/>\n"
        for e in drive.events {
            guard let at = drive.position(at: e.time) else { continue }
            let (x, y) = xy(at)
            let tip = GPXWriter.escape("\(FixTime.iso8601(e.time)) \(e.name): \(e.detail ?? "")")
            switch e.name {
            case "prompt":
                s += String(printf: "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"4\" fill=\"#222\"><title>%@</title></circle>\n", x, y, tip)
            case "offRoute", "rerouteStarted":
                s += String(printf: "<path d=\"M%.1f %.1fl6 10h-12z\" fill=\"#e80\"><title>%@</title></path>\n", x, y - 6, tip)
            case "arrived", "waypointArrived":
                s += String(printf: "<text x=\"%.1f\" y=\"%.1f\" font-size=\"18\" text-anchor=\"middle\">★<title>%@</title></text>\n", x, y + 6, tip)
            default: break
            }
        }
        // a scale bar: a round distance near a fifth of the width
        let meters = [50.0, 100, 200, 500, 1000, 2000, 5000, 10000, 20000, 50000].last { $0 * scale <= width / 5 } ?? 50
        s += String(printf: "<path d=\"M%.1f %.1fh%.1f\" stroke=\"#222\" stroke-width=\"2\"/>", margin, height - 6, meters * scale)
        s += String(printf: "<text x=\"%.1f\" y=\"%.1f\" font-size=\"11\">%@</text>\n", margin + meters * scale + 4, height - 3,
                    meters >= 1000 ? "\(Int(meters / 1000)) km" : "\(Int(meters)) m")
        return s + "</svg>"
    }
}

/// Line plots over the drive's time.
enum ReportPlot {
    /// The car's speed (filtered) and the limit of the road it was matched to, km/h.
    static func speed(_ d: DriveFolder, width: Double, height: Double) -> String {
        let speed = d.track.compactMap { p in p.speedMetersPerSecond.map { (p.time, $0 * 3.6) } }
        let limit = d.track.compactMap { p in p.limitKmh.map { (p.time, $0) } }
        return plot([("speed", "#27c", speed), ("limit", "#d33", limit)], unit: "km/h", width: width, height: height, steps: [false, true])
    }

    /// The receiver's horizontal error estimate where it gives one (GST, gpsd's eph), else its
    /// HDOP (a unitless factor: the figure says which).
    static func accuracy(_ d: DriveFolder, width: Double, height: Double) -> String {
        let errors = d.raw.compactMap { f in f.horizontalErrorMeters.map { (f.time, $0) } }
        if errors.count >= d.raw.count / 2, !errors.isEmpty {
            return plot([("horizontal error", "#e80", errors)], unit: "m", width: width, height: height, steps: [false])
        }
        let hdop = d.raw.compactMap { f in f.hdop.map { (f.time, $0) } }
        return "<p class=\"k\">The receiver gave no error estimate in metres: its HDOP.</p>"
            + plot([("HDOP", "#e80", hdop)], unit: "HDOP", width: width, height: height, steps: [false])
    }

    /// Points in pixels with those within `within` pixels of the last kept left out (the
    /// picture cannot show more); the last point is kept too when `keepLast`.
    static func thinned(_ points: [(Double, Double)], within: Double, keepLast: Bool = false) -> [(Double, Double)] {
        var out = [(Double, Double)]()
        for (i, p) in points.enumerated() {
            if let l = out.last, abs(p.0 - l.0) < within, abs(p.1 - l.1) < within, !(keepLast && i == points.count - 1) { continue }
            out.append(p)
        }
        return out
    }

    /// Series of (time, value) on one pair of axes; a `step` series holds its value until the next.
    static func plot(_ series: [(name: String, color: String, points: [(Double, Double)])], unit: String, width: Double, height: Double,
                     steps: [Bool]) -> String {
        let all = series.flatMap(\.points)
        guard let t0 = all.map(\.0).min(), let t1 = all.map(\.0).max(), let top = all.map(\.1).max(), t1 > t0 else { return "<p>No data.</p>" }
        let left = 44.0, bottom = 22.0
        let ymax = max(1, (top * 1.1 / 10).rounded(.up) * 10)
        func x(_ t: Double) -> Double { left + (t - t0) / (t1 - t0) * (width - left - 8) }
        func y(_ v: Double) -> Double { (height - bottom) - v / ymax * (height - bottom - 8) }
        var s = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(Int(width))\" height=\"\(Int(height))\">\n"
        for i in 0...4 {
            let v = ymax * Double(i) / 4
            s += String(printf: "<path d=\"M%.0f %.1fH%.0f\" stroke=\"#ddd\"/><text x=\"2\" y=\"%.1f\" font-size=\"11\">%@</text>\n",
                        left, y(v), width - 8, y(v) + 4, String(printf: "%.3g", v))
        }
        for m in stride(from: 0.0, through: t1 - t0, by: max(60, ((t1 - t0) / 8 / 60).rounded(.up) * 60)) {
            s += String(printf: "<text x=\"%.1f\" y=\"%.0f\" font-size=\"11\" text-anchor=\"middle\">%d min</text>\n", x(t0 + m), height - 6, Int(m / 60))
        }
        for (k, ser) in series.enumerated() {
            var pts = [String](), lastY: Double?
            for (px, py) in thinned(ser.points.map { (x($0.0), y($0.1)) }, within: 1, keepLast: true) {
                if steps[k], let prev = lastY { pts.append(String(printf: "%.1f,%.1f", px, prev)) }  // held until the next value
                pts.append(String(printf: "%.1f,%.1f", px, py))
                lastY = py
            }
            s += "<polyline points=\"\(pts.joined(separator: " "))\" fill=\"none\" stroke=\"\(ser.color)\" stroke-width=\"1.5\"/>\n"
            s += String(printf: "<text x=\"%.0f\" y=\"%d\" font-size=\"11\" fill=\"%@\">%@</text>\n", width - 150, 14 + 14 * k, ser.color, "\(ser.name) (\(unit))")
        }
        return s + "</svg>"
    }
}
