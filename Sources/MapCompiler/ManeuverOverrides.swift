import MapData

/// A maneuver override as tagged in OSM: a relation with a `maneuver` tag (OSRM's
/// `type=maneuver`), members `from` (a way), `via` (exactly one node, where the maneuver is
/// said, and any ways between from and to, in order) and `to` (a way).
struct RawManeuverOverride: Sendable {
    var id: Int64
    var kind: ManeuverOverride.Kind
    var direction: ManeuverOverride.Direction
    var from: Int64
    var viaNode: Int64
    var viaWays: [Int64]
    var to: Int64

    /// Whether a relation is meant as a maneuver override at all (it has a maneuver tag).
    static func isOverride(_ r: OSMRelation) -> Bool { r.tags["maneuver"] != nil || r.tags["manoeuvre"] != nil }

    /// Reads a relation; nil when it is no override or a malformed one (the reason in `why`).
    init?(_ r: OSMRelation, why: inout String) {
        guard let value = r.tags["manoeuvre"] ?? r.tags["maneuver"] else { why = "no maneuver tag"; return nil }
        guard let (k, d) = ManeuverOverride.parse(maneuver: value, direction: r.tags["direction"]) else {
            why = "unknown maneuver or direction"; return nil
        }
        var froms = [Int64](), tos = [Int64](), viaNodes = [Int64](), viaWays = [Int64]()
        for m in r.members {
            switch (m.role, m.type) {
            case ("from", "w"): froms.append(m.ref)
            case ("to", "w"): tos.append(m.ref)
            case ("via", "n"): viaNodes.append(m.ref)
            case ("via", "w"): viaWays.append(m.ref)
            default: break
            }
        }
        guard froms.count == 1 else { why = "not one from way"; return nil }
        guard tos.count == 1 else { why = "not one to way"; return nil }
        guard viaNodes.count == 1 else { why = "not one via node"; return nil }
        id = r.id; kind = k; direction = d
        from = froms[0]; to = tos[0]; viaNode = viaNodes[0]
        self.viaWays = viaWays
    }
}

extension ManeuverOverride {
    /// Overrides in graph terms. One whose ways are not car roads, do not chain end to end, or
    /// whose via node is not a junction of car roads (nothing is said there to override) is left
    /// out, with its reason counted in `skipped`.
    static func resolve(_ raw: [RawManeuverOverride], graph g: RoadGraph, index: GraphBuilder.Index,
                        skipped: inout [String: Int]) -> [ManeuverOverride] {
        guard !raw.isEmpty else { return [] }
        var degree = [UInt8](repeating: 0, count: g.nodes.count)
        for e in g.edges where e.flags.contains(.forward) || e.flags.contains(.backward) {
            degree[Int(e.from)] = degree[Int(e.from)] &+ 1
            if e.to != e.from { degree[Int(e.to)] = degree[Int(e.to)] &+ 1 }
        }
        let ways = WayEdges(graph: g, index: index)
        var out = [ManeuverOverride]()
        for r in raw {
            guard let via = index.nodes[r.viaNode] else { skipped["via node not on a car road", default: 0] += 1; continue }
            guard degree[Int(via)] >= 3 else { skipped["via node not a junction of car roads", default: 0] += 1; continue }
            guard index.wayEdges[r.from] != nil, index.wayEdges[r.to] != nil, r.viaWays.allSatisfy({ index.wayEdges[$0] != nil }) else {
                skipped["a way not a car road", default: 0] += 1; continue
            }
            // walk the via ways end to end from the from way to the to way
            var paths: [[DirectedEdge]] = []
            if r.viaWays.isEmpty {
                for f in ways.arriving(r.from, at: via) { for t in ways.leaving(r.to, at: via) where t.edge != f.edge { paths.append([f, t]) } }
            } else if let first = ways.ends(r.viaWays[0]) {
                for entry in Set([first.0, first.1]) where !ways.arriving(r.from, at: entry).isEmpty {
                    var node = entry
                    var middle = [DirectedEdge]()
                    var ok = true
                    for way in r.viaWays {
                        guard let (a, b) = ways.ends(way), node == a || node == b, let edges = index.wayEdges[way] else { ok = false; break }
                        let forward = node == a
                        for e in forward ? edges : edges.reversed() { middle.append(DirectedEdge(edge: e, reversed: !forward)) }
                        node = forward ? b : a
                    }
                    guard ok, middle.allSatisfy(ways.allowed) else { continue }
                    for f in ways.arriving(r.from, at: entry) where f.edge != middle[0].edge {
                        for t in ways.leaving(r.to, at: node) where t.edge != middle[middle.count - 1].edge { paths.append([f] + middle + [t]) }
                    }
                }
            }
            // the via node must be a junction on the path (where one of its edges leaves from)
            paths = paths.filter { p in
                p.dropFirst().contains { d in (d.reversed ? g.edges[Int(d.edge)].to : g.edges[Int(d.edge)].from) == via }
            }
            guard !paths.isEmpty else { skipped["ways do not chain through the via node", default: 0] += 1; continue }
            // (a path is stored with a 16-bit length; no real override comes near it)
            guard paths.allSatisfy({ $0.count <= 1000 }) else { skipped["path longer than 1000 edges", default: 0] += 1; continue }
            for p in paths { out.append(ManeuverOverride(kind: r.kind, direction: r.direction, viaNode: via, path: p)) }
        }
        return out
    }
}
