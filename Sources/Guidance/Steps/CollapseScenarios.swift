/// Which short sequences of steps a driver perceives as one maneuver (OSRM's
/// collapse_scenario_detection.cpp). `prior` is the step before `entering`, `leaving` the one
/// after it; `entering.distance` is the way between the two maneuvers.
enum CollapseScenario {
    static let maxLinkRoadLength = 2 * Collapsing.maxCollapseDistance

    /// A short unnamed link between two named roads, past nodes of two roads only.
    static func isLinkRoad(_ pre: RouteStep, _ link: RouteStep, _ post: RouteStep) -> Bool {
        link.distance <= maxLinkRoadLength && link.nameID == 0 && pre.nameID != 0 && post.nameID != 0
            && Collapsing.noIntermediaryIntersections(link)
    }

    /// A zig-zag of a few metres (left then right, or right then left): straight on.
    static func isStaggeredIntersection(_ prior: RouteStep, _ entering: RouteStep, _ leaving: RouteStep) -> Bool {
        if entering.instruction.entersRoundabout || leaving.instruction.entersRoundabout { return false }
        func angle(_ s: RouteStep) -> Double { s.front.turnAngle ?? 180 }
        func right(_ a: Double) -> Bool { a > 45 && a < 135 }
        func left(_ a: Double) -> Bool { a > 225 && a < 315 }
        let zigZag = (left(angle(entering)) && right(angle(leaving))) || (right(angle(entering)) && left(angle(leaving)))
        let modeChangeBetween = prior.onFerry == leaving.onFerry && entering.onFerry != leaving.onFerry
        let modeChangeEntering = prior.onFerry != entering.onFerry
        return entering.distance < 3 && zigZag && !modeChangeBetween && !modeChangeEntering && Collapsing.noIntermediaryIntersections(entering)
    }

    /// Two turns onto the road the car came on, the other way: one u-turn.
    static func isUTurn(_ prior: RouteStep, _ entering: RouteStep, _ leaving: RouteStep, _ c: StepContext) -> Bool {
        guard Collapsing.basicPreconditions(prior, entering, leaving, c) else { return false }
        guard entering.type == .turn || entering.type == .continue || entering.type == .endOfRoad else { return false }
        guard let i = entering.front.inBearing, let o = leaving.front.outBearing,
              Collapsing.bearingsAreReversed(TurnAngle.reverse(i), o) else { return false }
        guard c.haveSameName(prior, leaving) else { return false }
        return Collapsing.isShortAndUndisturbed(entering) || isLinkRoad(prior, entering, leaving)
            || (Collapsing.allowedTurns(leaving) == 1 && Collapsing.noIntermediaryIntersections(entering))
    }

    /// A → B → A: a bridge or tunnel named apart, not worth saying.
    static func isNameOscillation(_ prior: RouteStep, _ entering: RouteStep, _ leaving: RouteStep, _ c: StepContext) -> Bool {
        guard Collapsing.basicPreconditions(prior, entering, leaving, c) else { return false }
        let enteringChange = entering.type == .newName || (entering.type == .turn && entering.modifier == .straight)
        let leavingChange = leaving.type == .newName || (leaving.type == .suppressed && leaving.nameID == 0 && leaving.refID == 0)
            || (leaving.type == .turn && leaving.modifier == .straight)
        guard enteringChange && leavingChange else { return false }
        return (prior.nameID == leaving.nameID && prior.refID == leaving.refID) || c.haveSameName(prior, leaving)
    }

    static func isNameChange(_ s: RouteStep) -> Bool {
        s.type == .newName || ((s.type == .turn || s.type == .continue) && s.modifier == .straight)
    }

    static func isManeuver(_ s: RouteStep) -> Bool { s.hasTurnType && s.type != .suppressed }

    /// A name change just before a turn, where the road only widened.
    static func maneuverPrecededByNameChange(_ prior: RouteStep, _ entering: RouteStep, _ leaving: RouteStep, _ c: StepContext) -> Bool {
        Collapsing.basicPreconditions(prior, entering, leaving, c) && Collapsing.isShortAndUndisturbed(entering)
            && isNameChange(entering) && isManeuver(leaving)
    }

    static func maneuverPrecededBySuppressedDirection(_ entering: RouteStep, _ leaving: RouteStep, _ c: StepContext) -> Bool {
        Collapsing.basicPreconditions(entering, leaving, c) && Collapsing.isShortAndUndisturbed(entering)
            && entering.type == .suppressed && entering.modifier != .straight && isManeuver(leaving)
            && Collapsing.sameSide(entering, leaving) && Collapsing.allowedTurns(entering) > 1
    }

    /// Two short straight-on pieces between two turns: the turns are one.
    static func suppressedStraightBetweenTurns(_ entering: RouteStep, _ center: RouteStep, _ leaving: RouteStep, _ c: StepContext) -> Bool {
        guard Collapsing.basicPreconditions(entering, center, leaving, c) else { return false }
        let limit = 0.8 * Collapsing.maxCollapseDistance
        guard entering.distance < limit, center.distance < limit else { return false }
        let a = entering.distance, b = center.distance
        let similar = (a < 5 && b < 5) || min(a, b) / max(a, b) > 0.75
        let types = center.type == .suppressed && center.modifier == .straight
            && (entering.type == .turn || entering.type == .continue)
            && (leaving.type == .turn || leaving.type == .continue || leaving.type == .onRamp)
        let total = Collapsing.totalTurnAngle(entering, leaving)
        return similar && types && total > 40 && total < 320
    }

    static func maneuverSucceededByNameChange(_ entering: RouteStep, _ leaving: RouteStep, _ c: StepContext) -> Bool {
        guard Collapsing.basicPreconditions(entering, leaving, c) else { return false }
        let strong = leaving.type == .newName && leaving.modifier == .straight && entering.distance <= 1.5 * Collapsing.maxCollapseDistance
        let choiceless = leaving.type == .newName && Collapsing.allowedTurns(leaving) == 1
            && entering.distance <= 1.5 * Collapsing.maxCollapseDistance
        return (Collapsing.isShortAndUndisturbed(entering) || strong || choiceless) && isNameChange(leaving) && isManeuver(entering)
    }

    static func maneuverSucceededBySuppressedDirection(_ entering: RouteStep, _ leaving: RouteStep, _ c: StepContext) -> Bool {
        Collapsing.basicPreconditions(entering, leaving, c) && Collapsing.isShortAndUndisturbed(entering)
            && leaving.type == .suppressed && leaving.modifier != .straight && isManeuver(entering) && Collapsing.sameSide(entering, leaving)
    }

    static func nameChangeImmediatelyAfterSuppressed(_ entering: RouteStep, _ leaving: RouteStep, _ c: StepContext) -> Bool {
        Collapsing.basicPreconditions(entering, leaving, c) && entering.distance < 0.25 * Collapsing.maxCollapseDistance
            && entering.type == .suppressed && leaving.type == .newName
    }

    static func closeChoicelessTurnAfterTurn(_ entering: RouteStep, _ leaving: RouteStep, _ c: StepContext) -> Bool {
        Collapsing.basicPreconditions(entering, leaving, c) && Collapsing.isShortAndUndisturbed(entering)
            && entering.modifier != .straight && Collapsing.allowedTurns(leaving) == 1 && leaving.type != .suppressed
    }

    /// Turn roads meeting in the middle of a divided road's junction.
    static func doubleChoiceless(_ entering: RouteStep, _ leaving: RouteStep, _ c: StepContext) -> Bool {
        Collapsing.basicPreconditions(entering, leaving, c) && Collapsing.allowedTurns(leaving) == 1 && entering.intersectionCount == 2
            && entering.firstPassedAllowed == 1 && entering.distance < 1.5 * Collapsing.maxCollapseDistance
    }

    /// "Straight on" just before a turn with no other way: the turn, said at the first.
    static func straightTurnFollowedByChoiceless(_ entering: RouteStep, _ leaving: RouteStep, _ c: StepContext) -> Bool {
        Collapsing.basicPreconditions(entering, leaving, c) && entering.distance <= 2 * Collapsing.maxCollapseDistance
            && (entering.type == .continue || entering.type == .turn) && entering.modifier == .straight && Collapsing.allowedTurns(leaving) == 1
            && Collapsing.noIntermediaryIntersections(entering)
    }
}
