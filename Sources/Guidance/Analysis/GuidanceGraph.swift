import Geo
import MapData

/// The road network as OSRM's guidance sees it: its compressed node-based graph. A graph node of
/// Tern's map where two roads of the same kind merely join (a way split, a traffic signal) is
/// passed through, as OSRM's GraphCompressor does (src/extractor/graph_compressor.cpp), so that a
/// road's direction at a junction is measured along the whole road and not up to the signal a
/// few metres before it. Nodes keep Tern's ids; an edge is a chain of Tern edges between two
/// junctions, in both directions (the direction a car may not drive is kept, `reversed`, as
/// OSRM keeps it: a one-way street coming in is still a road of the junction).
public struct GuidanceGraph: Sendable {
    /// A directed edge of the compressed graph: 2·k drives the chain forward, 2·k+1 backward.
    public typealias Edge = Int

    /// What guidance reads of a directed edge (OSRM's NodeBasedEdgeData and its annotation).
    public struct EdgeData: Sendable, Equatable {
        public var nameID: UInt32
        public var refID: UInt32
        /// Cars may not drive it this way.
        public var reversed: Bool
        public var classification: RoadClassification
        public var roundabout: Bool
        public var circular: Bool
        /// Destination-only this way (OSRM's `restricted`).
        public var restricted: Bool
        public var startpoint: Bool
        public var ferry: Bool
        /// The turn lanes of the road as it reaches its end (a name id of the lane text), 0 for none.
        public var laneDescription: UInt32
        /// OSRM's classes: toll, motorway, ferry, restricted, tunnel.
        public var classes: UInt8

        public static let tollClass: UInt8 = 1, motorwayClass: UInt8 = 2, ferryClass: UInt8 = 4, restrictedClass: UInt8 = 8
        public static let tunnelClass: UInt8 = 16
    }

    public let map: RoadGraph
    /// Per directed edge: source and target node, data.
    public private(set) var sources: [UInt32] = []
    public private(set) var targets: [UInt32] = []
    public private(set) var data: [EdgeData] = []
    /// Per undirected edge k: its Tern edges in chain order (`chain[chainStart[k]..<chainStart[k+1]]`),
    /// each driven from the previous one's end.
    private var chainStart: [Int] = [0]
    private var chain: [DirectedEdge] = []
    /// Outgoing directed edges by node (both drivable and `reversed` ones).
    private var firstOut: [Int] = []
    private var outgoing: [Edge] = []
    /// Whether a node is a junction of the compressed graph (else it is passed through or unused).
    public private(set) var isJunction: [Bool] = []
    /// Tern edges drawn twice (two ways on the same nodes) stand for one road, as OSRM removes
    /// duplicate segments at extraction: the later copy's directed edges map to the first's.
    private var duplicateOf: [UInt32: DirectedEdge] = [:]

    /// The Tern directed edge the analysis knows a directed edge by (itself, or the first of the
    /// edges drawn on the same nodes, in the same direction).
    public func canonical(_ d: DirectedEdge) -> DirectedEdge {
        guard let first = duplicateOf[d.edge] else { return d }
        return d.reversed ? first.opposite : first
    }

    public var edgeCount: Int { sources.count }

    /// Builds the compressed graph. `viaNodes` are the via nodes of turn restrictions, which stay
    /// junctions (OSRM's "directed barriers"); `wayLanes` is the number of lanes per way index.
    public init(map g: RoadGraph, viaNodes: Set<UInt32>, wayLanes: [UInt8]) {
        map = g
        // undirected segments: chains of Tern directed edges from end a to end b
        struct Segment { var a: UInt32; var b: UInt32; var edges: [DirectedEdge]; var alive = true }
        var segments = [Segment]()
        segments.reserveCapacity(g.edges.count)
        var incident = [[Int]](repeating: [], count: g.nodes.count)
        duplicateOf = GuidanceGraph.duplicates(g)
        for (i, e) in g.edges.enumerated() {
            segments.append(Segment(a: e.from, b: e.to, edges: [DirectedEdge(edge: UInt32(i), reversed: false)],
                                    alive: duplicateOf[UInt32(i)] == nil))
            guard duplicateOf[UInt32(i)] == nil else { continue }
            incident[Int(e.from)].append(i)
            if e.to != e.from { incident[Int(e.to)].append(i) }
        }
        func lanes(_ e: EdgeRecord) -> UInt8 { Int(e.wayIndex) < wayLanes.count ? wayLanes[Int(e.wayIndex)] : 0 }
        /// The segment's Tern edge at end `n`, driven away from `n`.
        func leaving(_ s: Segment, at n: UInt32) -> DirectedEdge { s.a == n ? s.edges[0] : s.edges[s.edges.count - 1].opposite }
        func other(_ s: Segment, _ n: UInt32) -> UInt32 { s.a == n ? s.b : s.a }
        for v in 0..<g.nodes.count {
            let inc = incident[v]
            guard inc.count == 2, !viaNodes.contains(UInt32(v)), !g.nodeFlags[v].contains(.barrier) else { continue }
            let s1 = segments[inc[0]], s2 = segments[inc[1]]
            let node = UInt32(v)
            let u = other(s1, node), w = other(s2, node)
            // (no self-loops, and no second edge between two junctions: OSRM keeps such a node)
            guard u != node, w != node, u != w, !incident[Int(u)].contains(where: { other(segments[$0], u) == w }) else { continue }
            // e1 drives u → v, e2 drives v → w
            let e1 = leaving(s1, at: node).opposite, e2 = leaving(s2, at: node)
            guard GuidanceGraph.canCombine(g, e1, e2, lanes: lanes) else { continue }
            // the merged segment runs u → w
            var chainUW = s1.a == u ? s1.edges : s1.edges.reversed().map(\.opposite)
            chainUW += s2.a == node ? s2.edges : s2.edges.reversed().map(\.opposite)
            segments[inc[0]] = Segment(a: u, b: w, edges: chainUW)
            segments[inc[1]].alive = false
            incident[v] = []
            incident[Int(w)] = incident[Int(w)].map { $0 == inc[1] ? inc[0] : $0 }
        }
        isJunction = [Bool](repeating: false, count: g.nodes.count)
        var out = [[Edge]](repeating: [], count: g.nodes.count)
        for s in segments where s.alive {
            let k = sources.count / 2
            for (dir, from, to) in [(false, s.a, s.b), (true, s.b, s.a)] {
                let first = dir ? s.edges[s.edges.count - 1].opposite : s.edges[0]
                let last = dir ? s.edges[0].opposite : s.edges[s.edges.count - 1]
                sources.append(from)
                targets.append(to)
                data.append(GuidanceGraph.edgeData(g, first: first, last: last, chainEdges: dir ? s.edges.reversed().map(\.opposite) : s.edges,
                                                   lanes: lanes))
                out[Int(from)].append(2 * k + (dir ? 1 : 0))
            }
            chain += s.edges
            chainStart.append(chain.count)
            isJunction[Int(s.a)] = true
            isJunction[Int(s.b)] = true
        }
        firstOut.reserveCapacity(g.nodes.count + 1)
        firstOut.append(0)
        for v in 0..<g.nodes.count {
            // (OSRM's adjacency is ordered by target node; ties keep their order)
            outgoing += out[v].sorted { (targets[$0], $0) < (targets[$1], $1) }
            firstOut.append(outgoing.count)
        }
    }

    /// Edges with the same end nodes and the same shape as an earlier edge (either way round):
    /// the later edge → the earlier, oriented the way the later one is drawn.
    static func duplicates(_ g: RoadGraph) -> [UInt32: DirectedEdge] {
        func shape(_ e: EdgeRecord) -> ArraySlice<Coordinate> { g.geometry[Int(e.geometryStart)..<Int(e.geometryStart + e.geometryCount)] }
        var byEnds = [UInt64: [UInt32]]()
        var out = [UInt32: DirectedEdge]()
        for (i, e) in g.edges.enumerated() where e.from != e.to {
            let key = UInt64(min(e.from, e.to)) << 32 | UInt64(max(e.from, e.to))
            var found: DirectedEdge? = nil
            for j in byEnds[key] ?? [] {
                let f = g.edges[Int(j)]
                if f.from == e.from && shape(f).elementsEqual(shape(e)) {
                    found = DirectedEdge(edge: j, reversed: false)
                } else if f.from == e.to && shape(f).elementsEqual(shape(e).reversed()) {
                    found = DirectedEdge(edge: j, reversed: true)
                }
                if found != nil { break }
            }
            if let f = found { out[UInt32(i)] = f } else { byEnds[key, default: []].append(UInt32(i)) }
        }
        return out
    }

    /// Whether Tern edges e1 (u → v) and e2 (v → w) are one road through v (OSRM's
    /// CanCombineWith in both directions, plus the same name id, which holds destinations too).
    static func canCombine(_ g: RoadGraph, _ e1: DirectedEdge, _ e2: DirectedEdge, lanes: (EdgeRecord) -> UInt8) -> Bool {
        let a = g.edges[Int(e1.edge)], b = g.edges[Int(e2.edge)]
        guard a.nameID == b.nameID, a.refID == b.refID, a.roadClass == b.roadClass, lanes(a) == lanes(b) else { return false }
        guard g.destinations[e1] == g.destinations[e2], g.destinations[e1.opposite] == g.destinations[e2.opposite] else { return false }
        func oriented(_ r: EdgeRecord, _ d: DirectedEdge) -> [Bool] {
            let f = r.flags
            let fw = f.contains(.forward), bw = f.contains(.backward)
            let rf = f.contains(.restrictedForward), rb = f.contains(.restrictedBackward)
            return d.reversed ? [bw, fw, rb, rf] : [fw, bw, rf, rb]
        }
        guard oriented(a, e1) == oriented(b, e2) else { return false }
        let kept: EdgeFlags = [.roundabout, .circular, .ferry, .toll, .tunnel, .noStartpoint, .link]
        return a.flags.intersection(kept) == b.flags.intersection(kept)
    }

    static func edgeData(_ g: RoadGraph, first: DirectedEdge, last: DirectedEdge, chainEdges: [DirectedEdge],
                         lanes: (EdgeRecord) -> UInt8) -> EdgeData {
        let r = g.edges[Int(first.edge)]
        let f = r.flags
        let drivable = f.contains(first.reversed ? .backward : .forward)
        let restricted = f.contains(first.reversed ? .restrictedBackward : .restrictedForward)
        var classes: UInt8 = 0
        if f.contains(.toll) { classes |= EdgeData.tollClass }
        if r.roadClass == .motorway || r.roadClass == .motorwayLink { classes |= EdgeData.motorwayClass }
        if f.contains(.ferry) { classes |= EdgeData.ferryClass }
        if restricted { classes |= EdgeData.restrictedClass }
        if f.contains(.tunnel) { classes |= EdgeData.tunnelClass }
        // (the lanes nearest the end the road reaches: OSRM's selectLaneID keeps the later ones)
        var laneText: UInt32 = 0
        for d in chainEdges.reversed() {
            if let l = g.turnLanes[d] { laneText = l; break }
        }
        return EdgeData(nameID: r.nameID, refID: r.refID, reversed: !drivable,
                        classification: RoadClassification(r.roadClass, lanes: lanes(r)),
                        roundabout: f.contains(.roundabout), circular: f.contains(.circular), restricted: restricted,
                        startpoint: !f.contains(.noStartpoint), ferry: f.contains(.ferry), laneDescription: laneText, classes: classes)
    }

    // MARK: - Reading

    @inline(__always) public func reverse(_ e: Edge) -> Edge { e ^ 1 }
    @inline(__always) public func source(_ e: Edge) -> UInt32 { sources[e] }
    @inline(__always) public func target(_ e: Edge) -> UInt32 { targets[e] }
    @inline(__always) public func data(_ e: Edge) -> EdgeData { data[e] }

    /// The directed edges leaving `node`, ordered by target.
    public func edges(at node: UInt32) -> ArraySlice<Edge> { outgoing[firstOut[Int(node)]..<firstOut[Int(node) + 1]] }

    public func degree(_ node: UInt32) -> Int { firstOut[Int(node) + 1] - firstOut[Int(node)] }

    /// The edge from `u` to `v`, if there is one (OSRM's FindEdge).
    public func findEdge(from u: UInt32, to v: UInt32) -> Edge? { edges(at: u).first { targets[$0] == v } }

    /// The Tern edges of a directed edge, in driving order.
    public func ternEdges(_ e: Edge) -> [DirectedEdge] {
        let k = e / 2
        let part = chain[chainStart[k]..<chainStart[k + 1]]
        return e & 1 == 0 ? Array(part) : part.reversed().map(\.opposite)
    }

    /// The first and last Tern edge of a directed edge.
    public func firstTernEdge(_ e: Edge) -> DirectedEdge {
        let k = e / 2
        return e & 1 == 0 ? chain[chainStart[k]] : chain[chainStart[k + 1] - 1].opposite
    }

    public func lastTernEdge(_ e: Edge) -> DirectedEdge {
        let k = e / 2
        return e & 1 == 0 ? chain[chainStart[k + 1] - 1] : chain[chainStart[k]].opposite
    }

    public func coordinate(_ node: UInt32) -> Coordinate { map.nodes[Int(node)] }

    /// The shape of a directed edge from its source to its target, repeated points dropped.
    public func geometry(_ e: Edge) -> [Coordinate] {
        var pts = [coordinate(sources[e])]
        for d in ternEdges(e) {
            let r = map.edges[Int(d.edge)]
            let inner = map.geometry[Int(r.geometryStart)..<Int(r.geometryStart + r.geometryCount)]
            let end = map.nodes[Int(d.reversed ? r.from : r.to)]
            for p in (d.reversed ? Array(inner.reversed()) : Array(inner)) + [end] where p != pts[pts.count - 1] { pts.append(p) }
        }
        return pts
    }

    /// The road's name text and ref text.
    public func name(_ e: Edge) -> String { map.names[Int(data[e].nameID)] }
    public func ref(_ e: Edge) -> String { map.names[Int(data[e].refID)] }
    public func text(_ id: UInt32) -> String { map.names[Int(id)] }
}
