import Foundation
import Geo
import MapData
@testable import Routing
import Simulation
import TestSupport
import Testing

@Suite struct HierarchyTests {
    /// The upward bidirectional search on the contraction hierarchy finds exactly the cost a plain
    /// Dijkstra over the whole edge-based graph finds, for random pairs on a real map: points
    /// inside edges and at their ends (a point at a junction or a dead end's tip, where a target's
    /// cost is minus its whole edge: the searches' stopping rules once gave up too early there).
    @Test(.enabled(if: SharedData.isAvailable, Comment(rawValue: SharedData.missingMessage)), arguments: ["monaco", "heidelberg"])
    func hierarchyAgreesWithPlainDijkstra(extract: String) throws {
        let m = try TestMaps.extract(extract)
        let router = Router(map: m)
        var rng = SeededRandom(seed: 11)
        var compared = 0, unreachable = 0
        let fractions = [0.0, 1.0 / 3, 0.5, 1.0]
        for _ in 0..<600 {
            let a = UInt32(rng.next() % UInt64(m.edgeCount)), b = UInt32(rng.next() % UInt64(m.edgeCount))
            let fa = fractions[Int(rng.next() % 4)], fb = fractions[Int(rng.next() % 4)]
            let sa = Snap(edge: a, offsetMeters: Double(m.edge(a).lengthMeters) * fa, edgeLengthMeters: Double(m.edge(a).lengthMeters),
                          point: m.coordinate(ofNode: m.edge(a).from), distanceMeters: 0, bearingDegrees: 0)
            let sb = Snap(edge: b, offsetMeters: Double(m.edge(b).lengthMeters) * fb, edgeLengthMeters: Double(m.edge(b).lengthMeters),
                          point: m.coordinate(ofNode: m.edge(b).to), distanceMeters: 0, bearingDegrees: 0)
            let s = router.terminals(sa, asTarget: false, headingDegrees: nil)
            let t = router.terminals(sb, asTarget: true, headingDegrees: nil)
            guard !s.isEmpty, !t.isEmpty, a != b else { continue }
            let fast = router.hierarchySearch(s, t), slow = router.referenceSearch(s, t)
            #expect((fast == nil) == (slow == nil))
            if let f = fast, let r = slow {
                #expect(f.cost == r.cost, Comment(rawValue: "\(a)→\(b): hierarchy \(f.cost) ms, Dijkstra \(r.cost) ms"))
                // the unpacked path is a chain of real turns whose weights add up to the cost
                let startCost: Int64 = s.first { $0.node == f.nodes.first! }?.cost ?? 0
                let endCost: Int64 = t.first { $0.node == f.nodes.last! }?.cost ?? 0
                let turns: Int64 = f.arcs.reduce(Int64(0)) { $0 + Int64($1.weight) }
                #expect(startCost + turns + endCost == f.cost)
                #expect(f.nodes.count == f.arcs.count + 1)
                compared += 1
            } else {
                unreachable += 1
            }
        }
        #expect(compared > 400)
        print("\(extract): \(compared) pairs agree, \(unreachable) unreachable")
    }

    /// Turning back on the same road: the target behind the start on a two-way street.
    @Test func targetBehindOnTheSameEdge() throws {
        let m = try TestMaps.demoTown()
        let p = LocalProjection(origin: DemoTown.origin)
        let ahead = p.unproject(LocalPoint(x: 20 * 20, y: 0)), behind = p.unproject(LocalPoint(x: 14 * 20, y: 0))
        // on Harbour Road (two-way) heading east, a destination 120 m behind
        let r = try Router(map: m).route([ahead, behind], headingDegrees: 90)
        #expect(r.distanceMeters > 120)
        #expect(r.legs[0].shape.first!.distance(to: ahead) < 1)
        #expect(r.legs[0].shape.last!.distance(to: behind) < 1)
    }
}
