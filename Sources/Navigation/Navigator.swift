import Geo
import Guidance
import MapMatching
import Positioning
import Routing

/// The navigation engine as a value: events in, effects out, no clock and no I/O
/// (the shape of swift-nio's state machines and Mapbox v3's named states).
public struct Navigator: Sendable {
    public enum Phase: String, Sendable {
        case idle, freeDrive, tracking, offRoute, rerouting, arrived
    }

    private struct Guidance: Sendable {
        var route: NavigationRoute
        var legIndex = 0
        var segment = 0
        var alongMeters = 0.0
        /// Prompts already given: "leg:maneuver:kind".
        var promptsGiven = Set<String>()
        var offRouteCount = 0
        var lastProgress: (time: Double, remaining: Double, step: Int)?
        var progress: RouteProgress?
    }

    public private(set) var config: NavigatorConfig
    public private(set) var phase: Phase = .idle
    private var guidance: Guidance?
    /// Destination and vias still ahead.
    private var waypoints: [Coordinate] = []
    private var waypointBase = 0
    private var nextRequestID = 1
    private var pending: RouteRequest?
    private var lastReroute: (time: Double, at: Coordinate)?
    private var lastPosition: FilteredPosition?
    private var lastRoad: String?
    private var gpsLostSince: Double?
    private let text: Instructions

    public init(config: NavigatorConfig = NavigatorConfig()) {
        self.config = config
        text = Instructions(units: config.units)
    }

    /// The current progress, when guiding.
    public var progress: RouteProgress? { guidance?.progress }
    public var route: NavigationRoute? { guidance?.route }
    public var lastFix: FilteredPosition? { lastPosition }

    public mutating func handle(_ input: NavigatorInput) -> [NavigatorEffect] {
        var out = [NavigatorEffect]()
        switch input {
        case let .position(p, matched):
            onPosition(p, matched, &out)
        case let .discarded(time, reason):
            out.append(.emit(NavigationEvent(time: time, .discarded(reason: reason.rawValue))))
        case let .setDestination(points, time):
            waypoints = points
            waypointBase = 0
            guidance = nil
            phase = .freeDrive
            if let p = lastPosition { request(.start, from: p, time: time, &out) }
        case .cancel:
            waypoints = []
            guidance = nil
            pending = nil
            phase = .freeDrive
        case let .routeComputed(id, route, time):
            guard let req = pending, req.id == id else { break }  // stale: a newer request is under way
            pending = nil
            let previous = guidance?.route.route
            var resembles: Bool?
            if let old = previous, let mapBased = routeResemblance(old, route.route) { resembles = mapBased }
            guidance = Guidance(route: route)
            phase = .tracking
            out.append(.emit(NavigationEvent(time: time, .routeComputed(
                reason: req.reason.rawValue, distanceMeters: route.route.distanceMeters, durationSeconds: route.route.durationSeconds,
                resemblesPrevious: resembles, shape: Polyline.encode(route.route.shape)))))
            if req.reason == .reroute {
                out.append(.emit(NavigationEvent(time: time, .rerouted(distanceMeters: route.route.distanceMeters,
                                                                        durationSeconds: route.route.durationSeconds))))
            }
            // say where to head (the depart instruction), as every navigator does when a route starts
            if let depart = route.maneuvers.first?.first, depart.type == .depart {
                let next = route.maneuvers.first.flatMap { $0.count > 1 ? $0[1] : nil }
                let then = next.flatMap { n in n.distanceFromStartMeters < 150 ? n : nil }
                speak(Prompt(text: text.prompt(depart, kind: .now, distanceMeters: 0, then: then), locale: config.locale, kind: .now,
                             maneuver: depart), time: time, &out)
                if then != nil, var g = guidance {
                    g.promptsGiven.insert("0:1:now"); g.promptsGiven.insert("0:1:turnIn"); g.promptsGiven.insert("0:1:prepare")
                    guidance = g
                }
            }
            if let p = lastPosition { track(p, &out) }
        case let .routeFailed(id, error, time):
            guard let req = pending, req.id == id else { break }
            pending = nil
            if req.reason == .reroute {
                out.append(.emit(NavigationEvent(time: time, .rerouteFailed(error: error))))
                phase = guidance == nil ? .freeDrive : .offRoute
            } else {
                out.append(.emit(NavigationEvent(time: time, .rerouteFailed(error: error))))
                phase = .freeDrive
            }
        case let .gpsLost(time):
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

    /// Similarity needs the edges; routes carry them, so compare directed-edge sets by length share.
    private func routeResemblance(_ a: Route, _ b: Route) -> Bool? {
        var old = Set<UInt32>()
        for leg in a.legs { for d in leg.edges { old.insert(d.raw) } }
        var shared = 0, total = 0
        for leg in b.legs { for d in leg.edges { total += 1; if old.contains(d.raw) { shared += 1 } } }
        return total > 0 ? Double(shared) / Double(total) >= 0.6 : nil
    }

    private mutating func request(_ reason: RouteReason, from p: FilteredPosition, time: Double, _ out: inout [NavigatorEffect]) {
        guard !waypoints.isEmpty else { return }
        let req = RouteRequest(id: nextRequestID, reason: reason, origin: p.coordinate, headingDegrees: p.courseDegrees,
                               waypoints: waypoints, time: time)
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
        switch phase {
        case .idle, .arrived:
            return
        case .freeDrive:
            if !waypoints.isEmpty && pending == nil { request(.start, from: p, time: p.time, &out) }
        case .rerouting:
            return  // the request is under way; the position is applied when the route arrives
        case .tracking, .offRoute:
            track(p, &out)
        }
    }

    private mutating func track(_ p: FilteredPosition, _ out: inout [NavigatorEffect]) {
        guard var g = guidance else { return }
        let leg = g.route.route.legs[g.legIndex]
        let maneuvers = g.route.maneuvers[g.legIndex]
        let pos = RouteTracker.locate(p.coordinate, on: leg, hint: g.segment, courseDegrees: p.courseDegrees)
        // Never move backwards along the leg on noise; a real turn-around shows as off route.
        if pos.alongMeters >= g.alongMeters - 30 || pos.distanceMeters > config.offRouteDistanceMeters {
            g.segment = pos.segment
            g.alongMeters = max(pos.alongMeters, g.alongMeters - 30)
        }

        // Off route? Far from the route line (the limit halved near a maneuver, where a wrong
        // turn starts), or clearly off it while driving against its direction (Mapbox's anchors).
        let nearManeuver = maneuvers.contains { $0.type != .depart && abs($0.distanceFromStartMeters - g.alongMeters) < 100 }
        let limit = max(nearManeuver ? config.offRouteDistanceMeters / 2 : config.offRouteDistanceMeters, 2 * p.accuracyMeters)
        var courseDisagrees = false
        if let course = p.courseDegrees, (p.speedMetersPerSecond ?? 0) > 4 {
            courseDisagrees = abs(Angle.difference(from: pos.bearingDegrees, to: course)) > 60
        }
        let off = pos.distanceMeters > limit || (courseDisagrees && pos.distanceMeters > max(12, p.accuracyMeters))
        if off {
            g.offRouteCount += 1
        } else {
            g.offRouteCount = 0
            if phase == .offRoute { phase = .tracking }
        }
        let needed = nearManeuver || courseDisagrees ? 2 : config.offRouteFixes
        if g.offRouteCount >= needed, pending == nil {
            let movedEnough = lastReroute.map { $0.at.distance(to: p.coordinate) >= config.rerouteMinimumMovementMeters } ?? true
            if movedEnough {
                phase = .offRoute
                let reason = pos.distanceMeters > limit ? "distance" : "course"
                out.append(.emit(NavigationEvent(time: p.time, .offRoute(distanceMeters: pos.distanceMeters, reason: reason))))
                out.append(.emit(NavigationEvent(time: p.time, .rerouteStarted(from: p.coordinate))))
                lastReroute = (p.time, p.coordinate)
                guidance = g
                waypoints = Array(waypoints[min(g.legIndex, waypoints.count - 1)...])
                waypointBase += g.legIndex
                request(.reroute, from: p, time: p.time, &out)
                return
            }
        }

        // arrival at the end of this leg
        let legLeft = leg.distanceMeters - g.alongMeters
        let end = leg.shape[leg.shape.count - 1]
        if legLeft <= config.arrivalDistanceMeters || (legLeft < 60 && p.coordinate.distance(to: end) <= config.arrivalDistanceMeters) {
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
            out.append(.emit(NavigationEvent(time: p.time, .waypointArrived(index: index, name: arriveManeuver?.street ?? ""))))
            g.legIndex += 1
            g.segment = 0
            g.alongMeters = 0
            g.lastProgress = nil
            guidance = g
            return
        }

        // progress
        let legSecondsDone = RouteTracker.seconds(at: g.alongMeters, on: leg, segment: g.segment)
        var laterMeters = 0.0, laterSeconds = 0.0
        for l in g.route.route.legs[(g.legIndex + 1)...] { laterMeters += l.distanceMeters; laterSeconds += l.durationSeconds }
        let nextIndex = maneuvers.firstIndex { $0.distanceFromStartMeters > g.alongMeters + 1 } ?? (maneuvers.count - 1)
        let next = maneuvers[nextIndex]
        let toNext = max(0, next.distanceFromStartMeters - g.alongMeters)
        let progress = RouteProgress(
            legIndex: g.legIndex, stepIndex: max(0, nextIndex - 1), legDistanceTraveledMeters: g.alongMeters,
            legRemainingMeters: max(0, legLeft), legRemainingSeconds: max(0, leg.durationSeconds - legSecondsDone),
            remainingMeters: max(0, legLeft) + laterMeters, remainingSeconds: max(0, leg.durationSeconds - legSecondsDone) + laterSeconds,
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

        // prompts for the next maneuver
        if phase == .tracking {
            schedulePrompts(&g, maneuvers: maneuvers, nextIndex: nextIndex, toNext: toNext, speed: p.speedMetersPerSecond ?? 0, time: p.time, &out)
        }
        guidance = g
    }

    /// The prompt plan: by time at the current speed, early enough for speech to end before the
    /// maneuver; each prompt once; none for a maneuver already passed.
    private func schedulePrompts(_ g: inout Guidance, maneuvers: [Maneuver], nextIndex: Int, toNext: Double, speed: Double,
                                 time: Double, _ out: inout [NavigatorEffect]) {
        let m = maneuvers[nextIndex]
        guard m.type != .depart else { return }
        let v = max(speed, 5)
        let lead = config.speechLatencySeconds * v
        // distances at which each prompt starts
        let nowAt = max(30, v * 5) + lead
        let turnInAt = max(150, v * 13) + lead
        let prepareAt = max(1000, v * 45) + lead
        let legIndex = g.legIndex
        let key = { (k: PromptKind) in "\(legIndex):\(nextIndex):\(k.rawValue)" }
        let stepLength = nextIndex > 0 ? m.distanceFromStartMeters - maneuvers[nextIndex - 1].distanceFromStartMeters : m.distanceFromStartMeters

        var kind: PromptKind?
        if m.type == .arrive {
            if toNext <= turnInAt && toNext > nowAt && !g.promptsGiven.contains(key(.turnIn)) && stepLength > turnInAt * 0.5 { kind = .turnIn }
        } else if toNext <= nowAt {
            if !g.promptsGiven.contains(key(.now)) { kind = .now }
        } else if toNext <= turnInAt {
            if !g.promptsGiven.contains(key(.turnIn)) && !g.promptsGiven.contains(key(.now)) && toNext > nowAt + v * 3 { kind = .turnIn }
        } else if toNext <= prepareAt && v >= 20 {
            if !g.promptsGiven.contains(key(.prepare)) && !g.promptsGiven.contains(key(.turnIn)) && toNext > turnInAt + v * 5 { kind = .prepare }
        }
        guard let k = kind else { return }
        // all earlier kinds count as given: never a far prompt after a near one
        g.promptsGiven.insert(key(k))
        if k == .now { g.promptsGiven.insert(key(.turnIn)); g.promptsGiven.insert(key(.prepare)) }
        if k == .turnIn { g.promptsGiven.insert(key(.prepare)) }
        var then: Maneuver?
        if k == .now, nextIndex + 1 < maneuvers.count {
            let after = maneuvers[nextIndex + 1]
            if after.distanceFromStartMeters - m.distanceFromStartMeters <= max(60, v * 8) { then = after }
        }
        let t = text.prompt(m, kind: k, distanceMeters: toNext, then: then)
        speak(Prompt(text: t, locale: config.locale, kind: k, maneuver: m), time: time, &out)
    }

    private func speak(_ prompt: Prompt, time: Double, _ out: inout [NavigatorEffect]) {
        out.append(.emit(NavigationEvent(time: time, .prompt(text: prompt.text, locale: prompt.locale, kind: prompt.kind.rawValue,
                                                             maneuver: prompt.maneuver?.osrmTurn ?? ""))))
        out.append(.speak(prompt))
    }
}
