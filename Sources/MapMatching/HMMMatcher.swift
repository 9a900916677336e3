import FoundationEssentials
import Glibc
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
        public var radiusMeters = 25.0
        public var maxCandidates = 8
        /// Emission: the fix's standard deviation is at least this, metres.
        public var minimumSigmaMeters = 4.0
        /// Transition: scale of |road distance − straight distance|, metres.
        public var betaMeters = 5.0
        /// How much a course that disagrees with the road's direction counts (standard deviation, degrees).
        public var courseSigmaDegrees = 45.0
        /// Earlier candidates this much less likely than the best (log-likelihood) are not followed.
        public var pruneBelow = 15.0
        /// Above this speed (m/s), a direction of travel this far (degrees) from the course is
        /// not a candidate at all (the course of a moving car is never that far off its road).
        public var oppositeSpeed = 4.0
        public var oppositeDegrees = 110.0
        /// Log-likelihood bonus for candidates on the active route.
        public var routeBonus = 1.5
        /// Fixes before a decision (0, 1 or 2).
        public var lag = 2
        /// Keep the decided matches until `takeDecisions()` (`tern match`, the bench). Off in the
        /// car, which shows the match made at once: nothing would take them, and a day's drive
        /// would pile up 86 400 of them (issue #27: memory flat over a day).
        public var keepsDecisions = true
        /// The answer shown at once moves to another road only when that road is more likely
        /// than the current one by this much (log-likelihood).
        public var switchMargin = 1.0
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
        /// Sum of the candidates' likelihoods (for the confidence of each), computed once.
        var likelihoodSum: Double
    }

    public let map: RoadMap
    public var options: Options
    private var columns: [Column] = []
    private var nextIndex = 0
    private var paths: PathFinder
    private let roads: NearbyRoads
    /// Decisions not yet taken by the caller: (input index, match).
    private var decided: [(Int, MatchedPosition)] = []

    /// `roads`: the copied roads to look candidates up in; matchers that follow the same car
    /// share one (the engine's two do), so the roads are copied and held once.
    public init(map: RoadMap, options: Options = Options(), roads: NearbyRoads? = nil) {
        self.map = map
        self.options = options
        paths = PathFinder(map: map)
        self.roads = roads ?? NearbyRoads(map: map)
    }

    /// Adds a position; returns the provisional match for it (the best road now). Decisions for
    /// earlier positions become available from `takeDecisions()`.
    public mutating func push(_ p: FilteredPosition, route: Set<UInt32>? = nil) -> MatchedPosition {
        let index = nextIndex
        nextIndex += 1
        let sigma = max(options.minimumSigmaMeters, p.accuracyMeters / 2.45)
        // (a position off the globe, from a trace or a filter gone wild, has no roads near it)
        var cands = p.coordinate.isValid ? candidates(for: p, sigma: sigma, route: route) : []
        guard !cands.isEmpty else {
            // off the roads: nothing to match; the chain goes on from the last column
            if options.keepsDecisions { decided.append((index, unmatched(p.coordinate))) }
            return unmatched(p.coordinate)
        }
        var restart = true
        if let prev = columns.last {
            let straight = prev.coordinate.shortDistance(to: p.coordinate)
            let dt = max(0.5, p.time - prev.time)
            // farther along the roads than this is not a transition worth following (a loop between
            // two 1 Hz fixes adds metres, not hundreds)
            let limit = straight * 1.5 + 25 * dt + 30
            // one bounded search from each earlier candidate serves every new candidate; earlier
            // candidates far less likely than the best (e^-pruneBelow) cannot win a transition
            best.removeAll(keepingCapacity: true)
            best.append(contentsOf: repeatElement(-Double.infinity, count: cands.count))
            back.removeAll(keepingCapacity: true)
            back.append(contentsOf: repeatElement(-1, count: cands.count))
            for (i, c) in prev.candidates.enumerated() where c.score > -options.pruneBelow {
                for j in cands.indices {
                    guard let along = paths.distance(from: c, to: cands[j], limit: limit) else { continue }
                    let t = c.score - abs(along - straight) / options.betaMeters
                    if t > best[j] { best[j] = t; back[j] = i }
                }
            }
            for j in cands.indices where back[j] >= 0 {
                cands[j].score = best[j] + cands[j].emission
                cands[j].back = back[j]
                restart = false
            }
        }
        if restart {
            for j in cands.indices { cands[j].score = cands[j].emission; cands[j].back = -1 }
        } else {
            // candidates no path reached are kept out of this chain
            for j in cands.indices where cands[j].back < 0 { cands[j].score = -Double.infinity }
        }
        var top = -Double.infinity
        for c in cands where c.score > top { top = c.score }
        for j in cands.indices where cands[j].score > -Double.infinity { cands[j].score -= top }
        var sum = 0.0
        for c in cands where c.score > -Double.infinity { sum += exp(c.score) }
        columns.append(Column(index: index, time: p.time, coordinate: p.coordinate, candidates: cands, restart: restart, likelihoodSum: sum))
        decide(keep: options.lag)
        var bestIndex = cands.indices.max { cands[$0].score < cands[$1].score }!
        // Hysteresis for the answer shown at once: past a fork both branches lie a metre or two
        // apart; keep showing the road we were on while it is nearly as likely (the lagged
        // decision settles it either way).
        if let shown = shownRoad, roadKey(cands[bestIndex].edge) != shown {
            let best = cands[bestIndex].score
            if let keep = cands.indices.filter({ roadKey(cands[$0].edge) == shown && cands[$0].score > best - options.switchMargin })
                .max(by: { cands[$0].score < cands[$1].score }) {
                bestIndex = keep
            }
        }
        shownRoad = roadKey(cands[bestIndex].edge)
        return matched(cands[bestIndex], likelihoodSum: sum)
    }

    /// The road a candidate is on: its way, or its name where it has one (a road mapped as several ways).
    private func roadKey(_ e: DirectedEdge) -> UInt64 {
        let rec = map.edge(e.edge)
        return rec.nameID != 0 ? UInt64(rec.nameID) << 32 | 1 : UInt64(rec.wayIndex) << 32
    }

    /// Forgets the track (a new drive), keeping what is cached about the map: the copied roads
    /// and the search arrays.
    public mutating func reset() {
        columns.removeAll(keepingCapacity: true)
        decided.removeAll(keepingCapacity: true)
        nextIndex = 0
        lastDecided = -1
        shownRoad = nil
    }

    /// Matches decided since the last call, in input order.
    public mutating func takeDecisions() -> [(index: Int, match: MatchedPosition)] {
        defer { decided.removeAll(keepingCapacity: true) }
        if decided.isEmpty { return [] }
        // off-road positions are decided at once and may come before older ones
        if !zip(decided, decided.dropFirst()).allSatisfy({ $0.0.0 < $0.1.0 }) { decided.sort { $0.0 < $1.0 } }
        return decided.map { ($0.0, $0.1) }
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
        var k = best(last)
        var c = columns.count - 1
        picks.removeAll(keepingCapacity: true)  // (column, candidate) to decide, newest first
        while c >= 0 {
            if columns[c].index <= lastDecided { break }
            if columns[c].index <= last.index - keep { picks.append((c, k)) }
            guard c > 0 else { break }
            let back = columns[c].candidates[k].back
            k = (columns[c].restart || back < 0) ? best(columns[c - 1]) : back
            c -= 1
        }
        for (c, k) in picks.reversed() {
            if options.keepsDecisions { decided.append((columns[c].index, matched(columns[c].candidates[k], likelihoodSum: columns[c].likelihoodSum))) }
            lastDecided = columns[c].index
        }
        if keep == 0 { columns.removeAll() } else if columns.count > keep + 1 { columns.removeFirst(columns.count - keep - 1) }
    }

    private var lastDecided = -1
    /// Scratch for the transition step and the decisions (kept to spare allocations per fix).
    private var best: [Double] = [], back: [Int] = []
    private var picks: [(Int, Int)] = []
    private var near: [Snap] = []
    /// The last answer's edge with its name, ref and limit.
    private var lastRoad: (edge: DirectedEdge, name: String, ref: String, limit: Double?)?
    /// Road names already read from the map (a fix's answer should not decode strings).
    private var names = NameCache()
    /// The road of the last answer shown at once.
    private var shownRoad: UInt64?

    private mutating func candidates(for p: FilteredPosition, sigma: Double, route: Set<UInt32>?) -> [Candidate] {
        // (a sigma gone wild, from a fix no filter should have believed, widens no further than 1 km)
        let radius = sigma.isFinite ? min(max(options.radiusMeters, 4 * sigma), 1000) : options.radiusMeters
        roads.local.nearest(to: p.coordinate, radius: radius, limit: options.maxCandidates, into: &near)
        var out = [Candidate]()
        out.reserveCapacity(near.count * 2)
        for s in near {
            let flags = map.flags(ofEdge: s.edge)
            for direction in 0..<2 {
                let reversed = direction == 1
                guard flags.contains(reversed ? .backward : .forward) else { continue }
                let d = DirectedEdge(edge: s.edge, reversed: reversed)
                let bearing = reversed ? Angle.normalized(s.bearingDegrees + 180) : s.bearingDegrees
                var e = -0.5 * (s.distanceMeters / sigma) * (s.distanceMeters / sigma)
                if let course = p.courseDegrees, let v = p.speedMetersPerSecond, v > 1 {
                    let off = abs(Angle.difference(from: bearing, to: course))
                    // moving briskly against the road's direction: not a state worth keeping
                    if off > options.oppositeDegrees, v > options.oppositeSpeed { continue }
                    // (at a crawl the course counts less, its noise growing as the speed falls)
                    let diff = off / (options.courseSigmaDegrees * max(1, 2 / v))
                    e -= 0.5 * diff * diff
                }
                if let r = route, r.contains(d.raw) { e += options.routeBonus }
                let offset = reversed ? s.edgeLengthMeters - s.offsetMeters : s.offsetMeters
                out.append(Candidate(edge: d, offset: offset, point: s.point, distance: s.distanceMeters, bearing: bearing, emission: e))
            }
        }
        return out
    }

    private mutating func matched(_ c: Candidate, likelihoodSum total: Double) -> MatchedPosition {
        let confidence = total > 0 ? exp(c.score) / total : 0
        // consecutive answers are mostly on the same directed edge: its details are kept
        if lastRoad?.edge != c.edge {
            let rec = map.edge(c.edge.edge)
            lastRoad = (c.edge, names.name(rec.nameID, map), names.name(rec.refID, map), map.maxspeedKmh(of: c.edge))
        }
        let road = lastRoad!
        var m = MatchedPosition(edge: c.edge, offsetMeters: c.offset, coordinate: c.point, roadName: road.name,
                                roadRef: road.ref, speedLimitKmh: road.limit, confidence: confidence, distanceMeters: c.distance)
        m.onNoStartRoad = map.isNoStartRoad(c.edge.edge)
        return m
    }

    private func unmatched(_ c: Coordinate) -> MatchedPosition {
        MatchedPosition(edge: nil, offsetMeters: 0, coordinate: c, roadName: "", roadRef: "", speedLimitKmh: nil,
                        confidence: 0, distanceMeters: .infinity)
    }
}

/// Strings of the map's name table, decoded once.
struct NameCache {
    private var strings: [UInt32: String] = [:]
    /// Names held before starting afresh: a day's drive meets thousands of roads, and the cache
    /// must not grow with it (issue #27); the roads around the car are a few dozen.
    var capacity = 256
    mutating func name(_ id: UInt32, _ map: RoadMap) -> String {
        if id == 0 { return "" }
        if let s = strings[id] { return s }
        let s = map.name(id)
        if strings.count >= capacity { strings.removeAll(keepingCapacity: true) }
        strings[id] = s
        return s
    }
    var count: Int { strings.count }
}

/// Distances along the roads between two road positions (bounded Dijkstra on the node graph,
/// reusing its arrays between calls; the same edge is a subtraction).
struct PathFinder {
    let map: RoadMap
    private var dist: [Double]
    private var stamp: [UInt32]
    private var generation: UInt32 = 0
    private var heap = BinaryHeap<Double>()
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
        // the search's bound does not depend on b, so one search answers every b from a
        guard let between = nodeDistance(from, to, limit: limit - rest), rest + between + b.offset <= limit else { return nil }
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
        heap.removeAll()
        dist[Int(s)] = 0
        stamp[Int(s)] = generation
        heap.push(0, s)
        while let (d, u) = heap.pop() {
            if d > dist[Int(u)] { continue }
            for k in map.outgoingRange(u) {
                let e = map.outgoingEdge(at: k)
                let v = map.target(of: e)
                let nd = d + map.lengthMeters(ofEdge: e.edge)
                if nd <= limit, stamp[Int(v)] != generation || nd < dist[Int(v)] {
                    stamp[Int(v)] = generation
                    dist[Int(v)] = nd
                    heap.push(nd, v)
                }
            }
        }
        lastSource = (s, limit, generation)
        return stamp[Int(t)] == generation ? dist[Int(t)] : nil
    }
}

extension HMMMatcher {
    /// Length of the road path through a sequence of matches (driving forward from each to the
    /// next), metres; what a matched track "drove".
    public static func pathLength(_ matches: [MatchedPosition], map: RoadMap) -> Double {
        var finder = PathFinder(map: map)
        var total = 0.0
        var previous: Candidate?
        for m in matches {
            guard let e = m.edge else { continue }
            let c = Candidate(edge: e, offset: m.offsetMeters, point: m.coordinate, distance: 0, bearing: 0, emission: 0)
            if let p = previous {
                let straight = p.point.distance(to: c.point)
                total += finder.distance(from: p, to: c, limit: straight * 3 + 500) ?? straight
            }
            previous = c
        }
        return total
    }
}
