import FoundationEssentials
import Glibc
import Geo
import GPSInput
import MapData
import Routing

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

/// How a simulated receiver errs: white noise, a slowly wandering bias (first-order Gauss–Markov),
/// rare outliers, and noise on speed and course.
public struct NoiseModel: Sendable, Equatable {
    /// Standard deviation of the white position noise per axis, metres.
    public var whiteMeters = 3.0
    /// Standard deviation of the wandering bias per axis, metres, and its correlation time, seconds.
    public var biasMeters = 2.0
    public var biasSeconds = 60.0
    /// Chance per fix of an outlier, and its size range, metres.
    public var outlierProbability = 0.005
    public var outlierMeters: ClosedRange<Double> = 30...60
    public var speedSigma = 0.2
    public var courseSigmaDegrees = 2.0
    /// Chance per fix that a multipath burst starts, its pull and its length (`road` only).
    public var multipathProbability = 0.0
    public var multipathMeters: ClosedRange<Double> = 8...25
    public var multipathSeconds: ClosedRange<Double> = 3...15
    /// The course noise grows as the car slows (`courseSigma(atSpeed:)`).
    public var courseGrowsWhenSlow = false

    public init() {}
    /// No noise at all.
    public static let none: NoiseModel = {
        var n = NoiseModel()
        n.whiteMeters = 0; n.biasMeters = 0; n.outlierProbability = 0; n.speedSigma = 0; n.courseSigmaDegrees = 0
        return n
    }()
    /// The noise of a receiver with `meters` of white noise and the defaults for the rest.
    public static func typical(_ meters: Double) -> NoiseModel {
        guard meters > 0 else { return .none }
        var n = NoiseModel()
        n.whiteMeters = meters
        n.biasMeters = meters * 2 / 3
        return n
    }
}

/// Where the car really was at each epoch.
public struct TruePosition: Sendable, Equatable {
    public var time: Double
    public var coordinate: Coordinate
    public var edge: DirectedEdge
    public var speedMetersPerSecond: Double
    public var courseDegrees: Double
}

/// A simulated drive: what the receiver reported (fixes; outage epochs have mode .noFix) and the truth.
public struct SimulatedDrive: Sendable {
    public var fixes: [GPSFix]
    public var truth: [TruePosition]
}

/// Turns a route into a realistic drive: speeds follow the roads' limits, slow down for turns and
/// roundabouts, accelerate and brake like a car, stop at the end; positions at 1 Hz with a noise
/// model, outages (tunnels: epochs without a fix), written as NMEA by `NMEAWriter`.
public struct DriveSimulator: Sendable {
    public struct Options: Sendable {
        /// Fix time of the first epoch (seconds since the Unix epoch, UTC).
        public var startTime: Double = FixTime.utc(year: 2024, month: 6, day: 15, hour: 10, minute: 0, second: 0)!
        public var intervalSeconds = 1.0
        public var noise = NoiseModel.none
        public var seed: UInt64 = 1
        public var accelerationMps2 = 1.5
        public var decelerationMps2 = 2.0
        /// Seconds standing still at the start and at the end.
        public var standSeconds = 3.0
        /// Outages: (seconds after the start, how long) without a fix.
        public var outages: [(start: Double, seconds: Double)] = []
        /// Stops and crawls (`DriverModel.road`); none by default.
        public var driver = DriverModel()
        public init() {}

        /// White noise of `meters` (and the typical bias and outliers with it); 0 = exact.
        public var noiseMeters: Double {
            get { noise.whiteMeters }
            set { noise = .typical(newValue) }
        }
    }

    public let map: RoadMap
    public var options: Options

    public init(map: RoadMap, options: Options = Options()) {
        self.map = map
        self.options = options
    }

    /// The fixes a receiver would give along the route.
    public func drive(_ route: Route) -> [GPSFix] { simulate(route).fixes }

    /// The drive with its truth.
    public func simulate(_ route: Route) -> SimulatedDrive {
        var shape = [Coordinate](), cum = [Double](), limit = [Double](), edgeAt = [DirectedEdge]()
        for leg in route.legs {
            let base = cum.last ?? 0
            for (i, c) in leg.shape.enumerated() {
                if !shape.isEmpty && i == 0 { continue }
                shape.append(c)
                cum.append(base + leg.cumulativeMeters[i])
                let e = leg.edges[leg.edgeIndex(atShapeIndex: min(i, leg.shape.count - 2))]
                edgeAt.append(e)
                let posted = map.maxspeedKmh(of: e) ?? map.speedKmh(of: e) * 1.15
                limit.append(max(10, posted) / 3.6)
            }
        }
        guard shape.count >= 2, let total = cum.last, total > 1 else { return SimulatedDrive(fixes: [], truth: []) }
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
        var rng = SeededRandom(seed: options.seed)
        // the driver's stops and crawls (drawn from the seed's own stream, after the profile's)
        var driverRng = SeededRandom(seed: options.seed ^ 0xD21E)
        let (stops, crawls) = options.driver.plan(total: total, &driverRng)
        for c in crawls { for s in Int(c.from)...min(n - 1, Int(c.to)) { v[s] = min(v[s], c.speed) } }
        for stop in stops { v[min(n - 1, Int(stop.at))] = 0 }
        var nextStop = 0
        v[0] = 0
        v[n - 1] = 0
        for s in 1..<n { v[s] = min(v[s], (v[s - 1] * v[s - 1] + 2 * options.accelerationMps2).squareRoot()) }
        for s in stride(from: n - 2, through: 0, by: -1) { v[s] = min(v[s], (v[s + 1] * v[s + 1] + 2 * options.decelerationMps2).squareRoot()) }

        var fixes = [GPSFix](), truth = [TruePosition]()
        var bias = (0.0, 0.0)
        var burst: MultipathBurst?
        let noise = options.noise
        let start = options.startTime
        var t = start
        var pos = 0.0
        var seg = 0
        func pointAt(_ s: Double) -> (Coordinate, Double, DirectedEdge) {
            while seg + 1 < cum.count - 1 && cum[seg + 1] < s { seg += 1 }
            let a = shape[seg], b = shape[seg + 1]
            let len = cum[seg + 1] - cum[seg]
            let f = len > 0 ? (s - cum[seg]) / len : 0
            return (a.interpolated(to: b, f), a.bearing(to: b), edgeAt[min(seg, edgeAt.count - 1)])
        }
        func emit(_ c: Coordinate, speed: Double, course: Double, edge: DirectedEdge) {
            truth.append(TruePosition(time: t, coordinate: c, edge: edge, speedMetersPerSecond: speed, courseDegrees: course))
            // the bias wanders (Gauss–Markov), the white noise does not
            if noise.biasMeters > 0 {
                let decay = exp(-options.intervalSeconds / noise.biasSeconds)
                let drive = noise.biasMeters * (1 - decay * decay).squareRoot()
                bias = (bias.0 * decay + drive * rng.gaussian(), bias.1 * decay + drive * rng.gaussian())
            }
            let inOutage = options.outages.contains { t - start >= $0.start && t - start < $0.start + $0.seconds }
            if inOutage {
                fixes.append(GPSFix(time: t, coordinate: Coordinate(latitude: .nan, longitude: .nan), mode: .noFix))
            } else {
                let p = LocalProjection(origin: c)
                var dx = bias.0 + noise.whiteMeters * rng.gaussian(), dy = bias.1 + noise.whiteMeters * rng.gaussian()
                if burst == nil, noise.multipathProbability > 0, rng.uniform() < noise.multipathProbability {
                    burst = MultipathBurst(start: t, seconds: noise.multipathSeconds.lowerBound + rng.uniform() * (noise.multipathSeconds.upperBound - noise.multipathSeconds.lowerBound),
                                           meters: noise.multipathMeters.lowerBound + rng.uniform() * (noise.multipathMeters.upperBound - noise.multipathMeters.lowerBound),
                                           directionRadians: rng.uniform() * 2 * .pi)
                }
                if let b = burst {
                    if let (ex, ny) = b.offset(at: t) { dx += ex; dy += ny } else { burst = nil }
                }
                if noise.outlierProbability > 0, rng.uniform() < noise.outlierProbability {
                    let r = noise.outlierMeters.lowerBound + rng.uniform() * (noise.outlierMeters.upperBound - noise.outlierMeters.lowerBound)
                    let a = rng.uniform() * 2 * .pi
                    dx += r * sin(a); dy += r * cos(a)
                }
                let measured = (dx == 0 && dy == 0) ? c : p.unproject(LocalPoint(x: dx, y: dy))
                let s = max(0, speed + noise.speedSigma * rng.gaussian())
                let crs = Angle.normalized(course + (speed > 1 || noise.courseGrowsWhenSlow ? noise.courseSigma(atSpeed: speed) * rng.gaussian() : 0))
                let sigma = max(1.5, (noise.whiteMeters * noise.whiteMeters + noise.biasMeters * noise.biasMeters).squareRoot())
                fixes.append(GPSFix(time: t, coordinate: measured, mode: .threeD, speedMetersPerSecond: s, courseDegrees: crs,
                                    altitudeMeters: 110, horizontalErrorMeters: 2.45 * sigma, hdop: 0.9, satellitesUsed: 9))
            }
            t += options.intervalSeconds
        }
        let (first, firstCourse, firstEdge) = pointAt(0)
        for _ in 0..<Int(options.standSeconds) { emit(first, speed: 0, course: firstCourse, edge: firstEdge) }
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
                if nextStop < stops.count, pos >= stops[nextStop].at { break }
            }
            if nextStop < stops.count, pos >= stops[nextStop].at {
                // a stop: standing (lights, a queue) for its seconds
                let (c, course, edge) = pointAt(pos)
                for _ in 0..<Int(stops[nextStop].seconds / dt) { emit(c, speed: 0, course: course, edge: edge) }
                nextStop += 1
                continue
            }
            let s = min(n - 1, Int(pos.rounded()))
            let (c, course, edge) = pointAt(pos)
            emit(c, speed: pos >= total - 0.01 ? 0 : v[s], course: course, edge: edge)
        }
        let (end, lastCourse, lastEdge) = pointAt(total)
        for _ in 0..<Int(options.standSeconds) { emit(end, speed: 0, course: lastCourse, edge: lastEdge) }
        return SimulatedDrive(fixes: fixes, truth: truth)
    }

    /// The fixes as an NMEA log (RMC, GGA, GSA, GST per epoch), CR LF line ends.
    public static func nmea(_ fixes: [GPSFix]) -> String {
        fixes.flatMap { NMEAWriter.sentences(for: $0) }.map { $0 + "\r\n" }.joined()
    }
}

extension DriveSimulator {
    /// A route that misses its `k`-th turn (1 = the first junction where the route turns): the car
    /// takes another road there, drives about 150 m, then drives to the destination from where it is.
    /// Returns the planned route and the driven one.
    public func wrongTurn(from a: Coordinate, to b: Coordinate, at k: Int) throws -> (planned: Route, driven: Route) {
        let router = Router(map: map)
        let planned = try router.route([a, b])
        let leg = planned.legs[0]
        var turns = 0
        for i in 1..<leg.edges.count {
            let inEdge = leg.edges[i - 1], next = leg.edges[i]
            let node = map.target(of: inEdge)
            // a real wrong turn: a road leading away for 60 m at least (not a stub that rejoins)
            let others = map.outgoing(node).filter { $0 != next && $0.edge != inEdge.edge && map.lengthMeters(ofEdge: $0.edge) >= 60 }
            guard !others.isEmpty else { continue }
            turns += 1
            guard turns == k, let wrong = others.first else { continue }
            let shape = map.geometry(of: wrong)
            let along = min(150, map.lengthMeters(ofEdge: wrong.edge) * 0.8)
            let via = shape.point(atMeters: along).coordinate
            let first = try router.route([a, via])
            let heading = map.coordinate(ofNode: map.source(of: wrong)).bearing(to: via)
            let second = try router.route([via, b], headingDegrees: heading)
            return (planned, Route(legs: first.legs + second.legs, waypoints: [a, via, b]))
        }
        throw SimulationError.noSuchTurn(k, turns)
    }
}

public enum SimulationError: Error, CustomStringConvertible {
    case noSuchTurn(Int, Int)
    public var description: String {
        switch self {
        case let .noSuchTurn(k, turns): return "cannot miss turn \(k): the route passes \(turns) junctions with another road to take"
        }
    }
}
