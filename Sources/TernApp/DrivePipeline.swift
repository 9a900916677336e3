import Console
import Drive
import DriveLog
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

/// The appliance's wiring around the one `DriveEngine`: receiver events in, and the engine's
/// effects out to the drive log, listeners, speech and the status line; route requests answered
/// at once (`.inline`: a replay gives the same events every time) or on a worker whose answers
/// come back through the caller's loop (`.worker`: `tern run`). Used from a single task.
final class DrivePipeline {
    enum Routes {
        case inline
        /// Requests go to a worker; `post` hands its answer back to the drive loop, which gives
        /// it to `answer(_:)`.
        case worker(post: @Sendable (NavigatorInput) -> Void)
    }

    private(set) var engine: DriveEngine
    /// Who computes routes: one router per appliance (it holds per-node search arrays), here or
    /// on the worker.
    private let service: RouteService?
    private let worker: RouteWorker?
    private let post: (@Sendable (NavigatorInput) -> Void)?
    let speech: SpeechEngine?
    let status: StatusSink?
    let recorder: DriveRecorder?
    var onEvent: ((NavigationEvent) -> Void)?
    /// Where a position is by address, for the status line when there is no route ("near
    /// Hauptstraße 12, Altstadt"); nil: the road's name is shown.
    var describe: ((Coordinate) -> String?)?
    /// The zone the status line's arrival time is told in (the system's, or `timezone =`).
    var timeZone = LocalTime.system
    /// `mute on` silences everything until `mute off`; `verbosity` chooses what is said.
    var muted = false
    var verbosity = Verbosity.all
    private(set) var eventCount = 0
    private var promptID = 0
    /// The traffic routes are searched with (the router's own copy lives with whoever computes routes).
    private var trafficNow = TrafficConditions()

    /// `geocoder` (the map's search, made once by the caller and shared with the destination
    /// desk) says where the car is by address; nil: the road's name only.
    init(map: RoadMap, config: NavigatorConfig, speech: SpeechEngine?, status: StatusSink?, recorder: DriveRecorder?, routes: Routes = .inline,
         geocoder: Geocoder? = nil) {
        engine = DriveEngine(map: map, config: config)
        switch routes {
        case .inline: service = RouteService(map: map); worker = nil; post = nil
        case .worker(let p): service = nil; worker = RouteWorker(map: map); post = p
        }
        self.speech = speech
        self.status = status
        self.recorder = recorder
        if let g = geocoder { describe = { g.describe($0) } }
    }

    var navigator: Navigator { engine.navigator }
    var isArrived: Bool { navigator.state == .arrived }
    var fixCount: Int { engine.fixCount }
    var lastFix: GPSFix? { engine.lastFix }
    /// The drive time of the latest input (0 before any).
    var now: Double { engine.time ?? 0 }

    /// Sets where to go (vias first, destination last).
    func go(to waypoints: [Coordinate], time: Double) { feed(.navigator(.setDestination(waypoints, time: time))) }
    func cancel() { feed(.navigator(.cancel(time: now))) }
    /// On from a waypoint where the navigator stopped (`continue` on the console).
    func continueRoute() { feed(.navigator(.continueRoute(time: now))) }
    /// A new route from here (`reroute` on the console).
    func reroute() { feed(.navigator(.reroute(time: now))) }
    /// A route answer from the worker, or the speech thread's timings.
    func answer(_ input: NavigatorInput) { feed(.navigator(input)) }
    /// The clock, in drive time (`DriveClock`).
    func tick(_ time: Double) { feed(.tick(time: time)) }

    /// The traffic routes are searched with; the navigator checks its route against it at once.
    var traffic: TrafficConditions {
        get { trafficNow }
        set {
            trafficNow = newValue
            worker?.setTraffic(newValue)
            service?.router.traffic = newValue
            feed(.navigator(.trafficChanged(time: now)))
        }
    }

    /// Speaks a sentence that is not a route prompt ("Resuming guidance to …").
    func announce(_ text: String) {
        say(Prompt(text: text, locale: engine.navigator.config.locale, kind: .now, maneuver: nil))
    }

    /// Speaks the last prompt again.
    func repeatLastPrompt() {
        if let p = engine.lastPrompt { say(p) }
    }

    func handle(_ event: GPSInputEvent) {
        switch event {
        case .nmea(let sentence): recorder?.recordNMEA(sentence)
        case .fix(let fix): feed(.fix(fix))
        case .noFix(let time): feed(.noFix(time: time))
        case .disconnected(let why): feed(.receiverLost(reason: why))
        case .connected, .finished: break
        }
    }

    private func feed(_ input: DriveInput) {
        let effects = service.map { engine.handle(input, routes: $0) } ?? engine.handle(input)
        for effect in effects { carry(effect) }
        // (the drive log is written once an input is handled: DriveRecorder)
        recorder?.flush()
        // a prompt the verbosity leaves out takes no time: the engine's estimate of when the
        // speaker is free would otherwise hold back the next prompt for words never said
        if leftOut {
            leftOut = false
            feed(.navigator(.speechEnded(time: now)))
        }
    }
    private var leftOut = false
    private var memoryTrim = MemoryTrim()

    private func carry(_ effect: DriveEffect) {
        switch effect {
        case .event(var e):
            // a stop or the destination reached, by address in the drive log and to listeners
            switch e.kind {
            case .arrived, .waypointArrived: e.address = lastFix.flatMap { describe?($0.coordinate) }
            default: break
            }
            eventCount += 1
            recorder?.record(e)
            onEvent?(e)
        case .speak(let p): say(p)
        case .silence: speech?.interrupt()
        case .requestRoute(let r):
            if let worker, let post { worker.submit(r, reply: post) }  // (inline: already answered)
        case .status(let s):
            let place = s.state.hasRoute || s.fixMode == nil ? nil : lastFix.flatMap { describe?($0.coordinate) }
            let offset = timeZone.secondsFromUTC(at: s.time)
            status?.write(StatusLine(s, place: place, timeZoneOffsetSeconds: offset))
            // the status comes once a second of drive time, whatever the fix: the clock to give
            // freed memory back by, so a day's drive stays at what it uses
            memoryTrim.tick(at: s.time)
        }
    }

    private func say(_ p: Prompt) {
        guard !muted, let speech else { return }
        guard verbosity.speaks(p.kind) else {
            leftOut = true
            return
        }
        promptID += 1
        speech.speak(Utterance(id: promptID, text: p.text, voice: Voices.espeakVoice(forLocale: p.locale)))
    }

    /// Waits for route requests still on the worker (shutdown).
    func drainRoutes() { worker?.drain() }
}

/// Locale → espeak-ng voice.
enum Voices {
    static func espeakVoice(forLocale locale: String) -> String {
        GuidanceLocale.named(locale)?.voice ?? locale  // not a guidance language: an espeak-ng voice name
    }
}
