/// Sliproads: a short road cutting the corner of a junction just ahead, which the driver takes
/// instead of turning at the junction itself (OSRM's SliproadHandler,
/// src/guidance/sliproad_handler.cpp). The turn onto it is marked `sliproad`; the engine says
/// it as one turn with the turn at its end.
///
///     a ... b .... c .      ab the road coming in, bc the main road, c the junction ahead,
///           `      .        bd the sliproad, d where it meets the road crossing at c
///             `    .
///               `  .
///                  d
extension AnalysisContext {
    /// Distance and area limits scale with the road's class (scaledThresholdByRoadClass).
    static func sliproadThreshold(_ c: RoadClassification) -> Double {
        let factor: Double
        switch c.priority {
        case .motorway: factor = 1.0
        case .trunk, .primary: factor = 0.8
        case .secondary: factor = 0.6
        case .tertiary: factor = 0.5
        case .mainResidential: factor = 0.4
        case .sideResidential, .motorwayLink, .trunkLink, .primaryLink, .secondaryLink, .tertiaryLink, .linkRoad: factor = 0.3
        default: factor = 0.1
        }
        return 250 * factor
    }

    func handleSliproads(via source: GuidanceGraph.Edge, _ x: inout Intersection) {
        let b = graph.target(source)
        guard let obvious = obviousIndexWithSliproads(via: source, x, at: b) else { return }
        let main = x[obvious]
        guard roadContinues(source, main.edge) else { return }
        func isPotentialLink(_ r: ConnectedRoad) -> Bool {
            r.entryAllowed && !r.instruction.hasRoundaboutType && r.deviation <= 80
                && TurnAngle.deviation(main.angle, r.angle) > Double.ulpOfOne && !graph.data(r.edge).roundabout
        }
        guard x.contains(where: isPotentialLink) else { return }
        if nextIntersectionIsTooFarAway(b, main.edge) { return }
        guard let (cView, c) = nextIntersection(at: b, via: main.edge), !cView.isDeadEnd, c != b else { return }
        let targetNames = cView.map(\.edge)
        var found = false
        for i in 1..<x.count where i == (obvious + x.count - 1) % x.count || i == (obvious + 1) % x.count {
            let isLeft = i > obvious
            let crossing = isLeft ? cView[cView.count - 1] : cView[cView.count > 1 ? 1 : 0]
            let cand = x[i]
            if graph.data(crossing.edge).reversed { continue }
            if classification(cand.edge).isLowPriority || graph.data(cand.edge).reversed || !isPotentialLink(cand) { continue }
            let walk = findIntersection(from: b, via: cand.edge, hopLimit: 10, select: skipPassThrough)
            let target = walk.view
            if target.isDeadEnd { continue }
            // the modes of the road in, the sliproad and the road it reaches agree
            guard let firstEnterable = target.first(where: { $0.entryAllowed }),
                  sameMode(source, cand.edge), sameMode(source, firstEnterable.edge) else { continue }
            // one or two sliproads, the road out and the road in from the main junction
            guard target.count == 3 || target.count == 4 else { continue }
            let sliproadEdge = walk.via
            let d = graph.target(sliproadEdge)
            guard b != c, c != d, b != d else { continue }
            if target.count == 4 {
                guard cView.count >= 3, graph.target(crossing.edge) == d else { continue }
                let nextToCrossing = isLeft ? cView[cView.count - 2] : cView[2]
                let e = graph.target(nextToCrossing.edge)
                guard target.contains(where: { graph.target($0.edge) == e && [.sharpRight, .sharpLeft].contains(TurnAngle.direction($0.angle)) })
                else { continue }
            }
            // (OSRM's through-street test here looks for the edge coming in among those leaving:
            // it never holds)
            let onto = findObviousTurn(via: sliproadEdge, target)
            guard onto != 0, target[onto].deviation <= 80, !graph.data(target[onto].edge).roundabout else { continue }
            // the sliproad hugs the corner: its shape lies on the junction's side of b → d
            var coords = [graph.coordinate(b)]
            coords += graph.geometry(sliproadEdge).dropFirst()
            guard coords.count >= 2 else { continue }
            let start = coords[0], end = coords[coords.count - 1]
            let interior = coords.dropFirst().dropLast()
            let snuggles: Bool
            let deviation: Double
            if !isLeft {
                snuggles = interior.allSatisfy { !GeometryMath.isCCW(start, $0, end) }
                deviation = TurnAngle.fromStraight(cView[cView.count > 1 ? 1 : 0].angle)
            } else {
                snuggles = interior.allSatisfy { GeometryMath.isCCW(start, $0, end) }
                deviation = TurnAngle.fromStraight(cView[cView.count - 1].angle)
            }
            let bc = GeometryMath.distance(graph.coordinate(b), graph.coordinate(c))
            if bc >= 3 {
                if !snuggles { continue }
                // the road crossing at c must make a real turn, unless the sliproad is a link
                if deviation > 180 - 40 && !classification(cand.edge).isLink { continue }
            }
            let limit = AnalysisContext.sliproadThreshold(classification(cand.edge))
            let area = bc * GeometryMath.distance(graph.coordinate(c), graph.coordinate(d)) / 2
            guard area >= 3, area <= limit * limit else { continue }
            for r in target {
                // the road reached shares a name with the roads at c
                if targetNames.allSatisfy({ requiresAnnouncement(r.edge, $0) }) { continue }
                // a named street in between needs its own announcements
                if !classification(cand.edge).isLink && !hasNoName(cand.edge) && !hasNoName(main.edge) && !hasNoName(r.edge)
                    && requiresAnnouncement(main.edge, cand.edge) && requiresAnnouncement(cand.edge, r.edge) { continue }
                if classification(cand.edge).isLink && classification(r.edge).isLink { continue }
                let reachesC = graph.target(r.edge) == c
                let commonNode = graph.target(r.edge) == graph.target(crossing.edge)
                    && TurnAngle.between(entry: r.perceivedBearing, exit: crossing.perceivedBearing) < 25
                    && [.sharpRight, .sharpLeft].contains(TurnAngle.direction(r.angle))
                if reachesC || commonNode {
                    x[i].instruction.kind = .sliproad
                    found = true
                    break
                }
                // one node of two roads (a traffic signal) between d and c
                let beyond = connectedRoads(from: r.edge, useClose: false)
                if beyond.isPassThrough && graph.target(beyond[1].edge) == c {
                    x[i].instruction.kind = .sliproad
                    found = true
                    break
                }
            }
        }
        if found && x[obvious].instruction.kind == .fork {
            // the split was a fork; with the sliproad gone the main road is obvious
            let m = x[obvious]
            if isSameName(source, m.edge) {
                x[obvious].instruction = TurnInstruction(m.deviation < 5 ? .suppressed : .continue, TurnAngle.direction(m.angle))
            } else if !hasNoName(m.edge) {
                x[obvious].instruction = TurnInstruction(.newName, TurnAngle.direction(m.angle))
            } else {
                x[obvious].instruction.kind = .suppressed
            }
        }
    }

    /// The same class, mode and name (roadContinues).
    func roadContinues(_ a: GuidanceGraph.Edge, _ b: GuidanceGraph.Edge) -> Bool {
        classification(a).sameClass(classification(b)) && sameMode(a, b) && !isEmptyName(a) && !isEmptyName(b)
            && !requiresAnnouncement(a, b)
    }

    /// The obvious road; or, at a fork of two, the branch that is a main road where the other
    /// reaches a junction a sliproad could end at.
    func obviousIndexWithSliproads(via: GuidanceGraph.Edge, _ x: Intersection, at b: UInt32) -> Int? {
        let o = findObviousTurn(via: via, x)
        if o != 0 { return o }
        guard x.count == 3, x[1].instruction.kind == .fork, x[2].instruction.kind == .fork else { return nil }
        guard let first = nextIntersection(at: b, via: x[1].edge), let second = nextIntersection(at: b, via: x[2].edge),
              !first.view.isDeadEnd, !second.view.isDeadEnd else { return nil }
        // one way out and two in: where a sliproad ends
        func canBeTarget(_ v: Intersection) -> Bool { v.count == 3 && !v[0].entryAllowed && !(v[1].entryAllowed && v[2].entryAllowed) }
        if canBeTarget(first.view) && b != second.node { return 2 }
        if canBeTarget(second.view) && b != first.node { return 1 }
        return nil
    }

    /// Whether the road runs on past nodes of two roads for longer than its class allows a
    /// sliproad's main road to (OSRM only measures at those nodes, never the last edge).
    func nextIntersectionIsTooFarAway(_ b: UInt32, _ main: GuidanceGraph.Edge) -> Bool {
        let threshold = AnalysisContext.sliproadThreshold(classification(main))
        var distance = 0.0, tooFar = false
        traverse(from: b, via: main, update: { from, e in
            distance += GeometryMath.length(graph.geometry(e))
        }, terminate: {
            if distance > threshold { tooFar = true; return true }
            return false
        }, select: skipPassThrough)
        return tooFar
    }
}
