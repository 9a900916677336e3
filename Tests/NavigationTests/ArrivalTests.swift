import Foundation
import Geo
import MapCompiler
import MapData
import Navigation
import Routing
import Simulation
import TestSupport
import Testing

/// Arrival where the driver is, not only where the route ends (issue #24: a car stopped 3 m from
/// its destination heard "in 200 metres, you will reach your destination" and then nothing).
@Suite struct ArrivalTests {
    /// A divided road: eastbound ab above, westbound dc below, joined at both ends. The
    /// destination D lies between the carriageways, a little nearer the far one, so the route
    /// snaps it onto dc: round the end at b and back, some 200 m beyond where the car is.
    ///
    ///     a . . . . x . . . . b
    ///                 D
    ///     c . . . . y . . . . d
    static func dividedRoad() throws -> (ScenarioMap, RoadMap, destination: Coordinate) {
        let (s, m) = try ring(carriagewaysApart: 16)
        // 60% of the way from x down to y: nearer the far carriageway
        let x = s["x"]!, y = s["y"]!
        let d = Coordinate(latitude: x.latitude + 0.6 * (y.latitude - x.latitude), longitude: x.longitude)
        return (s, m, d)
    }

    /// Two one-way carriageways this far apart, joined at both ends (also RouteTwiceTests).
    static func ring(carriagewaysApart meters: Double) throws -> (ScenarioMap, RoadMap) {
        var s = ScenarioMap(ascii: """
            w a . . . . x . . . . b
            c . . . . . y . . . . d
            """, columnMeters: 20, rowMeters: meters, origin: Coordinate(latitude: 48.2, longitude: 11.3))
        s.ways = [.init("waxb", [("highway", "secondary"), ("name", "Ring North"), ("oneway", "yes")]),
                  .init("bd", [("highway", "secondary"), ("name", "Ring East")]),
                  .init("dyc", [("highway", "secondary"), ("name", "Ring South"), ("oneway", "yes")]),
                  .init("cw", [("highway", "secondary"), ("name", "Ring West")])]
        return (s, try TestMaps.scenario(s))
    }

    @Test func stoppingBesideTheDestinationArrives() throws {
        let (s, m, destination) = try Self.dividedRoad()
        // the route's own end is far along: round b and back
        let route = try Router(map: m).route([s["a"]!, destination])
        #expect(route.distanceMeters > 200, "\(route.distanceMeters)")
        // the driver stops on the near carriageway beside the destination
        var o = DriveSimulator.Options()
        o.noiseMeters = 2
        o.seed = 4
        let fixes = DriveSimulator(map: m, options: o).drive(try Router(map: m).route([s["a"]!, s["x"]!]))
        var h = Harness(map: m)
        h.apply(.setDestination([destination], time: fixes[0].time))
        h.drive(fixes)
        let arrived = try #require(h.named("arrived").first, "no arrival: \(h.events.map(\.name))")
        // not before the car is near it and slow
        let at = try #require(fixes.first { $0.time == arrived.time })
        #expect(at.coordinate.distance(to: destination) <= 30)
        #expect(h.prompts.contains { $0.kind == "arrive" })
    }

    /// Passing the destination at speed on the near carriageway is no arrival: the route goes on
    /// round to the far side.
    @Test func passingAtSpeedDoesNotArrive() throws {
        let (s, m, destination) = try Self.dividedRoad()
        var o = DriveSimulator.Options()
        o.seed = 4
        let fixes = DriveSimulator(map: m, options: o).drive(try Router(map: m).route([s["a"]!, s["b"]!]))
        var h = Harness(map: m)
        h.apply(.setDestination([destination], time: fixes[0].time))
        // up to the fix past x (the car brakes for the end of its own drive later, at b)
        let x = s["x"]!
        h.drive(Array(fixes.prefix { $0.coordinate.longitude < x.longitude + 0.0003 }))
        #expect(h.named("arrived").isEmpty, "\(h.events.map(\.name))")
    }
}
