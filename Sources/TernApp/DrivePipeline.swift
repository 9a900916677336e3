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
import Routing
import Speech

/// One appliance: fixes in → gate and Kalman filter → HMM road matching → navigator → effects
/// (events to the drive log and listeners, routes computed, prompts spoken, a status line per
/// fix). Through an outage the filter dead-reckons along the road (the route when guiding).
/// Used from a single task; nothing here blocks except route computation (milliseconds).
final class DrivePipeline: NavigationListener {
    let map: RoadMap
    /// The navigator and its routes; a Swift program adds its own listeners here.
    let session: NavigationSession
    var routes: RouteService { session.routes }
    private var positioning = PositionFilter()
    private var matcher: HMMMatcher
    /// The same matcher without the route's prior (for off-route only, while guiding; 1–2 µs a fix).
    private var unbiasedMatcher: HMMMatcher
    /// Seconds without a fix before the driver is told GPS is lost.
    var gpsLostAfterSeconds = 3.0
    private var firstNoFix: Double?
    private var routeEdges: (edges: [DirectedEdge], set: Set<UInt32>)?
    var navigator: Navigator { session.navigator }
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
        session = NavigationSession(map: map, config: config)
        matcher = HMMMatcher(map: map)
        unbiasedMatcher = HMMMatcher(map: map)
        self.speech = speech
        self.status = status
        self.recorder = recorder
        session.addListener(self)
    }

    var isArrived: Bool { navigator.phase == .arrived }

    /// Sets where to go (vias first, destination last).
    func go(to waypoints: [Coordinate], time: Double) { apply(.setDestination(waypoints, time: time)) }

    func cancel() { apply(.cancel(time: lastFix?.time ?? 0)) }

    /// On from a waypoint where the navigator stopped (`continue` on the console).
    func continueRoute() { apply(.continueRoute(time: lastFix?.time ?? 0)) }

    /// A new route from here (`reroute` on the console).
    func reroute() { apply(.reroute(time: lastFix?.time ?? 0)) }

    /// The traffic routes are searched with; the navigator checks its route against it at once.
    var traffic: TrafficConditions {
        get { routes.router.traffic }
        set { session.setTraffic(newValue, time: lastFix?.time ?? 0) }
    }

    /// Speaks the last prompt again.
    func repeatLastPrompt() {
        if let p = lastPrompt { say(p) }
    }

    func handle(_ event: GPSInputEvent) {
        switch event {
        case .nmea(let sentence):
            recorder?.recordNMEA(sentence)
        case .fix(let fix) where fix.mode < .twoD:
            handle(.noFix(time: fix.time))
        case .fix(let fix):
            fixCount += 1
            firstNoFix = nil
            switch positioning.accept(fix) {
            case .success(let position):
                lastFix = fix
                let route = currentRoute()?.set
                let matched = matcher.push(position, route: route)
                // without a route the two matchers would agree: the second runs only while guiding
                var unbiased: MatchedPosition?
                if route != nil {
                    unbiased = unbiasedMatcher.push(position, route: nil)
                } else {
                    unbiasedMatcher.reset()  // (empties its arrays, keeping their storage)
                }
                lastMatched = matched
                apply(.position(position, matched, unbiased: unbiased))
                writeStatus(fix)
            case .failure(let why):
                apply(.discarded(time: fix.time, reason: why.reason))
            }
        case .noFix(let time):
            if firstNoFix == nil { firstNoFix = time }
            // lost only once there was a fix (before the first fix the receiver is still starting)
            if lastFix != nil, let since = firstNoFix, time - since >= gpsLostAfterSeconds { apply(.gpsLost(time: since)) }
            // dead reckoning along the road (the route's when guiding) until a fix returns
            let follower = RoadFollower(map: map, route: currentRoute()?.edges ?? [])
            if let estimate = positioning.predict(to: time, road: follower) {
                let matched = map.nearestEdges(to: estimate.coordinate, radiusMeters: 5, limit: 1).first.map { s -> MatchedPosition in
                    let rec = map.edge(s.edge)
                    return MatchedPosition(edge: DirectedEdge(edge: s.edge, reversed: false), offsetMeters: s.offsetMeters,
                                           coordinate: s.point, roadName: map.name(rec.nameID), roadRef: map.name(rec.refID),
                                           speedLimitKmh: nil, confidence: 0.5, distanceMeters: s.distanceMeters)
                }
                apply(.position(estimate, matched))
            }
        case .disconnected(let why):
            if let t = lastFix?.time { apply(.gpsLost(time: t)) }
            status?.write(.waiting(why))
        case .connected, .finished:
            break
        }
    }

    /// The active route's edges (for the matcher's prior and dead reckoning).
    private func currentRoute() -> (edges: [DirectedEdge], set: Set<UInt32>)? {
        guard let r = navigator.route, navigator.phase != .arrived else { return nil }
        let edges = r.route.legs.flatMap(\.edges)
        if let cached = routeEdges, cached.edges == edges { return cached }
        routeEdges = (edges, Set(edges.map(\.raw)))
        return routeEdges
    }

    private func apply(_ input: NavigatorInput) { session.handle(input) }

    func navigation(didEmit e: NavigationEvent) {
        eventCount += 1
        recorder?.record(e)
        onEvent?(e)
    }

    func navigation(shouldSpeak p: Prompt) {
        lastPrompt = p
        say(p)
    }

    func navigationShouldStopSpeaking() {
        speech?.interrupt()
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
        GuidanceLocale.named(locale)?.voice ?? locale  // not a guidance language: an espeak-ng voice name
    }
}
