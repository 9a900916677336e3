/// Which road is the obvious way on at a junction, the one a driver takes without being told
/// (OSRM's findObviousTurn, IsDistinctNarrowTurn, IsDistinctWideTurn and roadHasLowerClass,
/// include/guidance/intersection_handler.hpp).
extension AnalysisContext {
    /// Twice as much of a turn as the candidate makes another road distinct from it.
    static let distinctionRatio = 2.0

    func classification(_ e: GuidanceGraph.Edge) -> RoadClassification { graph.data(e).classification }

    /// The road `compare` is a lesser one than both the road coming in and the candidate, and
    /// has fewer lanes, or it is a link of their own class.
    func roadHasLowerClass(via: GuidanceGraph.Edge, candidate: GuidanceGraph.Edge, compare: GuidanceGraph.Edge) -> Bool {
        let v = classification(via), c = classification(candidate), o = classification(compare)
        let lanesReduced = o.lanes > 0 && Int(o.lanes) + 1 < Int(v.lanes)
        if RoadClassification.strictlyLess(o, v) && RoadClassification.strictlyLess(o, c) && lanesReduced { return true }
        return RoadClassification.isLinkTo(o, v) && RoadClassification.isLinkTo(o, c)
    }

    /// Whether the candidate (less than 60° off straight) stands apart from every other road.
    func isDistinctNarrowTurn(via: GuidanceGraph.Edge, candidate ci: Int, _ x: Intersection) -> Bool {
        let cand = x[ci]
        let candDev = cand.deviation
        let viaClass = classification(via), candClass = classification(cand.edge)
        let viaData = graph.data(via), candData = graph.data(cand.edge)
        func lanes(_ e: GuidanceGraph.Edge) -> Int { Int(classification(e).lanes) }
        let lanesEqualCandidate = lanes(cand.edge) > 0 && lanes(cand.edge) == lanes(via)
        let noNameChangeToCandidate = !requiresAnnouncement(via, cand.edge)
        for (i, r) in x.enumerated() where i > 0 {
            if r.edge == cand.edge { continue }
            // a forbidden second way is fine for a narrow turn
            if candDev < 40 && !r.entryAllowed { continue }
            let cmpDev = r.deviation
            let isLaneFork = lanes(r.edge) > 0 && lanes(cand.edge) == lanes(r.edge) && lanes(via) == lanes(cand.edge) + lanes(r.edge)
                && TurnAngle.deviation(cand.angle, r.angle) < 60
            let distinct = cmpDev > AnalysisContext.distinctionRatio * candDev && abs(cmpDev - candDev) > 12.5
            let slightlyDistinct = cmpDev > 1.4 * candDev
            let rData = graph.data(r.edge)
            // small restricted side roads are not like open roads
            if !viaData.restricted && !candData.restricted && rData.restricted && distinct { continue }
            // a roundabout's exit, more of a turn
            if viaData.roundabout == candData.roundabout && viaData.roundabout != rData.roundabout && candDev < cmpDev { continue }
            let nameChangesToCompare = requiresAnnouncement(via, r.edge)
            if (noNameChangeToCandidate || nameChangesToCompare) && !isLaneFork && distinct { continue }
            // the road opposite the other one: a road going on across the junction is no rival
            if let o = x.closestBearing(TurnAngle.reverse(r.perceivedBearing)) {
                let opposing = x[o]
                let fourPlus = x.count >= 4
                let sameAsOpposite = !requiresAnnouncement(opposing.edge, r.edge)
                let oppAngle = TurnAngle.deviation(r.angle, opposing.angle)
                let oppDistinct = sameAsOpposite || oppAngle > 140
                if fourPlus && oppDistinct && distinct { continue }
                if fourPlus && noNameChangeToCandidate && nameChangesToCompare && slightlyDistinct && sameAsOpposite && oppAngle > 155 {
                    continue
                }
                if !fourPlus && noNameChangeToCandidate && nameChangesToCompare && distinct && !isLaneFork && oppAngle > 120 { continue }
            }
            // from a minor road every distinct road is another choice
            if viaClass.priority.rawValue > RoadClassification.Priority.secondary.rawValue && distinct { continue }
            if lanesEqualCandidate && candDev < 25 && distinct { continue }
            let samePriority = viaClass.priority == candClass.priority
            let rClass = classification(r.edge)
            let compareLower = candClass.priority.rawValue < rClass.priority.rawValue
            let compareMuchHigher = Int(candClass.priority.rawValue) > Int(rClass.priority.rawValue) + 4
            if samePriority && compareLower && noNameChangeToCandidate && slightlyDistinct { continue }
            if samePriority && compareMuchHigher && noNameChangeToCandidate && slightlyDistinct { continue }
            if roadHasLowerClass(via: via, candidate: cand.edge, compare: r.edge) { continue }
            if samePriority && viaClass.group < rClass.group && requiresAnnouncement(cand.edge, r.edge) && nameChangesToCompare { continue }
            if samePriority && rClass.isLink { continue }
            return false
        }
        return true
    }

    /// Whether a wide candidate (60° or more) stands apart: every other road twice as much of a
    /// turn, or a lesser road; whether it may be entered does not matter here.
    func isDistinctWideTurn(via: GuidanceGraph.Edge, candidate ci: Int, _ x: Intersection) -> Bool {
        let cand = x[ci]
        let candDev = cand.deviation
        for (i, r) in x.enumerated() where i > 0 {
            if r.edge == cand.edge { continue }
            let straight = TurnAngle.direction(r.angle) == .straight
            if !straight && roadHasLowerClass(via: via, candidate: cand.edge, compare: r.edge) { continue }
            if r.deviation > AnalysisContext.distinctionRatio * candDev { continue }
            // where the road coming in is drawn bending, the roads as drawn decide
            if TurnAngle.deviation(x[0].initialBearing, x[0].perceivedBearing) > 25 {
                let inBearing = TurnAngle.reverse(x[0].initialBearing)
                let candInitial = TurnAngle.fromStraight(TurnAngle.between(entry: inBearing, exit: cand.initialBearing))
                let rInitial = TurnAngle.fromStraight(TurnAngle.between(entry: inBearing, exit: r.initialBearing))
                let rToCand = TurnAngle.between(entry: TurnAngle.reverse(r.initialBearing), exit: cand.initialBearing)
                if TurnAngle.direction(rToCand) != .straight && rInitial > 2 * candInitial { continue }
            }
            return false
        }
        return true
    }

    func isDistinctTurn(via: GuidanceGraph.Edge, candidate ci: Int, _ x: Intersection) -> Bool {
        x[ci].deviation < 60 ? isDistinctNarrowTurn(via: via, candidate: ci, x) : isDistinctWideTurn(via: via, candidate: ci, x)
    }

    /// The index of the obvious road, 0 for none.
    func findObviousTurn(via: GuidanceGraph.Edge, _ x: Intersection) -> Int {
        if x.count == 1 { return 0 }
        if x.count == 2 { return 1 }
        let viaData = graph.data(via)
        let viaClass = viaData.classification
        // (an obvious road across a roundabout's edge is none)
        func index(_ i: Int) -> Int { graph.data(x[i].edge).roundabout != viaData.roundabout ? 0 : i }
        func straightest(_ keep: (ConnectedRoad) -> Bool) -> Int? {
            var best: Int? = nil
            for (i, r) in x.enumerated() where keep(r) {
                if best.map({ r.deviation < x[$0].deviation }) ?? true { best = i }
            }
            return best
        }
        // 1. going on by name
        let viaEmpty = isEmptyName(via)
        if let cont = straightest({ r in
            guard r.entryAllowed else { return false }
            if viaEmpty && !viaClass.isLowPriority { return false }
            let rEmpty = isEmptyName(r.edge)
            let rClass = classification(r.edge)
            if rEmpty && !rClass.isLowPriority { return false }
            if viaEmpty != rEmpty { return false }
            if RoadClassification.strictlyLess(rClass, viaClass) { return false }
            if RoadClassification.isLinkTo(rClass, viaClass) { return false }
            return !requiresAnnouncement(via, r.edge)
        }), isDistinctTurn(via: via, candidate: cont, x) {
            return index(cont)
        }
        // 2. the straightest road of the same or a higher category
        let smt = straightest { r in
            let c = classification(r.edge)
            return r.entryAllowed && !RoadClassification.strictlyLess(c, viaClass) && !RoadClassification.isLinkTo(c, viaClass)
        }
        if let s = smt, isDistinctTurn(via: via, candidate: s, x) { return index(s) }
        // 3. any straightest road
        guard let smv = straightest({ $0.entryAllowed }) else { return 0 }
        let nonSharp = x.filter { $0.deviation <= 90 }.count
        let onlyNonSharp = x[smv].deviation <= 90 && nonSharp == 1
        if smv != smt, x[smv].deviation <= 60 || onlyNonSharp, !classification(x[smv].edge).isLowPriority,
           isDistinctTurn(via: via, candidate: smv, x) {
            return index(smv)
        }
        // 4. a narrow or only turn onto a motorway is always obvious
        if classification(x[smv].edge).isMotorwayClass && x[smv].deviation <= 60 && x.countEnterable == 1 { return index(smv) }
        // 5. a road of one name splitting, with one way allowed (not a T of a divided road)
        let allSame = x.allSatisfy { !isEmptyName($0.edge) && nameKey($0.edge) == nameKey(via) }
        if x.count == 3 && allSame && x.countEnterable == 1
            && (TurnAngle.deviation(x[1].angle, 90) > 40 || TurnAngle.deviation(x[2].angle, 270) > 40) {
            return index(smv)
        }
        return 0
    }
}
