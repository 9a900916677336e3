import Geo
import MapData
import Guidance
import MapMatching
import Positioning
import Routing

/// The navigation engine as a value: events in, effects out, no clock and no I/O
/// (the shape of swift-nio's state machines and Mapbox v3's named states).
public struct Navigator: Sendable {
    public enum Phase: String, Sendable {
        case idle, freeDrive, tracking, offRoute, rerouting, arrived
        /// Stopped at an intermediate waypoint until told to continue.
        case waypoint
        /// Guiding on an estimated position (no fix: a tunnel, gpsd gone): the position is dead
        /// reckoned along the route, prompts go on, off-route is not judged.
        case uncertain
    }

    // (The state and the steps below are internal, not private: the prompt plan, the off-route
    // judgement, route requests, traffic and daylight are extensions of this type in
    // Navigator+*.swift. Nothing outside the type writes them; the DriveEngine drives it by
    // `handle` alone. Issue #24 splits this further into value types.)
    struct Guidance: Sendable {
        var route: NavigationRoute
        var legIndex = 0
        var segment = 0
        var alongMeters = 0.0
        /// Time of the last position tracked on this leg.
        var lastTrackTime: Double?
        /// The route was planned from a standing car (no course): its direction may be wrong.
        var plannedWithoutHeading = false
        /// The prompts given, and when maneuvers were last heard.
        var prompts = PromptLedger()
        var offRouteCount = 0
        /// Driving back along the route: where it started (metres along the leg) and for how many fixes.
        var backtrack: (from: Double, fixes: Int)?
        /// The last distances from the route line (newest last), for a steady drift away.
        var recentDistances: [Double] = []
        /// Metres the car has moved across the route's line (by the receiver's speed and course)
        /// since it was last on it, and when that was last counted; infinite when not known (a new
        /// route, after a tunnel). A car cannot be farther from the route than it has moved away.
        var travelSinceOnLine = Double.infinity
        var travelCountedAt: Double?
        /// The distance from the line when the car was last on it.
        var distanceWhenOnLine = 0.0
        /// The last position tracked was an estimate (no fix).
        var onEstimate = false
        /// Fixes still to go after a tunnel before course and drift count for off route.
        var graceFixes = 0
        var lastProgress: (time: Double, remaining: Double, step: Int)?
        var progress: RouteProgress?
        /// The leg's prompt texts, each built once.
        var texts = PromptTexts()
        /// The roads (undirected edge ids) of each leg, to tell a matched road off the route.
        let legRoads: [Set<UInt32>]
        /// All the route's directed edges in order, and as a set of raw values (the matcher's
        /// prior, dead reckoning along the route): built once per route, not per fix.
        let edges: [DirectedEdge]
        let edgeKeys: Set<UInt32>

        init(route: NavigationRoute) {
            self.route = route
            legRoads = route.route.legs.map { Set($0.edges.map(\.edge)) }
            edges = route.route.legs.flatMap(\.edges)
            edgeKeys = Set(edges.map(\.raw))
        }

        /// On to the next leg, from its start.
        mutating func startNextLeg() {
            legIndex += 1
            segment = 0
            alongMeters = 0
            lastTrackTime = nil
            lastProgress = nil
            texts = PromptTexts()
        }
    }

    public private(set) var config: NavigatorConfig
    public internal(set) var phase: Phase = .idle
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
    /// The lighting last suggested, and the fix time it was last worked out at.
    var lighting: String?
    var lastLightingCheck: Double?
    /// Traffic: when the route was last checked, the delay category last said, and the seconds
    /// the current route's remaining time is off its own estimate under the latest traffic.
    var lastTrafficCheck: Double?
    var delayCategory: String?
    var trafficCorrection = 0.0
    var lastPosition: FilteredPosition?
    /// The roads the two matchers put the last position on (with and without the route's prior).
    var lastMatchedEdge: DirectedEdge?
    var lastUnbiasedEdge: DirectedEdge?
    var lastRoad: String?
    var gpsLostSince: Double?
    /// When the last position from a real fix came.
    var lastRealFixTime: Double?
    let text: Instructions

    public init(config: NavigatorConfig = NavigatorConfig()) {
        self.config = config
        text = Instructions(locale: GuidanceLocale.named(config.locale) ?? .english, units: config.units)
    }

    /// The current progress, when guiding.
    public var progress: RouteProgress? { guidance?.progress }
    public var route: NavigationRoute? { guidance?.route }
    /// The edges still to be driven on, for the matcher's prior and dead reckoning: the route's,
    /// in order and as raw values; nil without a route or once arrived.
    public var activeRouteEdges: (edges: [DirectedEdge], keys: Set<UInt32>)? {
        guard let g = guidance, phase != .arrived else { return nil }
        return (g.edges, g.edgeKeys)
    }
    public var lastFix: FilteredPosition? { lastPosition }

    public mutating func handle(_ input: NavigatorInput) -> [NavigatorEffect] {
        var out = [NavigatorEffect]()
        switch input {
        case let .position(p, matched, unbiased):
            lastMatchedEdge = matched?.edge
            lastUnbiasedEdge = unbiased?.edge
            onPosition(p, matched, &out)
        case let .discarded(time, reason):
            out.append(.emit(NavigationEvent(time: time, .discarded(reason: reason.rawValue))))
        case let .setDestination(points, time):
            waypoints = points
            waypointBase = 0
            guidance = nil
            phase = .freeDrive
            retry = RouteRetry()
            if let p = lastPosition { request(.start, from: p, time: time, &out) }
        case .cancel:
            waypoints = []
            guidance = nil
            pending = nil
            phase = .freeDrive
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
                phase = guidance == nil ? .freeDrive : .offRoute
            } else {
                out.append(.emit(NavigationEvent(time: time, .rerouteFailed(error: error))))
                phase = .freeDrive
            }
        case .speechStarted, .speechEnded:
            noteSpeech(input)
        case let .trafficChanged(time):
            if let g = guidance, let p = lastPosition, pending == nil, phase == .tracking {
                lastTrafficCheck = time
                request(.traffic, from: p, time: time, previous: edgesAhead(g), &out)
            }
        case let .trafficAnswer(id, route, current, free, time, alternatives):
            guard let req = pending, req.id == id else { break }
            pending = nil
            onTraffic(route: route, current: current, free: free, alternatives: alternatives, time: time, &out)
        case let .reroute(time):
            guard let g = guidance, pending == nil, let p = lastPosition, phase == .offRoute || phase == .tracking else { break }
            startReroute(g, from: p, time: time, automatic: false, &out)
        case .continueRoute:
            guard phase == .waypoint, var g = guidance else { break }
            g.startNextLeg()
            guidance = g
            phase = .tracking
            if let p = lastPosition { track(p, &out) }
        case let .gpsLost(time):
            if phase == .tracking { phase = .uncertain }
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
            courseDeg: p.courseDegrees, road: road, matched: matched?.isMatched ?? false, estimated: p.estimated))))
        if let r = road, !r.isEmpty, r != lastRoad {
            lastRoad = r
            out.append(.emit(NavigationEvent(time: p.time, .roadName(name: r))))
        }
        if let m = matched, let limit = m.speedLimitKmh, let v = p.speedMetersPerSecond {
            let over = (v * 3.6 / limit - 1) * 100
            if over >= 10 { out.append(.emit(NavigationEvent(time: p.time, .speeding(percentOver: over, limitKmh: limit)))) }
        }
        lightingUpdate(p, &out)
        if p.estimated && phase == .tracking { phase = .uncertain }
        if !p.estimated && phase == .uncertain { phase = .tracking }
        switch phase {
        case .idle, .arrived, .waypoint:
            return
        case .freeDrive:
            if !waypoints.isEmpty && pending == nil && retry.mayRequest(time: p.time, at: p.coordinate) {
                request(.start, from: p, time: p.time, &out)
            }
        case .rerouting:
            return  // the request is under way; the position is applied when the route arrives
        case .tracking, .offRoute, .uncertain:
            track(p, &out)
        }
    }

    mutating func track(_ p: FilteredPosition, _ out: inout [NavigatorEffect]) {
        guard var g = guidance else { return }
        let leg = g.route.route.legs[g.legIndex]
        let maneuvers = g.route.maneuvers[g.legIndex]
        // The first real fix after estimated ones (a tunnel): the estimate may have run ahead of
        // the car or fallen behind it, so the car is looked for anywhere along the leg, may be
        // put back, and the off-route evidence gathered on the estimate is dropped.
        let resync = g.onEstimate && !p.estimated
        g.onEstimate = p.estimated
        if resync {
            // the filter has just restarted on the fix: its course settles over a few fixes
            g.graceFixes = 5
            g.lastTrackTime = nil
            g.offRouteCount = 0
            g.backtrack = nil
            g.recentDistances = []
            g.travelSinceOnLine = .infinity
            g.travelCountedAt = nil
        }
        let dt = g.lastTrackTime.map { max(0, p.time - $0) } ?? .infinity
        let reach = dt.isFinite ? max(40, (p.speedMetersPerSecond ?? 15) * dt * 1.5 + 25) : .infinity
        let pos = RouteTracker.locate(p.coordinate, on: leg, hint: g.segment, courseDegrees: p.courseDegrees,
                                      from: g.lastTrackTime == nil ? nil : g.alongMeters, reach: reach)
        g.lastTrackTime = p.time
        if resync, pos.distanceMeters <= config.offRouteDistanceMeters {
            g.segment = pos.segment
            g.alongMeters = pos.alongMeters
        }
        // Never move backwards along the leg on noise; a real turn-around shows as off route.
        if pos.alongMeters >= g.alongMeters - 30 || pos.distanceMeters > config.offRouteDistanceMeters {
            g.segment = pos.segment
            g.alongMeters = max(pos.alongMeters, g.alongMeters - 30)
        }

        // Off route? By the configured policy's anchors, or backtracking along the route.
        var judged = phase == .uncertain ? nil : judgeOffRoute(p, pos, &g, maneuvers: maneuvers)
        if g.graceFixes > 0 {
            // just out of a tunnel: the restarted filter's course is not yet to be trusted, so
            // only the place counts (distance, the matcher's road)
            g.graceFixes -= 1
            if let r = judged?.reason, !r.isByPlace { judged = nil }
        }
        if judged != nil {
            g.offRouteCount += 1
        } else if (p.speedMetersPerSecond ?? 0) >= 0.5 {
            g.offRouteCount = 0
            if phase == .offRoute { phase = .tracking }
        }
        // (a standing car neither leaves the route nor comes back to it: the rules on position
        // do not judge it, and what was judged before it stopped holds: off the route, it stays
        // off, as the distance rule held it before issue #24)
        if judged == nil, phase == .offRoute, (p.speedMetersPerSecond ?? 0) < 0.5 {
            guidance = g
            return
        }
        let needed = judged?.needed ?? Int.max
        // a route planned before the car moved may start the other way: once the car shows its
        // direction without having driven along the route, plan again quietly (not an off-route;
        // a car that drove along the route and then left it made a wrong turn)
        if g.offRouteCount >= needed, pending == nil, g.plannedWithoutHeading, g.alongMeters < 30, p.courseDegrees != nil,
           (p.speedMetersPerSecond ?? 0) > 2 {
            g.plannedWithoutHeading = false
            g.offRouteCount = 0
            guidance = g
            dropPassedWaypoints(g)
            request(.start, from: p, time: p.time, &out)
            return
        }
        if g.offRouteCount >= needed, pending == nil, retry.mayRequest(time: p.time, at: p.coordinate) {
            let movedEnough = lastReroute.map {
                $0.at.distance(to: p.coordinate) >= config.rerouteMinimumMovementMeters && p.time - $0.time >= config.rerouteMinimumIntervalSeconds
            } ?? true
            if movedEnough {
                // said once per leaving (a refused reroute leaves the phase at offRoute)
                if phase != .offRoute || config.automaticReroute {
                    let reason = (judged?.reason ?? .distance).rawValue
                    out.append(.emit(NavigationEvent(time: p.time, .offRoute(distanceMeters: pos.distanceMeters, reason: reason))))
                    // what is being said was for the route left: cut it, so that the new route's
                    // first prompt is heard at once
                    out.append(.silence)
                    speakingUntil = p.time
                }
                phase = .offRoute
                guidance = g
                // the policy may refuse: then wait for `.reroute`
                if config.automaticReroute { startReroute(g, from: p, time: p.time, automatic: true, &out) }
                return
            }
        }

        // arrival at the end of this leg (ArrivalRule)
        let end = leg.shape[leg.shape.count - 1]
        let waypoints = g.route.route.waypoints
        let situation = ArrivalRule.Situation(
            legLeftMeters: leg.distanceMeters - g.alongMeters, position: p.coordinate, speedMetersPerSecond: p.speedMetersPerSecond,
            routeEnd: end, requested: g.legIndex + 1 < waypoints.count ? waypoints[g.legIndex + 1] : end,
            // (read by the rule only within 60 m of the end: not worked out on every fix)
            turnAhead: leg.distanceMeters - g.alongMeters < ArrivalRule.nearEndMeters && turnAhead(maneuvers, beyondMeters: g.alongMeters + 1),
            deadReckonedSeconds: p.estimated ? p.time - (lastRealFixTime ?? p.time) : 0)
        if ArrivalRule(config: config).arrived(situation) {
            let isLast = g.legIndex == g.route.route.legs.count - 1
            let index = waypointBase + g.legIndex + 1
            let arriveManeuver = maneuvers.last
            let arrival = PromptLedger.Ref(leg: g.legIndex, index: maneuvers.count - 1)
            if let m = arriveManeuver, !g.prompts.wasGiven(arrival, .arrive) {
                g.prompts.give(arrival, [.arrive])
                let t = text.prompt(m, kind: .arrive, distanceMeters: 0)
                speak(Prompt(text: t, locale: config.locale, kind: .arrive, maneuver: m), time: p.time, &out)
            }
            if isLast {
                out.append(.emit(NavigationEvent(time: p.time, .arrived(index: index, name: arriveManeuver?.street ?? ""))))
                phase = .arrived
                guidance = g
                return
            }
            out.append(.emit(NavigationEvent(time: p.time, .waypointArrived(index: index, name: arriveManeuver?.street ?? "",
                                                                             continues: config.continueAtWaypoints))))
            if !config.continueAtWaypoints {
                // stay until told (`.continueRoute`): no tracking, no off-route, no prompts
                phase = .waypoint
                guidance = g
                return
            }
            g.startNextLeg()
            guidance = g
            return
        }

        // progress
        let legLeft = situation.legLeftMeters
        let legSecondsDone = RouteTracker.seconds(at: g.alongMeters, on: leg, segment: g.segment)
        var laterMeters = 0.0, laterSeconds = 0.0
        for l in g.route.route.legs[(g.legIndex + 1)...] { laterMeters += l.distanceMeters; laterSeconds += l.durationSeconds }
        let nextIndex = maneuvers.firstIndex { $0.distanceFromStartMeters > g.alongMeters + 1 } ?? (maneuvers.count - 1)
        let next = maneuvers[nextIndex]
        let toNext = max(0, next.distanceFromStartMeters - g.alongMeters)
        let legSecondsLeft = max(0, leg.durationSeconds - legSecondsDone + trafficCorrection)
        let instructions = text
        let instruction = g.texts.text(PromptTexts.Key(index: nextIndex, form: .listed, kind: nil, distance: nil, then: nil, thenForm: nil),
                                       build: { instructions.text(next) }, seconds: { _ in 0 }).text
        let progress = RouteProgress(
            legIndex: g.legIndex, stepIndex: max(0, nextIndex - 1), legDistanceTraveledMeters: g.alongMeters,
            legRemainingMeters: max(0, legLeft), legRemainingSeconds: legSecondsLeft,
            stepRemainingMeters: toNext,
            stepRemainingSeconds: max(0, RouteTracker.seconds(at: next.distanceFromStartMeters, on: leg, segment: next.shapeIndex) - legSecondsDone),
            remainingMeters: max(0, legLeft) + laterMeters, remainingSeconds: legSecondsLeft + laterSeconds,
            nextManeuver: next, nextInstruction: instruction, distanceToNextMeters: toNext,
            distanceFromRouteMeters: pos.distanceMeters)
        g.progress = progress
        let due: Bool
        if let last = g.lastProgress {
            due = last.step != progress.stepIndex || abs(last.remaining - progress.remainingMeters) >= config.distanceUpdateThresholdMeters
                || p.time - last.time >= config.timeUpdateThresholdSeconds
        } else {
            due = true
        }
        if due {
            g.lastProgress = (p.time, progress.remainingMeters, progress.stepIndex)
            out.append(.emit(NavigationEvent(time: p.time, .progress(progress))))
        }

        // traffic: is there a faster route? (every couple of minutes while the trip is long)
        if phase == .tracking, pending == nil, progress.remainingSeconds > config.trafficCheckMinimumRemainingSeconds,
           p.time - (lastTrafficCheck ?? p.time) >= config.trafficCheckSeconds {
            lastTrafficCheck = p.time
            guidance = g
            request(.traffic, from: p, time: p.time, previous: edgesAhead(g), &out)
        }

        // prompts for the next maneuver (on the estimate too: the route is known); no far or "turn
        // in" prompt while the car looks off the route on fewer fixes than the policy needs to say
        // so (at a missed turn, "In 200 metres, at the end of the road, turn left onto L 600" for
        // the road not taken was said a second before the off-route, and cut off by the new
        // route's prompt); a "now" prompt is not held (a false alarm as it falls due would lose it)
        if phase == .tracking || phase == .uncertain {
            // (the time to the next fix: a "now" prompt is said at the last fix that still leaves time)
            let fixInterval = dt.isFinite ? min(max(dt, 0.2), 2) : 1
            // (the speed the route expects up to the next maneuver: a car that has just turned
            // and is slow now will be faster soon)
            let routeSpeed = progress.stepRemainingSeconds > 1 ? min(toNext / progress.stepRemainingSeconds, 40) : 0
            schedulePrompts(&g, maneuvers: maneuvers, nextIndex: nextIndex, toNext: toNext, speed: p.speedMetersPerSecond ?? 0,
                            routeSpeed: routeSpeed, fixInterval: fixInterval, time: p.time, leaving: judged != nil, &out)
        }
        guidance = g
    }
}
