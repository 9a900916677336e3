import FoundationEssentials
import Glibc
import Platform

/// Writes compact JSON as UTF-8 bytes: the one place where Tern's JSON text is made (numbers with
/// at most N decimals and trailing zeros dropped, strings escaped, no spaces), for `JSONValue`
/// and for the drive log's lines, which are written field by field straight into the file's
/// buffer. (Building a `JSONValue` tree and then a `String` for every line was a sixth of a
/// replay's time, issue #24: a tree of enums, an array of pairs and a string growing by appends.)
public struct JSONWriter: Sendable {
    public var bytes: [UInt8]
    /// A value or a closed container was written at this level: the next one needs a comma.
    private var needsComma = false
    /// A key was just written: its value follows without a comma.
    private var afterKey = false

    public init(capacity: Int = 256) {
        bytes = []
        bytes.reserveCapacity(capacity)
    }

    public var text: String { String(decoding: bytes, as: UTF8.self) }

    private static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)

    // MARK: containers

    public mutating func beginObject() { startValue(); bytes.append(0x7b); needsComma = false }
    public mutating func endObject() { bytes.append(0x7d); needsComma = true }
    public mutating func beginArray() { startValue(); bytes.append(0x5b); needsComma = false }
    public mutating func endArray() { bytes.append(0x5d); needsComma = true }

    /// A key of the open object; its value is the next thing written.
    public mutating func key(_ k: String) {
        if needsComma { bytes.append(0x2c) }
        appendQuoted(k)
        bytes.append(0x3a)
        afterKey = true
        needsComma = false
    }

    /// Ends a line (the writer then starts a new top-level value).
    public mutating func newline() {
        bytes.append(0x0a)
        needsComma = false
        afterKey = false
    }

    // MARK: values

    public mutating func null() { startValue(); append("null"); needsComma = true }
    public mutating func bool(_ b: Bool) { startValue(); append(b ? "true" : "false"); needsComma = true }
    public mutating func int(_ i: Int) { startValue(); appendInt(Int64(i)); needsComma = true }
    public mutating func string(_ s: String) { startValue(); appendQuoted(s); needsComma = true }

    /// A number rounded to `digits` decimals, trailing zeros removed; null when not finite.
    public mutating func number(_ v: Double, digits: Int) {
        startValue()
        appendNumber(v, digits: digits)
        needsComma = true
    }

    /// A number or null.
    public mutating func number(_ v: Double?, digits: Int) {
        if let v { number(v, digits: digits) } else { null() }
    }

    /// A string or null.
    public mutating func string(_ s: String?) {
        if let s { string(s) } else { null() }
    }

    public mutating func value(_ v: JSONValue) { v.write(to: &self) }

    // MARK: text

    private mutating func startValue() {
        if needsComma && !afterKey { bytes.append(0x2c) }
        afterKey = false
    }

    private mutating func append(_ s: StaticString) {
        s.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    private mutating func appendInt(_ value: Int64) {
        if value == 0 { bytes.append(0x30); return }
        if value < 0 { bytes.append(0x2d) }
        // (the magnitude as unsigned: Int64.min has no positive counterpart)
        var m = value.magnitude
        let start = bytes.count
        while m > 0 { bytes.append(UInt8(0x30 + m % 10)); m /= 10 }
        bytes[start...].reverse()
    }

    private mutating func appendNumber(_ v: Double, digits: Int) {
        guard v.isFinite else { append("null"); return }
        if digits <= 0 {
            let r = v.rounded()
            if abs(r) < 9e18 { appendInt(Int64(r)) } else { appendFormatted(v, digits: 0) }
            return
        }
        if !appendFixedPoint(v, digits: digits) { appendFormatted(v, digits: digits) }
    }

    /// `String(printf: "%.Nf")` with trailing zeros dropped, without Foundation's formatter.
    /// false (nothing written) where the scaled value lies within a hair of a rounding boundary or
    /// is too large: there the formatter decides, so the text is always the formatter's.
    private mutating func appendFixedPoint(_ v: Double, digits: Int) -> Bool {
        guard digits <= 9 else { return false }
        var p: Int64 = 1
        for _ in 0..<digits { p *= 10 }
        let scaled = v * Double(p)
        guard abs(scaled) < 1e15 else { return false }
        let r = scaled.rounded(.toNearestOrEven)
        guard abs(abs(scaled - r) - 0.5) > 1e-7 + abs(scaled) * 1e-14 else { return false }
        var n = Int64(r)
        if n == 0 { bytes.append(0x30); return true }
        if n < 0 { bytes.append(0x2d); n = -n }
        var frac = n % p
        var fracDigits = digits
        while fracDigits > 0 && frac % 10 == 0 { frac /= 10; fracDigits -= 1 }
        appendInt(n / p)
        if fracDigits > 0 {
            bytes.append(0x2e)
            let start = bytes.count
            for _ in 0..<fracDigits { bytes.append(UInt8(0x30 + frac % 10)); frac /= 10 }
            bytes[start...].reverse()
        }
        return true
    }

    private mutating func appendFormatted(_ v: Double, digits: Int) {
        var s = String(printf: "%.\(max(0, digits))f", v)
        if s.contains(".") {
            while s.hasSuffix("0") { s.removeLast() }
            if s.hasSuffix(".") { s.removeLast() }
        }
        if s == "-0" { s = "0" }
        bytes.append(contentsOf: s.utf8)
    }

    private mutating func appendQuoted(_ s: String) {
        bytes.append(0x22)
        var s = s
        s.withUTF8 { utf8 in
            // (most strings need no escape: appended whole)
            if !utf8.contains(where: { $0 < 0x20 || $0 == 0x22 || $0 == 0x5c }) {
                bytes.append(contentsOf: utf8)
                return
            }
            for u in utf8 {
                switch u {
                case 0x22: bytes.append(0x5c); bytes.append(0x22)
                case 0x5c: bytes.append(0x5c); bytes.append(0x5c)
                case 0x0a: bytes.append(0x5c); bytes.append(0x6e)
                case 0x0d: bytes.append(0x5c); bytes.append(0x72)
                case 0x09: bytes.append(0x5c); bytes.append(0x74)
                case ..<0x20:
                    bytes.append(contentsOf: [0x5c, 0x75, 0x30, 0x30, Self.hexDigits[Int(u >> 4)], Self.hexDigits[Int(u & 15)]])
                default: bytes.append(u)
                }
            }
        }
        bytes.append(0x22)
    }
}
