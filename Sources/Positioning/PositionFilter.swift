import FoundationEssentials
import Glibc
import Geo

/// Follows a road from a position: what dead reckoning uses through an outage (a tunnel) when
/// a map is at hand (MapMatching provides one; the navigator's route when guiding).
public protocol RoadConstraint {
    /// The point `meters` further along the road from `from` in the direction of `courseDegrees`,
    /// with the road's direction there; nil when no road is known.
    func advance(from: Coordinate, courseDegrees: Double, meters: Double) -> (Coordinate, Double)?
}

/// Gate + Kalman filter + dead reckoning: raw fixes in, trusted positions out.
public struct PositionFilter: Sendable {
    public var gate = FixGate()
    /// No dead reckoning beyond this long without a fix, seconds.
    public var maximumOutageSeconds = 120.0
    public private(set) var filter: KalmanFilter?
    private var rejectedInARow = 0
    public private(set) var lastFixTime: Double?
    public private(set) var outliers = 0

    public init() {}

    /// One-sigma position error of a fix, metres.
    func sigma(_ f: GPSFix) -> Double {
        FixAccuracy.sigmaMeters(f).map { min(50, max(1.5, $0)) } ?? 8
    }

    /// Gates and filters a fix. A discarded fix returns the reason; an accepted one the filtered
    /// position (a fix the filter judges an outlier moves the estimate only by its velocity).
    public mutating func accept(_ fix: GPSFix) -> Result<FilteredPosition, DiscardReasonError> {
        let gated: FilteredPosition
        switch gate.accept(fix) {
        case .failure(let e): return .failure(e)
        case .success(let p): gated = p
        }
        let s = sigma(fix)
        var velocity: (Double, Double)?
        var velocitySigma = 1.0
        if let v = gated.speedMetersPerSecond, let c = gated.courseDegrees, v > 1.5 {
            let rad = c * .pi / 180
            velocity = (v * sin(rad), v * cos(rad))
            let eps = fix.speedErrorMetersPerSecond.map { $0 / 2 } ?? 0.5
            let epd = (fix.courseErrorDegrees.map { $0 / 2 } ?? 4) * .pi / 180
            velocitySigma = (eps * eps + (v * epd) * (v * epd)).squareRoot()
        }
        let gap = lastFixTime.map { fix.time - $0 } ?? .infinity
        lastFixTime = fix.time
        if filter == nil || gap > maximumOutageSeconds {
            filter = KalmanFilter(time: fix.time, position: gated.coordinate, sigma: s, velocity: velocity, velocitySigma: velocitySigma)
            rejectedInARow = 0
            return .success(output(gated, estimated: false))
        }
        filter!.predict(to: fix.time)
        if filter!.updatePosition(gated.coordinate, sigma: s) {
            rejectedInARow = 0
        } else {
            outliers += 1
            rejectedInARow += 1
            // three in a row are not outliers: the track was wrong (after a long outage, say)
            if rejectedInARow >= 3 {
                filter = KalmanFilter(time: fix.time, position: gated.coordinate, sigma: s, velocity: velocity, velocitySigma: velocitySigma)
                rejectedInARow = 0
                return .success(output(gated, estimated: false))
            }
        }
        if let v = velocity { filter!.updateVelocity(east: v.0, north: v.1, sigma: velocitySigma) } else if let sp = gated.speedMetersPerSecond, sp < 0.5 {
            filter!.updateVelocity(east: 0, north: 0, sigma: 0.5)  // standing still
        }
        return .success(output(gated, estimated: false))
    }

    /// Dead reckoning at `time` without a fix: the predicted position (moved along the road when
    /// a constraint knows it), flagged estimated; nil when there is no track or the outage is too long.
    public mutating func predict(to time: Double, road: RoadConstraint? = nil) -> FilteredPosition? {
        guard var f = filter, let last = lastFixTime, time > f.time, time - last <= maximumOutageSeconds else { return nil }
        let before = f.position, course = f.course, speed = f.speed
        let dt = time - f.time
        f.predict(to: time)
        if let road, speed > 0.5, let (c, dir) = road.advance(from: before, courseDegrees: course, meters: speed * dt) {
            f.constrain(to: c, courseDegrees: dir, sigma: f.positionSigma)
        }
        filter = f
        let p = FilteredPosition(time: time, coordinate: f.position, speedMetersPerSecond: f.speed,
                                 courseDegrees: f.speed > 1 ? f.course : nil, accuracyMeters: 2.45 * f.positionSigma,
                                 estimated: true, mode: .noFix)
        return p
    }

    private func output(_ gated: FilteredPosition, estimated: Bool) -> FilteredPosition {
        guard let f = filter else { return gated }
        let moving = f.speed > 1.5
        return FilteredPosition(time: gated.time, coordinate: f.position,
                                speedMetersPerSecond: gated.speedMetersPerSecond ?? f.speed,
                                courseDegrees: moving ? f.course : gated.courseDegrees,
                                accuracyMeters: 2.45 * f.positionSigma, estimated: estimated, mode: gated.mode,
                                receiverCourseDegrees: gated.courseDegrees)
    }
}
