import Foundation
import Platform
import Testing

/// `String(printf:)` must print what Foundation's `String(format:)` printed, which Tern's status
/// line, logs and reports were written with before issue #27 took Foundation out.
@Suite struct PrintfTests {
    static let numbers: [Double] = [0, -0.0, 0.05, 0.15, 1.25, 2.5, -3.75, 12.345678, 49.4093, 8.6946, 1e-7, 123456789.125,
                                    -0.0004, 99.95, 1e21, .infinity, -.infinity, .nan]

    @Test(arguments: ["%.0f", "%.1f", "%.2f", "%.6f", "%8.1f", "%-8.1f|", "%.3g", "%g", "%e", "%+.1f", "%08.2f"])
    func realsAsFoundation(format: String) {
        for v in Self.numbers {
            #expect(String(printf: format, v) == String(format: format, v), "\(format) of \(v)")
        }
    }

    @Test(arguments: ["%d", "%02d", "%04d", "%5d|", "%-5d|", "%x", "%02X", "%+d"])
    func integersAsFoundation(format: String) {
        // (hex of a negative number is C's two's complement at the argument's width; Tern prints
        // only checksums, 0...255, in hex)
        for v in [0, 1, -1, 7, 42, 255, 1000, Int(Int32.max)] where v >= 0 || !format.lowercased().contains("x") {
            #expect(String(printf: format, v) == String(format: format, v), "\(format) of \(v)")
        }
    }

    @Test func textAndMixedAsFoundation() {
        let name = "Hauptstraße"
        #expect(String(printf: "%@: %d fixes, %.1f km (%@)", name, 12, 3.456, "ok")
            == String(format: "%@: %d fixes, %.1f km (%@)", name as NSString, 12, 3.456, "ok" as NSString))
        // where Foundation differed, String(printf:) does what the format asks: Foundation ignored
        // the width of %@ (the bench table's columns were ragged) and cut %d to 32 bits
        #expect(String(printf: "%-15@|%8.1f", "heidelberg", 2.25) == "heidelberg     |     2.2")
        #expect(String(format: "%-15@|", "heidelberg" as NSString) == "heidelberg|")
        #expect(String(printf: "%d", 1 << 40) == "1099511627776")
        #expect(String(printf: "100%% done, *%02X", 0x4F) == "100% done, *4F")
        #expect(String(printf: "\\u%04x", 0xE9) == "\\u00e9")
        #expect(String(printf: "%-8@|", "1.2 km") == "1.2 km  |")
    }

    @Test func missingOrWrongArgumentsDoNotCrash() {
        #expect(String(printf: "%d and %d", 1) == "1 and 0")
        #expect(String(printf: "%.1f", 3) == "3.0")
        #expect(String(printf: "%d", 2.9) == "2")
        #expect(String(printf: "trailing %") == "trailing %")
        #expect(String(printf: "%q") == "%q")
    }

    @Test func longOutputIsWhole() {
        let s = String(printf: "%.200f", 1.0)
        #expect(s.count == 202 && s.hasPrefix("1.000"))
    }
}
