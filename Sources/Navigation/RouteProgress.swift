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

    /// Its fields of a `progress` event, in order.
    func writeFields(to w: inout JSONWriter) {
        w.key("leg"); w.int(legIndex)
        w.key("step"); w.int(stepIndex)
        w.key("remaining_m"); w.number(remainingMeters, digits: 0)
        w.key("remaining_s"); w.number(remainingSeconds, digits: 0)
        w.key("leg_remaining_m"); w.number(legRemainingMeters, digits: 0)
        w.key("leg_remaining_s"); w.number(legRemainingSeconds, digits: 0)
        w.key("step_remaining_m"); w.number(stepRemainingMeters, digits: 0)
        w.key("step_remaining_s"); w.number(stepRemainingSeconds, digits: 0)
        w.key("next"); w.string(nextManeuver.map(\.osrmTurn) ?? "")
        w.key("instruction"); w.string(nextInstruction)
        w.key("distance_to_next_m"); w.number(distanceToNextMeters, digits: 0)
        // the lanes at the next maneuver, where the map has them (a display draws them)
        if let lanes = nextManeuver?.lanes, !lanes.isEmpty {
            w.key("lanes")
            w.value(Lane.json(lanes))
        }
    }
}

extension Lane {
    /// Lanes as OSRM writes them: `[{"indications": ["left"], "valid": true}, ...]`, left to right.
    public static func json(_ lanes: [Lane]) -> JSONValue {
        .array(lanes.map { .object([("indications", .array($0.indications.map { .string($0) })), ("valid", .bool($0.valid))]) })
    }
}
