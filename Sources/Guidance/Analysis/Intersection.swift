/// One road at a junction as the car arriving on a road sees it (OSRM's IntersectionEdgeGeometry,
/// IntersectionViewData and ConnectedRoad: include/extractor/intersection/intersection_view.hpp,
/// include/guidance/intersection.hpp).
public struct ConnectedRoad: Sendable {
    /// The compressed graph's edge leaving the junction along this road (it may be one a car
    /// cannot drive: a one-way street coming in).
    public var edge: GuidanceGraph.Edge
    /// Bearing to the point 2 m along the road: the road as drawn.
    public var initialBearing: Double
    /// Bearing to the point that stands for the road's direction as a driver sees it (the
    /// coordinate extractor's choice, after carriageways are merged).
    public var perceivedBearing: Double
    /// Length of the compressed edge, metres.
    public var segmentLength: Double
    /// The car may turn onto it from the road it arrives on.
    public var entryAllowed = false
    /// Turn angle: 0 is back the way the car came, 180 straight on, below 180 to the right.
    public var angle = 0.0
    public var instruction = TurnInstruction.invalid
    /// Which lanes of the road coming in lead here, set by the lane handler.
    public var lanes: LaneTuple?

    public init(edge: GuidanceGraph.Edge, initialBearing: Double, perceivedBearing: Double, segmentLength: Double) {
        self.edge = edge
        self.initialBearing = initialBearing
        self.perceivedBearing = perceivedBearing
        self.segmentLength = segmentLength
    }

    /// How far the turn is from straight on, degrees.
    public var deviation: Double { TurnAngle.fromStraight(angle) }

    /// Left and right swapped (for left-hand traffic and the left-turn rules, which OSRM writes as
    /// right-turn rules on a mirrored junction): the angle reflected, the modifier mirrored.
    mutating func mirror() {
        guard TurnAngle.deviation(angle, 0) > Double.ulpOfOne else { return }
        angle = 360 - angle
        instruction.direction = instruction.direction.mirrored
    }
}

/// Which lanes of the road coming in lead to a turn (OSRM's LaneTupleIdPair): the lanes are
/// counted from the right, and `description` is the lane text they refer to (a name id).
public struct LaneTuple: Sendable, Hashable {
    public var lanesInTurn: UInt8
    public var firstLaneFromTheRight: UInt8
    public var description: UInt32
    public init(lanesInTurn: UInt8, firstLaneFromTheRight: UInt8, description: UInt32) {
        self.lanesInTurn = lanesInTurn
        self.firstLaneFromTheRight = firstLaneFromTheRight
        self.description = description
    }
}

/// The roads of a junction seen from one road coming in: [0] is the way back (angle 0), then
/// the others by angle, from the sharpest right through straight on to the sharpest left.
public typealias Intersection = [ConnectedRoad]

extension Array where Element == ConnectedRoad {
    /// The index of the road whose angle is nearest `angle` (the first of equals).
    func closestTurn(_ angle: Double) -> Int? {
        guard !isEmpty else { return nil }
        var best = 0
        for i in indices.dropFirst() where TurnAngle.deviation(self[i].angle, angle) < TurnAngle.deviation(self[best].angle, angle) {
            best = i
        }
        return best
    }

    /// The index of the road nearest `angle` among those `ignore` leaves in; nil when the best by
    /// (ignored, deviation) is an ignored one.
    func closestTurn(_ angle: Double, ignoring ignore: (ConnectedRoad) -> Bool) -> Int? {
        guard !isEmpty else { return nil }
        var best = 0
        func key(_ i: Int) -> (Int, Double) { (ignore(self[i]) ? 1 : 0, TurnAngle.deviation(self[i].angle, angle)) }
        for i in indices.dropFirst() where key(i) < key(best) { best = i }
        return ignore(self[best]) ? nil : best
    }

    /// The index of the road whose perceived bearing is nearest `bearing`.
    func closestBearing(_ bearing: Double) -> Int? {
        guard !isEmpty else { return nil }
        var best = 0
        for i in indices.dropFirst()
        where TurnAngle.deviation(self[i].perceivedBearing, bearing) < TurnAngle.deviation(self[best].perceivedBearing, bearing) {
            best = i
        }
        return best
    }

    /// The road nearest straight on (the first of equals), by index.
    var straightmost: Int { closestTurn(180) ?? 0 }

    func index(ofEdge e: GuidanceGraph.Edge) -> Int? { firstIndex { $0.edge == e } }

    /// No road but the way back can be taken.
    var isDeadEnd: Bool { !dropFirst().contains { $0.entryAllowed } }

    var countEnterable: Int { reduce(0) { $0 + ($1.entryAllowed ? 1 : 0) } }

    /// A node with two roads: nothing to decide, the road only passes a signal, a barrier or a
    /// change of its tags (OSRM's isTrafficSignalOrBarrier / isObstacle).
    var isPassThrough: Bool { count == 2 }
}
