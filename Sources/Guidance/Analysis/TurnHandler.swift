/// The instructions at an ordinary junction (OSRM's TurnHandler, src/guidance/turn_handler.cpp):
/// the obvious way on is silent or a new name, two roads parting about straight on are a fork,
/// a T is the end of the road, and the other turns get directions that tell them apart.
extension AnalysisContext {
    func handleTurns(via: GuidanceGraph.Edge, _ x: inout Intersection) {
        if x.count == 1 { return }
        if x[0].entryAllowed { x[0].instruction = TurnInstruction(basicTurnType(via: via, x[0]), .uturn) }
        switch x.count {
        case 2: x[1].instruction = instructionForObvious(roads: 2, via: via, throughStreet: false, x[1])
        case 3: handleThreeWayTurn(via: via, &x)
        default: handleComplexTurn(via: via, &x)
        }
    }

    /// Whether `road` is the obvious choice over `other` (isObviousOfTwo): by class, being the
    /// road itself perfectly straight on, or a lot straighter (40% and 25° less of a turn).
    func isObviousOfTwo(via: GuidanceGraph.Edge, _ road: ConnectedRoad, _ other: ConnectedRoad) -> Bool {
        let v = classification(via), r = classification(road.edge), o = classification(other.edge)
        if RoadClassification.obviousByRoadClass(in: v, candidate: r, compare: o) { return true }
        if RoadClassification.obviousByRoadClass(in: v, candidate: o, compare: r) { return false }
        if !hasNoName(via) && road.deviation < Double.ulpOfOne && !requiresAnnouncement(via, road.edge) { return true }
        let ratio = other.deviation / road.deviation
        return ratio > 1.4 && TurnAngle.deviation(other.deviation, road.deviation) > 25
    }

    /// The roads of a possible fork, right to left (indices), found by geometry: two or three
    /// roads close to straight on, each within 40° of its neighbour.
    func forkCandidates(_ x: Intersection) -> ClosedRange<Int>? {
        guard x.count >= 3 else { return nil }
        let s = x.straightmost
        guard x[s].deviation <= 40 else { return nil }
        // a road stays a candidate where it is near straight, or near a road that is
        func isOutermost(_ a: ConnectedRoad, _ b: ConnectedRoad) -> Bool {
            b.deviation > 40 && (TurnAngle.deviation(a.angle, b.angle) > 40 || a.deviation > 60)
        }
        var right = s
        while right > 0 && !isOutermost(x[right], x[right - 1]) { right -= 1 }
        var left = s
        while left + 1 < x.count && !isOutermost(x[left], x[left + 1]) { left += 1 }
        guard right < left, left - right < 3 else { return nil }
        return right...left
    }

    func isCompatibleByRoadClass(_ x: Intersection, _ fork: ClosedRange<Int>) -> Bool {
        // (OSRM takes the class from the way back's edge: the road coming in, either way)
        let v = classification(x[0].edge)
        let rightIsLink = classification(x[fork.lowerBound].edge).isLink
        for i in fork where classification(x[i].edge).isLink != rightIsLink { return false }
        for a in fork {
            for b in fork where x[a].edge != x[b].edge {
                if RoadClassification.obviousByRoadClass(in: v, candidate: classification(x[a].edge), compare: classification(x[b].edge)) {
                    return false
                }
            }
        }
        return true
    }

    /// A fork: candidates set apart (60°) from the roads beside them, none obvious over its
    /// neighbour, compatible classes, all enterable, all in the car's mode.
    func findFork(via: GuidanceGraph.Edge, _ x: Intersection) -> ClosedRange<Int>? {
        guard let fork = forkCandidates(x), fork.lowerBound > 0 else { return nil }
        let nextLeft = fork.upperBound + 1 < x.count ? x[fork.upperBound + 1] : x[0]
        let separatedLeft = TurnAngle.deviation(x[fork.upperBound].angle, nextLeft.angle) >= 60
        let separatedRight = TurnAngle.deviation(x[fork.lowerBound].angle, x[fork.lowerBound - 1].angle) >= 60
        var obvious = false
        for i in fork.lowerBound..<fork.upperBound {
            if isObviousOfTwo(via: via, x[i], x[i + 1]) || isObviousOfTwo(via: via, x[i + 1], x[i]) { obvious = true }
        }
        let allEnterable = fork.allSatisfy { x[$0].entryAllowed }
        let sameModes = fork.allSatisfy { sameMode(via, x[$0].edge) }
        guard separatedLeft, separatedRight, !obvious, isCompatibleByRoadClass(x, fork), allEnterable, sameModes else { return nil }
        return fork
    }

    /// A T: the two ways on to the right and the left, far apart.
    func isEndOfRoad(right: ConnectedRoad, left: ConnectedRoad) -> Bool {
        TurnAngle.deviation(right.angle, 90) < 40 && TurnAngle.deviation(left.angle, 270) < 40
            && TurnAngle.deviation(right.angle, left.angle) > 80
    }

    func handleThreeWayTurn(via: GuidanceGraph.Edge, _ x: inout Intersection) {
        let obvious = findObviousTurn(via: via, x)
        let allLinks = x.allSatisfy { classification($0.edge).isLink }
        if let fork = findFork(via: via, x), allLinks || obvious == 0 {
            assignFork(via: via, left: fork.upperBound, right: fork.lowerBound, &x)
        } else if isEndOfRoad(right: x[1], left: x[2]) && obvious == 0 {
            if x[1].entryAllowed { x[1].instruction = TurnInstruction(basicTurnType(via: via, x[1]) == .onRamp ? .onRamp : .endOfRoad, .right) }
            if x[2].entryAllowed { x[2].instruction = TurnInstruction(basicTurnType(via: via, x[2]) == .onRamp ? .onRamp : .endOfRoad, .left) }
        } else if obvious != 0 {
            let d1 = TurnAngle.direction(x[1].angle), d2 = TurnAngle.direction(x[2].angle)
            if obvious == 1 {
                x[1].instruction = instructionForObvious(roads: 3, via: via, throughStreet: isThroughStreet(1, x), x[1])
                x[2].instruction = TurnInstruction(basicTurnType(via: via, x[2]), d1 == .straight && d2 == .straight ? .slightLeft : d2)
            } else {
                x[2].instruction = instructionForObvious(roads: 3, via: via, throughStreet: isThroughStreet(2, x), x[2])
                x[1].instruction = TurnInstruction(basicTurnType(via: via, x[1]), d1 == .straight && d2 == .straight ? .slightRight : d1)
            }
        } else {
            x[1].instruction = TurnInstruction(basicTurnType(via: via, x[1]), TurnAngle.direction(x[1].angle))
            x[2].instruction = TurnInstruction(basicTurnType(via: via, x[2]), TurnAngle.direction(x[2].angle))
        }
    }

    func handleComplexTurn(via: GuidanceGraph.Edge, _ x: inout Intersection) {
        let obvious = findObviousTurn(via: via, x)
        let s = x.straightmost
        if obvious != 0 {
            x[obvious].instruction = instructionForObvious(roads: x.count, via: via, throughStreet: isThroughStreet(obvious, x), x[obvious])
            assignLeftTurns(via: via, &x, startingAt: obvious)
            assignRightTurns(via: via, &x, upTo: obvious)
        } else if let fork = findFork(via: via, x) {
            if fork.count == 2 {
                let l = fork.upperBound, r = fork.lowerBound
                let lc = classification(x[l].edge), rc = classification(x[r].edge)
                if RoadClassification.canBeSeenAsFork(lc, rc) {
                    assignFork(via: via, left: l, right: r, &x)
                } else if lc.priority > rc.priority {
                    x[r].instruction = instructionForObvious(roads: x.count, via: via, throughStreet: false, x[r])
                    x[l].instruction = TurnInstruction(basicTurnType(via: via, x[l]), .slightLeft)
                } else {
                    x[l].instruction = instructionForObvious(roads: x.count, via: via, throughStreet: false, x[l])
                    x[r].instruction = TurnInstruction(basicTurnType(via: via, x[r]), .slightRight)
                }
            } else {
                assignFork(via: via, left: fork.upperBound, center: fork.lowerBound + 1, right: fork.lowerBound, &x)
            }
            assignLeftTurns(via: via, &x, startingAt: fork.upperBound)
            assignRightTurns(via: via, &x, upTo: fork.lowerBound)
        } else if x[s].deviation < 25 && !x[s].entryAllowed {
            // a straight road the car may not take splits the junction
            assignLeftTurns(via: via, &x, startingAt: s)
            assignRightTurns(via: via, &x, upTo: s)
        } else if x[s].angle > 180 {
            assignLeftTurns(via: via, &x, startingAt: s - 1)
            assignRightTurns(via: via, &x, upTo: s)
        } else if x[s].angle < 180 {
            assignLeftTurns(via: via, &x, startingAt: s)
            assignRightTurns(via: via, &x, upTo: s + 1)
        } else {
            assignTrivialTurns(via: via, &x, from: 1, to: x.count)
        }
    }
}
