import Guidance
import JSONLines

/// Where the car is along the route: route → leg → step, with what remains of each.
public struct RouteProgress: Sendable, Equatable {
    public var legIndex: Int
    /// Index of the maneuver whose step the car is on (0 = after depart).
    public var stepIndex: Int
    /// Metres driven along the current leg.
    public var legDistanceTraveledMeters: Double
    public var legRemainingMeters: Double
    public var legRemainingSeconds: Double
    /// What remains of the current step (to the next maneuver), at free flow or the route's traffic.
    public var stepRemainingMeters: Double
    public var stepRemainingSeconds: Double
    /// Whole route remaining (this leg and the following ones).
    public var remainingMeters: Double
    public var remainingSeconds: Double
    /// The next maneuver and how far it is.
    public var nextManeuver: Maneuver?
    public var nextInstruction: String
    public var distanceToNextMeters: Double
    /// Distance from the car to the route line, metres.
    public var distanceFromRouteMeters: Double

    var jsonFields: [(String, JSONValue)] {
        [("leg", .int(legIndex)), ("step", .int(stepIndex)),
         ("remaining_m", .num(remainingMeters, 0)), ("remaining_s", .num(remainingSeconds, 0)),
         ("leg_remaining_m", .num(legRemainingMeters, 0)), ("leg_remaining_s", .num(legRemainingSeconds, 0)),
         ("step_remaining_m", .num(stepRemainingMeters, 0)), ("step_remaining_s", .num(stepRemainingSeconds, 0)),
         ("next", .string(nextManeuver.map(\.osrmTurn) ?? "")), ("instruction", .string(nextInstruction)),
         ("distance_to_next_m", .num(distanceToNextMeters, 0))]
            // the lanes at the next maneuver, where the map has them (a display draws them)
            + (nextManeuver.map { $0.lanes.isEmpty ? [] : [("lanes", Lane.json($0.lanes))] } ?? [])
    }
}

extension Lane {
    /// Lanes as OSRM writes them: `[{"indications": ["left"], "valid": true}, ...]`, left to right.
    public static func json(_ lanes: [Lane]) -> JSONValue {
        .array(lanes.map { .object([("indications", .array($0.indications.map { .string($0) })), ("valid", .bool($0.valid))]) })
    }
}
