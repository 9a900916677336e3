import Foundation
import Geo
import GPSInput
import MapData
import Routing
import Simulation
import TestSupport
import Testing

@Suite struct DriveSimulatorTests {
    @Test func drivesTheRouteAtRoadSpeeds() throws {
        let m = try TestMaps.demoTown()
        let route = try Router(map: m).route([DemoTown.start, DemoTown.destination])
        let fixes = DriveSimulator(map: m).drive(route)
        #expect(fixes.count > 60)
        #expect(zip(fixes, fixes.dropFirst()).allSatisfy { abs($1.time - $0.time - 1) < 1e-9 })
        #expect(fixes.first!.coordinate.distance(to: DemoTown.start) < 1)
        #expect(fixes.last!.coordinate.distance(to: route.legs[0].shape.last!) < 1)
        #expect(fixes.first!.speedMetersPerSecond == 0 && fixes.last!.speedMetersPerSecond == 0)
        let top = fixes.compactMap(\.speedMetersPerSecond).max()!
        #expect(top > 10 && top <= 50 / 3.6 + 0.01)  // the town's limit is 50 km/h
        // distance between fixes matches the speeds (no teleporting)
        for (a, b) in zip(fixes, fixes.dropFirst()) { #expect(a.coordinate.distance(to: b.coordinate) < 15) }
    }

    @Test func seededNoiseIsReproducibleAndOfTheRightSize() throws {
        let m = try TestMaps.demoTown()
        let route = try Router(map: m).route([DemoTown.start, DemoTown.destination])
        var o = DriveSimulator.Options()
        o.noiseMeters = 5
        o.seed = 42
        let a = DriveSimulator(map: m, options: o).drive(route), b = DriveSimulator(map: m, options: o).drive(route)
        #expect(a == b)
        o.noiseMeters = 0
        let clean = DriveSimulator(map: m, options: o).drive(route)
        let errors = zip(a, clean).map { $0.coordinate.distance(to: $1.coordinate) }
        let mean = errors.reduce(0, +) / Double(errors.count)
        #expect(mean > 2 && mean < 8)
    }

    @Test func nmeaOutputReadsBackAsTheSameFixes() throws {
        let m = try TestMaps.demoTown()
        let route = try Router(map: m).route([DemoTown.start, DemoTown.destination])
        let fixes = DriveSimulator(map: m).drive(route)
        let (back, stats) = NMEAFile.parse(Data(DriveSimulator.nmea(fixes).utf8))
        #expect(stats.badChecksum == 0 && stats.malformed == 0)
        #expect(back.count == fixes.count)
        #expect(zip(back, fixes).allSatisfy { $0.coordinate.distance(to: $1.coordinate) < 0.2 && abs($0.time - $1.time) < 0.01 })
    }

    /// The road model (issue #24): the same seed gives the same drive; the driver stands at
    /// stops and crawls; multipath and the wandering bias put fixes farther off than the bench's
    /// receiver does; the course is noisier when the car is slow.
    @Test func roadModelStopsCrawlsAndErrsHarder() throws {
        let m = try TestMaps.demoTown()
        let route = try Router(map: m).route([DemoTown.start, DemoTown.destination])
        func drive(_ seed: UInt64, road: Bool) -> SimulatedDrive {
            var o = DriveSimulator.Options()
            o.seed = seed
            o.noiseMeters = 3
            if road {
                o.useRoadModel()
                o.noise.multipathProbability = 0.05  // (a short drive: make sure bursts happen)
            }
            return DriveSimulator(map: m, options: o).simulate(route)
        }
        let a = drive(9, road: true), b = drive(9, road: true), bench = drive(9, road: false)
        #expect(a.fixes == b.fixes)
        // stands somewhere along the way (not only at the ends), and is slower overall
        let standing = a.truth.dropFirst(3).dropLast(3).filter { $0.speedMetersPerSecond == 0 }
        #expect(standing.count >= 10)
        #expect(a.fixes.count > bench.fixes.count + 10)
        func errors(_ d: SimulatedDrive) -> [Double] {
            zip(d.fixes, d.truth).map { $0.coordinate.distance(to: $1.coordinate) }.sorted()
        }
        #expect(errors(a)[errors(a).count * 95 / 100] > errors(bench)[errors(bench).count * 95 / 100])
        // course noise at walking pace against at speed
        func courseError(_ d: SimulatedDrive, _ speeds: ClosedRange<Double>) -> Double {
            let e = zip(d.fixes, d.truth).filter { speeds.contains($1.speedMetersPerSecond) }
                .compactMap { f, t in f.courseDegrees.map { abs(Angle.difference(from: t.courseDegrees, to: $0)) } }
            return e.reduce(0, +) / Double(max(1, e.count))
        }
        #expect(courseError(a, 0.3...2) > 2 * courseError(a, 8...40))
    }
}
