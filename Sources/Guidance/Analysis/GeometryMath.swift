import FoundationEssentials
import Glibc
import Geo

/// The plane and sphere helpers OSRM's guidance measures roads with
/// (src/util/coordinate_calculation.cpp, include/util/coordinate_calculation.hpp): distances in
/// metres, bearings in degrees clockwise from north, projections in plain degrees.
enum GeometryMath {
    @inline(__always) static func distance(_ a: Coordinate, _ b: Coordinate) -> Double { a.distance(to: b) }

    @inline(__always) static func bearing(_ a: Coordinate, _ b: Coordinate) -> Double {
        a == b ? 0 : a.bearing(to: b)
    }

    static func length(_ pts: ArraySlice<Coordinate>) -> Double {
        var total = 0.0
        var i = pts.startIndex
        while i + 1 < pts.endIndex {
            total += distance(pts[i], pts[i + 1])
            i += 1
        }
        return total
    }

    static func length(_ pts: [Coordinate]) -> Double { length(pts[...]) }

    /// The point a fraction along a → b (linear in degrees).
    @inline(__always) static func interpolate(_ f: Double, _ a: Coordinate, _ b: Coordinate) -> Coordinate {
        Coordinate(latitude: a.latitude + (b.latitude - a.latitude) * f, longitude: a.longitude + (b.longitude - a.longitude) * f)
    }

    /// (want − d1) / (d2 − d1) clamped to [0, 1]; 0 where the segment has no length.
    static func interpolationFactor(_ want: Double, _ d1: Double, _ d2: Double) -> Double {
        let f = (want - d1) / (d2 - d1)
        if f.isNaN { return 0 }
        return max(0, min(f, 1))
    }

    /// The point of segment a → b nearest `p`, projected in plain degrees (OSRM's projectPointOnSegment).
    static func project(_ p: Coordinate, onto a: Coordinate, _ b: Coordinate) -> Coordinate {
        let dx = b.longitude - a.longitude, dy = b.latitude - a.latitude
        let len2 = dx * dx + dy * dy
        if len2 < Double.ulpOfOne { return a }
        let r = max(0, min(1, ((p.longitude - a.longitude) * dx + (p.latitude - a.latitude) * dy) / len2))
        return Coordinate(latitude: a.latitude + r * dy, longitude: a.longitude + r * dx)
    }

    /// The distance from `p` to segment a → b, metres.
    static func deviation(_ p: Coordinate, _ a: Coordinate, _ b: Coordinate) -> Double { distance(project(p, onto: a, b), p) }

    /// The largest distance of the points from segment a → b.
    static func maxDeviation(_ pts: ArraySlice<Coordinate>, _ a: Coordinate, _ b: Coordinate) -> Double {
        pts.reduce(0) { max($0, deviation($1, a, b)) }
    }

    /// The closest distance from `p` to a polyline.
    static func closestDistance(_ p: Coordinate, _ line: [Coordinate]) -> Double {
        guard line.count >= 2 else { return line.first.map { distance(p, $0) } ?? .infinity }
        var best = Double.infinity
        for i in 0..<(line.count - 1) { best = min(best, deviation(p, line[i], line[i + 1])) }
        return best
    }

    static func signedArea(_ a: Coordinate, _ b: Coordinate, _ c: Coordinate) -> Double {
        0.5 * (-b.longitude * a.latitude + c.longitude * a.latitude + a.longitude * b.latitude
               - c.longitude * b.latitude - a.longitude * c.latitude + b.longitude * c.latitude)
    }

    static func isCCW(_ a: Coordinate, _ b: Coordinate, _ c: Coordinate) -> Bool { signedArea(a, b, c) > 0 }

    static func mercatorY(_ lat: Double) -> Double {
        let clamped = max(-85.0511, min(85.0511, lat))
        return 180 / .pi * log(tan(.pi / 4 + clamped * .pi / 360))
    }

    /// The angle at `second` of first → second → third, counter-clockwise from the way back to the
    /// way on, on the Mercator plane: 180 straight on, below 180 a right turn (OSRM's computeAngle).
    static func computeAngle(_ first: Coordinate, _ second: Coordinate, _ third: Coordinate) -> Double {
        if first == second || second == third { return 180 }
        let v1x = first.longitude - second.longitude, v1y = mercatorY(first.latitude) - mercatorY(second.latitude)
        let v2x = third.longitude - second.longitude, v2y = mercatorY(third.latitude) - mercatorY(second.latitude)
        var a = (atan2(v2y, v2x) - atan2(v1y, v1x)) * 180 / .pi
        while a < 0 { a += 360 }
        while a >= 360 { a -= 360 }
        return a
    }

    /// The least-squares line through the points, as two points just beyond their extent
    /// (OSRM's leastSquareRegression; steep lines are fitted on the points turned by 90°).
    static func regression(_ pts: [Coordinate]) -> (Coordinate, Coordinate) {
        let lons = pts.map(\.longitude), lats = pts.map(\.latitude)
        let minLon = lons.min()!, maxLon = lons.max()!, minLat = lats.min()!, maxLat = lats.max()!
        if maxLat - minLat > 2 * (maxLon - minLon) {
            // rotate by −90° (x, y) → (y, −x), fit, rotate back
            let turned = pts.map { Coordinate(latitude: -$0.longitude, longitude: $0.latitude) }
            let (a, b) = regression(turned)
            return (Coordinate(latitude: a.longitude, longitude: -a.latitude), Coordinate(latitude: b.longitude, longitude: -b.latitude))
        }
        let n = Double(pts.count)
        let meanLon = lons.reduce(0, +) / n, meanLat = lats.reduce(0, +) / n
        let sLon = (lons.reduce(0) { $0 + ($1 - meanLon) * ($1 - meanLon) } / (n - 1)).squareRoot()
        let sLat = (lats.reduce(0) { $0 + ($1 - meanLat) * ($1 - meanLat) } / (n - 1)).squareRoot()
        if sLon < Double.ulpOfOne || sLat < Double.ulpOfOne { return (pts[0], pts[pts.count - 1]) }
        var r = 0.0
        for p in pts { r += (p.longitude - meanLon) * (p.latitude - meanLat) / (sLon * sLat) }
        r /= n - 1
        let slope = r * sLat / sLon, intercept = meanLat - slope * meanLon
        let x0 = minLon - 0.00001, x1 = maxLon + 0.00001
        return (Coordinate(latitude: intercept + slope * x0, longitude: x0), Coordinate(latitude: intercept + slope * x1, longitude: x1))
    }

    /// Whether two polylines run parallel (or against each other): their regression lines, the
    /// second turned so that the first points east, rise by less than 20% (OSRM's areParallel).
    static func areParallel(_ a: [Coordinate], _ b: [Coordinate]) -> Bool {
        let (a0, a1) = regression(a), (b0, b1) = regression(b)
        let da = (lon: a0.longitude - a1.longitude, lat: a0.latitude - a1.latitude)
        let db = (lon: b0.longitude - b1.longitude, lat: b0.latitude - b1.latitude)
        let bearingA = bearing(Coordinate(latitude: 0, longitude: 0), Coordinate(latitude: da.lat, longitude: da.lon))
        let turn = (bearingA - 90) * .pi / 180
        // rotate counter-clockwise by `turn`
        let x = cos(turn) * db.lon - sin(turn) * db.lat, y = sin(turn) * db.lon + cos(turn) * db.lat
        let slope = x == 0 ? Double.greatestFiniteMagnitude : y / x
        return abs(slope) < 0.2
    }

    /// The signed area of a closed polygon in square metres (OSRM's computeArea: trapezoids to the
    /// parallel of its southernmost point, widths and heights by haversine).
    static func area(_ poly: [Coordinate]) -> Double {
        guard let south = poly.min(by: { $0.latitude < $1.latitude }) else { return 0 }
        var sum = 0.0
        for i in 0..<(poly.count - 1) {
            let p = poly[i], q = poly[i + 1]
            let width = distance(Coordinate(latitude: south.latitude, longitude: p.longitude),
                                 Coordinate(latitude: south.latitude, longitude: q.longitude))
            let h1 = distance(Coordinate(latitude: south.latitude, longitude: p.longitude), p)
            let h2 = distance(Coordinate(latitude: south.latitude, longitude: q.longitude), q)
            let signed = q.longitude >= p.longitude ? 1.0 : -1.0
            sum += signed * width * (h1 + h2)
        }
        return sum / 2
    }
}
