/// What every turn handler shares (OSRM's IntersectionHandler,
/// src/guidance/intersection_handler.cpp, include/guidance/is_through_street.hpp): the basic type
/// of a turn, the instruction for an obvious road, forks.
extension AnalysisContext {
    /// On ramp onto a ramp from a road, continue where the name goes on, else a turn.
    func basicTurnType(via: GuidanceGraph.Edge, _ road: ConnectedRoad) -> TurnInstruction.Kind {
        let onRamp = classification(via).isRampClass, ontoRamp = classification(road.edge).isRampClass
        if !onRamp && ontoRamp { return .onRamp }
        if !hasNoName(via) && !hasNoName(road.edge) && !requiresAnnouncement(via, road.edge) { return .continue }
        return .turn
    }

    func sameClasses(_ a: GuidanceGraph.Edge, _ b: GuidanceGraph.Edge) -> Bool { graph.data(a).classes == graph.data(b).classes }

    func sameMode(_ a: GuidanceGraph.Edge, _ b: GuidanceGraph.Edge) -> Bool { graph.data(a).ferry == graph.data(b).ferry }

    /// What an obvious way on is said as: mostly nothing (NoTurn where the road only passes a
    /// node, Suppressed where there were other ways), a new name, a merge onto a motorway that
    /// goes on both ways, a mode change (ferry).
    func instructionForObvious(roads: Int, via: GuidanceGraph.Edge, throughStreet: Bool, _ road: ConnectedRoad) -> TurnInstruction {
        let type = basicTurnType(via: via, road)
        let direction = TurnAngle.direction(road.angle)
        if type == .onRamp { return TurnInstruction(.onRamp, direction) }
        if TurnAngle.deviation(road.angle, 0) < 0.01 { return TurnInstruction(.continue, .uturn) }
        let notify = !sameMode(via, road.edge)
        if type == .turn {
            if requiresAnnouncement(via, road.edge) {
                if throughStreet {
                    if classification(road.edge).isMotorwayClass { return TurnInstruction(.merge, road.angle > 180 ? .slightRight : .slightLeft) }
                    if classification(via).isRampClass && classification(road.edge).isRampClass {
                        return TurnInstruction(notify ? .notification : .suppressed, direction)
                    }
                    // obvious and narrow onto a road that goes on a while: straight on
                    let distance = GeometryMath.distance(graph.coordinate(graph.target(via)), graph.coordinate(graph.target(road.edge)))
                    return TurnInstruction(.turn, road.deviation < 40 && distance > 2 * 30 ? .straight : direction)
                }
                return TurnInstruction(notify ? .notification : .newName, direction)
            }
            if notify { return TurnInstruction(.notification, direction) }
            return TurnInstruction(roads == 2 && sameClasses(via, road.edge) ? .noTurn : .suppressed, direction)
        }
        if notify { return TurnInstruction(.notification, direction) }
        if roads > 2 || !sameClasses(via, road.edge) { return TurnInstruction(.suppressed, direction) }
        return TurnInstruction(.noTurn, direction)
    }

    /// The road at `index` goes on across the junction the other way, under its name and class
    /// (turning onto it is joining a through street).
    func isThroughStreet(_ index: Int, _ x: Intersection) -> Bool {
        let e = x[index].edge
        if isEmptyName(e) { return false }
        for i in 1..<x.count where i != index {
            let r = x[i]
            if TurnAngle.deviation(r.angle, x[index].angle) > 155, identicalNames(e, r.edge),
               classification(e).sameClass(classification(r.edge)) {
                return true
            }
        }
        return false
    }

    /// Two roads splitting about straight on: both a fork, unless one is a minor road (then the
    /// other is the way on, and the minor road a slight turn). OSRM's two-way assignFork as it
    /// stands: its special case for one straight branch is overwritten by this final rule.
    func assignFork(via: GuidanceGraph.Edge, left: Int, right: Int, _ x: inout Intersection) {
        let lowLeft = classification(x[left].edge).isLowPriority, lowRight = classification(x[right].edge).isLowPriority
        let silentLeft: TurnInstruction.Kind = sameMode(via, x[left].edge) ? .suppressed : .notification
        let silentRight: TurnInstruction.Kind = sameMode(via, x[right].edge) ? .suppressed : .notification
        if lowRight && !lowLeft {
            x[left].instruction = TurnInstruction(silentLeft, .slightLeft)
        } else if lowLeft && !lowRight {
            x[left].instruction = TurnInstruction(.turn, .slightLeft)
        } else {
            x[left].instruction = TurnInstruction(.fork, .slightLeft)
        }
        if lowLeft && !lowRight {
            x[right].instruction = TurnInstruction(silentRight, .slightRight)
        } else if lowRight && !lowLeft {
            x[right].instruction = TurnInstruction(.turn, .slightRight)
        } else {
            x[right].instruction = TurnInstruction(.fork, .slightRight)
        }
    }

    /// The edges differ in a way a driver would hear (detail::requiresAnnouncement).
    func requiresEdgeAnnouncement(_ a: GuidanceGraph.Edge, _ b: GuidanceGraph.Edge) -> Bool {
        let x = graph.data(a), y = graph.data(b)
        if x.reversed != y.reversed { return true }
        if !x.classification.sameClass(y.classification) || x.classification.lanes != y.classification.lanes || x.roundabout != y.roundabout
            || x.circular != y.circular || x.restricted != y.restricted || x.startpoint != y.startpoint {
            return true
        }
        return x.nameID != y.nameID || x.refID != y.refID || x.classes != y.classes || x.ferry != y.ferry
    }

    /// Three roads splitting about straight on.
    func assignFork(via: GuidanceGraph.Edge, left: Int, center: Int, right: Int, _ x: inout Intersection) {
        let l = x[left].entryAllowed, c = x[center].entryAllowed, r = x[right].entryAllowed
        if l && c && r {
            x[left].instruction = TurnInstruction(.fork, .slightLeft)
            if x[center].deviation < 3 && !requiresEdgeAnnouncement(via, x[center].edge) {
                x[center].instruction = TurnInstruction(sameMode(via, x[center].edge) ? .suppressed : .notification, .straight)
            } else {
                x[center].instruction = TurnInstruction(.fork, .straight)
            }
            x[right].instruction = TurnInstruction(.fork, .slightRight)
        } else if l {
            if r { assignFork(via: via, left: left, right: right, &x) } else if c { assignFork(via: via, left: left, right: center, &x) } else {
                x[left].instruction = TurnInstruction(basicTurnType(via: via, x[left]), TurnAngle.direction(x[left].angle))
            }
        } else if r {
            if c { assignFork(via: via, left: center, right: right, &x) } else {
                x[right].instruction = TurnInstruction(basicTurnType(via: via, x[right]), TurnAngle.direction(x[right].angle))
            }
        } else if c {
            x[center].instruction = TurnInstruction(basicTurnType(via: via, x[center]), TurnAngle.direction(x[center].angle))
        }
    }

    /// Each road the car may take gets its basic type and its angle's direction.
    func assignTrivialTurns(via: GuidanceGraph.Edge, _ x: inout Intersection, from begin: Int, to end: Int) {
        guard begin < end else { return }
        for i in begin..<end where x[i].entryAllowed {
            x[i].instruction = TurnInstruction(basicTurnType(via: via, x[i]), TurnAngle.direction(x[i].angle))
        }
    }

    /// The next junction along a road past nodes of two roads: its view (representative
    /// coordinates, no merging) and node; nil at a dead end or a node of two roads.
    func nextIntersection(at node: UInt32, via edge: GuidanceGraph.Edge) -> (view: Intersection, node: UInt32)? {
        let r = skipDegreeTwoNodes(from: node, via: edge)
        let view = connectedRoads(from: r.edge, useClose: false)
        if view.count <= 2 { return nil }
        return (view, graph.target(r.edge))
    }
}
