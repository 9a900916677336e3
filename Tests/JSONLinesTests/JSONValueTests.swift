import Foundation
import JSONLines
import Testing

@Suite struct JSONValueTests {
    @Test func keepsKeyOrderAndFormatsNumbersStably() {
        let v = JSONValue.object([("t", .string("x")), ("b", .num(1.5000, 3)), ("a", .num(2, 3)), ("n", .null), ("z", .num(-0.00001, 2))])
        #expect(v.serialized() == #"{"t":"x","b":1.5,"a":2,"n":null,"z":0}"#)
    }

    @Test func escapesStrings() throws {
        let v = JSONValue.object([("s", .string("a\"b\\c\nd\u{1}é"))])
        let text = v.serialized()
        #expect(text == #"{"s":"a\"b\\c\nd\u0001é"}"#)
        let parsed = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: String]
        #expect(parsed?["s"] == "a\"b\\c\nd\u{1}é")
    }

    @Test func nonFiniteNumbersBecomeNull() {
        #expect(JSONValue.array([.num(.nan), .num(.infinity), .int(3), .bool(true)]).serialized() == "[null,null,3,true]")
    }

    /// Numbers are written without Foundation's formatter, and must read exactly as it would
    /// have written them: "%.Nf" with the trailing zeros dropped, halves rounded as printf does
    /// (to even on the exact binary value), "-0" as "0".
    @Test func numbersReadAsPrintfWouldWriteThem() {
        func printf(_ v: Double, _ digits: Int) -> String {
            var s = String(format: "%.\(digits)f", v)
            while s.hasSuffix("0") { s.removeLast() }
            if s.hasSuffix(".") { s.removeLast() }
            return s == "-0" ? "0" : s
        }
        var rng = SystemRandomNumberGenerator()
        var values: [Double] = [0.125, 0.375, 2.5, -0.5, 0.285, 1.005, 49.4123455, -0.0000001, 8.6999999999, 1e14 + 0.5, 123456.7890125]
        for _ in 0..<20_000 {
            let magnitude = Double.random(in: -3...9, using: &rng)
            values.append((Bool.random(using: &rng) ? -1 : 1) * pow(10, magnitude) * Double.random(in: 1...10, using: &rng))
        }
        // coordinates and times as the log has them
        for _ in 0..<5_000 { values.append(Double.random(in: 40...55, using: &rng)) }
        var mismatches = [String]()
        for v in values {
            for d in 1...7 {
                let written = JSONValue.num(v, d).serialized()
                if written != printf(v, d) { mismatches.append("\(v) to \(d): \(written) vs \(printf(v, d))") }
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches.prefix(5))")
    }

    /// The drive log writes its lines field by field into one buffer: commas only between the
    /// members of a container, none after a key, none across a line's end.
    @Test func aWriterPutsCommasOnlyBetweenMembers() {
        var w = JSONWriter()
        w.beginObject()
        w.key("a"); w.beginArray(); w.int(1); w.beginObject(); w.key("x"); w.null(); w.endObject(); w.beginArray(); w.endArray(); w.endArray()
        w.key("b"); w.number(nil, digits: 1)
        w.key("c"); w.string(nil)
        w.endObject()
        w.newline()
        w.beginObject(); w.key("d"); w.bool(false); w.endObject()
        w.newline()
        #expect(w.text == "{\"a\":[1,{\"x\":null},[]],\"b\":null,\"c\":null}\n{\"d\":false}\n")
        let nested = JSONValue.object([("o", .object([("p", .array([.int(-1), .object([])]))])), ("q", .string(""))])
        #expect(nested.serialized() == #"{"o":{"p":[-1,{}]},"q":""}"#)
    }

    /// Numbers that do not fit a machine integer are written as the formatter writes them, never
    /// converted: the fields written without decimals (a remaining distance, a speed limit, a
    /// delay) went through `Int(_:)`, which traps on 1e19 (issue #29 lists such traps).
    @Test func hugeNumbersAreWrittenNotTrapped() {
        #expect(JSONValue.num(1e20, 0).serialized() == "100000000000000000000")
        #expect(JSONValue.num(-1e300, 0).serialized().hasPrefix("-1000000000"))
        #expect(JSONValue.num(2.5e15, 2).serialized() == "2500000000000000")
        #expect(JSONValue.num(-0.4, 0).serialized() == "0")
        #expect(JSONValue.int(Int.min).serialized() == String(Int.min))
    }
}
