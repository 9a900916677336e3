import Foundation
import Geo
import MapData
import Routing
import GPSInput

/// A seeded random source (SplitMix64) so that simulated drives are reproducible.
public struct SeededRandom: Sendable {
    private var state: UInt64
    public init(seed: UInt64) { state = seed &+ 0x9E37_79B9_7F4A_7C15 }
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    /// Uniform in [0, 1).
    public mutating func uniform() -> Double { Double(next() >> 11) / Double(1 << 53) }
    /// Standard normal (Box–Muller).
    public mutating func gaussian() -> Double {
        let u1 = max(uniform(), 1e-12), u2 = uniform()
        return (-2 * log(u1)).squareRoot() * cos(2 * .pi * u2)
    }
}

/// Turns a route into a realistic drive: speeds follow the roads' limits, slow down for turns and
/// roundabouts, accelerate and brake like a car, stop at the end; positions at 1 Hz with optional
/// noise. Output is GPS fixes, written as NMEA by `NMEAWriter`.
public struct DriveSimulator: Sendable {
    public struct Options: Sendable {
        /// Fix time of the first epoch (seconds since the Unix epoch, UTC).
        public var startTime: Double = FixTime.utc(year: 2024, month: 6, day: 15, hour: 10, minute: 0, second: 0)!
        public var intervalSeconds = 1.0
        /// Standard deviation of white position noise, metres (0 = exact).
        public var noiseMeters = 0.0
        public var seed: UInt64 = 1
        public var accelerationMps2 = 1.5
        public var decelerationMps2 = 2.0
        /// Seconds standing still at the start and at the end.
        public var standSeconds = 3.0
        public init() {}
    }

    public let map: RoadMap
    public var options: Options

    public init(map: RoadMap, options: Options = Options()) {
        self.map = map
        self.options = options
    }

    /// The true path of the car (before noise) and the fixes a receiver would give.
    public func drive(_ route: Route) -> [GPSFix] {
        var shape = [Coordinate](), cum = [Double](), limit = [Double]()
        for leg in route.legs {
            let base = cum.last ?? 0
            for (i, c) in leg.shape.enumerated() {
                if !shape.isEmpty && i == 0 { continue }
                shape.append(c)
                cum.append(base + leg.cumulativeMeters[i])
                let e = leg.edges[leg.edgeIndex(atShapeIndex: min(i, leg.shape.count - 2))]
                let posted = map.maxspeedKmh(of: e) ?? map.speedKmh(of: e) * 1.15
                limit.append(max(10, posted) / 3.6)
            }
        }
        guard shape.count >= 2, let total = cum.last, total > 1 else { return [] }
        // Speed caps at bends: slower the sharper the turn (lateral acceleration about 2 m/s²
        // on a radius estimated from the angle over ~15 m).
        var cap = limit
        for i in 1..<(shape.count - 1) {
            let a = abs(Angle.difference(from: shape[i - 1].bearing(to: shape[i]), to: shape[i].bearing(to: shape[i + 1])))
            if a > 10 && shape[i - 1].distance(to: shape[i]) > 0.5 && shape[i].distance(to: shape[i + 1]) > 0.5 {
                let radius = max(4, 15 / (a * .pi / 180))
                cap[i] = min(cap[i], max(3.5, (2.0 * radius).squareRoot()))
            }
        }
        cap[0] = 0
        cap[cap.count - 1] = 0
        // Speed profile on a 1 m grid: forward pass (acceleration), backward pass (braking).
        let n = Int(total.rounded(.up)) + 1
        var v = [Double](repeating: 0, count: n)
        var k = 0
        for s in 0..<n {
            let d = Double(s)
            while k + 1 < cum.count - 1 && cum[k + 1] < d { k += 1 }
            v[s] = limit[min(k, limit.count - 1)]
        }
        for i in 0..<cap.count { let s = min(n - 1, Int(cum[i].rounded())); v[s] = min(v[s], cap[i]) }
        v[0] = 0
        v[n - 1] = 0
        for s in 1..<n { v[s] = min(v[s], (v[s - 1] * v[s - 1] + 2 * options.accelerationMps2).squareRoot()) }
        for s in stride(from: n - 2, through: 0, by: -1) { v[s] = min(v[s], (v[s + 1] * v[s + 1] + 2 * options.decelerationMps2).squareRoot()) }

        // Integrate position over time.
        var fixes = [GPSFix]()
        var rng = SeededRandom(seed: options.seed)
        var t = options.startTime
        var pos = 0.0
        var seg = 0
        func pointAt(_ s: Double) -> (Coordinate, Double) {
            while seg + 1 < cum.count - 1 && cum[seg + 1] < s { seg += 1 }
            let a = shape[seg], b = shape[seg + 1]
            let len = cum[seg + 1] - cum[seg]
            let f = len > 0 ? (s - cum[seg]) / len : 0
            let c = Coordinate(latitude: a.latitude + (b.latitude - a.latitude) * f, longitude: a.longitude + (b.longitude - a.longitude) * f)
            return (c, a.bearing(to: b))
        }
        func emit(_ c: Coordinate, speed: Double, course: Double) {
            var p = c
            if options.noiseMeters > 0 {
                p = p.moved(meters: abs(rng.gaussian()) * options.noiseMeters, bearingDegrees: rng.uniform() * 360)
            }
            fixes.append(GPSFix(time: t, coordinate: p, mode: .threeD, speedMetersPerSecond: speed, courseDegrees: course,
                                altitudeMeters: 110, horizontalErrorMeters: max(3, options.noiseMeters * 2), hdop: 0.9,
                                satellitesUsed: 9))
            t += options.intervalSeconds
        }
        let firstCourse = pointAt(0).1
        for _ in 0..<Int(options.standSeconds) { emit(shape[0], speed: 0, course: firstCourse) }
        let dt = options.intervalSeconds
        while pos < total - 0.01 {
            // advance dt seconds through the profile in 0.1 s steps
            var remaining = dt
            while remaining > 1e-9 && pos < total - 0.01 {
                let h = min(0.1, remaining)
                let s = min(n - 1, Int(pos))
                let speed = max(0.5, v[s])
                pos = min(total, pos + speed * h)
                remaining -= h
            }
            let s = min(n - 1, Int(pos.rounded()))
            let (c, course) = pointAt(pos)
            emit(c, speed: pos >= total - 0.01 ? 0 : v[s], course: course)
        }
        let (end, lastCourse) = pointAt(total)
        for _ in 0..<Int(options.standSeconds) { emit(end, speed: 0, course: lastCourse) }
        return fixes
    }

    /// The fixes as an NMEA log (RMC, GGA, GSA, GST per epoch), CR LF line ends.
    public static func nmea(_ fixes: [GPSFix]) -> String {
        fixes.flatMap { NMEAWriter.sentences(for: $0) }.map { $0 + "\r\n" }.joined()
    }
}
