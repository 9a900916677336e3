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
            // (the steps are read in place: copying three of them per step cost more than the tests)
            let found = steps.withUnsafeBufferPointer { scenario($0[previous], $0[current], $0[next], c) }
            switch found {
            case .none:
                break
            case .staggered:
                Collapsing.combine(&steps, current, next, instruction: CombineStrategy.staggeredTurn(prior: steps[previous], c),
                                   signage: true, lanes: false)
            case .uTurn:
                Collapsing.combine(&steps, current, next, instruction: CombineStrategy.fixed(TurnInstruction(.continue, .uturn)),
                                   signage: true, lanes: false)
            case .nameOscillation:
                Collapsing.suppress(&steps, current, next)
                Collapsing.suppress(&steps, previous, current)
            case .turnAtTheSecond:
                CombineStrategy.adjustToCombinedTurn(prior: steps[previous], c)(&steps[next], steps[current])
                Collapsing.suppress(&steps, previous, current)
            case .turnAtTheFirst:
                Collapsing.combine(&steps, current, next, instruction: CombineStrategy.adjustToCombinedTurn(prior: steps[previous], c),
                                   signage: true, lanes: false)
            case .straightBetweenTurns:
                let farBack = steps.previousTurn(previous)
                steps[previous].elongate(by: steps[current])
                steps[current].invalidate()
                Collapsing.combine(&steps, previous, next, instruction: CombineStrategy.adjustToCombinedTurn(prior: steps[farBack], c),
                                   signage: true, lanes: false)
            }
            // second chances, found only after a first collapse
            let newNext = steps.nextTurn(current)
            if newNext < steps.count, steps.withUnsafeBufferPointer({ CollapseScenario.doubleChoiceless($0[current], $0[newNext], c) }) {
                Collapsing.combine(&steps, current, newNext, instruction: CombineStrategy.adjustToCombinedTurn(prior: steps[previous], c),
                                   signage: true, lanes: false)
            }
            if !steps[previous].isWaypoint {
                let farBack = steps.previousTurn(previous)
                if steps.withUnsafeBufferPointer({ CollapseScenario.isUTurn($0[farBack], $0[previous], $0[current], c) }) {
                    Collapsing.combine(&steps, previous, current, instruction: CombineStrategy.fixed(TurnInstruction(.continue, .uturn)),
                                       signage: true, lanes: false)
                }
            }
        }
    }

    /// What a turn and the next make together, first match in OSRM's order.
    enum Found {
        case none, staggered, uTurn, nameOscillation
        /// One turn, said at the second step (the first was only a name change or a suppressed bend).
        case turnAtTheSecond
        /// One turn, said at the first step.
        case turnAtTheFirst
        /// Two short straight-on pieces between two turns.
        case straightBetweenTurns
    }

    static func scenario(_ p: RouteStep, _ cur: RouteStep, _ n: RouteStep, _ c: StepContext) -> Found {
        if CollapseScenario.isStaggeredIntersection(p, cur, n) { return .staggered }
        if CollapseScenario.isUTurn(p, cur, n, c) { return .uTurn }
        if CollapseScenario.isNameOscillation(p, cur, n, c) { return .nameOscillation }
        if CollapseScenario.maneuverPrecededByNameChange(p, cur, n, c) || CollapseScenario.maneuverPrecededBySuppressedDirection(cur, n, c) {
            return .turnAtTheSecond
        }
        if CollapseScenario.maneuverSucceededByNameChange(cur, n, c) || CollapseScenario.nameChangeImmediatelyAfterSuppressed(cur, n, c)
            || CollapseScenario.maneuverSucceededBySuppressedDirection(cur, n, c) || CollapseScenario.closeChoicelessTurnAfterTurn(cur, n, c)
            || CollapseScenario.straightTurnFollowedByChoiceless(cur, n, c) {
            return .turnAtTheFirst
        }
        if CollapseScenario.suppressedStraightBetweenTurns(p, cur, n, c) { return .straightBetweenTurns }
        return .none
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
