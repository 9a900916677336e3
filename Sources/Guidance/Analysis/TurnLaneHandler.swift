/// Which lanes of the road coming in lead to which road of the junction (OSRM's
/// TurnLaneHandler, src/guidance/turn_lane_handler.cpp). It runs after turn analysis, on the
/// final instructions, and may still change one: the road a u-turn lane is matched to becomes a
/// u-turn. Lane arrows resemble the direction modifiers, but a one-to-one reading fails where
/// lanes are drawn before a signal, for the junction after a traffic island, beside a sliproad,
/// or without arrows; the handler first works out which of these it faces.
///
/// What OSRM's handler counts for its log ("Handled: x of y lanes") is not kept.
enum TurnLaneScenario: Sendable {
    /// The lanes of the road coming in, read at this junction.
    case simple
    /// The lanes of the road coming in, some of them for the next junction.
    case partitionLocal
    /// The previous road's lanes (a node of two roads between: a signal, lanes not drawn up to
    /// the junction).
    case simplePrevious
    /// The previous road's lanes meant for this junction: a turn past a traffic island.
    case partitionPrevious
    /// A sliproad and its main road, shown as one set of lanes.
    case sliproad
    /// Merging lanes: no instruction needs them.
    case merge
    case none, invalid, unknown
}

/// What deduceScenario finds out on the way (its output parameters in OSRM).
struct LaneScenarioState {
    var description: UInt32 = 0
    var laneData: [TurnLaneData] = []
    var previous: PreviousIntersection? = nil
    /// The previous junction with its turn types.
    var previousIntersection: Intersection = []
    var previousLaneData: [TurnLaneData] = []
    var previousDescription: UInt32 = 0
}

extension AnalysisContext {
    /// Sets `lanes` on the roads of `x`, the junction at the end of `via` with its instructions
    /// (assignTurnLanes). The node before it is graph.source(via).
    func assignTurnLanes(via: GuidanceGraph.Edge, _ x: Intersection) -> Intersection {
        // only the way back: nothing to match
        guard x.count > 1 else { return x }
        var s = LaneScenarioState()
        switch deduceScenario(via: via, x, &s) {
        case .simple, .partitionLocal:
            let data = TurnLaneAugmentation.handleNoneValueAtSimpleTurn(s.laneData, x)
            return simpleMatchTuplesToTurns(x, data, description: s.description)
        case .simplePrevious, .partitionPrevious:
            // lane numbers refer to the previous road's description
            let data = TurnLaneAugmentation.handleNoneValueAtSimpleTurn(s.previousLaneData, x)
            return simpleMatchTuplesToTurns(x, data, description: s.previousDescription)
        case .sliproad:
            return handleSliproadTurn(x, description: s.description, s.laneData, previousIntersection: s.previousIntersection)
        case .merge, .unknown, .none, .invalid:
            return x
        }
    }

    /// The description id of an edge's lanes (0: none) and their lane data (extractLaneData).
    func extractLaneData(_ e: GuidanceGraph.Edge) -> (description: UInt32, data: [TurnLaneData]) {
        let id = graph.data(e).laneDescription
        return (id, laneTexts.laneData(id))
    }

    /// The neighbour of a sliproad at the previous junction, the main road it runs beside: the
    /// one road next to it at a side, else the nearer by angle (the right one on a tie), as
    /// deduceScenario and handleSliproadTurn both choose it.
    func sliproadNeighbour(_ i: Int, _ p: Intersection) -> Int? {
        if i + 1 == p.count { return i >= 1 ? i - 1 : nil }
        if i == 1 { return i + 1 }
        guard i >= 1 else { return nil }
        return TurnAngle.deviation(p[i].angle, p[i - 1].angle) < TurnAngle.deviation(p[i].angle, p[i + 1].angle) ? i - 1 : i + 1
    }

    /// Which case the lanes at this junction are (deduceScenario), checks in OSRM's order.
    func deduceScenario(via: GuidanceGraph.Edge, _ x: Intersection, _ s: inout LaneScenarioState) -> TurnLaneScenario {
        // 1, 2: no lanes on roundabouts, and none at a junction with a roundabout (OSRM #2626)
        if graph.data(via).roundabout { return .none }
        if x.contains(where: { $0.instruction.hasRoundaboutType }) { return .none }
        // 3
        if x.count == 1 { return .none }
        // 4
        let own = extractLaneData(via)
        s.description = own.description
        s.laneData = own.data
        let hasDescription = s.description != 0
        // 5: signals are not compressed away; where the road goes on through one with the same
        // lanes, they are read at the junction after it
        if x.count == 2 && laneTexts.sameDescription(s.description, graph.data(x[1].edge).laneDescription)
            && TurnAngle.fromStraight(x[1].angle) < 25 {
            return .none
        }
        // 6: a text that could not be read, or arrows that cross
        if hasDescription && s.laneData.isEmpty { return .invalid }
        // 7
        if hasDescription && s.laneData.count == 1 && s.laneData[0].tag == TurnLaneType.none { return .none }
        // 8: the previous junction, needed for sliproads already
        if let p = findPreviousIntersection(via: via, x) {
            s.previous = p
            let before = extractLaneData(p.via)
            s.previousDescription = before.description
            s.previousLaneData = before.data
            s.previousIntersection = assignTurnTypes(via: p.via, p.intersection)
            let prev = s.previousIntersection
            for i in prev.indices where prev[i].instruction.kind == .sliproad {
                // the sliproad and the road beside it are shown as one
                if via == prev[i].edge { return .sliproad }
                if let c = sliproadNeighbour(i, prev), via == prev[c].edge { return .sliproad }
            }
        }
        // 9
        let possibleEntries = x.countEnterable
        // 10: merging does not justify an instruction
        if s.laneData.hasTag([.mergeToLeft, .mergeToRight]) { return .merge }
        // 11: the way back may be taken but no lane turns left: broken data or an obstacle
        if x[0].entryAllowed && !s.laneData.hasTag([.none, .left, .sharpLeft, .uturn]) && s.laneData.count + 1 == possibleEntries {
            return .invalid
        }
        // 12: a u-turn allowed without its own arrow is made from the leftmost lane (OSRM's
        // FIXME: this depends on the side of driving; an existing u-turn arrow is not checked)
        if !s.laneData.isEmpty && TurnLaneMatcher.canMatchTrivially(x, s.laneData) {
            let expected = possibleEntries + (!s.laneData.hasTag(.uturn) && x[0].entryAllowed ? 1 : 0)
            let missingUTurn = s.laneData.count != expected && x[0].entryAllowed
            if missingUTurn && !s.laneData.hasTag(TurnLaneType.none) {
                let last = s.laneData[s.laneData.count - 1]
                s.laneData.append(TurnLaneData(tag: .uturn, from: last.to, to: last.to))
            }
        }
        // 13
        if isSimpleIntersection(s.laneData, x) { return .simple }
        // 14: turns delayed to the next junction:
        //
        //             e
        //     a - b - c - f        lanes on a-b: | left | through | right |
        //         d
        //
        // only `right` is a turn at b; the turn b → c takes the left and through lanes
        if !s.laneData.isEmpty {
            if s.laneData.count >= possibleEntries {
                s.laneData = partitionLaneData(s.laneData, x).first
                if s.laneData.count == possibleEntries && isSimpleIntersection(s.laneData, x) { return .partitionLocal }
            }
            return .unknown
        }
        // 15
        if hasDescription { return .unknown }
        // 16, 17: the previous road's lanes, if any
        guard s.previous != nil, !s.previousLaneData.isEmpty else { return .none }
        // 18
        if s.previousLaneData.hasTag([.mergeToLeft, .mergeToRight]) { return .merge }
        // 19: through a node of two roads
        if isSimpleIntersection(s.previousLaneData, x) && s.previousIntersection.count == 2 { return .simplePrevious }
        // 20: the second part of the partition at the previous junction
        if s.previousLaneData.count >= s.previousIntersection.countEnterable && s.previousIntersection.count != 2 {
            s.previousLaneData = partitionLaneData(s.previousLaneData, s.previousIntersection).second
            s.previousLaneData.sortByLane()

            if s.previousLaneData.count == possibleEntries && isSimpleIntersection(s.previousLaneData, x) { return .partitionPrevious }
        }
        // 21
        return .unknown
    }

    /// Whether the lanes can be read at this junction alone (isSimpleIntersection): "a simple
    /// intersection does not depend on the next intersection coming up" (signals and segregated
    /// junctions change how lanes are read). On a road that only goes on, lanes are for the
    /// next junction unless all but one are merges. Else the arrows must roughly match the turns
    /// (two entries more: another junction's; one more: only a `none` at a side, a bus lane),
    /// and map one to one, each to its best valid road, a u-turn arrow found beside its
    /// neighbour's road.
    func isSimpleIntersection(_ data: [TurnLaneData], _ x: Intersection) -> Bool {
        guard !data.isEmpty, !x.isEmpty else { return false }
        if x.count == 2 {
            return data.filter { !$0.tag.isDisjoint(with: [.mergeToLeft, .mergeToRight]) }.count + 1 >= data.count
        }
        let first = data[0].tag, last = data[data.count - 1].tag
        var numTurns = x.countEnterable
        if numTurns < data.count && !x[0].entryAllowed && last == .uturn { numTurns += 1 }
        if numTurns + 2 <= data.count { return false }
        if numTurns + 1 == data.count && first != TurnLaneType.none && last != TurnLaneType.none { return false }
        if numTurns > data.count && !data.contains(where: { $0.tag == TurnLaneType.none }) { return false }
        if numTurns > data.count && x[0].entryAllowed && !(data.hasTag(.uturn) || (last != .left && last != .sharpLeft)) { return false }
        var allSimple = true, hasNone = false
        var matched = Set<Int>()
        for i in data.indices {
            let tag = data[i].tag
            if tag == TurnLaneType.none {
                hasNone = true
                continue
            }
            let best: Int?
            if tag != .uturn || data.count == 1 {
                best = TurnLaneMatcher.findBestMatch(tag, x)
            } else if i + 1 == data.count {
                // a u-turn at the left: beside the leftmost turn
                best = TurnLaneMatcher.findBestMatchForReverse(data[i - 1].tag, x)
            } else if i == 0 {
                // a u-turn at the right (left-hand traffic): beside the rightmost turn
                best = TurnLaneMatcher.findBestMatchForReverse(data[1].tag, x)
            } else {
                best = 0
            }
            guard let b = best else { return false }
            allSimple = allSimple && !matched.contains(b)
            matched.insert(b)
            // a u-turn at a side may still be switched on where its edge can be driven
            allSimple = allSimple && (x[b].entryAllowed || ((b == 0 || b + 1 == x.count) && !graph.data(x[b].edge).reversed))
            allSimple = allSimple && TurnLaneMatcher.isValidMatch(tag, x[b].instruction)
        }
        return allSimple && (matched.count == data.count || (matched.count + 1 == data.count && hasNone))
    }

    /// Splits the lanes into those used at this junction and those meant for the next one along
    /// the straightmost road (partitionLaneData). On a divided road crossing, the lane for the
    /// left turn at the second carriageway is painted before the first:
    ///
    ///            (1)             (2)
    ///           | A |           | A |
    ///           | | |           | ^ |
    ///           | v |           | | |
    ///     -------     -----------     ------
    ///      B ->-^                        B
    ///     -------     -----------     ------
    ///      B ->-v                        B
    ///     -------     -----------     ------
    ///           | A |           | A |
    ///
    /// Each arrow (not none, not u-turn) goes where it validly matches, to the next junction if
    /// only there or there better (straight may be at both). A none lane joins each part that
    /// does not have more arrows than turns. The straight entry here (else the none, else an
    /// artificial straight when every turn of the next junction has its arrow) is widened over
    /// all lanes used at the next junction. Where the straightmost road cannot be taken, or an
    /// arrow matches nowhere, all lanes stay here.
    func partitionLaneData(_ laneData: [TurnLaneData], _ x: Intersection) -> (first: [TurnLaneData], second: [TurnLaneData]) {
        var data = laneData
        let count = data.count
        guard !x.isEmpty else { return (data, []) }
        let straightmost = x.straightmost
        guard x[straightmost].entryAllowed else { return (data, []) }
        // its turn types are needed to check matches; no merging
        let next = assignTurnTypes(via: x[straightmost].edge, connectedRoads(from: x[straightmost].edge, useClose: false))
        var atFirst = [Bool](repeating: false, count: count), atSecond = [Bool](repeating: false, count: count)
        var straightmostTagIndex = count
        for lane in 0..<count {
            let tag = data[lane].tag
            if !tag.isDisjoint(with: [.none, .uturn]) { continue }
            let here = TurnLaneMatcher.findBestMatch(tag, x)!
            if x[here].entryAllowed && TurnLaneMatcher.isValidMatch(tag, x[here].instruction) {
                atFirst[lane] = true
                if here == straightmost { straightmostTagIndex = lane }
            }
            if let there = TurnLaneMatcher.findBestMatch(tag, next), next[there].entryAllowed,
               TurnLaneMatcher.isValidMatch(tag, next[there].instruction) {
                if !atFirst[lane] || tag == .straight
                    || TurnLaneMatcher.getMatchingQuality(tag, x[here]) > TurnLaneMatcher.getMatchingQuality(tag, next[there]) {
                    if tag != .straight { atFirst[lane] = false }
                    atSecond[lane] = true
                }
            }
            // every arrow must be used at one of the two
            if !(atFirst[lane] || atSecond[lane]) { return (data, []) }
        }
        let noneIndex = data.findTag(TurnLaneType.none) ?? count
        // lanes pulled forward: nothing matched straight on here, the none lane goes on
        if straightmostTagIndex == count && noneIndex != count { straightmostTagIndex = noneIndex }
        if noneIndex != count {
            if atFirst.filter({ $0 }).count <= x.countEnterable { atFirst[noneIndex] = true }
            if atSecond.filter({ $0 }).count <= next.countEnterable { atSecond[noneIndex] = true }
        }
        func augment(_ d: inout TurnLaneData) {
            for lane in 0..<count where atSecond[lane] {
                d.from = min(data[lane].from, d.from)
                d.to = max(data[lane].to, d.to)
            }
        }
        var first = [TurnLaneData](), second = [TurnLaneData]()
        for lane in 0..<count {
            if atSecond[lane] { second.append(data[lane]) }
            // the straightmost entry here also covers every lane used at the next junction
            if lane == straightmostTagIndex {
                var e = data[lane]
                augment(&e)
                data[lane] = e
            }
            if atFirst[lane] { first.append(data[lane]) }
        }
        let nextTurns = next.countEnterable
        if straightmostTagIndex == count && nextTurns > 0 && atSecond.filter({ $0 }).count == nextTurns {
            // (OSRM starts it at lanes 255...0, then widens it)
            var e = TurnLaneData(tag: .straight, from: 255, to: 0)
            augment(&e)
            first.append(e)
            first.sortByLane()
        }
        return (first, second)
    }

    /// Matches the lanes where they map one to one onto the roads, else leaves the junction as
    /// it is (simpleMatchTuplesToTurns). `description` is the id the lane numbers refer to.
    func simpleMatchTuplesToTurns(_ x: Intersection, _ data: [TurnLaneData], description: UInt32) -> Intersection {
        guard !data.isEmpty, TurnLaneMatcher.canMatchTrivially(x, data) else { return x }
        return triviallyMatchLanesToTurns(x, data, description: description)
    }

    /// A sliproad and the road beside it (handleSliproadTurn): their lanes are drawn apart but
    /// are not clearly apart on the ground, so they are shown as one description, main road and
    /// sliproad side by side (the sliproad at its side); matching uses the road's own lanes,
    /// shifted by the other road's lane count where the other lies to their right. The
    /// combined text gets a new id. No none lanes are resolved on this path, as in OSRM.
    func handleSliproadTurn(_ x: Intersection, description: UInt32, _ laneData: [TurnLaneData],
                            previousIntersection p: Intersection) -> Intersection {
        guard let si = p.indices.first(where: { p[$0].instruction.kind == .sliproad }), let mi = sliproadNeighbour(si, p) else { return x }
        let sliproad = p[si], main = p[mi]
        let mainID = graph.data(main.edge).laneDescription, slipID = graph.data(sliproad.edge).laneDescription
        guard mainID != 0, slipID != 0 else { return x }
        let mainLanes = laneTexts.masks(mainID), slipLanes = laneTexts.masks(slipID)
        var data = laneData
        let combined: [TurnLaneType]
        if main.angle > sliproad.angle {
            // the sliproad leaves to the right: its lanes are the rightmost ones
            combined = mainLanes + slipLanes
            if laneTexts.sameDescription(mainID, description) {
                for i in data.indices {
                    data[i].from += slipLanes.count
                    data[i].to += slipLanes.count
                }
            }
        } else {
            combined = slipLanes + mainLanes
            if laneTexts.sameDescription(slipID, description) {
                for i in data.indices {
                    data[i].from += mainLanes.count
                    data[i].to += mainLanes.count
                }
            }
        }
        return simpleMatchTuplesToTurns(x, data, description: laneTexts.intern(combined))
    }
}
