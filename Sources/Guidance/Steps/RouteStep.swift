import Geo
import MapData

/// A junction a step passes or turns at, as OSRM's engine sees it (IntermediateIntersection,
/// include/engine/guidance/route_step.hpp), reduced to what its passes read: the bearings (away
/// from the junction) of the road the car arrives on and leaves by, how many roads meet and how
/// many the car may take, the straightest other way, and the lanes.
struct StepIntersection {
    /// nil at the start (no road in) and at the end (no road out).
    var inBearing: Double?
    var outBearing: Double?
    var roads: Int
    var allowed: Int
    /// The turn angle of the straightest other road the car may take here, 360 for none.
    var straightestOther = 360.0
    /// Lanes of the road coming in that lead on, counted from the right; how many lanes it has,
    /// and their text (a name id: "left|straight;right", read only for the maneuvers said).
    var lanesInTurn = 0
    var firstLaneFromTheRight = 0
    var laneCount = 0
    var laneText: UInt32 = 0

    /// A start or end point: one road, taken.
    static func waypoint(in inBearing: Double?, out outBearing: Double?) -> StepIntersection {
        StepIntersection(inBearing: inBearing, outBearing: outBearing, roads: 1, allowed: 1)
    }

    var allowedTurns: Int { allowed }

    /// The turn angle at this junction (OSRM's angleBetween(reverse(bearings[in]), bearings[out])).
    var turnAngle: Double? {
        guard let i = inBearing, let o = outBearing else { return nil }
        return TurnAngle.between(entry: TurnAngle.reverse(i), exit: o)
    }

    var hasLanes: Bool { lanesInTurn != 0 }
    var lanesToTheRight: Int { laneCount == 0 ? 0 : firstLaneFromTheRight }
    var lanesToTheLeft: Int { laneCount == 0 ? 0 : laneCount - (lanesInTurn + firstLaneFromTheRight) }
}

/// One step of a leg while the engine's passes work on it (OSRM's RouteStep): the maneuver at its
/// start, the road it follows, the junctions it passes.
struct RouteStep {
    enum Waypoint { case none, depart, arrive }

    var instruction: TurnInstruction
    var waypoint = Waypoint.none
    /// The exit of a roundabout, 0 for none.
    var exit = 0
    var bearingBefore = 0.0
    var bearingAfter = 0.0
    var location: Coordinate
    /// The road taken (name and ref ids of the map), and what its signs say.
    var nameID: UInt32 = 0
    var refID: UInt32 = 0
    /// The edge whose signs say where the road taken leads (read only for the maneuvers said).
    var destinationEdge: DirectedEdge?
    /// The ring's name, for a rotary (a name id).
    var rotaryNameID: UInt32 = 0
    var onFerry = false
    /// The road taken here lies inside a divided road's junction.
    var segregated = false
    var distance = 0.0
    var duration = 0.0
    /// Shape indices of the leg: the step covers shape[begin ..< end] (consecutive steps share
    /// the point of the turn).
    var geometryBegin = 0
    var geometryEnd = 0
    /// The leg edge the maneuver leads onto.
    var edgeIndex = 0
    /// The junction of the maneuver (OSRM's intersections.front()).
    var front: StepIntersection
    /// The junctions passed after it (OSRM's other intersections), as much as the passes ask of
    /// them: how many, whether each is a node of two roads only, how many ways the first allows.
    var passed = 0
    var passedOnlyTwoRoads = true
    var firstPassedAllowed = 0

    /// OSRM's intersections.size().
    var intersectionCount: Int { 1 + passed }
    /// Given by a mapper's maneuver override: kept as it is.
    var overridden = false

    init(instruction: TurnInstruction, location: Coordinate, front: StepIntersection) {
        self.instruction = instruction
        self.location = location
        self.front = front
    }

    var type: TurnInstruction.Kind {
        get { instruction.kind }
        set { instruction.kind = newValue }
    }
    var modifier: TurnInstruction.Direction {
        get { instruction.direction }
        set { instruction.direction = newValue }
    }

    var isWaypoint: Bool { waypoint != .none }
    /// A turn (OSRM's hasTurnType): anything but NoTurn.
    var hasTurnType: Bool { instruction.kind != .noTurn }

    /// Emptied, to be removed (OSRM's Invalidate): NoTurn, no waypoint.
    mutating func invalidate() {
        instruction = .noTurn
        waypoint = .none
        nameID = 0
        refID = 0
        destinationEdge = nil
        rotaryNameID = 0
        distance = 0
        duration = 0
        geometryBegin = 0
        geometryEnd = 0
        front = StepIntersection(inBearing: nil, outBearing: nil, roads: 0, allowed: 0)
        passed = 0
        passedOnlyTwoRoads = true
        firstPassedAllowed = 0
        invalidated = true
    }

    /// Removed by `removeNoTurnInstructions` (set by invalidate; its mode no longer matches any).
    var invalidated = false

    /// Takes in the step after it: its length, time, shape and junctions (ElongateBy).
    mutating func elongate(by following: RouteStep) {
        distance += following.distance
        duration += following.duration
        geometryEnd = following.geometryEnd
        if passed == 0 { firstPassedAllowed = following.front.allowed }
        passedOnlyTwoRoads = passedOnlyTwoRoads && following.front.roads == 2 && following.passedOnlyTwoRoads
        passed += 1 + following.passed
    }

    /// The road named as `origin` names it (AdaptStepSignage).
    mutating func adaptSignage(_ origin: RouteStep) {
        nameID = origin.nameID
        refID = origin.refID
        destinationEdge = origin.destinationEdge
    }
}

extension Array where Element == RouteStep {
    /// Drops the steps emptied by a pass (OSRM's removeNoTurnInstructions).
    /// (Compacted by hand: removeAll(where:) swaps the elements it passes, three copies of a
    /// 250-byte step each, and every pass ends here.)
    mutating func removeInvalidated() {
        var kept = 0
        for i in indices where !(self[i].invalidated || (self[i].instruction == .noTurn && self[i].waypoint == .none)) {
            if kept != i { self[kept] = self[i] }
            kept += 1
        }
        removeLast(count - kept)
    }

    /// The nearest step before `i` with a turn or a waypoint (findPreviousTurn).
    func previousTurn(_ i: Int) -> Int {
        var j = i - 1
        while j > 0 && !self[j].hasTurnType && !self[j].isWaypoint { j -= 1 }
        return Swift.max(0, j)
    }

    /// The nearest step after `i` with a turn or a waypoint (findNextTurn).
    func nextTurn(_ i: Int) -> Int {
        var j = i + 1
        while j < count - 1 && !self[j].hasTurnType && !self[j].isWaypoint { j += 1 }
        return Swift.min(count - 1, j)
    }
}
