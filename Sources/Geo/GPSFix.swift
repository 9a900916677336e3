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
        typealias P = Plausible
        self.time = time
        self.timeFromReceiver = timeFromReceiver
        self.coordinate = coordinate
        self.mode = mode
        self.speedMetersPerSecond = speedMetersPerSecond.flatMap { P.within($0, 0...P.maxSpeed) }
        self.courseDegrees = courseDegrees.flatMap(P.course)
        self.altitudeMeters = altitudeMeters.flatMap { P.within($0, P.altitude) }
        self.horizontalErrorMeters = horizontalErrorMeters.flatMap { P.within($0, 0...P.maxError) }
        self.speedErrorMetersPerSecond = speedErrorMetersPerSecond.flatMap { P.within($0, 0...P.maxError) }
        self.courseErrorDegrees = courseErrorDegrees.flatMap { P.within($0, 0...360) }
        self.hdop = hdop.flatMap { P.within($0, 0...P.maxDOP) }
        self.satellitesUsed = satellitesUsed.flatMap { (0...1000).contains($0) ? $0 : nil }
    }

    /// The usable-fix rule shared by every source: a 2D or 3D fix with a finite, valid position
    /// at a finite time.
    public var isUsable: Bool { mode >= .twoD && coordinate.isValid && time.isFinite }

    /// What a receiver can report, one rule for every source (NMEA, gpsd, a trace): a value
    /// outside it is not a measurement and is left out of the fix (nil), not carried on. A speed
    /// of "inf" or 1e9 knots once trapped in the matcher, and a course of 1e9° shifted positions
    /// by 56 m (issue #29).
    public enum Plausible {
        /// The COCOM limit receivers stop at: 1000 knots.
        public static let maxSpeed = 514.4
        /// From the Dead Sea's shore to well above any road.
        public static let altitude = -1000.0...20_000.0
        /// An error estimate larger than this says nothing.
        public static let maxError = 100_000.0
        /// Receivers report 99.9 (or 99.99) for "no geometry".
        public static let maxDOP = 100.0

        public static func within(_ v: Double, _ range: ClosedRange<Double>) -> Double? {
            range.contains(v) ? v : nil  // (NaN is in no range)
        }

        /// A course in degrees, 0 ≤ c < 360; a receiver's -180…180 or a 360 is turned into it.
        public static func course(_ c: Double) -> Double? {
            guard c >= -360, c <= 720 else { return nil }
            let d = c.truncatingRemainder(dividingBy: 360)
            return d < 0 ? d + 360 : d
        }
    }
}

