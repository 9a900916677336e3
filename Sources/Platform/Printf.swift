import Glibc

/// printf-style formatting without Foundation: `String(printf: "%.1f km", d)`.
///
/// Why not `String(format:)`: it lives in Foundation, whose ICU data costs the appliance about
/// 10 MB of memory (issue #27). Each conversion is handed to the C library's `vsnprintf` with one
/// argument, so the text is exactly C's (the "C" numeric locale: Tern never calls setlocale, and
/// locale-dependent text comes from its own tables). `%@` and `%s` take any value and print its
/// description, so a Swift String needs no cast. An argument of the wrong kind is converted
/// (an Int for `%f`, a Double for `%d`) rather than read as garbage as C would.
extension String {
    public init(printf format: String, _ args: Any...) {
        self = Printf.format(format, args)
    }
}

enum Printf {
    static func format(_ format: String, _ args: [Any]) -> String {
        var out = ""
        var next = 0
        let chars = Array(format.utf8)
        var i = 0
        var literalStart = 0
        func flushLiteral(_ end: Int) {
            if end > literalStart { out += String(decoding: chars[literalStart..<end], as: UTF8.self) }
        }
        while i < chars.count {
            guard chars[i] == UInt8(ascii: "%") else { i += 1; continue }
            flushLiteral(i)
            // %[flags][width][.precision][length]conversion
            var j = i + 1
            while j < chars.count, "-+ 0#".utf8.contains(chars[j]) { j += 1 }
            while j < chars.count, chars[j] >= 48, chars[j] <= 57 { j += 1 }
            if j < chars.count, chars[j] == UInt8(ascii: ".") {
                j += 1
                while j < chars.count, chars[j] >= 48, chars[j] <= 57 { j += 1 }
            }
            while j < chars.count, "hlLqjzt".utf8.contains(chars[j]) { j += 1 }
            guard j < chars.count else { literalStart = i; break }
            let conversion = chars[j]
            // the spec without its length modifier, which is chosen below from the argument
            var spec = Array(chars[i..<j])
            while let last = spec.last, "hlLqjzt".utf8.contains(last) { spec.removeLast() }
            let arg: Any? = next < args.count ? args[next] : nil
            switch conversion {
            case UInt8(ascii: "%"):
                out += "%"
            case UInt8(ascii: "@"), UInt8(ascii: "s"):
                next += 1
                out += padded(arg.map { "\($0)" } ?? "", spec: spec)
            case UInt8(ascii: "d"), UInt8(ascii: "i"), UInt8(ascii: "u"), UInt8(ascii: "x"), UInt8(ascii: "X"),
                 UInt8(ascii: "o"), UInt8(ascii: "c"):
                next += 1
                let c = conversion == UInt8(ascii: "i") ? UInt8(ascii: "d") : conversion
                out += cFormat(spec + Array("l".utf8) + [c], integer(arg))
            case UInt8(ascii: "f"), UInt8(ascii: "F"), UInt8(ascii: "e"), UInt8(ascii: "E"), UInt8(ascii: "g"),
                 UInt8(ascii: "G"), UInt8(ascii: "a"), UInt8(ascii: "A"):
                next += 1
                out += cFormat(spec + [conversion], real(arg))
            default:
                // not a conversion: keep the text as written
                out += String(decoding: chars[i...j], as: UTF8.self)
            }
            i = j + 1
            literalStart = i
        }
        flushLiteral(chars.count)
        return out
    }

    private static func integer(_ arg: Any?) -> Int {
        switch arg {
        case let v as Int: return v
        case let v as any BinaryInteger: return Int(truncatingIfNeeded: v)
        case let v as Double: return Int(exactly: v.rounded(.towardZero)) ?? 0
        case let v as Float: return Int(exactly: v.rounded(.towardZero)) ?? 0
        case let v as Bool: return v ? 1 : 0
        default: return 0
        }
    }

    private static func real(_ arg: Any?) -> Double {
        switch arg {
        case let v as Double: return v
        case let v as Float: return Double(v)
        case let v as any BinaryInteger: return Double(v)
        default: return .nan
        }
    }

    /// `%-15@`, `%8s`, `%.3s`: width, left alignment and precision for text, counted in characters.
    private static func padded(_ text: String, spec: [UInt8]) -> String {
        let s = String(decoding: spec.dropFirst(), as: UTF8.self)
        let left = s.contains("-")
        let parts = s.split(separator: ".", omittingEmptySubsequences: false)
        let width = Int(parts[0].filter(\.isNumber).drop { $0 == "0" }) ?? 0
        var t = text
        if parts.count > 1, let p = Int(parts[1]), t.count > p { t = String(t.prefix(p)) }
        let pad = String(repeating: " ", count: max(0, width - t.count))
        return left ? t + pad : pad + t
    }

    private static func cFormat(_ spec: [UInt8], _ arg: CVarArg) -> String {
        let fmt = spec.map { CChar(bitPattern: $0) } + [0]
        var buf = [CChar](repeating: 0, count: 64)
        var n = withVaList([arg]) { vsnprintf(&buf, buf.count, fmt, $0) }
        if n >= Int32(buf.count) {
            buf = [CChar](repeating: 0, count: Int(n) + 1)
            n = withVaList([arg]) { vsnprintf(&buf, buf.count, fmt, $0) }
        }
        guard n > 0 else { return "" }
        return String(decoding: buf[0..<Int(n)].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
