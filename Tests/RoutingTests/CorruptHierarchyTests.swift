import Foundation
import Geo
import MapData
import Routing
import Simulation
import TestSupport
import Testing

/// Issue #29: a map whose checksums were made right again after damage passed its checks and
/// trapped `route` and `replay` (Router's unpacking). A hierarchy that does not hold together
/// now stops routing with a clear error, before any answer.
@Suite struct CorruptHierarchyTests {
    @Test func shortcutsWithoutTheirArcsStopRoutingWithTheReason() throws {
        let dir = TempDir()
        defer { dir.remove() }
        let good = dir.file("town.tmap")
        _ = try DemoTown.build(mapPath: good, workDirectory: dir.path)
        var file = MapFile(bytes: Array(try Data(contentsOf: URL(fileURLWithPath: good))))
        // every shortcut's middle node moved one on: each still a node, none the right one
        var changed = 0
        let nodes = try RoadMap(path: good).routingNodeCount
        for tag in ["CHUP", "CHDN"] {
            let arcs = try #require(file.section(tag))
            for o in stride(from: arcs.lowerBound, to: arcs.upperBound, by: HierarchyArc.byteSize) {
                let middle = file.u32(o + 8)
                guard middle != Int(HierarchyArc.original) else { continue }
                file.put(UInt32((middle + 1) % nodes), at: o + 8)
                changed += 1
            }
        }
        #expect(changed > 0, "the demo town has no shortcuts")
        file.recomputeChecksums()
        let bad = dir.file("bad.tmap")
        try Data(file.bytes).write(to: URL(fileURLWithPath: bad))
        let map = try RoadMap(path: bad)  // (it passes the checks at open: the CRCs are right)
        do {
            let r = try Router(map: map).route([DemoTown.start, DemoTown.destination])
            Issue.record("a route of \(r.distanceMeters) m on a corrupt hierarchy")
        } catch let e as RoutingError {
            guard case .corruptMap(let path, _) = e else { Issue.record("\(e)"); return }
            #expect(path == bad)
            #expect("\(e)".contains("map is corrupt") && "\(e)".contains("routing stopped"), "\(e)")
        }
        // the good map still routes
        #expect(try Router(map: RoadMap(path: good)).route([DemoTown.start, DemoTown.destination]).distanceMeters > 100)
    }
}
