import Foundation
import TestSupport
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

    /// Runs a tool, stdout and stderr together (a few kB at most here).
    static func runTool(_ tool: String, _ arguments: [String], environment: [String: String]? = nil) throws -> (status: Int32, output: String) {
        try Tool.run(tool, arguments, environment: environment)
    }

    static let systemdAnalyze = "/usr/bin/systemd-analyze"

    /// systemd's own rating of the unit's sandbox (0 locked down ... 10 exposed) stays at most 3.0:
    /// `--threshold=30` (tenths, systemd 250+) makes it exit 1 above that (the unit before the
    /// sandbox rated 8.5).
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: DeployFilesTests.systemdAnalyze),
                   "/usr/bin/systemd-analyze is absent (Debian package systemd): skipped"))
    func unitIsSandboxed() throws {
        let unit = Self.deploy.appendingPathComponent("tern.service").path
        let r = try Self.runTool(Self.systemdAnalyze, ["--no-pager", "security", "--offline=yes", "--threshold=30", unit])
        let overall = r.output.split(separator: "\n").first { $0.contains("Overall exposure level") }.map(String.init)
        #expect(r.status == 0, "\(overall ?? r.output)")
        #expect(overall != nil, "\(r.output)")
    }

    static let aplay = "/usr/bin/aplay"
    static var alsaIsThere: Bool {
        FileManager.default.isExecutableFile(atPath: aplay) && FileManager.default.fileExists(atPath: "/usr/share/alsa/alsa.conf")
    }

    /// alsa-lib itself reads deploy/asound.conf: every PCM that tern.conf's `speech =` lists is
    /// defined there and goes to the card it is meant for. Without that card (here: none at all)
    /// opening it fails while looking for exactly that card, not with "Unknown PCM"; where the
    /// card is there, aplay plays /dev/null on it (nothing).
    @Test(.enabled(if: DeployFilesTests.alsaIsThere,
                   "aplay or /usr/share/alsa/alsa.conf is absent (Debian packages alsa-utils, libasound2): skipped"))
    func speechListIsDefinedInAsoundConf() throws {
        var env = ProcessInfo.processInfo.environment
        // the system's configuration, then the file install.sh puts in /etc; no ~/.asoundrc
        env["ALSA_CONFIG_PATH"] = "/usr/share/alsa/alsa.conf:" + Self.deploy.appendingPathComponent("asound.conf").path
        env["HOME"] = "/nonexistent"
        env["XDG_CONFIG_HOME"] = "/nonexistent"

        let conf = try lines("tern.conf")
        let speech = try #require(conf.first(where: { $0.hasPrefix("speech =") }))
        let names = speech.dropFirst("speech =".count).split(separator: " ").map(String.init)
        let cards = ["tern_usb": "Device", "tern_jack": "Headphones", "tern_hdmi": "vc4hdmi0", "tern_hdmi_pi3": "vc4hdmi"]
        #expect(names == ["tern_usb", "tern_jack", "tern_hdmi", "tern_hdmi_pi3"])

        let listed = try Self.runTool(Self.aplay, ["-L"], environment: env)
        #expect(listed.status == 0, "\(listed.output)")
        let pcms = Set(listed.output.split(separator: "\n").filter { !$0.hasPrefix(" ") }.map(String.init))
        let play = ["-q", "-t", "raw", "-f", "S16_LE", "-r", "22050", "-c", "1", "/dev/null"]
        for name in names {
            #expect(pcms.contains(name), "aplay -L does not list \(name)")
            let card = try #require(cards[name])
            let r = try Self.runTool(Self.aplay, ["-D", name] + play, environment: env)
            // "Cannot get card index for Device" (hw) or "cannot find card 'vc4hdmi0'" (the card's own chain)
            let lookedForCard = r.output.contains("card index for \(card)\n") || r.output.contains("card '\(card)'")
            #expect(r.status == 0 || (lookedForCard && !r.output.contains("Unknown PCM \(name)\n")), "\(name): \(r.output)")
        }
        // and a name asound.conf does not define is told apart
        let unknown = try Self.runTool(Self.aplay, ["-D", "tern_nowhere"] + play, environment: env)
        #expect(unknown.status != 0 && unknown.output.contains("Unknown PCM tern_nowhere"), "\(unknown.output)")
    }
}
