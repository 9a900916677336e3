import Geo
import MapData
@testable import MapMatching
import Positioning
import Routing
import Simulation
import TestSupport
import Testing

/// The engine's two matchers share one copy of the roads around the car (issue #27). The copy
/// is a cache: whatever one matcher asked before, the other's answers must not change.
@Suite struct SharedRoadsTests {
    @Test func sharingTheRoadsChangesNoAnswer() throws {
        let m = try TestMaps.demoTown()
        var o = DriveSimulator.Options()
        o.noise = .typical(5)
        o.seed = 11
        let drive = DriveSimulator(map: m, options: o).simulate(try Router(map: m).route([DemoTown.start, DemoTown.destination]))
        var wide = HMMMatcher.Options()
        wide.radiusMeters = 45  // asks differently from the other: a wider reach than the cache holds
        let shared = NearbyRoads(map: m)
        shared.local.capacity = 2  // dropped and copied again all the time
        var a = HMMMatcher(map: m, roads: shared), b = HMMMatcher(map: m, options: wide, roads: shared)
        var soloA = HMMMatcher(map: m), soloB = HMMMatcher(map: m, options: wide)
        var filter = PositionFilter()
        var pushed = 0
        for f in drive.fixes {
            guard case .success(let p) = filter.accept(f) else { continue }
            let (ma, mb) = (a.push(p), b.push(p))
            let (sa, sb) = (soloA.push(p), soloB.push(p))
            #expect(ma == sa, "fix \(pushed)")
            #expect(mb == sb, "fix \(pushed)")
            pushed += 1
        }
        #expect(pushed > 50)
        let (da, db, sa, sb) = (a.finish().map(\.match), b.finish().map(\.match), soloA.finish().map(\.match), soloB.finish().map(\.match))
        #expect(da == sa && !da.isEmpty)
        #expect(db == sb && !db.isEmpty)
    }

    /// The road-name cache starts afresh when full, and still names every road right.
    @Test func nameCacheIsBoundedAndRight() throws {
        let m = try TestMaps.demoTown()
        var cache = NameCache()
        cache.capacity = 3
        let ids = (1..<UInt32(min(m.nameCount, 12)))
        #expect(ids.count >= 5)
        for _ in 0..<3 {
            for id in ids {
                let name = cache.name(id, m)
                #expect(name == m.name(id))
            }
        }
        #expect(cache.count <= 3)
    }
}
