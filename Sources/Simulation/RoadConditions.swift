import FoundationEssentials
import Glibc
import Geo

/// A receiver and a driver harder than the bench's defaults, for tuning on something like the
/// road (issue #24): a bias that wanders by 2–5 m over minutes, urban multipath bursts, 1%
/// outliers, course noise that grows as the car slows; and a driver who stops at lights and in
/// queues and crawls in jams. Every choice comes from the seed: the same seed, the same drive.
extension NoiseModel {
    /// The road receiver: the bias's size (2–5 m) and correlation time (60–300 s) drawn per drive.
    public static func road(_ rng: inout SeededRandom) -> NoiseModel {
        var n = NoiseModel()
        n.whiteMeters = 3
        n.biasMeters = 2 + 3 * rng.uniform()
        n.biasSeconds = 60 + 240 * rng.uniform()
        n.outlierProbability = 0.01
        n.outlierMeters = 30...60
        n.multipathProbability = 0.01
        n.multipathMeters = 8...25
        n.multipathSeconds = 3...15
        n.courseGrowsWhenSlow = true
        return n
    }

    /// The course's standard deviation at `speed`: as receivers report it, a few degrees at speed,
    /// tens of degrees at walking pace (the Doppler velocity's direction is lost in its noise).
    func courseSigma(atSpeed speed: Double) -> Double {
        guard courseGrowsWhenSlow else { return courseSigmaDegrees }
        return min(90, courseSigmaDegrees * max(1, 8 / max(speed, 0.3)))
    }
}

/// A multipath burst: the fixes pulled towards a reflecting wall, in one direction, growing and
/// fading over its length (a street canyon).
struct MultipathBurst {
    var start: Double
    var seconds: Double
    var meters: Double
    var directionRadians: Double

    /// The pull at time `t` (east, north), nil when the burst is over.
    func offset(at t: Double) -> (Double, Double)? {
        let f = (t - start) / seconds
        guard f >= 0, f <= 1 else { return nil }
        let m = meters * sin(.pi * f)
        return (m * sin(directionRadians), m * cos(directionRadians))
    }
}

/// How the simulated driver's speed departs from the free-flow profile.
public struct DriverModel: Sendable, Equatable {
    /// Stops (lights, queues) per kilometre, and how long each lasts.
    public var stopsPerKilometre = 0.0
    public var stopSeconds: ClosedRange<Double> = 10...40
    /// Stretches of a jam per drive, their length, and the crawling speed in them.
    public var crawls = 0
    public var crawlMeters: ClosedRange<Double> = 150...400
    public var crawlSpeed: ClosedRange<Double> = 1...2

    public init() {}

    /// Stop-and-go in town: about one stop a kilometre, and one or two crawls.
    public static func road(_ rng: inout SeededRandom) -> DriverModel {
        var d = DriverModel()
        d.stopsPerKilometre = 0.6 + 0.8 * rng.uniform()
        d.crawls = 1 + Int(rng.uniform() * 2)
        return d
    }

    /// Where the car stops (metres along, seconds), and the crawls (from, to, speed), for a drive
    /// of `total` metres; none within 100 m of either end.
    func plan(total: Double, _ rng: inout SeededRandom) -> (stops: [(at: Double, seconds: Double)], crawls: [(from: Double, to: Double, speed: Double)]) {
        guard total > 400 else { return ([], []) }
        var stops = [(at: Double, seconds: Double)]()
        let count = Int((stopsPerKilometre * total / 1000).rounded())
        for _ in 0..<count {
            stops.append((100 + rng.uniform() * (total - 200), stopSeconds.lowerBound + rng.uniform() * (stopSeconds.upperBound - stopSeconds.lowerBound)))
        }
        var jams = [(from: Double, to: Double, speed: Double)]()
        for _ in 0..<crawls {
            let length = crawlMeters.lowerBound + rng.uniform() * (crawlMeters.upperBound - crawlMeters.lowerBound)
            let from = 100 + rng.uniform() * max(0, total - 200 - length)
            jams.append((from, min(total - 100, from + length), crawlSpeed.lowerBound + rng.uniform() * (crawlSpeed.upperBound - crawlSpeed.lowerBound)))
        }
        return (stops.sorted { $0.at < $1.at }, jams)
    }
}

extension DriveSimulator.Options {
    /// The road receiver and driver, drawn from `seed` (`tern simulate --model road`,
    /// `tern bench-match --model road`): set the seed first.
    public mutating func useRoadModel() {
        var rng = SeededRandom(seed: seed ^ 0x0AD)
        noise = .road(&rng)
        driver = .road(&rng)
    }
}
