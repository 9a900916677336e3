/// In a run of turns close together, each with lanes, the lanes said for a turn are only those
/// that also lead to the next turn's lanes, so that the driver need not change lanes in a hurry
/// (OSRM's anticipateLaneChange, src/engine/guidance/lane_processing.cpp).
enum AnticipateLanes {
    /// Metres needed per lane changed.
    static let minDistanceForLaneChange = 200.0

    static func apply(_ steps: inout [RouteStep], _ c: StepContext) {
        func isShortWithLanes(_ s: RouteStep) -> Bool {
            guard !s.invalidated, s.front.lanesInTurn > 0 else { return false }
            let toCross = max(s.front.lanesToTheRight, s.front.lanesToTheLeft)
            return s.distance < Double(1 + toCross) * minDistanceForLaneChange
        }
        var runs = [Range<Int>]()
        var i = 0
        while i < steps.count {
            guard isShortWithLanes(steps[i]) else { i += 1; continue }
            let start = i
            while i < steps.count && isShortWithLanes(steps[i]) { i += 1 }
            if i - start > 1 { runs.append(start..<i) }
        }
        var straightLeft = Set<Int>(), straightRight = Set<Int>()
        for run in runs {
            var toConstrained = 0.0
            for cur in stride(from: run.upperBound - 1, to: run.lowerBound, by: -1) {
                let prev = cur - 1
                let curLanes = steps[cur].front, prevLanes = steps[prev].front
                let prevInst = steps[prev].instruction, curInst = steps[cur].instruction
                if prevInst.kind == .suppressed { toConstrained += steps[prev].distance } else { toConstrained = 0 }
                let delta = prevLanes.lanesInTurn - curLanes.lanesInTurn
                let canMakeAll = toConstrained > Double(delta) * minDistanceForLaneChange
                guard prevLanes.lanesInTurn > 1, prevLanes.lanesInTurn > curLanes.lanesInTurn, !canMakeAll else { continue }
                if !prevInst.isLeftTurn && !prevInst.isRightTurn {
                    if curInst.isLeftTurn || straightLeft.contains(cur) {
                        straightLeft.insert(prev)
                    } else if curInst.isRightTurn || straightRight.contains(cur) {
                        straightRight.insert(prev)
                    }
                }
                var first = prevLanes.firstLaneFromTheRight
                let keepLeft = curInst.isLeftTurn || (!curInst.isRightTurn && straightLeft.contains(cur))
                if keepLeft {
                    first = first + prevLanes.lanesInTurn - curLanes.lanesInTurn - min(curLanes.lanesToTheLeft, curLanes.lanesInTurn)
                } else {
                    // (keeping straight is kept to the right where nothing says otherwise:
                    // right-hand traffic, as OSRM)
                    first += min(curLanes.lanesToTheRight, curLanes.lanesInTurn)
                }
                steps[prev].front.lanesInTurn = curLanes.lanesInTurn
                steps[prev].front.firstLaneFromTheRight = max(0, first)
                if prevInst.kind == .suppressed && curInst.kind == .suppressed && c.sameMode(steps[prev], steps[cur])
                    && steps[prev].front.lanesInTurn == curLanes.lanesInTurn
                    && steps[prev].front.firstLaneFromTheRight == curLanes.firstLaneFromTheRight {
                    steps[prev].elongate(by: steps[cur])
                    steps[cur].invalidate()
                }
            }
        }
        steps.removeInvalidated()
    }
}
