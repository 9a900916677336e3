import Foundation
import Geo
import MapCompiler
import MapData
import Positioning
@testable import Navigation
import Routing
import TestSupport
import Testing

/// Progress on the right pass of a route that uses a street twice (issue #24: a false 65 m
/// "off route" while the car was on the route, measured against the other pass).
@Suite struct RouteTwiceTests {
    @Test func theLaterPassIsTakenWhenTheCarIsOnIt() throws {
        // out along the north side, round the end at b, back along the south side 70 m away
        let (s, m) = try ArrivalTests.ring(carriagewaysApart: 70)
        let leg = try Router(map: m).route([s["a"]!, s["c"]!]).legs[0]
        let atX = RouteTracker.locate(s["x"]!, on: leg, hint: 0, courseDegrees: 90)
        // the last position was at x; the car is now at y, on the way back, sooner than the reach
        // from x allows (30 m: a couple of dropped fixes at a low speed estimate)
        let atY = RouteTracker.locate(s["y"]!, on: leg, hint: atX.segment, courseDegrees: 270, from: atX.alongMeters, reach: 30)
        #expect(atY.distanceMeters < 5, "measured \(atY.distanceMeters) m from the route, on the pass at \(atY.alongMeters) m")
        #expect(atY.alongMeters > atX.alongMeters + 200)
        // where the passes are close, the reach still decides: a fix 10 m off x towards y is
        // taken on the first pass
        let between = Coordinate(latitude: s["x"]!.latitude + (s["y"]!.latitude - s["x"]!.latitude) / 7, longitude: s["x"]!.longitude)
        let stay = RouteTracker.locate(between, on: leg, hint: atX.segment, courseDegrees: 90, from: atX.alongMeters, reach: 30)
        #expect(abs(stay.alongMeters - atX.alongMeters) < 15)
    }

    /// A new route that comes back near where it starts (a hairpin road, a loop round a block)
    /// is followed from its start: the car was there when it was planned. Looked for anywhere
    /// along the leg, the first fix after a reroute on the road drive set was put 915 m along,
    /// 1 m from a pass that came back across the road, and a false "distance" off-route followed
    /// (andorra-20).
    @Test func aNewRouteIsFollowedFromItsStartWhereItComesBackNearIt() throws {
        // north from a, round the block b-c-d, and back west along d-e, which crosses the road
        // s-a-b 4 m south of a without a junction (a bridge)
        var sm = ScenarioMap(ascii: """
                b . . . c
                .       .
                a       .
            e . . . . . . d
                s
            """, columnMeters: 10, rowMeters: 4, origin: Coordinate(latitude: 48.5, longitude: 9.0))
        sm.ways = [.init("sab", [("highway", "residential"), ("name", "Up Street")]),
                   .init("bcd", [("highway", "residential"), ("name", "Round")]),
                   .init("de", [("highway", "residential"), ("name", "Back Bridge"), ("bridge", "yes"), ("layer", "1")])]
        let m = try TestMaps.scenario(sm)
        let a = sm["a"]!
        let route = try Router(map: m).route([a, sm["e"]!])
        let leg = route.legs[0]
        #expect(leg.distanceMeters > 80, "the route should go round the block: \(leg.distanceMeters) m")
        // the first fix, a second after the route was planned: 3 m behind the start and 6 m to
        // the east (the receiver's bias), heading north, 1 m from the pass coming back
        let ruler = CheapRuler(latitude: a.latitude)
        let fix = Coordinate(latitude: a.latitude - 3 / ruler.ky, longitude: a.longitude + 6 / ruler.kx)
        let p = FilteredPosition(time: 101, coordinate: fix, speedMetersPerSecond: 3, courseDegrees: 0, accuracyMeters: 5)
        let nav = NavigationRoute(route: route, maneuvers: [[]])
        var planned = RouteProgressTracker(route: nav, plannedAt: 100)
        let fromStart = planned.locate(p, resync: false, offRouteMeters: 50).position
        #expect(fromStart.alongMeters < 10, "placed \(fromStart.alongMeters) m along, \(fromStart.distanceMeters) m from the route")
        // (the other pass is there to be taken: looked for anywhere, it is)
        var anywhere = RouteProgressTracker(route: nav, plannedAt: nil)
        let other = anywhere.locate(p, resync: false, offRouteMeters: 50).position
        #expect(other.alongMeters > 60, "placed \(other.alongMeters) m along")
        // but a car on the pass that comes back, 20 m from the start, is on that pass (a start
        // snapped to another carriageway than the car's)
        let onTheBridge = Coordinate(latitude: a.latitude - 4 / ruler.ky, longitude: a.longitude + 20 / ruler.kx)
        var planned2 = RouteProgressTracker(route: nav, plannedAt: 100)
        let bridge = planned2.locate(FilteredPosition(time: 101, coordinate: onTheBridge, speedMetersPerSecond: 3, courseDegrees: 270,
                                                      accuracyMeters: 5), resync: false, offRouteMeters: 50).position
        #expect(bridge.alongMeters > 60 && bridge.distanceMeters < 2, "placed \(bridge.alongMeters) m along, \(bridge.distanceMeters) m off")
    }

    /// A via point on one carriageway, and the next leg coming back past it on the other, 8 m
    /// away: a car standing at the via, its fixes 5 m towards the other carriageway and without a
    /// course, is at the new leg's start, not on the pass that comes back. Placed there, it was
    /// taken for driving back along the route as it drove on, and a false 'backtracking'
    /// off-route followed (monaco-23 of the road drive set).
    @Test func aLegFromAViaIsFollowedFromTheVia() throws {
        // Ring North a-x-b eastbound, Ring South d-y-c westbound 8 m below it
        let (s, m) = try ArrivalTests.ring(carriagewaysApart: 8)
        let x = s["x"]!
        let route = try Router(map: m).route([s["a"]!, x, s["c"]!])
        #expect(route.legs.count == 2)
        let nav = NavigationRoute(route: route, maneuvers: [[], []])
        let p = FilteredPosition(time: 120, coordinate: x.moved(meters: 5, bearingDegrees: 180), speedMetersPerSecond: 0,
                                 courseDegrees: nil, accuracyMeters: 5)
        var arrived = RouteProgressTracker(route: nav, plannedAt: 0)
        arrived.startNextLeg(at: 119)
        let fromStart = arrived.locate(p, resync: false, offRouteMeters: 50).position
        #expect(fromStart.alongMeters < 10, "placed \(fromStart.alongMeters) m along the leg, \(fromStart.distanceMeters) m off")
        // (the other pass is there to be taken: looked for anywhere, it is)
        var anywhere = RouteProgressTracker(route: nav, plannedAt: 0)
        anywhere.startNextLeg(at: nil)
        let other = anywhere.locate(p, resync: false, offRouteMeters: 50).position
        #expect(other.alongMeters > 150, "placed \(other.alongMeters) m along")
    }
}
