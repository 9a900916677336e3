import Foundation
import GPSInput
import TestSupport
import Testing

/// `replay --direct` streams its log through NMEALineReader: the lines must be exactly the ones
/// the whole-file reader gave, wherever the 64 KB blocks happen to cut them.
@Suite struct NMEALineReaderTests {
    func lines(of bytes: [UInt8]) throws -> [String] {
        let dir = TempDir("line-reader")
        let path = dir.path + "/log.nmea"
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return Array(try NMEALineReader(path: path))
    }

    @Test func linesAcrossBlocksWithCRLFAndNoLastNewline() throws {
        // lines of 1..300 bytes, so some straddle every block boundary; CR LF and LF mixed
        var bytes = [UInt8](), expected = [String]()
        var k = 0
        while bytes.count < 3 * 64 * 1024 + 500 {
            let line = "$GPTXT," + String(repeating: "x", count: k % 300)
            expected.append(line)
            bytes += Array(line.utf8) + (k % 2 == 0 ? [0x0d, 0x0a] : [0x0a])
            k += 1
        }
        bytes += Array("$GPTXT,last".utf8)
        expected.append("$GPTXT,last")
        #expect(try lines(of: bytes) == expected)
    }

    @Test func emptyLinesAndInvalidUTF8AreKept() throws {
        #expect(try lines(of: Array("a\n\n\r\nb".utf8)) == ["a", "", "", "b"])
        #expect(try lines(of: [0x24, 0xff, 0x0a]) == ["$\u{FFFD}"])
        #expect(try lines(of: []) == [])
    }

    /// `tern replay` paces gpsfake from the summary alone (it no longer holds the log): the
    /// usable fixes and the sentence lines must be counted as the whole-file reader counts them.
    @Test(.enabled(if: SharedData.isAvailable, Comment(rawValue: SharedData.missingMessage)))
    func summaryCountsAsTheWholeFileReader() throws {
        var fixes = 0, sentences = 0
        for log in SharedData.files(in: "gpsd", suffix: ".log") {
            let path = SharedData.path("gpsd/\(log)")
            let summary = try NMEAFile.summary(path: path)
            let epochs = try NMEAFile.epochs(path: path).epochs.filter(\.isUsable)
            #expect(summary.usableFixes == epochs.count, "\(log)")
            #expect(summary.first == epochs.first && summary.last == epochs.last, "\(log)")
            let sentenceLines = try NMEAFile.lines(path: path).filter { $0.hasPrefix("$") || $0.hasPrefix("!") }.count
            #expect(summary.sentenceLines == sentenceLines, "\(log)")
            fixes += summary.usableFixes
            sentences += summary.sentenceLines
        }
        #expect(fixes > 1000 && sentences > fixes)
    }

    @Test func aMissingFileIsNamed() {
        #expect(throws: GPSInputError.self) { try NMEALineReader(path: "/nonexistent/log.nmea") }
        do { _ = try NMEALineReader(path: "/nonexistent/log.nmea") } catch { #expect("\(error)".contains("/nonexistent/log.nmea")) }
    }
}
