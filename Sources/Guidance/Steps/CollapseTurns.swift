/// Folds short sequences of steps that a driver perceives as one maneuver (OSRM's
/// collapseTurnInstructions and handleSliproad, src/engine/guidance/collapse_turns.cpp).
enum CollapseTurns {
    static func apply(_ steps: inout [RouteStep], _ c: StepContext) {
        guard steps.count > 2 else { return }
        var current = 1
        while current + 1 < steps.count {
            defer { current += 1 }
            if steps[current].instruction.entersRoundabout || steps[current].instruction.staysOnRoundabout { continue }
            if !steps[current].hasTurnType { continue }
            if steps[current].type == .sliproad {
                handleSliproad(&steps, current, c)
                continue
            }
            let next = steps.nextTurn(current)
            if steps[next].isWaypoint { break }
            let previous = steps.previousTurn(current)
            if steps[current].onFerry != steps[next].onFerry { continue }
            let p = steps[previous], cur = steps[current], n = steps[next]
            if CollapseScenario.isStaggeredIntersection(p, cur, n) {
                Collapsing.combine(&steps, current, next, instruction: CombineStrategy.staggeredTurn(prior: p, c), signage: true, lanes: false)
            } else if CollapseScenario.isUTurn(p, cur, n, c) {
                Collapsing.combine(&steps, current, next, instruction: CombineStrategy.fixed(TurnInstruction(.continue, .uturn)),
                                   signage: true, lanes: false)
            } else if CollapseScenario.isNameOscillation(p, cur, n, c) {
                Collapsing.suppress(&steps, current, next)
                Collapsing.suppress(&steps, previous, current)
            } else if CollapseScenario.maneuverPrecededByNameChange(p, cur, n, c)
                        || CollapseScenario.maneuverPrecededBySuppressedDirection(cur, n, c) {
                CombineStrategy.adjustToCombinedTurn(prior: p, c)(&steps[next], steps[current])
                Collapsing.suppress(&steps, previous, current)
            } else if CollapseScenario.maneuverSucceededByNameChange(cur, n, c) || CollapseScenario.nameChangeImmediatelyAfterSuppressed(cur, n, c)
                        || CollapseScenario.maneuverSucceededBySuppressedDirection(cur, n, c)
                        || CollapseScenario.closeChoicelessTurnAfterTurn(cur, n, c)
                        || CollapseScenario.straightTurnFollowedByChoiceless(cur, n, c) {
                Collapsing.combine(&steps, current, next, instruction: CombineStrategy.adjustToCombinedTurn(prior: p, c), signage: true,
                                   lanes: false)
            } else if CollapseScenario.suppressedStraightBetweenTurns(p, cur, n, c) {
                let farBack = steps.previousTurn(previous)
                steps[previous].elongate(by: steps[current])
                steps[current].invalidate()
                Collapsing.combine(&steps, previous, next, instruction: CombineStrategy.adjustToCombinedTurn(prior: steps[farBack], c),
                                   signage: true, lanes: false)
            }
            // second chances, found only after a first collapse
            let newNext = steps.nextTurn(current)
            if newNext < steps.count, CollapseScenario.doubleChoiceless(steps[current], steps[newNext], c) {
                Collapsing.combine(&steps, current, newNext, instruction: CombineStrategy.adjustToCombinedTurn(prior: steps[previous], c),
                                   signage: true, lanes: false)
            }
            if !steps[previous].isWaypoint {
                let farBack = steps.previousTurn(previous)
                if CollapseScenario.isUTurn(steps[farBack], steps[previous], steps[current], c) {
                    Collapsing.combine(&steps, previous, current, instruction: CombineStrategy.fixed(TurnInstruction(.continue, .uturn)),
                                       signage: true, lanes: false)
                }
            }
        }
    }

    /// The turn onto a sliproad and the turn at its end are one: said at the sliproad, in the
    /// direction of both, with the lanes at its end.
    static func handleSliproad(_ steps: inout [RouteStep], _ i: Int, _ c: StepContext) {
        var next = steps.nextTurn(i)
        while next < steps.count - 1 && Collapsing.isTrafficLight(steps[next]) {
            steps[i].elongate(by: steps[next])
            steps[next].invalidate()
            next = steps.nextTurn(next)
        }
        if steps[next].isWaypoint {
            steps[i].type = .turn
            return
        }
        let previous = steps.previousTurn(i)
        steps[i].type = c.haveSameName(steps[previous], steps[next]) ? .continue : .turn
        Collapsing.combine(&steps, i, next, instruction: { at, from in CombineStrategy.adjustToCombinedTurnAngle(&at, from) },
                           signage: true, lanes: true)
    }
}
