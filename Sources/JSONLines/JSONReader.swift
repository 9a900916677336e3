/// Reads JSON text into Swift values: `[String: Any]` objects, `[Any]` arrays, `String`, `Bool`,
/// `Int` (a number written without fraction or exponent that fits), `Double` (any other number)
/// and `JSONNull`.
///
/// Why not JSONSerialization: it is in Foundation, not FoundationEssentials, and the appliance
/// links FoundationEssentials only (issue #27). Why not JSONDecoder: Tern's inputs (drive logs,
/// locale tables, voice-pack manifests, request files) are read key by key with a message naming
/// the bad field, which a tree does better than Codable's all-or-nothing. A number is read as an
/// Int or a Double by how it is written: use `JSONValue.double(_:)` where either is fine.
public struct JSONReader {
    public struct SyntaxError: Error, CustomStringConvertible {
        public let line: Int, column: Int, reason: String
        public var description: String { "line \(line), column \(column): \(reason)" }
    }

    /// Deeper nesting than this is refused rather than risk the stack (no Tern file nests past 6).
    public static let maxDepth = 256

    private let bytes: [UInt8]
    private var i = 0

    /// The value of a whole JSON text; white space around it is allowed, anything else is an error.
    public static func parse<Bytes: Sequence>(_ text: Bytes) throws -> Any where Bytes.Element == UInt8 {
        var r = JSONReader(bytes: Array(text))
        r.skipSpace()
        let v = try r.value(depth: 0)
        r.skipSpace()
        guard r.i == r.bytes.count else { throw r.error("text after the end of the value") }
        return v
    }

    public static func parse(_ text: String) throws -> Any { try parse(text.utf8) }

    private init(bytes: [UInt8]) { self.bytes = bytes }

    private mutating func value(depth: Int) throws -> Any {
        guard depth < JSONReader.maxDepth else { throw error("nested deeper than \(JSONReader.maxDepth)") }
        guard i < bytes.count else { throw error("unexpected end of text") }
        switch bytes[i] {
        case UInt8(ascii: "{"): return try object(depth: depth)
        case UInt8(ascii: "["): return try array(depth: depth)
        case UInt8(ascii: "\""): return try string()
        case UInt8(ascii: "t"): try word("true"); return true
        case UInt8(ascii: "f"): try word("false"); return false
        case UInt8(ascii: "n"): try word("null"); return JSONNull()
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try number()
        default: throw error("unexpected character '\(Unicode.Scalar(bytes[i]))'")
        }
    }

    private mutating func object(depth: Int) throws -> [String: Any] {
        i += 1
        var out = [String: Any]()
        skipSpace()
        if peek(UInt8(ascii: "}")) { i += 1; return out }
        while true {
            skipSpace()
            guard peek(UInt8(ascii: "\"")) else { throw error("expected a key in quotes") }
            let key = try string()
            skipSpace()
            guard peek(UInt8(ascii: ":")) else { throw error("expected ':' after key \"\(key)\"") }
            i += 1
            skipSpace()
            out[key] = try value(depth: depth + 1)
            skipSpace()
            if peek(UInt8(ascii: ",")) { i += 1; continue }
            if peek(UInt8(ascii: "}")) { i += 1; return out }
            throw error("expected ',' or '}' in an object")
        }
    }

    private mutating func array(depth: Int) throws -> [Any] {
        i += 1
        var out = [Any]()
        skipSpace()
        if peek(UInt8(ascii: "]")) { i += 1; return out }
        while true {
            skipSpace()
            out.append(try value(depth: depth + 1))
            skipSpace()
            if peek(UInt8(ascii: ",")) { i += 1; continue }
            if peek(UInt8(ascii: "]")) { i += 1; return out }
            throw error("expected ',' or ']' in an array")
        }
    }

    private mutating func string() throws -> String {
        i += 1
        var out = [UInt8]()
        var start = i
        while true {
            guard i < bytes.count else { throw error("unterminated string") }
            let b = bytes[i]
            if b == UInt8(ascii: "\"") {
                out += bytes[start..<i]
                i += 1
                break
            }
            if b < 0x20 { throw error("control character in a string") }
            guard b == UInt8(ascii: "\\") else { i += 1; continue }
            out += bytes[start..<i]
            i += 1
            guard i < bytes.count else { throw error("unterminated string") }
            let e = bytes[i]
            i += 1
            switch e {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out.append(e)
            case UInt8(ascii: "b"): out.append(8)
            case UInt8(ascii: "f"): out.append(12)
            case UInt8(ascii: "n"): out.append(10)
            case UInt8(ascii: "r"): out.append(13)
            case UInt8(ascii: "t"): out.append(9)
            case UInt8(ascii: "u"):
                var scalar = try hex4()
                if (0xD800..<0xDC00).contains(scalar) {
                    // a surrogate pair: \uD83D\uDE97
                    guard i + 1 < bytes.count, bytes[i] == UInt8(ascii: "\\"), bytes[i + 1] == UInt8(ascii: "u") else {
                        throw error("lone surrogate \\u\(String(scalar, radix: 16))")
                    }
                    i += 2
                    let low = try hex4()
                    guard (0xDC00..<0xE000).contains(low) else { throw error("bad surrogate pair") }
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                }
                guard let u = Unicode.Scalar(scalar) else { throw error("bad \\u escape") }
                out += Array(String(Character(u)).utf8)
            default: throw error("bad escape \\\(Unicode.Scalar(e))")
            }
            start = i
        }
        guard let s = String(validating: out, as: UTF8.self) else { throw error("string is not valid UTF-8") }
        return s
    }

    private mutating func hex4() throws -> UInt32 {
        guard i + 4 <= bytes.count, let v = UInt32(String(decoding: bytes[i..<i + 4], as: UTF8.self), radix: 16) else {
            throw error("bad \\u escape")
        }
        i += 4
        return v
    }

    private mutating func number() throws -> Any {
        let start = i
        var integral = true
        if peek(UInt8(ascii: "-")) { i += 1 }
        // JSON has no leading zeros ("01"): a number starting 0 is 0, a fraction or an exponent
        if peek(UInt8(ascii: "0")), i + 1 < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[i + 1]) {
            throw error("bad number: leading zero")
        }
        func digits() -> Int {
            let s = i
            while i < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[i]) { i += 1 }
            return i - s
        }
        guard digits() > 0 else { throw error("bad number") }
        if peek(UInt8(ascii: ".")) {
            integral = false
            i += 1
            guard digits() > 0 else { throw error("bad number: no digits after '.'") }
        }
        if peek(UInt8(ascii: "e")) || peek(UInt8(ascii: "E")) {
            integral = false
            i += 1
            if peek(UInt8(ascii: "+")) || peek(UInt8(ascii: "-")) { i += 1 }
            guard digits() > 0 else { throw error("bad number: no digits in the exponent") }
        }
        let text = String(decoding: bytes[start..<i], as: UTF8.self)
        if integral, let v = Int(text) { return v }
        guard let v = Double(text) else { throw error("bad number \(text)") }
        return v
    }

    private mutating func word(_ w: String) throws {
        let n = w.utf8.count
        guard i + n <= bytes.count, bytes[i..<i + n].elementsEqual(w.utf8) else {
            throw error("unexpected word")
        }
        i += n
    }

    private func peek(_ b: UInt8) -> Bool { i < bytes.count && bytes[i] == b }

    private mutating func skipSpace() {
        while i < bytes.count, bytes[i] == 0x20 || bytes[i] == 0x0A || bytes[i] == 0x0D || bytes[i] == 0x09 { i += 1 }
    }

    private func error(_ reason: String) -> SyntaxError {
        let before = bytes[..<min(i, bytes.count)]
        let line = before.lazy.filter { $0 == 0x0A }.count + 1
        let lineStart = before.lastIndex(of: 0x0A).map { $0 + 1 } ?? 0
        return SyntaxError(line: line, column: i - lineStart + 1, reason: reason)
    }
}

/// JSON's null, where a Swift dictionary cannot hold nil.
public struct JSONNull: Sendable, Equatable {
    public init() {}
}

extension JSONValue {
    /// Parses JSON text: see `JSONReader`.
    public static func parse<Bytes: Sequence>(_ data: Bytes) throws -> Any where Bytes.Element == UInt8 {
        try JSONReader.parse(data)
    }

    /// A JSON number as a Double, however it was written (7 or 7.0); nil for anything else.
    public static func double(_ any: Any?) -> Double? {
        switch any {
        case let v as Double: return v
        case let v as Int: return Double(v)
        default: return nil
        }
    }
}
