import Geo
import MapData

/// Turn restrictions at nodes, in Tern's directed edges (what the import resolved): a turn from
/// one edge onto another is forbidden, or an only_* restriction allows only some ways on.
public struct NodeRestrictions: Sendable {
    /// Forbidden turns, from.raw << 32 | to.raw.
    public var forbidden: Set<UInt64>
    /// For an only_* restriction: the edge arriving at the via node → the only ways on.
    public var only: [UInt32: Set<UInt32>]
    public init(forbidden: Set<UInt64> = [], only: [UInt32: Set<UInt32>] = [:]) {
        self.forbidden = forbidden
        self.only = only
    }

    func forbids(_ from: DirectedEdge, _ to: DirectedEdge) -> Bool {
        if forbidden.contains(UInt64(from.raw) << 32 | UInt64(to.raw)) { return true }
        if let allowed = only[from.raw] { return !allowed.contains(to.raw) }
        return false
    }
}

/// The geometry of one road at a junction (OSRM's IntersectionEdgeGeometry).
struct RoadGeometry {
    var edge: GuidanceGraph.Edge
    var initialBearing: Double
    var perceivedBearing: Double
    var segmentLength: Double
    /// The twin of a road leaving: the same road arriving, bearings reversed (the direction a
    /// car comes in). A loop's two ends are each other's twins, so an edge id alone does not
    /// tell which end is meant.
    var arriving = false
}

/// What the import-time turn analysis works on: the compressed graph, the restrictions, and what
/// it has worked out so far about names and junction geometry (shared by every handler; not
/// kept after the import).
final class AnalysisContext {
    let graph: GuidanceGraph
    let restrictions: NodeRestrictions
    let leftHandDriving: Bool
    /// Lane texts: the map's, and those the lane handler makes up (a sliproad's lanes beside the
    /// main road's).
    let laneTexts: LaneTexts

    init(graph: GuidanceGraph, restrictions: NodeRestrictions, leftHandDriving: Bool) {
        self.graph = graph
        self.restrictions = restrictions
        self.leftHandDriving = leftHandDriving
        laneTexts = LaneTexts(names: graph.map.names)
    }

    // MARK: - Names

    private struct NamePair: Hashable { var a: UInt32, b: UInt32, c: UInt32, d: UInt32 }
    private var announceMemo: [NamePair: Bool] = [:]

    func roadName(_ e: GuidanceGraph.Edge) -> RoadName {
        let d = graph.data(e)
        return RoadName(name: graph.text(d.nameID), ref: graph.text(d.refID))
    }

    /// Whether driving from edge `a` onto edge `b` needs the new name said.
    func requiresAnnouncement(_ a: GuidanceGraph.Edge, _ b: GuidanceGraph.Edge) -> Bool {
        let x = graph.data(a), y = graph.data(b)
        return requiresAnnouncement(nameA: x.nameID, refA: x.refID, nameB: y.nameID, refB: y.refID)
    }

    func requiresAnnouncement(nameA: UInt32, refA: UInt32, nameB: UInt32, refB: UInt32) -> Bool {
        if nameA == nameB && refA == refB { return false }
        let key = NamePair(a: nameA, b: refA, c: nameB, d: refB)
        if let known = announceMemo[key] { return known }
        let v = NameRules.requiresAnnouncement(from: RoadName(name: graph.text(nameA), ref: graph.text(refA)),
                                               to: RoadName(name: graph.text(nameB), ref: graph.text(refB)))
        announceMemo[key] = v
        return v
    }

    /// Both named (or reffed) and one road either way (HaveIdenticalNames).
    func identicalNames(_ a: GuidanceGraph.Edge, _ b: GuidanceGraph.Edge) -> Bool {
        !isEmptyName(a) && !isEmptyName(b) && !requiresAnnouncement(a, b) && !requiresAnnouncement(b, a)
    }

    /// OSRM's EMPTY_NAMEID: neither a name nor a ref.
    func isEmptyName(_ e: GuidanceGraph.Edge) -> Bool { graph.data(e).nameID == 0 && graph.data(e).refID == 0 }

    /// The name text (not the ref) is empty.
    func hasNoName(_ e: GuidanceGraph.Edge) -> Bool { graph.data(e).nameID == 0 }

    /// Both names there and the same road (IntersectionHandler::isSameName).
    func isSameName(_ a: GuidanceGraph.Edge, _ b: GuidanceGraph.Edge) -> Bool {
        !hasNoName(a) && !hasNoName(b) && !requiresAnnouncement(a, b)
    }

    // MARK: - Geometry caches

    /// Per node, the roads' geometries without merging (close or representative coordinates),
    /// and with merging: cleared when they grow large (the analysis walks the nodes in order,
    /// and what it looks at lies near the node it is at).
    var closeGeometries: [UInt32: [RoadGeometry]] = [:]
    var representativeGeometries: [UInt32: [RoadGeometry]] = [:]
    var mergedGeometries: [UInt32: (roads: [RoadGeometry], merged: Set<GuidanceGraph.Edge>)] = [:]
    static let cacheLimit = 50_000

    func trimCaches() {
        if closeGeometries.count > AnalysisContext.cacheLimit { closeGeometries.removeAll(keepingCapacity: true) }
        if representativeGeometries.count > AnalysisContext.cacheLimit { representativeGeometries.removeAll(keepingCapacity: true) }
        if mergedGeometries.count > AnalysisContext.cacheLimit { mergedGeometries.removeAll(keepingCapacity: true) }
    }

    /// The most lanes of any road at a node (0 when none is tagged).
    func intersectionLanes(_ node: UInt32) -> UInt8 {
        graph.edges(at: node).reduce(0) { max($0, graph.data($1).classification.lanes) }
    }
}
