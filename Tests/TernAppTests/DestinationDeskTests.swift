import Console
import Foundation
import Geo
import Navigation
import Routing
import Search
@testable import TernApp
import TestSupport
import Testing

/// The destination commands on a real extract, through the desk the appliance uses, with the
/// state file in a temporary folder.
@Suite(.enabled(if: SharedData.isAvailable, Comment(rawValue: SharedData.missingMessage)))
struct DestinationDeskTests {
    let dir = TempDir()
    var stateFile: String { dir.file("state/destinations.json") }

    func fresh() throws -> (DestinationDesk, DrivePipeline) {
        let map = try TestMaps.extract("liechtenstein")
        let pipeline = DrivePipeline(map: map, config: NavigatorConfig(), speech: nil, status: nil, recorder: nil)
        return (DestinationDesk(geocoder: try Geocoder(map: map), stateFile: stateFile, locale: "en-GB"), pipeline)
    }

    func say(_ line: String, _ desk: DestinationDesk, _ pipeline: DrivePipeline) throws -> [String] {
        RunCommand.handleCommand(line, pipeline: pipeline, desk: desk)
    }

    func saved() throws -> TripState { try TripState.parse(try Data(contentsOf: URL(fileURLWithPath: stateFile))) }

    @Test func findGoSaveHomeAndRecentSurviveARestart() throws {
        defer { dir.remove() }
        var (desk, pipeline) = try fresh()
        let found = try say("find landstrasse 20 balzers", desk, pipeline)
        #expect(found.first == "ok: \(found.count - 1) found:", "\(found)")
        #expect(found.count >= 2 && found[1].hasPrefix("1 Landstrasse 20, Balzers"), "\(found)")
        let go = try say("go 1", desk, pipeline)
        #expect(go == ["ok: going to Landstrasse 20, Balzers"], "\(go)")
        #expect(try saved().trip?.destination.label == "Landstrasse 20, Balzers")
        #expect(try say("save home", desk, pipeline).first == "ok: saved home: Landstrasse 20, Balzers")
        #expect(try say("cancel", desk, pipeline) == ["ok: guidance cancelled"])
        #expect(try saved().trip == nil)
        #expect(try say("go vaduz", desk, pipeline).first?.hasPrefix("ok: going to Vaduz") == true)

        // the power goes off; at the next start the trip resumes, and favourites and recents are there
        (desk, pipeline) = try fresh()
        #expect(desk.resume(pipeline: pipeline)?.hasPrefix("resuming guidance to Vaduz") == true)
        #expect(try say("status", desk, pipeline).first?.hasSuffix("; going to Vaduz") == true)
        let recent = try say("recent", desk, pipeline)
        #expect(recent.count == 3 && recent[1].hasPrefix("1 Vaduz") && recent[2].hasPrefix("2 Landstrasse 20, Balzers"), "\(recent)")
        let favs = try say("fav", desk, pipeline)
        #expect(favs == ["ok: 1 favourites:", "1 home: Landstrasse 20, Balzers"], "\(favs)")
        #expect(try say("home", desk, pipeline) == ["ok: going to Landstrasse 20, Balzers"])
        #expect(try say("go 1", desk, pipeline) == ["ok: going to Landstrasse 20, Balzers"])  // (the list of favourites)
    }

    @Test func stopsReachedAndArrivalAreKept() throws {
        defer { dir.remove() }
        var (desk, pipeline) = try fresh()
        _ = try say("go 47.14,9.52 via 47.10,9.51 via 47.16,9.50", desk, pipeline)
        #expect(try saved().trip?.waypoints.count == 3)
        desk.observe(NavigationEvent(time: 10, .waypointArrived(index: 1, name: "", continues: true)), pipeline: pipeline)
        #expect(try saved().trip?.next == 1)
        // restarted after the first stop: the route goes on from the second, and its stops count from there
        (desk, pipeline) = try fresh()
        #expect(desk.resume(pipeline: pipeline)?.contains("2 stop(s) left") == true)
        desk.observe(NavigationEvent(time: 20, .waypointArrived(index: 1, name: "", continues: true)), pipeline: pipeline)
        #expect(try saved().trip?.next == 2)
        desk.observe(NavigationEvent(time: 30, .arrived(index: 2, name: "")), pipeline: pipeline)
        #expect(try saved().trip == nil)
    }

    @Test func badInputGetsOneClearLine() throws {
        defer { dir.remove() }
        let (desk, pipeline) = try fresh()
        for (line, expected) in [("go 3", "error: there is no result 3"), ("near", "error: `near` needs"),
                                 ("near spaceport", "error: no kind of place called \"spaceport\""),
                                 ("near fuel", "error: no position yet"), ("find " + String(repeating: "x", count: 10_000), "error: a search is at most"),
                                 ("find \u{7}\u{1b}", "error: `find` needs words"), ("find ,;", "error: nothing to search for"), ("home", "error: no home saved"),
                                 ("fav work", "error: no favourite called work"), ("save work 4", "error: there is no result 4")] {
            let reply = try say(line, desk, pipeline)
            #expect(reply.count == 1 && reply[0].hasPrefix(expected), "\(line.prefix(20)): \(reply)")
        }
    }

    @Test func aStateFileThatCannotBeWrittenIsSaidAndTheChangeHolds() throws {
        defer { dir.remove() }
        try "not a folder".write(toFile: dir.file("state"), atomically: true, encoding: .utf8)
        let (desk, pipeline) = try fresh()
        let reply = try say("go 47.14,9.52", desk, pipeline)
        #expect(reply.first?.contains("(not saved:") == true, "\(reply)")
        #expect(desk.state.trip != nil)
    }

    @Test func aDamagedStateFileIsSetAsideNotTrusted() throws {
        defer { dir.remove() }
        try FileManager.default.createDirectory(atPath: dir.file("state"), withIntermediateDirectories: true)
        try #"{"version":1,"favourites":{"home":{"label":"x","lat":95,"lon":0}}}"#.write(toFile: stateFile, atomically: true, encoding: .utf8)
        let (desk, _) = try fresh()
        #expect(desk.state == TripState())
        #expect(desk.loadWarning?.contains("favourites.home") == true, "\(desk.loadWarning ?? "")")
        #expect(FileManager.default.fileExists(atPath: stateFile + ".bad"))
    }
}

/// `near fuel` on a route: only stations within 500 m of the road still ahead, in the order the
/// car reaches them; without a route, the nearest around.
@Suite(.enabled(if: SharedData.isAvailable, Comment(rawValue: SharedData.missingMessage)))
struct NearbyAheadTests {
    @Test func stationsAheadInRouteOrder() throws {
        let map = try TestMaps.extract("liechtenstein")
        let geocoder = try Geocoder(map: map)
        // Schaan → Vaduz → Balzers, the valley road south
        let route = try RouteService(map: map).router.route([Coordinate(latitude: 47.1650, longitude: 9.5090),
                                                                       Coordinate(latitude: 47.0660, longitude: 9.5000)])
        let shape = route.shape
        let here = shape[0]
        let around = NearbyAhead.places(.fuel, from: here, route: nil, remainingMeters: nil, geocoder: geocoder)
        #expect(!around.isEmpty)
        #expect(zip(around, around.dropFirst()).allSatisfy { here.distance(to: $0.coordinate) <= here.distance(to: $1.coordinate) })
        let ahead = NearbyAhead.places(.fuel, from: here, route: shape, remainingMeters: shape.lengthMeters, geocoder: geocoder, limit: 50)
        #expect(!ahead.isEmpty)
        let ruler = CheapRuler(latitude: here.latitude)
        var lastAlong = -1.0
        for p in ahead {
            var best = (Double.infinity, 0.0), along = 0.0
            for k in 1..<shape.count {
                let q = ruler.project(p.coordinate, onto: shape[k - 1], shape[k])
                if q.distanceMeters < best.0 { best = (q.distanceMeters, along + q.fraction * ruler.distance(shape[k - 1], shape[k])) }
                along += ruler.distance(shape[k - 1], shape[k])
            }
            #expect(best.0 <= NearbyAhead.offRouteMeters, "\(p.label) is \(Int(best.0)) m off the route")
            #expect(best.1 >= lastAlong, "\(p.label) comes before the one listed above it")
            lastAlong = best.1
        }
        // half way along, the stations behind are no longer listed
        let later = NearbyAhead.places(.fuel, from: here, route: shape, remainingMeters: shape.lengthMeters / 2, geocoder: geocoder, limit: 50)
        #expect(later.count < ahead.count)
    }
}
