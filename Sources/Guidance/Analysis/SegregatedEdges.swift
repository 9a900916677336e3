import Geo

/// The short pieces of road inside a divided road's junction (OSRM's findSegregatedNodes,
/// src/guidance/segregated_intersection_classification.cpp): entered from a one-way main road by
/// a real turn and left onto a one-way main road by a turn to the same side. The engine folds the
/// turn onto such a piece into the turn off it, so that a driver crossing a dual carriageway
/// hears one instruction.
extension AnalysisContext {
    static let internalLengthMax = 32.0

    func segregatedEdges() -> Set<GuidanceGraph.Edge> {
        var out = Set<GuidanceGraph.Edge>()
        for e in 0..<graph.edgeCount where !graph.data(e).reversed && isSegregated(e) { out.insert(e) }
        return out
    }

    private func isSegregated(_ e: GuidanceGraph.Edge) -> Bool {
        let d = graph.data(e)
        if d.roundabout || d.circular { return false }
        let length = GeometryMath.length(graph.geometry(e))
        if length > AnalysisContext.internalLengthMax { return false }
        let u = graph.source(e), v = graph.target(e)
        func internalStraight(_ a: Double) -> Bool { a > 150 && a < 210 }
        func twoWay(_ x: GuidanceGraph.Edge) -> Bool { !graph.data(x).reversed && !graph.data(graph.reverse(x)).reversed }
        func ignored(_ x: GuidanceGraph.Edge) -> Bool {
            let c = classification(x)
            return twoWay(x) || c.isLink || c.priority.rawValue > RoadClassification.Priority.sideResidential.rawValue
        }
        /// One edge per neighbour, not the one across the piece itself.
        func neighbours(_ n: UInt32, except other: UInt32) -> [GuidanceGraph.Edge] {
            var seen = Set<UInt32>()
            return graph.edges(at: n).filter { graph.target($0) != other && seen.insert(graph.target($0)).inserted }
        }
        func closePoint(_ x: GuidanceGraph.Edge) -> Coordinate { CoordinateExtractor.closeToTurn(graph.geometry(x)) }
        var incoming = Set<TurnInstruction.Direction>(), outgoing = Set<TurnInstruction.Direction>()
        var onewayIn = false, onewayOut = false
        for out in neighbours(u, except: v) {
            let into = graph.reverse(out)  // w → u
            guard !graph.data(into).reversed else { continue }
            let a = GeometryMath.computeAngle(closePoint(out), graph.coordinate(u), closePoint(e))
            incoming.insert(TurnAngle.direction(a))
            if ignored(into) || internalStraight(a) { continue }
            onewayIn = true
        }
        if !onewayIn { return false }
        for next in neighbours(v, except: u) where !graph.data(next).reversed {
            let a = GeometryMath.computeAngle(closePoint(graph.reverse(e)), graph.coordinate(v), closePoint(next))
            outgoing.insert(TurnAngle.direction(a))
            if ignored(next) || internalStraight(a) { continue }
            onewayOut = true
        }
        if !onewayOut { return false }
        let left: Set<TurnInstruction.Direction> = [.left, .sharpLeft], right: Set<TurnInstruction.Direction> = [.right, .sharpRight]
        if !incoming.isDisjoint(with: left) && !outgoing.isDisjoint(with: right) { return false }
        if !incoming.isDisjoint(with: right) && !outgoing.isDisjoint(with: left) { return false }
        if !outgoing.isDisjoint(with: left) && !outgoing.isDisjoint(with: right) { return false }
        return true
    }
}
