import Geo

/// Picks the one point along a road that stands for the direction a driver sees it leave a
/// junction in (OSRM's CoordinateExtractor, src/extractor/intersection/coordinate_extractor.cpp).
/// Roads in OSM are drawn with lane offsets where they split, small kinks and curves at the
/// junction, and repeated nodes: the bearing to the next shape point is often not the road's
/// direction. The rules and their thresholds are OSRM's.
struct CoordinateExtractor {
    /// A corrected coordinate must lie this far along the road, metres.
    static let desiredCoordinateDifference = 2.0
    /// How far a road is looked along where lanes play no part, metres.
    static let lookaheadWithoutLanes = 10.0
    static let farLookahead = 40.0
    /// Lanes assumed where none are tagged (overestimating is the safe side).
    static let assumedLaneCount = 2.0
    static let laneWidth = 3.25
    /// The first metres of a road are skipped as drawing noise.
    static let skippingInaccuracies = 2.0

    /// Motorway exits are drawn at a slight angle, not at 90°: more than a lane's width of
    /// offset is allowed on wide roads (GetOffsetCorrectionFactor).
    static func offsetCorrectionFactor(_ c: RoadClassification) -> Double {
        if c.isMotorwayClass || c.isRampClass { return 2.5 }
        switch c.priority {
        case .trunk: return 2.0
        case .primary: return 1.5
        default: return 1.0
        }
    }

    /// The representative point of a road leaving `turn` along `coords` (the road's shape from the
    /// junction, repeated points dropped). `lanes` is the most lanes any road at the junction has.
    static func representative(_ coordsIn: [Coordinate], data: GuidanceGraph.EdgeData, lanes: UInt8, selfLoop: Bool) -> Coordinate {
        var coords = coordsIn
        // a broken self-loop
        if selfLoop { return coords[1] }
        // a straight line: any point says the same
        if coords.count <= 2 { return coords[coords.count - 1] }
        if data.roundabout || data.circular { return coordinate(atLength: skippingInaccuracies, coords) }
        let turn = coords[0]
        // low-priority roads are drawn too oddly for more: look a little way along
        // (OSRM's corrected-coordinate branch here cannot be taken: its conditions contradict)
        if data.classification.isLowPriority {
            coords = trim(coords, to: lookaheadWithoutLanes)
            return coords[coords.count - 1]
        }
        let first = GeometryMath.distance(coords[0], coords[1])
        let consideredLanes = offsetCorrectionFactor(data.classification) * (lanes == 0 ? assumedLaneCount : Double(lanes))
        // the first shape point is far enough along to stand for the turn
        if first > consideredLanes * laneWidth + lookaheadWithoutLanes { return coords[1] }
        let lookahead = farLookahead + consideredLanes * laneWidth
        var segments = lengthCache(coords, limit: lookahead)
        coords = trim(coords, to: lookahead, cache: segments)
        segments[segments.count - 1] = min(segments[segments.count - 1], lookahead)
        let total = segments.reduce(0, +)
        if coords.count == 2 || total <= skippingInaccuracies { return coords[coords.count - 1] }

        // nearly straight: the far point (unless the road loops back to where it began)
        if GeometryMath.maxDeviation(coords[...], coords[0], coords[coords.count - 1]) < 0.5 * laneWidth {
            if coords[0] == coords[coords.count - 1] { return coordinate(atLength: skippingInaccuracies, coords) }
            return coords[coords.count - 1]
        }
        // how far the road runs straight from the junction
        var straightDistance = segments[1]
        var index = 2
        while index < coords.count {
            guard GeometryMath.maxDeviation(coords[0..<index], coords[0], coords[index]) < 0.25 * laneWidth else { break }
            straightDistance += segments[index]
            index += 1
        }
        let straightIndex = index - 1
        if straightDistance >= consideredLanes * laneWidth + lookaheadWithoutLanes {
            return coordinate(atLength: 5, coords, cache: segments)
        }
        // a line fits the whole road: its direction, moved onto the junction
        let line = regressionLine(coords)
        if GeometryMath.maxDeviation(coords[...], line.0, line.1) < 0.35 * laneWidth {
            let front = GeometryMath.project(coords[0], onto: line.0, line.1)
            let back = GeometryMath.project(coords[coords.count - 1], onto: line.0, line.1)
            return corrected(turn, front, back)
        }
        // offsets before curves: a wide road's lane offset is no curve
        // (the lane count goes in as a whole number, as OSRM passes it)
        if isDirectOffset(coords, straightIndex: straightIndex, straightDistance: straightDistance, length: total,
                          segments: segments, lanes: Double(Int(min(255, consideredLanes)))) {
            let offset = max(1, straightIndex)
            return corrected(turn, coords[offset], coords[offset + 1])
        }
        if isCurve(coords, segments: segments, length: total, laneWidthTotal: consideredLanes * laneWidth, roundabout: data.roundabout) {
            // the direction of the curve's first metres
            coords = trim(coords, to: 3 * skippingInaccuracies, cache: segments)
            segments = Array(segments.prefix(coords.count))
            while segments.count < coords.count { segments.append(0) }
            segments[segments.count - 1] = GeometryMath.distance(coords[coords.count - 2], coords[coords.count - 1])
            let head = coords[coords.count - 1]
            coords = trim(coords, to: 2 * skippingInaccuracies, cache: segments)
            return corrected(turn, coords[coords.count - 1], head)
        }
        // past the lanes at the start, a line fits the rest
        let trimming = 0.8 * consideredLanes * laneWidth
        let trimmed = trimFront(coords, by: 0.8 * trimming)
        if trimmed.count >= 2, total >= trimming + 2 {
            let l = regressionLine(trimmed)
            if GeometryMath.maxDeviation(trimmed[...], l.0, l.1) < 0.5 * laneWidth { return corrected(turn, l.0, l.1) }
        }
        let result = coordinate(atLength: lookaheadWithoutLanes, coords, cache: segments)
        // (a tiny loop back to the junction: the first point elsewhere)
        if result != turn { return result }
        return coords.first { $0 != turn } ?? result
    }

    /// The first shape point more than a metre from the junction, else the road's far end
    /// (GetCoordinateCloseToTurn: cheap, and enough to order the roads).
    static func closeToTurn(_ coords: [Coordinate]) -> Coordinate {
        let start = coords[0]
        for p in coords.dropFirst().dropLast() where GeometryMath.distance(p, start) > 1 { return p }
        return coords[coords.count - 1]
    }

    /// The point `length` metres along the line, or its end.
    static func coordinate(atLength length: Double, _ coords: [Coordinate]) -> Coordinate {
        var along = 0.0
        for i in 1..<coords.count {
            let d = GeometryMath.distance(coords[i - 1], coords[i])
            if along + d >= length {
                return GeometryMath.interpolate(GeometryMath.interpolationFactor(length - along, 0, d), coords[i - 1], coords[i])
            }
            along += d
        }
        return coords[coords.count - 1]
    }

    /// The same with the segment lengths known.
    static func coordinate(atLength length: Double, _ coords: [Coordinate], cache: [Double]) -> Coordinate {
        var along = 0.0
        for i in 1..<min(coords.count, cache.count) {
            if along + cache[i] >= length {
                return GeometryMath.interpolate(GeometryMath.interpolationFactor(length - along, 0, cache[i]), coords[i - 1], coords[i])
            }
            along += cache[i]
        }
        return coords[coords.count - 1]
    }

    /// 0, then each segment's length, up to the segment where the running total reaches `limit`.
    static func lengthCache(_ coords: [Coordinate], limit: Double) -> [Double] {
        var out = [0.0]
        var total = 0.0
        for i in 1..<coords.count {
            let d = GeometryMath.distance(coords[i - 1], coords[i])
            total += d
            out.append(d)
            if total >= limit { break }
        }
        return out
    }

    /// The line cut at `length` metres (the last point moved to exactly that far).
    static func trim(_ coordsIn: [Coordinate], to length: Double) -> [Coordinate] {
        var coords = coordsIn
        var current = 0.0
        for i in 1..<coords.count {
            let next = current + GeometryMath.distance(coords[i - 1], coords[i])
            if next >= length {
                let f = GeometryMath.interpolationFactor(length, current, next)
                let p = GeometryMath.interpolate(f, coords[i - 1], coords[i])
                coords.removeSubrange((i + 1)...)
                coords[i] = p
                return coords
            }
            current = next
        }
        return coords
    }

    /// OSRM's trimming with a cache of segment lengths. The cache holds single segments where the
    /// code reads running totals; the result is kept as OSRM computes it (the line cut at the
    /// first point at or past the lookahead), since the angles OSRM's scenarios expect come out
    /// of it.
    static func trim(_ coordsIn: [Coordinate], to length: Double, cache: [Double]) -> [Coordinate] {
        var coords = coordsIn
        if let last = cache.last, last < length {
            if coords.count > cache.count { coords.removeSubrange(cache.count...) }
            let d = GeometryMath.distance(coords[coords.count - 2], coords[coords.count - 1])
            if d > 0 {
                coords[coords.count - 1] = GeometryMath.interpolate(GeometryMath.interpolationFactor(last, 0, d),
                                                                    coords[coords.count - 2], coords[coords.count - 1])
            }
            return coords
        }
        var current = 0.0
        for i in 1..<min(coords.count, cache.count) {
            let next = cache[i]
            if next >= length {
                let p = GeometryMath.interpolate(GeometryMath.interpolationFactor(length, current, next), coords[i - 1], coords[i])
                coords.removeSubrange((i + 1)...)
                coords[i] = p
                break
            }
            current = next
        }
        return coords
    }

    /// The line without its first `length` metres (empty when it is shorter).
    static func trimFront(_ coordsIn: [Coordinate], by length: Double) -> [Coordinate] {
        var coords = coordsIn
        var along = 0.0
        for i in 1..<coords.count {
            let next = along + GeometryMath.distance(coords[i - 1], coords[i])
            if next >= length {
                let p = GeometryMath.interpolate(GeometryMath.interpolationFactor(length, along, next), coords[i - 1], coords[i])
                if i - 1 > 0 { coords.removeSubrange(0..<(i - 1)) }
                coords[0] = p
                return coords
            }
            along = next
        }
        return []
    }

    /// The `head` point moved by 90% of the offset of `base` from the junction: the direction
    /// base → head, shifted to start at the junction.
    static func corrected(_ fix: Coordinate, _ base: Coordinate, _ head: Coordinate) -> Coordinate {
        if GeometryMath.distance(base, head) < desiredCoordinateDifference { return head }
        return Coordinate(latitude: head.latitude - 0.9 * (base.latitude - fix.latitude),
                          longitude: head.longitude - 0.9 * (base.longitude - fix.longitude))
    }

    /// Points every `rate` metres along the first `maxLength` metres (the first point always).
    static func sample(_ coords: [Coordinate], maxLength: Double, rate: Double) -> [Coordinate] {
        var out = [coords[0]]
        var carry = 0.0, total = 0.0
        for i in 1..<coords.count {
            if total > maxLength { break }
            let a = coords[i - 1], b = coords[i]
            let d = GeometryMath.distance(a, b)
            if carry + d >= rate {
                let base = rate - carry
                let n = Int(((min(maxLength - total, d) + carry) / rate).rounded(.down))
                for k in 0..<max(0, n) {
                    out.append(GeometryMath.interpolate(GeometryMath.interpolationFactor(base + Double(k) * rate, 0, d), a, b))
                }
                carry = d + carry - Double(n) * rate
            } else {
                carry += d
            }
            total += d
        }
        return out
    }

    /// The regression line of the road's first 40 m, sampled every metre so that long segments
    /// weigh more, as the projections of its ends.
    static func regressionLine(_ coords: [Coordinate]) -> (Coordinate, Coordinate) {
        let s = sample(coords, maxLength: farLookahead, rate: 1)
        guard s.count >= 2 else { return (coords[0], coords[coords.count - 1]) }
        let (a, b) = GeometryMath.regression(s)
        return (GeometryMath.project(coords[0], onto: a, b), GeometryMath.project(coords[coords.count - 1], onto: a, b))
    }

    /// Whether the road's first part is only a sideways lane offset and the rest nearly straight.
    static func isDirectOffset(_ coords: [Coordinate], straightIndex: Int, straightDistance: Double, length: Double,
                               segments: [Double], lanes: Double) -> Bool {
        func closeToLaneDistance(_ w: Double) -> Bool { w - 0.5 * lanes * laneWidth < laneWidth }
        let offset = max(1, straightIndex)
        guard offset + 1 < coords.count else { return false }
        guard closeToLaneDistance(segments[0...min(offset, segments.count - 1)].reduce(0, +)) else { return false }
        guard length >= 0.4 * farLookahead else { return false }
        guard length - max(straightDistance, segments[1]) >= 0.1 * length else { return false }
        // (a single segment of 30 m or more ends the part checked for straightness)
        var end = segments.count
        for i in offset..<segments.count where segments[i] >= 30 {
            end = i
            break
        }
        let last = min(coords.count, end + 1)
        return 0.5 * laneWidth > GeometryMath.maxDeviation(coords[offset..<last], coords[offset], coords[last - 1])
    }

    /// Whether the road is drawn as a curve from the junction: it turns, stays on one side of
    /// the chord, its distance from the chord rises to one maximum and falls, and has no long
    /// straight stretch nor an S-bend.
    static func isCurve(_ coords: [Coordinate], segments: [Double], length: Double, laneWidthTotal: Double, roundabout: Bool) -> Bool {
        if roundabout { return true }
        let n = coords.count
        let total = TurnAngle.deviation(GeometryMath.bearing(coords[0], coords[1]), GeometryMath.bearing(coords[n - 2], coords[n - 1]))
        guard total > 20 else { return false }
        if n > 3 {
            let ccw = GeometryMath.isCCW(coords[0], coords[n - 1], coords[1])
            for p in coords[2..<(n - 1)] where GeometryMath.isCCW(coords[0], coords[n - 1], p) != ccw { return false }
        }
        func dev(_ i: Int) -> Double { GeometryMath.deviation(coords[i], coords[0], coords[n - 1]) }
        var maxIndex = 0, maxDeviation = 0.0
        if n == 3 {
            maxIndex = 1
            maxDeviation = dev(1)
        } else {
            // (the deviation rises, equal steps allowed, to the first fall, then never rises again)
            var i = 2
            while i < n && !(dev(i) < dev(i - 1)) { i += 1 }
            if i == n {
                maxIndex = n - 1
                maxDeviation = 0
            } else {
                var j = i + 1
                while j < n && !(dev(j) > dev(j - 1)) { j += 1 }
                guard j >= n else { return false }
                maxIndex = i - 1
                maxDeviation = dev(i - 1)
            }
        }
        let toMax = segments[0...min(maxIndex, segments.count - 1)].reduce(0, +)
        if (toMax <= 0.35 * length || maxDeviation < max(0.3 * laneWidthTotal, 0.5 * laneWidth)) && length > lookaheadWithoutLanes {
            return false
        }
        var angles = [Double]()
        for k in 0..<(n - 2) { angles.append(GeometryMath.computeAngle(coords[k], coords[k + 1], coords[k + 2])) }
        var lastStraight = false
        var straight = max(0, segments[1] - laneWidthTotal)
        var cursor = 1
        if angles.count >= 2 {
            for k in 1..<angles.count {
                let previous = angles[k - 1], current = angles[k]
                let bothTurn = TurnAngle.fromStraight(previous) > 25 && TurnAngle.fromStraight(current) > 25
                if bothTurn && (previous > 180) == (current < 180) { return false }
                let isStraight = TurnAngle.fromStraight(current) < 5
                cursor += 1
                let seg = cursor < segments.count ? segments[cursor] : 0
                if isStraight {
                    straight += seg
                    if lastStraight && straight > 0.3 * length { return false }
                } else if straight > 0.3 * length {
                    return false
                } else {
                    straight = seg
                }
                lastStraight = isStraight
            }
        }
        return length > 2 * laneWidthTotal
    }
}
