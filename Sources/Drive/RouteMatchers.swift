import MapData
import MapMatching
import Navigation
import Positioning

/// The engine's two HMM matchers: one with the route as prior (what the driver sees), and one
/// without it, run only while guiding, so the off-route rules can see where the car would be
/// matched if there were no route (1–2 µs a fix).
struct RouteMatchers {
    private var withRoute: HMMMatcher
    private var unbiased: HMMMatcher

    /// `keepsDecisions`: the route-biased matcher keeps its decided matches for `takeDecisions`
    /// (the bench); the car does not need them (they would only accumulate).
    init(map: RoadMap, keepsDecisions: Bool = false) {
        var options = HMMMatcher.Options()
        options.keepsDecisions = keepsDecisions
        // both look candidates up around the same fixes: one copy of the roads
        let roads = NearbyRoads(map: map)
        withRoute = HMMMatcher(map: map, options: options, roads: roads)
        options.keepsDecisions = false
        unbiased = HMMMatcher(map: map, options: options, roads: roads)
    }

    /// The navigator's input for a position: the route-biased match, and the unbiased one while
    /// there is a route (`routeKeys`: its edges' raw values).
    mutating func input(_ p: FilteredPosition, routeKeys: Set<UInt32>?) -> (matched: MatchedPosition, input: NavigatorInput) {
        let matched = withRoute.push(p, route: routeKeys)
        guard routeKeys != nil else {
            unbiased.reset()  // without a route the two would agree (empties its arrays, keeping their storage)
            return (matched, .position(p, matched))
        }
        return (matched, .position(p, matched, unbiased: unbiased.push(p, route: nil)))
    }

    /// The route-biased matcher's decided matches (two fixes behind), by push index: for the
    /// bench, which scores what the car shows against the truth.
    mutating func takeDecisions() -> [(index: Int, match: MatchedPosition)] { withRoute.takeDecisions() }
    mutating func finish() -> [(index: Int, match: MatchedPosition)] { withRoute.finish() }
}
