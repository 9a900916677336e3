import Geo

/// The quality gate: which fixes are used (the Mapbox SDK's `shouldDiscard`). A value type:
/// feed fixes in order, get a position or a reason.
public struct FixGate: Sendable {
    /// Fixes whose horizontal error exceeds this are discarded, metres.
    public var maximumErrorMeters = 100.0
    /// Faster than any car, m/s (300 km/h).
    public var maximumSpeedMetersPerSecond = 83.0

    private var last: (time: Double, coordinate: Coordinate)?
    private var backwardsInARow = 0

    public init() {}

    public mutating func accept(_ fix: GPSFix) -> Result<FilteredPosition, DiscardReasonError> {
        guard fix.mode >= .twoD else { return .failure(.init(.noFix)) }
        guard fix.coordinate.isValid, fix.time.isFinite else { return .failure(.init(.invalidValue)) }
        let accuracy = FixAccuracy.radiusMeters(fix) ?? 15
        guard accuracy.isFinite, accuracy <= maximumErrorMeters else { return .failure(.init(.inaccurate)) }
        if let l = last {
            if fix.time == l.time { return .failure(.init(.repeatedEpoch)) }
            if fix.time < l.time {
                // A single step back is a stale epoch; a lasting one is a new time base (a log
                // looping, a receiver fixing its clock): start again from it rather than refuse forever.
                backwardsInARow += 1
                if backwardsInARow < 3 { return .failure(.init(.timeWentBackwards)) }
                backwardsInARow = 0
                last = (fix.time, fix.coordinate)
                return accepted(fix, accuracy)
            }
            backwardsInARow = 0
            let dt = fix.time - l.time
            // Only judge over short gaps: after a long outage any distance is possible.
            if dt < 30, l.coordinate.shortDistance(to: fix.coordinate) / dt > maximumSpeedMetersPerSecond + accuracy / dt {
                return .failure(.init(.impossibleSpeed))
            }
        }
        last = (fix.time, fix.coordinate)
        return accepted(fix, accuracy)
    }

    private func accepted(_ fix: GPSFix, _ accuracy: Double) -> Result<FilteredPosition, DiscardReasonError> {
        var speed = fix.speedMetersPerSecond
        if let s = speed, !s.isFinite || s < 0 { speed = nil }
        var course = fix.courseDegrees
        if let c = course, !c.isFinite { course = nil }
        if let s = speed, s < 1.0 { course = nil }  // at a standstill the course is noise
        return .success(FilteredPosition(time: fix.time, coordinate: fix.coordinate, speedMetersPerSecond: speed,
                                         courseDegrees: course, accuracyMeters: accuracy, mode: fix.mode))
    }
}

