import FoundationEssentials
import Glibc

/// Google's encoded polyline format, with a configurable precision (OSRM and Valhalla use 5 and 6 digits).
public enum Polyline {
    /// Encodes coordinates with `precision` decimal digits (6 for "polyline6").
    public static func encode(_ coordinates: [Coordinate], precision: Int = 6) -> String {
        let factor = pow(10.0, Double(precision))
        var out = [UInt8]()
        out.reserveCapacity(coordinates.count * 8)
        var lastLat = 0, lastLon = 0
        for c in coordinates {
            let lat = Int((c.latitude * factor).rounded())
            let lon = Int((c.longitude * factor).rounded())
            append(lat - lastLat, to: &out)
            append(lon - lastLon, to: &out)
            lastLat = lat
            lastLon = lon
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Decodes a polyline; nil when the text is malformed.
    public static func decode(_ text: String, precision: Int = 6) -> [Coordinate]? {
        let factor = pow(10.0, Double(precision))
        let bytes = Array(text.utf8)
        var i = 0
        var lat = 0, lon = 0
        var result = [Coordinate]()
        func next() -> Int? {
            var shift = 0, value = 0
            while i < bytes.count {
                let b = Int(bytes[i]) - 63
                i += 1
                guard b >= 0, shift < 60 else { return nil }
                value |= (b & 0x1f) << shift
                shift += 5
                if b < 0x20 { return (value & 1) != 0 ? ~(value >> 1) : (value >> 1) }
            }
            return nil
        }
        while i < bytes.count {
            guard let dLat = next(), let dLon = next() else { return nil }
            lat += dLat
            lon += dLon
            result.append(Coordinate(latitude: Double(lat) / factor, longitude: Double(lon) / factor))
        }
        return result
    }

    private static func append(_ value: Int, to out: inout [UInt8]) {
        var v = value < 0 ? ~(value << 1) : (value << 1)
        while v >= 0x20 {
            out.append(UInt8((0x20 | (v & 0x1f)) + 63))
            v >>= 5
        }
        out.append(UInt8(v + 63))
    }
}

extension Array where Element == Coordinate {
    /// Total length in metres along the points (haversine).
    public var lengthMeters: Double {
        guard count > 1 else { return 0 }
        var total = 0.0
        for i in 1..<count { total += self[i - 1].distance(to: self[i]) }
        return total
    }

    /// The point `meters` along the points (haversine lengths, each times `scale`), and the index
    /// of the segment it lies on; the last point beyond the end.
    public func point(atMeters meters: Double, scale: Double = 1) -> (coordinate: Coordinate, segment: Int) {
        guard count > 1 else { return (first ?? Coordinate(latitude: 0, longitude: 0), 0) }
        var acc = 0.0
        for i in 1..<count {
            let l = self[i - 1].distance(to: self[i]) * scale
            if acc + l >= meters || i == count - 1 {
                let f = l > 0 ? Swift.min(1, Swift.max(0, (meters - acc) / l)) : 0
                return (self[i - 1].interpolated(to: self[i], f), i - 1)
            }
            acc += l
        }
        return (self[count - 1], count - 2)
    }

    /// Twice the signed area of the closed ring through the points (x east, y north, degrees):
    /// positive when they run counter-clockwise.
    public var signedArea: Double {
        var area = 0.0
        for (i, p) in enumerated() {
            let q = self[(i + 1) % count]
            area += p.longitude * q.latitude - q.longitude * p.latitude
        }
        return area
    }
}
