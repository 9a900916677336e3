import Foundation
import MapData
import TestSupport
import Testing

/// The loader against damaged copies of a real compiled map (routing hierarchy, places and all).
@Suite struct MapFuzzTests {
    @Test func damagedDemoTownMapsAreRefused() throws {
        let town = try TestMaps.demoTown()
        let original = [UInt8](try Data(contentsOf: URL(fileURLWithPath: town.path)))
        var rng = SystemRandomNumberGenerator()
        let path = NSTemporaryDirectory() + "tern-fuzz-town-\(UUID().uuidString).tmap"
        defer { unlink(path) }
        var refused = 0, opened = 0
        for i in 0..<600 {
            var b = original
            if i % 3 == 0 {
                b = Array(b.prefix(Int.random(in: 0..<b.count, using: &rng)))
            } else {
                for _ in 0..<Int.random(in: 1...3, using: &rng) {
                    b[Int.random(in: 0..<b.count, using: &rng)] ^= UInt8(1 << Int.random(in: 0..<8, using: &rng))
                }
            }
            try Data(b).write(to: URL(fileURLWithPath: path))
            do {
                let m = try RoadMap(path: path)
                opened += 1
                _ = m.places(near: m.coordinate(ofNode: 0), radiusMeters: 500)
            } catch is MapError {
                refused += 1
            }
        }
        #expect(refused >= 590, "only \(refused) of 600 damaged maps refused")
        #expect(refused + opened == 600)
    }
}
