import Geo

/// A position the rest of the pipeline can trust: gated (and, from issue #4, filtered).
public struct FilteredPosition: Sendable, Equatable {
    /// Fix time, seconds since the Unix epoch (UTC).
    public var time: Double
    public var coordinate: Coordinate
    /// m/s, nil when unknown.
    public var speedMetersPerSecond: Double?
    /// Degrees true, nil when unknown (or meaningless at walking pace).
    public var courseDegrees: Double?
    /// The course the receiver reported with the fix (Doppler), nil when it gave none or the
    /// position is estimated. `courseDegrees` is the filter's, which the fixes' positions pull:
    /// a receiver error growing across the road turns it towards the error, and what the car's
    /// own movement shows is the receiver's course (issue #24, OffRouteEvidence).
    public var receiverCourseDegrees: Double?
    /// Horizontal accuracy estimate in metres (95%).
    public var accuracyMeters: Double
    /// True when predicted without a fix (dead reckoning through an outage).
    public var estimated: Bool
    public var mode: FixMode

    public init(time: Double, coordinate: Coordinate, speedMetersPerSecond: Double?, courseDegrees: Double?,
                accuracyMeters: Double, estimated: Bool = false, mode: FixMode = .threeD, receiverCourseDegrees: Double? = nil) {
        self.time = time
        self.coordinate = coordinate
        self.speedMetersPerSecond = speedMetersPerSecond
        self.courseDegrees = courseDegrees
        self.accuracyMeters = accuracyMeters
        self.estimated = estimated
        self.mode = mode
        self.receiverCourseDegrees = receiverCourseDegrees
    }
}

/// Why a fix was not used.
public enum DiscardReason: String, Sendable {
    case noFix = "no-fix"
    case invalidValue = "invalid-value"
    case timeWentBackwards = "time-backwards"
    case repeatedEpoch = "repeated-epoch"
    case inaccurate = "inaccurate"
    case impossibleSpeed = "impossible-speed"
}

/// A discard reason carried as an Error (for Result).
public struct DiscardReasonError: Error, Sendable, Equatable {
    public let reason: DiscardReason
    public init(_ reason: DiscardReason) { self.reason = reason }
}
