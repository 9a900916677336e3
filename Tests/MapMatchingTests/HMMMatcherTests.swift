import Foundation
import Geo
import MapCompiler
import MapData
@testable import MapMatching
import Positioning
import Routing
import Simulation
import TestSupport
import Testing

@Suite struct HMMMatcherTests {
    /// A main road with a service road alongside it 15 m away, joined at both ends (a frontage
    /// road): driving the main road with noise, the match never jumps to the service road.
    @Test func noFlipFlopBesideAParallelRoad() throws {
        var s = ScenarioMap(ascii: """
            a                                                   b
            c                                                   d
            """, columnMeters: 20, rowMeters: 15, origin: Coordinate(latitude: 49.40, longitude: 8.69))
        s.ways = [.init("ab", [("highway", "primary"), ("name", "Main Road"), ("maxspeed", "50")]),
                  .init("cd", [("highway", "service"), ("name", "Side Lane")]),
                  .init("ac", [("highway", "service"), ("name", "Side Lane")]),
                  .init("bd", [("highway", "service"), ("name", "Side Lane")])]
        let m = try TestMaps.scenario(s)
        for seed in 1...5 {
            var o = DriveSimulator.Options()
            o.noise = .typical(5)
            o.seed = UInt64(seed)
            let a = s["a"]!.moved(meters: 30, bearingDegrees: 90), b = s["b"]!.moved(meters: 30, bearingDegrees: 270)
            let drive = DriveSimulator(map: m, options: o).simulate(try Router(map: m).route([a, b]))
            var filter = PositionFilter()
            var matcher = HMMMatcher(map: m)
            var roads = [String]()
            for f in drive.fixes {
                guard case .success(let p) = filter.accept(f) else { continue }
                roads.append(matcher.push(p).roadName)
            }
            #expect(!roads.contains("Side Lane"), "seed \(seed): provisional match left the main road \(roads.filter { $0 == "Side Lane" }.count) times")
            #expect(matcher.finish().allSatisfy { $0.match.roadName == "Main Road" })
        }
    }

    /// A 40 s tunnel at 15 m/s on a bending road: at the exit the dead-reckoned estimate is
    /// within 30 m of the car with the route, within 60 m without.
    @Test func fortySecondOutage() throws {
        var s = ScenarioMap(ascii: """
            a         b
                          c         d
                                        e        f
            """, columnMeters: 60, rowMeters: 60, origin: Coordinate(latitude: 49.40, longitude: 8.69))
        s.ways = [.init("abcdef", [("highway", "primary"), ("name", "Tunnel Road"), ("maxspeed", "54")]),
                  .init("bx", [("highway", "residential"), ("name", "Side Street")])]
        s.setNode("x", s["b"]!.moved(meters: 200, bearingDegrees: 0))
        let m = try TestMaps.scenario(s)
        let route = try Router(map: m).route([s["a"]!, s["f"]!])
        var o = DriveSimulator.Options()
        o.noise = .typical(3)
        o.outages = [(start: 20, seconds: 40)]
        let drive = DriveSimulator(map: m, options: o).simulate(route)
        for useRoute in [true, false] {
            var filter = PositionFilter()
            let follower = RoadFollower(map: m, route: useRoute ? route.legs.flatMap(\.edges) : [])
            var exitError = Double.nan
            for (i, f) in drive.fixes.enumerated() {
                if f.mode >= .twoD {
                    if !exitError.isNaN { break }
                    _ = filter.accept(f)
                } else if let p = filter.predict(to: f.time, road: follower) {
                    exitError = p.coordinate.distance(to: drive.truth[i].coordinate)
                    #expect(p.estimated)
                }
            }
            #expect(!exitError.isNaN)
            #expect(exitError <= (useRoute ? 30 : 60), "exit error \(exitError) m \(useRoute ? "with" : "without") the route")
            print(String(format: "40 s outage: exit error %.1f m %@ the route", exitError, useRoute ? "with" : "without"))
        }
    }

    /// Newson & Krumm on real roads: simulated drives with receiver noise are matched to the
    /// right road ≥ 99% of fixes (checked in `tern bench-match`); here a quick check on the demo
    /// town that decisions come in order, at most two fixes late, one per position.
    @Test func decisionsLagAtMostTwoFixes() throws {
        let m = try TestMaps.demoTown()
        var o = DriveSimulator.Options()
        o.noise = .typical(3)
        let drive = DriveSimulator(map: m, options: o).simulate(try Router(map: m).route([DemoTown.start, DemoTown.destination]))
        var filter = PositionFilter()
        var matcher = HMMMatcher(map: m)
        var decided = [Int]()
        var pushed = 0
        for f in drive.fixes {
            guard case .success(let p) = filter.accept(f) else { continue }
            _ = matcher.push(p)
            pushed += 1
            for (i, _) in matcher.takeDecisions() {
                #expect(pushed - 1 - i <= 2)
                decided.append(i)
            }
        }
        decided += matcher.finish().map(\.index)
        #expect(decided == Array(0..<pushed))
    }

    /// A car that turns sharply off the route into a street leaving at 20° back beside it and
    /// crawls along it at 1.5 m/s, its fixes 4 m towards the route's road: the course, weighed
    /// less at a crawl but still weighed, tells the street from the road the route goes on along
    /// (on the road drive set a car crawling 50 m into Avenue Saint-Michel stayed matched to
    /// Boulevard Princesse Charlotte, on the route, until 9 m from it: monaco).
    @Test func aCrawlIntoASharpForkIsMatchedToTheStreetByItsCourse() throws {
        var s = ScenarioMap(ascii: "a . . . . . . b . . d", gridMeters: 20, origin: Coordinate(latitude: 43.73, longitude: 7.42))
        let b = s["b"]!
        // Back Street leaves b 20° north of the way back west, 120 m long
        s.setNode("c", b.moved(meters: 120, bearingDegrees: 270 + 20))
        s.ways = [.init("abd", [("highway", "primary"), ("name", "Main Road")]),
                  .init("bc", [("highway", "primary"), ("name", "Back Street")])]
        let m = try TestMaps.scenario(s)
        let a = s["a"]!, d = s["d"]!
        let route = Set(try Router(map: m).route([a, d]).legs.flatMap(\.edges).map(\.raw))
        var fixes = [GPSFix]()
        var t = 1_718_445_600.0
        // 10 m/s along Main Road to b
        for k in 0..<11 {
            let at = b.moved(meters: Double(11 - k) * 10, bearingDegrees: 270)
            fixes.append(GPSFix(time: t, coordinate: at, mode: .threeD, speedMetersPerSecond: 10, courseDegrees: 90, horizontalErrorMeters: 5))
            t += 1
        }
        let street = 270.0 + 20
        for k in 1...40 {
            // 4 m to the south, towards Main Road
            let at = b.moved(meters: Double(k) * 1.5, bearingDegrees: street).moved(meters: 4, bearingDegrees: 180)
            fixes.append(GPSFix(time: t, coordinate: at, mode: .threeD, speedMetersPerSecond: 1.5, courseDegrees: street, horizontalErrorMeters: 5))
            t += 1
        }
        var filter = PositionFilter()
        var matcher = HMMMatcher(map: m)
        var pushed = [(index: Int, fromB: Double)]()
        var decided = [Int: String]()
        for f in fixes {
            guard case .success(let p) = filter.accept(f) else { continue }
            _ = matcher.push(p, route: route)
            pushed.append((pushed.count, f.coordinate.distance(to: b)))
            for (i, mp) in matcher.takeDecisions() { decided[i] = mp.roadName }
        }
        for (i, mp) in matcher.finish() { decided[i] = mp.roadName }
        // from 20 m into the street, where it is 7 m from Main Road
        let intoStreet = pushed.suffix(40).filter { $0.fromB > 20 }.map(\.index)
        #expect(intoStreet.count > 20)
        let wrong = intoStreet.filter { decided[$0] != "Back Street" }
        #expect(wrong.isEmpty, "\(wrong.count) of \(intoStreet.count) fixes matched to \(Set(wrong.compactMap { decided[$0] }))")
    }
}

/// The matcher's copied-roads search answers like the map's own nearest-edge search.
@Suite struct LocalRoadsTests {
    @Test(.enabled(if: SharedData.isAvailable, Comment(rawValue: SharedData.missingMessage))) func sameAnswersAsTheMap() throws {
        let m = try TestMaps.extract("heidelberg")
        var roads = LocalRoads(map: m)
        var rng = SplitMix(seed: 42)
        // a walk through the city: steps of up to 30 m, with jumps now and then
        var c = Coordinate(latitude: 49.4093, longitude: 8.6937)
        var compared = 0
        for step in 0..<3000 {
            if step % 500 == 499 { c = Coordinate(latitude: 49.38 + rng.unit() * 0.05, longitude: 8.64 + rng.unit() * 0.1) }
            c = c.moved(meters: rng.unit() * 30, bearingDegrees: rng.unit() * 360)
            let radius = 10 + rng.unit() * 40
            // (edges right at the radius may fall either side: the frames round differently)
            let mine = roads.nearest(to: c, radius: radius, limit: 8).filter { $0.distanceMeters < radius - 0.1 }
            let theirs = m.nearestEdges(to: c, radiusMeters: radius, limit: 8).filter { $0.distanceMeters < radius - 0.1 }
            #expect(abs(mine.count - theirs.count) <= 1, "step \(step)")
            for (a, b) in zip(mine, theirs) {
                #expect(abs(a.distanceMeters - b.distanceMeters) < 0.05, "step \(step): \(a) vs \(b)")
                if abs(a.distanceMeters - b.distanceMeters) < 0.05, a.edge == b.edge {
                    #expect(abs(a.offsetMeters - b.offsetMeters) < 0.5)
                    #expect(a.point.distance(to: b.point) < 0.05)
                }
            }
            // the same set of edges (ties aside)
            #expect(Set(mine.map(\.edge)).symmetricDifference(theirs.map(\.edge)).count <= 2, "step \(step)")
            compared += mine.count
        }
        #expect(compared > 3000)
    }
}

struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    mutating func unit() -> Double { Double(next() >> 11) / Double(1 << 53) }
}

/// In the car nothing takes the decided matches: with `keepsDecisions` off none is kept, so a day
/// of fixes does not pile up in memory (issue #27), while the match shown at once is the same.
@Test func decisionsNotKeptInTheCar() throws {
    let m = try TestMaps.demoTown()
    var o = DriveSimulator.Options()
    o.noise = .typical(3)
    let drive = DriveSimulator(map: m, options: o).simulate(try Router(map: m).route([DemoTown.start, DemoTown.destination]))
    var keeping = HMMMatcher(map: m)
    var options = HMMMatcher.Options()
    options.keepsDecisions = false
    var car = HMMMatcher(map: m, options: options)
    var filter = PositionFilter()
    var pushed = 0
    for f in drive.fixes {
        guard case .success(let p) = filter.accept(f) else { continue }
        #expect(keeping.push(p) == car.push(p))
        pushed += 1
    }
    #expect(pushed > 50)
    #expect(keeping.takeDecisions().count >= pushed - 2)
    #expect(car.takeDecisions().isEmpty && car.finish().isEmpty)
}
