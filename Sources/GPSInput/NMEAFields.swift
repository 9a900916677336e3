import Geo

/// Reading an NMEA sentence's fields. A field of a sentence that `NMEAParser` accepted is
/// printable ASCII, so it is read on its UTF-8 bytes: `Substring`'s `count`, `prefix` and
/// `dropFirst` walk Characters (a grapheme break test per byte), and `Double(_:)` goes through
/// `strtod`; these were a tenth of a replay's time (issue #24).
extension NMEAParser {
    /// The value of a hexadecimal digit (either case), nil for any other byte.
    static func hexDigit(_ b: UInt8) -> UInt8? {
        switch b {
        case 0x30...0x39: return b - 0x30
        case 0x41...0x46: return b - 0x41 + 10
        case 0x61...0x66: return b - 0x61 + 10
        default: return nil
        }
    }

    /// The field's bytes from `from` to `to` (nil: the end), as a Substring (ASCII: every byte
    /// offset is a character boundary).
    static func part(_ f: Substring, _ from: Int, _ to: Int? = nil) -> Substring {
        let u = f.utf8
        let start = u.index(u.startIndex, offsetBy: from)
        let end = to.map { u.index(u.startIndex, offsetBy: $0) } ?? u.endIndex
        return f[start..<end]
    }

    /// Powers of ten that a double holds exactly.
    private static let exactPowersOfTen: [Double] = [1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15]

    /// A decimal field ("4807.038", "-12.5"), the same double as `Double(_:)` gives. Read on its
    /// bytes where it is a sign, up to 15 digits and a point between digits: the digits as an
    /// integer and the power of ten are both exact, so the one rounding is the division's, which
    /// is correct, as `strtod`'s is. Anything else (an exponent, "inf", more digits, a bare
    /// point) is left to `Double(_:)`.
    static func number(_ f: Substring) -> Double? {
        var mantissa: Int64 = 0
        var digits = 0, decimals = 0, position = 0
        var point = false, negative = false, digitBeforePoint = false
        for b in f.utf8 {
            switch b {
            case 0x30...0x39:
                guard digits < 15 else { return Double(f) }
                mantissa = mantissa * 10 + Int64(b - 0x30)
                digits += 1
                if point { decimals += 1 } else { digitBeforePoint = true }
            case 0x2e:
                guard !point, digitBeforePoint else { return Double(f) }
                point = true
            case 0x2d, 0x2b:
                guard position == 0 else { return Double(f) }
                negative = b == 0x2d
            default:
                return Double(f)
            }
            position += 1
        }
        guard digitBeforePoint, !point || decimals > 0 else { return Double(f) }
        let v = Double(mantissa) / exactPowersOfTen[decimals]
        return negative ? -v : v
    }

    static func timeOfDay(_ f: Substring) -> Double? {
        // (finite and not negative: "-inf" reads as a number, and a time of day of -inf trapped
        // when the fix's time was made from it)
        guard f.utf8.count >= 6, let h = Int(part(f, 0, 2)), let m = Int(part(f, 2, 4)), let s = number(part(f, 4)),
              h >= 0, h < 24, m >= 0, m < 60, s >= 0, s < 61 else { return nil }
        return Double(h * 3600 + m * 60) + s
    }

    static func coordinate(_ lat: Substring, _ ns: Substring, _ lon: Substring, _ ew: Substring) -> Coordinate? {
        guard let la = degrees(lat, 2), let lo = degrees(lon, 3) else { return nil }
        let c = Coordinate(latitude: ns == "S" ? -la : la, longitude: ew == "W" ? -lo : lo)
        guard (ns == "N" || ns == "S"), (ew == "E" || ew == "W"), c.isValid else { return nil }
        return c
    }

    static func degrees(_ f: Substring, _ degDigits: Int) -> Double? {
        guard f.utf8.count > degDigits, let d = number(part(f, 0, degDigits)), let m = number(part(f, degDigits)),
              d.isFinite, m >= 0, m < 60 else { return nil }
        return d + m / 60
    }
}
