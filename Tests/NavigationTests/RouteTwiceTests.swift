import Foundation
import Geo
import MapCompiler
import MapData
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
}
