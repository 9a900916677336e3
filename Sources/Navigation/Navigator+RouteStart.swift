import Geo
import Guidance
import Routing

/// A route answered: the guidance on it, and what is said as it starts (the depart or the first
/// maneuver, or how far to go on for a car already moving).
extension Navigator {
    mutating func routeComputed(id: Int, _ route: NavigationRoute, time: Double, _ out: inout [NavigatorEffect]) {
        guard let req = pending, req.id == id else { return }  // stale: a newer request is under way
        pending = nil
        retry.succeeded()
        let previous = guidance?.route.route
        var resembles: Bool?
        if let old = previous, let mapBased = routeResemblance(old, route.route) { resembles = mapBased }
        guidance = Guidance(route: route, config: config, plannedAt: req.time)
        guidance?.mayStartOtherWay = req.headingDegrees == nil && req.reason == .start
        state = .tracking
        traffic.routeTaken(reason: req.reason, time: time)
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
            let spoken = list.indices.filter { $0 > 0 && rules.isAnnounced(list, $0) && list[$0].type != .arrive }
            var first = depart, announced = [Int]()
            if let i1 = spoken.first, list[i1].distanceFromStartMeters < max(30, v * 2) {
                first = list[i1]
                announced.append(i1)
            }
            // a car already moving (a reroute, a destination set on the way) is not told to
            // "head north": it hears what comes next, or how far to go on
            if first.type == .depart, (lastPosition?.speedMetersPerSecond ?? 0) > PromptRules.movingSpeed {
                let target = spoken.first ?? (list.count - 1)
                let m = list[target], d = m.distanceFromStartMeters
                let nowSeconds = rules.speechSeconds(text.prompt(m, kind: .now, distanceMeters: 0))
                // (a "turn in" prompt that leaves no room for the short "now" prompt after it
                // is not said: the "now" prompt, names and all, is said at once; "In 80 metres,
                // turn slightly left onto Avenue de la Costa at Parking de la Costa" took 7 s
                // at 30 km/h, and the turn went by with no "now" prompt)
                let near = d <= max(1000, v * 45)
                let turnIn = near ? text.prompt(m, kind: .turnIn, distanceMeters: d) : text.message("prompt.continue_for", distanceMeters: d)
                let shortNow = rules.speechSeconds(text.prompt(PromptRules.bare(m, keepingLandmark: true) ?? m, kind: .now, distanceMeters: 0))
                let noRoom = near && d - v * rules.speechSeconds(turnIn) < v * (shortNow + config.promptMarginSeconds + 1)
                if m.type != .arrive, d <= v * (nowSeconds + config.promptMarginSeconds + 2) || noRoom {
                    first = m
                    announced.append(target)
                } else {
                    speak(Prompt(text: turnIn, locale: config.locale, kind: .turnIn, maneuver: m), time: time, &out)
                    if near, var g = guidance {
                        // far out, the usual "turn in" prompt still comes nearer the maneuver
                        let far = d > 2 * (max(150, v * 13) + v * rules.speechSeconds(turnIn))
                        g.planner.ledger.give(PromptLedger.Ref(leg: 0, index: target), far ? [.prepare] : [.prepare, .turnIn])
                        g.planner.ledger.heardTurnIn(PromptLedger.Ref(leg: 0, index: target), until: speakingUntil)
                        guidance = g
                    }
                    if let p = lastPosition { track(p, &out) }
                    return
                }
            }
            // a maneuver whose own prompt could not start before this one ends comes with it
            let startSeconds = rules.speechSeconds(text.prompt(first, kind: .now, distanceMeters: 0))
            let thenIndex = spoken.first {
                !announced.contains($0) && (rules.followsClosely(first, list[$0], speed: v)
                    || list[$0].distanceFromStartMeters - first.distanceFromStartMeters
                        <= v * (startSeconds + rules.speechSeconds(text.prompt(list[$0], kind: .now, distanceMeters: 0)) + config.promptMarginSeconds + 1))
            }
                // (a new name straight on needs no "then")
                .flatMap { list[$0].isNameChangeOnly ? nil : $0 }
            // (what follows is said short, as in the prompt plan, to a moving car; a parked
            // one has the time to hear its name)
            let parked = (lastPosition?.speedMetersPerSecond ?? 0) <= PromptRules.movingSpeed
            // (said instead of the departure, the road the car is on was never named: no "to
            // stay on Fritz-Frey-Straße" yet, here or in what follows)
            if first.type != .depart { first.staysOnRoad = false }
            var thenWords = thenIndex.map { parked ? list[$0] : PromptRules.bare(list[$0]) ?? list[$0] }
            if first.type != .depart { thenWords?.staysOnRoad = false }
            let words = text.prompt(first, kind: .now, distanceMeters: 0, then: thenWords)
            speak(Prompt(text: words, locale: config.locale, kind: .now, maneuver: first, then: thenIndex.map { list[$0] }), time: time, &out)
            if var g = guidance {
                for i in announced { g.planner.ledger.give(PromptLedger.Ref(leg: 0, index: i), [.prepare, .turnIn, .now]) }
                if let t = thenIndex {
                    g.planner.ledger.give(PromptLedger.Ref(leg: 0, index: t), [.prepare, .turnIn])
                    g.planner.ledger.heardAsThen(PromptLedger.Ref(leg: 0, index: t), until: speakingUntil)
                }
                guidance = g
            }
        }
        if let p = lastPosition { track(p, &out) }
    }
}
