import Foundation
import Geo
import Guidance
import MapData
import Routing
import MapCompiler
import TestSupport
import Testing

/// Which lanes lead where, on drawn junctions (angles: 0 straight on, positive right).
@Suite struct LaneMatcherTests {
    @Test func arrowsAndUnmarkedLanes() {
        // a T: the middle lane of left|none|right goes either way
        let t = [["left"], ["none"], ["right"]]
        #expect(LaneMatcher.valid(lanes: t, angles: [-90, 90], chosen: 0) == [true, true, false])
        #expect(LaneMatcher.valid(lanes: t, angles: [-90, 90], chosen: 1) == [false, true, true])
        // unmarked lanes right of a through lane go through (OSRM's "left|through||")
        let through = [["left"], ["straight"], ["none"], ["none"]]
        #expect(LaneMatcher.valid(lanes: through, angles: [0, -90], chosen: 0) == [false, true, true, true])
        #expect(LaneMatcher.valid(lanes: through, angles: [0, -90], chosen: 1) == [true, false, false, false])
        // at a crossing, only the outermost unmarked lane also turns (none|none|right)
        let crossing = [["none"], ["none"], ["right"]]
        #expect(LaneMatcher.valid(lanes: crossing, angles: [-90, 0, 90], chosen: 0) == [true, false, false])
        #expect(LaneMatcher.valid(lanes: crossing, angles: [-90, 0, 90], chosen: 1) == [true, true, false])
        #expect(LaneMatcher.valid(lanes: crossing, angles: [-90, 0, 90], chosen: 2) == [false, false, true])
        // slight arrows at a fork; a left arrow needs a road at least 20° off straight
        #expect(LaneMatcher.valid(lanes: [["slight left"], ["slight right"]], angles: [-10, 25], chosen: 0) == [true, false])
        #expect(LaneMatcher.valid(lanes: [["left"], ["straight"]], angles: [-8, 90], chosen: 0) == [false, true])
        // no lane leads to the road taken: no lanes to say
        #expect(LaneMatcher.valid(lanes: [["left"], ["left"]], angles: [0, -90], chosen: 0) == nil)
        #expect(LaneMatcher.valid(lanes: [["none"], ["none"]], angles: [0], chosen: 0) == nil)
    }

    /// A fork of two roads a few degrees off straight on each side, drawn "straight|straight|
    /// right|right": the right arrows are the right branch, the straight ones the left, though
    /// the right branch is the straighter (heidelberg-0031: "keep right at the fork onto
    /// Römerstraße" used to show the two left lanes). Not where the road taken is straight on
    /// (a left arrow for a turn further on is no fork).
    @Test func forkLanesBySide() {
        let straightRight = [["straight"], ["straight"], ["right"], ["right"]]
        #expect(LaneMatcher.valid(lanes: straightRight, angles: [-11, 10], chosen: 1) == [false, false, true, true])
        #expect(LaneMatcher.valid(lanes: straightRight, angles: [-11, 10], chosen: 0) == [true, true, false, false])
        let leftStraight = [["left"], ["straight"], ["straight"]]
        #expect(LaneMatcher.valid(lanes: leftStraight, angles: [-8, 12], chosen: 0) == [true, false, false])
        #expect(LaneMatcher.valid(lanes: leftStraight, angles: [-8, 12], chosen: 1) == [false, true, true])
        // about straight on past a side road: the straight lane
        #expect(LaneMatcher.valid(lanes: [["left"], ["straight"], ["right"]], angles: [-1, 23], chosen: 0) == [false, true, false])
    }

    /// A turn no arrow points to, further out than the outermost lane's roads, is that lane's
    /// too (the right through lane turns right where no arrow says so).
    @Test func unmarkedTurnFromTheOutermostLane() {
        let lanes = [["straight"], ["straight"]]
        #expect(LaneMatcher.valid(lanes: lanes, angles: [0, 90], chosen: 1) == [false, true])
        #expect(LaneMatcher.valid(lanes: lanes, angles: [0, 90, -90], chosen: 2) == [true, false])
        #expect(LaneMatcher.valid(lanes: lanes, angles: [0, 90], chosen: 0) == [true, true])
    }

    /// A turn folded over a junction crossed straight first (a divided road) takes the lanes
    /// whose arrows point its way; slight turns and turns already served keep their lanes.
    @Test func turnsTakeTheLanesOfTheirSide() {
        func lanes(_ arrows: [String], _ valid: [Bool]) -> [Lane] { zip(arrows, valid).map { Lane(indications: [$0.0], valid: $0.1) } }
        let before = lanes(["left", "left", "straight", "right"], [false, false, true, false])
        #expect(LaneMatcher.bySide(before, modifier: .left, angleHere: 3).map(\.valid) == [true, true, false, false])
        #expect(LaneMatcher.bySide(before, modifier: .uturn, angleHere: -5).map(\.valid) == [true, true, false, false])
        #expect(LaneMatcher.bySide(before, modifier: .right, angleHere: 0).map(\.valid) == [false, false, false, true])
        #expect(LaneMatcher.bySide(before, modifier: .slightLeft, angleHere: 0) == before)
        // a turn already served, or made at this junction itself (an unmarked lane of its own,
        // a U-turn by a loop to the right): the matched lanes stand
        var served = before
        served[1].valid = true
        #expect(LaneMatcher.bySide(served, modifier: .left, angleHere: 0) == served)
        let own = lanes(["none", "left", "straight"], [true, false, false])
        #expect(LaneMatcher.bySide(own, modifier: .sharpLeft, angleHere: -150) == own)
        let loop = lanes(["left", "straight", "right"], [false, false, true])
        #expect(LaneMatcher.bySide(loop, modifier: .uturn, angleHere: 90) == loop)
    }

    /// The way back (a U-turn lane) is no side's edge: the unmarked lanes right of "left;uturn"
    /// still go straight on and right.
    @Test func uTurnLane() {
        let lanes = [["left", "uturn"], ["none"], ["none"]]
        #expect(LaneMatcher.valid(lanes: lanes, angles: [-90, 0, 90, 180], chosen: 3, uTurn: 3) == [true, false, false])
        #expect(LaneMatcher.valid(lanes: lanes, angles: [-90, 0, 90, 180], chosen: 1, uTurn: 3) == [false, true, true])
        #expect(LaneMatcher.valid(lanes: lanes, angles: [-90, 0, 90, 180], chosen: 2, uTurn: 3) == [false, false, true])
    }

    @Test func anticipation() {
        // three right lanes into three lanes whose left two turn left next: one to one
        #expect(LaneMatcher.anticipate([false, true, true, true], next: [true, true, false]) == [false, true, true, false])
        // two through lanes into four whose left two turn left: the left one
        #expect(LaneMatcher.anticipate([false, true, true], next: [true, true, false, false]) == [false, true, false])
        // every lane of the road taken, lanes apart, or every lane leads on: nothing changes
        #expect(LaneMatcher.anticipate([true, true], next: [true, false, false, false]) == nil)
        #expect(LaneMatcher.anticipate([true, false, true], next: [true, false]) == nil)
        #expect(LaneMatcher.anticipate([false, true], next: [true, true]) == nil)
    }

    /// Lanes drawn before the junction count only over nodes without another way to go, and
    /// within 50 m.
    @Test func lanesAreCarriedOnlySoFar() throws {
        let choice = """
                        e
            a       x   b       c
                    n   d
            """
        var s = ScenarioMap(ascii: choice, gridMeters: 10, origin: Coordinate(latitude: 49.4, longitude: 8.6))
        let lanes = ("turn:lanes:forward", "left|through|right")
        s.ways = [.init("ax", [("highway", "secondary"), ("name", "Main"), lanes]),
                  .init("xb", [("highway", "secondary"), ("name", "Main")]),
                  .init("bc", [("highway", "secondary"), ("name", "Main")]),
                  .init("be", [("highway", "residential"), ("name", "North")]),
                  .init("bd", [("highway", "residential"), ("name", "South")]),
                  .init("xn", [("highway", "residential"), ("name", "Side")])]
        let m = try TestMaps.scenario(s)
        func steps(_ m: RoadMap, _ a: Coordinate, _ b: Coordinate) throws -> [Maneuver] {
            ManeuverBuilder(map: m).maneuvers(for: try Router(map: m).route([a, b]).legs[0], destination: b)
        }
        let atChoice = try steps(m, s["a"]!, s["e"]!)
        #expect(atChoice.map(\.osrmTurn) == ["depart", "turn left", "arrive"] && atChoice.allSatisfy { $0.lanes.isEmpty })
        // without the side road at x the same lanes reach b (40 m on)
        s.ways.removeLast()
        let open = try steps(try TestMaps.scenario(s), s["a"]!, s["e"]!)
        #expect(open[1].lanes.map(\.valid) == [true, false, false])
        // 80 m on, with no other way either: too far
        let far = """
                        e
            a   x       b       c
                        d
            """
        var f = ScenarioMap(ascii: far, gridMeters: 10, origin: Coordinate(latitude: 49.4, longitude: 8.6))
        f.ways = Array(s.ways)
        let farSteps = try steps(try TestMaps.scenario(f), f["a"]!, f["e"]!)
        #expect(farSteps.map(\.osrmTurn) == ["depart", "turn left", "arrive"] && farSteps.allSatisfy { $0.lanes.isEmpty })
    }
}
