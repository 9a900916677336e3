/// The turn onto a piece inside a divided road's junction and the turn off it are one
/// instruction (OSRM's collapseSegregatedTurnInstructions, collapse_turns.cpp): "turn left", not
/// "turn left, then turn left" across the two carriageways; back onto the road the car came on,
/// a u-turn.
enum CollapseSegregated {
    static func apply(_ steps: inout [RouteStep], _ c: StepContext) {
        guard steps.count > 2 else { return }
        var current = 1, next = 2
        let last = steps.count - 1
        while next < last {
            let previous = steps.previousTurn(current)
            let cur = steps[current], n = steps[next]
            if cur.segregated && n.segregated {
                Collapsing.combine(&steps, current, next, instruction: CombineStrategy.combineSegregatedSteps, signage: true, lanes: true)
                next += 1
            } else if cur.segregated && !n.segregated && !cur.instruction.hasRoundaboutType && !n.instruction.hasRoundaboutType {
                let reversed: Bool
                if let i = cur.front.inBearing, let o = n.front.outBearing {
                    reversed = Collapsing.bearingsAreReversed(TurnAngle.reverse(i), o)
                } else {
                    reversed = false
                }
                if reversed {
                    Collapsing.combine(&steps, current, next, instruction: CombineStrategy.fixed(TurnInstruction(.continue, .uturn)),
                                       signage: true, lanes: false)
                } else {
                    Collapsing.combine(&steps, current, next, instruction: CombineStrategy.segregatedTurn(prior: steps[previous], c),
                                       signage: true, lanes: false)
                }
                steps[current].segregated = false
                next += 1
            } else {
                current = next
                next += 1
            }
        }
        steps.removeInvalidated()
    }
}
