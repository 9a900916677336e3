import FoundationEssentials
import Glibc
import MapData

/// Decides at import, once, what is said at every turn of the map (OSRM's annotateTurns,
/// src/guidance/guidance_processing.cpp), and fills the map's turn tables: a route then only
/// reads records and post-processes them, as OSRM's engine does.
public enum GuidanceAnnotator {
    public struct Summary: Sendable {
        public var junctions = 0
        public var turns = 0
        public var turnsWithLanes = 0
        public var segregatedEdges = 0
    }

    /// Fills `g.turnTables` (and appends the lane texts it makes up to `g.names`).
    @discardableResult
    public static func annotate(_ g: inout RoadGraph, restrictions: NodeRestrictions, viaNodes: Set<UInt32>,
                                leftHandDriving: Bool = false) -> Summary {
        let graph = GuidanceGraph(map: g, viaNodes: viaNodes, wayLanes: g.wayLanes)
        let ctx = AnalysisContext(graph: graph, restrictions: restrictions, leftHandDriving: leftHandDriving)
        var summary = Summary()
        let (outIndex, out, _, _) = MapWriter.adjacency(g)
        let directed = g.edges.count * 2
        var perEdge = [[UInt32]](repeating: [], count: directed)
        var entry = [UInt32](repeating: 0, count: directed)
        var laneTexts = [DirectedEdge: UInt32]()
        var bearingLists = [[UInt16]](repeating: [], count: g.nodes.count)
        // each Tern directed edge, by the one the analysis knows it by (copies of a road drawn twice)
        var arriving = [[DirectedEdge]](repeating: [], count: directed)
        for d in 0..<directed {
            let e = DirectedEdge(raw: UInt32(d))
            arriving[Int(graph.canonical(e).raw)].append(e)
        }
        for v in 0..<g.nodes.count where graph.isJunction[v] {
            let node = UInt32(v)
            let here = graph.edges(at: node)
            summary.junctions += 1
            for e in here {
                let incoming = graph.reverse(e)
                guard !graph.data(incoming).reversed else { continue }
                var x = ctx.assignTurnTypes(via: incoming, ctx.intersectionView(from: incoming))
                x = ctx.assignTurnLanes(via: incoming, x)
                let (mask, bearings) = classify(x)
                bearingLists[v] = bearings
                let inTern = graph.lastTernEdge(incoming)
                // (a road drawn twice: every copy arriving here gets the same records)
                let copies = arriving[Int(inTern.raw)]
                for d in copies { entry[Int(d.raw)] = mask }
                let pre = TurnRecord.bearingByte(x.first?.perceivedBearing ?? 0)
                var records = [UInt32]()
                for k in Int(outIndex[v])..<Int(outIndex[v + 1]) {
                    let o = graph.canonical(DirectedEdge(raw: out[k]))
                    guard let nb = here.first(where: { graph.firstTernEdge($0) == o }) else {
                        records.append(TurnRecord(instruction: TurnInstruction.invalid.packed, lanes: 0, preBearing: pre, postBearing: 0).packed)
                        continue
                    }
                    if let road = x.first(where: { $0.edge == nb }) {
                        var lanes: UInt8 = 0
                        if let t = road.lanes, t.lanesInTurn > 0 {
                            lanes = min(t.lanesInTurn, 15) << 4 | min(t.firstLaneFromTheRight, 15)
                            for d in copies { laneTexts[d] = t.description }
                            summary.turnsWithLanes += 1
                        }
                        records.append(TurnRecord(instruction: road.instruction.packed, lanes: lanes, preBearing: pre,
                                                  postBearing: TurnRecord.bearingByte(road.perceivedBearing)).packed)
                    } else {
                        // a merged carriageway or a road hidden behind the way back: no instruction
                        let geom = ctx.geometry(nb, in: ctx.intersectionGeometries(node).roads)
                        records.append(TurnRecord(instruction: TurnInstruction.invalid.packed, lanes: 0, preBearing: pre,
                                                  postBearing: TurnRecord.bearingByte(geom?.perceivedBearing ?? 0)).packed)
                    }
                    summary.turns += 1
                }
                for d in copies { perEdge[Int(d.raw)] = records }
            }
            if v % 256 == 0 { ctx.trimCaches() }
        }
        var t = TurnTables()
        t.index.reserveCapacity(directed + 1)
        for d in 0..<directed {
            t.index.append(UInt32(t.records.count))
            t.records += perEdge[d]
        }
        t.index.append(UInt32(t.records.count))
        t.entry = entry
        t.laneTexts = laneTexts
        for list in bearingLists {
            t.bearingIndex.append(UInt32(t.bearings.count))
            t.bearings += list
        }
        t.bearingIndex.append(UInt32(t.bearings.count))
        t.segregated = [UInt8](repeating: 0, count: (directed + 7) / 8)
        for e in ctx.segregatedEdges() {
            for d in graph.ternEdges(e) { t.segregated[Int(d.raw >> 3)] |= 1 << (d.raw & 7) }
            summary.segregatedEdges += 1
        }
        g.turnTables = t
        // (the lane texts made up take the ids after the map's names, as LaneTexts gave them)
        g.names += ctx.laneTexts.extra
        return summary
    }

    /// OSRM's classifyIntersection: the roads by bearing, in 15° bins where no two share one
    /// (then the first bin first), which of them the car may take, and their bearings.
    static func classify(_ x: Intersection) -> (mask: UInt32, bearings: [UInt16]) {
        guard !x.isEmpty else { return (0, []) }
        var roads = x.sorted { $0.perceivedBearing < $1.perceivedBearing }
        func bin(_ b: Double) -> Int {
            var v = b + 7.5
            if v >= 360 { v -= 360 }
            return Int(v / 15)
        }
        var discrete = true
        if roads.count > 1 {
            for i in roads.indices {
                let previous = roads[(i + roads.count - 1) % roads.count]
                if bin(previous.perceivedBearing.rounded()) == bin(roads[i].perceivedBearing.rounded()) { discrete = false }
            }
        }
        if discrete, roads.count > 1, bin(roads[roads.count - 1].perceivedBearing) < bin(roads[0].perceivedBearing) {
            roads.insert(roads.removeLast(), at: 0)
        }
        var mask: UInt32 = 0
        var bearings = [UInt16]()
        for (i, r) in roads.enumerated() where i < 32 {
            if r.entryAllowed { mask |= 1 << UInt32(i) }
            let b = discrete ? Double(bin(r.perceivedBearing.rounded()) * 15) : r.perceivedBearing.rounded()
            bearings.append(UInt16(Int(b) % 360))
        }
        return (mask, bearings)
    }
}
