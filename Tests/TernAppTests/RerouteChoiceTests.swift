import Foundation
import Geo
import MapCompiler
import MapData
import Navigation
import Routing
@testable import TernApp
import TestSupport
import Testing

/// Rerouting prefers the route most like the old one when it is nearly as fast.
@Suite struct RerouteChoiceTests {
    /// Two ways from a to d: north-east via b (fastest) and south via c and e (2% longer). A
    /// reroute whose old route went south keeps going south; without an old route, the fastest.
    @Test func prefersTheOldRoadsWhenNearlyAsFast() throws {
        let (s, map) = try TestMaps.twoWays()
        let service = RouteService(map: map)
        let a = s["a"]!, d = s["d"]!
        let south = try Router(map: map).route([a, s["c"]!, d])
        var req = RouteRequest(id: 1, reason: .reroute, origin: a, headingDegrees: nil, waypoints: [d], time: 0)
        func streets(_ input: NavigatorInput) -> [String] {
            guard case let .routeComputed(_, r, _) = input else { return [] }
            return r.maneuvers.flatMap { $0.map(\.street) }
        }
        let fastest = streets(service.answer(req))
        #expect(fastest.contains("North Road"), "\(fastest)")
        req.previousEdges = south.legs.flatMap(\.edges)
        let similar = streets(service.answer(req))
        #expect(similar.contains("South Road"), "\(similar)")
    }
}
