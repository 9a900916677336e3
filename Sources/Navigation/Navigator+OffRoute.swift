import Geo
import Guidance
import MapData
import Positioning

/// What the off-route policies read of a position (OffRouteMonitor judges it).
extension Navigator {
    func offRouteSituation(_ p: FilteredPosition, _ pos: LegPosition, _ g: Guidance, maneuvers: [Maneuver]) -> OffRouteSituation {
        let roads = g.tracker.legRoads[g.legIndex]
        var nearest = Double.infinity
        for m in maneuvers where m.type != .depart { nearest = min(nearest, abs(m.distanceFromStartMeters - g.tracker.alongMeters)) }
        return OffRouteSituation(
            distanceMeters: pos.distanceMeters,
            besideMeters: p.estimated ? pos.distanceMeters : bias.corrected(signedMeters: pos.signedMeters, bearingDegrees: pos.bearingDegrees),
            accuracyMeters: p.accuracyMeters, speed: p.speedMetersPerSecond ?? 0,
            courseOff: p.courseDegrees.map { abs(Angle.difference(from: pos.bearingDegrees, to: $0)) } ?? 0,
            nearestManeuverMeters: nearest,
            matchedOnRoute: lastMatchedEdge.map { roads.contains($0.edge) }, unbiasedOnRoute: lastUnbiasedEdge.map { roads.contains($0.edge) },
            time: p.time, coordinate: p.coordinate, receiverCourseDegrees: p.receiverCourseDegrees, limitMeters: config.offRouteDistanceMeters)
    }

    /// The car drives more than 100° away from the way the route goes where it is, or from the
    /// way it leaves the maneuver passed in the last 30 m (a course known at over 2 m/s): it is
    /// not taking the road the route takes, whatever the off-route rules make of it yet. At a
    /// missed turn the car turned left onto Heltenstraße where the route turns right, and "In
    /// 200 metres, turn left onto L 600" for the road not taken was said 2 s before the
    /// off-route. (Plain lag of the course through a turn stays under the turn's angle.)
    func drivesAgainstRoute(_ p: FilteredPosition, _ situation: OffRouteSituation, _ g: Guidance, maneuvers: [Maneuver]) -> Bool {
        guard let course = p.courseDegrees, situation.speed > 2 else { return false }
        if situation.courseOff > 100 { return true }
        // (a turn at a junction: through a roundabout the car circles on, its course far from
        // the exit's bearing)
        let passed = g.tracker.nextManeuverIndex - 1
        guard passed >= 1, [.turn, .endOfRoad, .fork, .continue, .newName].contains(maneuvers[passed].type),
              g.tracker.alongMeters - maneuvers[passed].distanceFromStartMeters < 30 else { return false }
        return abs(Angle.difference(from: maneuvers[passed].bearingAfter, to: course)) > 100
    }
}
