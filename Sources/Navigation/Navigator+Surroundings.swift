import Geo
import Guidance
import MapData
import Positioning
import Routing

/// What the navigator follows besides the route: the daylight, and the traffic on the route.
extension Navigator {
    /// The suggested lighting from the sun's elevation at the position and fix time, emitted when
    /// it changes (with a little hysteresis so that it does not flicker at the boundary).
    mutating func lightingUpdate(_ p: FilteredPosition, _ out: inout [NavigatorEffect]) {
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
    mutating func onTraffic(route: NavigationRoute?, current: Double?, free: Double, alternatives: [RouteAlternative], time: Double,
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
}
