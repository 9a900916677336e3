import Console
import Drive
import DriveLog
import Foundation
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
    struct Config {
        var map = "/var/lib/tern/maps/default.tmap"
        var gpsdHost = "localhost"
        var gpsdPort = "2947"
        var console: String?
        var baud = 115_200
        var speech = "default"
        var logDirectory = "/var/lib/tern/drives"
        var locale = "en-GB"
        var localeChosen = false
        /// nil: the chosen locale's own units (metric when no locale was chosen).
        var units: UnitSystem?
        var destination: Coordinate?
        /// At an intermediate stop: go on at once, or stay until `continue` on the console.
        var continueAtWaypoints = true
        /// Whose anchors decide off route: tern, mapbox or osmand.
        var offRoutePolicy = OffRoutePolicy.tern
        /// Progress events when the remaining distance changed this much or this much time passed
        /// (Google's distanceUpdateThreshold / timeUpdateThreshold).
        var progressMeters = NavigatorConfig().distanceUpdateThresholdMeters
        var progressSeconds = NavigatorConfig().timeUpdateThresholdSeconds
        /// Speeds and closures per OSM way (`WAY_ID closed|KMH` lines), from `traffic = FILE`.
        var traffic = TrafficConditions()
        /// The control socket (`tern ctl`); nil: none.
        var control: String? = "/run/tern/control"
        /// How much of a drive's log a power cut may lose, seconds (how often it is fsync'd).
        var logSyncSeconds = 2.0
        /// The zone arrival times are told in; nil: the system's (/etc/localtime, or TZ).
        var timeZone: TimeZone?
        /// Where favourites, recent destinations and the trip under way are kept; nil: nowhere.
        var stateDirectory: String? = "/var/lib/tern/state"

        /// Reads `key = value` lines (`#` comments); unknown keys and bad values are errors naming the line.
        mutating func load(_ path: String) throws {
            guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { throw CommandError("\(path): cannot read the configuration") }
            for (n, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                let line = raw.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init)?
                    .trimmingCharacters(in: .whitespaces) ?? ""
                if line.isEmpty { continue }
                let parts = line.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
                guard parts.count == 2 else { throw CommandError("\(path):\(n + 1): expected key = value") }
                try set(parts[0], parts[1], at: "\(path):\(n + 1)")
            }
        }

        mutating func set(_ key: String, _ value: String, at place: String) throws {
            switch key {
            case "map": map = value
            case "gpsd":
                let hp = value.split(separator: ":")
                gpsdHost = hp.first.map(String.init) ?? "localhost"
                if hp.count > 1 { gpsdPort = String(hp[1]) }
            case "console": console = value.isEmpty || value == "none" ? nil : value
            case "baud":
                guard let b = Int(value), SerialConsole.supportedBaudRates[b] != nil else { throw CommandError("\(place): baud \(value) is not supported") }
                baud = b
            case "speech": speech = value
            case "log-dir": logDirectory = value
            case "locale":
                do { locale = try GuidanceLocale.parse(value, setting: "locale").code } catch { throw CommandError("\(place): \(error)") }
                localeChosen = true
            case "units":
                do { units = try UnitSystem.parse(value, setting: "units") } catch { throw CommandError("\(place): \(error)") }
            case "control": control = value.isEmpty || value == "none" ? nil : value
            case "state-dir": stateDirectory = value.isEmpty || value == "none" ? nil : value
            case "log-sync":
                guard let v = Double(value), v.isFinite, v >= 0, v <= 3600 else {
                    throw CommandError("\(place): log-sync must be seconds from 0 to 3600")
                }
                logSyncSeconds = v
            case "timezone":
                guard let zone = TimeZone(identifier: value) else {
                    throw CommandError("\(place): timezone \(value) is not a zone name like Europe/Berlin (see /usr/share/zoneinfo)")
                }
                timeZone = zone
            case "traffic":
                guard let text = try? String(contentsOfFile: value, encoding: .utf8) else { throw CommandError("\(place): cannot read traffic file \(value)") }
                do { traffic = try TrafficConditions.parse(text, source: value) } catch { throw CommandError("\(error)") }
            case "waypoints":
                switch value {
                case "continue": continueAtWaypoints = true
                case "stay": continueAtWaypoints = false
                default: throw CommandError("\(place): waypoints must be continue or stay")
                }
            case "progress-meters", "progress-seconds":
                guard let v = Double(value), v.isFinite, v > 0, v <= 100_000 else {
                    throw CommandError("\(place): \(key) must be a positive number")
                }
                if key == "progress-meters" { progressMeters = v } else { progressSeconds = v }
            case "off-route":
                guard let policy = OffRoutePolicy(rawValue: value) else {
                    throw CommandError("\(place): off-route must be \(OffRoutePolicy.allCases.map(\.rawValue).joined(separator: ", "))")
                }
                offRoutePolicy = policy
            case "destination":
                guard let c = Coordinate(parsing: value) else { throw CommandError("\(place): destination must be LAT,LON") }
                destination = c
            default: throw CommandError("\(place): unknown setting `\(key)`")
            }
        }
    }

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
        let a = try Arguments(args, valued: ["config", "map", "gpsd", "console", "baud", "speech", "log-dir", "locale", "units", "destination", "waypoints", "control", "traffic", "off-route", "progress-meters", "progress-seconds", "state-dir", "timezone", "log-sync"],
                              switches: [])
        var config = Config()
        let path = a.value("config") ?? "/etc/tern/tern.conf"
        if a.value("config") != nil || FileManager.default.fileExists(atPath: path) { try config.load(path) }
        for key in ["map", "gpsd", "console", "baud", "speech", "log-dir", "locale", "units", "destination", "waypoints", "control", "traffic", "off-route", "progress-meters", "progress-seconds", "state-dir", "timezone", "log-sync"] {
            if let v = a.value(key) { try config.set(key, v, at: "--\(key)") }
        }
        let map: RoadMap
        do { map = try RoadMap(path: config.map) } catch { throw CommandError("\(error)") }
        let (stream, continuation) = AsyncStream.makeStream(of: Input.self)

        let recorder = try? DriveRecorder(logDirectory: config.logDirectory, waitForFix: true) { printError("tern: \($0)") }
        recorder?.syncSeconds = config.logSyncSeconds
        if recorder == nil { printError("tern: cannot create a drive folder in \(config.logDirectory); drives are not logged") }
        var speech: SpeechEngine?
        if config.speech != "none" {
            if let problem = SpeechEngine.deviceProblem(config.speech) {
                printError("tern: no sound card (\(config.speech): \(problem)); guidance continues without speech")
            } else {
                speech = SpeechEngine(output: .device(config.speech)) { e in
                    if case .outputUnavailable(let why) = e { printError("tern: speech: \(why)") }
                    continuation.yield(.speech(e))
                }
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
        // a language chosen brings its customary units; the built-in default is en-GB in metres
        navConfig.units = config.units ?? (config.localeChosen ? GuidanceLocale.named(config.locale)?.defaultUnits : nil) ?? .metric
        // the map's search, made once (its term table is built at open): the desk's and the status line's
        let geocoder = try? Geocoder(map: map)
        let pipeline = DrivePipeline(map: map, config: navConfig, speech: speech, status: status, recorder: recorder,
                                     routes: .worker(post: { continuation.yield(.route($0)) }), geocoder: geocoder)
        if !config.traffic.isEmpty { pipeline.traffic = config.traffic }
        if let zone = config.timeZone { pipeline.timeZone = zone }
        let desk = DestinationDesk(geocoder: geocoder, stateFile: config.stateDirectory.map { $0 + "/destinations.json" }, locale: config.locale)
        desk.onWarning = { printError("tern: \($0)") }
        if let w = desk.loadWarning { printError("tern: \(w)") }
        if let d = config.destination {
            // (the configured destination replaces a trip the state file held)
            _ = desk.handle(.go(destination: d, vias: []), pipeline: pipeline)
        } else if let resumed = desk.resume(pipeline: pipeline) {
            printError("tern: \(resumed)")
        }
        var control: ControlServer?
        if let path = config.control {
            do {
                control = try ControlServer(path: path) { line, conn in continuation.yield(.control(line, conn)) }
            } catch { printError("tern: \(error); no control socket (tern ctl will not reach this tern)") }
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
        var clock = DriveClock()
        loop: for await input in stream {
            switch input {
            case .gps(let e):
                switch e {
                case .fix(let f): clock.observe(driveTime: f.time, monotonic: ProcessInfo.processInfo.systemUptime)
                case .noFix(let t): clock.observe(driveTime: t, monotonic: ProcessInfo.processInfo.systemUptime)
                default: break
                }
                pipeline.handle(e)
            case .route(let answer):
                pipeline.answer(answer)
            case .speech(let e):
                // the speaker's real timings, in drive time (not the estimate from the text's length)
                let now = clock.driveTime(monotonic: ProcessInfo.processInfo.systemUptime, wall: Date().timeIntervalSince1970)
                switch e {
                case .started(_, let audio): pipeline.answer(.speechStarted(endsAt: now + audio))
                case .spoken, .interrupted, .failed: pipeline.answer(.speechEnded(time: now))
                case .outputUnavailable: break
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
        return 0
    }

    /// Carries out a console command; returns the reply lines (one, or a header and a list).
    static func handleCommand(_ line: String, pipeline: DrivePipeline, desk: DestinationDesk) -> [String] {
        do {
            return handle(try ConsoleCommand.parse(line), pipeline: pipeline, desk: desk)
        } catch {
            return ["error: \(error)"]
        }
    }

    static func handle(_ command: ConsoleCommand, pipeline: DrivePipeline, desk: DestinationDesk) -> [String] {
        switch command {
        case .go, .cancel, .find, .goResult, .goText, .near, .save, .home, .favourite, .recent:
            return desk.handle(command, pipeline: pipeline)
        case .via(let c):
            return ["error: `via` needs an active route with a destination; use go DEST via \(c)"]
        case .repeatPrompt:
            pipeline.repeatLastPrompt()
            return ["ok"]
        case .mute(let on):
            pipeline.muted = on
            return [on ? "ok: muted" : "ok: speaking"]
        case .volume:
            return ["error: volume is set with the sound card's mixer (alsamixer) in this version"]
        case .status:
            let progress = pipeline.navigator.progress.map {
                String(format: ", %.0f m and %.0f s remaining", $0.remainingMeters, $0.remainingSeconds)
            } ?? ""
            // the trip under way, also before the first fix of a resumed one
            let trip = desk.state.trip.map { "; going to \($0.destination.label)" } ?? ""
            return ["ok: \(pipeline.navigator.state.name)" + progress + trip]
        case .traffic(let statement):
            var t = pipeline.traffic
            if statement == "clear" { t = TrafficConditions() } else {
                do { try t.apply(statement, place: "traffic") } catch { return ["error: \(error)"] }
            }
            pipeline.traffic = t
            return ["ok: \(t.closed.count) closed, \(t.speedKmh.count) slowed"]
        case .reroute:
            guard pipeline.navigator.route != nil else { return ["error: no route to leave"] }
            pipeline.reroute()
            return ["ok: rerouting"]
        case .continueGuidance:
            guard pipeline.navigator.state == .atWaypoint else { return ["error: not stopped at a waypoint"] }
            pipeline.continueRoute()
            return ["ok: on to the next stop"]
        case .help:
            return [ConsoleCommand.helpText]
        }
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
