import FoundationEssentials
import Glibc
import Geo
import MapData

/// The edge-based graph routes are searched on: a node per directed road edge (plus copies that
/// via-way restrictions need), an arc per allowed turn, weighted in milliseconds with the time
/// to drive the next edge plus the turn's cost. Turn restrictions, u-turns and turn costs live
/// here, which a node-based graph cannot express.
public struct TurnGraph: Sendable {
    /// Directed edges: node ids 0..<2·edges are `DirectedEdge.raw`.
    public var directedCount: Int
    /// For the copies (ids ≥ directedCount): the directed edge each copies.
    public var copies: [UInt32] = []
    /// Per node: weight (what routes minimise) and duration of driving its edge, ms;
    /// `.max` where cars may not drive it.
    public var weights: [UInt32]
    public var durations: [UInt32]
    public struct Arc: Sendable, Equatable {
        public var to: UInt32
        /// Turn plus the next edge, ms.
        public var weight: UInt32
        public var duration: UInt32
    }
    /// Arcs by source.
    public var arcs: [[Arc]]
    /// The turns restrictions at nodes forbid (from.raw << 32 | to.raw), as `build` leaves them out:
    /// for guidance (MapFormat's NOTURN), which must not count them as ways on.
    public var forbiddenNodeTurns: [UInt64] = []

    public var nodeCount: Int { directedCount + copies.count }
    public var arcCount: Int { arcs.reduce(0) { $0 + $1.count } }

    public static let unreachable = UInt32.max

    /// The directed edge a routing node stands for.
    public func directedEdge(_ node: UInt32) -> DirectedEdge {
        Int(node) < directedCount ? DirectedEdge(raw: node) : DirectedEdge(raw: copies[Int(node) - directedCount])
    }
}

extension TurnGraph {
    /// Builds the turn graph of a road graph with its restrictions and the car profile's turn costs
    /// (OSRM's: u-turns allowed with a penalty, turn costs truncated to tenths of a second,
    /// entering a destination-only road from an open one priced out of through routes).
    static func build(_ g: RoadGraph, index: GraphBuilder.Index, restrictions: ResolvedRestrictions,
                      options: ProfileOptions = ProfileOptions()) -> TurnGraph {
        let directed = g.edges.count * 2
        // per node: arriving and leaving directed edges, and how many roads meet
        var arriving = [[UInt32]](repeating: [], count: g.nodes.count)
        var leaving = [[UInt32]](repeating: [], count: g.nodes.count)
        var degree = [Int](repeating: 0, count: g.nodes.count)
        for (i, e) in g.edges.enumerated() {
            degree[Int(e.from)] += 1
            degree[Int(e.to)] += 1
            if e.flags.contains(.forward) { arriving[Int(e.to)].append(UInt32(2 * i)); leaving[Int(e.from)].append(UInt32(2 * i)) }
            if e.flags.contains(.backward) { arriving[Int(e.from)].append(UInt32(2 * i + 1)); leaving[Int(e.to)].append(UInt32(2 * i + 1)) }
        }
        func restricted(_ d: UInt32) -> Bool {
            g.edges[Int(d >> 1)].flags.contains(d & 1 == 0 ? .restrictedForward : .restrictedBackward)
        }
        func isFerry(_ d: UInt32) -> Bool { g.edges[Int(d >> 1)].flags.contains(.ferry) }
        func isRing(_ d: UInt32) -> Bool { !g.edges[Int(d >> 1)].flags.isDisjoint(with: [.roundabout, .circular]) }
        let bearings = Bearings(g)
        let ringSide = ringOrientation(g, leaving: leaving)
        var arcs = [[Arc]](repeating: [], count: directed)
        var forbidden = [UInt64]()
        let entryPenalty = UInt64((options.restrictedEntryPenaltySeconds * 1000).rounded())
        for v in 0..<g.nodes.count {
            let turningPoint = g.nodeFlags[v].contains(.turningCircle)
            for a in arriving[v] {
                let onlyTo = restrictions.onlyTurns[a]
                // u-turns only where the road ends, or at a turning circle (OSRM's rule)
                let otherWayOut = leaving[v].contains { $0 >> 1 != a >> 1 }
                for b in leaving[v] {
                    let isUTurn = b >> 1 == a >> 1
                    if isUTurn && otherWayOut && !turningPoint { continue }
                    let pair = UInt64(a) << 32 | UInt64(b)
                    if restrictions.forbiddenTurns.contains(pair) || onlyTo.map({ !$0.contains(b) }) == true {
                        forbidden.append(pair)
                        continue
                    }
                    let angle = isUTurn ? 180 : Angle.difference(from: bearings.arriving[Int(a)], to: bearings.leaving[Int(b)])
                    // at a roundabout, from a road onto another straight across the ring's flow
                    // (a left turn on a counter-clockwise ring): the car must go round
                    if ringSide[v] != 0, !isRing(a), !isRing(b), !isUTurn, angle * Double(ringSide[v]) < -15 { continue }
                    let turn = CarProfile.turnPenaltySeconds(angleDegrees: angle, isUTurn: isUTurn, roads: degree[v],
                                                             modeChange: isFerry(a) != isFerry(b), options: options)
                    // obstacles when passing the node plus the turn, truncated to tenths (OSRM)
                    let seconds = (Double(index.arrivalPenalties[Int(a)]) / 1000 + turn)
                    let turnMillis = UInt64((seconds * 10).rounded(.down)) * 100
                    // by distance a turn weighs nothing, and a destination-only road is not
                    // priced out (car.lua's process_turn: that is the routability weight's rule)
                    var weight = UInt64(index.weights[Int(b)]) + (options.weightByDistance ? 0 : turnMillis)
                    if restricted(b) && !restricted(a) && !options.weightByDistance { weight += entryPenalty }
                    let duration = UInt64(index.durations[Int(b)]) + turnMillis
                    arcs[Int(a)].append(Arc(to: b, weight: UInt32(min(UInt64(unreachable - 1), weight)),
                                            duration: UInt32(min(UInt64(unreachable - 1), duration))))
                }
            }
        }
        var t = TurnGraph(directedCount: directed, weights: index.weights, durations: index.durations, arcs: arcs,
                          forbiddenNodeTurns: forbidden)
        t.applyViaWayRestrictions(restrictions.paths)
        return t
    }

    /// Per node on a one-way ring (roundabout or circular junction): +1 where the ring runs
    /// counter-clockwise (traffic keeps right), −1 clockwise, 0 elsewhere; from the signed area
    /// of the ring's nodes, following its edges.
    static func ringOrientation(_ g: RoadGraph, leaving: [[UInt32]]) -> [Int8] {
        var side = [Int8](repeating: 0, count: g.nodes.count)
        func isRing(_ d: UInt32) -> Bool { !g.edges[Int(d >> 1)].flags.isDisjoint(with: [.roundabout, .circular]) }
        func target(_ d: UInt32) -> Int { let e = g.edges[Int(d >> 1)]; return Int(d & 1 == 0 ? e.to : e.from) }
        for v in 0..<g.nodes.count where side[v] == 0 {
            guard let first = leaving[v].first(where: isRing) else { continue }
            var ring = [v]
            var d = first
            var closed = false
            while ring.count < 200 {
                let n = target(d)
                if n == v { closed = true; break }
                ring.append(n)
                guard let next = leaving[n].first(where: { isRing($0) && $0 >> 1 != d >> 1 }) else { break }
                d = next
            }
            guard closed, ring.count >= 3 else { continue }
            let s: Int8 = ring.map { g.nodes[$0] }.signedArea > 0 ? 1 : -1
            for n in ring { side[n] = s }
        }
        return side
    }

    /// Restrictions over via ways, as an Aho–Corasick automaton over directed edges: a copy of a
    /// via edge per partial match (the from edge, then each via edge driven in order), so the
    /// graph remembers how the car arrived. A copy's arcs are its edge's arcs, leading to the
    /// next partial match where one continues, without the forbidden turn (or with only the
    /// commanded one) where a restriction's via path is complete. Overlapping and nested
    /// restrictions combine through the automaton's failure links.
    mutating func applyViaWayRestrictions(_ paths: [ResolvedRestrictions.Path]) {
        guard !paths.isEmpty else { return }
        struct State { var edge: UInt32; var depth: Int; var children: [UInt32: Int] = [:]; var fail = 0; var outputs: [Int] = []; var node: UInt32 = 0 }
        var states = [State(edge: UInt32.max, depth: 0)]
        for (i, p) in paths.enumerated() {
            var s = 0
            for d in [p.from] + p.via {
                if let c = states[s].children[d.raw] { s = c; continue }
                states.append(State(edge: d.raw, depth: states[s].depth + 1))
                states[s].children[d.raw] = states.count - 1
                s = states.count - 1
            }
            states[s].outputs.append(i)
        }
        // failure links, breadth first
        var queue = [Int]()
        for (_, c) in states[0].children { queue.append(c) }
        var head = 0
        while head < queue.count {
            let u = queue[head]
            head += 1
            for (x, v) in states[u].children.sorted(by: { $0.key < $1.key }) {
                var f = states[u].fail
                while f != 0 && states[f].children[x] == nil { f = states[f].fail }
                var target = states[f].children[x] ?? 0
                if target == v { target = 0 }
                states[v].fail = target
                states[v].outputs += states[target].outputs
                queue.append(v)
            }
        }
        func goto(_ s: Int, _ x: UInt32) -> Int {
            var state = s
            while state != 0 && states[state].children[x] == nil { state = states[state].fail }
            return states[state].children[x] ?? 0
        }
        // routing nodes: depth 1 is the edge itself, deeper states are copies
        let base = arcs
        for i in 1..<states.count {
            if states[i].depth == 1 { states[i].node = states[i].edge; continue }
            states[i].node = UInt32(nodeCount)
            copies.append(states[i].edge)
            weights.append(weights[Int(states[i].edge)])
            durations.append(durations[Int(states[i].edge)])
            arcs.append([])
        }
        for i in 1..<states.count {
            let s = states[i]
            var list = [Arc]()
            for arc in base[Int(s.edge)] {
                let forbidden = s.outputs.contains { k in
                    let listed = paths[k].to.contains(DirectedEdge(raw: arc.to))
                    return paths[k].kind == .no ? listed : !listed
                }
                if forbidden { continue }
                var a = arc
                let next = goto(i, arc.to)
                if next != 0 { a.to = states[next].node }
                list.append(a)
            }
            arcs[Int(s.node)] = list
        }
    }
}

/// Bearings of every directed edge where it leaves its source and arrives at its target,
/// measured over its first and last 20 m (so a tiny kink at the junction does not count).
struct Bearings {
    var leaving: [Double]
    var arriving: [Double]

    init(_ g: RoadGraph) {
        leaving = [Double](repeating: 0, count: g.edges.count * 2)
        arriving = [Double](repeating: 0, count: g.edges.count * 2)
        for (i, e) in g.edges.enumerated() {
            var pts = [g.nodes[Int(e.from)]]
            pts += g.geometry[Int(e.geometryStart)..<Int(e.geometryStart + e.geometryCount)]
            pts.append(g.nodes[Int(e.to)])
            let startOut = Bearings.bearing(pts)
            let endIn = Bearings.bearing(pts.reversed())
            // forward: leaves `from` with startOut, arrives at `to` heading opposite to endIn
            leaving[2 * i] = startOut
            arriving[2 * i] = Angle.normalized(endIn + 180)
            leaving[2 * i + 1] = endIn
            arriving[2 * i + 1] = Angle.normalized(startOut + 180)
        }
    }

    /// Bearing from the first point towards the point about 20 m along.
    static func bearing<C: Collection>(_ pts: C) -> Double where C.Element == Coordinate {
        let a = pts.first!
        var target = a
        for p in pts.dropFirst() {
            target = p
            if a.distance(to: p) >= 20 { break }
        }
        return a.bearing(to: target)
    }
}
