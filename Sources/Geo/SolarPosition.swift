import FoundationEssentials
import Glibc

/// The sun's elevation above the horizon (NOAA's solar position equations, accurate to a few
/// hundredths of a degree between 1901 and 2099): what decides day, twilight and night lighting.
public enum SolarPosition {
    /// Elevation in degrees at a place and moment (seconds since the Unix epoch, UTC), corrected
    /// for atmospheric refraction near the horizon.
    public static func elevationDegrees(at c: Coordinate, time: Double) -> Double {
        let rad = Double.pi / 180
        let jd = time / 86_400 + 2_440_587.5
        let t = (jd - 2_451_545) / 36_525  // Julian centuries since J2000
        let l0 = (280.46646 + t * (36_000.76983 + t * 0.0003032)).truncatingRemainder(dividingBy: 360)
        let m = 357.52911 + t * (35_999.05029 - 0.0001537 * t)
        let e = 0.016708634 - t * (0.000042037 + 0.0000001267 * t)
        let center = sin(m * rad) * (1.914602 - t * (0.004817 + 0.000014 * t)) + sin(2 * m * rad) * (0.019993 - 0.000101 * t)
            + sin(3 * m * rad) * 0.000289
        let trueLong = l0 + center
        let omega = 125.04 - 1934.136 * t
        let lambda = trueLong - 0.00569 - 0.00478 * sin(omega * rad)
        let eps0 = 23 + (26 + (21.448 - t * (46.815 + t * (0.00059 - t * 0.001813))) / 60) / 60
        let eps = eps0 + 0.00256 * cos(omega * rad)
        let decl = asin(sin(eps * rad) * sin(lambda * rad))
        let y = tan(eps * rad / 2) * tan(eps * rad / 2)
        let eqTime = 4 / rad * (y * sin(2 * l0 * rad) - 2 * e * sin(m * rad) + 4 * e * y * sin(m * rad) * cos(2 * l0 * rad)
            - 0.5 * y * y * sin(4 * l0 * rad) - 1.25 * e * e * sin(2 * m * rad))  // minutes
        let minutesUTC = (time / 60).truncatingRemainder(dividingBy: 1440)
        let trueSolarMinutes = (minutesUTC + eqTime + 4 * c.longitude).truncatingRemainder(dividingBy: 1440)
        var hourAngle = trueSolarMinutes / 4 - 180
        if hourAngle < -180 { hourAngle += 360 }
        let cosZenith = sin(c.latitude * rad) * sin(decl) + cos(c.latitude * rad) * cos(decl) * cos(hourAngle * rad)
        let elevation = 90 - acos(max(-1, min(1, cosZenith))) / rad
        // refraction (NOAA's approximation)
        let refraction: Double
        if elevation > 85 {
            refraction = 0
        } else if elevation > 5 {
            let te = tan(elevation * rad)
            refraction = (58.1 / te - 0.07 / (te * te * te) + 0.000086 / pow(te, 5)) / 3600
        } else if elevation > -0.575 {
            refraction = (1735 + elevation * (-518.2 + elevation * (103.4 + elevation * (-12.79 + elevation * 0.711)))) / 3600
        } else {
            refraction = -20.772 / tan(elevation * rad) / 3600
        }
        return elevation + refraction
    }
}
