import Geo
import Guidance
import MapData

/// A turn restriction as tagged in OSM (type=restriction relations).
struct RawRestriction: Sendable {
    enum Kind: Sendable { case no, only }
    var id: Int64
    var kind: Kind
    var from: [Int64]
    var viaNode: Int64?
    var viaWays: [Int64]
    var to: [Int64]

    /// Reads a relation; nil when it is not a restriction that applies to cars (or is malformed).
    /// A conditional one applies when `options` give a moment inside its hours.
    init?(_ r: OSMRelation, options: ProfileOptions = ProfileOptions()) {
        let t = r.tags
        guard let type = t["type"], type == "restriction" || type == "restriction:motorcar" || type == "restriction:motor_vehicle"
        else { return nil }
        // the most specific restriction tag for cars wins
        var value = t["restriction:motorcar"] ?? t["restriction:motor_vehicle"] ?? t["restriction:vehicle"] ?? t["restriction"]
        if value == nil, let at = options.conditionalRestrictionsAt,
           let conditional = t["restriction:motorcar:conditional"] ?? t["restriction:conditional"] {
            // "no_left_turn @ (Mo-Fr 07:00-10:30)": applies only inside the hours
            let parts = conditional.split(separator: "@", maxSplits: 1).map { $0.trimmed() }
            if parts.count == 2 {
                let hours = parts[1].trimmed(of: "() ")
                if let oh = OpeningHours(hours), oh.contains(localSeconds: at + options.utcOffsetSeconds) { value = parts[0] }
            }
        }
        guard let value else { return nil }
        if let except = t["except"] {
            let vehicles = except.split(separator: ";").map { $0.trimmed() }
            if vehicles.contains("motorcar") || vehicles.contains("motor_vehicle") { return nil }
        }
        if value.hasSuffix("_on_red") { return nil }  // a right turn on red is not a turn ban
        if value.hasPrefix("no_") { kind = .no } else if value.hasPrefix("only_") { kind = .only } else { return nil }
        id = r.id
        from = []; to = []; viaWays = []
        for m in r.members {
            switch (m.role, m.type) {
            case ("from", "w"): from.append(m.ref)
            case ("to", "w"): to.append(m.ref)
            case ("via", "n"): viaNode = m.ref
            case ("via", "w"): viaWays.append(m.ref)
            default: break
            }
        }
        guard !from.isEmpty, !to.isEmpty, (viaNode != nil) != !viaWays.isEmpty else { return nil }
        // several from ways only make sense for no_entry, several to ways only for no_exit
        if from.count > 1 && value != "no_entry" { return nil }
        if to.count > 1 && value != "no_exit" { return nil }
    }
}

import FoundationEssentials
import Glibc
import Platform

/// Restrictions in graph terms: turns forbidden at a node, or sequences of directed edges.
struct ResolvedRestrictions: Sendable {
    /// Forbidden turns (from.raw << 32 | to.raw) at a via node.
    var forbiddenTurns = Set<UInt64>()
    /// For an only_ restriction: the directed edge arriving at the via node → the only ways on.
    var onlyTurns: [UInt32: Set<UInt32>] = [:]
    /// Via-way restrictions: from, the via edges in driving order, to.
    struct Path: Sendable {
        var kind: RawRestriction.Kind
        var from: DirectedEdge
        var via: [DirectedEdge]
        var to: Set<DirectedEdge>
    }
    var paths: [Path] = []
    var applied = 0
    var skipped = 0
    /// Why restrictions were not applied (for the import summary).
    var skipReasons: [String: Int] = [:]
    mutating func skip(_ why: String) { skipped += 1; skipReasons[why, default: 0] += 1 }

    /// The restrictions at nodes, for guidance (which turns are no way on).
    var nodeRestrictions: NodeRestrictions { NodeRestrictions(forbidden: forbiddenTurns, only: onlyTurns) }

    /// The nodes restrictions turn at: guidance keeps them as junctions (OSRM's directed barriers).
    func viaNodes(_ g: RoadGraph) -> Set<UInt32> {
        func target(_ d: DirectedEdge) -> UInt32 { let e = g.edges[Int(d.edge)]; return d.reversed ? e.from : e.to }
        var out = Set<UInt32>()
        for t in forbiddenTurns { out.insert(target(DirectedEdge(raw: UInt32(t >> 32)))) }
        for from in onlyTurns.keys { out.insert(target(DirectedEdge(raw: from))) }
        for p in paths {
            out.insert(target(p.from))
            if let last = p.via.last { out.insert(target(last)) }
        }
        return out
    }
}

extension ResolvedRestrictions {
    static func resolve(_ raw: [RawRestriction], graph g: RoadGraph, index: GraphBuilder.Index) -> ResolvedRestrictions {
        var out = ResolvedRestrictions()
        let ways = WayEdges(graph: g, index: index)

        for r in raw {
            if let viaOSM = r.viaNode {
                guard let via = index.nodes[viaOSM] else { out.skip("via node not on a car road"); continue }
                // the from and to ways must end at the via node: one passing through it is ambiguous
                func endsAt(_ way: Int64) -> Bool {
                    guard let edges = index.wayEdges[way], let first = edges.first, let last = edges.last else { return true }
                    return g.edges[Int(first)].from == via || g.edges[Int(last)].to == via
                }
                guard (r.from + r.to).allSatisfy(endsAt) else { out.skip("via node in the middle of a from or to way"); continue }
                let froms = r.from.flatMap { ways.arriving($0, at: via) }
                let tos = r.to.flatMap { ways.leaving($0, at: via) }
                if froms.isEmpty { out.skip(r.from.allSatisfy { index.wayEdges[$0] == nil } ? "from way not a car road" : "from way cannot reach the via node"); continue }
                if tos.isEmpty { out.skip(r.to.allSatisfy { index.wayEdges[$0] == nil } ? "to way not a car road" : "to way cannot leave the via node"); continue }
                for f in froms {
                    switch r.kind {
                    case .no: for t in tos { out.forbiddenTurns.insert(UInt64(f.raw) << 32 | UInt64(t.raw)) }
                    case .only: out.onlyTurns[f.raw, default: []].formUnion(tos.map(\.raw))
                    }
                }
                out.applied += 1
            } else {
                // via ways: walk from the end of the from way through the via ways to the to way
                guard let path = viaPath(r, g: g, index: index, ways: ways) else { out.skip("via ways do not chain"); continue }
                out.paths.append(path)
                out.applied += 1
            }
        }
        return out
    }

    /// The directed edges of a via-way restriction, in driving order. The ways must chain end to
    /// end in the order given (from, via…, to); a way joined in its middle makes the restriction
    /// ambiguous, and it is not applied (as OSRM does).
    private static func viaPath(_ r: RawRestriction, g: RoadGraph, index: GraphBuilder.Index,
                                ways: WayEdges) -> Path? {
        guard r.from.count == 1, r.to.count == 1 else { return nil }
        func shared(_ a: (UInt32, UInt32), _ b: (UInt32, UInt32)) -> UInt32? {
            let common = [a.0, a.1].filter { $0 == b.0 || $0 == b.1 }
            return Set(common).count == 1 ? common[0] : nil
        }
        guard let fromEnds = ways.ends(r.from[0]), let toEnds = ways.ends(r.to[0]) else { return nil }
        let viaEnds = r.viaWays.map(ways.ends)
        guard viaEnds.allSatisfy({ $0 != nil }) else { return nil }
        guard var node = shared(fromEnds, viaEnds[0]!) else { return nil }
        let entry = node
        var via = [DirectedEdge]()
        for (i, way) in r.viaWays.enumerated() {
            let (first, last) = viaEnds[i]!
            guard node == first || node == last else { return nil }
            let edges = index.wayEdges[way]!
            let forward = node == first
            for e in forward ? edges : edges.reversed() {
                let d = DirectedEdge(edge: e, reversed: !forward)
                guard g.edges[Int(e)].flags.contains(forward ? .forward : .backward) else { return nil }  // not drivable: harmless
                via.append(d)
            }
            node = forward ? last : first
            let next = i + 1 < r.viaWays.count ? viaEnds[i + 1]! : toEnds
            guard node == next.0 || node == next.1 else { return nil }
        }
        guard let from = ways.arriving(r.from[0], at: entry).first else { return nil }
        let tos = ways.leaving(r.to[0], at: node)
        guard !tos.isEmpty else { return nil }
        return Path(kind: r.kind, from: from, via: via, to: Set(tos))
    }
}

/// Where the OSM ways named by a relation (a turn restriction, a maneuver override) lie in the
/// built graph.
struct WayEdges {
    let graph: RoadGraph
    let index: GraphBuilder.Index

    /// Whether a car may drive a directed edge.
    func allowed(_ d: DirectedEdge) -> Bool {
        graph.edges[Int(d.edge)].flags.contains(d.reversed ? .backward : .forward)
    }

    /// The way's directed edges a car arrives at `node` by.
    func arriving(_ way: Int64, at node: UInt32) -> [DirectedEdge] { incident(way, at: node).filter(allowed) }

    /// The way's directed edges a car leaves `node` by.
    func leaving(_ way: Int64, at node: UInt32) -> [DirectedEdge] { incident(way, at: node).map(\.opposite).filter(allowed) }

    /// The way's directed edges arriving at `node`, whether or not cars may drive them.
    private func incident(_ way: Int64, at node: UInt32) -> [DirectedEdge] {
        (index.wayEdges[way] ?? []).flatMap { e -> [DirectedEdge] in
            let rec = graph.edges[Int(e)]
            var r = [DirectedEdge]()
            if rec.to == node { r.append(DirectedEdge(edge: e, reversed: false)) }
            if rec.from == node { r.append(DirectedEdge(edge: e, reversed: true)) }
            return r
        }
    }

    /// The graph nodes where the way starts and ends.
    func ends(_ way: Int64) -> (UInt32, UInt32)? {
        guard let e = index.wayEdges[way], let f = e.first, let l = e.last else { return nil }
        return (graph.edges[Int(f)].from, graph.edges[Int(l)].to)
    }
}
