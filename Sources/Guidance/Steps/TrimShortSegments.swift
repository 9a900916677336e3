/// A first or last step of a metre or less is no instruction (OSRM's trimShortSegments,
/// post_processing.cpp): a route that starts or ends on a junction's node would say "turn right"
/// a few centimetres from the start, or just before arriving. The depart then sets off on the
/// road of the step it replaces; the arrival takes the road of the step before the one dropped.
enum TrimShortSegments {
    static func apply(_ steps: inout [RouteStep], _ c: StepContext) {
        guard steps.count >= 2 else { return }
        if steps.count > 2 && steps[0].distance <= 1 {
            var d = steps[1]
            d.distance += steps[0].distance
            d.duration += steps[0].duration
            d.waypoint = .depart
            d.instruction = .noTurn
            d.bearingBefore = 0
            d.geometryBegin = steps[0].geometryBegin
            d.front = .waypoint(in: nil, out: d.front.outBearing ?? d.bearingAfter)
            steps.removeFirst()
            steps[0] = d
        }
        let n = steps.count
        if n > 2 && steps[n - 2].distance <= 1 {
            // (the arrival stays where the dropped turn was; the step before names the road)
            var arrive = steps[n - 2]
            let before = steps[n - 3]
            arrive.waypoint = .arrive
            arrive.instruction = .noTurn
            arrive.bearingAfter = 0
            arrive.front = .waypoint(in: arrive.front.inBearing ?? TurnAngle.reverse(arrive.bearingBefore), out: nil)
            arrive.passed = 0
            arrive.passedOnlyTwoRoads = true
            arrive.adaptSignage(before)
            arrive.onFerry = before.onFerry
            arrive.distance = 0
            arrive.geometryEnd = arrive.geometryBegin + 1
            steps[n - 3].distance += steps[n - 2].distance
            steps[n - 3].duration += steps[n - 2].duration
            steps.removeLast()
            steps[n - 2] = arrive
        }
    }
}
