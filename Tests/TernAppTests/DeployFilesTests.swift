import Foundation
import Testing

/// What deploy/ installs on a Pi: a receiver is named by what only a receiver has, and the
/// console is the UART every Pi has on GPIO 14/15.
@Suite struct DeployFilesTests {
    static let deploy = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../deploy").standardized

    func lines(_ file: String) throws -> [String] {
        try String(contentsOf: Self.deploy.appendingPathComponent(file), encoding: .utf8).split(separator: "\n").map(String.init)
            .filter { !$0.hasPrefix("#") && !$0.trimmingCharacters(in: .whitespaces).isEmpty }
    }

    @Test func gnssNameGoesToReceiversOnly() throws {
        let naming = try lines("99-tern.rules").filter { $0.contains("SYMLINK+=\"gnss0\"") }
        #expect(!naming.isEmpty)
        for rule in naming {
            // u-blox's vendor id, or a bridge pinned by the receiver's own serial number
            #expect(rule.contains(#"ATTRS{idVendor}=="1546""#) || rule.contains("ATTRS{serial}"), "\(rule)")
        }
    }

    @Test func consoleIsSerial0() throws {
        #expect(try lines("tern.conf").contains { $0.hasPrefix("console = /dev/serial0") })
    }
}
