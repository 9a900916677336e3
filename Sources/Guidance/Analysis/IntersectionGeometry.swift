import FoundationEssentials
import Glibc
import Geo

/// The directions of the roads at a junction, and the merging of a divided road's two
/// carriageways into one road (OSRM's intersection analysis,
/// src/extractor/intersection/intersection_analysis.cpp).
extension AnalysisContext {
    /// Every road leaving `node` (one-ways coming in included) with its bearings, clockwise by
    /// perceived bearing. `useClose` takes the first shape point over a metre away (OSRM's
    /// getConnectedRoads<true>, cheap, for walking along roads); else the coordinate extractor's
    /// representative point, except at nodes of two roads or fewer.
    func outgoingGeometries(_ node: UInt32, useClose: Bool) -> [RoadGeometry] {
        if useClose, let known = closeGeometries[node] { return known }
        if !useClose, let known = representativeGeometries[node] { return known }
        let lanes = intersectionLanes(node)
        let close = useClose || graph.degree(node) <= 2
        var out = [RoadGeometry]()
        for e in graph.edges(at: node) {
            let g = graph.geometry(e)
            let start = g[0]
            let initial = GeometryMath.bearing(start, CoordinateExtractor.coordinate(atLength: 2, g))
            let representative = close ? CoordinateExtractor.closeToTurn(g)
                : CoordinateExtractor.representative(g, data: graph.data(e), lanes: lanes, selfLoop: graph.target(e) == node)
            out.append(RoadGeometry(edge: e, initialBearing: initial, perceivedBearing: GeometryMath.bearing(start, representative),
                                    segmentLength: GeometryMath.length(g)))
        }
        out.sort { $0.perceivedBearing < $1.perceivedBearing }
        if useClose { closeGeometries[node] = out } else { representativeGeometries[node] = out }
        return out
    }

    /// The roads of a junction with divided roads merged (both carriageways get one bearing, the
    /// one coming in is hidden), short roads to a merge at the next junction turned as that
    /// merge turns them, and each road's twin coming in (its bearings reversed: the direction a
    /// car arrives in). OSRM's getIntersectionGeometries.
    func intersectionGeometries(_ node: UInt32) -> (roads: [RoadGeometry], merged: Set<GuidanceGraph.Edge>) {
        if let known = mergedGeometries[node] { return known }
        var geoms = outgoingGeometries(node, useClose: false)
        let n = geoms.count
        var mergedFlags = [Bool](repeating: false, count: n)
        var mergedIDs = Set<GuidanceGraph.Edge>()
        if n >= 3 {
            for i in 0..<n where isRoadsPairMergeable(geoms, node: node, index: i) {
                let next = (i + 1) % n
                mergedFlags[i] = true
                mergedFlags[next] = true
                // (OSRM uses the bearing even where it declines to bisect: the carriageway leaving)
                let m = mergedBearing(geoms, i, next, neighbour: false)
                geoms[i].perceivedBearing = m.bearing
                geoms[i].initialBearing = m.bearing
                geoms[next].perceivedBearing = m.bearing
                geoms[next].initialBearing = m.bearing
                mergedIDs.insert(graph.data(geoms[i].edge).reversed ? geoms[i].edge : geoms[next].edge)
            }
        }
        if n >= 2 {
            // a road of 30 m or less to a junction where it merges with its other carriageway
            let pruning = 30.0
            for i in 0..<n where !mergedFlags[i] && geoms[i].segmentLength <= pruning {
                let b = graph.target(geoms[i].edge)
                let nb = outgoingGeometries(b, useClose: false)
                guard nb.count > 1, let curr = nb.firstIndex(where: { graph.target($0.edge) == node }) else { continue }
                let prev = (curr + nb.count - 1) % nb.count, next = (curr + 1) % nb.count
                if isRoadsPairMergeable(nb, node: b, index: prev) {
                    let m = mergedBearing(nb, prev, curr, neighbour: true)
                    if m.usable {
                        let offset = TurnAngle.deviation(m.bearing, nb[curr].perceivedBearing)
                        let b2 = (geoms[i].perceivedBearing + 360 - offset).truncatingRemainder(dividingBy: 360)
                        geoms[i].perceivedBearing = b2
                        geoms[i].initialBearing = b2
                    }
                } else if isRoadsPairMergeable(nb, node: b, index: curr) {
                    let m = mergedBearing(nb, curr, next, neighbour: true)
                    if m.usable {
                        let offset = TurnAngle.deviation(m.bearing, nb[curr].perceivedBearing)
                        let b2 = (geoms[i].perceivedBearing + offset).truncatingRemainder(dividingBy: 360)
                        geoms[i].perceivedBearing = b2
                        geoms[i].initialBearing = b2
                    }
                }
            }
        }
        var all = geoms
        for g in geoms {
            all.append(RoadGeometry(edge: graph.reverse(g.edge), initialBearing: TurnAngle.reverse(g.initialBearing),
                                    perceivedBearing: TurnAngle.reverse(g.perceivedBearing), segmentLength: g.segmentLength, arriving: true))
        }
        all.sort { $0.edge < $1.edge }
        let result = (all, mergedIDs)
        mergedGeometries[node] = result
        return result
    }

    /// The pair (index, index + 1) are the two carriageways of one road, and neither has a
    /// same-named road beside it (OSRM's isRoadsPairMergeable: three same-named roads never merge).
    func isRoadsPairMergeable(_ geoms: [RoadGeometry], node: UInt32, index: Int) -> Bool {
        let s = geoms.count
        let llhs = geoms[(index + s - 1) % s], lhs = geoms[index], rhs = geoms[(index + 1) % s], rrhs = geoms[(index + 2) % s]
        return isDistinct(llhs, lhs) && canMergeRoad(node, lhs, rhs) && isDistinct(rhs, rrhs)
    }

    /// The bearing two merged carriageways get: their bisector, unless a road already runs
    /// almost exactly straight into the one leaving (merging would bend a straight road), or, at
    /// a neighbouring junction, the bisector makes a turn onto either less straight.
    func mergedBearing(_ geoms: [RoadGeometry], _ l: Int, _ r: Int, neighbour: Bool) -> (usable: Bool, bearing: Double) {
        let lhs = geoms[l], rhs = geoms[r]
        let entry = graph.data(lhs.edge).reversed ? rhs : lhs
        let wanted = TurnAngle.reverse(entry.perceivedBearing)
        var closest = geoms[0]
        for g in geoms.dropFirst() where TurnAngle.deviation(g.perceivedBearing, wanted) < TurnAngle.deviation(closest.perceivedBearing, wanted) {
            closest = g
        }
        let opposite = TurnAngle.reverse(closest.perceivedBearing)
        let merged = bisector(rhs.perceivedBearing, lhs.perceivedBearing)
        if TurnAngle.fromStraight(TurnAngle.between(entry: opposite, exit: entry.perceivedBearing)) < 3 {
            return (false, entry.perceivedBearing)
        }
        if neighbour {
            let tl = TurnAngle.between(entry: opposite, exit: lhs.perceivedBearing)
            let tr = TurnAngle.between(entry: opposite, exit: rhs.perceivedBearing)
            let tm = TurnAngle.between(entry: opposite, exit: merged)
            if TurnAngle.fromStraight(tl) < TurnAngle.fromStraight(tm) || TurnAngle.fromStraight(tr) < TurnAngle.fromStraight(tm) {
                return (false, opposite)
            }
        }
        return (true, merged)
    }

    /// The mean direction of two bearings.
    func bisector(_ a: Double, _ b: Double) -> Double {
        let x = a * .pi / 180, y = b * .pi / 180
        let m = atan2(sin(x) + sin(y), cos(x) + cos(y)) * 180 / .pi
        return (m + 360).truncatingRemainder(dividingBy: 360)
    }
}
