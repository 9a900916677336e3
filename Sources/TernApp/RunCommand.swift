import Console
import Drive
import DriveLog
import Dispatch
import FoundationEssentials
import Glibc
import Platform
import Geo
import GPSInput
import Guidance
import MapData
import Navigation
import Routing
import Search
import Speech

/// `tern run`: the appliance under systemd. gpsd in, speech and the serial console out, every
/// drive logged; commands from the console (`go LAT,LON`, `cancel`, ...). Stops on SIGTERM/SIGINT.
enum RunCommand {
    enum Input: Sendable {
        case gps(GPSInputEvent)
        /// A route computed on the worker.
        case route(NavigatorInput)
        /// What the speech thread did (its real timings go back to the navigator).
        case speech(SpeechEvent)
        case consoleLine(String)
        case control(String, ControlServer.Connection)
        case tick
        case stop
    }

    static func run(_ args: [String]) async throws -> Int32 {
        let a = try Arguments(args, valued: Set(Config.keys + ["config"]),
                              switches: [])
        var config = Config()
        let path = a.value("config") ?? "/etc/tern/tern.conf"
        if a.value("config") != nil || FileManager.default.fileExists(atPath: path) { try config.load(path) }
        for key in Config.keys {
            if let v = a.value(key) { try config.set(key, v, at: "--\(key)") }
        }
        let map: RoadMap
        do { map = try RoadMap(path: config.map) } catch { throw CommandError("\(error)") }
        let (stream, continuation) = AsyncStream.makeStream(of: Input.self)
        // (first: a second tern on the same socket stops here, before it opens a drive or speaks)
        var control: ControlServer?
        if let path = config.control {
            do {
                control = try ControlServer(path: path) { line, conn in continuation.yield(.control(line, conn)) }
            } catch let held as ControlServer.Held {
                throw CommandError("\(held)")
            } catch { printError("tern: \(error); no control socket (tern ctl will not reach this tern)") }
        }

        let recorder = try? DriveRecorder(logDirectory: config.logDirectory, waitForFix: true) { printError("tern: \($0)") }
        recorder?.syncSeconds = config.logSyncSeconds
        recorder?.retention = config.retention
        if recorder == nil { printError("tern: cannot create a drive folder in \(config.logDirectory); drives are not logged") }
        var speech: SpeechEngine?
        if config.speech != ["none"] {
            // (a card missing now is tried again every few seconds: a USB speaker plugged in later speaks)
            speech = SpeechEngine(output: .devices(config.speech), settings: config.voice) { e in
                switch e {
                case .outputUnavailable(let why): printError("tern: speech: \(why)")
                case .outputAvailable(let name): printError("tern: speech: playing on \(name)")
                default: break
                }
                continuation.yield(.speech(e))
            }
        }
        var serial: SerialConsole?
        if let dev = config.console {
            do {
                serial = try SerialConsole(path: dev, baud: config.baud) { continuation.yield(.consoleLine($0)) }
            } catch { printError("tern: \(error); status goes to standard output") }
        }
        let status: StatusSink = serial ?? StdoutStatusSink()
        var navConfig = NavigatorConfig()
        navConfig.locale = config.locale
        navConfig.continueAtWaypoints = config.continueAtWaypoints
        navConfig.offRoutePolicy = config.offRoutePolicy
        navConfig.distanceUpdateThresholdMeters = config.progressMeters
        navConfig.timeUpdateThresholdSeconds = config.progressSeconds
        navConfig.speedingMargin = config.speedingMargin
        // a language chosen brings its customary units; the built-in default is en-GB in metres
        navConfig.units = config.units ?? (config.localeChosen ? GuidanceLocale.named(config.locale)?.defaultUnits : nil) ?? .metric
        // the map's search, made once (its term table is built at open): the desk's and the status line's
        let geocoder = try? Geocoder(map: map)
        let pipeline = DrivePipeline(map: map, config: navConfig, speech: speech, status: status, recorder: recorder,
                                     routes: .worker(post: { continuation.yield(.route($0)) }), geocoder: geocoder)
        if !config.traffic.isEmpty { pipeline.traffic = config.traffic }
        if let zone = config.timeZone, let local = LocalTime.use(zone) { pipeline.timeZone = local }
        pipeline.verbosity = config.verbosity
        let desk = DestinationDesk(geocoder: geocoder, stateFile: config.stateDirectory.map { $0 + "/destinations.json" }, locale: config.locale)
        desk.onWarning = { printError("tern: \($0)") }
        if let w = desk.loadWarning { printError("tern: \(w)") }
        if let d = config.destination {
            // (the configured destination replaces a trip the state file held)
            _ = desk.handle(.go(destination: d, vias: []), pipeline: pipeline)
        } else if let resumed = desk.resume(pipeline: pipeline) {
            printError("tern: \(resumed)")
        }
        pipeline.onEvent = { [weak control] e in
            desk.observe(e, pipeline: pipeline)
            control?.broadcast(e.jsonLine())
        }

        let client = GPSDClient(options: .init(host: config.gpsdHost, port: config.gpsdPort, watchNMEA: true)) { continuation.yield(.gps($0)) }
        client.start()
        let signals = SignalWatcher { continuation.yield(.stop) }
        let ticker = Task {
            while !Task.isCancelled {
                try? await Task.sleep(for: .seconds(1))
                continuation.yield(.tick)
            }
        }
        SystemdNotifier.notify("READY=1\nSTATUS=waiting for GPS")
        // the journal's line that the unit is up (what docs/install.md tells to look for)
        printError("tern: ready: \(config.map) (\(map.edgeCount) road edges), gpsd at \(config.gpsdHost):\(config.gpsdPort), waiting for GPS")
        var clock = DriveClock()
        // the journal says how long the first fix took to become a route (issue #27: ≤ 50 ms)
        var firstFixAt: Double?, firstRouteSaid = false
        loop: for await input in stream {
            switch input {
            case .gps(let e):
                switch e {
                case .fix(let f):
                    clock.observe(driveTime: f.time, monotonic: ProcessInfo.processInfo.systemUptime)
                    if firstFixAt == nil { firstFixAt = ProcessInfo.processInfo.systemUptime }
                case .noFix(let t): clock.observe(driveTime: t, monotonic: ProcessInfo.processInfo.systemUptime)
                default: break
                }
                pipeline.handle(e)
            case .route(let answer):
                pipeline.answer(answer)
                if !firstRouteSaid, let t = firstFixAt, pipeline.navigator.route != nil {
                    firstRouteSaid = true
                    printError(String(printf: "tern: first route %.1f ms after the first fix", (ProcessInfo.processInfo.systemUptime - t) * 1000))
                }
            case .speech(let e):
                // the speaker's real timings, in drive time (not the estimate from the text's length)
                let now = clock.driveTime(monotonic: ProcessInfo.processInfo.systemUptime, wall: Date().timeIntervalSince1970)
                switch e {
                case .started(_, let audio): pipeline.answer(.speechStarted(endsAt: now + audio))
                case .spoken, .interrupted, .failed: pipeline.answer(.speechEnded(time: now))
                case .outputUnavailable, .outputAvailable: break
                }
            case .consoleLine(let line):
                for reply in handleCommand(line, pipeline: pipeline, desk: desk) { serial?.send(reply) }
            case .control(let line, let conn):
                if line.lowercased() == "watch" {
                    control?.send("ok: watching", to: conn)
                    control?.watch(conn)
                } else {
                    control?.send(handleCommand(line, pipeline: pipeline, desk: desk).joined(separator: "\n"), to: conn)
                }
            case .tick:
                SystemdNotifier.notify("WATCHDOG=1")
                // the status line and dead reckoning go on when nothing comes from gpsd
                pipeline.tick(clock.driveTime(monotonic: ProcessInfo.processInfo.systemUptime, wall: Date().timeIntervalSince1970))
            case .stop:
                break loop
            }
        }
        SystemdNotifier.notify("STOPPING=1")
        control?.stop()
        ticker.cancel()
        signals.cancel()
        client.stop()
        pipeline.drainRoutes()
        speech?.shutdown(timeout: 3)
        status.close()
        recorder?.close()
        if let losses = recorder?.losses, !losses.isEmpty { printError("tern: " + DriveRecorder.lossText(losses)) }
        return 0
    }
}

/// SIGTERM and SIGINT as events (the handler only posts, as gpsd's clients do).
final class SignalWatcher {
    private let sources: [DispatchSourceSignal]
    init(_ onSignal: @escaping @Sendable () -> Void) {
        var s = [DispatchSourceSignal]()
        for sig in [SIGTERM, SIGINT] {
            signal(sig, SIG_IGN)
            let src = DispatchSource.makeSignalSource(signal: sig, queue: .global())
            src.setEventHandler(handler: onSignal)
            src.resume()
            s.append(src)
        }
        sources = s
    }
    func cancel() { sources.forEach { $0.cancel() } }
}

/// sd_notify(3) without libsystemd: a datagram to $NOTIFY_SOCKET when systemd set it.
enum SystemdNotifier {
    static func notify(_ state: String) {
        guard let path = ProcessInfo.processInfo.environment["NOTIFY_SOCKET"], !path.isEmpty else { return }
        let fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
        guard fd >= 0 else { return }
        defer { close(fd) }
        var addr = sockaddr_un()
        addr.sun_family = sa_family_t(AF_UNIX)
        var bytes = Array(path.utf8)
        if bytes.first == UInt8(ascii: "@") { bytes[0] = 0 }  // abstract namespace
        let capacity = MemoryLayout.size(ofValue: addr.sun_path)
        guard bytes.count < capacity else { return }
        withUnsafeMutableBytes(of: &addr.sun_path) { p in p.copyBytes(from: bytes) }
        let len = socklen_t(MemoryLayout<sa_family_t>.size + bytes.count)
        _ = state.withCString { msg in
            withUnsafePointer(to: &addr) { ap in
                ap.withMemoryRebound(to: sockaddr.self, capacity: 1) { sendto(fd, msg, strlen(msg), 0, $0, len) }
            }
        }
    }
}
