import Geo

/// When the car has reached the end of a leg (its waypoint or the destination). One rule, asked
/// at every position while guiding:
/// - along the route: within `arrivalDistanceMeters` of the leg's end, or, within 60 m of it and
///   with no turn left before it, near the end point or there within `arrivalSeconds` at the
///   car's speed (Mapbox's arrivalInMeters / arrivalInSeconds);
/// - or stopped or slow (`arrivalSlowMetersPerSecond`) within `arrivalPointMeters` of the point
///   the driver asked for, in a straight line, wherever the route's snapped end lies: across a
///   divided road the route may end 200 m further on, on the far carriageway, and a driver who
///   has pulled up beside the destination has arrived;
/// - and never on a position dead-reckoned longer than `arrivalMaxEstimatedSeconds`.
struct ArrivalRule {
    let config: NavigatorConfig
    /// The along-route rule by time or by the end point holds only this near the end.
    static let nearEndMeters = 60.0

    /// Where the car is, as the rule reads it.
    struct Situation {
        /// Metres along the route to the leg's end.
        var legLeftMeters: Double
        var position: Coordinate
        var speedMetersPerSecond: Double?
        /// The leg's end on the road, and the point the driver asked for.
        var routeEnd: Coordinate
        var requested: Coordinate
        /// A turn the prompt plan announces still lies between the car and the end (asked only
        /// within `nearEndMeters` of it).
        var turnAhead: Bool
        /// How long the position has been dead-reckoned (0 on a real fix).
        var deadReckonedSeconds: Double
    }

    func arrived(_ s: Situation) -> Bool {
        guard s.deadReckonedSeconds <= config.arrivalMaxEstimatedSeconds else { return false }
        if s.legLeftMeters <= config.arrivalDistanceMeters { return true }
        let secondsLeft = s.legLeftMeters / max(s.speedMetersPerSecond ?? 0, 0.1)
        // (with a turn still ahead, only the distance: "you have arrived" is not said before the
        // turn into the destination's street)
        if s.legLeftMeters < ArrivalRule.nearEndMeters, !s.turnAhead,
           s.position.distance(to: s.routeEnd) <= config.arrivalDistanceMeters || secondsLeft <= config.arrivalSeconds {
            return true
        }
        guard let v = s.speedMetersPerSecond else { return false }
        return v <= config.arrivalSlowMetersPerSecond && s.position.distance(to: s.requested) <= config.arrivalPointMeters
    }
}
