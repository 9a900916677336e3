import FoundationEssentials
import Glibc
import Platform

/// Speed conversions.
public enum Speed {
    public static let metersPerSecondPerKnot = 0.514_444_444
    public static func kmh(fromMetersPerSecond v: Double) -> Double { v * 3.6 }
    public static func metersPerSecond(fromKmh v: Double) -> Double { v / 3.6 }
}

/// Time formatting helpers for UTC fix times (seconds since the Unix epoch).
public enum FixTime {
    /// ISO 8601 UTC with millisecond precision when the time has a fraction, e.g. "2024-06-15T12:00:00.500Z".
    public static func iso8601(_ seconds: Double) -> String {
        let whole = floor(seconds)
        let millis = Int(((seconds - whole) * 1000).rounded())
        var t = time_t(whole)
        if millis >= 1000 { t += 1 }
        var tmv = tm()
        gmtime_r(&t, &tmv)
        guard (0...9999).contains(Int(tmv.tm_year) + 1900) else {
            let base = String(printf: "%04d-%02d-%02dT%02d:%02d:%02d", Int(tmv.tm_year) + 1900, Int(tmv.tm_mon) + 1,
                              Int(tmv.tm_mday), Int(tmv.tm_hour), Int(tmv.tm_min), Int(tmv.tm_sec))
            return base + (millis == 0 || millis >= 1000 ? "Z" : String(printf: ".%03dZ", millis))
        }
        // (digits by hand: Foundation's formatter was a tenth of a replay's time; one timestamp per event)
        var b = [UInt8](repeating: 0x30, count: millis != 0 && millis < 1000 ? 24 : 20)
        func put(_ v: Int, at end: Int) {
            var x = v, i = end
            while x > 0 { b[i] = UInt8(0x30 + x % 10); x /= 10; i -= 1 }
        }
        put(Int(tmv.tm_year) + 1900, at: 3); b[4] = 0x2d; put(Int(tmv.tm_mon) + 1, at: 6); b[7] = 0x2d; put(Int(tmv.tm_mday), at: 9)
        b[10] = 0x54; put(Int(tmv.tm_hour), at: 12); b[13] = 0x3a; put(Int(tmv.tm_min), at: 15); b[16] = 0x3a; put(Int(tmv.tm_sec), at: 18)
        if b.count == 24 { b[19] = 0x2e; put(millis, at: 22) }
        b[b.count - 1] = 0x5a
        return String(decoding: b, as: UTF8.self)
    }

    /// Seconds since the epoch of an ISO 8601 time ("2024-06-15T12:00:00.5Z", "+02:00"), or of
    /// Barefoot's "2014-09-10 06:54:07+0200"; nil when it is not one.
    public static func parse(_ s: String) -> Double? {
        // by hand, as `iso8601` writes: a drive log has a time on every line (issue #27 took
        // Foundation's ISO8601DateFormatter away with ICU)
        let b = Array(s.utf8)
        func digits(_ at: Int, _ n: Int) -> Int? {
            guard at + n <= b.count else { return nil }
            var v = 0
            for k in at..<at + n {
                guard b[k] >= 0x30, b[k] <= 0x39 else { return nil }
                v = v * 10 + Int(b[k] - 0x30)
            }
            return v
        }
        guard b.count >= 20, let year = digits(0, 4), b[4] == 0x2d, let month = digits(5, 2), b[7] == 0x2d,
              let day = digits(8, 2), b[10] == 0x54 || b[10] == 0x20, let hour = digits(11, 2), b[13] == 0x3a,
              let minute = digits(14, 2), b[16] == 0x3a, let second = digits(17, 2) else { return nil }
        var i = 19
        var fraction = 0.0
        if b[i] == 0x2e {
            i += 1
            var scale = 0.1, n = 0
            while i < b.count, b[i] >= 0x30, b[i] <= 0x39 { fraction += Double(b[i] - 0x30) * scale; scale /= 10; i += 1; n += 1 }
            guard n > 0 else { return nil }
        }
        guard i < b.count else { return nil }
        var offset = 0
        if b[i] == 0x5a {
            i += 1
        } else if b[i] == 0x2b || b[i] == 0x2d {
            // "+02:00" (ISO 8601) or "+0200" (Barefoot's logs)
            let sign = b[i] == 0x2d ? -1 : 1
            guard let oh = digits(i + 1, 2) else { return nil }
            i += 3
            if i < b.count, b[i] == 0x3a { i += 1 }
            guard let om = digits(i, 2), oh < 24, om < 60 else { return nil }
            i += 2
            offset = sign * (oh * 3600 + om * 60)
        } else {
            return nil
        }
        guard i == b.count, second < 61,
              let t = utc(year: year, month: month, day: day, hour: hour, minute: minute, second: Double(second) + fraction)
        else { return nil }
        return t - Double(offset)
    }

    /// "HH:MM" in UTC.
    public static func clock(_ seconds: Double) -> String {
        var t = time_t(seconds.rounded())
        var tmv = tm()
        gmtime_r(&t, &tmv)
        return String(printf: "%02d:%02d", Int(tmv.tm_hour), Int(tmv.tm_min))
    }

    /// Seconds since the epoch for a UTC calendar date and time; nil when out of range.
    public static func utc(year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Double) -> Double? {
        // (a year from the epoch to the format's end: a ZDA year of 3000000000 trapped below)
        guard (1970...9999).contains(year), (1...12).contains(month), (1...31).contains(day), (0...23).contains(hour),
              (0...59).contains(minute), second >= 0, second < 61 else { return nil }
        var tmv = tm()
        tmv.tm_year = Int32(year - 1900)
        tmv.tm_mon = Int32(month - 1)
        tmv.tm_mday = Int32(day)
        tmv.tm_hour = Int32(hour)
        tmv.tm_min = Int32(minute)
        tmv.tm_sec = 0
        let t = timegm(&tmv)
        guard t != -1 else { return nil }
        return Double(t) + second
    }
}
