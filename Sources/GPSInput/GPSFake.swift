import FoundationEssentials
import Glibc
import Platform

/// gpsfake (from gpsd-clients) replaying an NMEA log into its own gpsd on a free port: the
/// bench's stand-in for a receiver, with the real gpsd in the path.
public final class GPSFake: Sendable {
    /// The port its gpsd listens on.
    public let port: Int
    private let process: ChildProcess

    /// Starts gpsfake. `cycleSeconds` is gpsfake's delay between sentences (0: as fast as gpsd
    /// takes them). `once`: play the log once instead of looping. Its output goes to `outputPath`.
    public init(log: String, cycleSeconds: Double = 0, once: Bool = true, port: Int? = nil, outputPath: String? = nil) throws {
        guard FileManager.default.isReadableFile(atPath: log) else {
            throw GPSInputError.cannotRead(path: log, reason: "no such file or not readable")
        }
        guard ChildProcess.find("gpsfake") != nil else {
            throw GPSInputError.cannotStart(program: "gpsfake", reason: "not installed (Debian package gpsd-clients)")
        }
        self.port = port ?? freeTCPPort()
        var args = ["-q", "-P", String(self.port)]
        if once { args.append("-1") }
        if cycleSeconds > 0 { args += ["-c", String(printf: "%.4f", cycleSeconds)] }
        args.append(log)
        process = try ChildProcess("gpsfake", args, outputPath: outputPath)
    }

    public var isRunning: Bool { process.isRunning }

    /// Stops gpsfake and its gpsd.
    public func stop() { process.stop() }

    deinit { process.stop(grace: 0.5) }
}

/// A TCP port nothing listens on right now (bind to port 0 and read what the kernel chose).
public func freeTCPPort() -> Int {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { return 29_470 + Int(getpid() % 500) }
    defer { close(fd) }
    var addr = sockaddr_in()
    addr.sin_family = sa_family_t(AF_INET)
    addr.sin_port = 0
    addr.sin_addr.s_addr = inet_addr("127.0.0.1")
    var len = socklen_t(MemoryLayout<sockaddr_in>.size)
    let ok = withUnsafeMutablePointer(to: &addr) { p in
        p.withMemoryRebound(to: sockaddr.self, capacity: 1) { sp in
            bind(fd, sp, len) == 0 && getsockname(fd, sp, &len) == 0
        }
    }
    guard ok else { return 29_470 + Int(getpid() % 500) }
    return Int(UInt16(bigEndian: addr.sin_port))
}
