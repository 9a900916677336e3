import Geo
import Guidance
import Positioning

/// Arrival at the end of the current leg (ArrivalRule): the prompt, the event, and on to the
/// next leg, or the end of guidance.
extension Navigator {
    /// Whether the car has arrived at the end of the current leg, and if so says and reports it
    /// and moves on (`guidance` and `state` updated; `g` is consumed). `offRoute`: the car is
    /// off the route, so the place along it is not the car's and only the destination point
    /// itself counts (a car that pulls up there, by whatever way, has arrived).
    mutating func arriveIfThere(_ p: FilteredPosition, _ g: inout Guidance, offRoute: Bool, _ out: inout [NavigatorEffect]) -> Bool {
        let leg = g.tracker.leg
        let maneuvers = g.tracker.maneuvers
        let end = leg.shape[leg.shape.count - 1]
        let waypoints = g.route.route.waypoints
        let legLeft = offRoute ? Double.infinity : g.tracker.legLeftMeters
        let situation = ArrivalRule.Situation(
            legLeftMeters: legLeft, position: p.coordinate, speedMetersPerSecond: p.speedMetersPerSecond,
            routeEnd: end, requested: g.legIndex + 1 < waypoints.count ? waypoints[g.legIndex + 1] : end,
            // (read by the rule only within 60 m of the end: not worked out on every fix)
            turnAhead: legLeft < ArrivalRule.nearEndMeters && rules.turnAhead(maneuvers, beyondMeters: g.tracker.alongMeters + 1),
            deadReckonedSeconds: p.estimated ? p.time - (lastRealFixTime ?? p.time) : 0)
        guard ArrivalRule(config: config).arrived(situation) else { return false }
        let isLast = g.tracker.isLastLeg
        let index = waypointBase + g.legIndex + 1
        let arriveManeuver = maneuvers.last
        let arrival = PromptLedger.Ref(leg: g.legIndex, index: maneuvers.count - 1)
        if let m = arriveManeuver, !g.planner.ledger.wasGiven(arrival, .arrive) {
            g.planner.ledger.give(arrival, [.arrive])
            let t = text.prompt(m, kind: .arrive, distanceMeters: 0)
            speak(Prompt(text: t, locale: config.locale, kind: .arrive, maneuver: m), time: p.time, &out)
        }
        if isLast {
            out.append(.emit(NavigationEvent(time: p.time, .arrived(index: index, name: arriveManeuver?.street ?? ""))))
            state = .arrived
            guidance = g
            return true
        }
        out.append(.emit(NavigationEvent(time: p.time, .waypointArrived(index: index, name: arriveManeuver?.street ?? "",
                                                                         continues: config.continueAtWaypoints))))
        if !config.continueAtWaypoints {
            // stay until told (`.continueRoute`): no tracking, no off-route, no prompts
            state = .atWaypoint
            guidance = g
            return true
        }
        g.startNextLeg(at: p.time)
        // (the next leg starts here, whichever way the car came)
        if state == .offRoute {
            state = .tracking
            g.offRoute.count = 0
        }
        guidance = g
        return true
    }
}
