import Geo

/// What a GPS source reports to the pipeline.
public enum GPSInputEvent: Sendable {
    /// Connected to gpsd (or a log opened).
    case connected(String)
    /// Lost gpsd; the client is reconnecting.
    case disconnected(String)
    /// A usable fix, one per epoch.
    case fix(GPSFix)
    /// An epoch without a fix (a tunnel): its receiver time, once per epoch.
    case noFix(time: Double)
    /// A raw NMEA sentence as received (for the drive log).
    case nmea(String)
    /// The source has no more data (end of a log).
    case finished
}
