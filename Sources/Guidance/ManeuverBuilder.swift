import Geo
import MapData
import Routing
import Synchronization

/// Derives the maneuvers of a route leg from the road network around each junction it passes,
/// in OSRM's vocabulary and after its rules: a turn is said only where the way on is not
/// obvious; roundabouts are one maneuver from entry to exit plus the exit itself; name changes
/// on short stretches, bends, and the two halves of a crossing of a dual carriageway are not
/// separate instructions.
public struct ManeuverBuilder: Sendable {
    public let map: RoadMap
    /// Planar distances and bearings (no trigonometry per point), set per leg at its latitude.
    private var ruler: CheapRuler
    /// Name comparisons worked out while building one route's maneuvers (fresh for each call).
    private var memo: Memo?

    /// The same few names meet at junction after junction: comparing them as text again and
    /// again was a quarter of the guidance time.
    final class Memo: @unchecked Sendable {
        var same: [UInt64: Bool] = [:]
        var base: [String: String] = [:]
    }
    /// Base names by name id, kept for as long as the builder (a navigation session): a name's
    /// base form never changes, and working it out again for every route was a tenth of the
    /// guidance time. At most `baseNameLimit` are kept.
    private let baseNames = BaseNames()
    static let baseNameLimit = 100_000

    final class BaseNames: Sendable {
        let byID = Mutex<[UInt32: String]>([:])
    }

    public init(map: RoadMap) {
        self.map = map
        let (lo, hi) = map.bounds
        ruler = CheapRuler(latitude: (lo.latitude + hi.latitude) / 2)
    }

    /// A name change is said only when the new name holds for at least this far (OSRM: 105 m).
    static let nameSegmentCutoff = 105.0
    /// Two junctions closer than this are one maneuver (a dual carriageway crossed), metres.
    static let collapseDistance = 30.0
    /// A U-turn slipway (two turns the same way back onto the road the car came on) is at most
    /// this long, metres.
    static let uTurnSlipwayMeters = 60.0
    /// A staggered crossing's zig-zag is a few metres (OSRM); a longer connector is a turn.
    static let staggeredMeters = 10.0
    /// How far along a road its direction at a junction is measured, metres.
    static let lookahead = 20.0
    /// A first piece of road shorter than this before a long straight one is an offset.
    static let offsetMeters = 10.0
    /// Both branches of a fork leave the way in at least this much, degrees.
    static let forkMinimum = 15.0
    /// A sliproad (a short road cutting the corner between two roads that cross) is at most this
    /// long, and so are the two sides of the corner it cuts, metres.
    static let sliproadMeters = 150.0
    /// Another road this much more of a turn than the way on (and twice as much) is a distinct
    /// way, no fork to announce, degrees (OSRM's half FUZZY_ANGLE_DIFFERENCE: "keep right to stay
    /// on Bierhelderhofweg" 9° past Saupfercheckweg at 19°, Heidelberg, as OSRM and Valhalla say).
    static let fuzzyDistinct = 12.5
    /// A turn at least this sharp (degrees) is announced wherever a straighter way on exists.
    static let wideTurn = 60.0
    /// A roundabout larger than this (radius, m) with a name of its own is a rotary.
    static let rotaryRadius = 15.0
    /// A road splitting this close before a roundabout into branches that each join the ring is
    /// one approach (a flare), not a fork.
    static let flareMeters = 30.0

    /// Maneuvers of one leg: depart first, arrive last. `destination` is the requested end point
    /// (before snapping), used for the side of the street; `isLastLeg` false makes the arrival a
    /// waypoint's.
    public func maneuvers(for leg: RouteLeg, destination: Coordinate? = nil, isLastLeg: Bool = true) -> [Maneuver] {
        var local = self
        local.memo = Memo()
        if let first = leg.shape.first { local.ruler = CheapRuler(latitude: first.latitude) }
        var steps = local.build(leg, destination: destination)
        if !isLastLeg, !steps.isEmpty { steps[steps.count - 1].isWaypoint = true }
        return steps
    }

    // MARK: - Junctions

    /// One road at a junction, as a way out of it (possibly not allowed: a one-way coming in, or a
    /// turn a restriction forbids).
    struct Road {
        var out: DirectedEdge
        /// The car may take it from the way in.
        var canEnter: Bool
        /// It may be driven away from the junction (no one-way coming in), whatever the restrictions.
        var leaves: Bool
        /// Turn angle from the way in, degrees: 0 straight on, positive to the right.
        var angle: Double
        var record: EdgeRecord
        var deviation: Double { abs(angle) }
    }

    /// Every road at `node` but the one arriving (`inEdge`), with its turn angle.
    func roads(at node: UInt32, from inEdge: DirectedEdge, bearingIn: Double) -> [Road] {
        var out = [Road]()
        out.reserveCapacity(4)
        // (read from the file's adjacency lists without making arrays)
        for k in map.outgoingRange(node) {
            let d = map.outgoingEdge(at: k)
            guard d.edge != inEdge.edge else { continue }
            // (a turn a restriction forbids is no way on, as OSRM's entry_allowed: a road
            // the car may not enter)
            out.append(Road(out: d, canEnter: !map.isTurnForbidden(from: inEdge, to: d), leaves: true,
                            angle: Angle.difference(from: bearingIn, to: bearingOut(d)), record: map.edge(d.edge)))
        }
        // (a junction has a handful of roads: a linear search beats a set)
        for k in map.incomingRange(node) {
            let i = map.incomingEdge(at: k)
            guard i.edge != inEdge.edge && !out.contains(where: { $0.out.edge == i.edge }) else { continue }
            let d = i.opposite
            out.append(Road(out: d, canEnter: false, leaves: false, angle: Angle.difference(from: bearingIn, to: bearingOut(d)), record: map.edge(d.edge)))
        }
        return out
    }

    /// A T: the way on and the only other road leave sharply (60° or more) to opposite sides,
    /// the two of them one road (their directions at least 150° apart).
    func endsAtT(angle: Double, bearingOut: Double, other o: Road) -> Bool {
        abs(angle) >= 60 && o.deviation >= 60 && (o.angle > 0) != (angle > 0)
            && abs(Angle.difference(from: bearingOut, to: self.bearingOut(o.out))) >= 150
    }

    /// Whether a one-way road other than `inEdge` and `outEdge` passes through `node` (a
    /// carriageway of a divided road, crossed): it comes in and goes on within 60° of straight.
    /// A one-way that only leaves or only arrives (a slip lane) is no carriageway crossed: the
    /// turn after it is said where it is, not at the slip lane's start.
    func crossesOneWay(at node: UInt32, besides inEdge: DirectedEdge, _ outEdge: DirectedEdge) -> Bool {
        func other(_ d: DirectedEdge) -> Bool {
            d.edge != inEdge.edge && d.edge != outEdge.edge && ManeuverBuilder.isOneWay(map.edge(d.edge))
        }
        for i in map.incomingRange(node) {
            let a = map.incomingEdge(at: i)
            guard other(a) else { continue }
            let b = bearingIn(a)
            for o in map.outgoingRange(node) {
                let d = map.outgoingEdge(at: o)
                if d.edge != a.edge, other(d), abs(Angle.difference(from: b, to: bearingOut(d))) <= 60 { return true }
            }
        }
        return false
    }

    /// A road drivable one way only (a carriageway of a divided road, a one-way street).
    static func isOneWay(_ r: EdgeRecord) -> Bool { !(r.flags.contains(.forward) && r.flags.contains(.backward)) }

    static func isRing(_ r: EdgeRecord) -> Bool { r.flags.contains(.roundabout) || r.flags.contains(.circular) }

    /// OSRM's road priority: lower is more important; links rank below every road they connect.
    static func priority(_ c: RoadClass) -> Int {
        switch c {
        case .motorway: return 0
        case .trunk: return 2
        case .primary: return 4
        case .secondary: return 6
        case .tertiary: return 8
        case .unclassified, .residential, .road: return 10
        case .livingStreet: return 11
        case .motorwayLink, .trunkLink, .primaryLink, .secondaryLink, .tertiaryLink: return 14
        case .service, .track, .other: return 16
        case .ferry: return 20
        }
    }

    /// Road groups of about the same standing: motorway, trunk, main roads, streets, minor roads.
    static func group(_ c: RoadClass) -> Int {
        switch c {
        case .motorway, .motorwayLink: return 0
        case .trunk, .trunkLink: return 1
        case .primary, .primaryLink, .secondary, .secondaryLink, .tertiary, .tertiaryLink: return 2
        case .residential, .livingStreet, .service: return 3
        case .unclassified, .road: return 4
        case .track, .other, .ferry: return 7
        }
    }

    static func isLowPriority(_ c: RoadClass) -> Bool { c == .service || c == .track || c == .other }

    /// OSRM's direction for a turn angle (0 straight, positive right).
    static func modifier(_ a: Double) -> ManeuverModifier {
        let m = abs(a)
        if m <= 20 { return .straight }
        if m >= 179.5 { return .uturn }
        if a > 0 { return m <= 40 ? .slightRight : (m <= 120 ? .right : .sharpRight) }
        return m <= 40 ? .slightLeft : (m <= 120 ? .left : .sharpLeft)
    }

    /// Whether a change from one road's name to another's is news to the driver: not when only a
    /// direction word or a suffix changes ("Main Street" → "Main Street North"), nor when both
    /// have no name and the same ref.
    func announcesName(from a: EdgeRecord, to b: EdgeRecord) -> Bool {
        if a.nameID == b.nameID && a.refID == b.refID { return false }
        // (names are interned: equal ids are equal names; the rest as `announces` on text)
        if a.nameID == b.nameID { return a.nameID == 0 && b.refID != 0 && !sameRef(a, b) }
        if b.nameID == 0 { return false }
        if a.nameID == 0 { return true }
        return !sameRoad(a.nameID, b.nameID)
    }

    /// Names of one road by name id (`sameBase` of their base names), remembered for the route.
    func sameRoad(_ a: UInt32, _ b: UInt32) -> Bool {
        if a == b { return true }
        let key = UInt64(min(a, b)) << 32 | UInt64(max(a, b))
        if let known = memo?.same[key] { return known }
        let v = ManeuverBuilder.sameBase(baseName(id: a), baseName(id: b))
        memo?.same[key] = v
        return v
    }

    /// `ManeuverBuilder.baseName` of a name id, remembered for the session.
    func baseName(id: UInt32) -> String {
        if let known = baseNames.byID.withLock({ $0[id] }) { return known }
        let v = ManeuverBuilder.baseName(map.name(id))
        baseNames.byID.withLock { if $0.count < ManeuverBuilder.baseNameLimit { $0[id] = v } }
        return v
    }

    /// Names of one road as text (for steps already built), the base names remembered.
    func sameRoad(text a: String, _ b: String) -> Bool {
        if a == b { return true }
        func base(_ s: String) -> String {
            if let known = memo?.base[s] { return known }
            let v = ManeuverBuilder.baseName(s)
            memo?.base[s] = v
            return v
        }
        return ManeuverBuilder.sameBase(base(a), base(b))
    }

    /// Whether `b` is the road `a` by name (or by ref where neither has a name; two roads with
    /// neither are not one road: OSRM's "turn", not "continue", from one unnamed road onto another).
    func keepsRoad(_ a: EdgeRecord, _ b: EdgeRecord) -> Bool {
        a.nameID == b.nameID && (a.nameID != 0 || (a.refID != 0 && sameRef(a, b)))
    }

    /// Refs of one road: equal, or one list of refs within the other ("US 50" and "US 50; I 66").
    func sameRef(_ a: EdgeRecord, _ b: EdgeRecord) -> Bool {
        a.refID == b.refID || ManeuverBuilder.sameRefs(map.name(a.refID), map.name(b.refID))
    }

    static func sameRefs(_ a: String, _ b: String) -> Bool {
        if a == b { return true }
        let split = { (s: String) in Set(s.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }) }
        let x = split(a), y = split(b)
        return !x.isEmpty && !y.isEmpty && (x.isSubset(of: y) || y.isSubset(of: x))
    }

    /// Names of one road, given their base names (`baseName`): equal (but for direction words),
    /// one the start of the other ("Hauptstraße" and "Hauptstraßenbrücke"), or a typo apart.
    static func sameBase(_ x: String, _ y: String) -> Bool {
        x == y || x.hasPrefix(y) || y.hasPrefix(x) || isTypo(x, y)
    }

    /// Two long names (12 letters or more) one letter apart (one changed, added or dropped) are
    /// a mapper's typo, not two roads: "Avenue Preince Rainier III Monaco" going on as "Avenue
    /// Prince Rainier III Monaco" is no new name to announce.
    static func isTypo(_ a: String, _ b: String) -> Bool {
        // (fewer than 12 bytes cannot be 12 letters: no arrays for short names)
        guard min(a.utf8.count, b.utf8.count) >= 12 else { return false }
        let x = Array(a), y = Array(b)
        guard min(x.count, y.count) >= 12, abs(x.count - y.count) <= 1, x != y else { return false }
        var i = 0
        while i < min(x.count, y.count) && x[i] == y[i] { i += 1 }
        // a number is no typo ("Rue du 11 Novembre", "Rue du 12 Novembre")
        if (i < x.count && x[i].isNumber) || (i < y.count && y[i].isNumber) { return false }
        // after the first difference the rest must match with one letter changed, added or dropped
        if x.count == y.count { return x[(i + 1)...] == y[(i + 1)...] }
        let (long, short) = x.count > y.count ? (x, y) : (y, x)
        return long[(i + 1)...] == short[i...]
    }

    private static let directionWords: Set<String> = ["n", "s", "e", "w", "ne", "nw", "se", "sw", "north", "south", "east", "west",
                                                       "northeast", "northwest", "southeast", "southwest"]

    private static let gluedDirections = ["northeast", "northwest", "southeast", "southwest", "north", "south", "east", "west"]

    /// A name without leading or trailing direction words, in lower case ("Main Street North" → "main street").
    static func baseName(_ s: String) -> String {
        var words = s.lowercased().split(separator: " ").map(String.init)
        while words.count > 1, let l = words.last, directionWords.contains(l.trimmingCharacters(in: .punctuationCharacters)) { words.removeLast() }
        while words.count > 1, let f = words.first, directionWords.contains(f.trimmingCharacters(in: .punctuationCharacters)) { words.removeFirst() }
        // a direction glued to the end ("North CapitolNortheast", as OSRM's suffix table matches)
        if var last = words.last, let glued = gluedDirections.first(where: { last.hasSuffix($0) && last.count >= $0.count + 3 }) {
            last.removeLast(glued.count)
            words[words.count - 1] = last
        }
        return words.joined(separator: " ")
    }

    // MARK: - Building

    private func build(_ leg: RouteLeg, destination: Coordinate?) -> [Maneuver] {
        var result = [Maneuver]()
        let edges = leg.edges
        guard !edges.isEmpty, leg.shape.count >= 2 else { return result }
        let first = map.edge(edges[0].edge)
        result.append(Maneuver(type: .depart, modifier: nil, street: map.name(first.nameID), ref: map.name(first.refID),
                               location: leg.shape[0], shapeIndex: 0, distanceFromStartMeters: 0,
                               bearingBefore: 0, bearingAfter: departBearing(leg)))
        result[0].onFerry = first.flags.contains(.ferry)
        var k = 1
        var lastJunction: Int? = nil
        // a route that starts on a ring: no steps until it leaves it
        if ManeuverBuilder.isRing(first) {
            while k < edges.count && ManeuverBuilder.isRing(map.edge(edges[k].edge)) { k += 1 }
            if k < edges.count {
                result.append(exitRing(leg, at: k))
                k += 1
            }
        }
        while k < edges.count {
            let inEdge = edges[k - 1], outEdge = edges[k]
            let inRec = map.edge(inEdge.edge), outRec = map.edge(outEdge.edge)
            if ManeuverBuilder.isRing(outRec) && !ManeuverBuilder.isRing(inRec) {
                if let j = lastJunction, result.last.map({ !ManeuverBuilder.ringTypes.contains($0.type) }) == true,
                   isFlare(leg, at: j, entering: k) {
                    result.removeLast()
                }
                let (steps, next) = ring(leg, entering: k)
                result += steps
                k = next
                continue
            }
            let inFerry = inRec.flags.contains(.ferry), outFerry = outRec.flags.contains(.ferry)
            if inFerry && outFerry && !announcesName(from: inRec, to: outRec) {
                // on the ferry: nothing to say until it lands (or another ferry is taken)
                k += 1
                continue
            }
            if inFerry != outFerry {
                result.append(modeChange(leg, at: k))
                lastJunction = k
                k += 1
                continue
            }
            if var m = junction(leg, at: k) {
                // the straight-over-then-turn collapse applies only where a carriageway is crossed
                m.crossesOneWay = crossesOneWay(at: map.source(of: outEdge), besides: inEdge, outEdge)
                result.append(m)
                lastJunction = k
            }
            k += 1
        }

        // arrive
        let lastIndex = leg.shape.count - 1
        let lastRec = map.edge(edges[edges.count - 1].edge)
        var arrive = Maneuver(type: .arrive, modifier: nil, street: map.name(lastRec.nameID), ref: map.name(lastRec.refID),
                              location: leg.shape[lastIndex], shapeIndex: lastIndex, distanceFromStartMeters: leg.distanceMeters,
                              bearingBefore: bearingIn(leg, shapeIndex: lastIndex), bearingAfter: 0)
        if let dest = destination { arrive.side = side(of: dest, leg: leg) }
        arrive.modifier = arrive.side.map { $0 == .left ? .left : .right }
        arrive.onFerry = lastRec.flags.contains(.ferry)
        result.append(arrive)

        applyOverrides(&result, leg: leg)
        result = sliproads(result, leg: leg)
        result = collapse(result, leg: leg)
        addLanes(&result, leg: leg)
        result = suppressShortNames(result, leg: leg)
        anticipateLanes(&result)
        endOfRoadNeedsIntersections(&result, leg: leg)
        againstTheRoadBefore(&result)
        addLandmarks(&result, leg: leg)
        lengths(&result, leg: leg)
        trimShortEnds(&result)
        return result
    }

    /// Each step's road against the one the step before named. An exit ramp tagged with the
    /// motorway's own ref or name is not where it leads: "take exit 38 towards Schwetzingen", not
    /// "onto A 5" for a car leaving the A 5 (heidelberg-0186). A continue stays on the road by its
    /// name, or by its ref where the road taken has none (Hauptstraße (L 596) going on as L 596).
    private func againstTheRoadBefore(_ steps: inout [Maneuver]) {
        // (the road an exit ramp left, while the car is still on the ramp's forks)
        var left: Maneuver?
        for i in steps.indices.dropFirst() {
            let a = steps[i - 1], b = steps[i]
            let sameRef = !b.ref.isEmpty && ManeuverBuilder.sameRefs(a.ref, b.ref)
            if b.type == .offRamp { left = a } else if b.type != .fork { left = nil }
            switch b.type {
            case .offRamp where sameRef || (!b.street.isEmpty && b.street == a.street):
                steps[i].street = ""
                steps[i].ref = ""
            case .fork where left.map { r in (!b.ref.isEmpty && ManeuverBuilder.sameRefs(r.ref, b.ref)) || (!b.street.isEmpty && b.street == r.street) } ?? false:
                // a fork on the ramp, tagged with the motorway's ref too: "keep left towards
                // B 535", not "onto A 5" just after leaving the A 5
                steps[i].street = ""
                steps[i].ref = ""
            case .continue:
                steps[i].staysOnRoad = b.street.isEmpty ? sameRef : !a.street.isEmpty && sameRoad(text: a.street, b.street)
            default: break
            }
        }
    }

    /// A route that starts or ends at a junction: a first or last step of a metre or less is no
    /// instruction (OSRM's trimShortSegments). "Head north on B" from the junction, not "head
    /// south", then "turn left onto B" 0.1 m on; "you have arrived", not "turn left" 0.2 m
    /// before. Not where the step kept is a roundabout's: its exit is still to be said.
    private func trimShortEnds(_ steps: inout [Maneuver]) {
        if steps.count > 2, steps[0].stepDistanceMeters <= 1, !ManeuverBuilder.ringTypes.contains(steps[1].type),
           steps[1].type != .notification, steps[0].onFerry == steps[1].onFerry {
            // (a depart made afresh, on the road of the step it replaces, in its direction)
            let first = steps[1]
            var d = Maneuver(type: .depart, modifier: nil, street: first.street, ref: first.ref, location: steps[0].location,
                             shapeIndex: 0, distanceFromStartMeters: 0,
                             stepDistanceMeters: steps[0].stepDistanceMeters + first.stepDistanceMeters,
                             stepDurationSeconds: steps[0].stepDurationSeconds + first.stepDurationSeconds,
                             bearingAfter: first.bearingAfter)
            d.onFerry = first.onFerry
            steps.removeFirst()
            steps[0] = d
        }
        let n = steps.count
        if n > 2, steps[n - 2].stepDistanceMeters <= 1, steps[n - 2].type != .depart, steps[n - 2].onFerry == steps[n - 3].onFerry {
            let last = steps.remove(at: n - 2)
            steps[n - 3].stepDistanceMeters += last.stepDistanceMeters
            steps[n - 3].stepDurationSeconds += last.stepDurationSeconds
        }
    }

    /// Onto a ferry or off it (OSRM's mode change): a turn where the car has another way to go,
    /// else a notification ("continue onto the ferry"), its side from the angle. No fork and no
    /// obvious way: the driver boards or lands here.
    private func modeChange(_ leg: RouteLeg, at k: Int) -> Maneuver {
        let inEdge = leg.edges[k - 1], outEdge = leg.edges[k]
        let bIn = bearingIn(inEdge), bOut = bearingOut(outEdge)
        let choice = roads(at: map.source(of: outEdge), from: inEdge, bearingIn: bIn).contains { $0.out.edge != outEdge.edge && $0.canEnter }
        return maneuver(choice ? .turn : .notification, ManeuverBuilder.modifier(Angle.difference(from: bIn, to: bOut)),
                        leg: leg, at: k, record: map.edge(outEdge.edge), bearingBefore: bIn, bearingAfter: bOut)
    }

    /// A maneuver at the junction between edges k−1 and k, nil when nothing needs saying.
    private func junction(_ leg: RouteLeg, at k: Int) -> Maneuver? {
        let inEdge = leg.edges[k - 1], outEdge = leg.edges[k]
        let node = map.source(of: outEdge)
        let inRec = map.edge(inEdge.edge), outRec = map.edge(outEdge.edge)
        let bIn = bearingIn(inEdge), bOut = bearingOut(outEdge)
        let angle = Angle.difference(from: bIn, to: bOut)
        let all = roads(at: node, from: inEdge, bearingIn: bIn)
        let others = all.filter { $0.out.edge != outEdge.edge }
        let options = others.filter(\.canEnter)
        let sameName = !announcesName(from: inRec, to: outRec)
        // staying on the road by name (an unnamed road after a named one is another road)
        let keepsName = keepsRoad(inRec, outRec)
            || (inRec.nameID != 0 && outRec.nameID != 0 && sameRoad(inRec.nameID, outRec.nameID))
        let modifier = ManeuverBuilder.modifier(angle)
        // a wide turn (60° or more) where a straighter road is in sight is never obvious, whatever
        // that road is, even one the car may not enter (OSRM's distinct wide turn: "turn right"
        // from an unnamed road where a link goes straight on; Valhalla's "turn left to stay on X"
        // past a service road or a one-way street coming the other way), but not the road's own
        // other carriageway
        let straighterInSight = abs(angle) >= ManeuverBuilder.wideTurn && others.contains {
            $0.deviation < abs(angle) && ($0.leaves || !(sameName && $0.record.nameID == inRec.nameID))
        }
        func make(_ type: ManeuverType, _ mod: ManeuverModifier?) -> Maneuver {
            var m = maneuver(type, mod, leg: leg, at: k, record: outRec, bearingBefore: bIn, bearingAfter: bOut)
            m.landmark = landmark(at: node)
            return m
        }

        // turning round on the same road
        if outEdge == inEdge.opposite || abs(angle) >= 179.5 { return make(.continue, .uturn) }
        // a sharp turn back onto the other carriageway of the same road, or a turn onto the
        // same road that ends up heading back within a few tens of metres (through the gap of
        // a dual carriageway)
        // (only at a junction: a hairpin bend where no other road meets is no maneuver)
        // (a divided road: one of the two is a one-way carriageway; a hairpin of a two-way road at a
        // junction is a sharp turn)
        let divided = ManeuverBuilder.isOneWay(inRec) || ManeuverBuilder.isOneWay(outRec)
        if abs(angle) >= 150, sameName, inRec.nameID != 0, !options.isEmpty, divided { return make(.continue, .uturn) }
        if abs(angle) >= 60, keepsName, inRec.nameID != 0, !options.isEmpty, divided {
            let along = leg.cumulativeMeters[min(leg.edgeShapeStart[k], leg.cumulativeMeters.count - 1)]
            // (not where the car turns back by a second turn at a junction where it could go
            // another way, round a block: each turn is said where it is)
            if along + 60 < leg.distanceMeters, !turnsAtJunction(leg, after: k, within: along + 60) {
                let later = ruler.bearing(leg.position(atMeters: along + 35).coordinate, leg.position(atMeters: along + 60).coordinate)
                if abs(Angle.difference(from: bIn, to: later)) >= 155 { return make(.continue, .uturn) }
            }
        }

        // onto a ring node and straight off it again: an enter-and-exit, unless driving through
        if let ringRoad = all.first(where: { ManeuverBuilder.isRing($0.record) }) {
            if abs(angle) <= 15 && all.filter({ ManeuverBuilder.isRing($0.record) }).contains(where: { ($0.angle > 0) != (angle > 0) }) {
                return sameName ? nil : make(.newName, modifier)
            }
            let rotary = isRotary(ringInfo(from: ringRoad.leaves ? ringRoad.out : ringRoad.out.opposite))
            return make(rotary ? .exitRotary : .exitRoundabout, modifier)
        }

        // ramps: the side is where the ramp leaves the road that goes on
        let highway: Set<RoadClass> = [.motorway, .trunk]
        let ramps: Set<RoadClass> = [.motorwayLink, .trunkLink]
        let fromHighway = inRec.roadClass == .motorway || inRec.roadClass == .trunk
        // a motorway ending in two ramps: a fork
        if fromHighway, outRec.roadClass.isLink, !options.isEmpty, options.allSatisfy({ $0.record.roadClass.isLink }),
           let o = options.min(by: { $0.deviation < $1.deviation }), o.deviation < 45, abs(angle) < 45 {
            return make(.fork, angle < o.angle ? .slightLeft : .slightRight)
        }
        // from a ramp onto another ramp beside the motorway: the exit
        if inRec.roadClass.isLink, outRec.roadClass.isLink,
           let main = options.filter({ highway.contains($0.record.roadClass) }).min(by: { $0.deviation < $1.deviation }), main.deviation < 60 {
            return make(.offRamp, angle > main.angle ? .slightRight : .slightLeft)
        }
        if outRec.roadClass.isLink && !inRec.roadClass.isLink && !options.isEmpty && (fromHighway || ramps.contains(outRec.roadClass)) {
            var mod = modifier
            if let main = options.filter({ !$0.record.roadClass.isLink }).min(by: { $0.deviation < $1.deviation }), main.deviation < 60 {
                let right = angle > main.angle
                if mod == .straight || mod.isRight != right { mod = right ? .slightRight : .slightLeft }
            }
            return make(fromHighway ? .offRamp : .onRamp, mod)
        }
        // a link splitting in two
        if inRec.roadClass.isLink && outRec.roadClass.isLink, abs(angle) < 45,
           let o = options.filter({ $0.record.roadClass.isLink && $0.deviation < 45 }).min(by: { $0.deviation < $1.deviation }) {
            return make(.fork, angle < o.angle ? .slightLeft : .slightRight)
        }
        // joining a motorway or trunk that comes from behind: a merge, to the side of the road joined
        // (not from a ramp that already carries the motorway's name or ref: the driver was told
        // "take the exit onto A 5" where it began, and OSRM and Valhalla are silent where it joins)
        if highway.contains(outRec.roadClass), options.allSatisfy({ $0.deviation > 60 || $0.record.roadClass.isLink }),
           !keepsName,
           let joined = others.filter({ !$0.leaves && $0.deviation > 120 && (highway.contains($0.record.roadClass) || $0.record.roadClass.isLink) }).first,
           inRec.roadClass.isLink || highway.contains(inRec.roadClass) {
            return make(.merge, joined.angle < 0 ? .slightLeft : .slightRight)
        }

        // nowhere else to go: only a change of name is worth saying
        if options.isEmpty {
            // a road goes on straighter, one-way against the car (the road itself or another),
            // where the car bears off a named road onto an unnamed one: said ("turn slight
            // right"), or the driver following the road drives into the one-way (Valhalla's "turn
            // right to take the ramp", "bear right" off Avinguda Sant Antoni in Andorra)
            if sameName, !keepsName, inRec.nameID != 0, abs(angle) >= 20,
               others.contains(where: { $0.deviation < abs(angle) }) {
                return make(.turn, modifier)
            }
            if sameName {
                if straighterInSight { return make(.continue, modifier) }
                // a turn where the other way is one a restriction forbids: the driver still turns
                // (left at a T whose right arm is no_right_turn), where the turn would be said
                // were the other way allowed (not a bend past a forbidden side road)
                let physical = others.filter(\.leaves)
                if abs(angle) >= 45, physical.contains(where: { !$0.canEnter }),
                   !isObvious(angle: angle, outEdge: outEdge, outRec: outRec, inRec: inRec, options: physical, sameName: sameName, keepsName: keepsName,
                              straighterInSight: straighterInSight) {
                    return make(keepsName ? .continue : .turn, modifier)
                }
                return nil
            }
            // the end of a road at a T whose other arm is one-way towards us: still the end of the road
            if all.count == 2, let o = others.first, endsAtT(angle: angle, bearingOut: bOut, other: o) { return make(.endOfRoad, modifier) }
            // a new name where no other road meets is a new name, whatever the angle; at a
            // corner where one-ways come in, a sharper change of direction is a turn
            if others.isEmpty {
                var m = make(.newName, modifier)
                m.atBend = true
                return m
            }
            return make(abs(angle) <= 40 ? .newName : .turn, modifier)
        }

        // a motorway or trunk that splits in two
        // (not where one branch is the road itself going on: that one is obvious, the other a turn)
        if highway.contains(inRec.roadClass), highway.contains(outRec.roadClass),
           let other = options.filter({ highway.contains($0.record.roadClass) && $0.deviation < 45 }).min(by: { $0.deviation < $1.deviation }),
           abs(angle) < 45, keepsRoad(inRec, outRec) == keepsRoad(inRec, other.record) {
            return make(.fork, angle < other.angle ? .slightLeft : .slightRight)
        }

        if isObvious(angle: angle, outEdge: outEdge, outRec: outRec, inRec: inRec, options: options, sameName: sameName, keepsName: keepsName,
                     straighterInSight: straighterInSight) {
            var mod = modifier
            // (a new name about straight on beside a straighter road on the other side: the
            // side to bear, or "continue onto B" reads as that straighter road)
            if mod == .straight, !sameName, options.contains(where: { $0.deviation < abs(angle) && ($0.angle > 0) != (angle > 0) }) {
                mod = angle > 0 ? .slightRight : .slightLeft
            }
            var m = make(sameName ? .continue : .newName, mod)
            m.silent = sameName
            return m
        }

        // a fork: two roads of about the same rank leave at small angles on both sides
        let straightish = options.filter { $0.deviation < 45 }
        if abs(angle) < 45, !sameName, straightish.count == 1, let o = straightish.first, (o.angle > 0) != (angle > 0),
           abs(ManeuverBuilder.priority(o.record.roadClass) - ManeuverBuilder.priority(outRec.roadClass)) <= 1,
           !options.contains(where: { $0.deviation < min(abs(angle), o.deviation) }),
           min(abs(angle), o.deviation) >= ManeuverBuilder.forkMinimum, options.count == 1 || options.allSatisfy({ $0.out == o.out || $0.deviation > 60 }) {
            return make(.fork, angle < o.angle ? (abs(angle) > 40 ? .left : .slightLeft) : (abs(angle) > 40 ? .right : .slightRight))
        }

        // the end of a road at a T: the way on goes both ways, nothing straight ahead
        if all.count == 2, let o = others.first, endsAtT(angle: angle, bearingOut: bOut, other: o) { return make(.endOfRoad, modifier) }
        // the road splits into itself and another road of the same rank, both about straight on:
        // which side to keep (motorways have their own rules above). Where both branches carry the
        // road's name, only if they go separate ways ("keep left to stay on Czernyring", as OSRM
        // and Valhalla say, Heidelberg), not round an island
        if keepsName, modifier == .straight, !highway.contains(inRec.roadClass),
           let o = options.filter({ $0.deviation < 20 && abs(ManeuverBuilder.priority($0.record.roadClass) - ManeuverBuilder.priority(outRec.roadClass)) <= 1
               && (announcesName(from: outRec, to: $0.record) || splitsOff($0, from: outEdge, outRec, turning: angle)) }).min(by: { $0.deviation < $1.deviation }),
           o.deviation <= abs(angle) + 10 {
            return make(announcesName(from: outRec, to: o.record) ? .fork : .continue, angle < o.angle ? .slightLeft : .slightRight)
        }
        // (the road going on by name about straight is silent, unless another road, no driveway,
        // goes on straighter: following the road is then a side to keep, CG-2 at Encamp, Andorra)
        if keepsName && modifier == .straight
            && !options.contains(where: { $0.deviation < abs(angle) && !ManeuverBuilder.isLowPriority($0.record.roadClass) }) {
            var m = make(.continue, modifier)
            m.silent = true
            return m
        }
        // "straight" only when nothing is straighter: beside a straighter road it is a slight turn
        var mod = modifier
        if mod == .straight, let straighter = options.filter({ $0.deviation < abs(angle) }).min(by: { $0.deviation < $1.deviation }) {
            mod = angle > straighter.angle ? .slightRight : .slightLeft
        }
        // two roads to the same side under one word: the straighter is the slighter ("turn
        // slightly right" beside a "turn right"), as OSRM assigns conflicting turns
        if mod == .right || mod == .left || mod == .sharpRight || mod == .sharpLeft,
           options.contains(where: { ($0.angle > 0) == (angle > 0) && ManeuverBuilder.modifier($0.angle) == mod && $0.deviation > abs(angle) + 10 }) {
            switch mod {
            case .right: mod = .slightRight
            case .left: mod = .slightLeft
            case .sharpRight: mod = .right
            default: mod = .left
            }
        }
        // "go straight" where another road goes on about as straight (within 20°): a fork, said
        // by the side to keep (Valhalla's "keep right at the fork"; a driver cannot tell which of
        // two straight roads "straight" means); not onto a driveway where the road itself bends
        // away, which "go straight" leaves (OSRM's "turn straight" in its driveway scenarios)
        if mod == .straight, !keepsName,
           let o = options.filter({ $0.deviation < 20 && !(keepsRoad(inRec, $0.record) && ManeuverBuilder.isLowPriority(outRec.roadClass)) })
               .min(by: { $0.deviation < $1.deviation }) {
            return make(.fork, angle > o.angle ? .slightRight : .slightLeft)
        }
        return make(keepsName ? .continue : .turn, mod)
    }

    /// True when the driver needs no instruction to take `outRec` here: it is the clear way on
    /// (much straighter than every alternative, or the continuation of the road by name and
    /// rank while the alternatives are minor roads).
    private func isObvious(angle: Double, outEdge: DirectedEdge, outRec: EdgeRecord, inRec: EdgeRecord, options: [Road], sameName: Bool, keepsName: Bool,
                           straighterInSight: Bool) -> Bool {
        let dev = abs(angle)
        if straighterInSight { return false }
        // onto a road that goes on the other way too, to the other side: which way to take on it
        // is the driver's choice, said however short the road is ("turn left onto Pflugstrasse"
        // from St. Wolfgangstrasse, Liechtenstein, as OSRM and Valhalla say; a new name there was
        // dropped as holding for less than 105 m)
        if !sameName, outRec.nameID != 0, dev >= 20,
           options.contains(where: { $0.record.nameID == outRec.nameID && ($0.angle > 0) != (angle > 0)
               && abs(Angle.difference(from: angle, to: $0.angle)) >= 90 }) { return false }
        // staying on a road where only ramps leave it
        if !outRec.roadClass.isLink, !inRec.roadClass.isLink, !options.isEmpty, options.allSatisfy({ $0.record.roadClass.isLink }),
           dev <= 100, sameName || options.allSatisfy({ $0.deviation > dev }) {
            return true
        }
        // only minor roads (service, track) leave here: they do not make a junction (at any angle
        // when the road goes on by name)
        if !ManeuverBuilder.isLowPriority(outRec.roadClass), options.allSatisfy({ ManeuverBuilder.isLowPriority($0.record.roadClass) }),
           dev <= 40 || (sameName && !ManeuverBuilder.isLowPriority(inRec.roadClass)) {
            return true
        }
        // the road goes on in its own class and every other road is of a far lower rank (more than
        // twice the priority number), whatever the angle: a primary road turning away from a
        // residential street straight ahead is silent, from a tertiary one it is not (OSRM's
        // "obvious by road class", as its scenarios draw the line)
        if sameName, inRec.roadClass == outRec.roadClass, !options.isEmpty,
           options.allSatisfy({ 2 * Double(ManeuverBuilder.priority(outRec.roadClass)) < Double(ManeuverBuilder.priority($0.record.roadClass)) }) {
            return true
        }
        // a wider bend of the road itself where every other road is twice as much of a turn
        // (OSRM's distinct wide turn)
        if dev > 40, sameName, options.allSatisfy({ $0.deviation > 2 * dev }) { return true }
        // a main road bending by less than 60° where only streets of a lower group leave, each
        // named otherwise and none of them straighter: the road is the way on (OSRM and Valhalla
        // are silent: Avenue Hugues Savorani, Monaco; Widum at Platta, Liechtenstein)
        if dev < ManeuverBuilder.wideTurn, sameName, inRec.roadClass == outRec.roadClass, !options.isEmpty,
           options.allSatisfy({ $0.deviation > dev && ManeuverBuilder.group($0.record.roadClass) > ManeuverBuilder.group(inRec.roadClass)
               && announcesName(from: inRec, to: $0.record) && announcesName(from: outRec, to: $0.record) }) {
            return true
        }
        guard dev <= 40 else { return false }
        // the road by its name goes another way: going straight on is a choice to announce (also
        // onto an unnamed road, which is no news by name: OSRM's "turn straight" onto a driveway
        // where the road bends away)
        if !keepsName, inRec.nameID != 0, options.contains(where: { $0.record.nameID == inRec.nameID && $0.deviation < 120 }) { return false }
        let pIn = ManeuverBuilder.priority(inRec.roadClass), pOut = ManeuverBuilder.priority(outRec.roadClass)
        // a narrow turn that keeps the road's rank: a differently named road of a lower group
        // (a residential street off a main road) does not compete with it, however straight
        var options = options
        if dev < 35, pOut == pIn {
            let gIn = ManeuverBuilder.group(inRec.roadClass)
            options.removeAll { o in
                ManeuverBuilder.group(o.record.roadClass) > gIn
                    && announcesName(from: inRec, to: o.record) && announcesName(from: outRec, to: o.record)
            }
        }
        let straighter = options.filter { $0.deviation <= dev + 0.5 }
        // every alternative is much more of a turn
        if straighter.isEmpty, options.allSatisfy({ $0.deviation > max(dev + 30, dev * 2) || ($0.deviation > dev && $0.deviation > 60)
            || ((sameName || announcesName(from: inRec, to: $0.record)) && $0.deviation > max(dev + ManeuverBuilder.fuzzyDistinct, dev * 2)
                && !splitsOff($0, from: outEdge, outRec, turning: angle)) }) {
            return true
        }
        // the road itself goes on (name and rank) and every alternative is a lesser road
        if sameName || pOut <= pIn {
            // (keeping name and rank, a lesser road a little more of a turn is enough: OSRM's "slightly distinct")
            let keepsRank = sameName && pIn == pOut
            let lesser = options.allSatisfy {
                $0.deviation > 120 || ManeuverBuilder.priority($0.record.roadClass) > pOut + 1
                    && ($0.deviation > dev + 10 || (keepsRank && $0.deviation > 1.4 * dev) || ManeuverBuilder.isLowPriority($0.record.roadClass))
            }
            if lesser && dev <= 40 { return true }
        }
        return false
    }

    private func maneuver(_ type: ManeuverType, _ mod: ManeuverModifier?, leg: RouteLeg, at k: Int, record: EdgeRecord,
                          bearingBefore: Double, bearingAfter: Double) -> Maneuver {
        let shapeIndex = leg.edgeShapeStart[k]
        let along = leg.cumulativeMeters[min(shapeIndex, leg.cumulativeMeters.count - 1)]
        var m = Maneuver(type: type, modifier: mod, street: map.name(record.nameID), ref: map.name(record.refID),
                         location: map.coordinate(ofNode: map.source(of: leg.edges[k])), shapeIndex: shapeIndex,
                         distanceFromStartMeters: along, bearingBefore: bearingBefore, bearingAfter: bearingAfter)
        m.edgeIndex = k
        m.onFerry = record.flags.contains(.ferry)
        m.destination = map.destination(of: leg.edges[k])
        m.exitNumber = map.exitRef(ofNode: map.source(of: leg.edges[k]))
        return m
    }

    // MARK: - Roundabouts

    /// What a ring is: its length, how many of its nodes have a way out, its names.
    struct RingInfo {
        var lengthMeters = 0.0
        var names = Set<UInt32>()
        var circular = false
        var connectedNames = Set<UInt32>()
        /// The ring's nodes in driving order (for its direction: `signedArea` > 0 is counter-clockwise).
        var nodes: [Coordinate] = []
        var nodeIDs = Set<UInt32>()
        var radius: Double { lengthMeters / (2 * .pi) }
    }

    /// Follows the ring from the entry edge all the way round.
    func ringInfo(from start: DirectedEdge) -> RingInfo {
        var info = RingInfo()
        var e = start
        var steps = 0
        let startNode = map.source(of: start)
        while steps < 200 {
            let rec = map.edge(e.edge)
            info.lengthMeters += map.lengthMeters(ofEdge: e.edge)
            if rec.nameID != 0 { info.names.insert(rec.nameID) }
            if rec.flags.contains(.circular) { info.circular = true }
            let n = map.target(of: e)
            info.nodes.append(map.coordinate(ofNode: map.source(of: e)))
            info.nodeIDs.insert(map.source(of: e))
            for r in map.outgoing(n) + map.incoming(n).map(\.opposite) where !ManeuverBuilder.isRing(map.edge(r.edge)) {
                info.connectedNames.insert(map.edge(r.edge).nameID)
            }
            if n == startNode { break }
            guard let next = map.outgoing(n).first(where: { $0.edge != e.edge && ManeuverBuilder.isRing(map.edge($0.edge)) }) else { break }
            e = next
            steps += 1
        }
        return info
    }

    func isRotary(_ info: RingInfo) -> Bool {
        guard info.names.count == 1, let name = info.names.first else { return false }
        return info.circular || (!info.connectedNames.contains(name) && info.radius > ManeuverBuilder.rotaryRadius)
    }

    /// Whether a ring node has a way out that counts as an exit (not back the way the car came,
    /// not a service road off a main-road roundabout).
    private func countsAsExit(_ node: UInt32, ringRecord: EdgeRecord, excluding: UInt32?) -> Bool {
        let outs = map.outgoing(node).filter { !ManeuverBuilder.isRing(map.edge($0.edge)) && $0.edge != excluding }
        // a road of unknown kind (highway=road) that Tern does not route on is still an exit the
        // driver sees and counts (Valhalla counts it too; two roundabouts on the CG-2 in Andorra)
        if outs.isEmpty { return map.flags(ofNode: node).contains(.unroutedRoad) }
        if ManeuverBuilder.isLowPriority(ringRecord.roadClass) { return true }
        return outs.contains { !ManeuverBuilder.isLowPriority(map.edge($0.edge).roadClass) }
    }

    /// The roundabout or rotary entered at edge k: the entry maneuver (with the exit number) and
    /// the exit maneuver; returns the index of the edge after the exit.
    private func ring(_ leg: RouteLeg, entering k: Int) -> ([Maneuver], Int) {
        let edges = leg.edges
        let inEdge = edges[k - 1], entry = edges[k]
        let entryRec = map.edge(entry.edge)
        let info = ringInfo(from: entry)
        let rotary = isRotary(info)
        let bIn = bearingIn(inEdge)
        var exits = 0
        // an exit at the entry node itself counts when it can be taken at once: it leaves on the
        // side the ring turns to (the right on a counter-clockwise ring)
        let entryNode = map.source(of: entry)
        let ringSide = info.nodes.signedArea >= 0  // counter-clockwise: exits to the right come first
        if countsAsExit(entryNode, ringRecord: entryRec, excluding: inEdge.edge),
           map.outgoing(entryNode).contains(where: { o in
               guard !ManeuverBuilder.isRing(map.edge(o.edge)), o.edge != inEdge.edge else { return false }
               let a = Angle.difference(from: bIn, to: bearingOut(o))
               return abs(a) < 179 && (a > 0) == ringSide && a != 0
           }) {
            exits += 1
        }
        var j = k
        while j < edges.count && ManeuverBuilder.isRing(map.edge(edges[j].edge)) {
            let n = map.target(of: edges[j])
            j += 1
            let leaving = j < edges.count && !ManeuverBuilder.isRing(map.edge(edges[j].edge))
            if leaving || countsAsExit(n, ringRecord: entryRec, excluding: nil) { exits += 1 }
        }
        let type: ManeuverType = rotary ? .rotary : .roundabout
        var enter = maneuver(type, nil, leg: leg, at: k, record: entryRec, bearingBefore: bIn, bearingAfter: bearingOut(entry))
        if rotary { enter.rotaryName = map.name(info.names.first ?? 0) }
        guard j < edges.count else {
            // the route ends on the ring: enter it and arrive
            enter.exit = nil
            enter.modifier = ManeuverBuilder.modifier(Angle.difference(from: bIn, to: bearingOut(entry)))
            return ([enter], j)
        }
        let exitEdge = edges[j]
        let exitRec = map.edge(exitEdge.edge)
        enter.exit = max(1, exits)
        enter.modifier = ManeuverBuilder.modifier(Angle.difference(from: bIn, to: bearingOut(exitEdge)))
        enter.street = map.name(exitRec.nameID)
        enter.ref = map.name(exitRec.refID)
        enter.bearingAfter = bearingOut(exitEdge)
        let out = exitRing(leg, at: j, rotary: rotary)
        return ([enter, out], j + 1)
    }

    static let ringTypes: Set<ManeuverType> = [.roundabout, .rotary, .exitRoundabout, .exitRotary, .roundaboutTurn]

    /// A flared approach: the road splits a few metres before a roundabout into two branches of
    /// one name and class that each join the ring (Andorra's CG-3 at the Carretera General roundabout, both branches drawn
    /// as two-way roads). The route takes the branch on the ring's own side (the right one on a
    /// counter-clockwise ring), the one a driver takes anyway, and "keep right" ten metres before
    /// "at the roundabout, take the third exit" is noise: the roundabout maneuver, with its exit
    /// number counted from that branch, says it all. A branch onto the other side, a slip road off
    /// a road that crosses the ring, or a road that goes somewhere else is still said.
    private func isFlare(_ leg: RouteLeg, at j: Int, entering k: Int) -> Bool {
        guard j > 0, j < k else { return false }
        var gap = 0.0
        for e in j..<k { gap += Double(map.lengthMeters(ofEdge: leg.edges[e].edge)) }
        guard gap <= ManeuverBuilder.flareMeters else { return false }
        let inEdge = leg.edges[j - 1], outEdge = leg.edges[j]
        let bIn = bearingIn(inEdge)
        let angle = Angle.difference(from: bIn, to: bearingOut(outEdge))
        guard abs(angle) < 45 else { return false }
        let options = roads(at: map.source(of: outEdge), from: inEdge, bearingIn: bIn).filter { $0.out.edge != outEdge.edge && $0.canEnter }
        guard !options.isEmpty else { return false }
        let ring = ringInfo(from: leg.edges[k])
        let counterClockwise = ring.nodes.signedArea >= 0
        let outRec = map.edge(outEdge.edge)
        return options.allSatisfy { o in
            o.record.nameID == outRec.nameID && o.record.refID == outRec.refID && o.record.roadClass == outRec.roadClass
                && (counterClockwise ? o.angle < angle : o.angle > angle)
                && !nodesAlong(from: o.out, meters: ManeuverBuilder.flareMeters).isDisjoint(with: ring.nodeIDs)
        }
    }

    /// The step leaving a ring onto edge j.
    private func exitRing(_ leg: RouteLeg, at j: Int, rotary: Bool? = nil) -> Maneuver {
        let ringEdge = leg.edges[j - 1], exitEdge = leg.edges[j]
        let isRotary = rotary ?? self.isRotary(ringInfo(from: ringEdge))
        let bIn = bearingIn(ringEdge), bOut = bearingOut(exitEdge)
        let rec = map.edge(exitEdge.edge)
        return maneuver(isRotary ? .exitRotary : .exitRoundabout, ManeuverBuilder.modifier(Angle.difference(from: bIn, to: bOut)),
                        leg: leg, at: j, record: rec, bearingBefore: bIn, bearingAfter: bOut)
    }

    // MARK: - Post-processing

    /// Whether the route, after the junction where edge `k` starts and before `meters` along the
    /// leg, turns 45° or more at a junction where the car could go another way.
    private func turnsAtJunction(_ leg: RouteLeg, after k: Int, within meters: Double) -> Bool {
        var j = k + 1
        while j < leg.edges.count {
            let start = leg.cumulativeMeters[min(leg.edgeShapeStart[j], leg.cumulativeMeters.count - 1)]
            if start >= meters { return false }
            let inEdge = leg.edges[j - 1], outEdge = leg.edges[j]
            let bIn = bearingIn(inEdge)
            if abs(Angle.difference(from: bIn, to: bearingOut(outEdge))) >= 45,
               roads(at: map.source(of: outEdge), from: inEdge, bearingIn: bIn).contains(where: { $0.out.edge != outEdge.edge && $0.canEnter }) {
                return true
            }
            j += 1
        }
        return false
    }

    /// Two maneuvers a few metres apart are one: crossing a dual carriageway (straight over the
    /// first carriageway, then a turn, or a turn and then straight over the second), turning
    /// round through its gap (two turns the same way), a staggered crossing (left then right).
    /// The maneuver keeps the place of the first junction. Silent steps (obvious ways on at a
    /// junction) take part and are dropped afterwards.
    private func collapse(_ input: [Maneuver], leg: RouteLeg) -> [Maneuver] {
        var steps = input
        // how far each step turns, added up over the steps merged into it: two right turns of
        // 118° and 57° turn the car 175° or more to the right, which a difference of bearings
        // wraps round to a left turn (kept beside `steps`, index for index)
        var turned = steps.map { Angle.difference(from: $0.bearingBefore, to: $0.bearingAfter) }
        let fixed: Set<ManeuverType> = [.roundabout, .rotary, .exitRoundabout, .exitRotary, .roundaboutTurn, .depart, .arrive]
        var i = 1
        while i + 1 < steps.count {
            let s = steps[i], n = steps[i + 1]
            let gap = n.distanceFromStartMeters - max(s.distanceFromStartMeters, s.collapsedEnd)
            // (nor across a change of mode: boarding or leaving a ferry is said where it is)
            guard !fixed.contains(s.type), !fixed.contains(n.type), !s.overridden, !n.overridden, s.onFerry == n.onFerry,
                  steps[i - 1].onFerry == s.onFerry else { i += 1; continue }
            let total = turned[i] + Angle.difference(from: s.bearingAfter, to: n.bearingBefore) + turned[i + 1]
            // (more than half a turn round is still a sharp turn that way: U-turns are said by the rules below)
            let direction = ManeuverBuilder.modifier(min(179, max(-179, total)))
            let sameSide = (s.modifier?.isLeft == true && n.modifier?.isLeft == true) || (s.modifier?.isRight == true && n.modifier?.isRight == true)
            // a U-turn slipway between two carriageways may be longer than a crossing: two turns
            // the same way over an unnamed connector back onto the named road the car came on are
            // a U-turn (OSRM's "Slipway Round U-Turn"); over a named street (a bridge, a side
            // street) they are two turns
            let slipwayUTurn = gap < ManeuverBuilder.uTurnSlipwayMeters && abs(total) >= 150 && !s.silent && !n.silent
                && s.street.isEmpty && s.ref.isEmpty && sameSide
                && !steps[i - 1].street.isEmpty && returns(to: steps[i - 1], n)
            guard gap < ManeuverBuilder.collapseDistance || slipwayUTurn else { i += 1; continue }
            let sTurn = !s.silent && s.type != .newName && s.modifier.map { $0 != .straight } ?? false
            let nTurn = !n.silent && n.type != .newName && n.modifier.map { $0 != .straight } ?? false
            let before = steps[i - 1]
            // two turns the same way onto and off a street of its own are two decisions the driver
            // sees: "turn left onto Uhlandstraße", 25 m on "turn left onto Goethestraße"; folded
            // into one "turn sharp left" the first junction offers no sharp left (OSRM says both);
            // so are two turns over a two-way connector to a second junction with another way on
            if sTurn, nTurn, sameSide, gap > ManeuverBuilder.staggeredMeters,
               isStreetOfItsOwn(s, between: before, and: n, leg: leg, turning: total)
                || isConnectorToAJunction(s, between: before, and: n, leg: leg) { i += 1; continue }
            var merged = s
            merged.street = n.street
            merged.ref = n.ref
            if !n.destination.isEmpty { merged.destination = n.destination }
            merged.bearingAfter = n.bearingAfter
            merged.silent = false
            merged.collapsedEnd = max(n.distanceFromStartMeters, n.collapsedEnd)
            merged.atBend = s.atBend && n.atBend
            if s.silent && n.silent {
                steps.remove(at: i + 1)
                turned.remove(at: i + 1)
                continue
            } else if !sTurn && !nTurn && direction == .straight {
                // straight over both carriageways: at most a change of name
                merged.type = .newName
                merged.modifier = .straight
                merged.landmark = s.landmark ?? n.landmark
                if !announcesNameChange(before, merged) { merged.silent = true }
            } else if abs(total) >= 150 && (sameSide || sTurn) && returns(to: before, n) {
                // back onto the road the car came on: a U-turn (OSRM's isUTurn needs the names to match)
                merged.type = .continue
                merged.modifier = .uturn
                merged.landmark = s.landmark ?? n.landmark
            } else if abs(total) >= 150 && sameSide && sTurn && nTurn {
                // two turns the same way adding up to a hairpin onto another road: one sharp turn
                merged.type = .turn
                merged.modifier = s.modifier?.isRight == true ? .sharpRight : .sharpLeft
                merged.landmark = s.landmark ?? n.landmark
            } else if sTurn && nTurn && !sameSide && abs(total) <= 25 && gap > ManeuverBuilder.staggeredMeters {
                // off a road and back onto it by a connector (a curved link): one turn, the first's
                // way; onto another road each turn is said ("turn left, then turn right onto B":
                // the driver has to make both)
                guard before.street == n.street && before.ref == n.ref else { i += 1; continue }
                merged.type = .continue
                merged.modifier = s.modifier
                merged.landmark = s.landmark ?? n.landmark
            } else if sTurn && nTurn && !sameSide && abs(total) <= 25 {
                // staggered (a zig-zag of a few metres): left then right (or right then left) is straight on
                if before.street == n.street && before.ref == n.ref {
                    steps.removeSubrange(i...(i + 1))
                    turned.removeSubrange(i...(i + 1))
                    continue
                }
                merged.type = .newName
                merged.modifier = .straight
            } else if sTurn && nTurn && sameSide {
                // two turns the same way over a short connector: one turn
                merged.type = .turn
                merged.modifier = direction
                merged.landmark = s.landmark ?? n.landmark
            } else if sTurn && nTurn {
                i += 1
                continue
            } else if (s.silent || s.type == .newName) && !s.crossesOneWay {
                // straight on over a two-way road, then a turn: not a divided road's crossing,
                // each said where it is
                i += 1
                continue
            } else if s.silent || s.type == .newName {
                // straight over the first carriageway, then the turn: said at the first
                merged.type = n.type
                merged.modifier = direction
                if merged.type == .newName, merged.modifier != .straight, !n.silent { merged.type = .turn }
                if n.silent {
                    merged.type = s.type == .newName ? .newName : .continue
                    if s.silent || !announcesNameChange(before, n) { merged.silent = true }
                }
                merged.landmark = s.landmark ?? n.landmark
            } else if !n.silent && namedRoadGoesOn(leg, at: n.edgeIndex) {
                // the turn, then straight on where the road turned onto goes on another way by
                // its name (a fork a few metres after the turn): folded into the turn the driver
                // would follow the road, so each is said where it is
                i += 1
                continue
            } else {
                // the turn, then straight over the second carriageway
                merged.type = s.type
                merged.modifier = direction
                if merged.modifier == .straight { merged.modifier = s.modifier }
            }
            if merged.type == .continue, merged.modifier != .uturn, announcesNameChange(before, merged) { merged.type = .turn }
            steps[i] = merged
            steps.remove(at: i + 1)
            turned[i] = total
            turned.remove(at: i + 1)
        }
        return steps.filter { !$0.silent }
    }

    /// Whether the road a turn `s` goes onto, before the turn `n` off it, is a street of its own
    /// rather than a connector: named, neither the road before nor after (not back onto the road the
    /// car came on: a U-turn), and either two-way (a divided road's inner carriageway is one-way:
    /// OSRM's internal intersections) or going on by its name past the second turn, short of a
    /// hairpin.
    private func isStreetOfItsOwn(_ s: Maneuver, between before: Maneuver, and n: Maneuver, leg: RouteLeg,
                                  turning total: Double) -> Bool {
        guard !s.street.isEmpty, s.street != n.street, s.street != before.street, !returns(to: before, n),
              s.edgeIndex < leg.edges.count else { return false }
        return !ManeuverBuilder.isOneWay(map.edge(leg.edges[s.edgeIndex].edge))
            || (abs(total) < 150 && namedRoadGoesOn(leg, at: n.edgeIndex))
    }

    /// How far two branches of a named road may run apart and still be one road parting round an
    /// island, metres.
    static let islandMeters = 150.0

    /// Whether the road `o` leaving a junction is a branch of the named road the route takes
    /// there (`outEdge`, `outRec`, turning `angle`) that goes its own way: of the same name,
    /// leaving within 45° of the route's branch (not the road's other arm at a T), and not meeting
    /// the route's branch again within `islandMeters` (where it does, the road parts round an
    /// island).
    func splitsOff(_ o: Road, from outEdge: DirectedEdge, _ outRec: EdgeRecord, turning angle: Double) -> Bool {
        guard outRec.nameID != 0, abs(Angle.difference(from: angle, to: o.angle)) < 45,
              !announcesName(from: outRec, to: o.record) else { return false }
        let reach = ManeuverBuilder.islandMeters
        return nodesAlong(from: outEdge, meters: reach).isDisjoint(with: nodesAlong(from: o.out, meters: reach))
    }

    /// Whether the road a turn `s` goes onto, before the turn `n` off it, is a two-way connector
    /// (unnamed, or named otherwise than the road before: not a piece of the road the car came on)
    /// to a second junction where the car may take another road: the driver turns at two
    /// junctions ("turn right", 17 m on "turn right onto Maria-Zimmermann-Straße", Heidelberg,
    /// as OSRM and Valhalla both say). Where the second turn leaves no choice, OSRM folds it into
    /// the first, and so does Tern.
    private func isConnectorToAJunction(_ s: Maneuver, between before: Maneuver, and n: Maneuver, leg: RouteLeg) -> Bool {
        guard s.street.isEmpty || s.street != before.street, !returns(to: before, n), s.edgeIndex < leg.edges.count,
              !ManeuverBuilder.isOneWay(map.edge(leg.edges[s.edgeIndex].edge)),
              n.edgeIndex > 0, n.edgeIndex < leg.edges.count else { return false }
        let inEdge = leg.edges[n.edgeIndex - 1], outEdge = leg.edges[n.edgeIndex]
        return roads(at: map.source(of: outEdge), from: inEdge, bearingIn: bearingIn(inEdge)).contains {
            $0.canEnter && $0.out.edge != outEdge.edge
        }
    }

    /// Whether, at the junction where edge `k` of the leg starts, the road arriving there goes on by
    /// its name (not unnamed) within 60° of straight on another way than the route's.
    private func namedRoadGoesOn(_ leg: RouteLeg, at k: Int) -> Bool {
        guard k > 0, k < leg.edges.count else { return false }
        let inEdge = leg.edges[k - 1], outEdge = leg.edges[k]
        let inRec = map.edge(inEdge.edge)
        guard inRec.nameID != 0, map.edge(outEdge.edge).nameID != inRec.nameID else { return false }
        return roads(at: map.source(of: outEdge), from: inEdge, bearingIn: bearingIn(inEdge)).contains {
            $0.canEnter && $0.out.edge != outEdge.edge && $0.deviation < 60 && $0.record.nameID == inRec.nameID
        }
    }

    /// A sliproad is one turn: where the car turns off a road that goes on, onto a short road
    /// that cuts the corner to a road crossing the first a little further on, and joins that road
    /// where nothing else meets, the driver hears "turn right onto B" at the start of the sliproad,
    /// not "turn slightly right", then "turn left onto B" a few seconds later (OSRM's sliproad
    /// handler). Not a sliproad: a ramp onto a road that crosses the first without a junction (no
    /// corner cut), a road that goes on past the place it joins (more than three roads there), a
    /// turn off a road that goes on there, or a longer road.
    private func sliproads(_ input: [Maneuver], leg: RouteLeg) -> [Maneuver] {
        var steps = input
        // (a continue keeps the road: a fork of the road itself is no sliproad)
        let starts: Set<ManeuverType> = [.turn, .offRamp, .onRamp, .fork, .newName]
        let ends: Set<ManeuverType> = [.turn, .newName, .continue, .endOfRoad, .merge, .fork]
        var i = 1
        while i < steps.count - 1 {
            let s = steps[i]
            guard !s.silent, !s.overridden, starts.contains(s.type), let mod = s.modifier, mod != .straight, mod != .uturn else { i += 1; continue }
            var j = i + 1
            while j < steps.count - 1 && steps[j].silent { j += 1 }
            let n = steps[j]
            guard ends.contains(n.type), !n.overridden, n.modifier != .uturn,
                  n.distanceFromStartMeters - s.distanceFromStartMeters <= ManeuverBuilder.sliproadMeters else { i += 1; continue }
            // a corner cut: the two turns together are a turn to the side of the first (not a
            // loop of more than 150°, nor a parallel road that ends up straight on)
            let total = Angle.difference(from: s.bearingBefore, to: n.bearingAfter)
            guard (30...150).contains(abs(total)), (total > 0) == mod.isRight,
                  isSliproad(leg, from: s.edgeIndex, to: n.edgeIndex) else { i += 1; continue }
            var m = s
            m.type = .turn
            m.modifier = ManeuverBuilder.modifier(total)
            m.street = n.street
            m.ref = n.ref
            m.bearingAfter = n.bearingAfter
            // (a landmark where the sliproad joins is not where the car turns off: "at the
            // traffic lights" there would send the driver on to the lights)
            steps[i] = m
            steps.removeSubrange((i + 1)...j)
            i += 1
        }
        return steps
    }

    /// Whether the route's edges from `a` (the turn off the road) to `b` (where it joins the
    /// other road) are a sliproad: the road the car leaves goes on at `a` within 45° of straight
    /// (the sliproad may leave straighter at first, as President Avenue's in Sydney does); the
    /// sliproad is no minor road (service, track); at `b` three roads meet, the car's way on and
    /// the third being the two directions of the road joined, and that third leads back, within
    /// a short distance, to the road the car left (the corner it cuts).
    private func isSliproad(_ leg: RouteLeg, from a: Int, to b: Int) -> Bool {
        guard a > 0, b > a, b < leg.edges.count else { return false }
        let inA = leg.edges[a - 1], outA = leg.edges[a]
        let nodeA = map.source(of: outA)
        let bInA = bearingIn(inA)
        for k in a..<b where ManeuverBuilder.isLowPriority(map.edge(leg.edges[k].edge).roadClass) { return false }
        guard let main = roads(at: nodeA, from: inA, bearingIn: bInA)
            .filter({ $0.out.edge != outA.edge && $0.deviation < 45 })
            .min(by: { $0.deviation < $1.deviation }) else { return false }
        let inB = leg.edges[b - 1], outB = leg.edges[b]
        let nodeB = map.source(of: outB)
        let atB = roads(at: nodeB, from: inB, bearingIn: bearingIn(inB))
        guard atB.count == 2, let third = atB.first(where: { $0.out.edge != outB.edge }),
              !ManeuverBuilder.isLowPriority(third.record.roadClass),
              abs(Angle.difference(from: bearingOut(outB), to: bearingOut(third.out))) >= 120 else { return false }
        let reach = ManeuverBuilder.sliproadMeters
        let ahead = nodesAlong(from: main.out, meters: reach)
        return !ahead.contains(nodeB) && !ahead.isDisjoint(with: nodesAlong(from: third.out, meters: reach))
    }

    /// The nodes along a road leaving by `first`, going on at each junction by the straightest
    /// road (whichever way it may be driven), up to `meters`.
    func nodesAlong(from first: DirectedEdge, meters: Double) -> Set<UInt32> {
        var out = Set<UInt32>()
        var d = first
        var travelled = 0.0
        while out.count < 64 {
            travelled += Double(map.lengthMeters(ofEdge: d.edge))
            let t = map.target(of: d)
            guard out.insert(t).inserted, travelled < meters else { break }
            guard let next = roads(at: t, from: d, bearingIn: bearingIn(d)).min(by: { $0.deviation < $1.deviation }),
                  next.deviation < 60 else { break }
            d = next.out
        }
        return out
    }

    /// Mappers' maneuver overrides (OSM `type=maneuver` relations, as OSRM applies them): where
    /// the route follows an override's from, via and to ways, the maneuver at its via node is the
    /// one the mapper gave (a turn that the geometry makes look straight, a fork), or none
    /// ("suppress": a ramp the driver need not hear about twice). An override of a junction
    /// where Tern says nothing creates the maneuver there.
    private func applyOverrides(_ steps: inout [Maneuver], leg: RouteLeg) {
        guard !map.maneuverOverrides.isEmpty else { return }
        let edges = leg.edges
        var matched = [(ManeuverOverride, Int)]()
        for i in edges.indices {
            for oi in map.maneuverOverridesByFirstEdge[edges[i]] ?? [] {
                let o = map.maneuverOverrides[oi]
                guard i + o.path.count <= edges.count, Array(edges[i..<(i + o.path.count)]) == o.path,
                      let k = ((i + 1)..<(i + o.path.count)).first(where: { map.source(of: edges[$0]) == o.viaNode }) else { continue }
                matched.append((o, k))
            }
        }
        // a maneuver given for a junction wins over a suppression there
        for (o, k) in matched where o.kind != .suppress { apply(o, at: k, to: &steps, leg: leg) }
        for (o, k) in matched where o.kind == .suppress { apply(o, at: k, to: &steps, leg: leg) }
    }

    private func apply(_ o: ManeuverOverride, at k: Int, to steps: inout [Maneuver], leg: RouteLeg) {
        let fixed: Set<ManeuverType> = [.depart, .arrive]
        // the step at this junction (a silent one for an obvious way on)
        let at = steps.firstIndex { !fixed.contains($0.type) && $0.edgeIndex == k }
        if o.kind == .suppress {
            guard let j = at, !steps[j].overridden else { return }
            let gone = steps.remove(at: j)
            // the step before, onto an unnamed road (a ramp), takes the name of the road reached
            if let p = steps[..<j].lastIndex(where: { !$0.silent }), !fixed.contains(steps[p].type),
               steps[p].street.isEmpty, steps[p].ref.isEmpty {
                steps[p].street = gone.street
                steps[p].ref = gone.ref
            }
            return
        }
        let type: ManeuverType
        switch o.kind {
        case .turn, .uturn: type = .turn
        case .continueOn: type = .continue
        case .fork: type = .fork
        case .suppress: return
        }
        let directions: [ManeuverOverride.Direction: ManeuverModifier] = [
            .sharpLeft: .sharpLeft, .left: .left, .slightLeft: .slightLeft, .straight: .straight,
            .slightRight: .slightRight, .right: .right, .sharpRight: .sharpRight,
        ]
        let bIn = bearingIn(leg.edges[k - 1]), bOut = bearingOut(leg.edges[k])
        let modifier = o.kind == .uturn ? .uturn : directions[o.direction] ?? ManeuverBuilder.modifier(Angle.difference(from: bIn, to: bOut))
        var m = at.map { steps[$0] }
            ?? maneuver(type, modifier, leg: leg, at: k, record: map.edge(leg.edges[k].edge), bearingBefore: bIn, bearingAfter: bOut)
        m.type = type
        m.modifier = modifier
        m.exit = nil
        m.silent = false
        m.overridden = true
        if let j = at {
            steps[j] = m
        } else {
            let j = steps.firstIndex { $0.type == .arrive || $0.shapeIndex > m.shapeIndex } ?? steps.count
            steps.insert(m, at: max(1, j))
        }
    }

    /// Whether the road named in `b` is news after the road of step `a`.
    private func announcesNameChange(_ a: Maneuver, _ b: Maneuver) -> Bool {
        let (na, nb) = (a.street, b.street)
        if na == nb { return na.isEmpty && !b.ref.isEmpty && !ManeuverBuilder.sameRefs(a.ref, b.ref) }
        if nb.isEmpty { return false }
        if na.isEmpty { return true }
        return !sameRoad(text: na, nb)
    }

    /// Whether `b` leads back onto the road `a` was on, by its name (or its ref where it has
    /// none): an unnamed road after a named one is another road, so two left turns onto it are
    /// no U-turn. Two unnamed roads cannot be told apart by name: the geometry decides.
    private func returns(to a: Maneuver, _ b: Maneuver) -> Bool {
        if !a.street.isEmpty { return !b.street.isEmpty && sameRoad(text: a.street, b.street) }
        if !a.ref.isEmpty { return b.street.isEmpty && ManeuverBuilder.sameRefs(a.ref, b.ref) }
        return b.street.isEmpty && b.ref.isEmpty
    }

    /// New names that hold only for a short stretch, or that repeat the name already driven on,
    /// are not said (OSRM's suppressShortNameSegments).
    private func suppressShortNames(_ steps: [Maneuver], leg: RouteLeg) -> [Maneuver] {
        guard steps.count > 2 else { return steps }
        var out = [steps[0]]
        var i = 1
        while i < steps.count - 1 {
            let s = steps[i]
            // (a name change where the road has turn lanes to choose from is kept: the lanes are
            // news, OSRM's rule; where every lane will do there is nothing to say)
            if s.type == .newName, !s.overridden, LaneAdvice(s.lanes) == nil, let prev = out.last {
                let next = steps[i + 1]
                // (a new name where the road turns, left, right or sharp, is said however short:
                // the driver hears the turn; so is a slight one at a junction where another road
                // leaves, "turn slightly right onto Am Götzenberg", as Valhalla says, not at a bend;
                // not just before the arrival, which says it)
                let mod = s.modifier ?? .straight
                let turns = mod != .straight && (!s.atBend || ![ManeuverModifier.slightLeft, .slightRight].contains(mod))
                let length = next.distanceFromStartMeters - s.distanceFromStartMeters
                let repeatsName = prev.street == s.street && prev.ref == s.ref
                if repeatsName || (length < ManeuverBuilder.nameSegmentCutoff && (!turns || next.type == .arrive)) {
                    i += 1
                    continue
                }
            }
            out.append(s)
            i += 1
        }
        out.append(steps[steps.count - 1])
        return out
    }

    /// "At the end of the road" helps only when the road passed other junctions before it ends;
    /// right after the previous maneuver it is a plain turn (OSRM's rule).
    private func endOfRoadNeedsIntersections(_ steps: inout [Maneuver], leg: RouteLeg) {
        for i in steps.indices.dropFirst() where steps[i].type == .endOfRoad && !steps[i].overridden {
            let from = max(0, steps[i - 1].edgeIndex), to = steps[i].edgeIndex
            var passed = 0
            if to > from + 1 {
                for e in (from + 1)..<to {
                    let node = map.source(of: leg.edges[e])
                    if map.outgoing(node).count + map.incoming(node).count > 4 { passed += 1 }
                }
            }
            if passed == 0 { steps[i].type = .turn }
        }
    }

    /// The longest name a place may have to be said as a landmark (about two seconds of speech).
    static let landmarkNameCharacters = 32

    /// Landmarks a driver sees, where they are unambiguous: traffic lights at the junction or
    /// the one set passed just before it ("turn left after the traffic lights"), else a named
    /// place at the corner or the one passed just before ("turn right after the Shell station"),
    /// as in landmark routing: at or after the place, never one the driver has yet to reach.
    private func addLandmarks(_ steps: inout [Maneuver], leg: RouteLeg) {
        let turning: Set<ManeuverType> = [.turn, .endOfRoad, .continue, .fork, .newName]
        for i in steps.indices.dropFirst() where turning.contains(steps[i].type) && steps[i].landmark == nil
            && steps[i].modifier != .straight && steps[i].modifier != .uturn {
            let k = steps[i].edgeIndex
            guard k > 0, k < leg.edges.count else { continue }
            let at = steps[i].distanceFromStartMeters
            let previous = steps[i - 1].distanceFromStartMeters
            // signals on the way in, within 150 m and after the previous maneuver; a crossing's
            // signals (nodes a few metres apart) are one set
            var sets = [Double]()
            var e = k - 1
            while e > 0 {
                let node = map.source(of: leg.edges[e])
                let d = at - leg.cumulativeMeters[min(leg.edgeShapeStart[e], leg.cumulativeMeters.count - 1)]
                if d > 150 || at - d <= previous { break }
                if map.flags(ofNode: node).contains(.trafficSignals), d >= 15 {
                    if let last = sets.last, d - last < 30 { } else { sets.append(d) }
                }
                e -= 1
            }
            if sets.count == 1 {
                steps[i].landmark = .trafficSignalsBefore
                continue
            }
            if !sets.isEmpty { continue }
            // a named place at the corner, or the one passed on the last stretch before it; not
            // one named like a road here (a bus stop called after the street says nothing)
            let corner = steps[i].location
            let node = map.source(of: leg.edges[k])
            var roadNames = Set((map.outgoing(node) + map.incoming(node)).map { map.name(map.edge($0.edge).nameID) })
            roadNames.formUnion([steps[i - 1].street, steps[i].street])
            // (a station or post office named after its town is no landmark: "after Èze")
            let recognisable = { (p: (place: Place, distanceMeters: Double)) -> Bool in p.place.kind.isLandmark(named: map.name(p.place.nameID)) }
            // (nor the place the maneuver before was said at: "turn left at Streetside 9", then
            // "turn left onto Schmedgass after Streetside 9" 46 m on says nothing new)
            if case .place(let name, _)? = steps[i - 1].landmark { roadNames.insert(name) }
            // (nor one whose name takes long to say: "at Section d'enseignement professionnel du
            // Lycée Technique et Hôtelier de Monaco" is over before the driver has found it)
            let usable = { (id: UInt32) -> Bool in
                let n = map.name(id)
                return id != 0 && !n.isEmpty && n.count <= ManeuverBuilder.landmarkNameCharacters && !roadNames.contains(n)
            }
            let atCorner = Set(map.places(near: corner, radiusMeters: 35).filter(recognisable).map(\.place.nameID).filter(usable))
            if atCorner.count == 1, let id = atCorner.first {
                steps[i].landmark = .place(map.name(id), after: false)
                continue
            }
            if atCorner.count > 1 { continue }
            var passed = Set<UInt32>()
            var d = 40.0
            while d <= 120, at - d > previous {
                passed.formUnion(map.places(near: leg.position(atMeters: at - d).coordinate, radiusMeters: 25).filter(recognisable).map(\.place.nameID).filter(usable))
                d += 20
            }
            if passed.count == 1, let id = passed.first { steps[i].landmark = .place(map.name(id), after: true) }
        }
    }

    /// Step lengths and times.
    private func lengths(_ result: inout [Maneuver], leg: RouteLeg) {
        for i in 0..<(result.count - 1) {
            let a = result[i], b = result[i + 1]
            result[i].stepDistanceMeters = b.distanceFromStartMeters - a.distanceFromStartMeters
            let ta = leg.cumulativeSeconds[min(a.shapeIndex, leg.cumulativeSeconds.count - 1)]
            let tb = leg.cumulativeSeconds[min(b.shapeIndex, leg.cumulativeSeconds.count - 1)]
            result[i].stepDurationSeconds = tb - ta
        }
    }

    // MARK: - Geometry

    /// The landmark at a junction node, when it has one.
    func landmark(at node: UInt32) -> Landmark? {
        let f = map.flags(ofNode: node)
        if f.contains(.trafficSignals) { return .trafficSignals }
        if f.contains(.stop) { return .stopSign }
        return nil
    }

    /// Bearing of a directed edge as it arrives at its target (last 20 m of shape).
    func bearingIn(_ d: DirectedEdge) -> Double {
        let g = map.shape(of: d)
        var last = g.count - 1
        // the same offset at the end of a road: a short last piece after a long straight one
        if g.count >= 3, ruler.distance(g[last - 1], g[last]) < ManeuverBuilder.offsetMeters,
           ruler.distance(g[last - 2], g[last - 1]) >= ManeuverBuilder.lookahead {
            last -= 1
        }
        return ruler.bearing(g[indexAlong(from: last, step: -1, limit: 0) { g[$0] }], g[last])
    }

    /// The index of the point `lookahead` metres along a line of points from point `i`, forward
    /// (`step` 1) or back (-1), not beyond `limit`. Along the line, not as the crow flies: round a
    /// tight loop, a spiral ramp or a hairpin, the point 20 m away in a straight line lies back
    /// across the loop, and the bearing from it had a left turn off Rue Plati, Monaco, come out as
    /// straight on.
    func indexAlong(from i: Int, step: Int, limit: Int, _ point: (Int) -> Coordinate) -> Int {
        var j = i + step, along = ruler.distance(point(i), point(j))
        while j != limit && along < ManeuverBuilder.lookahead {
            along += ruler.distance(point(j), point(j + step))
            j += step
        }
        return j
    }

    /// Bearing of a directed edge as it leaves its source (first 20 m of shape).
    func bearingOut(_ d: DirectedEdge) -> Double {
        let g = map.shape(of: d)
        var first = 0
        // an offset: a short first piece before a longer straight one (OSRM's coordinate
        // extractor takes the road's direction from the long part)
        if g.count >= 3, ruler.distance(g[0], g[1]) < ManeuverBuilder.offsetMeters, ruler.distance(g[1], g[2]) >= ManeuverBuilder.offsetMeters {
            first = 1
        }
        return ruler.bearing(g[first], g[indexAlong(from: first, step: 1, limit: g.count - 1) { g[$0] }])
    }

    /// The direction to set off in: along the first road only (20 m ahead, or its end when the
    /// route turns sooner: 15 m before a right turn off an eastbound road is "head east", not
    /// "head south").
    func departBearing(_ leg: RouteLeg) -> Double {
        let s = leg.shape
        let end = leg.edgeShapeStart.count > 1 ? min(max(leg.edgeShapeStart[1], 1), s.count - 1) : s.count - 1
        return ruler.bearing(s[0], s[indexAlong(from: 0, step: 1, limit: end) { s[$0] }])
    }

    func bearingIn(_ leg: RouteLeg, shapeIndex: Int) -> Double {
        let s = leg.shape
        guard shapeIndex > 0 else { return departBearing(leg) }
        return ruler.bearing(s[indexAlong(from: shapeIndex, step: -1, limit: 0) { s[$0] }], s[shapeIndex])
    }

    /// Side of the road the destination lies on, from the last stretch of the leg.
    func side(of destination: Coordinate, leg: RouteLeg) -> Side? {
        let s = leg.shape
        guard s.count >= 2 else { return nil }
        let end = s[s.count - 1]
        if ruler.distance(end, destination) < 1 { return nil }
        let travel = bearingIn(leg, shapeIndex: s.count - 1)
        let toDest = ruler.bearing(end, destination)
        let d = Angle.difference(from: travel, to: toDest)
        if abs(d) < 10 || abs(d) > 170 { return nil }
        return d > 0 ? .right : .left
    }
}
