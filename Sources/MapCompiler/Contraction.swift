import Geo
import FoundationEssentials
import Glibc
import MapData

/// Contraction hierarchies (Geisberger et al. 2008) over the turn graph: nodes are contracted
/// in order of importance (edge difference plus contracted neighbours, updated lazily), adding a
/// shortcut u→w past each contracted v unless a witness path no longer than u→v→w exists
/// (a bounded local Dijkstra). Queries then only climb: forward along `up`, backward along `down`.
public struct ContractedGraph: Sendable {
    public struct Arc: Sendable, Equatable {
        /// The other node: the target of an up arc, the source of a down arc.
        public var node: UInt32
        public var weight: UInt32
        /// Milliseconds of driving the arc stands for.
        public var duration: UInt32
        /// The contracted node a shortcut skips, or `Arc.original`.
        public var middle: UInt32
        public static let original = UInt32.max
    }
    /// Per node, arcs to higher-ranked nodes (in driving direction).
    public var up: [[Arc]]
    /// Per node, arcs from higher-ranked nodes into it.
    public var down: [[Arc]]
    public var shortcuts: Int
}

final class Contractor {
    private struct Edge { var other: UInt32; var weight: UInt32; var duration: UInt32; var middle: UInt32 }
    private var outs: [[Edge]]
    private var ins: [[Edge]]
    private var contracted: [Bool]
    private var neighboursContracted: [Int32]
    private let n: Int
    // witness search state
    private var dist: [UInt32]
    private var stamp: [UInt32]
    private var generation: UInt32 = 0
    private var heap = BinaryHeap<UInt32>()
    /// Settled-node limits of witness searches: small when estimating, larger when contracting.
    var estimateLimit = 60
    var contractLimit = 400

    init(_ t: TurnGraph) {
        n = t.nodeCount
        outs = [[Edge]](repeating: [], count: n)
        ins = [[Edge]](repeating: [], count: n)
        for (u, list) in t.arcs.enumerated() {
            for a in list where Int(a.to) != u {
                outs[u].append(Edge(other: a.to, weight: a.weight, duration: a.duration, middle: ContractedGraph.Arc.original))
                ins[Int(a.to)].append(Edge(other: UInt32(u), weight: a.weight, duration: a.duration, middle: ContractedGraph.Arc.original))
            }
        }
        contracted = [Bool](repeating: false, count: n)
        neighboursContracted = [Int32](repeating: 0, count: n)
        dist = [UInt32](repeating: .max, count: n)
        stamp = [UInt32](repeating: 0, count: n)
    }

    func run(progress: ((Double) -> Void)? = nil) -> ContractedGraph {
        var up = [[ContractedGraph.Arc]](repeating: [], count: n)
        var down = [[ContractedGraph.Arc]](repeating: [], count: n)
        var queue = PriorityQueue()
        for v in 0..<n { queue.push(priority(UInt32(v)), UInt32(v)) }
        var done = 0, shortcuts = 0
        var lastReport = 0
        while let (p, v) = queue.pop() {
            if contracted[Int(v)] { continue }
            // lazy update: re-evaluate; if no longer the least important, put it back
            let current = priority(v)
            if current > p, let next = queue.peekPriority, current > next {
                queue.push(current, v)
                continue
            }
            let (ups, downs, added) = contract(v)
            up[Int(v)] = ups
            down[Int(v)] = downs
            shortcuts += added
            done += 1
            if let progress, done - lastReport >= max(1, n / 20) { lastReport = done; progress(Double(done) / Double(n)) }
        }
        return ContractedGraph(up: up, down: down, shortcuts: shortcuts)
    }

    /// Live (not yet contracted) neighbours, with the cheapest parallel arc kept.
    private func live(_ list: [Edge], except v: UInt32) -> [Edge] {
        var out = [Edge]()
        out.reserveCapacity(list.count)
        for e in list where !contracted[Int(e.other)] && e.other != v {
            // lists are short: a linear scan beats hashing
            if let i = out.firstIndex(where: { $0.other == e.other }) {
                if e.weight < out[i].weight { out[i] = e }
            } else {
                out.append(e)
            }
        }
        return out
    }

    private func priority(_ v: UInt32) -> Int32 {
        let i = live(ins[Int(v)], except: v), o = live(outs[Int(v)], except: v)
        let needed = shortcutsNeeded(v, i, o, limit: estimateLimit, add: false)
        return Int32(needed) * 2 - Int32(i.count + o.count) + neighboursContracted[Int(v)]
    }

    /// Contracts v: returns its arcs to higher nodes and how many shortcuts were added.
    private func contract(_ v: UInt32) -> ([ContractedGraph.Arc], [ContractedGraph.Arc], Int) {
        let i = live(ins[Int(v)], except: v), o = live(outs[Int(v)], except: v)
        let added = shortcutsNeeded(v, i, o, limit: contractLimit, add: true)
        contracted[Int(v)] = true
        for e in i { neighboursContracted[Int(e.other)] += 1 }
        for e in o { neighboursContracted[Int(e.other)] += 1 }
        // v's arcs are final: everything it still touches is contracted later (ranks higher)
        let ups = o.map { ContractedGraph.Arc(node: $0.other, weight: $0.weight, duration: $0.duration, middle: $0.middle) }
        let downs = i.map { ContractedGraph.Arc(node: $0.other, weight: $0.weight, duration: $0.duration, middle: $0.middle) }
        outs[Int(v)] = []
        ins[Int(v)] = []
        return (ups, downs, added)
    }

    /// Counts (and with `add`, inserts) the shortcuts u→w needed around v.
    private func shortcutsNeeded(_ v: UInt32, _ i: [Edge], _ o: [Edge], limit: Int, add: Bool) -> Int {
        guard !i.isEmpty, !o.isEmpty else { return 0 }
        var count = 0
        let maxOut = o.map(\.weight).max()!
        for u in i {
            let bound = UInt64(u.weight) + UInt64(maxOut)
            witness(from: u.other, avoiding: v, bound: bound, limit: limit)
            for w in o where w.other != u.other {
                let via = UInt64(u.weight) + UInt64(w.weight)
                let found = stamp[Int(w.other)] == generation ? UInt64(dist[Int(w.other)]) : UInt64.max
                if found <= via { continue }
                count += 1
                if add {
                    let weight = UInt32(min(via, UInt64(UInt32.max - 1)))
                    let duration = UInt32(min(UInt64(u.duration) + UInt64(w.duration), UInt64(UInt32.max - 1)))
                    addShortcut(u.other, w.other, weight, duration, v)
                }
            }
        }
        return count
    }

    private func addShortcut(_ u: UInt32, _ w: UInt32, _ weight: UInt32, _ duration: UInt32, _ middle: UInt32) {
        if let k = outs[Int(u)].firstIndex(where: { $0.other == w && !contracted[Int($0.other)] }) {
            if outs[Int(u)][k].weight <= weight { return }
            outs[Int(u)][k] = Edge(other: w, weight: weight, duration: duration, middle: middle)
            if let j = ins[Int(w)].firstIndex(where: { $0.other == u }) {
                ins[Int(w)][j] = Edge(other: u, weight: weight, duration: duration, middle: middle)
            }
            return
        }
        outs[Int(u)].append(Edge(other: w, weight: weight, duration: duration, middle: middle))
        ins[Int(w)].append(Edge(other: u, weight: weight, duration: duration, middle: middle))
    }

    /// Bounded Dijkstra from `s` over live nodes except `avoid`; results in dist/stamp.
    private func witness(from s: UInt32, avoiding avoid: UInt32, bound: UInt64, limit: Int) {
        generation &+= 1
        if generation == 0 { stamp = [UInt32](repeating: 0, count: n); generation = 1 }
        heap.removeAll()
        dist[Int(s)] = 0
        stamp[Int(s)] = generation
        heap.push(0, s)
        var settled = 0
        while let (d, x) = heap.pop() {
            if d > dist[Int(x)] { continue }
            settled += 1
            if settled > limit || UInt64(d) > bound { break }
            for e in outs[Int(x)] where !contracted[Int(e.other)] && e.other != avoid {
                let nd = UInt64(d) + UInt64(e.weight)
                if nd > bound { continue }
                let y = Int(e.other)
                if stamp[y] != generation || nd < UInt64(dist[y]) {
                    stamp[y] = generation
                    dist[y] = UInt32(nd)
                    heap.push(UInt32(nd), e.other)
                }
            }
        }
    }
}

/// Min-priority queue of nodes for the contraction order, ties by node id (deterministic): the
/// one heap with the priority and the node folded into its key.
struct PriorityQueue {
    private var heap = BinaryHeap<Int64>()
    var peekPriority: Int32? { heap.topKey.map { Int32(truncatingIfNeeded: $0 >> 32) } }
    mutating func push(_ p: Int32, _ v: UInt32) { heap.push(Int64(p) << 32 | Int64(v), v) }
    mutating func pop() -> (Int32, UInt32)? { heap.pop().map { (Int32(truncatingIfNeeded: $0.0 >> 32), $0.1) } }
}
