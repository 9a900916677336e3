import Console
import FoundationEssentials
import Glibc
import Platform
import Geo
import Guidance
import Navigation
import Routing
import Speech

/// What a console line or a `tern ctl` command does to the running appliance.
extension RunCommand {
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
        case .volume, .louder, .quieter, .rate, .voice:
            return voice(command, speech: pipeline.speech)
        case .verbosity(let v):
            pipeline.verbosity = v
            return ["ok: verbosity \(v.rawValue)"]
        case .status:
            let progress = pipeline.navigator.progress.map {
                String(printf: ", %.0f m and %.0f s remaining", $0.remainingMeters, $0.remainingSeconds)
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

    /// Volume, rate and voice, applied from the next prompt.
    static func voice(_ command: ConsoleCommand, speech: SpeechEngine?) -> [String] {
        guard let speech else { return ["error: speech is off (speech = none in tern.conf)"] }
        var v = speech.settings
        switch command {
        case .volume(let n): v.volume = n
        case .louder: v.volume = min(100, v.volume + VoiceSettings.volumeStep)
        case .quieter: v.volume = max(0, v.volume - VoiceSettings.volumeStep)
        case .rate(let r): v.rate = r
        case .voice(let name):
            if let name, let problem = SpeechEngine.voiceProblem(name) { return ["error: \(problem)"] }
            v.voice = name
        default: return ["error: not a voice setting"]
        }
        speech.settings = v
        return ["ok: volume \(v.volume), rate \(v.rate), voice \(v.voice ?? "of the guidance language")"]
    }
}
