import Foundation
import Geo
import MapCompiler
import MapData
import Navigation
import TestSupport
import Testing

/// A car that turns off the route slowly and stops a few metres into a side street (a stop line,
/// a queue) has left the route, though it was never fast enough for its course to count while
/// it was far enough out to judge (issue #24, the road drive set: heidelberg-17 and
/// liechtenstein-1 were seen only when they drove on, 20–40 s later). A car standing where the
/// driver asked to go has arrived, whichever way it came.
@Suite struct SlowDepartureTests {
    /// Main Street east from a through b to e; Side Street south from b.
    static func sideStreet() throws -> (ScenarioMap, RoadMap) {
        var s = ScenarioMap(ascii: """
            a . . . . b . . . . e
                      |
                      c
            """, gridMeters: 50, origin: Coordinate(latitude: 48.5, longitude: 9.0))
        s.ways = [.init("abe", [("highway", "residential"), ("name", "Main Street")]),
                  .init("bc", [("highway", "residential"), ("name", "Side Street")])]
        return (s, try TestMaps.scenario(s))
    }

    /// Fixes of a car driving Main Street east at 10 m/s, slowing to 4 m/s at b, turning into Side
    /// Street and stopping `stopMeters` into it for 20 s, then driving on: exact places, as a
    /// receiver with a small steady error gives them.
    static func drive(_ s: ScenarioMap, stopMeters: Double) -> (fixes: [GPSFix], stoppedAt: Double, movesOnAt: Double) {
        let a = s["a"]!, b = s["b"]!, c = s["c"]!
        let east = a.bearing(to: b), south = b.bearing(to: c)
        var fixes = [GPSFix]()
        var t = 1_718_445_600.0
        func fix(_ at: Coordinate, _ speed: Double, _ course: Double?) {
            fixes.append(GPSFix(time: t, coordinate: at, mode: .threeD, speedMetersPerSecond: speed, courseDegrees: course,
                                horizontalErrorMeters: 4))
            t += 1
        }
        var along = 0.0
        while along < a.distance(to: b) - 30 { fix(a.moved(meters: along, bearingDegrees: east), 10, east); along += 10 }
        while along < a.distance(to: b) { fix(a.moved(meters: along, bearingDegrees: east), 4, east); along += 4 }
        var into = along - a.distance(to: b)
        while into < stopMeters { fix(b.moved(meters: into, bearingDegrees: south), 4, south); into += 4 }
        let stoppedAt = t
        for _ in 0..<20 { fix(b.moved(meters: stopMeters, bearingDegrees: south), 0, nil) }
        let movesOnAt = t
        while into < b.distance(to: c) { fix(b.moved(meters: into, bearingDegrees: south), 6, south); into += 6 }
        for _ in 0..<5 { fix(c, 0, nil) }
        return (fixes, stoppedAt, movesOnAt)
    }

    /// Stopped 14 m into Side Street: seen leaving within 3 s of stopping, before it drives on.
    @Test func aCarStoppedJustIntoASideStreetHasLeftTheRoute() throws {
        let (s, m) = try Self.sideStreet()
        let (fixes, stoppedAt, movesOnAt) = Self.drive(s, stopMeters: 14)
        var h = Harness(map: m)
        h.apply(.setDestination([s["e"]!], time: fixes[0].time))
        h.drive(fixes, stopAtArrival: false)
        let off = h.named("offRoute")
        #expect(!off.isEmpty)
        if let first = off.first {
            #expect(first.time <= stoppedAt + 3 && first.time < movesOnAt, "\(first.jsonLine()), stopped at \(stoppedAt)")
        }
    }

    /// The same car, where the driver asked to go to a point 25 m east of where it stops, nearer
    /// Main Street (the route ends there, past the turn): it has pulled up beside the
    /// destination and arrived, and no off-route comes first.
    @Test func aCarStoppedBesideWhereItWasGoingHasArrived() throws {
        let (s, m) = try Self.sideStreet()
        let (fixes, stoppedAt, _) = Self.drive(s, stopMeters: 14)
        let b = s["b"]!
        let asked = b.moved(meters: 14, bearingDegrees: b.bearing(to: s["c"]!)).moved(meters: 25, bearingDegrees: b.bearing(to: s["e"]!))
        var h = Harness(map: m)
        h.apply(.setDestination([asked], time: fixes[0].time))
        h.drive(fixes)
        #expect(h.named("offRoute").isEmpty, "\(h.named("offRoute").map { $0.jsonLine() })")
        #expect(h.named("arrived").first.map { $0.time <= stoppedAt + 1 } == true)
    }
}

/// A car crawling in a queue at 1.2 m/s that bears off the route at 35° onto a slip road, still
/// at a crawl, its course wandering ±15°: seen within 5 s of being 10 m clear of the route. (On
/// the road drive set a crawl away was seen 37 s late, monaco-21, where the receiver's bias
/// estimate took up the drift; this clean case passes with and without the bias change of the
/// same commit, and guards the crawl itself.)
@Suite struct CrawlAwayTests {
    @Test func aCrawlOntoASlipRoadIsSeenSoon() throws {
        var s = ScenarioMap(ascii: """
            a . . . . b . . . . e
            """, gridMeters: 60, origin: Coordinate(latitude: 48.5, longitude: 9.0))
        let b = s["b"]!, east = s["a"]!.bearing(to: b)
        s.setNode("c", b.moved(meters: 200, bearingDegrees: east + 35))
        s.ways = [.init("abe", [("highway", "residential"), ("name", "Queue Street")]),
                  .init("bc", [("highway", "residential"), ("name", "Slip Road")])]
        let m = try TestMaps.scenario(s)
        let a = s["a"]!, c = s["c"]!
        var fixes = [GPSFix]()
        var t = 1_718_445_600.0
        var k = 0
        func fix(_ at: Coordinate, _ speed: Double, _ course: Double) {
            // (a crawl's course wanders: ±15°)
            let wander = Double([0, 12, -8, 15, -14, 5, -3][k % 7])
            fixes.append(GPSFix(time: t, coordinate: at, mode: .threeD, speedMetersPerSecond: speed,
                                courseDegrees: course + wander, horizontalErrorMeters: 4))
            t += 1; k += 1
        }
        var along = 0.0
        while along < a.distance(to: b) { fix(a.moved(meters: along, bearingDegrees: east), 1.2, east); along += 1.2 }
        let turnedAt = t
        var into = along - a.distance(to: b)
        while into < b.distance(to: c) { fix(b.moved(meters: into, bearingDegrees: east + 35), 1.2, east + 35); into += 1.2 }
        var h = Harness(map: m)
        h.apply(.setDestination([s["e"]!], time: fixes[0].time))
        h.drive(fixes, stopAtArrival: false)
        // 10 m clear of Queue Street 17 m along Slip Road, 15 s after the turn
        let off = h.named("offRoute").first
        #expect(off.map { $0.time <= turnedAt + 15 + 5 } == true, "\(String(describing: off?.jsonLine())), turned at \(turnedAt)")
    }
}
