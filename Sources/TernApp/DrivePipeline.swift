import Console
import DriveLog
import Foundation
import Geo
import GPSInput
import Guidance
import MapData
import MapMatching
import Navigation
import Positioning
import Speech

/// One appliance: fixes in → gate → road match → navigator → effects (events to the drive log
/// and listeners, routes computed, prompts spoken, a status line per fix). Used from a single
/// task; nothing here blocks except route computation, which takes milliseconds.
final class DrivePipeline {
    let map: RoadMap
    let routes: RouteService
    private var gate = FixGate()
    private let matcher: RoadMatcher
    private(set) var navigator: Navigator
    let speech: SpeechEngine?
    let status: StatusSink?
    let recorder: DriveRecorder?
    var onEvent: ((NavigationEvent) -> Void)?
    var muted = false

    private(set) var fixCount = 0
    private(set) var eventCount = 0
    private(set) var lastFix: GPSFix?
    private(set) var lastPrompt: Prompt?
    private var promptID = 0
    private var lastMatched: MatchedPosition?

    init(map: RoadMap, config: NavigatorConfig, speech: SpeechEngine?, status: StatusSink?, recorder: DriveRecorder?) {
        self.map = map
        routes = RouteService(map: map)
        matcher = RoadMatcher(map: map)
        navigator = Navigator(config: config)
        self.speech = speech
        self.status = status
        self.recorder = recorder
    }

    var isArrived: Bool { navigator.phase == .arrived }

    /// Sets where to go (vias first, destination last).
    func go(to waypoints: [Coordinate], time: Double) { apply(.setDestination(waypoints, time: time)) }

    func cancel() { apply(.cancel(time: lastFix?.time ?? 0)) }

    /// Speaks the last prompt again.
    func repeatLastPrompt() {
        if let p = lastPrompt { say(p) }
    }

    func handle(_ event: GPSInputEvent) {
        switch event {
        case .nmea(let sentence):
            recorder?.recordNMEA(sentence)
        case .fix(let fix):
            fixCount += 1
            switch gate.accept(fix) {
            case .success(let position):
                lastFix = fix
                let matched = matcher.match(position.coordinate, courseDegrees: position.courseDegrees, accuracyMeters: position.accuracyMeters)
                lastMatched = matched
                apply(.position(position, matched))
                writeStatus(fix)
            case .failure(let why):
                apply(.discarded(time: fix.time, reason: why.reason))
            }
        case .disconnected(let why):
            if let t = lastFix?.time { apply(.gpsLost(time: t)) }
            status?.write(.waiting(why))
        case .connected, .finished:
            break
        }
    }

    private func apply(_ input: NavigatorInput) {
        var queue = navigator.handle(input)
        while !queue.isEmpty {
            let effect = queue.removeFirst()
            switch effect {
            case .emit(let e):
                eventCount += 1
                recorder?.record(e)
                onEvent?(e)
            case .requestRoute(let req):
                queue += navigator.handle(routes.answer(req))
            case .speak(let p):
                lastPrompt = p
                say(p)
            }
        }
    }

    private func say(_ p: Prompt) {
        guard !muted, let speech else { return }
        promptID += 1
        speech.speak(Utterance(id: promptID, text: p.text, voice: Voices.espeakVoice(forLocale: p.locale)))
    }

    private func writeStatus(_ fix: GPSFix) {
        guard let status else { return }
        status.write(StatusLine(phase: navigator.phase, progress: navigator.progress, speedMetersPerSecond: fix.speedMetersPerSecond,
                                fixMode: fix.mode, time: fix.time, road: lastMatched?.roadName, units: navigator.config.units))
    }
}

/// Locale → espeak-ng voice.
enum Voices {
    static func espeakVoice(forLocale locale: String) -> String {
        let l = locale.lowercased().replacingOccurrences(of: "_", with: "-")
        switch l {
        case "en", "en-gb": return "en-gb"
        case "en-us": return "en-us"
        case "pt-br": return "pt-br"
        case "pt-pt", "pt": return "pt"
        case "es-es", "es": return "es"
        case "fr-fr", "fr": return "fr"
        case "zh-cn", "zh": return "cmn"
        case "nb", "no": return "nb"
        default: return l.split(separator: "-").first.map(String.init) ?? "en-gb"
        }
    }
}
