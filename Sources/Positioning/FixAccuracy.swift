import Geo

/// How far off a fix may be: one rule for the gate and the filter (issue #24: accuracy from HDOP
/// came with two different constants, 12 m per unit in the gate and 9.8 m in the filter).
public enum FixAccuracy {
    /// User range error turning HDOP into a one-sigma error, metres (the filter's, tuned on the
    /// shared receiver logs).
    public static let uereMeters = 4.0

    /// One-sigma horizontal error, metres: the receiver's own estimate (gpsd's eph, a 95%
    /// radius, 2.45 σ), else HDOP × UERE; nil when the fix says neither.
    public static func sigmaMeters(_ f: GPSFix) -> Double? {
        if let eph = f.horizontalErrorMeters, eph.isFinite, eph > 0 { return eph / 2.45 }
        if let h = f.hdop, h.isFinite, h > 0 { return h * uereMeters }
        return nil
    }

    /// The 95% radius, metres, as positions carry it (`accuracyMeters`); nil as above.
    public static func radiusMeters(_ f: GPSFix) -> Double? { sigmaMeters(f).map { 2.45 * $0 } }
}
