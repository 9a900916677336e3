import Geo
import MapData
import Guidance
import MapMatching
import Positioning
import Routing

/// The navigation engine as a value: events in, effects out, no clock and no I/O
/// (the shape of swift-nio's state machines and Mapbox v3's named states).
public struct Navigator: Sendable {
    // (The state and the parts below are internal, not private: the prompt plan, route requests
    // and traffic are extensions of this type in Navigator+*.swift. Nothing outside the type
    // writes them; the DriveEngine drives it by `handle` alone.)

    /// The route being followed and what is judged and said on it, one value type each.
    struct Guidance: Sendable {
        /// Where the car is along the route, and the progress reported.
        var tracker: RouteProgressTracker
        /// The off-route judgement on this route.
        var offRoute: OffRouteMonitor
        /// What is said on this route, and when (Guidance's prompt plan).
        var planner = PromptPlanner()
        /// The car may set off the other way from where this leg starts: the route was planned
        /// from a standing car (no course), or the leg begins at a waypoint passed through, where
        /// a driver may turn round (a drop-off, a pick-up). Turning round there, before driving
        /// 30 m along, re-plans quietly: not an off-route.
        var mayStartOtherWay = false
        /// The last position tracked was an estimate (no fix).
        var onEstimate = false
        /// The lower limits ahead told on this route.
        var limitAhead = LimitAhead()

        init(route: NavigationRoute, config: NavigatorConfig, plannedAt: Double?) {
            tracker = RouteProgressTracker(route: route, plannedAt: plannedAt)
            offRoute = OffRouteMonitor(config: config)
        }

        var route: NavigationRoute { tracker.route }
        var legIndex: Int { tracker.legIndex }

        /// On to the next leg, from its start (where the car was at `time`; nil: not known).
        mutating func startNextLeg(at time: Double?) {
            tracker.startNextLeg(at: time)
            planner.startNextLeg()
            offRoute.startNextLeg()
            mayStartOtherWay = true
        }
    }

    public private(set) var config: NavigatorConfig
    /// Where the navigator is (NavigatorState): what a position, a route answer or a command does.
    public internal(set) var state: NavigatorState = .idle
    var guidance: Guidance?
    /// When the prompt being spoken is expected to end (no new prompt before).
    var speakingUntil = -Double.infinity
    /// Destination and vias still ahead.
    var waypoints: [Coordinate] = []
    var waypointBase = 0
    var nextRequestID = 1
    var pending: RouteRequest?
    var lastReroute: (time: Double, at: Coordinate)?
    /// Times of recent reroutes, for the loop guard.
    var rerouteTimes: [Double] = []
    /// Back-off after route requests that fail one after another.
    var retry = RouteRetry()
    var lighting: LightingMonitor
    var speeding: SpeedingMonitor
    var traffic: TrafficMonitor
    var lastPosition: FilteredPosition?
    /// The roads the two matchers put the last position on (with and without the route's prior).
    var lastMatchedEdge: DirectedEdge?
    var lastUnbiasedEdge: DirectedEdge?
    /// The matched road is a private service road (a yard's lane, a driveway, a car park's
    /// aisle), where no route may start or end: off the network a new route can start from, as
    /// a track is (issue #24: "tracks and private roads are off the network, not wrong turns"),
    /// since each reroute from one began on the road nearest, which the car was not on. (A
    /// destination-only or private street is not: a route starts there and leads out.)
    var lastMatchedNoStart = false
    /// The receiver's bias, learnt from fixes on the route (kept through reroutes).
    var bias = ReceiverBias()
    /// Automatic reroutes started while the car was off the road network (a track, a field, a
    /// car park: no road the car profile routes on within the matchers' reach), since it was
    /// last on a road.
    var reroutesOffNetwork = 0
    var lastRoad: String?
    var gpsLostSince: Double?
    /// When the last position from a real fix came.
    var lastRealFixTime: Double?
    let text: Instructions
    /// The prompt plan's rules in this locale and with these timings.
    public let rules: PromptRules

    public init(config: NavigatorConfig = NavigatorConfig()) {
        self.config = config
        text = Instructions(locale: GuidanceLocale.named(config.locale) ?? .english, units: config.units)
        rules = PromptRules(text: text, timing: PromptTiming(
            speechLatencySeconds: config.speechLatencySeconds, speechSecondsPerCharacter: config.speechSecondsPerCharacter,
            promptMarginSeconds: config.promptMarginSeconds, arrivalDistanceMeters: config.arrivalDistanceMeters,
            arrivalSeconds: config.arrivalSeconds))
        lighting = LightingMonitor(config: config)
        speeding = SpeedingMonitor(margin: config.speedingMargin)
        traffic = TrafficMonitor(config: config)
    }

    /// The current progress, when guiding.
    public var progress: RouteProgress? { guidance?.tracker.progress }
    public var route: NavigationRoute? { guidance?.route }
    /// The edges still to be driven on, for the matcher's prior and dead reckoning: the route's,
    /// in order and as raw values; nil without a route or once arrived.
    public var activeRouteEdges: (edges: [DirectedEdge], keys: Set<UInt32>)? {
        guard let g = guidance, state != .arrived else { return nil }
        return (g.tracker.edges, g.tracker.edgeKeys)
    }
    public var lastFix: FilteredPosition? { lastPosition }

    public mutating func handle(_ input: NavigatorInput) -> [NavigatorEffect] {
        var out = [NavigatorEffect]()
        switch input {
        case let .position(p, matched, unbiased):
            lastMatchedEdge = matched?.edge
            lastUnbiasedEdge = unbiased?.edge
            lastMatchedNoStart = matched?.onNoStartRoad ?? false
            if !p.estimated, lastMatchedEdge != nil, !lastMatchedNoStart { reroutesOffNetwork = 0 }
            onPosition(p, matched, &out)
        case let .discarded(time, reason):
            out.append(.emit(NavigationEvent(time: time, .discarded(reason: reason.rawValue))))
        case let .setDestination(points, time):
            waypoints = points
            waypointBase = 0
            guidance = nil
            state = .freeDrive
            retry = RouteRetry()
            if let p = lastPosition { request(.start, from: p, time: time, &out) }
        case .cancel:
            waypoints = []
            guidance = nil
            pending = nil
            state = .freeDrive
            retry = RouteRetry()
        case let .routeComputed(id, route, time):
            routeComputed(id: id, route, time: time, &out)
        case let .routeFailed(id, error, time):
            guard let req = pending, req.id == id else { break }
            pending = nil
            retry.failed(time: time, at: lastPosition?.coordinate ?? req.origin)
            if retry.failures == RouteRetry.freeFailures {
                // said once as the back-off begins (a track, a closed road, off the map): the
                // driver knows Tern is still trying, and is not told again until a route is found
                speak(Prompt(text: text.message("prompt.no_route"), locale: config.locale, kind: .now, maneuver: nil), time: time, &out)
            }
            if req.reason == .reroute {
                out.append(.emit(NavigationEvent(time: time, .rerouteFailed(error: error))))
                state = guidance == nil ? .freeDrive : .offRoute
            } else {
                out.append(.emit(NavigationEvent(time: time, .rerouteFailed(error: error))))
                state = .freeDrive
            }
        case .speechStarted, .speechEnded:
            noteSpeech(input)
        case let .trafficChanged(time):
            traffic.trafficChanged()
            if let g = guidance, let p = lastPosition, pending == nil, state == .tracking {
                traffic.checked(at: time)
                request(.traffic, from: p, time: time, previous: g.tracker.edgesAhead, &out)
            }
        case let .trafficAnswer(id, route, current, free, time, alternatives):
            guard let req = pending, req.id == id else { break }
            pending = nil
            onTraffic(route: route, current: current, free: free, alternatives: alternatives, time: time, plannedAt: req.time, &out)
        case let .reroute(time):
            guard let g = guidance, pending == nil, let p = lastPosition, state == .offRoute || state == .tracking else { break }
            startReroute(g, from: p, time: time, automatic: false, &out)
        case .continueRoute:
            guard state == .atWaypoint, var g = guidance else { break }
            // (the car may have moved while it waited: looked for anywhere along the leg)
            g.startNextLeg(at: nil)
            guidance = g
            state = .tracking
            if let p = lastPosition { track(p, &out) }
        case let .gpsLost(time):
            if state == .tracking { state = .uncertain }
            if gpsLostSince == nil {
                gpsLostSince = time
                out.append(.emit(NavigationEvent(time: time, .gpsLost(since: time))))
            }
        case let .gpsRecovered(time):
            if let since = gpsLostSince {
                gpsLostSince = nil
                out.append(.emit(NavigationEvent(time: time, .gpsRecovered(since: since))))
            }
        }
        return out
    }

    mutating func onPosition(_ p: FilteredPosition, _ matched: MatchedPosition?, _ out: inout [NavigatorEffect]) {
        if let since = gpsLostSince, !p.estimated {
            gpsLostSince = nil
            out.append(.emit(NavigationEvent(time: p.time, .gpsRecovered(since: since))))
        }
        lastPosition = p
        if !p.estimated { lastRealFixTime = p.time }
        let road = matched?.displayName
        out.append(.emit(NavigationEvent(time: p.time, .position(
            lat: p.coordinate.latitude, lon: p.coordinate.longitude, speedMps: p.speedMetersPerSecond,
            courseDeg: p.courseDegrees, road: road, snapped: matched.flatMap { $0.isMatched ? $0.coordinate : nil }, estimated: p.estimated,
            limitKmh: matched?.speedLimitKmh))))
        if let r = road, !r.isEmpty, r != lastRoad {
            lastRoad = r
            out.append(.emit(NavigationEvent(time: p.time, .roadName(name: r))))
        }
        if let e = speeding.update(p, limitKmh: matched?.speedLimitKmh) { out.append(.emit(e)) }
        // (while guiding, the warning waits until the route's prompts have had their say: `track`)
        if !state.hasRoute { warnSpeeding(p, &out) }
        if let e = lighting.update(p) { out.append(.emit(e)) }
        if p.estimated && state == .tracking { state = .uncertain }
        if !p.estimated && state == .uncertain { state = .tracking }
        switch state {
        case .idle, .arrived, .guiding(.atWaypoint):
            return
        case .freeDrive:
            if !waypoints.isEmpty && pending == nil && retry.mayRequest(time: p.time, at: p.coordinate) {
                request(.start, from: p, time: p.time, &out)
            }
        case .guiding(.rerouting):
            return  // the request is under way; the position is applied when the route arrives
        case .guiding(.tracking), .guiding(.offRoute), .guiding(.uncertain):
            track(p, &out)
        }
    }

    mutating func track(_ p: FilteredPosition, _ out: inout [NavigatorEffect]) {
        guard var g = guidance else { return }
        let maneuvers = g.tracker.maneuvers
        // The first real fix after estimated ones (a tunnel): the estimate may have run ahead of
        // the car or fallen behind it, so the car is looked for anywhere along the leg, may be
        // put back, and the off-route evidence gathered on the estimate is dropped.
        let resync = g.onEstimate && !p.estimated
        g.onEstimate = p.estimated
        if resync { g.offRoute.resync() }
        let located = g.tracker.locate(p, resync: resync, offRouteMeters: config.offRouteDistanceMeters)
        var pos = located.position
        let dt = located.seconds

        // Off route? By the configured policy's anchors, or backtracking along the route (not
        // judged on an estimated position).
        if !p.estimated { bias.advance(to: p.time) }
        let onRoute = offRouteSituation(p, pos, g, maneuvers: maneuvers)
        var judged = g.offRoute.update(onRoute, alongMeters: pos.alongMeters, judging: state != .uncertain,
                                       shape: LegShape(leg: g.tracker.leg))
        // a moving car on the route, by the place, both matchers and its course: its distance
        // beside the route is the receiver's bias there. (Not the route-held matcher alone: it
        // keeps a car on the route for seconds where a fork parts at a few degrees, and the
        // estimate would take the car's parting for the receiver's error.) The course within 10°
        // of the route's, or 30° at a crawl, where it wanders: a car crawling away at 30–80° was
        // learnt as bias, and its departure seen 37 s late (monaco-21 of the road drive set);
        // not learning at a crawl at all gave 4 more false off-routes in slow traffic.
        if judged == nil, g.offRoute.count == 0, state == .tracking, !p.estimated, onRoute.speed > 1,
           onRoute.matchedOnRoute == true, onRoute.unbiasedOnRoute == true, onRoute.courseOff < (onRoute.moving ? 10 : 30),
           pos.distanceMeters < ReceiverBias.largestMeters * 2 {
            bias.observe(signedMeters: pos.signedMeters, bearingDegrees: pos.bearingDegrees)
        }
        // driving back along a road the leg takes again later in this direction: the car turned
        // round sooner than the route, and goes on from the later pass; or, heading off the
        // route's way, it is on such a road already: it cut short a loop the route makes (a new
        // route starting the other way round a block, back past the car; a route out and back
        // along a street that the car turned round on before the route's start). The rest of the
        // leg from there is still the way to its end: not a departure (issue #24, the road drive
        // set: heidelberg-37 and heidelberg-45, 'course' off-routes with the car on the route)
        // (a 'course' judgement of a moving car only, not of one standing after turning off,
        // whose course is the receiver's raw one; and within the fixed distance, not a poor
        // fix's accuracy: a wrong turn near such a pass is still one)
        let laterPassMeters: Double? = switch judged?.reason {
        case .backtracking: max(config.backtrackLaterPassMeters, p.accuracyMeters)
        case .course where onRoute.speed > 3: config.backtrackLaterPassMeters
        default: nil
        }
        if let within = laterPassMeters, let later = g.tracker.moveToLaterPass(p, withinMeters: within) {
            pos = later
            judged = nil
            g.offRoute.count = 0
        }
        if judged == nil, (p.speedMetersPerSecond ?? 0) >= 0.5, state == .offRoute { state = .tracking }
        // (a standing car neither leaves the route nor comes back to it: the rules on position
        // do not judge it, and what was judged before it stopped holds: off the route, it stays
        // off, as the distance rule held it before issue #24)
        if judged == nil, state == .offRoute, (p.speedMetersPerSecond ?? 0) < 0.5 {
            if arriveIfThere(p, &g, offRoute: true, &out) { return }
            guidance = g
            return
        }
        // a car pulling up at the point the driver asked for has arrived, whichever way it came:
        // not off the route (a standing car beside the route is judged off it when it last drove
        // away from it, and the destination may lie just there, across the road or up a drive)
        if judged != nil, (p.speedMetersPerSecond ?? 0) <= config.arrivalSlowMetersPerSecond,
           arriveIfThere(p, &g, offRoute: true, &out) { return }
        let needed = judged?.needed ?? Int.max
        // a route planned before the car moved, or a leg from a waypoint, may start the other way:
        // once the car shows its direction without having driven along the leg, plan again
        // quietly (not an off-route; a car that drove along the leg and then left it made a
        // wrong turn)
        if g.offRoute.count >= needed, pending == nil, g.mayStartOtherWay, g.tracker.alongMeters < 30, p.courseDegrees != nil,
           (p.speedMetersPerSecond ?? 0) > 2 {
            g.mayStartOtherWay = false
            g.offRoute.count = 0
            guidance = g
            dropPassedWaypoints(g)
            request(.start, from: p, time: p.time, &out)
            return
        }
        if g.offRoute.count >= needed {
            // said once per leaving, as soon as the rules see it, whether or not a new route may
            // be asked for yet: the prompts of the route left stop at once (a driver keeping to
            // a detour of their own within 20 s of the last reroute heard the old route's turns
            // for up to 20 s more, and the departure showed 100 m late)
            if state != .offRoute {
                let reason = (judged?.reason ?? .distance).rawValue
                out.append(.emit(NavigationEvent(time: p.time, .offRoute(distanceMeters: pos.distanceMeters, reason: reason))))
                // what is being said was for the route left: cut it, so that the new route's
                // first prompt is heard at once
                out.append(.silence)
                speakingUntil = p.time
                state = .offRoute
            }
            let movedEnough = lastReroute.map {
                $0.at.distance(to: p.coordinate) >= config.rerouteMinimumMovementMeters && p.time - $0.time >= config.rerouteMinimumIntervalSeconds
            } ?? true
            guidance = g
            // off the road network, one reroute is enough: each new one starts from the road
            // nearest the car, which it is not on either (issue #24: 11 reroutes in 4 minutes on
            // a track). Said once; the next is asked for when the car is on a road again.
            let offNetwork = !p.estimated && ((lastMatchedEdge == nil && lastUnbiasedEdge == nil) || lastMatchedNoStart)
            if offNetwork, reroutesOffNetwork >= config.reroutesOffNetwork {
                if reroutesOffNetwork == config.reroutesOffNetwork {
                    reroutesOffNetwork += 1
                    speak(Prompt(text: text.message("prompt.no_route"), locale: config.locale, kind: .now, maneuver: nil), time: p.time, &out)
                }
            } else if movedEnough, pending == nil, config.automaticReroute, retry.mayRequest(time: p.time, at: p.coordinate) {
                // the policy may refuse: then wait for `.reroute`
                if offNetwork { reroutesOffNetwork += 1 }
                startReroute(g, from: p, time: p.time, automatic: true, &out)
                return
            }
            // (off the route, its progress and prompts are not the car's; a car pulling up at
            // the destination has arrived whichever way it came)
            _ = arriveIfThere(p, &g, offRoute: true, &out)
            return
        }

        if arriveIfThere(p, &g, offRoute: false, &out) { return }

        // progress
        let nextIndex = g.tracker.nextManeuverIndex
        let next = maneuvers[nextIndex]
        let instructions = text
        let instruction = g.planner.texts.text(PromptTexts.Key(index: nextIndex, form: .listed, kind: nil, distance: nil, then: nil, thenForm: nil),
                                       build: { instructions.text(next) }, seconds: { _ in 0 }).text
        let progress = g.tracker.update(correctionSeconds: traffic.correctionSeconds, instruction: instruction,
                                        distanceFromRoute: pos.distanceMeters)
        let toNext = progress.distanceToNextMeters
        if g.tracker.reportDue(progress, time: p.time, distanceThreshold: config.distanceUpdateThresholdMeters,
                               timeThreshold: config.timeUpdateThresholdSeconds) {
            out.append(.emit(NavigationEvent(time: p.time, .progress(progress))))
        }

        // traffic: is there a faster route? (every couple of minutes while the trip is long)
        if state == .tracking, pending == nil, traffic.checkDue(time: p.time, remainingSeconds: progress.remainingSeconds) {
            guidance = g
            request(.traffic, from: p, time: p.time, previous: g.tracker.edgesAhead, &out)
        }

        // prompts for the next maneuver (on the estimate too: the route is known); no far or "turn
        // in" prompt while the car looks off the route on fewer fixes than the policy needs to say
        // so, or drives across the route's way (at a missed turn, "In 200 metres, at the end of the
        // road, turn left onto L 600" for the road not taken was said a second or two before the
        // off-route, and cut off by the new route's prompt: the car had turned left where the
        // route turns right, its course 150° off the route's); a "now" prompt is not held (a false
        // alarm as it falls due would lose it)
        if state == .tracking || state == .uncertain {
            // (the time to the next fix: a "now" prompt is said at the last fix that still leaves time)
            let fixInterval = dt.isFinite ? min(max(dt, 0.2), 2) : 1
            // (the speed the route expects up to the next maneuver: a car that has just turned
            // and is slow now will be faster soon)
            let routeSpeed = progress.stepRemainingSeconds > 1 ? min(toNext / progress.stepRemainingSeconds, 40) : 0
            if let planned = g.planner.next(rules, maneuvers: maneuvers, legIndex: g.legIndex, nextIndex: nextIndex, toNext: toNext,
                                            speed: p.speedMetersPerSecond ?? 0, routeSpeed: routeSpeed, fixInterval: fixInterval,
                                            time: p.time, speakerFreeAt: speakingUntil, leaving: judged != nil || drivesAgainstRoute(p, onRoute, g, maneuvers: maneuvers)) {
                speak(Prompt(text: planned.text, locale: config.locale, kind: planned.kind, maneuver: planned.maneuver, then: planned.then),
                      time: p.time, &out)
                g.planner.heard(planned, until: speakingUntil)
            } else if state == .tracking, p.time >= speakingUntil {
                let r = rules
                tellLimitAhead(p, progress: progress, toNext: toNext, next: { maneuvers.indices.first { $0 >= nextIndex && r.isAnnounced(maneuvers, $0) } },
                               &g, &out)
                warnSpeeding(p, &out)
            }
        }
        guidance = g
    }
}
