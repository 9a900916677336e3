/// A new name that holds for less than 105 m, or repeats the name already driven on, is not said
/// (OSRM's suppressShortNameSegments, src/engine/guidance/verbosity_reduction.cpp); a name
/// change with turn lanes to choose from is kept: the lanes are news.
enum SuppressShortNames {
    static func apply(_ steps: inout [RouteStep], _ c: StepContext) {
        guard steps.count > 2 else { return }
        var previous = 0, current = 1
        while current < steps.count && !steps[current].isWaypoint {
            let s = steps[current]
            if s.type == .newName && !s.front.hasLanes && !s.overridden && c.sameMode(steps[previous], s) {
                if c.haveSameName(steps[previous], s) || s.distance < Collapsing.nameSegmentCutoff {
                    steps[previous].elongate(by: s)
                    steps[current].invalidate()
                } else {
                    previous = current
                }
            } else {
                previous = current
            }
            current += 1
        }
        steps.removeInvalidated()
    }
}
