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

    private struct Guidance: Sendable {
        var route: NavigationRoute
        var legIndex = 0
        var segment = 0
        var alongMeters = 0.0
        /// Time of the last position tracked on this leg.
        var lastTrackTime: Double?
        /// The route was planned from a standing car (no course): its direction may be wrong.
        var plannedWithoutHeading = false
        /// Prompts already given: "leg:maneuver:kind".
        var promptsGiven = Set<String>()
        /// When a "..., then X" prompt that announced maneuver X ended (by "leg:index"): X gets a
        /// "now" prompt of its own only when that was a while ago.
        var thenEnds = [String: Double]()
        /// When the "turn in" prompt of a maneuver ended (by "leg:index"): a "now" prompt soon
        /// after it does not repeat the names just heard.
        var turnInEnds = [String: Double]()
        var offRouteCount = 0
        /// Driving back along the route: where it started (metres along the leg) and for how many fixes.
        var backtrack: (from: Double, fixes: Int)?
        /// The last distances from the route line (newest last), for a steady drift away.
        var recentDistances: [Double] = []
        /// The last position tracked was an estimate (no fix).
        var onEstimate = false
        /// Fixes still to go after a tunnel before course and drift count for off route.
        var graceFixes = 0
        var lastProgress: (time: Double, remaining: Double, step: Int)?
        var progress: RouteProgress?
        /// The roads (undirected edge ids) of each leg, to tell a matched road off the route.
        let legRoads: [Set<UInt32>]

        init(route: NavigationRoute) {
            self.route = route
            legRoads = route.route.legs.map { Set($0.edges.map(\.edge)) }
        }

        /// On to the next leg, from its start.
        mutating func startNextLeg() {
            legIndex += 1
            segment = 0
            alongMeters = 0
            lastTrackTime = nil
            lastProgress = nil
        }
    }

    public private(set) var config: NavigatorConfig
    public private(set) var phase: Phase = .idle
    private var guidance: Guidance?
    /// When the prompt being spoken is expected to end (no new prompt before).
    private var speakingUntil = -Double.infinity
    /// Destination and vias still ahead.
    private var waypoints: [Coordinate] = []
    private var waypointBase = 0
    private var nextRequestID = 1
    private var pending: RouteRequest?
    private var lastReroute: (time: Double, at: Coordinate)?
    /// Times of recent reroutes, for the loop guard.
    private var rerouteTimes: [Double] = []
    /// Back-off after route requests that fail one after another.
    private var retry = RouteRetry()
    /// The lighting last suggested, and the fix time it was last worked out at.
    private var lighting: String?
    private var lastLightingCheck: Double?
    /// Traffic: when the route was last checked, the delay category last said, and the seconds
    /// the current route's remaining time is off its own estimate under the latest traffic.
    private var lastTrafficCheck: Double?
    private var delayCategory: String?
    private var trafficCorrection = 0.0
    private var lastPosition: FilteredPosition?
    /// The roads the two matchers put the last position on (with and without the route's prior).
    private var lastMatchedEdge: DirectedEdge?
    private var lastUnbiasedEdge: DirectedEdge?
    private var lastRoad: String?
    private var gpsLostSince: Double?
    /// When the last position from a real fix came.
    private var lastRealFixTime: Double?
    private let text: Instructions

    public init(config: NavigatorConfig = NavigatorConfig()) {
        self.config = config
        text = Instructions(locale: GuidanceLocale.named(config.locale) ?? .english, units: config.units)
    }

    /// The current progress, when guiding.
    public var progress: RouteProgress? { guidance?.progress }
    public var route: NavigationRoute? { guidance?.route }
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
            guard let req = pending, req.id == id else { break }  // stale: a newer request is under way
            pending = nil
            retry.succeeded()
            let previous = guidance?.route.route
            var resembles: Bool?
            if let old = previous, let mapBased = routeResemblance(old, route.route) { resembles = mapBased }
            guidance = Guidance(route: route)
            guidance?.plannedWithoutHeading = req.headingDegrees == nil && req.reason == .start
            phase = .tracking
            trafficCorrection = 0
            if lastTrafficCheck == nil || req.reason != .traffic { lastTrafficCheck = time }
            out.append(.emit(NavigationEvent(time: time, .routeComputed(
                reason: req.reason.rawValue, distanceMeters: route.route.distanceMeters, durationSeconds: route.route.durationSeconds,
                resemblesPrevious: resembles, shape: Polyline.encode(route.route.shape)))))
            if req.reason == .reroute {
                out.append(.emit(NavigationEvent(time: time, .rerouted(distanceMeters: route.route.distanceMeters,
                                                                        durationSeconds: route.route.durationSeconds))))
            }
            // a moving car whose new route starts the other way (a dead end, a one-way street:
            // the router found nothing ahead) is told to turn round when it can, and only then
            let turnRound: Bool = {
                guard let p = lastPosition, let course = p.courseDegrees, (p.speedMetersPerSecond ?? 0) > 2,
                      let leg = route.route.legs.first, leg.shape.count >= 2 else { return false }
                var j = 1
                while j < leg.shape.count - 1 && leg.shape[0].distance(to: leg.shape[j]) < 20 { j += 1 }
                return abs(Angle.difference(from: course, to: leg.shape[0].bearing(to: leg.shape[j]))) > 150
            }()
            if turnRound {
                speak(Prompt(text: text.message("prompt.uturn_when_possible"), locale: config.locale, kind: .now, maneuver: nil),
                      time: time, &out)
            } else if let list = route.maneuvers.first, let depart = list.first, depart.type == .depart {
                // say where to head (the depart instruction), as every navigator does when a
                // route starts; when the first maneuver is right at the start, say it instead
                let v = max(lastPosition?.speedMetersPerSecond ?? 0, 3)
                let spoken = list.indices.filter { $0 > 0 && isAnnounced(list, $0) && list[$0].type != .arrive }
                var first = depart, announced = [Int]()
                if let i1 = spoken.first, list[i1].distanceFromStartMeters < max(30, v * 2) {
                    first = list[i1]
                    announced.append(i1)
                }
                // a car already moving (a reroute, a destination set on the way) is not told to
                // "head north": it hears what comes next, or how far to go on
                if first.type == .depart, (lastPosition?.speedMetersPerSecond ?? 0) > Navigator.movingSpeed {
                    let target = spoken.first ?? (list.count - 1)
                    let m = list[target], d = m.distanceFromStartMeters
                    let nowSeconds = speechSeconds(text.prompt(m, kind: .now, distanceMeters: 0))
                    // (a "turn in" prompt that leaves no room for the short "now" prompt after it
                    // is not said: the "now" prompt, names and all, is said at once; "In 80 metres,
                    // turn slightly left onto Avenue de la Costa at Parking de la Costa" took 7 s
                    // at 30 km/h, and the turn went by with no "now" prompt)
                    let near = d <= max(1000, v * 45)
                    let turnIn = near ? text.prompt(m, kind: .turnIn, distanceMeters: d) : text.message("prompt.continue_for", distanceMeters: d)
                    let shortNow = speechSeconds(text.prompt(Navigator.bare(m, keepingLandmark: true) ?? m, kind: .now, distanceMeters: 0))
                    let noRoom = near && d - v * speechSeconds(turnIn) < v * (shortNow + config.promptMarginSeconds + 1)
                    if m.type != .arrive, d <= v * (nowSeconds + config.promptMarginSeconds + 2) || noRoom {
                        first = m
                        announced.append(target)
                    } else {
                        speak(Prompt(text: turnIn, locale: config.locale, kind: .turnIn, maneuver: m), time: time, &out)
                        if near, var g = guidance {
                            // far out, the usual "turn in" prompt still comes nearer the maneuver
                            let far = d > 2 * (max(150, v * 13) + v * speechSeconds(turnIn))
                            for k in far ? [PromptKind.prepare] : [.prepare, .turnIn] { g.promptsGiven.insert("0:\(target):\(k.rawValue)") }
                            g.turnInEnds["0:\(target)"] = speakingUntil
                            guidance = g
                        }
                        if let p = lastPosition { track(p, &out) }
                        break
                    }
                }
                // a maneuver whose own prompt could not start before this one ends comes with it
                let startSeconds = speechSeconds(text.prompt(first, kind: .now, distanceMeters: 0))
                let thenIndex = spoken.first {
                    !announced.contains($0) && (followsClosely(first, list[$0], speed: v)
                        || list[$0].distanceFromStartMeters - first.distanceFromStartMeters
                            <= v * (startSeconds + speechSeconds(text.prompt(list[$0], kind: .now, distanceMeters: 0)) + config.promptMarginSeconds + 1))
                }
                    // (a new name straight on needs no "then")
                    .flatMap { list[$0].isNameChangeOnly ? nil : $0 }
                // (what follows is said short, as in the prompt plan, to a moving car; a parked
                // one has the time to hear its name)
                let parked = (lastPosition?.speedMetersPerSecond ?? 0) <= Navigator.movingSpeed
                // (said instead of the departure, the road the car is on was never named: no "to
                // stay on Fritz-Frey-Straße" yet, here or in what follows)
                if first.type != .depart { first.staysOnRoad = false }
                var thenWords = thenIndex.map { parked ? list[$0] : Navigator.bare(list[$0]) ?? list[$0] }
                if first.type != .depart { thenWords?.staysOnRoad = false }
                let words = text.prompt(first, kind: .now, distanceMeters: 0, then: thenWords)
                speak(Prompt(text: words, locale: config.locale, kind: .now, maneuver: first, then: thenIndex.map { list[$0] }), time: time, &out)
                if var g = guidance {
                    for i in announced { for k in [PromptKind.prepare, .turnIn, .now] { g.promptsGiven.insert("0:\(i):\(k.rawValue)") } }
                    if let t = thenIndex {
                        for k in [PromptKind.prepare, .turnIn] { g.promptsGiven.insert("0:\(t):\(k.rawValue)") }
                        g.thenEnds["0:\(t)"] = speakingUntil
                    }
                    guidance = g
                }
            }
            if let p = lastPosition { track(p, &out) }
        case let .routeFailed(id, error, time):
            guard let req = pending, req.id == id else { break }
            pending = nil
            retry.failed(time: time, at: lastPosition?.coordinate ?? req.origin)
            if req.reason == .reroute {
                out.append(.emit(NavigationEvent(time: time, .rerouteFailed(error: error))))
                phase = guidance == nil ? .freeDrive : .offRoute
            } else {
                out.append(.emit(NavigationEvent(time: time, .rerouteFailed(error: error))))
                phase = .freeDrive
            }
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

    /// The suggested lighting from the sun's elevation at the position and fix time, emitted when
    /// it changes (with a little hysteresis so that it does not flicker at the boundary).
    private mutating func lightingUpdate(_ p: FilteredPosition, _ out: inout [NavigatorEffect]) {
        // the sun moves a quarter of a degree a minute: once a minute of fix time is enough
        if let last = lastLightingCheck, p.time - last < 60, p.time >= last { return }
        lastLightingCheck = p.time
        let e = SolarPosition.elevationDegrees(at: p.coordinate, time: p.time)
        let day = config.dayAboveDegrees, night = config.nightBelowDegrees, h = config.lightingHysteresisDegrees
        let mode: String
        if let current = lighting {
            // a change only when the sun is past the boundary by the hysteresis
            if e > day + h { mode = "day" } else if e < night - h { mode = "night" } else if e < day - h && e > night + h { mode = "twilight" }
            else { mode = current }
        } else {
            mode = e >= day ? "day" : (e < night ? "night" : "twilight")
        }
        if mode != lighting {
            lighting = mode
            out.append(.emit(NavigationEvent(time: p.time, .lighting(mode: mode))))
        }
    }

    /// A traffic check's answer: the delay category of the current route, its remaining time under
    /// traffic, and a switch to a route taking at most `fasterRouteRatio` of that time (or any
    /// route, when the current one is closed).
    private mutating func onTraffic(route: NavigationRoute?, current: Double?, free: Double, alternatives: [RouteAlternative], time: Double,
                                    _ out: inout [NavigatorEffect]) {
        // the current route's time left on the same terms as the new route's: the route's own
        // time from here (turn costs included, the road under the car only from the car on) plus
        // what the traffic adds to the roads ahead. (The roads ahead timed whole against a route
        // timed from the car once found "a faster route" on the very same roads, 128 s of it.)
        var remaining = current
        if let c = current, let g = guidance {
            let own = RouteTracker.remainingSeconds(g.route.route, legIndex: g.legIndex, alongMeters: g.alongMeters, segment: g.segment)
            let delay = max(0, c - free)
            trafficCorrection = delay
            remaining = own + delay
            let ratio = free > 0 ? delay / free : 0
            let category = ratio < 0.05 || delay < 30 ? "none" : ratio < 0.15 ? "light" : ratio < 0.35 ? "medium" : "heavy"
            if category != delayCategory {
                delayCategory = category
                out.append(.emit(NavigationEvent(time: time, .delayCategory(category: category, delaySeconds: delay))))
            }
        }
        guard let r = route else {
            if current == nil { out.append(.emit(NavigationEvent(time: time, .rerouteFailed(error: "the route is closed and no other exists")))) }
            return
        }
        let faster = remaining.map { r.route.durationSeconds <= config.fasterRouteRatio * $0 } ?? true
        guard faster else { return }
        var resembles: Bool?
        if let old = guidance?.route.route { resembles = routeResemblance(old, r.route) }
        guidance = Guidance(route: r)
        phase = .tracking
        trafficCorrection = 0
        out.append(.emit(NavigationEvent(time: time, .routeComputed(
            reason: RouteReason.traffic.rawValue, distanceMeters: r.route.distanceMeters, durationSeconds: r.route.durationSeconds,
            resemblesPrevious: resembles, shape: Polyline.encode(r.route.shape)))))
        out.append(.emit(NavigationEvent(time: time, .trafficReroute(
            savedSeconds: remaining.map { max(0, $0 - r.route.durationSeconds) } ?? 0, previousSeconds: remaining,
            durationSeconds: r.route.durationSeconds, resemblesPrevious: resembles, alternatives: alternatives))))
        speak(Prompt(text: text.message("prompt.faster_route"), locale: config.locale, kind: .now, maneuver: nil), time: time, &out)
        if let p = lastPosition { track(p, &out) }
    }

    /// A reroute from `p`: the waypoints passed dropped, the loop guard counting automatic ones
    /// (reroute after reroute in a short time means the routes keep failing the driver: the next
    /// one is a full recalculation).
    private mutating func startReroute(_ g: Guidance, from p: FilteredPosition, time: Double, automatic: Bool,
                                       _ out: inout [NavigatorEffect]) {
        out.append(.emit(NavigationEvent(time: time, .rerouteStarted(from: p.coordinate))))
        lastReroute = (time, p.coordinate)
        var full = false
        if automatic {
            rerouteTimes = rerouteTimes.filter { time - $0 < config.rerouteLoopSeconds } + [time]
            full = rerouteTimes.count > config.rerouteLoopCount
            if full { rerouteTimes.removeAll() }
        }
        dropPassedWaypoints(g)
        request(.reroute, from: p, time: time, full: full, previous: full ? [] : edgesAhead(g), &out)
    }

    /// The legs already driven are behind: the waypoints still ahead start at the current leg.
    private mutating func dropPassedWaypoints(_ g: Guidance) {
        waypoints = Array(waypoints[min(g.legIndex, waypoints.count - 1)...])
        waypointBase += g.legIndex
    }

    /// The old route's edges from the car's place on, over the legs still ahead.
    private func edgesAhead(_ g: Guidance) -> [DirectedEdge] {
        let legs = g.route.route.legs
        guard g.legIndex < legs.count else { return [] }
        let leg = legs[g.legIndex]
        let from = min(max(0, leg.edgeIndex(atShapeIndex: g.segment)), max(0, leg.edges.count - 1))
        return Array(leg.edges[from...]) + legs[(g.legIndex + 1)...].flatMap(\.edges)
    }

    /// Similarity needs the edges; routes carry them, so compare directed-edge sets by length share.
    private func routeResemblance(_ a: Route, _ b: Route) -> Bool? {
        var old = Set<UInt32>()
        for leg in a.legs { for d in leg.edges { old.insert(d.raw) } }
        var shared = 0, total = 0
        for leg in b.legs { for d in leg.edges { total += 1; if old.contains(d.raw) { shared += 1 } } }
        return total > 0 ? Double(shared) / Double(total) >= 0.6 : nil
    }

    private mutating func request(_ reason: RouteReason, from p: FilteredPosition, time: Double, full: Bool = false,
                                  previous: [DirectedEdge] = [], _ out: inout [NavigatorEffect]) {
        guard !waypoints.isEmpty else { return }
        // a reroute starts where the car will be when the route is ready, in its direction
        var origin = p.coordinate
        if reason == .reroute, let v = p.speedMetersPerSecond, v > 1, let course = p.courseDegrees {
            origin = p.coordinate.moved(meters: v * config.rerouteLeadSeconds, bearingDegrees: course)
        }
        var req = RouteRequest(id: nextRequestID, reason: reason, origin: origin, headingDegrees: full ? nil : p.courseDegrees,
                               waypoints: waypoints, time: time)
        req.full = full
        req.previousEdges = previous
        nextRequestID += 1
        pending = req
        if reason == .reroute { phase = .rerouting }
        out.append(.requestRoute(req))
    }

    private mutating func onPosition(_ p: FilteredPosition, _ matched: MatchedPosition?, _ out: inout [NavigatorEffect]) {
        if let since = gpsLostSince, !p.estimated {
            gpsLostSince = nil
            out.append(.emit(NavigationEvent(time: p.time, .gpsRecovered(since: since))))
        }
        lastPosition = p
        if !p.estimated { lastRealFixTime = p.time }
        let road = matched.flatMap { $0.isMatched ? ($0.roadName.isEmpty ? $0.roadRef : $0.roadName) : nil }
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

    private mutating func track(_ p: FilteredPosition, _ out: inout [NavigatorEffect]) {
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
        } else {
            g.offRouteCount = 0
            if phase == .offRoute { phase = .tracking }
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
            let movedEnough = lastReroute.map { $0.at.distance(to: p.coordinate) >= config.rerouteMinimumMovementMeters } ?? true
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
            turnAhead: turnAhead(maneuvers, beyondMeters: g.alongMeters + 1),
            deadReckonedSeconds: p.estimated ? p.time - (lastRealFixTime ?? p.time) : 0)
        if ArrivalRule(config: config).arrived(situation) {
            let isLast = g.legIndex == g.route.route.legs.count - 1
            let index = waypointBase + g.legIndex + 1
            let arriveManeuver = maneuvers.last
            if let m = arriveManeuver, !g.promptsGiven.contains("\(g.legIndex):\(maneuvers.count - 1):arrive") {
                g.promptsGiven.insert("\(g.legIndex):\(maneuvers.count - 1):arrive")
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
        let progress = RouteProgress(
            legIndex: g.legIndex, stepIndex: max(0, nextIndex - 1), legDistanceTraveledMeters: g.alongMeters,
            legRemainingMeters: max(0, legLeft), legRemainingSeconds: legSecondsLeft,
            stepRemainingMeters: toNext,
            stepRemainingSeconds: max(0, RouteTracker.seconds(at: next.distanceFromStartMeters, on: leg, segment: next.shapeIndex) - legSecondsDone),
            remainingMeters: max(0, legLeft) + laterMeters, remainingSeconds: legSecondsLeft + laterSeconds,
            nextManeuver: next, nextInstruction: text.text(next), distanceToNextMeters: toNext,
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

    /// Whether this position is off the route, why, and on how many consecutive fixes that must
    /// hold (the policies' anchors: DESIGN.md, docs/architecture.md):
    /// - `tern`: farther than max(50 m, 2 × accuracy), halved within 100 m of a maneuver where a
    ///   wrong turn starts, on 3 fixes (2 near a maneuver); or beyond max(12 m, accuracy) with the
    ///   course more than 60° off the route's, on 2 fixes; or on a road the route does not take
    ///   (the matcher's) beyond max(10 m, accuracy), on 3 fixes, where distance (over 12 m, or
    ///   rising) or course (20° off) confirms it; or drifting away from the route
    ///   beyond max(12 m, accuracy), farther on each of 4 fixes in a row and 8 m in all.
    /// - `mapbox`: beyond max(50 m, accuracy), halved within 40 m of a maneuver, on one fix; or the
    ///   course more than 60° off the route's on 4 fixes in a row.
    /// - `osmand`: beyond 2 × (30 m + accuracy) on one fix; or beyond 30 m + accuracy moving more
    ///   than 90° against the route.
    /// With every policy, driving back along the route (course more than 135° off it, the place
    /// along the route going back 15 m or more over `backtrackFixes` fixes) is backtracking: the
    /// car turned round on the route's own road, where no distance anchor sees it.
    private func judgeOffRoute(_ p: FilteredPosition, _ pos: LegPosition, _ g: inout Guidance,
                               maneuvers: [Maneuver]) -> (reason: OffRouteReason, needed: Int)? {
        let moving = (p.speedMetersPerSecond ?? 0) > 4
        let courseOff = p.courseDegrees.map { abs(Angle.difference(from: pos.bearingDegrees, to: $0)) } ?? 0
        func near(_ meters: Double) -> Bool {
            maneuvers.contains { $0.type != .depart && abs($0.distanceFromStartMeters - g.alongMeters) < meters }
        }
        // backtracking: on the line, but going back along it
        if courseOff > 135, (p.speedMetersPerSecond ?? 0) > 3 {
            if g.backtrack == nil { g.backtrack = (pos.alongMeters, 0) }
            g.backtrack!.fixes += 1
            if g.backtrack!.fixes >= config.backtrackFixes, g.backtrack!.from - pos.alongMeters >= 15 {
                return (.backtracking, 1)
            }
        } else {
            g.backtrack = nil
        }
        let d = pos.distanceMeters, acc = p.accuracyMeters, limit = config.offRouteDistanceMeters
        g.recentDistances.append(d)
        if g.recentDistances.count > 5 { g.recentDistances.removeFirst() }
        switch config.offRoutePolicy {
        case .tern:
            let nearManeuver = near(100)
            if d > max(nearManeuver ? limit / 2 : limit, 2 * acc) {
                return (.distance, nearManeuver || (moving && courseOff > 60) ? 2 : config.offRouteFixes)
            }
            if moving, courseOff > 60, d > max(12, acc) { return (.course, 2) }
            // the matcher has the car on a road the route does not take, clear of the route's
            // line: a fork whose branches part slowly, a parallel road (the route prior keeps the
            // matcher on the route while the car may be on it)
            // Only where distance or course confirm it (issue #24): a receiver's bias of 8 m is
            // slow and steady, and a matcher that took the road beside for the car gave false
            // off-routes on the planned road; a road parting from the route moves the car away
            // from the line, fix after fix, or along another course.
            let r = g.recentDistances
            let rising = (r.count >= 3 && r[r.count - 1] - r[r.count - 3] >= 2) || (r.count == 5 && r[4] - r[0] >= 4)
            let confirmed = d > 12 || (moving && courseOff > 20) || rising
            if confirmed, let e = lastMatchedEdge, !g.legRoads[g.legIndex].contains(e.edge), d > max(10, acc) {
                return (.road, 3)
            }
            // ... or, without the route's prior, on another road 7 m clear of the route's line
            if confirmed, moving, let e = lastUnbiasedEdge, !g.legRoads[g.legIndex].contains(e.edge), d > max(7, acc) {
                return (.road, 3)
            }
            // drifting away from the route fix after fix (a road parting slowly from the route's,
            // which the matcher's route prior still holds on the route): 4 rises in a row, 8 m
            // in all, beyond max(12 m, accuracy)
            if moving, r.count == 5, d > max(12, acc), zip(r, r.dropFirst()).allSatisfy({ $1 > $0 }), r[4] - r[0] >= 8 {
                return (.drift, 1)
            }
        case .mapbox:
            if d > max(near(40) ? limit / 2 : limit, acc) { return (.distance, 1) }
            if moving, courseOff > 60 { return (.course, 4) }
        case .osmand:
            if d > 2 * (30 + acc) { return (.distance, 1) }
            if moving, courseOff > 90, d > 30 + acc { return (.course, 1) }
        }
        return nil
    }

    /// Whether the prompt plan says maneuver `i` of `list`: the spoken ones, but not a new name
    /// straight on along the same ref without a lane to take ("Continue onto Avinguda Sant Antoni
    /// (CG-3)" on the CG-3: the signs say CG-3 all along; the console shows the name), nor one
    /// onto a road with neither name nor ref ("Continue."), nor one where no other road meets,
    /// nor a return to the name last heard past such changes ("Continue onto Landstrasse" to a
    /// driver who heard "Turn right onto Landstrasse" and nothing since).
    public func isAnnounced(_ list: [Maneuver], _ i: Int) -> Bool {
        let m = list[i]
        guard m.isSpoken, !isQuietNameChange(list, i) else { return false }
        if m.isNameChangeOnly, text.laneText(m) == nil {
            let k = lastHeard(list, before: i)
            if k < i - 1, list[k].street == m.street, list[k].ref == m.ref { return false }
        }
        return true
    }

    /// A name change not said by what it is alone (without a lane to take): onto a road without
    /// a name or ref, along the same ref, or where no other road meets.
    private func isQuietNameChange(_ list: [Maneuver], _ i: Int) -> Bool {
        let m = list[i]
        guard m.isNameChangeOnly, text.laneText(m) == nil else { return false }
        return (m.street.isEmpty && m.ref.isEmpty) || (!m.ref.isEmpty && i > 0 && list[i - 1].ref == m.ref) || m.atBend
    }

    /// The maneuver before `i` whose names the driver last heard: the nearest one said, or the
    /// start. (By the rules that look at a maneuver alone: one quiet because it returns to the
    /// name last heard carries that name, so stopping there finds the same name, and the walk
    /// stays linear; through `isAnnounced` it recursed once per quiet name change before it,
    /// 2^n calls on a run of n.)
    func lastHeard(_ list: [Maneuver], before i: Int) -> Int {
        var k = i - 1
        while k > 0 && (!list[k].isSpoken || isQuietNameChange(list, k)) { k -= 1 }
        return max(k, 0)
    }

    /// Whether a maneuver the plan announces (not the arrival) lies beyond `meters` along the leg.
    private func turnAhead(_ list: [Maneuver], beyondMeters meters: Double) -> Bool {
        var i = list.count - 1
        while i >= 0 && list[i].distanceFromStartMeters > meters {
            if list[i].type != .arrive && isAnnounced(list, i) { return true }
            i -= 1
        }
        return false
    }

    /// The speed above which a car counts as moving when a route starts: it is not told to
    /// "head north", and what follows its first maneuver is said short.
    static let movingSpeed = 2.5

    /// The speed a car leaves a turn or a roundabout at, about 30 km/h, for what can be said after it.
    static let turningSpeed = 8.0

    /// A maneuver said as the "then" of the one before gets a "now" prompt of its own, as a
    /// reminder, when that comes this long after the "then" prompt ended.
    static let reminderAfterSeconds = 4.0

    /// A "now" prompt leaves out the names when the maneuver's "turn in" prompt ended less than
    /// this long before the car reaches the maneuver.
    static let namesHeardSeconds = 15.0

    /// Whether `b` comes too soon after `a` to be announced on its own once `a` is passed: then
    /// it is said with `a` ("..., then ...").
    func followsClosely(_ a: Maneuver, _ b: Maneuver, speed v: Double) -> Bool {
        let own = speechSeconds(text.prompt(b, kind: .now, distanceMeters: 0)) + config.promptMarginSeconds + 2
        return b.distanceFromStartMeters - a.distanceFromStartMeters <= max(60, v * own)
    }

    /// Estimated seconds from deciding to speak a text to the end of its audio.
    func speechSeconds(_ text: String) -> Double {
        // a number is read as words: "9707" is "nine thousand seven hundred and seven"
        let digits = text.reduce(0) { $0 + ($1.isNumber ? 1 : 0) }
        let units = Double(text.count + 4 * digits)
        return config.speechLatencySeconds + units * (config.speechSecondsPerCharacter ?? self.text.locale.speechSecondsPerCharacter)
    }

    /// The prompt plan, by time at the current speed: a far prompt on fast roads, a "turn in"
    /// prompt, and a "now" prompt started early enough that it ends `promptMarginSeconds` before
    /// the maneuver (its length estimated from the text); an earlier prompt only when it can end
    /// before the next one must start; "then ..." when the next maneuver follows within seconds
    /// (it is not announced again); never a prompt for a maneuver passed or while another is
    /// still being spoken. Roundabout exits are part of the entry's instruction.
    private mutating func schedulePrompts(_ g: inout Guidance, maneuvers: [Maneuver], nextIndex: Int, toNext: Double, speed: Double,
                                          routeSpeed: Double, fixInterval: Double, time: Double, leaving: Bool,
                                          _ out: inout [NavigatorEffect]) {
        guard let index = maneuvers.indices.first(where: { $0 >= nextIndex && isAnnounced(maneuvers, $0) }) else { return }
        var m = maneuvers[index]
        // "to stay on Route de Menton" only where the driver heard that name: after a name change
        // not said (along the same ref, mid-road) it is "keep right onto Route de Menton"
        if m.staysOnRoad, maneuvers[lastHeard(maneuvers, before: index)].street != m.street { m.staysOnRoad = false }
        let d = toNext + (m.distanceFromStartMeters - maneuvers[nextIndex].distanceFromStartMeters)
        if time < speakingUntil { return }
        let v = max(speed, 3)
        // nothing is said farther out than the far prompt: no texts to build until then
        // (at a round distance, said as it is)
        let prepareAt = text.roundDistance(atMost: max(1000, v * 45))
        if d > prepareAt { return }
        let legIndex = g.legIndex
        let key = { (k: PromptKind) in "\(legIndex):\(index):\(k.rawValue)" }
        let margin = config.promptMarginSeconds

        // the "now" prompt, with the next maneuver when it follows within a few seconds
        var then: Maneuver?
        let nextAnnounced = maneuvers.indices.first { $0 > index && isAnnounced(maneuvers, $0) }
        // the speed after `m`: the car slows for a turn or a roundabout (the ring counts)
        let turns = m.type == .roundabout || m.type == .rotary || [.right, .sharpRight, .left, .sharpLeft, .uturn].contains(m.modifier)
        let vAfter = turns ? min(v, Navigator.turningSpeed) : v
        // for the last maneuver, the seconds until "you have arrived" may be said (the arrival is
        // taken 20 m or 3 s out): what is said for it ends a second before that, or runs into it
        // ("Turn right." still playing as "You have arrived" starts, 5 m after the turn)
        // (with the destination within the arrival distance of the turn, it is taken before the
        // turn, as soon as it is that close; after the turn, within 60 m only)
        let arrivalIn = nextAnnounced.flatMap { ai -> Double? in
            guard maneuvers[ai].type == .arrive, m.type != .arrive else { return nil }
            let gap = maneuvers[ai].distanceFromStartMeters - m.distanceFromStartMeters
            if gap < config.arrivalDistanceMeters { return max(0, d - (config.arrivalDistanceMeters - gap)) / v }
            return d / v + max(0, gap - min(60, max(config.arrivalDistanceMeters, config.arrivalSeconds * vAfter))) / vAfter
        }
        if let ai = nextAnnounced, m.type != .arrive, !maneuvers[ai].isNameChangeOnly {
            let after = maneuvers[ai]
            if after.type != .arrive {
                if followsClosely(m, after, speed: v) { then = after }
            } else {
                // the destination close after the last turn, too close for its own "turn in" prompt
                // once the car has turned, at the speed it turns at (the ring counts: that warning
                // may come while the car drives round it):
                // "Turn right, then you will reach your destination"; otherwise that warning came
                // after the turn or never (also in the reminder of a turn said as a "then", "Turn
                // left, then you will reach your destination", which waits for its moment below)
                let gap = after.distanceFromStartMeters - m.distanceFromStartMeters
                let warning = text.prompt(after, kind: .turnIn, distanceMeters: max(50, gap))
                if gap <= vAfter * (speechSeconds(warning) + margin) + 20 { then = after }
            }
        }
        // (what follows is said short, "..., then turn left": the long form is said early enough
        // to end before the first maneuver, and the longer it is the earlier that must be)
        let thenWords = then.map { Navigator.bare($0) ?? $0 }
        let fullNow = m.type == .arrive ? "" : text.prompt(m, kind: .now, distanceMeters: 0, then: thenWords)
        // the names heard a moment ago in the "turn in" prompt ("In 200 metres, turn right onto
        // Plöck after the traffic lights") are not said again: "Turn right after the traffic
        // lights", as Google's prompt is; the landmark, the exit number stay. (A "turn in" prompt
        // that ended less than `namesHeardSeconds` before the car reaches the maneuver; timed by
        // its own length, the short form is said near the maneuver, not where the long one was due.)
        // (built only where it is used: this runs on every fix within a kilometre of a maneuver)
        let instructions = text
        let shortNow = { m.type == .arrive ? nil
            : Navigator.bare(m, keepingLandmark: true).map { instructions.prompt($0, kind: .now, distanceMeters: 0, then: thenWords) } }
        let namesHeard = g.turnInEnds["\(legIndex):\(index)"].map { time - $0 + d / v < Navigator.namesHeardSeconds } ?? false
        let nowText = namesHeard ? shortNow() ?? fullNow : fullNow
        // said when it ends `margin` before the maneuver, or earlier by up to one fix: at the next
        // fix it might be too late (a window of one fix is missed on a jittery position)
        let nowAt = max(25, v * (speechSeconds(nowText) + margin + fixInterval))
        let turnInText = text.prompt(m, kind: .turnIn, distanceMeters: max(d, 50))
        // (the "turn in" prompt is placed at the speed the car will have: near the route's
        // expected speed when the car is much slower now, just after a turn; drivers keep a
        // quarter below it in town)
        let vt = max(v, 0.75 * routeSpeed)
        let turnInAt = max(150, vt * 13) + vt * speechSeconds(turnInText)

        var kind: PromptKind?
        var chosen = ""
        if m.type == .arrive {
            // the arrival itself is said on arrival; before it, one "turn in" when there is room
            if d <= turnInAt && d > v * (speechSeconds(turnInText) + margin) + 20 && !g.promptsGiven.contains(key(.turnIn)) {
                kind = .turnIn
                chosen = turnInText
            }
        } else if d <= nowAt {
            if let end = g.thenEnds["\(legIndex):\(index)"], time - end < Navigator.reminderAfterSeconds {
                // said as the "then" of the maneuver before a moment ago: not again yet; the
                // reminder waits for the end of those moments and is said then, in the longest form
                // that still fits (at the turn, as Google and Mapbox say each maneuver again),
                // else not at all. (Dropped when due in those moments, it was never said where the
                // second turn came 8 s after the first prompt; and "Turn left, then you will reach
                // your destination", due earlier for its length, never: the driver first heard of
                // the destination on reaching it.)
                return
            } else if !g.promptsGiven.contains(key(.now)) {
                // the longest form that still ends before the maneuver (half a second to spare):
                // with what follows; the maneuver alone (first when what follows can still have
                // a prompt of its own) or without its names with what follows ("turn left, then
                // ..."); without its names alone; too late even for that: nothing (a prompt after
                // the turn is worse than none)
                let bare = Navigator.bare(m)
                var forms: [(String, Maneuver?)] = [(nowText, then)]
                if let t = then, let tw = thenWords {
                    let alone = (text.prompt(m, kind: .now, distanceMeters: 0), Maneuver?.none)
                    let ownTime = t.distanceFromStartMeters - m.distanceFromStartMeters
                        >= v * (speechSeconds(text.prompt(tw, kind: .now, distanceMeters: 0)) + margin)
                    if ownTime { forms.append(alone) }
                    if let b = bare { forms.append((text.prompt(b, kind: .now, distanceMeters: 0, then: tw), t)) }
                    if !ownTime { forms.append(alone) }
                }
                if let b = bare { forms.append((text.prompt(b, kind: .now, distanceMeters: 0), nil)) }
                guard let form = forms.first(where: { f in
                    d >= v * (speechSeconds(f.0) + 0.5) && arrivalIn.map { $0 >= speechSeconds(f.0) + 1 } ?? true
                }) else {
                    g.promptsGiven.insert(key(.now))
                    return
                }
                kind = .now
                (chosen, then) = form
            }
        } else if d <= turnInAt {
            // only when it ends 1.5 s before the (short) "now" prompt must start, at the speed
            // the car will have (said at 15 km/h just after a turn, a long "turn in" prompt ran
            // into the "now" prompt at 45 km/h: the same words twice); where the whole prompt
            // does not fit, one without the names may ("In 400 metres, turn right", lanes kept);
            // and only with something to get ready for (a new name straight ahead is said once,
            // unless a lane is to be taken)
            let nowAtThen = max(25, vt * (speechSeconds(shortNow() ?? fullNow) + margin + fixInterval))
            var candidates = [turnInText]
            if let b = Navigator.bare(m) { candidates.append(text.prompt(b, kind: .turnIn, distanceMeters: max(d, 50))) }
            if !leaving, !g.promptsGiven.contains(key(.turnIn)) && (!m.isNameChangeOnly || text.laneText(m) != nil),
               let t = candidates.first(where: { d - vt * speechSeconds($0) > nowAtThen + vt * 1.5 }) {
                kind = .turnIn
                chosen = t
            }
        } else if d <= prepareAt && v >= 20 && !m.isNameChangeOnly && !leaving {
            let t = text.prompt(m, kind: .prepare, distanceMeters: d)
            if !g.promptsGiven.contains(key(.prepare)) && d - v * speechSeconds(t) > turnInAt + v * 2 {
                kind = .prepare
                chosen = t
            }
        }
        guard let k = kind else { return }
        // all earlier kinds count as given: never a far prompt after a near one
        g.promptsGiven.insert(key(k))
        if k == .now { g.promptsGiven.insert(key(.turnIn)); g.promptsGiven.insert(key(.prepare)) }
        if k == .turnIn { g.promptsGiven.insert(key(.prepare)) }
        speak(Prompt(text: chosen, locale: config.locale, kind: k, maneuver: m, then: k == .now ? then : nil), time: time, &out)
        if k == .turnIn { g.turnInEnds["\(legIndex):\(index)"] = speakingUntil }
        if k == .now, let t = then, let ti = maneuvers.firstIndex(where: { $0.distanceFromStartMeters == t.distanceFromStartMeters && $0.type == t.type }) {
            // announced: no far prompt of its own, and a "now" prompt only as a reminder when it
            // comes well after this one has ended (an arrival is still said on arrival)
            for kk in [PromptKind.prepare, .turnIn] { g.promptsGiven.insert("\(legIndex):\(ti):\(kk.rawValue)") }
            g.thenEnds["\(legIndex):\(ti)"] = speakingUntil
        }
    }

    /// The maneuver without the names that make its text long (street, ref, signs, and the
    /// landmark unless `keepingLandmark`), for a prompt that must be short; nil where nothing is
    /// left to say but "continue".
    static func bare(_ m: Maneuver, keepingLandmark: Bool = false) -> Maneuver? {
        // (not a merge: without its name, "merge" says neither where nor which side)
        guard !m.isNameChangeOnly, m.type != .arrive, m.type != .merge, m.modifier != .straight || m.type == .roundabout || m.type == .rotary,
              !m.street.isEmpty || !m.ref.isEmpty || !m.destination.isEmpty || (m.landmark != nil && !keepingLandmark) else { return nil }
        var b = m
        b.street = ""
        b.ref = ""
        b.destination = ""
        if !keepingLandmark { b.landmark = nil }
        b.rotaryName = ""
        b.staysOnRoad = false  // ("turn right to stay on ." without the name)
        return b
    }

    private mutating func speak(_ prompt: Prompt, time: Double, _ out: inout [NavigatorEffect]) {
        speakingUntil = max(speakingUntil, time) + speechSeconds(prompt.text)
        out.append(.emit(NavigationEvent(time: time, .prompt(text: prompt.text, locale: prompt.locale, kind: prompt.kind.rawValue,
                                                             maneuver: prompt.maneuver?.osrmTurn ?? ""))))
        out.append(.speak(prompt))
    }
}
