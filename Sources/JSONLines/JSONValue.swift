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
        var w = JSONWriter()
        write(to: &w)
        return w.text
    }

    /// Writes the value through `w` (which makes all of Tern's JSON text).
    public func write(to w: inout JSONWriter) {
        switch self {
        case .null: w.null()
        case .bool(let b): w.bool(b)
        case .int(let i): w.int(i)
        case .number(let v, let digits): w.number(v, digits: digits)
        case .string(let s): w.string(s)
        case .array(let items):
            w.beginArray()
            for item in items { item.write(to: &w) }
            w.endArray()
        case .object(let pairs):
            w.beginObject()
            for (k, v) in pairs {
                w.key(k)
                v.write(to: &w)
            }
            w.endObject()
        }
    }
}
