import FoundationEssentials
import Glibc
import Platform
import Geo

/// The points of a GPX 1.0/1.1 file (`trkpt`, `rtept`, `wpt` with their `time`), read by a small
/// scanner of tags rather than an XML library: the appliance's binary then needs neither
/// FoundationXML nor libxml2 (issue #27), and a GPX file's structure is simple. It checks what a
/// track needs to be trusted: every tag closed in order (the line of the first that is not is
/// named), `lat`/`lon` attributes as numbers, comments, CDATA and the XML declaration skipped.
struct GPXReader {
    var points: [String: [TracePoint]] = ["trkpt": [], "rtept": [], "wpt": []]

    struct Malformed: Error, CustomStringConvertible {
        let line: Int
        let reason: String
        var description: String { "line \(line): \(reason)" }
    }

    init(_ data: Data) throws {
        let bytes = [UInt8](data)
        var i = 0, line = 1
        var stack = [String]()
        var current: (kind: String, point: TracePoint)?
        var textStart: Int?
        func advance(to j: Int) {
            while i < j { if bytes[i] == 0x0a { line += 1 }; i += 1 }
        }
        func find(_ needle: String, from j: Int) -> Int? {
            let n = Array(needle.utf8)
            var k = j
            while k + n.count <= bytes.count {
                if bytes[k] == n[0], bytes[k...].starts(with: n) { return k }
                k += 1
            }
            return nil
        }
        let lt = UInt8(ascii: "<"), gt = UInt8(ascii: ">"), nl = UInt8(ascii: "\n")
        /// Skips a comment, CDATA, declaration or processing instruction starting at `i`.
        func skipSpecial() throws -> Bool {
            for (open, close) in [("<!--", "-->"), ("<![CDATA[", "]]>"), ("<?", "?>"), ("<!", ">")] where bytes[i...].starts(with: open.utf8) {
                guard let end = find(close, from: i + open.utf8.count) else { throw Malformed(line: line, reason: "\(open) is never closed") }
                advance(to: end + close.utf8.count)
                return true
            }
            return false
        }
        while i < bytes.count {
            if bytes[i] != lt {
                if bytes[i] == nl { line += 1 }
                i += 1
                continue
            }
            if try skipSpecial() { continue }
            let start = i
            guard let end = bytes[i...].firstIndex(of: gt) else { throw Malformed(line: line, reason: "a tag is never closed") }
            let tag = String(decoding: bytes[(start + 1)..<end], as: UTF8.self)
            let tagLine = line
            advance(to: end + 1)
            let closing = tag.hasPrefix("/")
            let selfClosing = tag.hasSuffix("/")
            let body = tag.dropFirst(closing ? 1 : 0).dropLast(selfClosing ? 1 : 0)
            let rawName = String(body.prefix { !$0.isWhitespace })
            guard !rawName.isEmpty else { throw Malformed(line: tagLine, reason: "a tag without a name") }
            let name = String(rawName.split(separator: ":").last ?? "")  // (a namespace prefix: gpx:trkpt)
            if closing {
                guard let open = stack.popLast() else { throw Malformed(line: tagLine, reason: "</\(rawName)> closes nothing") }
                guard open == name else { throw Malformed(line: tagLine, reason: "</\(rawName)> closes <\(open)>") }
                if name == "time", let from = textStart, current != nil {
                    let text = String(decoding: bytes[from..<start], as: UTF8.self)
                    current!.point.time = FixTime.parse(text.trimmed())
                }
                if let c = current, c.kind == name { points[name]!.append(c.point); current = nil }
                textStart = nil
                continue
            }
            if points[name] != nil {
                guard let lat = Self.attribute("lat", in: body).flatMap(Double.init), let lon = Self.attribute("lon", in: body).flatMap(Double.init),
                      Coordinate(latitude: lat, longitude: lon).isValid else {
                    throw Malformed(line: tagLine, reason: "<\(name)> without lat and lon on the globe (-90…90, -180…180)")
                }
                let p = TracePoint(time: nil, coordinate: Coordinate(latitude: lat, longitude: lon))
                if selfClosing { points[name]!.append(p) } else { current = (name, p) }
            }
            if !selfClosing {
                stack.append(name)
                textStart = i
            }
        }
        if let open = stack.last { throw Malformed(line: line, reason: "<\(open)> is never closed") }
    }

    /// An attribute's value (in single or double quotes): `lat` or `lon`.
    static func attribute(_ name: String, in tag: Substring) -> String? {
        guard let m = tag.firstMatch(of: name == "lat" ? latPattern : lonPattern) else { return nil }
        return String(m.output.2)
    }
    // (built once: a track has thousands of points)
    nonisolated(unsafe) static let latPattern = /(?:^|\s)lat\s*=\s*(["'])([^"']*)\1/
    nonisolated(unsafe) static let lonPattern = /(?:^|\s)lon\s*=\s*(["'])([^"']*)\1/
}
