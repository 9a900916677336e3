import Foundation

/// A JSON value whose objects keep their key order, so every line Tern writes is byte-for-byte
/// reproducible (the same drive replayed gives the same `events.jsonl`).
public enum JSONValue: Sendable, Equatable {
    case null
    case bool(Bool)
    /// A number written with at most `digits` decimals, trailing zeros removed.
    case number(Double, digits: Int)
    case int(Int)
    case string(String)
    case array([JSONValue])
    case object([(String, JSONValue)])

    public static func == (a: JSONValue, b: JSONValue) -> Bool { a.serialized() == b.serialized() }

    /// A number rounded to `digits` decimals (default 6).
    public static func num(_ v: Double, _ digits: Int = 6) -> JSONValue { .number(v, digits: digits) }

    /// Compact JSON text on one line.
    public func serialized() -> String {
        var out = ""
        write(to: &out)
        return out
    }

    public func write(to out: inout String) {
        switch self {
        case .null: out += "null"
        case .bool(let b): out += b ? "true" : "false"
        case .int(let i): out += String(i)
        case .number(let v, let digits): out += JSONValue.format(v, digits: digits)
        case .string(let s): JSONValue.quote(s, into: &out)
        case .array(let items):
            out += "["
            for (i, item) in items.enumerated() {
                if i > 0 { out += "," }
                item.write(to: &out)
            }
            out += "]"
        case .object(let pairs):
            out += "{"
            for (i, (k, v)) in pairs.enumerated() {
                if i > 0 { out += "," }
                JSONValue.quote(k, into: &out)
                out += ":"
                v.write(to: &out)
            }
            out += "}"
        }
    }

    static func format(_ v: Double, digits: Int) -> String {
        guard v.isFinite else { return "null" }
        if digits <= 0 { return String(Int(v.rounded())) }
        if let fast = fixedPoint(v, digits: digits) { return fast }
        var s = String(format: "%.\(digits)f", v)
        while s.hasSuffix("0") { s.removeLast() }
        if s.hasSuffix(".") { s.removeLast() }
        if s == "-0" { s = "0" }
        return s
    }

    /// `String(format: "%.Nf")` with trailing zeros dropped, without Foundation's formatter (a
    /// drive log writes a few numbers per fix; the formatter was a fifth of the replay's time).
    /// nil where the scaled value lies within a hair of a rounding boundary or is too large:
    /// there the formatter decides, so the text is always the formatter's.
    static func fixedPoint(_ v: Double, digits: Int) -> String? {
        guard digits <= 9 else { return nil }
        var p = 1.0
        for _ in 0..<digits { p *= 10 }
        let scaled = v * p
        guard abs(scaled) < 1e15 else { return nil }
        let r = scaled.rounded(.toNearestOrEven)
        guard abs(abs(scaled - r) - 0.5) > 1e-7 + abs(scaled) * 1e-14 else { return nil }
        var n = Int64(r)
        if n == 0 { return "0" }
        let negative = n < 0
        if negative { n = -n }
        var frac = n % Int64(p), whole = n / Int64(p)
        var fracDigits = digits
        while fracDigits > 0 && frac % 10 == 0 { frac /= 10; fracDigits -= 1 }
        var bytes = [UInt8]()
        bytes.reserveCapacity(24)
        if whole == 0 { bytes.append(0x30) }
        while whole > 0 { bytes.append(UInt8(0x30 + whole % 10)); whole /= 10 }
        if negative { bytes.append(0x2d) }
        bytes.reverse()
        if fracDigits > 0 {
            bytes.append(0x2e)
            var f = [UInt8](repeating: 0x30, count: fracDigits)
            for i in stride(from: fracDigits - 1, through: 0, by: -1) { f[i] = UInt8(0x30 + frac % 10); frac /= 10 }
            bytes += f
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    static func quote(_ s: String, into out: inout String) {
        // (most strings need no escape: appended whole, not scalar by scalar)
        if !s.utf8.contains(where: { $0 < 0x20 || $0 == 0x22 || $0 == 0x5c }) {
            out += "\""
            out += s
            out += "\""
            return
        }
        out += "\""
        for u in s.unicodeScalars {
            switch u {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if u.value < 0x20 {
                    out += String(format: "\\u%04x", u.value)
                } else {
                    out.unicodeScalars.append(u)
                }
            }
        }
        out += "\""
    }
}

extension JSONValue {
    /// Parses JSON text (through Foundation); objects keep the order Foundation gives, which is
    /// not the file's order: use this for reading input, not for round-tripping output.
    public static func parse(_ data: Data) throws -> Any {
        try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
    }
}
