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
            courseKnown: p.courseDegrees != nil,
            courseOff: p.courseDegrees.map { abs(Angle.difference(from: pos.bearingDegrees, to: $0)) } ?? 0,
            courseOffSigned: p.courseDegrees.map { Angle.difference(from: pos.bearingDegrees, to: $0) } ?? 0,
            nearestManeuverMeters: nearest,
            matchedOnRoute: lastMatchedEdge.map { roads.contains($0.edge) }, unbiasedOnRoute: lastUnbiasedEdge.map { roads.contains($0.edge) },
            time: p.time, limitMeters: config.offRouteDistanceMeters)
    }
}
