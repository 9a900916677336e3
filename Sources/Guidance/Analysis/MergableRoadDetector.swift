import Geo

/// Whether two neighbouring roads at a junction are the two one-way carriageways of one road,
/// drawn apart round a grass strip or a pedestrian island, so that the driver sees one road
/// (OSRM's MergableRoadDetector, src/extractor/intersection/mergable_road_detector.cpp).
extension AnalysisContext {
    /// Two roads this far apart in bearing are never one road.
    static let mergableAngleDifference = 95.0
    /// How far the carriageways are followed to see whether they run side by side, metres.
    static let distanceToExtract = 120.0

    /// Whether `lhs` and its clockwise neighbour `rhs` at `node` can be merged (CanMergeRoad).
    func canMergeRoad(_ node: UInt32, _ lhs: RoadGeometry, _ rhs: RoadGeometry) -> Bool {
        guard TurnAngle.deviation(lhs.perceivedBearing, rhs.perceivedBearing) <= AnalysisContext.mergableAngleDifference else { return false }
        let l = graph.data(lhs.edge), r = graph.data(rhs.edge)
        // one carriageway in, the other out
        guard l.reversed != r.reversed, edgeDataSupportsMerge(lhs.edge, rhs.edge) else { return false }
        guard graph.target(lhs.edge) != node, graph.target(rhs.edge) != node else { return false }
        if isTrafficLoop(node, lhs.edge) || isTrafficLoop(node, rhs.edge) { return false }
        // (before the link check: the connections round an island can look like links)
        if isTrafficIsland(node, lhs.edge, rhs.edge) { return true }
        if isLinkRoad(node, lhs.edge) || isLinkRoad(node, rhs.edge) { return false }
        if isNarrowTriangle(node, lhs, rhs) { return true }
        return haveSameDirection(node, lhs, rhs) && !isCircularShape(node, lhs, rhs)
    }

    /// Far apart in bearing, or of other names (IsDistinctFrom).
    func isDistinct(_ a: RoadGeometry, _ b: RoadGeometry) -> Bool {
        if TurnAngle.deviation(a.perceivedBearing, b.perceivedBearing) > AnalysisContext.mergableAngleDifference { return true }
        return !identicalNames(a.edge, b.edge)
    }

    /// Not rings, the same mode, one name, one class (EdgeDataSupportsMerge).
    func edgeDataSupportsMerge(_ a: GuidanceGraph.Edge, _ b: GuidanceGraph.Edge) -> Bool {
        let x = graph.data(a), y = graph.data(b)
        if x.roundabout || y.roundabout { return false }
        if x.ferry != y.ferry { return false }
        guard identicalNames(a, b) else { return false }
        return x.classification.sameClass(y.classification)
    }

    /// The road comes back to the junction over nodes of two roads only (a turning loop).
    func isTrafficLoop(_ node: UInt32, _ e: GuidanceGraph.Edge) -> Bool {
        graph.target(skipDegreeTwoNodes(from: node, via: e).edge) == node
    }

    /// The road splits and joins again at once round a small island.
    func isTrafficIsland(_ node: UInt32, _ l: GuidanceGraph.Edge, _ r: GuidanceGraph.Edge) -> Bool {
        let cl = graph.target(skipDegreeTwoNodes(from: node, via: l).edge)
        let cr = graph.target(skipDegreeTwoNodes(from: node, via: r).edge)
        guard cl == cr, cl != node else { return false }
        func threeOfOneName(_ x: UInt32) -> Bool {
            let edges = graph.edges(at: x)
            guard edges.count == 3, let first = edges.first else { return false }
            return edges.allSatisfy { e in
                if hasNoName(first) && hasNoName(e) { return false }
                return !requiresAnnouncement(first, e) || !requiresAnnouncement(e, first)
            }
        }
        let into = threeOfOneName(node), out = threeOfOneName(cl)
        guard into || out else { return false }
        let d = GeometryMath.distance(graph.coordinate(node), graph.coordinate(cl))
        return d < (into && out ? 30 : 15)
    }

    /// The road is a link ending at a road that goes on both ways past it (it must not be
    /// merged with the road it leaves): IsLinkRoad.
    func isLinkRoad(_ node: UInt32, _ e: GuidanceGraph.Edge) -> Bool {
        let p = skipDegreeTwoNodes(from: node, via: e)
        let x = connectedRoads(from: p.edge, useClose: false)
        guard let next = x.closestTurn(180, ignoring: { r in
            hasNoName(e) || hasNoName(r.edge) || requiresAnnouncement(e, r.edge) || requiresAnnouncement(r.edge, e)
        }) else { return false }
        guard let opp = x.closestTurn(restrictAngle(x[next].angle + 180)) else { return false }
        if graph.target(x[opp].edge) == p.node { return false }
        if TurnAngle.deviation(TurnAngle.fromStraight(x[next].angle), TurnAngle.deviation(x[opp].angle, 0)) < 25 { return false }
        return TurnAngle.deviation(x[opp].angle, x[next].angle) >= 155
            && graph.data(x[next].edge).reversed == graph.data(x[opp].edge).reversed
            && edgeDataSupportsMerge(x[next].edge, x[opp].edge)
    }

    /// The road splits just before a junction, the two carriageways and a connector forming a
    /// small triangle round an island (IsNarrowTriangle).
    func isNarrowTriangle(_ node: UInt32, _ lhs: RoadGeometry, _ rhs: RoadGeometry) -> Bool {
        let name = nameKey(lhs.edge)
        let select = { (_: UInt32, _: GuidanceGraph.Edge, v: Intersection) -> GuidanceGraph.Edge? in
            self.selectStraightmostByName(v, desired: name, initialBearing: lhs.perceivedBearing, requiresEntry: false, stopOnAmbiguous: false)
        }
        var left = findIntersection(from: node, via: lhs.edge, hopLimit: 5, select: select)
        if let c = left.view.closestTurn(90), TurnAngle.deviation(left.view[c].angle, 90) > 40, let s = left.view.closestTurn(180) {
            left = findIntersection(from: graph.target(left.via), via: left.view[s].edge, hopLimit: 5, select: select)
        }
        if GeometryMath.distance(graph.coordinate(node), graph.coordinate(graph.target(left.via))) > 80 { return false }
        var right = findIntersection(from: node, via: rhs.edge, hopLimit: 5, select: select)
        if let c = right.view.closestTurn(270), TurnAngle.deviation(right.view[c].angle, 270) > 40, let s = right.view.closestTurn(180) {
            right = findIntersection(from: graph.target(right.via), via: right.view[s].edge, hopLimit: 5, select: select)
        }
        guard let connector = left.view.closestTurn(90), TurnAngle.deviation(left.view[connector].angle, 90) <= 40 else { return false }
        let lanesL = Double(max(1, graph.data(lhs.edge).classification.lanes))
        let lanesR = Double(max(1, graph.data(rhs.edge).classification.lanes))
        let width = (lanesL + lanesR) * CoordinateExtractor.laneWidth
        if GeometryMath.distance(graph.coordinate(graph.target(left.via)), graph.coordinate(graph.target(right.via))) > width + 10 {
            return false
        }
        let connect = findIntersection(from: graph.target(left.via), via: left.view[connector].edge, hopLimit: 5, select: select)
        return graph.target(connect.via) == graph.target(right.via)
    }

    /// The two roads, once apart, run side by side for a while (HaveSameDirection).
    func haveSameDirection(_ node: UInt32, _ lhs: RoadGeometry, _ rhs: RoadGeometry) -> Bool {
        if TurnAngle.deviation(lhs.perceivedBearing, rhs.perceivedBearing) > AnalysisContext.mergableAngleDifference { return false }
        let l = walk(node, lhs.edge, bearing: lhs.perceivedBearing, stopOnAmbiguous: true)
        if l.length <= 40 { return false }
        let r = walk(node, rhs.edge, bearing: lhs.perceivedBearing, stopOnAmbiguous: true)
        if r.length <= 40 { return false }
        let connectAgain = l.coordinates.last == r.coordinates.last
        var ls = CoordinateExtractor.sample(l.coordinates, maxLength: AnalysisContext.distanceToExtract, rate: 5)
        var rs = CoordinateExtractor.sample(r.coordinates, maxLength: AnalysisContext.distanceToExtract, rate: 5)
        // (the first third is where they part; not where they meet again)
        if !connectAgain {
            ls.removeFirst(ls.count / 3)
            rs.removeFirst(rs.count / 3)
        }
        guard ls.count >= 2, rs.count >= 2, GeometryMath.areParallel(ls, rs) else { return false }
        let d = min(GeometryMath.closestDistance(ls[ls.count / 2], rs), GeometryMath.closestDistance(rs[rs.count / 2], ls))
        let lanes = Double(max(1, graph.data(lhs.edge).classification.lanes)) + Double(max(1, graph.data(rhs.edge).classification.lanes))
        return d <= 0.5 * lanes * CoordinateExtractor.laneWidth + 12
    }

    /// The two roads meet again round a roundish shape (a circle is no divided road): the area
    /// against the length walked.
    func isCircularShape(_ node: UInt32, _ lhs: RoadGeometry, _ rhs: RoadGeometry) -> Bool {
        let l = walk(node, lhs.edge, bearing: lhs.perceivedBearing, stopOnAmbiguous: false)
        let r = walk(node, rhs.edge, bearing: lhs.perceivedBearing, stopOnAmbiguous: false)
        guard let lastL = l.coordinates.last, lastL == r.coordinates.last, l.coordinates.first == lastL, l.length > 0 else { return false }
        let area = abs(GeometryMath.area(l.coordinates))
        return area / (l.length * l.length) >= 0.85 / (4 * .pi)
    }

    private func walk(_ node: UInt32, _ e: GuidanceGraph.Edge, bearing: Double, stopOnAmbiguous: Bool) -> (coordinates: [Coordinate], length: Double) {
        let name = nameKey(e)
        return coordinatesAlong(from: node, via: e, maxLength: AnalysisContext.distanceToExtract) { _, _, v in
            self.selectStraightmostByName(v, desired: name, initialBearing: bearing, requiresEntry: false, stopOnAmbiguous: stopOnAmbiguous)
        }
    }
}
