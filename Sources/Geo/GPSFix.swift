import FoundationEssentials
import Glibc

/// Fix quality as gpsd reports it (TPV `mode`).
public enum FixMode: Int, Sendable, Comparable {
    case notSeen = 0, noFix = 1, twoD = 2, threeD = 3
    public static func < (a: FixMode, b: FixMode) -> Bool { a.rawValue < b.rawValue }
    public var label: String {
        switch self {
        case .notSeen, .noFix: return "NO FIX"
        case .twoD: return "2D"
        case .threeD: return "3D"
        }
    }
}

/// One position report from the receiver, as gpsd (or an NMEA log) gives it: the value that enters
/// the pipeline (GPSInput produces it, Positioning consumes it).
public struct GPSFix: Sendable, Equatable {
    /// Fix time, seconds since the Unix epoch (UTC).
    public var time: Double
    /// False when the receiver gave no time and `time` is the moment the fix arrived.
    public var timeFromReceiver: Bool
    public var coordinate: Coordinate
    public var mode: FixMode
    /// Speed over ground, m/s.
    public var speedMetersPerSecond: Double?
    /// Course over ground, degrees true.
    public var courseDegrees: Double?
    /// Altitude above mean sea level, metres.
    public var altitudeMeters: Double?
    /// gpsd's error estimates (95% confidence): horizontal position (eph, metres),
    /// speed (eps, m/s), course (epd, degrees).
    public var horizontalErrorMeters: Double?
    public var speedErrorMetersPerSecond: Double?
    public var courseErrorDegrees: Double?
    /// Horizontal dilution of precision, when known.
    public var hdop: Double?
    public var satellitesUsed: Int?

    public init(time: Double, timeFromReceiver: Bool = true, coordinate: Coordinate, mode: FixMode,
                speedMetersPerSecond: Double? = nil, courseDegrees: Double? = nil, altitudeMeters: Double? = nil,
                horizontalErrorMeters: Double? = nil, speedErrorMetersPerSecond: Double? = nil,
                courseErrorDegrees: Double? = nil, hdop: Double? = nil, satellitesUsed: Int? = nil) {
        self.time = time
        self.timeFromReceiver = timeFromReceiver
        self.coordinate = coordinate
        self.mode = mode
        self.speedMetersPerSecond = speedMetersPerSecond
        self.courseDegrees = courseDegrees
        self.altitudeMeters = altitudeMeters
        self.horizontalErrorMeters = horizontalErrorMeters
        self.speedErrorMetersPerSecond = speedErrorMetersPerSecond
        self.courseErrorDegrees = courseErrorDegrees
        self.hdop = hdop
        self.satellitesUsed = satellitesUsed
    }

    /// The usable-fix rule shared by every source: a 2D or 3D fix with a finite, valid position.
    public var isUsable: Bool { mode >= .twoD && coordinate.isValid }
}

