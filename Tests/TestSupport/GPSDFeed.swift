import Foundation
import GPSInput

/// A real gpsd reading a pseudo-terminal that the test writes NMEA into (PLATFORM-NOTES §2:
/// socat pty pair + `gpsd -N -n -b`). Unlike gpsfake, nothing is fed until the test says so,
/// so a client that connected first sees every sentence.
public final class GPSDFeed: @unchecked Sendable {
    public let port: Int
    public let dir: TempDir
    private let socat: ChildProcess
    public private(set) var gpsd: ChildProcess
    private var feedFD: Int32 = -1

    public init(port: Int? = nil) throws {
        let dir = TempDir("tern-gpsd")
        self.dir = dir
        self.port = port ?? freeTCPPort()
        let socat = try ChildProcess("socat", ["pty,raw,echo=0,link=\(dir.file("gps"))", "pty,raw,echo=0,link=\(dir.file("feed"))"])
        self.socat = socat
        guard waitUntil(seconds: 5, { FileManager.default.fileExists(atPath: dir.file("feed")) && FileManager.default.fileExists(atPath: dir.file("gps")) }) else {
            socat.stop()
            throw GPSInputError.cannotStart(program: "socat", reason: "pty links did not appear")
        }
        usleep(300_000)
        gpsd = try GPSDFeed.startGPSD(port: self.port, dir: dir)
        feedFD = open(dir.file("feed"), O_WRONLY | O_NOCTTY | O_CLOEXEC)
    }

    static func startGPSD(port: Int, dir: TempDir) throws -> ChildProcess {
        let p = try ChildProcess("gpsd", ["-N", "-n", "-b", "-S", String(port), "-F", dir.file("ctl.sock"), dir.file("gps")],
                                 outputPath: dir.file("gpsd.log"))
        // listening when a connect succeeds
        _ = waitUntil(seconds: 5) { canConnect(port: port) }
        return p
    }

    /// Kills gpsd (SIGKILL, as a crash would), leaving the pty in place.
    public func killGPSD() { gpsd.signal(SIGKILL); gpsd.wait(timeout: 5) }

    /// Starts a new gpsd on the same port and device.
    public func restartGPSD() throws { gpsd = try GPSDFeed.startGPSD(port: port, dir: dir) }

    /// Writes lines (CRLF added), pausing `pause` seconds after each.
    public func feed(_ lines: [String], pause: Double = 0.002) {
        for l in lines {
            var s = l
            if !s.hasSuffix("\n") { s += "\r\n" }
            _ = s.withCString { write(feedFD, $0, strlen($0)) }
            if pause > 0 { usleep(UInt32(pause * 1_000_000)) }
        }
    }

    /// Writes raw bytes.
    public func feed(bytes: [UInt8]) {
        _ = bytes.withUnsafeBytes { write(feedFD, $0.baseAddress, $0.count) }
    }

    public var status: String { "socat \(socat.isRunning) gpsd \(gpsd.isRunning)" }
    public func stop() {
        if feedFD >= 0 { close(feedFD); feedFD = -1 }
        gpsd.stop(grace: 1)
        socat.stop(grace: 1)
        dir.remove()
    }

    deinit { stop() }

    public static func canConnect(port: Int) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_port = in_port_t(UInt16(port).bigEndian)
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        return withUnsafePointer(to: &addr) { p in
            p.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
        }
    }
}
