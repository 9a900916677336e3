import Geo
import MapData

extension Router {
    /// Up to `count` alternatives to the fastest route between two points: routes through a
    /// "via node" of the hierarchy's forward and backward search spaces (Abraham et al., X-CHV)
    /// that are at most `stretch` times slower, share at most `maxSharing` of their length
    /// with every route already chosen, and never drive an edge twice.
    public func alternatives(from a: Coordinate, to b: Coordinate, headingDegrees: Double? = nil, count: Int = 1,
                             stretch: Double = 1.25, maxSharing: Double = 0.8) throws -> (best: Route, alternatives: [Route]) {
        let best = try route([a, b], headingDegrees: headingDegrees)
        guard count > 0, let leg = best.legs.first else { return (best, []) }
        let sources = terminals(leg.from, asTarget: false, headingDegrees: headingDegrees)
        let targets = terminals(leg.to, asTarget: true, headingDegrees: nil)
        guard let space = exploreBothWays(sources, targets, stretch: stretch) else { return (best, []) }
        var chosen: [[DirectedEdge]] = [leg.edges]
        var lengths: [Double] = [leg.distanceMeters]
        var result = [Route]()
        let limit = Int64(Double(space.best) * stretch)
        for (cost, v) in space.candidates where cost <= limit {
            if result.count >= count { break }
            guard let path = viaPath(v, cost: cost, sources: sources, targets: targets), path.nodes.count > 1 else { continue }
            let edges = path.nodes.map { map.directedEdge(ofRoutingNode: $0) }
            // a real route: no edge twice, no turning round on the spot
            guard Set(edges).count == edges.count, !zip(edges, edges.dropFirst()).contains(where: { $0.opposite == $1 }) else { continue }
            let length = edges.reduce(0.0) { $0 + map.lengthMeters(ofEdge: $1.edge) }
            var ok = true
            for (k, other) in chosen.enumerated() {
                let shared = Set(other).intersection(edges).reduce(0.0) { $0 + map.lengthMeters(ofEdge: $1.edge) }
                if shared > maxSharing * min(length, lengths[k]) { ok = false; break }
            }
            guard ok else { continue }
            let s = sources.first { $0.node == path.nodes.first! }!, t = targets.first { $0.node == path.nodes.last! }!
            var altLeg = makeLeg(nodes: path.nodes, arcs: path.arcs, startOffset: s.offset, endOffset: t.offset, from: leg.from, to: leg.to)
            altLeg.weightSeconds = Double(path.cost) / 1000
            chosen.append(edges)
            lengths.append(length)
            result.append(Route(legs: [altLeg], waypoints: [a, b]))
        }
        // (the alternatives unpacked shortcuts of their own: a corrupt one stops routing here too)
        try checkHierarchy()
        return (best, result)
    }

    /// Both upward searches, not stopped at the first meeting: every node reached both ways is a
    /// candidate via node, with its cost, cheapest first.
    func exploreBothWays(_ sources: [Terminal], _ targets: [Terminal], stretch: Double) -> (best: Int64, candidates: [(Int64, UInt32)])? {
        forward.reset()
        backward.reset()
        forward.recordTouched = true
        backward.recordTouched = true
        defer { forward.recordTouched = false; backward.recordTouched = false }
        // targets lifted to costs of zero or more, as in hierarchySearch; taken off below
        let (lifted, lift) = Router.lifted(targets)
        for s in sources { forward.reach(s.node, s.cost, from: SearchSpace.none, arc: -1) }
        for t in lifted { backward.reach(t.node, t.cost, from: SearchSpace.none, arc: -1) }
        var best = Int64.max
        func meet(_ u: UInt32) {
            if forward.reached(u) && backward.reached(u) { best = min(best, forward.cost(u) + backward.cost(u)) }
        }
        while true {
            let bound = best == Int64.max ? Int64.max : Int64(Double(best - lift) * stretch) + lift
            let f = forward.topKey, b = backward.topKey
            let fDone = f == nil || f! > bound, bDone = b == nil || b! > bound
            if fDone && bDone { break }
            if !fDone && (bDone || f! <= b!) {
                guard let (d, u) = forward.pop() else { continue }
                meet(u)
                for k in map.upArcs(u) { let arc = map.upArc(k); forward.reach(arc.node, d + Int64(arc.weight), from: u, arc: Int32(k)) }
            } else {
                guard let (d, u) = backward.pop() else { continue }
                meet(u)
                for k in map.downArcs(u) { let arc = map.downArc(k); backward.reach(arc.node, d + Int64(arc.weight), from: u, arc: Int32(k)) }
            }
        }
        guard best != Int64.max else { return nil }
        var candidates = [(Int64, UInt32)]()
        for u in forward.touched where backward.reached(u) && forward.isSettled(u) && backward.isSettled(u) {
            candidates.append((forward.cost(u) + backward.cost(u) - lift, u))
        }
        candidates.sort { $0.0 < $1.0 || ($0.0 == $1.0 && $0.1 < $1.1) }
        return (best - lift, candidates)
    }

    /// The path through via node v of the last exploreBothWays, unpacked; nil unless it runs
    /// from a source to a target.
    func viaPath(_ v: UInt32, cost: Int64, sources: [Terminal], targets: [Terminal]) -> Path? {
        let p = path(through: v, cost: cost)
        guard let first = p.nodes.first, let last = p.nodes.last,
              sources.contains(where: { $0.node == first }), targets.contains(where: { $0.node == last }) else { return nil }
        return p
    }
}

/// A self-check of a map's routing hierarchy (`tern map-info --verify`).
public enum RouteCheckSample {
    /// Compares the hierarchy search with a plain Dijkstra on `pairs` seeded random edge pairs;
    /// returns (agreeing, compared).
    public static func verify(map: RoadMap, pairs: Int) -> (Int, Int) {
        guard map.edgeCount > 1, map.routingNodeCount > 0 else { return (0, 0) }
        let router = Router(map: map)
        var state: UInt64 = 0x2545_F491_4F6C_DD1D
        func next() -> Int { state ^= state << 13; state ^= state >> 7; state ^= state << 17; return Int(state % UInt64(map.edgeCount)) }
        var agreed = 0, compared = 0
        for _ in 0..<pairs {
            let a = UInt32(next()), b = UInt32(next())
            let la = map.lengthMeters(ofEdge: a), lb = map.lengthMeters(ofEdge: b)
            let sa = Snap(edge: a, offsetMeters: la / 2, edgeLengthMeters: la, point: map.coordinate(ofNode: map.edge(a).from), distanceMeters: 0, bearingDegrees: 0)
            let sb = Snap(edge: b, offsetMeters: lb / 2, edgeLengthMeters: lb, point: map.coordinate(ofNode: map.edge(b).from), distanceMeters: 0, bearingDegrees: 0)
            let s = router.terminals(sa, asTarget: false, headingDegrees: nil), t = router.terminals(sb, asTarget: true, headingDegrees: nil)
            guard !s.isEmpty, !t.isEmpty, a != b else { continue }
            let fast = router.hierarchySearch(s, t)?.cost, slow = router.referenceSearch(s, t)?.cost
            compared += 1
            if fast == slow { agreed += 1 }
        }
        return (agreed, compared)
    }
}
