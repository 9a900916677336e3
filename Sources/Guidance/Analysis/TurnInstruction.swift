/// OSRM's turn instruction: what is said for one turn of the edge-based graph, decided once at
/// import (include/guidance/turn_instruction.hpp). It packs into one byte, as OSRM stores it:
/// the type in the low five bits, the direction modifier in the high three.
public struct TurnInstruction: Sendable, Hashable {
    /// OSRM's TurnType, with its numbers (the map stores them). Types from `noTurn` on are silent
    /// in OSRM's sense: they exist for the engine's post-processing, never as a step of their own.
    public enum Kind: UInt8, Sendable, CaseIterable {
        case invalid = 0, newName, `continue`, turn, merge, onRamp, offRamp, fork, endOfRoad, notification
        case enterRoundabout = 10, enterAndExitRoundabout, enterRotary, enterAndExitRotary
        case enterRoundaboutIntersection = 14, enterAndExitRoundaboutIntersection
        // 16 was OSRM's UseLane, retired
        case noTurn = 17, suppressed, enterRoundaboutAtExit, exitRoundabout, enterRotaryAtExit, exitRotary
        case enterRoundaboutIntersectionAtExit = 23, exitRoundaboutIntersection, stayOnRoundabout, sliproad
    }

    /// OSRM's DirectionModifier, with its numbers.
    public enum Direction: UInt8, Sendable, CaseIterable {
        case uturn = 0, sharpRight, right, slightRight, straight, slightLeft, left, sharpLeft

        /// Left and right swapped (OSRM's mirrorDirectionModifier).
        public var mirrored: Direction {
            switch self {
            case .uturn, .straight: return self
            case .sharpRight: return .sharpLeft
            case .right: return .left
            case .slightRight: return .slightLeft
            case .slightLeft: return .slightRight
            case .left: return .right
            case .sharpLeft: return .sharpRight
            }
        }

        public var isLeft: Bool { self == .slightLeft || self == .left || self == .sharpLeft }
        public var isRight: Bool { self == .slightRight || self == .right || self == .sharpRight }
    }

    public var kind: Kind
    public var direction: Direction

    public init(_ kind: Kind, _ direction: Direction) {
        self.kind = kind
        self.direction = direction
    }

    public static let invalid = TurnInstruction(.invalid, .uturn)
    public static let noTurn = TurnInstruction(.noTurn, .uturn)

    /// The byte the map stores.
    public var packed: UInt8 { kind.rawValue | direction.rawValue << 5 }

    public init?(packed: UInt8) {
        guard let k = Kind(rawValue: packed & 0x1f), let d = Direction(rawValue: packed >> 5) else { return nil }
        self.init(k, d)
    }

    /// A u-turn said as one (OSRM's IsUTurn: any type but NoTurn with the u-turn modifier).
    public var isUTurn: Bool { kind != .noTurn && direction == .uturn }

    /// OSRM's isSilent: nothing is said here and no step begins.
    public var isSilent: Bool { kind == .noTurn || kind == .suppressed || kind == .stayOnRoundabout }

    public var isRamp: Bool { kind == .onRamp || kind == .offRamp }

    public var hasRoundaboutType: Bool {
        switch kind {
        case .enterRoundabout, .enterAndExitRoundabout, .enterRotary, .enterAndExitRotary, .enterRoundaboutIntersection,
             .enterAndExitRoundaboutIntersection, .enterRoundaboutAtExit, .exitRoundabout, .enterRotaryAtExit, .exitRotary,
             .enterRoundaboutIntersectionAtExit, .exitRoundaboutIntersection, .stayOnRoundabout:
            return true
        default: return false
        }
    }

    public var entersRoundabout: Bool {
        switch kind {
        case .enterRoundabout, .enterRotary, .enterRoundaboutIntersection, .enterRoundaboutAtExit, .enterRotaryAtExit,
             .enterRoundaboutIntersectionAtExit, .enterAndExitRoundabout, .enterAndExitRotary, .enterAndExitRoundaboutIntersection:
            return true
        default: return false
        }
    }

    public var leavesRoundabout: Bool {
        switch kind {
        case .exitRoundabout, .exitRotary, .exitRoundaboutIntersection, .enterAndExitRoundabout, .enterAndExitRotary,
             .enterAndExitRoundaboutIntersection:
            return true
        default: return false
        }
    }

    public var staysOnRoundabout: Bool {
        kind == .stayOnRoundabout || kind == .enterRoundaboutAtExit || kind == .enterRotaryAtExit || kind == .enterRoundaboutIntersectionAtExit
    }

    /// Towards the left; a merge's modifier names the side it comes from, so a merge to the left
    /// is a turn to the right (OSRM's isLeftTurn).
    public var isLeftTurn: Bool { kind == .merge ? direction.isRight : direction.isLeft }
    public var isRightTurn: Bool { kind == .merge ? direction.isLeft : direction.isRight }
}

/// What kind of ring a roundabout instruction is about (OSRM's RoundaboutType).
public enum RoundaboutType: UInt8, Sendable {
    case none = 0, roundabout, rotary, roundaboutIntersection
}

extension TurnInstruction {
    public static func enterRoundabout(_ t: RoundaboutType, _ d: Direction) -> TurnInstruction {
        TurnInstruction([.invalid, .enterRoundabout, .enterRotary, .enterRoundaboutIntersection][Int(t.rawValue)], d)
    }
    public static func exitRoundabout(_ t: RoundaboutType, _ d: Direction) -> TurnInstruction {
        TurnInstruction([.invalid, .exitRoundabout, .exitRotary, .exitRoundaboutIntersection][Int(t.rawValue)], d)
    }
    public static func enterAndExitRoundabout(_ t: RoundaboutType, _ d: Direction) -> TurnInstruction {
        TurnInstruction([.invalid, .enterAndExitRoundabout, .enterAndExitRotary, .enterAndExitRoundaboutIntersection][Int(t.rawValue)], d)
    }
    public static func enterRoundaboutAtExit(_ t: RoundaboutType, _ d: Direction) -> TurnInstruction {
        TurnInstruction([.invalid, .enterRoundaboutAtExit, .enterRotaryAtExit, .enterRoundaboutIntersectionAtExit][Int(t.rawValue)], d)
    }
    public static func remainRoundabout(_ d: Direction) -> TurnInstruction { TurnInstruction(.stayOnRoundabout, d) }
    public static func suppressed(_ d: Direction) -> TurnInstruction { TurnInstruction(.suppressed, d) }
}

/// Turn angles in OSRM's convention: 0 is a u-turn, 180 straight on, below 180 to the right,
/// above to the left (include/util/bearing.hpp, include/guidance/turn_instruction.hpp).
public enum TurnAngle {
    /// The smaller angle between two directions, 0...180.
    @inline(__always) public static func deviation(_ a: Double, _ b: Double) -> Double {
        let d = abs(a - b)
        return min(d, 360 - d)
    }

    /// How far a turn angle is from straight on.
    @inline(__always) public static func fromStraight(_ a: Double) -> Double { deviation(a, 180) }

    /// The opposite bearing.
    @inline(__always) public static func reverse(_ b: Double) -> Double { b >= 180 ? b - 180 : b + 180 }

    /// The turn angle from travelling with bearing `entry` into a node to leaving it with bearing
    /// `exit` (OSRM's bearing::angleBetween): 180 when the bearings are equal, 90 for a right turn.
    public static func between(entry: Double, exit: Double) -> Double {
        var a = 180 - (exit - entry)
        while a < 0 { a += 360 }
        while a >= 360 { a -= 360 }
        return a
    }

    /// OSRM's getTurnDirection: the modifier a turn angle gets.
    public static func direction(_ angle: Double) -> TurnInstruction.Direction {
        if angle > 0 && angle < 60 { return .sharpRight }
        if angle >= 60 && angle < 140 { return .right }
        if angle >= 140 && angle < 160 { return .slightRight }
        if angle >= 160 && angle <= 200 { return .straight }
        if angle > 200 && angle <= 220 { return .slightLeft }
        if angle > 220 && angle <= 300 { return .left }
        if angle > 300 && angle < 360 { return .sharpLeft }
        return .uturn
    }
}
