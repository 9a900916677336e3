import Geo
import MapData

/// Finds the fastest car route on a RoadMap: snapping (with the car's heading), then a
/// bidirectional search on the contraction hierarchy of the edge-based graph (turn restrictions,
/// u-turns and turn costs included), then unpacking into road edges.
/// A Router keeps reusable search arrays: one per thread, reused across queries.
public final class Router {
    public let map: RoadMap
    public let snapper: Snapper
    /// The two search spaces (internal: the alternatives extension explores them further).
    var forward: SearchSpace
    var backward: SearchSpace
    private lazy var reverseArcs: [[(to: UInt32, index: Int)]] = buildReverseArcs()
    /// Speeds and closures to route with (searched without the hierarchy's shortcuts); empty:
    /// free flow, on the hierarchy.
    public var traffic = TrafficConditions()
    /// Waypoints may snap to roads that are no start point (ferries, private service roads):
    /// OSRM's `snapping=any`. Off by default, as in OSRM.
    public var snapToAnyRoad = false
    /// Copies of directed edges (made for via-way restrictions), by the edge they copy: a target
    /// on an edge is reached on any of its copies too.
    private let copiesOf: [UInt32: [UInt32]]
    /// What unpacking found wrong with the hierarchy since the last `route`: a shortcut without
    /// the two arcs it stands for, or one that unpacks without end. Only a corrupt map that
    /// passed its checks can do that; `route` then throws `.corruptMap` rather than answer.
    public private(set) var corruption: String?

    public init(map: RoadMap) {
        self.map = map
        snapper = Snapper(map: map)
        forward = SearchSpace(count: map.routingNodeCount)
        backward = SearchSpace(count: map.routingNodeCount)
        var copies = [UInt32: [UInt32]]()
        for node in UInt32(map.edgeCount * 2)..<UInt32(map.routingNodeCount) {
            copies[map.directedEdge(ofRoutingNode: node).raw, default: []].append(node)
        }
        copiesOf = copies
    }

    /// A route through `waypoints` in order. `headingDegrees` (the car's course) makes the first
    /// leg start in the direction the car is driving when the road allows. `continueStraight`
    /// (OSRM's continue_straight; the car's default) drives on through each waypoint; false lets
    /// the next leg start the other way, as a simulated driver turning round there does.
    ///
    /// `arrivalHeadingDegrees` makes the last leg arrive driving in that direction where the road
    /// allows (OSRM's bearing at the last waypoint).
    ///
    /// `radiiMeters` limits how far each waypoint may lie from its road (OSRM's radiuses; nil or
    /// missing: up to a kilometre).
    public func route(_ waypoints: [Coordinate], headingDegrees: Double? = nil, continueStraight: Bool = true,
                      arrivalHeadingDegrees: Double? = nil, radiiMeters: [Double?] = []) throws -> Route {
        corruption = nil
        let found = Result {
            try routeLegs(waypoints, headingDegrees: headingDegrees, continueStraight: continueStraight,
                          arrivalHeadingDegrees: arrivalHeadingDegrees, radiiMeters: radiiMeters)
        }
        try checkHierarchy()
        return try found.get()
    }

    /// Throws when unpacking found the hierarchy corrupt (see `corruption`).
    func checkHierarchy() throws {
        if let c = corruption { throw RoutingError.corruptMap(path: map.path, detail: c) }
    }

    private func routeLegs(_ waypoints: [Coordinate], headingDegrees: Double?, continueStraight: Bool,
                           arrivalHeadingDegrees: Double?, radiiMeters: [Double?]) throws -> Route {
        guard waypoints.count >= 2 else { throw RoutingError.tooFewWaypoints }
        guard map.routingNodeCount > 0 else { throw RoutingError.noRoutingTables }
        var snaps = [Snap]()
        for (i, w) in waypoints.enumerated() {
            let heading = i == 0 ? headingDegrees : (i == waypoints.count - 1 ? arrivalHeadingDegrees : nil)
            let radius = (i < radiiMeters.count ? radiiMeters[i] : nil) ?? 1000
            guard let s = snapper.snap(w, headingDegrees: heading, maxRadiusMeters: radius, anyRoad: snapToAnyRoad) else {
                throw RoutingError.noRoadNear(w, index: i)
            }
            snaps.append(s)
        }
        var legs = [RouteLeg]()
        for i in 1..<snaps.count {
            // Through a waypoint the car keeps its direction (OSRM's continue_straight, the car
            // profile's default): the next leg leaves the way the last one arrived, and turns at
            // the first place it can; only where that finds no way does it start the other way.
            let arriving = i == snaps.count - 1 ? arrivalHeadingDegrees : nil
            if i > 1, continueStraight, let heading = arrivalHeading(legs[legs.count - 1], at: snaps[i - 1]),
               let leg = leg(from: snaps[i - 1], to: snaps[i], headingDegrees: heading, arrivalHeadingDegrees: arriving) {
                legs.append(leg)
                continue
            }
            let heading = i == 1 ? headingDegrees : nil
            if let leg = leg(from: snaps[i - 1], to: snaps[i], headingDegrees: heading, arrivalHeadingDegrees: arriving) {
                legs.append(leg)
                continue
            }
            // A waypoint in a small cut-off piece (behind a private gate, say): route to the
            // nearest point of the connected network instead.
            func connected(_ k: Int) -> Snap? {
                map.flags(ofEdge: snaps[k].edge).contains(.isolated)
                    ? snapper.snap(waypoints[k], headingDegrees: k == 0 ? headingDegrees : nil, allowIsolated: false, anyRoad: snapToAnyRoad) : snaps[k]
            }
            guard let a = connected(i - 1), let b = connected(i), a != snaps[i - 1] || b != snaps[i],
                  let leg = leg(from: a, to: b, headingDegrees: heading) else {
                throw RoutingError.noRoute(from: i - 1, to: i)
            }
            snaps[i] = b
            legs.append(leg)
        }
        return Route(legs: legs, waypoints: waypoints)
    }

    /// The direction a leg arrives in at its end point, as a heading along the snapped road.
    func arrivalHeading(_ leg: RouteLeg, at snap: Snap) -> Double? {
        guard let last = leg.edges.last, last.edge == snap.edge else { return nil }
        return last.reversed ? (snap.bearingDegrees + 180).truncatingRemainder(dividingBy: 360) : snap.bearingDegrees
    }

    /// Where a search may start or end on a snapped edge: routing node and the cost (ms) from the
    /// snapped point to the end of that node's edge (sources), or minus the cost from the target
    /// point to the end of the edge (targets).
    struct Terminal { var node: UInt32; var cost: Int64; var offset: Double }

    /// A path found by a search: weight (ms) from the start point to the end point, the routing
    /// nodes, and the original turn arcs taken (arcs[i] leads into nodes[i + 1]).
    struct Path { var cost: Int64; var nodes: [UInt32]; var arcs: [HierarchyArc] }

    func terminals(_ s: Snap, asTarget: Bool, headingDegrees: Double?) -> [Terminal] {
        let e = map.edge(s.edge)
        var allowForward = e.flags.contains(.forward), allowBackward = e.flags.contains(.backward)
        if let h = headingDegrees, allowForward && allowBackward {
            // A moving car keeps its direction: never start behind it when the road allows ahead;
            // as a target, the direction to arrive in.
            let diff = abs(Angle.difference(from: s.bearingDegrees, to: h))
            if diff <= 90 { allowBackward = false } else { allowForward = false }
        }
        let len = max(s.edgeLengthMeters, 0.001)
        var out = [Terminal]()
        for (allowed, reversed) in [(allowForward, false), (allowBackward, true)] where allowed {
            let d = DirectedEdge(edge: s.edge, reversed: reversed)
            let w = map.routingWeight(d.raw)
            guard w != UInt32.max else { continue }
            let offset = reversed ? len - s.offsetMeters : s.offsetMeters  // metres from the start of d
            let after = Double(w) * max(0, min(1, 1 - offset / len))       // ms from the point to the end of d
            let t = Terminal(node: d.raw, cost: asTarget ? -Int64(after.rounded()) : Int64(after.rounded()), offset: offset)
            out.append(t)
            // arriving on a copy of the edge (after a restricted via path) is arriving all the same
            if asTarget { for c in copiesOf[d.raw] ?? [] { out.append(Terminal(node: c, cost: t.cost, offset: t.offset)) } }
        }
        return out
    }

    /// The fastest leg between two snapped points.
    public func leg(from a: Snap, to b: Snap, headingDegrees: Double? = nil, arrivalHeadingDegrees: Double? = nil) -> RouteLeg? {
        var sources = terminals(a, asTarget: false, headingDegrees: headingDegrees)
        var targets = terminals(b, asTarget: true, headingDegrees: arrivalHeadingDegrees)
        if !traffic.isEmpty {
            sources = underTraffic(sources)
            targets = underTraffic(targets)
        }
        guard !sources.isEmpty, !targets.isEmpty else { return nil }
        var best: (cost: Int64, nodes: [UInt32], arcs: [HierarchyArc], source: Terminal, target: Terminal)?
        // the target ahead on the same directed edge: no search needed
        for s in sources {
            for t in targets where t.node == s.node && t.offset >= s.offset {
                let c = s.cost + t.cost
                if best == nil || c < best!.cost { best = (c, [s.node], [], s, t) }
            }
        }
        let sameEdgeBehind = sources.contains { s in targets.contains { $0.node == s.node && $0.offset < s.offset } }
        let search = { () -> Path? in
            if !self.traffic.isEmpty {
                let t = self.traffic
                return self.referenceSearch(sources, targets) { self.underTraffic($0, into: $1, t) }
            }
            return sameEdgeBehind ? self.referenceSearch(sources, targets) : self.hierarchySearch(sources, targets)
        }
        if let found = search(), corruption == nil,
           best == nil || found.cost < best!.cost {
            guard let s = sources.first(where: { $0.node == found.nodes.first }),
                  let t = targets.first(where: { $0.node == found.nodes.last }) else {
                corruption = "a path through the hierarchy does not join its ends"
                return nil
            }
            best = (found.cost, found.nodes, found.arcs, s, t)
        }
        guard let found = best else { return nil }
        var leg = makeLeg(nodes: found.nodes, arcs: found.arcs, startOffset: found.source.offset,
                          endOffset: found.target.offset, from: a, to: b)
        leg.weightSeconds = Double(found.cost) / 1000
        return leg
    }

    /// Bidirectional upward search on the hierarchy; the path unpacked into routing nodes, with
    /// the weight of each turn arc taken (arcWeights[i] leads into nodes[i + 1]).
    func hierarchySearch(_ sources: [Terminal], _ inTargets: [Terminal]) -> Path? {
        let (targets, lift) = Router.lifted(inTargets)
        forward.reset()
        backward.reset()
        for s in sources { forward.reach(s.node, s.cost, from: SearchSpace.none, arc: -1) }
        for t in targets { backward.reach(t.node, t.cost, from: SearchSpace.none, arc: -1) }
        var best = Int64.max, meeting = SearchSpace.none
        func meet(_ u: UInt32) {
            if forward.reached(u) && backward.reached(u) {
                let c = forward.cost(u) + backward.cost(u)
                if c < best { best = c; meeting = u }
            }
        }
        for s in sources { meet(s.node) }
        while true {
            let fTop = forward.topKey, bTop = backward.topKey
            let fDone = fTop == nil || fTop! >= best, bDone = bTop == nil || bTop! >= best
            if fDone && bDone { break }
            if !fDone && (bDone || fTop! <= bTop!) {
                guard let (d, u) = forward.pop() else { continue }
                meet(u)
                // stall on demand: a higher node already reached that leads here cheaper proves
                // this label is not a shortest path, so the search does not grow from it
                var stalled = false
                for k in map.downArcs(u) {
                    let arc = map.downArc(k)
                    if forward.reached(arc.node), forward.cost(arc.node) + Int64(arc.weight) < d { stalled = true; break }
                }
                if stalled { continue }
                for k in map.upArcs(u) {
                    let arc = map.upArc(k)
                    forward.reach(arc.node, d + Int64(arc.weight), from: u, arc: Int32(k))
                }
            } else {
                guard let (d, u) = backward.pop() else { continue }
                meet(u)
                var stalled = false
                for k in map.upArcs(u) {
                    let arc = map.upArc(k)
                    if backward.reached(arc.node), backward.cost(arc.node) + Int64(arc.weight) < d { stalled = true; break }
                }
                if stalled { continue }
                for k in map.downArcs(u) {
                    let arc = map.downArc(k)
                    backward.reach(arc.node, d + Int64(arc.weight), from: u, arc: Int32(k))
                }
            }
        }
        guard meeting != SearchSpace.none else { return nil }
        return path(through: meeting, cost: best - lift)
    }

    /// A target's cost is minus the part of its edge beyond the point (the search reaches a
    /// routing node with its whole edge driven), so below zero. The searches stop when the
    /// cheapest label left is no cheaper than the best meeting found, which holds only for costs
    /// of zero or more: a label dearer than the best could still meet a negative target cost and
    /// end cheaper (a route from a dead end's tip went round the dead end, 27 s dearer). So they
    /// search with every target lifted by the largest such part, and take it off at the end.
    static func lifted(_ targets: [Terminal]) -> (targets: [Terminal], lift: Int64) {
        let lift = max(0, targets.map { -$0.cost }.max() ?? 0)
        return (targets.map { Terminal(node: $0.node, cost: $0.cost + lift, offset: $0.offset) }, lift)
    }

    /// The path the two search spaces hold through `v`: hierarchy arcs from the source up to v,
    /// then down to the target, unpacked into original turns.
    func path(through v: UInt32, cost: Int64) -> Path {
        var chain = [(from: UInt32, to: UInt32, arc: HierarchyArc)]()
        var u = v
        while forward.parent(u) != SearchSpace.none {
            let p = forward.parent(u)
            chain.append((p, u, map.upArc(Int(forward.arc(u)))))
            u = p
        }
        chain.reverse()
        let first = u
        u = v
        while backward.parent(u) != SearchSpace.none {
            let p = backward.parent(u)
            chain.append((u, p, map.downArc(Int(backward.arc(u)))))
            u = p
        }
        var nodes = [first], arcs = [HierarchyArc]()
        for c in chain { unpack(c.from, c.to, c.arc, into: &nodes, &arcs) }
        return Path(cost: cost, nodes: nodes, arcs: arcs)
    }

    private func unpack(_ from: UInt32, _ to: UInt32, _ arc: HierarchyArc, into nodes: inout [UInt32], _ arcs: inout [HierarchyArc]) {
        var stack = [(from, to, arc)]
        // a shortest path visits each routing node once: more steps is a cycle of shortcuts
        var budget = 2 * map.routingNodeCount + 2
        while let (a, b, x) = stack.popLast() {
            budget -= 1
            guard budget > 0, corruption == nil else {
                corruption = corruption ?? "the shortcut \(from)→\(to) unpacks without end"
                return
            }
            if x.middle == HierarchyArc.original {
                nodes.append(b)
                arcs.append(x)
                continue
            }
            let m = x.middle
            // a→m is stored among m's down arcs (m ranks below a); m→b among m's up arcs
            guard let first = cheapest(map.downArcs(m), map.downArc, node: a),
                  let second = cheapest(map.upArcs(m), map.upArc, node: b) else {
                corruption = "the shortcut \(a)→\(b) through \(m) has no arc \(a)→\(m) or \(m)→\(b)"
                return
            }
            stack.append((m, b, second))
            stack.append((a, m, first))
        }
    }

    private func cheapest(_ range: Range<Int>, _ get: (Int) -> HierarchyArc, node: UInt32) -> HierarchyArc? {
        var best: HierarchyArc?
        for k in range {
            let a = get(k)
            if a.node == node, best == nil || a.weight < best!.weight { best = a }
        }
        return best
    }

    /// Plain Dijkstra over every arc of the hierarchy (shortcuts are real paths, so distances are
    /// exact): the reference the hierarchy search is tested against, and the way round when the
    /// target lies behind the start on the same edge (a loop the upward searches cannot close).
    /// Targets are checked when an arc reaches them, so a loop back onto the start node counts.
    func referenceSearch(_ sources: [Terminal], _ targets: [Terminal],
                         originalArc: ((HierarchyArc, UInt32) -> HierarchyArc?)? = nil) -> Path? {
        forward.reset()
        for s in sources { forward.reach(s.node, s.cost, from: SearchSpace.none, arc: -1) }
        let (lifted, lift) = Router.lifted(targets)
        var targetCost = [UInt32: Int64]()
        for t in lifted { targetCost[t.node] = min(targetCost[t.node] ?? .max, t.cost) }
        // with `originalArc` (traffic): only the original turn arcs, as it changes them (nil: closed)
        func effective(_ stored: HierarchyArc, _ v: UInt32) -> HierarchyArc? {
            guard let change = originalArc else { return stored }
            return stored.middle == HierarchyArc.original ? change(stored, v) : nil
        }
        var best = Int64.max
        var last: (from: UInt32, to: UInt32, arc: HierarchyArc)?
        while let top = forward.topKey, top < best {
            guard let (d, u) = forward.pop() else { break }
            func consider(_ stored: HierarchyArc, target v: UInt32, code: Int32) {
                guard let arc = effective(stored, v) else { return }
                let nd = d + Int64(arc.weight)
                if let tc = targetCost[v], nd + tc < best { best = nd + tc; last = (u, v, arc) }
                forward.reach(v, nd, from: u, arc: code)
            }
            for k in map.upArcs(u) { let a = map.upArc(k); consider(a, target: a.node, code: Int32(k)) }
            for r in reverseArcs[Int(u)] { consider(map.downArc(r.index), target: r.to, code: -Int32(r.index) - 2) }
        }
        guard let end = last else { return nil }
        // walk back from the arc's source to a start node, then unpack arc by arc
        var steps = [(UInt32, UInt32, HierarchyArc)]()
        var v = end.from
        while forward.parent(v) != SearchSpace.none {
            let p = forward.parent(v), code = forward.arc(v)
            let stored = code >= 0 ? map.upArc(Int(code)) : map.downArc(Int(-code - 2))
            steps.append((p, v, effective(stored, v) ?? stored))
            v = p
        }
        steps.reverse()
        steps.append((end.from, end.to, end.arc))
        var nodes = [v], arcs = [HierarchyArc]()
        for (a, b, arc) in steps { unpack(a, b, arc, into: &nodes, &arcs) }
        return Path(cost: best - lift, nodes: nodes, arcs: arcs)
    }

    /// For each node, the arcs leaving it that are stored as down arcs of lower nodes.
    private func buildReverseArcs() -> [[(to: UInt32, index: Int)]] {
        var out = [[(to: UInt32, index: Int)]](repeating: [], count: map.routingNodeCount)
        for v in 0..<map.routingNodeCount {
            for k in map.downArcs(UInt32(v)) { out[Int(map.downArc(k).node)].append((UInt32(v), k)) }
        }
        return out
    }
}

/// One direction's search state, kept between queries (generation-stamped, no clearing).
struct SearchSpace {
    static let none = UInt32.max
    private var dist: [Int64]
    private var parents: [UInt32]
    private var arcs: [Int32]
    private var stamp: [UInt32]
    private var settled: [UInt32]
    private var generation: UInt32 = 0
    private var heap = BinaryHeap<Int64>()
    /// Nodes reached since the last reset (for alternative-route candidates).
    private(set) var touched: [UInt32] = []
    var recordTouched = false

    init(count: Int) {
        dist = [Int64](repeating: 0, count: count)
        parents = [UInt32](repeating: SearchSpace.none, count: count)
        arcs = [Int32](repeating: -1, count: count)
        stamp = [UInt32](repeating: 0, count: count)
        settled = [UInt32](repeating: 0, count: count)
    }

    mutating func reset() {
        touched.removeAll(keepingCapacity: true)
        generation &+= 1
        if generation == 0 {
            for i in stamp.indices { stamp[i] = 0; settled[i] = 0 }
            generation = 1
        }
        heap.removeAll()
    }

    @inline(__always) func reached(_ u: UInt32) -> Bool { stamp[Int(u)] == generation }
    @inline(__always) func isSettled(_ u: UInt32) -> Bool { settled[Int(u)] == generation && stamp[Int(u)] == generation }
    @inline(__always) func cost(_ u: UInt32) -> Int64 { dist[Int(u)] }
    @inline(__always) func parent(_ u: UInt32) -> UInt32 { parents[Int(u)] }
    @inline(__always) func arc(_ u: UInt32) -> Int32 { arcs[Int(u)] }
    var topKey: Int64? { heap.topKey }

    @inline(__always) mutating func reach(_ u: UInt32, _ d: Int64, from p: UInt32, arc: Int32) {
        let i = Int(u)
        if stamp[i] != generation || d < dist[i] {
            if settled[i] == generation && stamp[i] == generation { return }
            if recordTouched && stamp[i] != generation { touched.append(u) }
            stamp[i] = generation
            dist[i] = d
            parents[i] = p
            arcs[i] = arc
            heap.push(d, u)
        }
    }

    /// The next node to settle (skipping stale heap entries).
    mutating func pop() -> (Int64, UInt32)? {
        while let (d, u) = heap.pop() {
            let i = Int(u)
            if settled[i] == generation || d > dist[i] { continue }
            settled[i] = generation
            return (d, u)
        }
        return nil
    }
}
