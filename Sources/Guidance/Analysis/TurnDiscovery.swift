/// The junction just before the road a car arrives on, for lanes painted before it that are
/// meant for the turns after it, and for sliproads (OSRM's findPreviousIntersection,
/// src/guidance/turn_discovery.cpp).
struct PreviousIntersection {
    /// The node the previous road starts at (OSRM's NODE_U).
    var node: UInt32
    /// The road from that node into the previous junction (it ends where `via` starts).
    var via: GuidanceGraph.Edge
    /// The previous junction seen from `via`, without merging and without turn types yet.
    var intersection: Intersection
}

extension AnalysisContext {
    /// OSRM's COMBINE_DISTANCE_CUTOFF: a turn further back than this, metres, does not shape
    /// the lanes here.
    static let laneCombineDistance = 30.0

    /// The junction before `via`, seen from the road into it:
    ///
    ///     U → previous → V → via → W (the intersection `x`, [0] the way back W → V)
    ///
    /// Found backwards: from W back over `x[0]` to V, on along the road nearest straight on (no
    /// more than 60° off) to U, whose way back is the candidate previous road; it must end at V,
    /// be drivable, and the junction at V seen from it must offer `via`. nil when `via` is longer
    /// than 30 m or any step fails. (Where OSRM stops because the candidate misses V it has
    /// already filled in node and edge, but not the lanes: the handler then decides NONE just as
    /// without a previous junction.)
    func findPreviousIntersection(via: GuidanceGraph.Edge, _ x: Intersection) -> PreviousIntersection? {
        guard !x.isEmpty else { return nil }
        let v = graph.source(via)
        if GeometryMath.length(graph.geometry(via)) > AnalysisContext.laneCombineDistance { return nil }
        // back the way the car came: the u-turn at W must lead to V
        let uturnAtW = x[0].edge
        guard graph.target(uturnAtW) == v else { return nil }
        // at V, looking back, along the straightmost road
        let reverseAtV = connectedRoads(from: uturnAtW, useClose: true)
        guard let s = reverseAtV.closestTurn(180), TurnAngle.fromStraight(reverseAtV[s].angle) <= 60 else { return nil }
        let straightmost = reverseAtV[s].edge
        let u = graph.target(straightmost)
        // at U, the way back is the road that led to V
        let reverseAtU = connectedRoads(from: straightmost, useClose: true)
        guard let back = reverseAtU.first else { return nil }
        let previousVia = back.edge
        guard graph.target(previousVia) == v, !graph.data(previousVia).reversed else { return nil }
        let previous = connectedRoads(from: previousVia, useClose: false)
        guard previous.contains(where: { $0.edge == via }) else { return nil }
        return PreviousIntersection(node: u, via: previousVia, intersection: previous)
    }
}
