import Geo

/// OSRM's maneuver vocabulary.
public enum ManeuverType: String, Sendable, CaseIterable {
    case depart, arrive, turn, newName = "new name", `continue`, merge
    case onRamp = "on ramp", offRamp = "off ramp", fork, endOfRoad = "end of road"
    case roundabout, rotary, roundaboutTurn = "roundabout turn", exitRoundabout = "exit roundabout"
    case exitRotary = "exit rotary", notification
}

public enum ManeuverModifier: String, Sendable, CaseIterable {
    case uturn, sharpRight = "sharp right", right, slightRight = "slight right", straight
    case slightLeft = "slight left", left, sharpLeft = "sharp left"

    /// The modifier for a turn angle in degrees (positive is clockwise, i.e. to the right).
    public init(turnAngle a: Double) {
        let m = abs(a)
        if m < 20 { self = .straight; return }
        if m >= 170 { self = .uturn; return }
        if a > 0 { self = m < 60 ? .slightRight : (m < 135 ? .right : .sharpRight) } else {
            self = m < 60 ? .slightLeft : (m < 135 ? .left : .sharpLeft)
        }
    }

    public var isLeft: Bool { self == .left || self == .slightLeft || self == .sharpLeft }
    public var isRight: Bool { self == .right || self == .slightRight || self == .sharpRight }
}

/// Which side of the road the destination lies on.
public enum Side: String, Sendable { case left, right }

/// One instruction along a route leg.
public struct Maneuver: Sendable, Equatable {
    public var type: ManeuverType
    public var modifier: ManeuverModifier?
    /// Roundabout exit number (1 is the first exit), for roundabout types.
    public var exit: Int?
    /// Name of the road taken (or its ref), "" when unnamed.
    public var street: String
    public var ref: String
    /// Where the maneuver happens.
    public var location: Coordinate
    /// Index into the leg's shape and distance from the leg's start, metres.
    public var shapeIndex: Int
    public var distanceFromStartMeters: Double
    /// Distance from this maneuver to the next one (the step length), metres.
    public var stepDistanceMeters: Double
    public var stepDurationSeconds: Double
    /// Road bearing before and after, degrees.
    public var bearingBefore: Double
    public var bearingAfter: Double
    /// Side of the street on arrival.
    public var side: Side?
    /// Landmark at the maneuver ("traffic signals"), when there is an unambiguous one.
    public var landmark: Landmark?
    /// The road taken is the road the car is on (by its name, or by its ref where it has none):
    /// said "turn right to stay on B", not "onto B". Set for OSRM's "continue".
    public var staysOnRoad = false
    /// An arrival at an intermediate stop, not the destination.
    public var isWaypoint = false
    /// The road taken from here on is a ferry (OSRM's mode "ferry"; else "driving").
    public var onFerry = false
    /// What the signs say the road taken leads to ("A 5, Frankfurt"), "" where nothing is signed.
    public var destination = ""
    /// The motorway exit number where the maneuver leaves ("12"), "" where there is none.
    public var exitNumber = ""
    /// The lanes of the road coming in at the maneuver, left to right, with those that lead where
    /// the route goes marked valid (OSRM's intersection lanes); empty where none are mapped.
    public var lanes: [Lane] = []
    /// No other road meets the junction: the road only bends onto a new name. Said without a
    /// direction ("continue onto B", never "turn left onto B" where there is nothing to turn into).
    public var atBend = false
    /// The leg's edge the maneuver leads onto (0 for depart).
    var edgeIndex = 0
    /// The name of a rotary (a large named roundabout), for the `rotary` type.
    public var rotaryName = ""

    public init(type: ManeuverType, modifier: ManeuverModifier?, exit: Int? = nil, street: String, ref: String = "",
                location: Coordinate, shapeIndex: Int, distanceFromStartMeters: Double, stepDistanceMeters: Double = 0,
                stepDurationSeconds: Double = 0, bearingBefore: Double = 0, bearingAfter: Double = 0, side: Side? = nil,
                landmark: Landmark? = nil) {
        self.type = type
        self.modifier = modifier
        self.exit = exit
        self.street = street
        self.ref = ref
        self.location = location
        self.shapeIndex = shapeIndex
        self.distanceFromStartMeters = distanceFromStartMeters
        self.stepDistanceMeters = stepDistanceMeters
        self.stepDurationSeconds = stepDurationSeconds
        self.bearingBefore = bearingBefore
        self.bearingAfter = bearingAfter
        self.side = side
        self.landmark = landmark
    }

    /// Whether the driver hears this maneuver announced: the exit of a roundabout is part of
    /// its entry instruction; the departure is said when the route starts.
    public var isSpoken: Bool { type != .exitRoundabout && type != .exitRotary && type != .depart }

    /// Nothing to do but drive on: a new name straight ahead, or where the road only bends.
    public var isNameChangeOnly: Bool { type == .newName && (modifier == nil || modifier == .straight || atBend) }

    /// "turn left", "roundabout-exit-2", "depart": the form OSRM's feature files use.
    public var osrmTurn: String {
        switch type {
        case .depart, .arrive: return type.rawValue
        case .roundabout, .rotary:
            let noun = type == .rotary && !rotaryName.isEmpty ? rotaryName : type.rawValue
            return "\(noun)-exit-\(exit.map(String.init) ?? "undefined")"
        case .roundaboutTurn:
            return "\(type.rawValue) \(modifier?.rawValue ?? "straight") exit-\(exit.map(String.init) ?? "undefined")"
        default:
            if let m = modifier { return "\(type.rawValue) \(m.rawValue)" }
            return type.rawValue
        }
    }
}

/// One lane of the road coming in at a maneuver.
public struct Lane: Sendable, Equatable {
    /// Its arrows in OSRM's words ("left", "straight", "slight right", "uturn", "none").
    public var indications: [String]
    /// Whether the lane leads where the route goes.
    public var valid: Bool

    public init(indications: [String], valid: Bool) {
        self.indications = indications
        self.valid = valid
    }

    /// "left:true", "straight;right:false": the form OSRM's feature files use.
    public var osrmText: String { indications.joined(separator: ";") + ":" + (valid ? "true" : "false") }
}

/// Which lanes to use, as said: the valid lanes are next to each other at the left or right edge,
/// or in the middle, while others are not valid (nothing to say when every lane will do, or when
/// the valid lanes are apart).
public struct LaneAdvice: Sendable, Equatable {
    public enum Position: String, Sendable { case left, right, middle }
    public var position: Position
    public var count: Int

    public init?(_ lanes: [Lane]) {
        guard let r = LaneAdvice.validRange(lanes.map(\.valid)), r.count < lanes.count else { return nil }
        count = r.count
        position = r.lowerBound == 0 ? .left : (r.upperBound == lanes.count - 1 ? .right : .middle)
    }

    /// The valid lanes when they are side by side (first...last), nil when none is valid or they
    /// are apart.
    public static func validRange(_ valid: [Bool]) -> ClosedRange<Int>? {
        guard let a = valid.firstIndex(of: true), let b = valid.lastIndex(of: true), valid[a...b].allSatisfy({ $0 }) else { return nil }
        return a...b
    }
}

/// Something the driver can see at a maneuver.
public enum Landmark: Sendable, Equatable {
    /// Traffic lights at the junction ("turn left at the traffic lights").
    case trafficSignals
    /// Traffic lights passed just before the junction ("turn left after the traffic lights").
    case trafficSignalsBefore
    case stopSign
    /// A named place at the corner, or just passed before it (`after`).
    case place(String, after: Bool)
}
