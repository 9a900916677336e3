/// Matching lane arrows to the roads of an intersection (OSRM's turn_lane_matcher.cpp,
/// src/guidance). The intersection is the one turn analysis has given its instructions: an arrow
/// fits a road by the road's instruction and how near its angle lies to the arrow's own.
enum TurnLaneMatcher {
    /// The direction an arrow stands for (getMatchingModifier): a merge arrow is straight on;
    /// `none` and anything not a single arrow fall back to a u-turn, as in OSRM.
    static func getMatchingModifier(_ tag: TurnLaneType) -> TurnInstruction.Direction {
        switch tag {
        case .uturn: return .uturn
        case .sharpRight: return .sharpRight
        case .right: return .right
        case .slightRight: return .slightRight
        case .straight, .mergeToLeft, .mergeToRight: return .straight
        case .slightLeft: return .slightLeft
        case .left: return .left
        case .sharpLeft: return .sharpLeft
        default: return .uturn
        }
    }

    /// Whether an arrow can describe a turn of this instruction (isValidMatch). A merge's
    /// modifier names the side it comes from, so for a merge right and left arrows swap sides.
    /// OSRM's notes say the right and left rules still need adjusting for left-hand traffic;
    /// they are kept as they are.
    static func isValidMatch(_ tag: TurnLaneType, _ instruction: TurnInstruction) -> Bool {
        let d = instruction.direction, k = instruction.kind
        switch tag {
        case .uturn:
            return d.isLeft || d == .uturn
        case .sharpRight, .right, .slightRight:
            if k == .merge { return d.isLeft }
            return instruction.leavesRoundabout || d.isRight
        case .straight:
            // forks (and a continue bearing one way) can be taken even from a straight lane
            return d == .straight || k == .suppressed || k == .newName || k == .stayOnRoundabout || instruction.entersRoundabout
                || (k == .fork && (d == .slightLeft || d == .slightRight))
                || (k == .continue && (d == .slightLeft || d == .slightRight))
        case .slightLeft, .left, .sharpLeft:
            if k == .merge { return d.isRight }
            return k == .stayOnRoundabout || d.isLeft
        default:
            return false
        }
    }

    /// The angle a turn of each direction ideally has, indexed by the direction's raw value
    /// (the idealized_turn_angles of getMatchingQuality).
    static let idealAngles: [Double] = [0, 35, 90, 135, 180, 225, 270, 315]

    /// How far the road lies from where the arrow points; lower is better (getMatchingQuality).
    static func getMatchingQuality(_ tag: TurnLaneType, _ road: ConnectedRoad) -> Double {
        TurnAngle.deviation(idealAngles[Int(getMatchingModifier(tag).rawValue)], road.angle)
    }

    /// The ordering of findBestMatch: a valid match first, then a road the car may take, then
    /// the nearer angle.
    private static func better(_ tag: TurnLaneType, _ a: ConnectedRoad, than b: ConnectedRoad) -> Bool {
        let va = isValidMatch(tag, a.instruction), vb = isValidMatch(tag, b.instruction)
        if va != vb { return va }
        if a.entryAllowed != b.entryAllowed { return a.entryAllowed }
        return getMatchingQuality(tag, a) < getMatchingQuality(tag, b)
    }

    /// The best road for an arrow among `x[range]`, the first of equals (std::min_element).
    private static func best(_ tag: TurnLaneType, _ x: Intersection, in range: Range<Int>) -> Int? {
        guard !range.isEmpty else { return nil }
        var best = range.lowerBound
        for i in range.dropFirst() where better(tag, x[i], than: x[best]) { best = i }
        return best
    }

    /// The road an arrow fits best, over all roads including the u-turn ([0]) (findBestMatch).
    /// nil only for an empty intersection.
    static func findBestMatch(_ tag: TurnLaneType, _ x: Intersection) -> Int? { best(tag, x, in: x.indices) }

    /// The road for a u-turn arrow, anchored on the arrow beside it (findBestMatchForReverse).
    /// OSRM forbids u-turns by default, so whether one is allowed says nothing; and the road
    /// nearest a u-turn's angle may be a sharp turn onto the other carriageway at a road with a
    /// middle island. So: where the neighbour's road is the last (leftmost) one, the u-turn is the
    /// way back ([0]); else the best u-turn among the roads from the neighbour's road leftwards.
    static func findBestMatchForReverse(_ neighborTag: TurnLaneType, _ x: Intersection) -> Int? {
        guard let n = findBestMatch(neighborTag, x) else { return nil }
        if n + 1 == x.count { return 0 }
        return best(.uturn, x, in: n..<x.count)
    }

    /// "A match is trivial if all turns can be associated with their best match in a valid way
    /// and the matches occur in order" (canMatchTrivially): the roads the car may take, right to
    /// left, each the best valid match of the next arrow; roads it may not take use no arrow. A
    /// u-turn arrow first (right-hand side, left-hand traffic) is skipped where the way back may
    /// be taken; one u-turn arrow may be left over at the end (the left side).
    static func canMatchTrivially(_ x: Intersection, _ data: [TurnLaneData]) -> Bool {
        guard !x.isEmpty else { return data.isEmpty }
        var lane = 0
        if let first = data.first, first.tag == .uturn, x[0].entryAllowed { lane = 1 }
        var road = 1
        while road < x.count && lane < data.count {
            if x[road].entryAllowed {
                if !isValidMatch(data[lane].tag, x[road].instruction) { return false }
                if findBestMatch(data[lane].tag, x) != road { return false }
                lane += 1
            }
            road += 1
        }
        return lane == data.count || (lane + 1 == data.count && data[data.count - 1].tag == .uturn)
    }
}

extension AnalysisContext {
    /// Gives each road the car may take its lanes, in order (triviallyMatchLanesToTurns,
    /// turn_lane_matcher.cpp); canMatchTrivially must have said yes. `description` is the id of
    /// the text the lane numbers refer to (OSRM stores the pair under a lane data id; Tern keeps
    /// it on the road). A u-turn arrow makes its road a u-turn (Continue, UTurn), the way back,
    /// or where that edge cannot be driven the sharpest right (for an arrow at the right) or the
    /// sharpest left (at the left) if it bends that way; else no u-turn lanes are set.
    func triviallyMatchLanesToTurns(_ view: Intersection, _ data: [TurnLaneData], description: UInt32) -> Intersection {
        var x = view
        guard !x.isEmpty, !data.isEmpty else { return x }
        func match(_ i: Int, _ d: TurnLaneData) {
            x[i].lanes = LaneTuple(lanesInTurn: UInt8(truncatingIfNeeded: d.to - d.from + 1),
                                   firstLaneFromTheRight: UInt8(truncatingIfNeeded: d.from), description: description)
        }
        var road = 1, lane = 0
        if data[0].tag == .uturn {
            // the very first arrow is a u-turn to the right
            guard x[0].entryAllowed else { return x }
            var uturn = 0
            if graph.data(x[0].edge).reversed {
                guard x.count > 1, x[1].entryAllowed, x[1].instruction.direction == .sharpRight else { return x }
                uturn = 1
                road = 2
            }
            x[uturn].instruction = TurnInstruction(.continue, .uturn)
            // (OSRM matches the last entry here, not the first: kept)
            match(uturn, data[data.count - 1])
            lane = 1
        }
        while road < x.count && lane < data.count {
            if x[road].entryAllowed {
                match(road, data[lane])
                lane += 1
            }
            road += 1
        }
        // a u-turn arrow left over on the left
        if lane + 1 == data.count && data[data.count - 1].tag == .uturn {
            var uturn = 0
            if graph.data(x[0].edge).reversed {
                let last = x.count - 1
                guard x[last].entryAllowed, x[last].instruction.direction == .sharpLeft else { return x }
                uturn = last
            }
            x[uturn].instruction = TurnInstruction(.continue, .uturn)
            match(uturn, data[data.count - 1])
        }
        return x
    }
}
