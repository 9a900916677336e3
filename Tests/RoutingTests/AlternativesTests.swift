import Foundation
import Geo
import MapData
import Routing
import TestSupport
import Testing

@Suite struct AlternativesTests {
    /// Alternatives are real routes (connected, no edge twice), at most 25% slower, sharing at
    /// most 80% with the fastest; a reasonable one exists for many city queries.
    @Test(.enabled(if: SharedData.isAvailable, Comment(rawValue: SharedData.missingMessage))) func alternativesOnHeidelberg() throws {
        let m = try TestMaps.extract("heidelberg")
        let router = Router(map: m)
        var withAlternative = 0
        let queries = try BenchQueries.load("heidelberg").prefix(40)
        for q in queries {
            let (best, alts) = try router.alternatives(from: q.locations[0], to: q.locations[1], count: 2)
            for alt in alts {
                let edges = alt.legs[0].edges
                #expect(Set(edges).count == edges.count)
                for (x, y) in zip(edges, edges.dropFirst()) { #expect(m.target(of: x) == m.source(of: y), "\(q.id): gap in the path") }
                #expect(alt.legs[0].weightSeconds <= best.legs[0].weightSeconds * 1.25 + 0.01)
                #expect(RouteSimilarity.similarity(best, alt) < 0.9)
                #expect(alt.legs[0].shape.first!.distance(to: best.legs[0].shape.first!) < 1)
                #expect(alt.legs[0].shape.last!.distance(to: best.legs[0].shape.last!) < 1)
            }
            if !alts.isEmpty { withAlternative += 1 }
        }
        print("alternatives: \(withAlternative) of \(queries.count) heidelberg queries have one")
        #expect(withAlternative >= queries.count / 3)
    }
}
