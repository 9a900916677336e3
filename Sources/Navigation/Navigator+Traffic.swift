import Geo
import Guidance
import MapData
import Positioning
import Routing

/// A traffic check answered: the delay on the route, and a switch to a faster one.
extension Navigator {
    /// A traffic check's answer: the delay category of the current route, its remaining time under
    /// traffic, and a switch to a route taking at most `fasterRouteRatio` of that time (or any
    /// route, when the current one is closed).
    mutating func onTraffic(route: NavigationRoute?, current: Double?, free: Double, alternatives: [RouteAlternative], time: Double,
                                    plannedAt: Double, _ out: inout [NavigatorEffect]) {
        // the current route's time left on the same terms as the new route's: the route's own
        // time from here (turn costs included, the road under the car only from the car on) plus
        // what the traffic adds to the roads ahead. (The roads ahead timed whole against a route
        // timed from the car once found "a faster route" on the very same roads, 128 s of it.)
        var remaining = current
        if let c = current, let g = guidance {
            let own = g.tracker.remainingSeconds
            let (delay, event) = traffic.answer(currentSeconds: c, freeSeconds: free, time: time)
            remaining = own + delay
            if let e = event { out.append(.emit(e)) }
        }
        guard let r = route else {
            if current == nil { out.append(.emit(NavigationEvent(time: time, .rerouteFailed(error: "the route is closed and no other exists")))) }
            return
        }
        let faster = remaining.map { r.route.durationSeconds <= config.fasterRouteRatio * $0 } ?? true
        guard faster else { return }
        var resembles: Bool?
        if let old = guidance?.route.route { resembles = routeResemblance(old, r.route) }
        guidance = Guidance(route: r, config: config, plannedAt: plannedAt)
        state = .tracking
        traffic.routeTaken(reason: .traffic, time: time)
        out.append(.emit(NavigationEvent(time: time, .routeComputed(
            reason: RouteReason.traffic.rawValue, distanceMeters: r.route.distanceMeters, durationSeconds: r.route.durationSeconds,
            resemblesPrevious: resembles, shape: Polyline.encode(r.route.shape)))))
        out.append(.emit(NavigationEvent(time: time, .trafficReroute(
            savedSeconds: remaining.map { max(0, $0 - r.route.durationSeconds) } ?? 0, previousSeconds: remaining,
            durationSeconds: r.route.durationSeconds, resemblesPrevious: resembles, alternatives: alternatives))))
        speak(Prompt(text: text.message("prompt.faster_route"), locale: config.locale, kind: .notice, maneuver: nil), time: time, &out)
        if let p = lastPosition { track(p, &out) }
    }
}
