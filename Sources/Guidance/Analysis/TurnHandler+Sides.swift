/// The turns on one side of the way on: up to three get directions that tell them apart
/// (OSRM's assignLeftTurns, assignRightTurns and handleDistinctConflict, turn_handler.cpp).
/// Left turns are worked out as right turns on the junction mirrored.
extension AnalysisContext {
    /// The roads left of `startingAt` (higher indices).
    func assignLeftTurns(via: GuidanceGraph.Edge, _ x: inout Intersection, startingAt: Int) {
        var m = mirrored(x)
        assignRightTurns(via: via, &m, upTo: x.count - max(0, startingAt))
        x = mirrored(m)
    }

    /// Mirrored, the roads but the way back in reverse order: index i becomes count − i.
    private func mirrored(_ x: Intersection) -> Intersection {
        var out = [x[0]] + x.dropFirst().reversed()
        for i in out.indices { out[i].mirror() }
        return out
    }

    /// The roads right of `upTo` (indices 1 ..< upTo).
    func assignRightTurns(via: GuidanceGraph.Edge, _ x: inout Intersection, upTo limit: Int) {
        let upTo = min(limit, x.count)
        guard upTo > 1, (1..<upTo).contains(where: { x[$0].entryAllowed }) else { return }
        func dir(_ i: Int) -> TurnInstruction.Direction { TurnAngle.direction(x[i].angle) }
        func basic(_ i: Int) -> TurnInstruction.Kind { basicTurnType(via: via, x[i]) }
        switch upTo {
        case 2:
            assignTrivialTurns(via: via, &x, from: 1, to: 2)
        case 3:
            if dir(1) == dir(2) { handleDistinctConflict(via: via, &x, left: 2, right: 1) } else { assignTrivialTurns(via: via, &x, from: 1, to: 3) }
        case 4:
            let d1 = dir(1), d2 = dir(2), d3 = dir(3)
            if d1 != d2 && d2 != d3 {
                assignTrivialTurns(via: via, &x, from: 1, to: 4)
            } else if (1...3).filter({ x[$0].entryAllowed }).count <= 2 {
                if !x[3].entryAllowed {
                    handleDistinctConflict(via: via, &x, left: 2, right: 1)
                } else if !x[1].entryAllowed {
                    handleDistinctConflict(via: via, &x, left: 3, right: 2)
                } else {
                    handleDistinctConflict(via: via, &x, left: 3, right: 1)
                }
            } else if TurnAngle.deviation(x[1].angle, x[2].angle) >= 40 && TurnAngle.deviation(x[2].angle, x[3].angle) >= 40 {
                x[1].instruction = TurnInstruction(basic(1), .sharpRight)
                x[2].instruction = TurnInstruction(basic(2), .right)
                x[3].instruction = TurnInstruction(basic(3), .slightRight)
            } else if (d1 == d2 && d2 == d3) || (d1 == d2 && TurnAngle.deviation(x[2].angle, x[3].angle) < 60)
                        || (d2 == d3 && TurnAngle.deviation(x[1].angle, x[2].angle) < 60) {
                assignTrivialTurns(via: via, &x, from: 1, to: 4)
            } else if (d1 == d2 && TurnAngle.deviation(x[2].angle, x[3].angle) >= 60)
                        || (d2 == d3 && TurnAngle.deviation(x[1].angle, x[2].angle) >= 60) {
                if TurnAngle.deviation(x[2].angle, x[3].angle) >= 60 {
                    handleDistinctConflict(via: via, &x, left: 2, right: 1)
                    x[3].instruction = TurnInstruction(basic(3), d3)
                } else {
                    x[1].instruction = TurnInstruction(basic(1), d1)
                    handleDistinctConflict(via: via, &x, left: 3, right: 2)
                }
            } else {
                assignTrivialTurns(via: via, &x, from: 1, to: 4)
            }
        default:
            assignTrivialTurns(via: via, &x, from: 1, to: upTo)
        }
    }

    /// Two neighbouring roads that would get the same direction are pulled apart.
    func handleDistinctConflict(via: GuidanceGraph.Edge, _ x: inout Intersection, left: Int, right: Int) {
        if !x[left].entryAllowed || !x[right].entryAllowed || x[left].angle == x[right].angle {
            for i in [left, right] where x[i].entryAllowed {
                x[i].instruction = TurnInstruction(basicTurnType(via: via, x[i]), TurnAngle.direction(x[i].angle))
            }
            return
        }
        let dl = TurnAngle.direction(x[left].angle), dr = TurnAngle.direction(x[right].angle)
        if dl == .straight || dl == .slightLeft || dr == .slightRight {
            // (OSRM does not know the junction's size here and says 4, so never NoTurn)
            if classification(x[left].edge).priority > classification(x[right].edge).priority {
                x[right].instruction = instructionForObvious(roads: 4, via: via, throughStreet: false, x[right])
                x[left].instruction = TurnInstruction(basicTurnType(via: via, x[left]), .slightLeft)
            } else {
                x[left].instruction = instructionForObvious(roads: 4, via: via, throughStreet: false, x[left])
                x[right].instruction = TurnInstruction(basicTurnType(via: via, x[right]), .slightRight)
            }
            return
        }
        let lt = basicTurnType(via: via, x[left]), rt = basicTurnType(via: via, x[right])
        func set(_ l: TurnInstruction.Direction, _ r: TurnInstruction.Direction) {
            x[left].instruction = TurnInstruction(lt, l)
            x[right].instruction = TurnInstruction(rt, r)
        }
        if TurnAngle.deviation(x[left].angle, 90) < 3 { set(.right, .sharpRight) } else if TurnAngle.deviation(x[right].angle, 90) < 3 {
            set(.slightRight, .right)
        } else if TurnAngle.deviation(x[left].angle, 270) < 3 { set(.left, .slightLeft) } else if TurnAngle.deviation(x[right].angle, 270) < 3 {
            set(.sharpLeft, .left)
        } else if dl == .sharpLeft { set(.sharpLeft, .left) } else if dr == .sharpRight { set(.right, .sharpRight) } else {
            // (OSRM's test for the left side compares a modifier with 180 and always holds: the
            // right-side split applies; left turns arrive here mirrored)
            if TurnAngle.deviation(x[left].angle, 85) >= TurnAngle.deviation(x[right].angle, 85) {
                set(.slightRight, .right)
            } else {
                set(.right, .sharpRight)
            }
        }
    }
}
