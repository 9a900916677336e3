import Foundation
import Geo
import Guidance
import MapData
import Routing
import MapCompiler
import TestSupport
import Testing

/// Which lanes lead where, on drawn junctions (angles: 0 straight on, positive right).
@Suite struct LaneTests {
    /// Lanes drawn on the road before a node of two roads (a way split, lanes not drawn up to the
    /// junction) count at the junction after it when the piece between is 30 m or less: OSRM's
    /// lane handler looks back one junction, within its COMBINE_DISTANCE_CUTOFF; 40 m on they
    /// do not (OSRM 26.10 says the same on these drawings: bench/osrm_features.py).
    @Test func lanesAreCarriedOnlySoFar() throws {
        func lanesAtTheTurn(_ ascii: String) throws -> [Bool] {
            var s = ScenarioMap(ascii: ascii, columnMeters: 10, rowMeters: 20, origin: Coordinate(latitude: 49.4, longitude: 8.6))
            s.ways = [.init("ax", [("highway", "secondary"), ("name", "Main"), ("turn:lanes:forward", "left|through|right")]),
                      .init("xb", [("highway", "secondary"), ("name", "Main")]),
                      .init("bc", [("highway", "secondary"), ("name", "Main")]),
                      .init("be", [("highway", "residential"), ("name", "North")]),
                      .init("bd", [("highway", "residential"), ("name", "South")])]
            let m = try TestMaps.scenario(s)
            let steps = ManeuverBuilder(map: m).maneuvers(for: try Router(map: m).route([s["a"]!, s["e"]!]).legs[0], destination: s["e"]!)
            #expect(steps.map(\.osrmTurn) == ["depart", "turn left", "arrive"], "\(steps.map(\.osrmTurn))")
            return steps.count == 3 ? steps[1].lanes.map(\.valid) : []
        }
        let near = try lanesAtTheTurn("""
                    e
            a     x b       c
                    d
            """)
        #expect(near == [true, false, false])
        let far = try lanesAtTheTurn("""
                        e
            a   x       b       c
                        d
            """)
        #expect(far.isEmpty)
    }
}
