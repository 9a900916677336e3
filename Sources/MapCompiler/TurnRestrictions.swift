import Geo
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
    init?(_ r: OSMRelation) {
        let t = r.tags
        guard let type = t["type"], type == "restriction" || type == "restriction:motorcar" || type == "restriction:motor_vehicle"
        else { return nil }
        // the most specific restriction tag for cars wins; conditional ones are not applied
        guard let value = t["restriction:motorcar"] ?? t["restriction:motor_vehicle"] ?? t["restriction:vehicle"] ?? t["restriction"]
        else { return nil }
        if let except = t["except"] {
            let vehicles = except.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
            if vehicles.contains("motorcar") || vehicles.contains("motor_vehicle") { return nil }
        }
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
    }
}

import Foundation

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
}

extension ResolvedRestrictions {
    static func resolve(_ raw: [RawRestriction], graph g: RoadGraph, index: GraphBuilder.Index) -> ResolvedRestrictions {
        var out = ResolvedRestrictions()
        func endpoints(_ e: UInt32) -> (UInt32, UInt32) { (g.edges[Int(e)].from, g.edges[Int(e)].to) }
        func allowed(_ d: DirectedEdge) -> Bool {
            g.edges[Int(d.edge)].flags.contains(d.reversed ? .backward : .forward)
        }
        /// Directed edges of a way arriving at / leaving a node (whether or not cars may drive them).
        func incident(_ way: Int64, at node: UInt32) -> [DirectedEdge] {
            (index.wayEdges[way] ?? []).flatMap { e -> [DirectedEdge] in
                let (a, b) = endpoints(e)
                var r = [DirectedEdge]()
                if b == node { r.append(DirectedEdge(edge: e, reversed: false)) }
                if a == node { r.append(DirectedEdge(edge: e, reversed: true)) }
                return r
            }
        }
        func arriving(_ way: Int64, at node: UInt32) -> [DirectedEdge] { incident(way, at: node).filter(allowed) }
        func leaving(_ way: Int64, at node: UInt32) -> [DirectedEdge] { incident(way, at: node).map(\.opposite).filter(allowed) }

        for r in raw {
            if let viaOSM = r.viaNode {
                guard let via = index.nodes[viaOSM] else { out.skip("via node not on a car road"); continue }
                let froms = r.from.flatMap { arriving($0, at: via) }
                let tos = r.to.flatMap { leaving($0, at: via) }
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
                guard let path = viaPath(r, g: g, index: index, arriving: arriving, leaving: leaving) else { out.skip("via ways do not chain"); continue }
                out.paths.append(path)
                out.applied += 1
            }
        }
        return out
    }

    /// The directed edges of the via ways between the from way and the to way, in driving order.
    private static func viaPath(_ r: RawRestriction, g: RoadGraph, index: GraphBuilder.Index,
                                arriving: (Int64, UInt32) -> [DirectedEdge], leaving: (Int64, UInt32) -> [DirectedEdge]) -> Path? {
        guard r.from.count == 1, r.to.count == 1 else { return nil }
        let viaEdges = Set(r.viaWays.flatMap { index.wayEdges[$0] ?? [] })
        guard !viaEdges.isEmpty else { return nil }
        // the via chain starts at a node the from way and a via way share
        let fromEdges = index.wayEdges[r.from[0]] ?? []
        var starts = [(DirectedEdge, UInt32)]()  // (from edge arriving, node)
        for e in fromEdges {
            for node in [g.edges[Int(e)].from, g.edges[Int(e)].to] {
                let touchesVia = viaEdges.contains { g.edges[Int($0)].from == node || g.edges[Int($0)].to == node }
                if touchesVia { for d in arriving(r.from[0], node) { starts.append((d, node)) } }
            }
        }
        for (fromEdge, start) in starts {
            // depth-first along via edges without revisiting, until a node where the to way leaves
            var stack: [(UInt32, [DirectedEdge])] = [(start, [])]
            var seen = Set<UInt32>([start])
            while let (node, chain) = stack.popLast() {
                if !chain.isEmpty {
                    let tos = leaving(r.to[0], node).filter { !chain.contains($0) && $0.edge != chain.last!.edge }
                    if !tos.isEmpty { return Path(kind: r.kind, from: fromEdge, via: chain, to: Set(tos)) }
                }
                for e in viaEdges {
                    let rec = g.edges[Int(e)]
                    for d in [DirectedEdge(edge: e, reversed: false), DirectedEdge(edge: e, reversed: true)] {
                        let src = d.reversed ? rec.to : rec.from, dst = d.reversed ? rec.from : rec.to
                        guard src == node, rec.flags.contains(d.reversed ? .backward : .forward), !seen.contains(dst) else { continue }
                        seen.insert(dst)
                        stack.append((dst, chain + [d]))
                    }
                }
            }
        }
        return nil
    }
}
