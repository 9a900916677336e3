import Foundation
import Routing
import TestSupport
import Testing
@testable import TernApp

/// Issue #29: a tern.conf saved by a Windows editor (CR LF, a byte-order mark) was read as one
/// line, and every setting in it silently ignored. Every line ending is read now, and every bad
/// key or value is named with its file and line, all at once.
@Suite struct ConfigFileTests {
    @Test func crlfAndAByteOrderMarkAreRead() throws {
        let dir = TempDir()
        defer { dir.remove() }
        let path = dir.file("tern.conf")
        try Data("\u{FEFF}# written on Windows\r\nmap = /data/de.tmap\r\nprogress-meters = 42\r\n\r\nlocale = de-DE  # German\r\n".utf8)
            .write(to: URL(fileURLWithPath: path))
        var c = RunCommand.Config()
        try c.load(path)
        #expect(c.map == "/data/de.tmap")
        #expect(c.progressMeters == 42)
        #expect(c.locale == "de")  // (de-DE is German, "de")
    }

    @Test func everyBadLineIsNamedAtOnce() throws {
        let dir = TempDir()
        defer { dir.remove() }
        let path = dir.file("tern.conf")
        try Data("map = a.tmap\r\nfly = home\r\nprogress-meters = -5\r\njust words\r\n".utf8).write(to: URL(fileURLWithPath: path))
        var c = RunCommand.Config()
        do {
            try c.load(path)
            Issue.record("a bad configuration was accepted")
        } catch {
            let lines = "\(error)".split(separator: "\n").map(String.init)
            #expect(lines.count == 3, "\(error)")
            #expect(lines.first == "\(path):2: unknown setting `fly`")
            #expect(lines.dropFirst().first?.hasPrefix("\(path):3: progress-meters must be a positive number") == true, "\(lines)")
            #expect(lines.last == "\(path):4: expected key = value, got `just words`")
        }
    }

    @Test func aTrafficFileWithCRLF() throws {
        let t = try TrafficConditions.parse("\u{FEFF}123 closed\r\n# a comment\r\n456 30\r\n", source: "traffic.txt")
        #expect(t.closed == [123])
        #expect(t.speedKmh[456] == 30)
        #expect(throws: TrafficError.self) { try TrafficConditions.parse("1 closed\r\n2 fast\r\n", source: "t") }
        do { _ = try TrafficConditions.parse("1 closed\r\n2 fast\r\n", source: "t") } catch { #expect("\(error)".hasPrefix("t:2:"), "\(error)") }
    }
}
