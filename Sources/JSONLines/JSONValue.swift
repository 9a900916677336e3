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
        var s = String(format: "%.\(digits)f", v)
        while s.hasSuffix("0") { s.removeLast() }
        if s.hasSuffix(".") { s.removeLast() }
        if s == "-0" { s = "0" }
        return s
    }

    static func quote(_ s: String, into out: inout String) {
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
