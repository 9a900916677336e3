import Foundation
import Geo
import Guidance
import MapCompiler
import MapData
import Routing
import TestSupport
import Testing

/// Cardinal directions from route relations (`tern import --cardinal-directions`, OSRM's
/// `cardinal_directions`): imported as OSRM writes them ("I 80 $west") and said in the driver's
/// language.
@Suite struct CardinalDirectionTests {
    func map(_ options: ProfileOptions) throws -> (RoadMap, ScenarioMap) {
        var s = ScenarioMap(ascii: """
              a----------------b
              c----------------d
            """, columnMeters: 50, rowMeters: 100, origin: Coordinate(latitude: 41, longitude: -104))
        s.ways = [.init("ba", [("highway", "motorway"), ("name", "westbound"), ("ref", "I 80")]),
                  .init("cd", [("highway", "motorway"), ("name", "eastbound"), ("ref", "I 80;CO 93")])]
        s.relations = [
            .init(members: [("way", "cd", "east"), ("way", "ba", "west")], tags: [("type", "route"), ("route", "road"), ("ref", "80"), ("network", "US:I")]),
            .init(members: [("way", "cd", "east"), ("way", "ba", "west")], tags: [("type", "route"), ("route", "road"), ("ref", "93"), ("network", "US:CO")]),
        ]
        return (try TestMaps.scenario(s, options: options), s)
    }

    func depart(_ m: RoadMap, _ from: Coordinate, _ to: Coordinate) throws -> Maneuver {
        let r = try Router(map: m).route([from, to])
        return ManeuverBuilder(map: m).maneuvers(for: r.legs[0], destination: to)[0]
    }

    @Test func refsCarryTheRelationsDirections() throws {
        var on = ProfileOptions()
        on.cardinalDirections = true
        let (m, s) = try map(on)
        let west = try depart(m, s["b"]!, s["a"]!), east = try depart(m, s["c"]!, s["d"]!)
        #expect(west.ref == "I 80 $west")
        #expect(east.ref == "I 80 $east; CO 93 $east")
        // said with the locale's compass word; of several refs the first, as always
        #expect(Instructions().text(west) == "Head west on westbound (I 80 west)")
        #expect(Instructions(locale: GuidanceLocale.named("de")!).text(east).contains("(I 80 Osten)"),
                "\(Instructions(locale: GuidanceLocale.named("de")!).text(east))")

        // off by default, as in OSRM's car profile: the refs as tagged
        let (plain, _) = try map(ProfileOptions())
        #expect(try depart(plain, s["b"]!, s["a"]!).ref == "I 80")
    }
}
