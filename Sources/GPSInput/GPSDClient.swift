import CGPS
import FoundationEssentials
import Glibc
import Platform
import Geo
import Synchronization

/// Reads fixes from gpsd through libgps on a dedicated thread, and reconnects with backoff
/// whenever gpsd goes away (closes, reopens and re-sends the watch, as gpsd's client howto says).
///
/// Events reach `handler` on the reader thread, in order: `connected`, `nmea` lines (when asked
/// for), one `fix` per epoch, `disconnected` when gpsd is lost.
public final class GPSDClient: Sendable {
    public struct Options: Sendable {
        public var host = "localhost"
        public var port = "2947"
        /// Also ask gpsd for the raw NMEA it receives (for the drive log).
        public var watchNMEA = false
        /// Backoff between connection attempts: first and longest wait, seconds.
        public var initialBackoffSeconds = 0.1
        public var maximumBackoffSeconds = 0.5
        /// gpsd may still be starting (at boot, or gpsfake's own on the bench): until it has been
        /// reached once, and for this long, a refused connection is "waiting for gpsd", not an error.
        public var startupGraceSeconds = 10.0
        public init(host: String = "localhost", port: String = "2947", watchNMEA: Bool = false) {
            self.host = host
            self.port = port
            self.watchNMEA = watchNMEA
        }
    }

    private let options: Options
    private let handler: @Sendable (GPSInputEvent) -> Void
    private let running = Atomic<Bool>(false)
    private let finished = Locked<Bool>(false)

    public init(options: Options, handler: @escaping @Sendable (GPSInputEvent) -> Void) {
        self.options = options
        self.handler = handler
    }

    deinit { stop() }

    /// Starts the reader thread (once).
    public func start() {
        guard !running.exchange(true, ordering: .acquiringAndReleasing) else { return }
        finished.withLock { $0 = false }
        Threads.start(name: "tern.gpsd") { [self] in
            run()
            finished.withLock { $0 = true }
        }
    }

    /// Stops the reader thread and waits (up to 2 s) for it to close its session.
    public func stop() {
        guard running.exchange(false, ordering: .acquiringAndReleasing) else { return }
        let deadline = Date().addingTimeInterval(2)
        while !finished.withLock({ $0 }) && Date() < deadline { usleep(5_000) }
    }

    private var isRunning: Bool { running.load(ordering: .acquiring) }

    /// Sleeps in small steps so that stop() is honoured quickly.
    private func pause(_ seconds: Double) {
        let deadline = Date().addingTimeInterval(seconds)
        while isRunning && Date() < deadline { usleep(20_000) }
    }

    private func run() {
        let data = UnsafeMutablePointer<gps_data_t>.allocate(capacity: 1)
        data.initialize(to: gps_data_t())
        defer { data.deinitialize(count: 1); data.deallocate() }
        var buffer = [CChar](repeating: 0, count: 8192)
        var backoff = options.initialBackoffSeconds
        var reportedFailure = false, reportedWaiting = false, everConnected = false
        var lastEpoch = -Double.infinity
        let started = ProcessInfo.processInfo.systemUptime

        while isRunning {
            CGPS_clear_errno()
            if gps_open(options.host, options.port, data) != 0 {
                let starting = !everConnected && ProcessInfo.processInfo.systemUptime - started < options.startupGraceSeconds
                if starting, !reportedWaiting {
                    handler(.disconnected("waiting for gpsd at \(options.host):\(options.port) …"))
                    reportedWaiting = true
                } else if !starting, !reportedFailure {
                    handler(.disconnected("cannot connect to gpsd at \(options.host):\(options.port): \(String(cString: gps_errstr(CGPS_errno())))"))
                    reportedFailure = true
                }
                pause(backoff)
                backoff = min(options.maximumBackoffSeconds, backoff * 2)
                continue
            }
            var flags = UInt32(WATCH_ENABLE | WATCH_JSON)
            if options.watchNMEA { flags |= UInt32(WATCH_NMEA) }
            gps_stream(data, flags, nil)
            backoff = options.initialBackoffSeconds
            reportedFailure = false
            everConnected = true
            handler(.connected("\(options.host):\(options.port)"))
            var reason = "stopped"
            while isRunning {
                CGPS_clear_errno()
                guard gps_waiting(data, 500_000) else {
                    if CGPS_errno() != 0 { reason = "gpsd connection error: \(String(cString: strerror(CGPS_errno())))"; break }
                    continue
                }
                data.pointee.set = 0
                let n = buffer.withUnsafeMutableBufferPointer { gps_read(data, $0.baseAddress, Int32($0.count)) }
                if n < 0 {
                    reason = "gpsd closed the connection"
                    break
                }
                if n == 0 { continue }
                let message = buffer.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
                handle(message: message, data: data, lastEpoch: &lastEpoch)
            }
            gps_close(data)
            if isRunning { handler(.disconnected(reason)) }
        }
    }

    private func handle(message: String, data: UnsafeMutablePointer<gps_data_t>, lastEpoch: inout Double) {
        for line in message.split(whereSeparator: \.isNewline) {
            if line.first == "$" || line.first == "!" { handler(.nmea(String(line))) }
        }
        guard message.contains("\"class\":\"TPV\"") else { return }
        let d = data.pointee
        let receiverTime = CGPS_fix_time(data)
        guard d.set & LATLON_SET != 0, d.fix.mode >= MODE_2D, d.fix.latitude.isFinite, d.fix.longitude.isFinite else {
            // no fix, but the receiver's clock runs: an outage epoch (dead reckoning goes on)
            if d.set & TIME_SET != 0, receiverTime.isFinite, d.set & MODE_SET != 0, d.fix.mode <= MODE_NO_FIX,
               abs(receiverTime - lastEpoch) >= 0.0005, receiverTime > lastEpoch {
                lastEpoch = receiverTime
                handler(.noFix(time: receiverTime))
            }
            return
        }
        // A TPV without time is a partial epoch (a GGA before the RMC that dates it): its time
        // follows in the next report. Fixes without receiver time cannot be ordered or replayed
        // deterministically, so they are not used.
        guard d.set & TIME_SET != 0, receiverTime.isFinite else { return }
        // gpsd sends one TPV per sentence until it learns the cycle end: keep the first of an epoch
        if abs(receiverTime - lastEpoch) < 0.0005 { return }
        lastEpoch = receiverTime
        func finite(_ v: Double) -> Double? { v.isFinite ? v : nil }
        let fix = GPSFix(
            time: receiverTime, timeFromReceiver: true,
            coordinate: Coordinate(latitude: d.fix.latitude, longitude: d.fix.longitude),
            mode: FixMode(rawValue: Int(d.fix.mode)) ?? .twoD,
            speedMetersPerSecond: finite(d.fix.speed), courseDegrees: finite(d.fix.track),
            altitudeMeters: finite(d.fix.altMSL), horizontalErrorMeters: finite(d.fix.eph),
            speedErrorMetersPerSecond: finite(d.fix.eps), courseErrorDegrees: finite(d.fix.epd))
        if fix.isUsable { handler(.fix(fix)) }
    }
}
