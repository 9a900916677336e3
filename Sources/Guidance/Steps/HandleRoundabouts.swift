/// A roundabout becomes one step from entry to exit with the exit's number, and (but for a
/// "roundabout turn") the exit itself (OSRM's handleRoundabouts, processRoundaboutGroups and
/// processRoundaboutExits, src/engine/guidance/post_processing.cpp). Exits are counted per leg.
enum HandleRoundabouts {
    static func apply(_ steps: inout [RouteStep], _ c: StepContext) {
        guard let first = steps.firstIndex(where: { $0.instruction.hasRoundaboutType }) else { return }
        var onRoundabout = !steps[first].instruction.entersRoundabout
        // (the runs of steps on a roundabout, a state machine over the steps in order)
        func isOn(_ s: RouteStep) -> Bool {
            if onRoundabout {
                if s.instruction.leavesRoundabout { onRoundabout = false }
                return true
            }
            onRoundabout = s.instruction.entersRoundabout
            let result = onRoundabout
            if onRoundabout { onRoundabout = !s.instruction.leavesRoundabout }
            return result
        }
        var i = 0
        var runs = [Range<Int>]()
        while i < steps.count {
            guard isOn(steps[i]) else { i += 1; continue }
            let start = i
            i += 1
            while i < steps.count && isOn(steps[i]) { i += 1 }
            runs.append(start..<i)
        }
        for run in runs {
            var k = run.lowerBound
            while k < run.upperBound {
                if let exit = (k..<run.upperBound).first(where: { steps[$0].instruction.leavesRoundabout }) {
                    processExits(&steps, k..<(exit + 1))
                    k = exit + 1
                } else {
                    processExits(&steps, k..<run.upperBound)
                    k = run.upperBound
                }
            }
        }
        steps.removeInvalidated()
    }

    static func processExits(_ steps: inout [RouteStep], _ range: Range<Int>) {
        let begin = range.lowerBound, last = range.upperBound - 1
        let rotaryTypes: [TurnInstruction.Kind] = [.enterRotary, .enterRotaryAtExit]
        let intersectionTypes: [TurnInstruction.Kind] = [.enterRoundaboutIntersection, .enterRoundaboutIntersectionAtExit]
        if !steps[last].instruction.leavesRoundabout {
            // the leg ends on the ring
            if rotaryTypes.contains(steps[begin].type) {
                steps[begin].rotaryNameID = steps[begin].nameID
            } else if intersectionTypes.contains(steps[begin].type) {
                steps[begin].type = .enterRoundabout
            }
            compress(&steps, begin, range.upperBound)
            return
        }
        let exit = range.filter { steps[$0].instruction.staysOnRoundabout || steps[$0].instruction.leavesRoundabout }.count
        steps[last].exit = exit
        if steps[begin].instruction.entersRoundabout {
            steps[begin].exit = exit
            if rotaryTypes.contains(steps[begin].type) {
                steps[begin].rotaryNameID = steps[begin].nameID
            } else if intersectionTypes.contains(steps[begin].type) {
                let entry = steps[begin].front, out = steps[last].front
                if let i = entry.inBearing, let o = out.outBearing {
                    steps[begin].modifier = TurnAngle.direction(TurnAngle.between(entry: TurnAngle.reverse(i), exit: o))
                }
            }
            steps[begin].adaptSignage(steps[last])
        }
        if intersectionTypes.contains(steps[begin].type) && steps[begin].onFerry == steps[last].onFerry {
            compress(&steps, begin, range.upperBound)
        } else {
            compress(&steps, begin, last)
        }
    }

    /// Folds the steps of (begin, end) into begin; the arrival is never folded.
    static func compress(_ steps: inout [RouteStep], _ begin: Int, _ end: Int) {
        guard begin < end else { return }
        for k in (begin + 1)..<end where !steps[k].isWaypoint {
            steps[begin].elongate(by: steps[k])
            steps[k].invalidate()
        }
    }
}
