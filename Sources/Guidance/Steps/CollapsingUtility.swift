/// What the collapsing passes ask of steps (OSRM's collapsing_utility.hpp).
enum Collapsing {
    /// Two maneuvers closer than this are candidates for one instruction, metres.
    static let maxCollapseDistance = 30.0
    /// A new name must hold at least this long to be said ("a bit larger than 100 to avoid
    /// oscillation in tests").
    static let nameSegmentCutoff = 105.0
    /// "At the end of the road" only after passing this many junctions.
    static let minEndOfRoadIntersections = 2

    static func availableTurns(_ s: RouteStep) -> Int { s.front.roads }
    static func allowedTurns(_ s: RouteStep) -> Int { s.front.allowedTurns }

    /// Suppressed at a node of two roads with one way on: a traffic signal.
    static func isTrafficLight(_ s: RouteStep) -> Bool { s.type == .suppressed && availableTurns(s) == 2 && allowedTurns(s) == 1 }

    /// Both to the left (or straight), or both to the right (or straight).
    static func sameSide(_ a: RouteStep, _ b: RouteStep) -> Bool {
        func left(_ s: RouteStep) -> Bool { s.modifier == .straight || s.modifier.isLeft }
        func right(_ s: RouteStep) -> Bool { s.modifier == .straight || s.modifier.isRight }
        return (left(a) && left(b)) || (right(a) && right(b))
    }

    /// The angle from the way into `entry`'s junction to the way out of `exit`'s.
    static func totalTurnAngle(_ a: RouteStep, _ b: RouteStep) -> Double {
        let (entry, exit) = a.geometryBegin > b.geometryBegin ? (b, a) : (a, b)
        guard let i = entry.front.inBearing, let o = exit.front.outBearing else {
            // (OSRM returns a bearing here, not an angle)
            return entry.front.outBearing ?? 180
        }
        return TurnAngle.between(entry: TurnAngle.reverse(i), exit: o)
    }

    /// The two directions differ by at least 145°: a u-turn.
    static func bearingsAreReversed(_ inBearing: Double, _ outBearing: Double) -> Bool {
        let left = outBearing >= 0 && outBearing <= inBearing ? inBearing - outBearing : inBearing + 360 - outBearing
        return TurnAngle.deviation(left, 180) <= 35
    }

    static func isWiderStraight(_ a: Double) -> Bool { a >= 125 && a <= 235 }

    /// The straightest other road the car may take at the step's junction (360 for none).
    static func straightestIntersectingTurn(_ s: RouteStep) -> Double { s.front.straightestOther }

    /// The way taken is the straightest (with 10° of fuzz).
    static func hasStraightestTurn(_ s: RouteStep) -> Bool {
        guard let path = s.front.turnAngle, isWiderStraight(path) else { return false }
        let other = straightestIntersectingTurn(s)
        if TurnAngle.deviation(path, other) > 10 { return TurnAngle.fromStraight(path) <= TurnAngle.fromStraight(other) }
        return true
    }

    /// Only nodes of two roads passed after the maneuver.
    static func noIntermediaryIntersections(_ s: RouteStep) -> Bool { s.passedOnlyTwoRoads }

    static func isShortAndUndisturbed(_ s: RouteStep) -> Bool { s.distance <= maxCollapseDistance && noIntermediaryIntersections(s) }

    /// A u-turn takes part in a collapse only with a new name (a divided road's gap).
    static func noBadUTurnCombination(_ a: RouteStep, _ b: RouteStep) -> Bool {
        let hasUTurn = a.modifier == .uturn || b.modifier == .uturn
        return !hasUTurn || (a.type == .newName && b.modifier == .uturn) || (b.type == .newName && a.modifier == .uturn)
    }

    static func basicPreconditions(_ a: RouteStep, _ b: RouteStep, _ c: StepContext) -> Bool {
        !a.instruction.hasRoundaboutType && !b.instruction.hasRoundaboutType && !a.isWaypoint && !b.isWaypoint
            && c.sameMode(a, b) && noBadUTurnCombination(a, b)
    }

    static func basicPreconditions(_ a: RouteStep, _ b: RouteStep, _ d: RouteStep, _ c: StepContext) -> Bool {
        !a.instruction.hasRoundaboutType && !b.instruction.hasRoundaboutType && !d.instruction.hasRoundaboutType
            && c.sameMode(a, b) && c.sameMode(b, d) && !(!noBadUTurnCombination(a, b) && !noBadUTurnCombination(b, d))
    }

    /// Folds `steps[j]` into `steps[i]` with the given strategies (combineRouteSteps).
    static func combine(_ steps: inout [RouteStep], _ i: Int, _ j: Int, instruction: (inout RouteStep, RouteStep) -> Void,
                        signage: Bool, lanes: Bool) {
        let after = steps[j]
        instruction(&steps[i], after)
        if signage {
            steps[i].adaptSignage(after)
            steps[i].rotaryNameID = after.rotaryNameID
        }
        if lanes {
            steps[i].front.lanesInTurn = after.front.lanesInTurn
            steps[i].front.firstLaneFromTheRight = after.front.firstLaneFromTheRight
            steps[i].front.laneCount = after.front.laneCount
            steps[i].front.laneText = after.front.laneText
        }
        steps[i].elongate(by: after)
        steps[j].invalidate()
    }

    /// `steps[j]` folded into `steps[i]` with nothing else changed (suppressStep).
    static func suppress(_ steps: inout [RouteStep], _ i: Int, _ j: Int) {
        combine(&steps, i, j, instruction: { _, _ in }, signage: false, lanes: false)
    }
}
