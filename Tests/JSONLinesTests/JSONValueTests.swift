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
}
