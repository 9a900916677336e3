import Geo
import Guidance
import MapData
import Routing

/// Routes with maneuvers: the Router and the ManeuverBuilder together, for the navigator and
/// `tern route`.
public final class RouteService {
    public let map: RoadMap
    public let router: Router
    public let maneuvers: ManeuverBuilder

    public init(map: RoadMap) {
        self.map = map
        router = Router(map: map)
        maneuvers = ManeuverBuilder(map: map)
    }

    public func navigationRoute(_ waypoints: [Coordinate], headingDegrees: Double? = nil) throws -> NavigationRoute {
        navigationRoute(try router.route(waypoints, headingDegrees: headingDegrees), waypoints: waypoints)
    }

    /// A route with its maneuvers per leg; `waypoints` are the requested points (for the side of
    /// the street at each stop).
    public func navigationRoute(_ route: Route, waypoints: [Coordinate]) -> NavigationRoute {
        var all = [[Maneuver]]()
        for (i, leg) in route.legs.enumerated() {
            all.append(maneuvers.maneuvers(for: leg, destination: waypoints[i + 1], isLastLeg: i == route.legs.count - 1))
        }
        return NavigationRoute(route: route, maneuvers: all, speedLimits: route.legs.map(limitChanges))
    }

    /// Where the posted limit changes along a leg: one entry per change, from its start.
    func limitChanges(_ leg: RouteLeg) -> [SpeedLimitChange] {
        var out = [SpeedLimitChange]()
        for (k, edge) in leg.edges.enumerated() {
            let limit = map.maxspeedKmh(of: edge)
            if out.last.map({ $0.limitKmh != limit }) ?? true {
                out.append(SpeedLimitChange(startMeters: leg.cumulativeMeters[leg.edgeShapeStart[k]], limitKmh: limit))
            }
        }
        return out
    }

    /// Routes nearly as fast as the best one (within this share) may be preferred for being like
    /// the old route.
    public static let similarWithin = 0.1

    /// Answers a navigator's request. A reroute to one destination takes, among the fastest route
    /// and its alternatives at most 10% slower, the one that drives most of the old route's
    /// remaining roads (ties to the fastest).
    public func answer(_ req: RouteRequest) -> NavigatorInput {
        if req.reason == .traffic {
            // the best route under the traffic now, the other routes considered, and the current
            // route's remaining time under it
            let times = router.seconds(along: req.previousEdges, traffic: router.traffic)
            let (best, alternatives) = trafficRoutes(req)
            return .trafficAnswer(id: req.id, route: best, currentSeconds: times?.traffic, freeSeconds: times?.free ?? 0, time: req.time,
                                  alternatives: alternatives)
        }
        do {
            if req.reason == .reroute, !req.previousEdges.isEmpty, req.waypoints.count == 1, let to = req.waypoints.first {
                let (best, alternatives) = try router.alternatives(from: req.origin, to: to, headingDegrees: req.headingDegrees, count: 3,
                                                                   stretch: 1 + RouteService.similarWithin)
                let old = Set(req.previousEdges)
                func likeness(_ r: Route) -> Double { RouteSimilarity.similarity(of: r, to: old) }
                var chosen = best
                for a in alternatives where a.durationSeconds <= best.durationSeconds * (1 + RouteService.similarWithin)
                    && likeness(a) > likeness(chosen) + 0.05 {
                    chosen = a
                }
                return .routeComputed(id: req.id, navigationRoute(chosen, waypoints: [req.origin] + req.waypoints), time: req.time)
            }
            let r = try navigationRoute([req.origin] + req.waypoints, headingDegrees: req.headingDegrees)
            return .routeComputed(id: req.id, r, time: req.time)
        } catch {
            return .routeFailed(id: req.id, error: "\(error)", time: req.time)
        }
    }

    /// The best route under the traffic, and the other routes a traffic check considered: the
    /// free-flow alternatives (up to 50% slower at free flow) timed under the traffic, without
    /// closed ones and the one taken, fastest first. The router's alternatives start from the best
    /// route under the traffic, so the route is searched once.
    func trafficRoutes(_ req: RouteRequest) -> (NavigationRoute?, [RouteAlternative]) {
        let points = [req.origin] + req.waypoints
        guard req.waypoints.count == 1, let to = req.waypoints.first else {
            return ((try? navigationRoute(points, headingDegrees: req.headingDegrees)), [])
        }
        guard let found = try? router.alternatives(from: req.origin, to: to, headingDegrees: req.headingDegrees, count: 3, stretch: 1.5)
        else { return (nil, []) }
        let takenEdges = Set(found.best.legs.flatMap(\.edges))
        let old = Set(req.previousEdges)
        var result = [RouteAlternative]()
        for r in found.alternatives {
            let edges = r.legs.flatMap(\.edges)
            if Set(edges) == takenEdges { continue }
            // closed: not an alternative; the turn costs of the free-flow time carried over
            guard let t = router.seconds(along: edges, traffic: router.traffic) else { continue }
            result.append(RouteAlternative(durationSeconds: r.durationSeconds + t.traffic - t.free, distanceMeters: r.distanceMeters,
                                           resemblesPrevious: RouteSimilarity.similarity(of: r, to: old) >= RouteSimilarity.resemblesAt))
        }
        return (navigationRoute(found.best, waypoints: points), result.sorted { $0.durationSeconds < $1.durationSeconds })
    }
}
