import Geo
import Guidance
import MapData
import Positioning
import Routing

/// Route requests: starting a reroute, what it keeps of the old route, and the request itself.
extension Navigator {
    /// A reroute from `p`: the waypoints passed dropped, the loop guard counting automatic ones
    /// (reroute after reroute in a short time means the routes keep failing the driver: the next
    /// one is a full recalculation).
    mutating func startReroute(_ g: Guidance, from p: FilteredPosition, time: Double, automatic: Bool,
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
        request(.reroute, from: p, time: time, full: full, previous: full ? [] : g.tracker.edgesAhead, &out)
    }

    /// The legs already driven are behind: the waypoints still ahead start at the current leg.
    mutating func dropPassedWaypoints(_ g: Guidance) {
        waypoints = Array(waypoints[min(g.legIndex, waypoints.count - 1)...])
        waypointBase += g.legIndex
    }

    /// Whether `b` resembles `a` (RouteSimilarity's rule); nil for an empty route.
    func routeResemblance(_ a: Route, _ b: Route) -> Bool? {
        guard b.distanceMeters > 0 else { return nil }
        return RouteSimilarity.similarity(a, b) >= RouteSimilarity.resemblesAt
    }

    mutating func request(_ reason: RouteReason, from p: FilteredPosition, time: Double, full: Bool = false,
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
        if reason == .reroute { state = .rerouting }
        out.append(.requestRoute(req))
    }
}
