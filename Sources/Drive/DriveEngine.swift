import Geo
import MapData
import MapMatching
import Navigation
import Positioning

/// The one drive engine: receiver epochs in → gate and Kalman filter → HMM road matching (with
/// and without the route's prior) → dead reckoning through outages → navigator → effects (events,
/// prompts, route requests, the status line). `tern run`, `tern replay`, the demo, the bench and
/// the navigation tests all drive this type; they differ only in where inputs come from and
/// where effects go. No I/O, no clock, no threads: the same inputs give the same effects.
public struct DriveEngine {
    public let map: RoadMap
    public private(set) var navigator: Navigator
    private var positioning = PositionFilter()
    private var matchers: RouteMatchers
    /// Seconds without a fix before the driver is told GPS is lost.
    public var gpsLostAfterSeconds = 3.0
    /// A tick this long after the receiver's last epoch stands for an epoch without a fix: gpsd
    /// is gone or silent, and dead reckoning and the status line go on from the clock.
    public var silentReceiverSeconds = 1.5

    /// Epochs with a fix (2D or better) seen.
    public private(set) var fixCount = 0
    /// The last fix the gate passed.
    public private(set) var lastFix: GPSFix?
    /// The last match shown (the route-biased matcher's, or the dead-reckoned road).
    public private(set) var lastMatch: MatchedPosition?
    /// The last prompt given (`repeat` on the console says it again).
    public private(set) var lastPrompt: Prompt?
    /// The time of the latest input that carried one (receiver epochs and ticks).
    public private(set) var time: Double?
    private var lastEpochTime: Double?
    private var firstNoFix: Double?
    private var receiverProblem: String?
    private var lastStatus: (time: Double, state: NavigatorState)?
    private var speed: Double?
    private var fixMode: FixMode?

    /// `keepsMatchDecisions`: keep the matcher's decided matches (two fixes behind) for
    /// `takeMatchDecisions()` (the bench scores them); the car shows the match made at once.
    public init(map: RoadMap, config: NavigatorConfig = NavigatorConfig(), keepsMatchDecisions: Bool = false) {
        self.map = map
        navigator = Navigator(config: config)
        matchers = RouteMatchers(map: map, keepsDecisions: keepsMatchDecisions)
    }

    /// One input; its effects in the order they are to be carried out. Route requests are among
    /// them: their answers come back as `.navigator(...)` inputs (see `handle(_:routes:)`).
    public mutating func handle(_ input: DriveInput) -> [DriveEffect] {
        var out = [DriveEffect]()
        switch input {
        case .fix(let fix) where !fix.isUsable:
            return handle(.noFix(time: fix.time))
        case .fix(let fix):
            fixCount += 1
            noteEpoch(fix.time)
            firstNoFix = nil
            receiverProblem = nil
            speed = fix.speedMetersPerSecond
            fixMode = fix.mode
            switch positioning.accept(fix) {
            case .success(let position):
                lastFix = fix
                let (matched, input) = matchers.input(position, routeKeys: navigator.activeRouteEdges?.keys)
                lastMatch = matched
                navigate(input, into: &out)
            case .failure(let why):
                navigate(.discarded(time: fix.time, reason: why.reason), into: &out)
            }
            status(at: fix.time, into: &out)
        case .noFix(let time):
            noteEpoch(time)
            withoutFix(at: time, into: &out)
        case .tick(let time):
            if let last = lastEpochTime, time - last >= silentReceiverSeconds {
                withoutFix(at: time, into: &out)
            } else {
                self.time = time
                status(at: time, into: &out)
            }
        case .receiverLost(let why):
            receiverProblem = why
            if let t = lastFix?.time { navigate(.gpsLost(time: t), into: &out) }
            status(at: time ?? 0, into: &out, force: true)
        case .navigator(let input):
            navigate(input, into: &out)
            if let t = time { status(at: t, into: &out) }
        }
        return out
    }

    /// One input with route requests answered at once by `routes`, in this call (the bench, the
    /// tests, a replay that must give the same events every time). The appliance answers them on
    /// a worker instead. Returns every effect, requests included.
    public mutating func handle(_ input: DriveInput, routes: RouteService) -> [DriveEffect] {
        var all = [DriveEffect]()
        var queue = [input]
        while !queue.isEmpty {
            let effects = handle(queue.removeFirst())
            for case .requestRoute(let r) in effects { queue.append(.navigator(routes.answer(r))) }
            all += effects
        }
        return all
    }

    /// The matcher's decided matches since the last call (two fixes behind the shown one), by the
    /// index of the fix the gate passed (0 = the first): the bench scores these.
    public mutating func takeMatchDecisions() -> [(index: Int, match: MatchedPosition)] { matchers.takeDecisions() }
    /// The remaining decisions at the end of a drive.
    public mutating func finishMatching() -> [(index: Int, match: MatchedPosition)] { matchers.finish() }

    private mutating func noteEpoch(_ t: Double) {
        lastEpochTime = t
        time = t
    }

    /// An epoch without a fix (or a silent receiver): GPS lost after a while, and the position
    /// dead-reckoned along the road (the route's when guiding) until a fix returns.
    private mutating func withoutFix(at time: Double, into out: inout [DriveEffect]) {
        self.time = time
        speed = nil
        fixMode = nil
        if firstNoFix == nil { firstNoFix = time }
        // lost only once there was a fix (before the first fix the receiver is still starting)
        if lastFix != nil, let since = firstNoFix, time - since >= gpsLostAfterSeconds { navigate(.gpsLost(time: since), into: &out) }
        let follower = RoadFollower(map: map, route: navigator.activeRouteEdges?.edges ?? [])
        if let estimate = positioning.predict(to: time, road: follower) {
            let road = deadReckonedRoad(estimate.coordinate)
            if let road { lastMatch = road }
            speed = estimate.speedMetersPerSecond
            navigate(.position(estimate, road), into: &out)
        }
        status(at: time, into: &out)
    }

    /// The road under a dead-reckoned position (it was moved along one): the nearest edge within
    /// 5 m, with a middling confidence, as no matcher saw it.
    private func deadReckonedRoad(_ c: Coordinate) -> MatchedPosition? {
        map.nearestEdges(to: c, radiusMeters: 5, limit: 1).first.map { s in
            let rec = map.edge(s.edge)
            return MatchedPosition(edge: DirectedEdge(edge: s.edge, reversed: false), offsetMeters: s.offsetMeters, coordinate: s.point,
                                   roadName: map.name(rec.nameID), roadRef: map.name(rec.refID), speedLimitKmh: nil,
                                   confidence: 0.5, distanceMeters: s.distanceMeters)
        }
    }

    private mutating func navigate(_ input: NavigatorInput, into out: inout [DriveEffect]) {
        for effect in navigator.handle(input) {
            switch effect {
            case .emit(let e): out.append(.event(e))
            case .speak(let p):
                lastPrompt = p
                out.append(.speak(p))
            case .silence: out.append(.silence)
            case .requestRoute(let r): out.append(.requestRoute(r))
            }
        }
    }

    /// The status line: once a second of drive time, and at once when the state changed.
    private mutating func status(at time: Double, into out: inout [DriveEffect], force: Bool = false) {
        let state = navigator.state
        if !force, let last = lastStatus, time - last.time < 0.95, last.state == state { return }
        lastStatus = (time, state)
        out.append(.status(DriveStatus(state: state, progress: navigator.progress, speedMetersPerSecond: speed, fixMode: fixMode,
                                       time: time, road: lastMatch?.displayName, units: navigator.config.units,
                                       receiverProblem: receiverProblem, speedLimitKmh: fixMode == nil ? nil : lastMatch?.speedLimitKmh)))
    }
}
