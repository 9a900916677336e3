/// Lanes without an arrow (OSRM's turn_lane_augmentation.cpp, src/guidance). In OSRM's words,
/// `none` is "a nice feature for visibility, a terrible feature for parsing": an unmarked lane
/// may or may not belong to the turns beside it, and only the intersection tells. OSRM's FIXME
/// is kept as a known gap: the number of lanes of the road turned onto should decide whether a
/// right turn can also be taken from the through lane beside it.
enum TurnLaneAugmentation {
    /// The arrow of a turn of each direction, indexed by the direction's raw value
    /// (turn_lane_augmentation.cpp's tag_by_modifier).
    static let tagByModifier: [TurnLaneType] = [.uturn, .sharpRight, .right, .slightRight, .straight, .slightLeft, .left, .sharpLeft]

    static func tag(of road: ConnectedRoad) -> TurnLaneType { tagByModifier[Int(road.instruction.direction.rawValue)] }

    /// Resolves the first `none` entry against the intersection (handleNoneValueAtSimpleTurn):
    /// with fewer arrows than turns the none lane serves several turns (augmentMultiple), with
    /// one entry too many it joins its neighbours (mergeNoneTag), with as many it becomes the
    /// turn no arrow names (handleRenamingSituations). The way back only counts as a turn when
    /// a u-turn arrow is painted. The result is sorted again.
    static func handleNoneValueAtSimpleTurn(_ data: [TurnLaneData], _ x: Intersection) -> [TurnLaneData] {
        guard !x.isEmpty, !data.isEmpty, let noneIndex = data.findTag(TurnLaneType.none) else { return data }
        let uturnNotPainted = x[0].entryAllowed && data[data.count - 1].tag != .uturn
        let connectionCount = x.countEnterable - (uturnNotPainted ? 1 : 0)
        var out: [TurnLaneData]
        if connectionCount > data.count {
            out = augmentMultiple(noneIndex, connectionCount, data, x)
        } else if connectionCount < data.count {
            // one lane at the side too many is usually one for buses; more is not handled
            guard connectionCount + 1 == data.count else { return data }
            out = mergeNoneTag(noneIndex, data)
        } else {
            out = handleRenamingSituations(noneIndex, data, x)
        }
        out.sortByLane()
        return out
    }

    /// The none lane stands for the turns no arrow names (augmentMultiple). The roads it serves:
    /// where it is the rightmost entry, the roads from the right until one more than the missing
    /// turns may be taken; the leftmost, likewise from the left; in the middle, the roads after
    /// the first `noneIndex` the car may take. Where several of them may be taken and the lane
    /// is at least two lanes wide, a straight road among them gets the whole none span, roads
    /// right of it (even forbidden ones, as in OSRM) its rightmost lane, roads left of it its
    /// leftmost lane; without a straight road the none stays (and the match fails later). Else
    /// every road it serves that may be taken gets the whole span.
    static func augmentMultiple(_ noneIndex: Int, _ connectionCount: Int, _ data: [TurnLaneData], _ x: Intersection) -> [TurnLaneData] {
        var data = data
        let missing = connectionCount - data.count
        let range: Range<Int> = {
            if noneIndex == 0 {
                var count = 0
                for i in 1..<max(1, x.count) {
                    count += x[i].entryAllowed ? 1 : 0
                    if count > missing { return 1..<(i + 1) }
                }
            } else if noneIndex + 1 == data.count {
                var count = 0
                var i = x.count - 1
                while i > 0 {
                    count += x[i].entryAllowed ? 1 : 0
                    if count > missing { return i..<x.count }
                    i -= 1
                }
            } else {
                // skip the turns of the entries right of the none lane
                var begin = 1, count = 0
                for i in 1..<max(1, x.count) {
                    count += x[i].entryAllowed ? 1 : 0
                    if count >= noneIndex {
                        begin = i + 1
                        break
                    }
                }
                count = 0
                var i = begin
                while i < x.count {
                    count += x[i].entryAllowed ? 1 : 0
                    if count > missing { return begin..<(i + 1) }
                    i += 1
                }
            }
            // OSRM: "Failed lane assignment. Reached bad situation." — no roads, the none goes
            return 0..<0
        }()
        let none = data[noneIndex]
        let allowedInRange = range.filter { x[$0].entryAllowed }.count
        if allowedInRange > 1 && none.to - none.from >= 1 {
            guard let straight = range.first(where: { x[$0].instruction.direction == .straight }) else { return data }
            for i in range.lowerBound..<straight {
                data.append(TurnLaneData(tag: tag(of: x[i]), from: none.from, to: none.from))
            }
            data.append(TurnLaneData(tag: tag(of: x[straight]), from: none.from, to: none.to))
            for i in (straight + 1)..<range.upperBound {
                data.append(TurnLaneData(tag: tag(of: x[i]), from: none.to, to: none.to))
            }
            data.remove(at: noneIndex)
            return data
        }
        for i in range where x[i].entryAllowed {
            data.append(TurnLaneData(tag: tag(of: x[i]), from: none.from, to: none.to))
        }
        data.remove(at: noneIndex)
        return data
    }

    /// One none entry too many, "left | | | right" (mergeNoneTag): at a side it widens its
    /// neighbour; in the middle a none of one lane is shared by both neighbours and one of two
    /// lanes split between them; a wider one stays.
    static func mergeNoneTag(_ noneIndex: Int, _ data: [TurnLaneData]) -> [TurnLaneData] {
        var data = data
        let none = data[noneIndex]
        if noneIndex == 0 || noneIndex + 1 == data.count {
            if noneIndex == 0 {
                // (a lone none: OSRM writes past its end here; nothing is left either way)
                if data.count > 1 { data[1].from = none.from }
            } else {
                data[noneIndex - 1].to = none.to
            }
            data.remove(at: noneIndex)
        } else if none.to - none.from <= 1 {
            data[noneIndex - 1].to = none.from
            data[noneIndex + 1].from = none.to
            data.remove(at: noneIndex)
        }
        return data
    }

    /// As many entries as turns (handleRenamingSituations): the none lane takes the side's turn
    /// no arrow names. At the right it becomes `right` if there is a right turn and its
    /// neighbour is no right arrow (next to a straight arrow, the straight takes the none's lanes
    /// too and the right turn keeps only the outermost one: one does not turn right across a
    /// through lane), else `straight` if there is a straight road and the neighbour is not
    /// straight; mirrored at the left; in the middle, between a left and a right arrow, it is
    /// `straight`.
    static func handleRenamingSituations(_ noneIndex: Int, _ data: [TurnLaneData], _ x: Intersection) -> [TurnLaneData] {
        var data = data
        var hasRight = false, hasThrough = false, hasLeft = false
        for road in x where road.entryAllowed {
            let d = road.instruction.direction
            hasRight = hasRight || d.isRight
            hasThrough = hasThrough || d == .straight
            hasLeft = hasLeft || d.isLeft
        }
        let leftTags: [TurnLaneType] = [.left, .slightLeft, .sharpLeft], rightTags: [TurnLaneType] = [.right, .slightRight, .sharpRight]
        if noneIndex == 0 {
            let single = data.count == 1
            if hasRight && (single || (data[1].tag != .sharpRight && data[1].tag != .right)) {
                data[0].tag = .right
                if !single && data[1].tag == .straight {
                    data[1].from = data[0].from
                    data[0].to = data[0].from
                }
            } else if hasThrough && (single || data[1].tag != .straight) {
                data[0].tag = .straight
            }
        } else if noneIndex + 1 == data.count {
            let n = noneIndex
            if hasLeft && data[n - 1].tag != .sharpLeft && data[n - 1].tag != .left {
                data[n].tag = .left
                if data[n - 1].tag == .straight {
                    data[n - 1].to = data[n].to
                    data[n].from = data[n].to
                }
            } else if hasThrough && data[n - 1].tag != .straight {
                data[n].tag = .straight
            }
        } else if leftTags.contains(data[noneIndex + 1].tag) && rightTags.contains(data[noneIndex - 1].tag) {
            data[noneIndex].tag = .straight
        }
        return data
    }
}
