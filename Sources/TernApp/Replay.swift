import Console
import DriveLog
import FoundationEssentials
import Glibc
import Platform
import Geo
import GPSInput
import MapData
import Navigation
import Search
import Speech

/// How a replay runs.
struct ReplayOptions {
    var log: String
    var mapPath: String
    /// Vias, then the destination.
    var waypoints: [Coordinate]
    /// Speed-up against the log's own time (1 = real time).
    var rate = 1.0
    var logDirectory = "drives"
    /// Skip gpsfake and gpsd: read the log directly.
    var direct = false
    /// Where prompts are spoken; nil = muted.
    var speech: SpeechOutput? = .device("default")
    /// When the speech device cannot be opened, write prompts to `prompts.wav` in the drive folder.
    var fallbackToWAV = true
    var console: String?
    var baud = 115_200
    var quiet = false
    var locale = "en-GB"
    var units: Guidance.UnitSystem = .metric
    var offRoutePolicy: OffRoutePolicy = .tern
}

/// What a replay did.
struct ReplayResult {
    var folder: String
    var fixes = 0
    var events = 0
    var arrived = false
    var seconds = 0.0
    var speechNote: String?
    var wav: String?
    var prompts = 0
    /// Per reroute: wall-clock milliseconds from the off-route detection to the first prompt of
    /// the new route being queued for speech.
    var rerouteMillis: [Double] = []
    /// Why the feed through gpsd ended before the log did (gpsfake or gpsd stopped, or fell
    /// silent); nil when the whole log was played or the drive arrived. The command exits 1.
    var feedFailure: String?
    /// What the drive log's files lost (a full disk); empty when it is whole.
    var logLosses: [DriveRecorder.Loss] = []
}

import Guidance

/// Plays an NMEA log through gpsfake → gpsd → libgps → the appliance pipeline (or, with
/// `direct`, straight from the file), recording the drive.
enum Replay {
    /// Inputs of the pipeline task.
    enum Input: Sendable {
        case gps(GPSInputEvent)
        case tick
    }

    static func run(_ o: ReplayOptions) async throws -> ReplayResult {
        let started = Date()
        // the log is streamed, never held (a day's drive holds one block of it, issue #27): read
        // once for its first and last fix and how to pace it, then played
        let summary = try NMEAFile.summary(path: o.log)
        guard let firstFix = summary.first, let lastFix = summary.last else {
            let stats = summary.stats
            throw CommandError("\(o.log): no usable fix in \(stats.lines) lines (\(stats.badChecksum) bad checksums, \(stats.malformed) malformed)")
        }
        let map: RoadMap
        do { map = try RoadMap(path: o.mapPath) } catch { throw CommandError("\(error)") }
        let recorder: DriveRecorder
        do {
            recorder = try DriveRecorder(logDirectory: o.logDirectory) { printError("tern: \($0)") }
        } catch {
            throw CommandError("\(o.logDirectory): cannot create the drive folder: \(errorText(error))")
        }
        var result = ReplayResult(folder: recorder.folder)

        // speech: the requested device, or a WAV in the drive folder when there is no sound card
        var speechOutput = o.speech
        if case .device(let name)? = o.speech, let problem = AudioDevice.problem(name) {
            if o.fallbackToWAV {
                let wav = Paths.join(recorder.folder, "prompts.wav")
                speechOutput = .wavFile(wav)
                result.wav = wav
                result.speechNote = "no sound card (\(name): \(problem)); prompts are written to \(wav)"
            } else {
                result.speechNote = "no sound card (\(name): \(problem)); guidance continues without speech"
                speechOutput = nil
            }
            printError("tern: " + result.speechNote!)
        }
        if case .wavFile(let w)? = speechOutput { result.wav = w }
        let speech = speechOutput.map { SpeechEngine(output: $0) { e in
            if case .outputUnavailable(let why) = e { printError("tern: speech: \(why)") }
        } }

        let status: StatusSink?
        if let dev = o.console {
            do { status = try SerialConsole(path: dev, baud: o.baud) } catch { throw CommandError("\(error)") }
        } else {
            status = o.quiet ? nil : StdoutStatusSink()
        }
        var config = NavigatorConfig()
        config.locale = o.locale
        config.units = o.units
        config.offRoutePolicy = o.offRoutePolicy
        let pipeline = DrivePipeline(map: map, config: config, speech: speech, status: status, recorder: recorder,
                                     geocoder: try? Geocoder(map: map))
        var prompts = 0
        var detected: Date?, rerouteMillis = [Double]()
        pipeline.onEvent = { e in
            switch e.kind {
            case .prompt:
                prompts += 1
                if let d = detected { rerouteMillis.append(Date().timeIntervalSince(d) * 1000); detected = nil }
            case .offRoute: detected = Date()
            default: break
            }
        }
        pipeline.go(to: o.waypoints, time: firstFix.time)

        if o.direct {
            // sentence by sentence, as gpsd hands them over: each recorded, each epoch guided;
            // after arrival the rest is recorded only, as the car goes on recording
            var parser = NMEAParser()
            parser.reportsNoFix = true
            func guide(_ f: GPSFix) { if !pipeline.isArrived { pipeline.handle(f.isUsable ? .fix(f) : .noFix(time: f.time)) } }
            for line in try NMEALineReader(path: o.log) {
                if NMEAFile.isSentence(line) { pipeline.handle(.nmea(line)) }
                if let f = parser.feed(line: line) { guide(f) }
            }
            if let f = parser.finish() { guide(f) }
        } else {
            result.feedFailure = try await throughGpsd(o, summary: summary, first: firstFix, last: lastFix, pipeline: pipeline,
                                                       workDirectory: recorder.folder)
        }
        speech?.waitUntilIdle(timeout: 60)
        speech?.shutdown()
        status?.close()
        recorder.close()
        result.logLosses = recorder.losses
        result.fixes = pipeline.fixCount
        result.events = pipeline.eventCount
        result.arrived = pipeline.isArrived
        result.prompts = prompts
        result.rerouteMillis = rerouteMillis
        result.seconds = Date().timeIntervalSince(started)
        return result
    }

    /// gpsfake replays a paced copy of the log into its own gpsd; the client reads it back.
    /// Returns why the feed ended early, if it did.
    private static func throughGpsd(_ o: ReplayOptions, summary: NMEASummary, first: GPSFix, last: GPSFix,
                                    pipeline: DrivePipeline, workDirectory: String) async throws -> String? {
        let fixes = summary.usableFixes
        let perEpoch = max(1.0, Double(summary.sentenceLines) / Double(max(1, fixes)))
        let epochSeconds = fixes > 1 ? max(0.05, (last.time - first.time) / Double(fixes - 1)) : 1
        let cycle = epochSeconds / o.rate / perEpoch
        // gpsfake starts writing before gpsd has opened its pty and before our client watches:
        // lead in for ~3 s with epochs without a fix, dated before the log's first fix, so no
        // real epoch is lost, and gpsd has learnt the receiver's cycle before the first real
        // fix (whatever moment the client connected at, the fixes it gets are the same).
        let leadIn = leadInEpochs(before: first.time, cycle: cycle, seconds: 3)
        let pacedPath = Paths.join(workDirectory, ".replay-input.nmea")
        try writePaced(leadIn: leadIn, log: o.log, to: pacedPath)
        defer { unlink(pacedPath) }

        let fake: GPSFake
        do {
            fake = try GPSFake(log: pacedPath, cycleSeconds: cycle, once: true, outputPath: "/dev/null")
        } catch { throw CommandError("\(error)") }
        defer { fake.stop() }
        let (stream, continuation) = AsyncStream.makeStream(of: Input.self)
        let client = GPSDClient(options: .init(port: String(fake.port), watchNMEA: true)) { continuation.yield(.gps($0)) }
        client.start()
        defer { client.stop() }
        let ticker = Task {
            while !Task.isCancelled {
                try? await Task.sleep(for: .milliseconds(250))
                continuation.yield(.tick)
            }
        }
        defer { ticker.cancel() }

        // a slow machine is not a failure, a silent feed is: no deadline on the whole replay (a
        // Pi, or arm64 under qemu, runs gpsfake, gpsd and tern slower than the pace asks), only on
        // a gap in what gpsd hands over
        let stallSeconds = 30.0
        var lastData = Date()
        var sawLast = false
        var failure: String?
        for await input in stream {
            switch input {
            case .gps(let e):
                switch e {
                case .nmea, .fix, .noFix: lastData = Date()  // (not the client's own reconnect events)
                case .connected, .disconnected, .finished: break
                }
                if case .fix(let f) = e, f.time >= last.time - 0.0005 { sawLast = true }
                pipeline.handle(e)
            case .tick:
                if pipeline.isArrived || sawLast { break }
                if Date().timeIntervalSince(lastData) > stallSeconds {
                    failure = "replay stopped: nothing from gpsd for \(Int(stallSeconds)) s"
                    break
                }
                if Date().timeIntervalSince(lastData) > 10 && !fake.isRunning { failure = "gpsfake stopped before the end of the log"; break }
                continue
            }
            if pipeline.isArrived || sawLast || failure != nil { break }
        }
        continuation.finish()
        return failure
    }

    /// Writes gpsfake's input: the lead-in, then the log's sentences, CRLF-terminated, streamed
    /// from the log a block at a time.
    private static func writePaced(leadIn: [String], log: String, to path: String) throws {
        let lines = try NMEALineReader(path: log)
        guard let file = fopen(path, "w") else { throw CommandError("\(path): cannot write: \(String(cString: strerror(errno)))") }
        var failed = false
        func put(_ line: String) { if !failed, fputs(line, file) < 0 || fputs("\r\n", file) < 0 { failed = true } }
        for line in leadIn { put(line) }
        for line in lines where NMEAFile.isSentence(line) { put(line) }
        if fclose(file) != 0 || failed { throw CommandError("\(path): cannot write: \(String(cString: strerror(errno)))") }
    }

    /// Epochs without a fix, one a second up to a second before `time`, enough to last `seconds`
    /// of wall time at `cycle` seconds a sentence.
    static func leadInEpochs(before time: Double, cycle: Double, seconds: Double) -> [String] {
        let perEpoch = NMEAWriter.sentences(for: GPSFix(time: time, coordinate: Coordinate(latitude: .nan, longitude: .nan), mode: .noFix)).count
        let count = max(1, Int((seconds / max(cycle * Double(perEpoch), 0.001)).rounded(.up)))
        return (0..<count).flatMap { k in
            NMEAWriter.sentences(for: GPSFix(time: floor(time) - Double(count - k), coordinate: Coordinate(latitude: .nan, longitude: .nan),
                                             mode: .noFix))
        }
    }
}

/// Checks whether an ALSA PCM can be opened, without playing anything.
enum AudioDevice {
    static func problem(_ name: String) -> String? { SpeechEngine.deviceProblem(name) }
}
