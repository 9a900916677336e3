import FoundationEssentials
import Glibc
import Platform
import Geo

/// Writes fixes as NMEA 0183 sentences (RMC, GGA, GSA, and GST when an error is given), the way a
/// typical receiver does at 1 Hz; used by the simulator and tests.
public enum NMEAWriter {
    /// The sentences of one epoch, without line ends.
    public static func sentences(for fix: GPSFix, satellites: Int = 9) -> [String] {
        let t = fix.time
        var tt = time_t(floor(t))
        var tmv = tm()
        gmtime_r(&tt, &tmv)
        let centis = Int(((t - floor(t)) * 100).rounded()) % 100
        let hms = String(printf: "%02d%02d%02d.%02d", Int(tmv.tm_hour), Int(tmv.tm_min), Int(tmv.tm_sec), centis)
        let date = String(printf: "%02d%02d%02d", Int(tmv.tm_mday), Int(tmv.tm_mon) + 1, Int(tmv.tm_year) % 100)
        let (lat, ns) = field(fix.coordinate.latitude, degreeDigits: 2, positive: "N", negative: "S")
        let (lon, ew) = field(fix.coordinate.longitude, degreeDigits: 3, positive: "E", negative: "W")
        let valid = fix.mode >= .twoD
        let knots = (fix.speedMetersPerSecond.flatMap { $0.isFinite ? $0 : nil } ?? 0) / Speed.metersPerSecondPerKnot
        let course = fix.courseDegrees.flatMap { $0.isFinite ? String(printf: "%.1f", $0) : nil } ?? ""
        let hdop = fix.hdop ?? 0.9
        let alt = fix.altitudeMeters ?? 110.0
        var out = [String]()
        out.append(checksummed("GPRMC,\(hms),\(valid ? "A" : "V"),\(valid ? lat : ""),\(valid ? ns : ""),\(valid ? lon : ""),\(valid ? ew : ""),"
            + String(printf: "%.2f", knots) + ",\(course),\(date),,,\(valid ? "A" : "N")"))
        out.append(checksummed("GPGGA,\(hms),\(valid ? lat : ""),\(valid ? ns : ""),\(valid ? lon : ""),\(valid ? ew : ""),\(valid ? 1 : 0),"
            + String(printf: "%02d,%.1f,%.1f,M,47.0,M,,", valid ? satellites : 0, hdop, alt)))
        let sats = (1...12).map { $0 <= satellites && valid ? String(printf: "%02d", $0) : "" }.joined(separator: ",")
        out.append(checksummed("GPGSA,A,\(fix.mode == .threeD ? 3 : (valid ? 2 : 1)),\(sats)," + String(printf: "%.1f,%.1f,%.1f", hdop * 1.6, hdop, hdop * 1.3)))
        if let eph = fix.horizontalErrorMeters, valid {
            let sigma = eph / 2 / 2.0.squareRoot()
            out.append(checksummed("GPGST,\(hms),1.0," + String(printf: "%.1f,%.1f,0.0,%.1f,%.1f,%.1f", sigma, sigma, sigma, sigma, sigma * 2)))
        }
        return out
    }

    /// "$BODY*CS" with the XOR checksum.
    public static func checksummed(_ body: String) -> String {
        var x: UInt8 = 0
        for b in body.utf8 { x ^= b }
        return "$" + body + String(printf: "*%02X", x)
    }

    static func field(_ degrees: Double, degreeDigits: Int, positive: String, negative: String) -> (String, String) {
        guard degrees.isFinite else { return ("", "") }  // no position (an epoch without a fix)
        let a = abs(degrees)
        var d = Int(a)
        var m = (a - Double(d)) * 60
        if (m * 10000).rounded() >= 600_000 { d += 1; m = 0 }
        let fmt = degreeDigits == 2 ? "%02d%07.4f" : "%03d%07.4f"
        return (String(printf: fmt, d, m), degrees < 0 ? negative : positive)
    }
}
