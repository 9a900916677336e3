import MapData
import Routing

/// Which lanes of a road lead to which of the roads at the junction it reaches, from the arrows
/// mapped in `turn:lanes` (OSRM's turn lane matching, simplified):
/// - an arrow leads to the road on its side whose angle is nearest the arrow's own ("left" is
///   90° to the left; "straight" takes the straightest road within 45°; a left or right arrow
///   needs a road at least 20° off straight, a slight one any road on its side; "uturn" leads back);
/// - an unmarked lane ("none") beside the lanes with arrows takes the roads no arrow leads to on
///   its side of them, or else does what the lane next to it does (both neighbours' roads when it
///   lies between two marked lanes: a middle lane of "left|none|right" at a T goes either way).
public enum LaneMatcher {
    /// The road an arrow points at: its angle (0 straight, positive right), nil for "none".
    static func idealAngle(_ arrow: String) -> Double? {
        switch arrow {
        case "straight", "merge to left", "merge to right": return 0
        case "slight right": return 45
        case "right": return 90
        case "sharp right": return 135
        case "slight left": return -45
        case "left": return -90
        case "sharp left": return -135
        case "uturn": return 180
        default: return nil
        }
    }

    /// For each lane (its arrows, left to right) whether it leads to road `chosen` of `angles`
    /// (the roads a car may take, by turn angle; `uTurn` is the index of the way back, if it is
    /// one of them). nil when the lanes and roads do not match: no lane leads to `chosen`.
    public static func valid(lanes: [[String]], angles: [Double], chosen: Int, uTurn: Int? = nil) -> [Bool]? {
        func road(for arrow: String) -> Int? {
            guard let ideal = idealAngle(arrow) else { return nil }
            if arrow == "uturn" { return uTurn }
            var best: (Int, Double)? = nil
            for (i, a) in angles.enumerated() where i != uTurn {
                let ok: Bool
                if ideal == 0 { ok = abs(a) <= 45 } else if abs(ideal) == 45 { ok = a * ideal > 0 } else { ok = a * ideal > 0 && abs(a) >= 20 }
                guard ok else { continue }
                let d = abs(a - ideal)
                if best.map({ d < $0.1 }) ?? true { best = (i, d) }
            }
            return best?.0
        }
        var leads: [Set<Int>] = lanes.map { Set($0.compactMap(road(for:))) }
        let marked = lanes.indices.filter { i in lanes[i].contains { idealAngle($0) != nil } }
        guard let firstMarked = marked.first, let lastMarked = marked.last else { return nil }
        // a fork of two roads bearing 5°–30° off straight on either side, with "straight|right"
        // lanes: no road is far enough right for the right arrows, and the straight arrows took
        // the right branch (the straighter); the right arrows are the right branch and the
        // straight ones the left (heidelberg-0031, Lessingstraße and Römerstraße 10° and 11° off
        // straight; and mirrored)
        for sign in [-1.0, 1.0] {
            let sideOnly = marked.filter { i in leads[i].isEmpty && lanes[i].allSatisfy { idealAngle($0).map { $0 * sign > 0 && abs($0) < 180 } ?? true } }
            let straight = marked.filter { lanes[$0].contains("straight") }
            guard !sideOnly.isEmpty, !straight.isEmpty,
                  sign > 0 ? sideOnly.min()! > straight.max()! : sideOnly.max()! < straight.min()!,
                  let s = Set(straight.flatMap { leads[$0] }).first, straight.allSatisfy({ leads[$0] == [s] }),
                  (5...30).contains(angles[s] * sign),
                  let other = angles.indices.filter({ $0 != uTurn && (5...30).contains(-angles[$0] * sign) })
                    .min(by: { abs(angles[$0]) < abs(angles[$1]) }) else { continue }
            for i in sideOnly { leads[i] = [s] }
            for i in straight { leads[i] = [other] }
        }
        let matched = leads.reduce(into: Set<Int>()) { $0.formUnion($1) }
        let unmatched = angles.indices.filter { !matched.contains($0) && $0 != uTurn }
        func straightest(_ roads: [Int]) -> Int? { roads.filter { abs(angles[$0]) <= 45 }.min { abs(angles[$0]) < abs(angles[$1]) } }
        func extreme(_ set: Set<Int>, left: Bool) -> Double? {
            // (the way back is no side's edge: a "left;uturn" lane's edge is its left turn)
            let a = set.filter { $0 != uTurn }.map { angles[$0] }
            return left ? a.min() : a.max()
        }
        for i in lanes.indices where !marked.contains(i) {
            if i < firstMarked || i > lastMarked {
                // beside the marked lanes: the road straight on if no arrow leads there, and on
                // the outermost lane also the roads further out on that side
                let left = i < firstMarked
                let neighbour = left ? firstMarked : lastMarked
                let edge = extreme(leads[neighbour], left: left) ?? 0
                let side = unmatched.filter { left ? angles[$0] < edge : angles[$0] > edge }
                var set = Set<Int>()
                if let s = straightest(side) { set.insert(s) }
                if i == 0 || i == lanes.count - 1 { set.formUnion(side) }
                leads[i] = set.isEmpty ? leads[neighbour] : set
            } else {
                // between marked lanes: straight on where no arrow leads there, else either
                // neighbour's way (the middle lane of "left|none|right" at a T)
                let before = marked.last { $0 < i }!, after = marked.first { $0 > i }!
                if let s = straightest(unmatched) {
                    leads[i] = [s]
                } else {
                    leads[i] = leads[before].union(leads[after])
                }
            }
        }
        // a road no lane leads to, further out than every road an outermost through lane leads
        // to: that lane serves it too (a right turn from the right through lane where no arrow
        // says so; a left-only lane does not go straight on)
        let served = leads.reduce(into: Set<Int>()) { $0.formUnion($1) }
        for u in angles.indices where !served.contains(u) && u != uTurn {
            if lanes[lanes.count - 1].contains("straight"), let edge = extreme(leads[lanes.count - 1], left: false), angles[u] > edge {
                leads[lanes.count - 1].insert(u)
            }
            if lanes[0].contains("straight"), let edge = extreme(leads[0], left: true), angles[u] < edge { leads[0].insert(u) }
        }
        let valid = leads.map { $0.contains(chosen) }
        return valid.contains(true) ? valid : nil
    }
}

extension LaneMatcher {
    /// Which side an arrow or a modifier points to: -1 left, 1 right, nil straight on.
    static func side(ofArrow a: String) -> Int? {
        switch a {
        case "left", "slight left", "sharp left", "uturn": return -1
        case "right", "slight right", "sharp right": return 1
        default: return nil
        }
    }

    /// A maneuver that turns (left, right, sharp, U-turn; not slight) where the route goes about
    /// straight on (within 45°, `angleHere`) at the junction whose lanes these are, no valid lane
    /// has an arrow to the turn's side, and some lanes do: those lanes are the turn's. The turn
    /// is folded over a junction the route crosses straight first (a divided road: the lanes
    /// drawn before it are the turn's), and a driver reads the arrows for the turn. Where the
    /// route turns at this junction itself, the lanes matched to its road stand.
    public static func bySide(_ lanes: [Lane], modifier: ManeuverModifier?, angleHere: Double) -> [Lane] {
        guard abs(angleHere) <= 45 else { return lanes }
        let turnSide: Int
        switch modifier {
        case .left?, .sharpLeft?, .uturn?: turnSide = -1
        case .right?, .sharpRight?: turnSide = 1
        default: return lanes
        }
        let onSide = lanes.map { $0.indications.contains { side(ofArrow: $0) == turnSide } }
        guard onSide.contains(true), !zip(lanes, onSide).contains(where: { $0.0.valid && $0.1 }) else { return lanes }
        return zip(lanes, onSide).map { Lane(indications: $0.0.indications, valid: $0.1) }
    }

    /// The valid lanes of a maneuver narrowed to those that lead into the valid lanes of the
    /// next one: the lanes taken are laid side by side over the next road's lanes (one to one when
    /// they are as many; two into four, the left one leads into the left two) and those that
    /// reach a valid lane are kept. nil when nothing changes (valid lanes apart, every lane of
    /// the road taken, or every lane taken leads on).
    public static func anticipate(_ valid: [Bool], next: [Bool]) -> [Bool]? {
        guard let taken = LaneAdvice.validRange(valid), let into = LaneAdvice.validRange(next) else { return nil }
        let a = taken.lowerBound, c = into.lowerBound, d = into.upperBound
        let n = taken.count, m = next.count, want = into.count
        guard want < m, n < valid.count else { return nil }
        var keep = [Bool](repeating: false, count: valid.count)
        // lane j of the n taken spreads over the next road's lanes j·m/n ..< (j+1)·m/n
        for j in 0..<n {
            let from = Double(j * m) / Double(n), to = Double((j + 1) * m) / Double(n)
            keep[a + j] = from < Double(d + 1) && to > Double(c)
        }
        return keep == valid || !keep.contains(true) ? nil : keep
    }
}

extension ManeuverBuilder {
    /// Maneuvers closer than this (metres) for each lane the driver may have to cross are one
    /// lane change: the lanes of the first keep only those that lead on into the lanes of the
    /// second (OSRM's anticipation: its distance, times the lanes left or right of the valid ones,
    /// whichever are more).
    static let laneAnticipationMeters = 200.0

    /// The lanes at each maneuver where the road coming in has turn lanes mapped. None at
    /// roundabouts (OSRM leaves them out: the lanes on the ring are not the exits').
    func addLanes(_ steps: inout [Maneuver], leg: RouteLeg) {
        for i in steps.indices {
            let k = steps[i].edgeIndex
            guard k >= 1, k < leg.edges.count, steps[i].type != .depart, steps[i].type != .arrive,
                  !ManeuverBuilder.ringTypes.contains(steps[i].type) else { continue }
            steps[i].lanes = lanes(leg, at: k, modifier: steps[i].modifier)
        }
    }

    /// From the last maneuver back: a turn soon followed by another keeps the lanes that lead into
    /// the next one's lanes. After the short name changes are dropped: two turns that end up next
    /// to each other are anticipated.
    func anticipateLanes(_ steps: inout [Maneuver]) {
        guard steps.count >= 3 else { return }
        for i in stride(from: steps.count - 3, through: 1, by: -1) {
            let a = steps[i], b = steps[i + 1]
            guard !a.lanes.isEmpty, !b.lanes.isEmpty else { continue }
            let valid = a.lanes.map(\.valid)
            // (the lanes left or right of the valid ones, whichever are more)
            guard let r = LaneAdvice.validRange(valid) else { continue }
            let toCross = max(r.lowerBound, valid.count - 1 - r.upperBound)
            guard b.distanceFromStartMeters - a.distanceFromStartMeters <= Double(toCross) * ManeuverBuilder.laneAnticipationMeters,
                  let keep = LaneMatcher.anticipate(valid, next: b.lanes.map(\.valid)) else { continue }
            for j in steps[i].lanes.indices { steps[i].lanes[j].valid = keep[j] }
        }
    }

    /// How far back lanes mapped before the junction still count: over nodes where the driver has
    /// no other way to go (a way split for traffic lights, a one-way street coming in), lanes are
    /// often drawn only up to there (OSRM's "previous lanes").
    static let laneCarryMeters = 50.0

    /// The lanes of edge k-1 where it meets edge k, valid where they lead onto edge k (or, for a
    /// turn folded over a junction the route crosses straight on, the lanes of the turn's side).
    func lanes(_ leg: RouteLeg, at k: Int, modifier: ManeuverModifier?) -> [Lane] {
        let inEdge = leg.edges[k - 1], outEdge = leg.edges[k]
        // the nearest edge back with lanes, within reach (cheap: most junctions have none)
        var mapped = k - 1, carried = 0.0
        while !map.hasTurnLanes(leg.edges[mapped]) {
            carried += Double(map.edge(leg.edges[mapped].edge).lengthMeters)
            guard mapped >= 1, carried <= ManeuverBuilder.laneCarryMeters else { return [] }
            mapped -= 1
        }
        // every node passed on the way offers no other way
        for j in stride(from: k - 1, to: mapped, by: -1) {
            let before = leg.edges[j - 1], after = leg.edges[j]
            if roads(at: map.source(of: after), from: before, bearingIn: bearingIn(before)).contains(where: { $0.canEnter && $0.out != after }) {
                return []
            }
        }
        let arrows = map.turnLanes(of: leg.edges[mapped]).split(separator: "|", omittingEmptySubsequences: false)
            .map { $0.split(separator: ";").map(String.init) }
        // (the import keeps no more; a longer list comes from a damaged map)
        guard arrows.count <= MapFormat.maxTurnLanes else { return [] }
        let node = map.source(of: outEdge)
        let bIn = bearingIn(inEdge)
        var angles = [Double](), chosen = -1
        // (the route's own way on counts even if the map's restrictions disagree with the route)
        for r in roads(at: node, from: inEdge, bearingIn: bIn) where r.canEnter || r.out == outEdge {
            if r.out == outEdge { chosen = angles.count }
            angles.append(r.angle)
        }
        var uTurn: Int? = nil
        if outEdge.edge == inEdge.edge {
            // the way back along the same road
            uTurn = angles.count
            chosen = angles.count
            angles.append(180)
        }
        guard chosen >= 0, let valid = LaneMatcher.valid(lanes: arrows, angles: angles, chosen: chosen, uTurn: uTurn) else { return [] }
        let lanes = zip(arrows, valid).map { Lane(indications: $0.0, valid: $0.1) }
        return LaneMatcher.bySide(lanes, modifier: modifier, angleHere: uTurn == chosen ? 180 : angles[chosen])
    }
}
