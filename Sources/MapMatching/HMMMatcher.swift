import Foundation
import Geo
import MapData
import Positioning

/// Online map matching with a hidden Markov model (Newson & Krumm 2009): the hidden states are
/// road positions near each fix (a directed edge and an offset), the emission probability falls
/// with the distance from the fix (and with a course that disagrees with the road's direction),
/// and the transition probability falls with the difference between the distance along the roads
/// and the straight-line distance between the fixes. Viterbi runs online; a fix's road is decided
/// `lag` fixes later (at most two), and the latest fix gets a provisional answer at once.
public struct HMMMatcher {
    public struct Options: Sendable {
        /// Candidates farther than this from the fix are not considered, metres.
        public var radiusMeters = 50.0
        public var maxCandidates = 8
        /// Emission: the fix's standard deviation is at least this, metres.
        public var minimumSigmaMeters = 4.0
        /// Transition: scale of |road distance − straight distance|, metres.
        public var betaMeters = 5.0
        /// How much a course that disagrees with the road's direction counts (standard deviation, degrees).
        public var courseSigmaDegrees = 45.0
        /// Log-likelihood bonus for candidates on the active route.
        public var routeBonus = 1.5
        /// Fixes before a decision (0, 1 or 2).
        public var lag = 2
        public init() {}
    }

    struct Candidate {
        var edge: DirectedEdge
        /// Metres from the start of the directed edge.
        var offset: Double
        var point: Coordinate
        var distance: Double
        var bearing: Double
        var emission: Double
        var score: Double = 0
        var back: Int = -1
    }

    struct Column {
        var index: Int
        var time: Double
        var coordinate: Coordinate
        var candidates: [Candidate]
        /// True when the chain broke here (no transition from the previous column was possible).
        var restart: Bool
    }

    public let map: RoadMap
    public var options: Options
    private var columns: [Column] = []
    private var nextIndex = 0
    private var paths: PathFinder
    /// Decisions not yet taken by the caller: (input index, match).
    private var decided: [(Int, MatchedPosition)] = []

    public init(map: RoadMap, options: Options = Options()) {
        self.map = map
        self.options = options
        paths = PathFinder(map: map)
    }

    /// Adds a position; returns the provisional match for it (the best road now). Decisions for
    /// earlier positions become available from `takeDecisions()`.
    public mutating func push(_ p: FilteredPosition, route: Set<UInt32>? = nil) -> MatchedPosition {
        let index = nextIndex
        nextIndex += 1
        let sigma = max(options.minimumSigmaMeters, p.accuracyMeters / 2.45)
        var cands = candidates(for: p, sigma: sigma, route: route)
        guard !cands.isEmpty else {
            // off the roads: nothing to match; the chain goes on from the last column
            decided.append((index, unmatched(p.coordinate)))
            return unmatched(p.coordinate)
        }
        var restart = true
        if let prev = columns.last {
            let straight = prev.coordinate.distance(to: p.coordinate)
            let dt = max(0.5, p.time - prev.time)
            let limit = straight * 2 + 40 * dt + 50
            for j in cands.indices {
                var best = -Double.infinity, back = -1
                for (i, c) in prev.candidates.enumerated() where c.score > -Double.infinity {
                    guard let along = paths.distance(from: c, to: cands[j], limit: limit) else { continue }
                    let t = c.score - abs(along - straight) / options.betaMeters
                    if t > best { best = t; back = i }
                }
                if back >= 0 {
                    cands[j].score = best + cands[j].emission
                    cands[j].back = back
                    restart = false
                }
            }
        }
        if restart {
            for j in cands.indices { cands[j].score = cands[j].emission; cands[j].back = -1 }
        } else {
            // candidates no path reached are kept out of this chain
            for j in cands.indices where cands[j].back < 0 { cands[j].score = -Double.infinity }
        }
        let top = cands.map(\.score).max() ?? 0
        for j in cands.indices where cands[j].score > -Double.infinity { cands[j].score -= top }
        columns.append(Column(index: index, time: p.time, coordinate: p.coordinate, candidates: cands, restart: restart))
        decide(keep: options.lag)
        let bestIndex = cands.indices.max { cands[$0].score < cands[$1].score }!
        return matched(cands[bestIndex], column: cands)
    }

    /// Matches decided since the last call, in input order.
    public mutating func takeDecisions() -> [(index: Int, match: MatchedPosition)] {
        defer { decided.removeAll() }
        return decided.sorted { $0.0 < $1.0 }.map { ($0.0, $0.1) }
    }

    /// Decides everything still open (end of a trace).
    public mutating func finish() -> [(index: Int, match: MatchedPosition)] {
        decide(keep: 0)
        return takeDecisions()
    }

    /// Backtracks from the newest column's best state and decides every column more than `keep`
    /// fixes old that is not decided yet; keeps only the columns still needed.
    private mutating func decide(keep: Int) {
        guard let last = columns.last else { return }
        func best(_ col: Column) -> Int { col.candidates.indices.max { col.candidates[$0].score < col.candidates[$1].score }! }
        var chosen = [Int](repeating: 0, count: columns.count)
        var k = best(last)
        for c in stride(from: columns.count - 1, through: 0, by: -1) {
            chosen[c] = k
            guard c > 0 else { break }
            let back = columns[c].candidates[k].back
            k = (columns[c].restart || back < 0) ? best(columns[c - 1]) : back
        }
        for c in columns.indices where columns[c].index <= last.index - keep && columns[c].index > lastDecided {
            decided.append((columns[c].index, matched(columns[c].candidates[chosen[c]], column: columns[c].candidates)))
            lastDecided = columns[c].index
        }
        if keep == 0 { columns.removeAll() } else if columns.count > keep + 1 { columns.removeFirst(columns.count - keep - 1) }
    }

    private var lastDecided = -1

    private func candidates(for p: FilteredPosition, sigma: Double, route: Set<UInt32>?) -> [Candidate] {
        let radius = max(options.radiusMeters, 3 * sigma)
        let near = map.nearestEdges(to: p.coordinate, radiusMeters: radius, limit: options.maxCandidates)
        var out = [Candidate]()
        for s in near {
            let flags = map.flags(ofEdge: s.edge)
            for reversed in [false, true] {
                guard flags.contains(reversed ? .backward : .forward) else { continue }
                let d = DirectedEdge(edge: s.edge, reversed: reversed)
                let bearing = reversed ? Angle.normalized(s.bearingDegrees + 180) : s.bearingDegrees
                var e = -0.5 * (s.distanceMeters / sigma) * (s.distanceMeters / sigma)
                if let course = p.courseDegrees, (p.speedMetersPerSecond ?? 0) > 2 {
                    let diff = Angle.difference(from: bearing, to: course) / options.courseSigmaDegrees
                    e -= 0.5 * diff * diff
                }
                if let r = route, r.contains(d.raw) { e += options.routeBonus }
                let offset = reversed ? s.edgeLengthMeters - s.offsetMeters : s.offsetMeters
                out.append(Candidate(edge: d, offset: offset, point: s.point, distance: s.distanceMeters, bearing: bearing, emission: e))
            }
        }
        return out
    }

    private func matched(_ c: Candidate, column: [Candidate]) -> MatchedPosition {
        let rec = map.edge(c.edge.edge)
        let total = column.reduce(0.0) { $0 + ($1.score > -Double.infinity ? exp($1.score) : 0) }
        let confidence = total > 0 ? exp(c.score) / total : 0
        return MatchedPosition(edge: c.edge, offsetMeters: c.offset, coordinate: c.point, roadName: map.name(rec.nameID),
                               roadRef: map.name(rec.refID), speedLimitKmh: map.maxspeedKmh(of: c.edge),
                               confidence: confidence, distanceMeters: c.distance)
    }

    private func unmatched(_ c: Coordinate) -> MatchedPosition {
        MatchedPosition(edge: nil, offsetMeters: 0, coordinate: c, roadName: "", roadRef: "", speedLimitKmh: nil,
                        confidence: 0, distanceMeters: .infinity)
    }
}

/// Distances along the roads between two road positions (bounded Dijkstra on the node graph,
/// reusing its arrays between calls; the same edge is a subtraction).
struct PathFinder {
    let map: RoadMap
    private var dist: [Double]
    private var stamp: [UInt32]
    private var generation: UInt32 = 0
    private var heap: [(Double, UInt32)] = []
    /// The last search's origin node and limit, so several targets share one search.
    private var lastSource: (node: UInt32, limit: Double, gen: UInt32)?

    init(map: RoadMap) {
        self.map = map
        dist = [Double](repeating: 0, count: map.nodeCount)
        stamp = [UInt32](repeating: 0, count: map.nodeCount)
    }

    /// Metres from a to b driving forward, nil beyond `limit` or unreachable.
    mutating func distance(from a: HMMMatcher.Candidate, to b: HMMMatcher.Candidate, limit: Double) -> Double? {
        if a.edge == b.edge {
            let d = b.offset - a.offset
            if d >= 0 { return d }
            return d > -15 ? -d : nil  // a few metres back on the same road: noise while crawling
        }
        if a.edge == b.edge.opposite { return nil }
        let rest = map.lengthMeters(ofEdge: a.edge.edge) - a.offset
        let from = map.target(of: a.edge), to = map.source(of: b.edge)
        guard let between = nodeDistance(from, to, limit: limit - rest - b.offset) else { return nil }
        return rest + between + b.offset
    }

    mutating func nodeDistance(_ s: UInt32, _ t: UInt32, limit: Double) -> Double? {
        if s == t { return 0 }
        guard limit > 0 else { return nil }
        if let last = lastSource, last.node == s, last.limit >= limit, last.gen == generation {
            return stamp[Int(t)] == generation && dist[Int(t)] <= limit ? dist[Int(t)] : nil
        }
        generation &+= 1
        if generation == 0 { stamp = [UInt32](repeating: 0, count: stamp.count); generation = 1 }
        heap.removeAll(keepingCapacity: true)
        dist[Int(s)] = 0
        stamp[Int(s)] = generation
        heap.append((0, s))
        while !heap.isEmpty {
            // small searches: a linear minimum is as fast as a heap
            var m = 0
            for i in 1..<heap.count where heap[i].0 < heap[m].0 { m = i }
            heap.swapAt(m, heap.count - 1)
            let (d, u) = heap.removeLast()
            if d > dist[Int(u)] { continue }
            map.forEachOutgoing(u) { e in
                let v = map.target(of: e)
                let nd = d + map.lengthMeters(ofEdge: e.edge)
                if nd <= limit, stamp[Int(v)] != generation || nd < dist[Int(v)] {
                    stamp[Int(v)] = generation
                    dist[Int(v)] = nd
                    heap.append((nd, v))
                }
            }
        }
        lastSource = (s, limit, generation)
        return stamp[Int(t)] == generation ? dist[Int(t)] : nil
    }
}
