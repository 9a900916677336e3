/// Suppressed steps become junctions passed on the way of the step before; "at the end of the
/// road" is said only after passing other junctions (OSRM's buildIntersections,
/// post_processing.cpp: right after the previous maneuver it is a plain turn).
enum BuildIntersections {
    static func apply(_ steps: inout [RouteStep], _ c: StepContext) {
        var lastValid = 0
        for i in steps.indices {
            if steps[i].type == .suppressed {
                steps[lastValid].elongate(by: steps[i])
                steps[i].invalidate()
            } else if !steps[i].instruction.isSilent {
                if steps[i].type == .endOfRoad && !steps[i].overridden {
                    let previous = steps[lastValid]
                    if previous.intersectionCount < Collapsing.minEndOfRoadIntersections {
                        let sameName = !(steps[i].nameID == 0 && steps[i].refID == 0) && !c.requiresAnnouncement(previous, steps[i])
                        steps[i].type = sameName ? .continue : .turn
                    }
                }
                lastValid = i
            }
        }
        steps.removeInvalidated()
    }
}
