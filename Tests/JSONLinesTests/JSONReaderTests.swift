import Foundation
import JSONLines
import TestSupport
import Testing

/// Tern's JSON reader (no Foundation in the appliance, issue #27) must read what
/// JSONSerialization read, and refuse what it refused, naming the line and column.
@Suite struct JSONReaderTests {
    /// Compares a JSONReader tree with a JSONSerialization tree; nil when equal, else where they differ.
    static func difference(_ mine: Any, _ theirs: Any, at path: String = "$") -> String? {
        switch (mine, theirs) {
        case (let a as [String: Any], let b as [String: Any]):
            guard Set(a.keys) == Set(b.keys) else { return "\(path): keys \(a.keys.sorted()) vs \(b.keys.sorted())" }
            for k in a.keys { if let d = difference(a[k]!, b[k]!, at: path + "." + k) { return d } }
            return nil
        case (let a as [Any], let b as [Any]):
            guard a.count == b.count else { return "\(path): \(a.count) vs \(b.count) items" }
            for (i, (x, y)) in zip(a, b).enumerated() { if let d = difference(x, y, at: "\(path)[\(i)]") { return d } }
            return nil
        case (let a as String, let b as String):
            return a == b ? nil : "\(path): \(a) vs \(b)"
        case (is JSONNull, is NSNull):
            return nil
        case (let a as Bool, let b as NSNumber):
            return a == b.boolValue ? nil : "\(path): \(a) vs \(b)"
        case (let a, let b as NSNumber):
            guard let v = JSONValue.double(a) else { return "\(path): \(a) is not a number" }
            // Foundation's parser is off by an ulp on some inputs ("40.599999999999994"); Swift's
            // Double(text), which JSONReader uses, rounds correctly
            return abs(v - b.doubleValue) <= 1e-13 * max(1, abs(v)) ? nil : "\(path): \(v) vs \(b.doubleValue)"
        default:
            return "\(path): \(type(of: mine)) vs \(type(of: theirs))"
        }
    }

    static let samples = [
        #"{"a": 1, "b": [true, false, null], "c": "x\"y\\z\/\n\t\u00e9\ud83d\ude97", "d": -0.5e3, "e": {}}"#,
        #"[1, 2.0, -3, 1e2, 1E-2, 12345678901234567890, 0.1, 49.409312]"#,
        #"  "fragment"  "#, "42", "true", "null", #"{"nested": {"deeper": [[[{"k": [1]}]]]}}"#,
        #"{"dup": 1, "dup": 2}"#,
    ]

    @Test(arguments: samples) func readsAsJSONSerialization(text: String) throws {
        let mine = try JSONReader.parse(text)
        let theirs = try JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed])
        #expect(Self.difference(mine, theirs) == nil)
    }

    @Test(.enabled(if: SharedData.isAvailable, Comment(rawValue: SharedData.missingMessage)))
    func readsEverySharedJSONFileAsJSONSerialization() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: SharedData.path("bench")).filter { $0.hasSuffix(".json") }
        #expect(files.count >= 8)
        for f in files {
            let data = try Data(contentsOf: URL(fileURLWithPath: SharedData.path("bench/" + f)))
            let mine = try JSONReader.parse(data)
            let theirs = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
            #expect(Self.difference(mine, theirs) == nil, "\(f)")
        }
    }

    static let malformed: [(String, String)] = [
        ("{\"a\": 1,}", "line 1, column 9"), ("[1 2]", "line 1, column 4"), ("{\n  \"a\": tru\n}", "line 2, column 8"),
        ("\"open", "unterminated string"), ("01", "leading zero"), ("1.", "no digits after"), ("-", "bad number"),
        ("\"\\ud83d\"", "lone surrogate"), ("[1] x", "text after the end"), ("", "unexpected end"), ("\"a\u{01}\"", "control character"),
        ("{\"k\" 1}", "expected ':'"), (String(repeating: "[", count: 300) + String(repeating: "]", count: 300), "nested deeper"),
    ]

    @Test(arguments: malformed) func malformedIsRefusedWithThePlace(text: String, reason: String) {
        #expect(throws: JSONReader.SyntaxError.self) { try JSONReader.parse(text) }
        do { _ = try JSONReader.parse(text) } catch { #expect("\(error)".contains(reason), "\(error)") }
        // and Foundation refused it too (it allows deeper nesting, which Tern need not, and a
        // trailing comma, which JSON does not)
        if !reason.contains("nested") && !text.hasSuffix(",}") {
            #expect(throws: (any Error).self) { try JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed]) }
        }
    }

    @Test func numbersKeepTheirKind() throws {
        let o = try #require(try JSONReader.parse(#"{"version": 3, "lat": 49, "lon": 8.5}"#) as? [String: Any])
        #expect(o["version"] as? Int == 3)
        #expect(JSONValue.double(o["lat"]) == 49)
        #expect(JSONValue.double(o["lon"]) == 8.5)
        #expect(JSONValue.double(o["missing"]) == nil)
    }
}
