import Foundation
import Geo
import Guidance
import MapData
import Navigation
import Routing

/// Routes with maneuvers: the Router and the ManeuverBuilder together, for the navigator and
/// `tern route`.
final class RouteService {
    let map: RoadMap
    let router: Router
    let maneuvers: ManeuverBuilder

    init(map: RoadMap) {
        self.map = map
        router = Router(map: map)
        maneuvers = ManeuverBuilder(map: map)
    }

    func navigationRoute(_ waypoints: [Coordinate], headingDegrees: Double? = nil) throws -> NavigationRoute {
        let route = try router.route(waypoints, headingDegrees: headingDegrees)
        var all = [[Maneuver]]()
        for (i, leg) in route.legs.enumerated() {
            all.append(maneuvers.maneuvers(for: leg, destination: waypoints[i + 1], isLastLeg: i == route.legs.count - 1))
        }
        return NavigationRoute(route: route, maneuvers: all)
    }

    /// Answers a navigator's request.
    func answer(_ req: RouteRequest) -> NavigatorInput {
        do {
            let r = try navigationRoute([req.origin] + req.waypoints, headingDegrees: req.headingDegrees)
            return .routeComputed(id: req.id, r, time: req.time)
        } catch {
            return .routeFailed(id: req.id, error: "\(error)", time: req.time)
        }
    }
}
