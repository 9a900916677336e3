import Foundation
@testable import GPSInput
import Testing

/// The fields of a sentence are read on their bytes (`NMEAParser.number`), and must read as
/// `Double(_:)` reads them: the same double, and nil where it gives nil.
@Suite struct NMEAFieldsTests {
    @Test func numbersReadAsDoubleReadsThem() {
        var rng = SystemRandomNumberGenerator()
        var texts = ["", "-", "+", ".", "5.", ".5", "-0", "+7.25", "1.2.3", "12a", " 12", "1e5", "inf", "nan", "-.5",
                     "0000.5", "4807.038", "01131.000", "123519", "999999999999999", "9999999999999999", "0.000000000000001",
                     "-0.0", "00", "1,5", "--1"]
        for _ in 0..<30_000 {
            // as receivers write them: degrees and minutes, times, speeds, with 0–9 decimals
            let whole = String(UInt64.random(in: 0...99_999_999, using: &rng))
            let decimals = Int.random(in: 0...9, using: &rng)
            let fraction = String((0..<decimals).map { _ in Character(String(Int.random(in: 0...9, using: &rng))) })
            let sign = ["", "", "-", "+"].randomElement(using: &rng)!
            texts.append(sign + whole + (decimals > 0 ? "." + fraction : ""))
        }
        var mismatches = [String]()
        for t in texts {
            let mine = NMEAParser.number(Substring(t)), theirs = Double(t)
            let same = (mine == nil && theirs == nil) || (mine.map { m in theirs.map { m.bitPattern == $0.bitPattern || (m.isNaN && $0.isNaN) } ?? false } ?? false)
            if !same { mismatches.append("\"\(t)\": \(String(describing: mine)) vs \(String(describing: theirs))") }
        }
        #expect(mismatches.isEmpty, "\(mismatches.prefix(5))")
    }

    @Test func timesAndDegreesAreReadFromTheirDigits() {
        let noon: Double = 12 * 3600 + 35 * 60 + 19.25
        #expect(NMEAParser.timeOfDay("123519.25") == noon)
        #expect(NMEAParser.timeOfDay("2400000") == nil)
        #expect(NMEAParser.timeOfDay("1235") == nil)
        let lat: Double = 48 + 7.038 / 60, lon: Double = 11 + 31.0 / 60
        #expect(NMEAParser.degrees("4807.038", 2) == lat)
        #expect(NMEAParser.degrees("01131.000", 3) == lon)
        #expect(NMEAParser.degrees("4860.5", 2) == nil)
        let west = NMEAParser.coordinate("4807.038", "N", "01131.000", "W")?.longitude
        #expect(west == -lon)
    }

    /// A field that reads as a number but not as a time or an angle ("-inf" does) is no time:
    /// a time of day of -inf trapped when the fix's time was made from it.
    @Test func nonFiniteOrNegativeFieldsAreNoTimeNorAngle() {
        #expect(NMEAParser.timeOfDay("1200-inf") == nil)
        #expect(NMEAParser.timeOfDay("1200-1e30") == nil)
        #expect(NMEAParser.timeOfDay("-10000.00") == nil)
        #expect(NMEAParser.degrees("48-inf", 2) == nil)
        #expect(NMEAParser.degrees("48-7.5", 2) == nil)
        let lines = ["$GPRMC,1200-inf,A,4807.038,N,01131.000,E,,,230394,,", "$GPRMC,120000.00,A,4807.038,N,01131.000,E,,,230394,,"]
        let (fixes, stats) = NMEAFile.parse(Data(lines.joined(separator: "\n").utf8))
        #expect(fixes.count == 1 && stats.malformed == 1, "\(fixes.count) fixes, \(stats)")
    }
}
