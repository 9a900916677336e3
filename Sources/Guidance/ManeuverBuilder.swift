import Geo
import MapData
import Routing

/// Derives the maneuvers of a route leg from the road network around each junction it passes.
public struct ManeuverBuilder: Sendable {
    public let map: RoadMap
    /// Planar distances and bearings (no trigonometry per point), set per leg at its latitude.
    private var ruler: CheapRuler
    public init(map: RoadMap) {
        self.map = map
        let (lo, hi) = map.bounds
        ruler = CheapRuler(latitude: (lo.latitude + hi.latitude) / 2)
    }

    /// Angle (degrees) below which a change of direction at a junction is "straight on".
    static let straightTolerance = 25.0

    /// Maneuvers of one leg: depart first, arrive last. `destination` is the requested end point
    /// (before snapping), used for the side of the street.
    public func maneuvers(for leg: RouteLeg, destination: Coordinate? = nil, isLastLeg: Bool = true) -> [Maneuver] {
        var local = self
        if let first = leg.shape.first { local.ruler = CheapRuler(latitude: first.latitude) }
        return local.build(leg, destination: destination)
    }

    private func build(_ leg: RouteLeg, destination: Coordinate?) -> [Maneuver] {
        var result = [Maneuver]()
        let edges = leg.edges
        guard !edges.isEmpty, leg.shape.count >= 2 else { return result }
        let firstBearing = bearingOut(leg, shapeIndex: 0)
        let first = map.edge(edges[0].edge)
        result.append(Maneuver(type: .depart, modifier: nil, street: map.name(first.nameID), ref: map.name(first.refID),
                               location: leg.shape[0], shapeIndex: 0, distanceFromStartMeters: 0,
                               bearingBefore: 0, bearingAfter: firstBearing))
        var k = 1
        while k < edges.count {
            let inEdge = edges[k - 1], outEdge = edges[k]
            let node = map.source(of: outEdge)
            let shapeIndex = leg.edgeShapeStart[k]
            let inRec = map.edge(inEdge.edge), outRec = map.edge(outEdge.edge)
            let bIn = bearingIn(inEdge), bOut = bearingOut(outEdge)
            let angle = Angle.difference(from: bIn, to: bOut)
            let location = map.coordinate(ofNode: node)
            let along = leg.cumulativeMeters[min(shapeIndex, leg.cumulativeMeters.count - 1)]
            func make(_ type: ManeuverType, _ modifier: ManeuverModifier?, exit: Int? = nil, street: UInt32, ref: UInt32) -> Maneuver {
                var m = Maneuver(type: type, modifier: modifier, exit: exit, street: map.name(street), ref: map.name(ref),
                                 location: location, shapeIndex: shapeIndex, distanceFromStartMeters: along,
                                 bearingBefore: bIn, bearingAfter: bOut)
                m.landmark = landmark(at: node)
                return m
            }

            // Roundabouts: one maneuver from the entry to the exit, counting exits passed.
            let isRing: (EdgeRecord) -> Bool = { $0.flags.contains(.roundabout) || $0.flags.contains(.circular) }
            if isRing(outRec) && !isRing(inRec) {
                var exits = 0
                var j = k
                while j < edges.count && isRing(map.edge(edges[j].edge)) {
                    j += 1
                    if j < edges.count {
                        // every node on the ring with a way out counts as an exit
                        let n = map.source(of: edges[j])
                        let outs = map.outgoing(n).filter { !isRing(map.edge($0.edge)) }
                        if !outs.isEmpty { exits += 1 }
                    }
                }
                if j < edges.count {
                    let exitEdge = edges[j]
                    let exitRec = map.edge(exitEdge.edge)
                    let total = Angle.difference(from: bIn, to: bearingOut(exitEdge))
                    let type: ManeuverType = outRec.flags.contains(.circular) && !outRec.flags.contains(.roundabout) ? .rotary : .roundabout
                    var m = make(type, ManeuverModifier(turnAngle: total), exit: max(1, exits),
                                 street: exitRec.nameID, ref: exitRec.refID)
                    m.bearingAfter = bearingOut(exitEdge)
                    result.append(m)
                    k = j + 1
                    continue
                } else {
                    // the route ends on the ring: enter it and arrive
                    result.append(make(.roundabout, ManeuverModifier(turnAngle: angle), exit: nil, street: outRec.nameID, ref: outRec.refID))
                    break
                }
            }

            // turning round (at a dead end, or where the route comes back): always said
            if outEdge == inEdge.opposite || abs(angle) >= 170 {
                result.append(make(.continue, .uturn, street: outRec.nameID, ref: outRec.refID))
                k += 1
                continue
            }

            let options = map.outgoing(node).filter { $0 != outEdge && $0 != inEdge.opposite }
            let sameName = inRec.nameID == outRec.nameID && inRec.refID == outRec.refID
            let modifier = ManeuverModifier(turnAngle: angle)
            var emitted: Maneuver?

            if outRec.roadClass.isLink && !inRec.roadClass.isLink && !options.isEmpty {
                let fromHighway = inRec.roadClass == .motorway || inRec.roadClass == .trunk
                emitted = make(fromHighway ? .offRamp : .onRamp, modifier == .straight ? (angle >= 0 ? .slightRight : .slightLeft) : modifier,
                               street: outRec.nameID, ref: outRec.refID)
            } else if inRec.roadClass.isLink && !outRec.roadClass.isLink
                        && (outRec.roadClass == .motorway || outRec.roadClass == .trunk) && !options.isEmpty {
                emitted = make(.merge, modifier == .straight ? (angle >= 0 ? .slightRight : .slightLeft) : modifier,
                               street: outRec.nameID, ref: outRec.refID)
            } else if options.isEmpty {
                // no choice here: only a change of name is worth saying
                if !sameName, inRec.nameID != 0 || outRec.nameID != 0 {
                    // OSRM's "new name" with the direction: the text says "Turn right onto" at a corner
                    emitted = make(.newName, abs(angle) < 25 ? .straight : modifier, street: outRec.nameID, ref: outRec.refID)
                }
            } else {
                let straightest = options.map { abs(Angle.difference(from: bIn, to: bearingOut($0))) }.min() ?? 180
                let isObvious = abs(angle) < ManeuverBuilder.straightTolerance && straightest > abs(angle) + 20
                if isObvious && sameName {
                    emitted = nil
                } else if abs(angle) < ManeuverBuilder.straightTolerance {
                    if !sameName {
                        emitted = make(.newName, .straight, street: outRec.nameID, ref: outRec.refID)
                    } else if straightest < abs(angle) + 10 {
                        // another road is as straight: say which one to keep to
                        emitted = make(.continue, angle >= 0 ? (abs(angle) < 10 ? .straight : .slightRight) : (abs(angle) < 10 ? .straight : .slightLeft),
                                       street: outRec.nameID, ref: outRec.refID)
                    }
                } else {
                    let straightAhead = options.contains { abs(Angle.difference(from: bIn, to: bearingOut($0))) < 35 }
                    let type: ManeuverType = !straightAhead && options.allSatisfy({ abs(Angle.difference(from: bIn, to: bearingOut($0))) > 45 })
                        && hasOppositeOption(options, bIn: bIn, angle: angle, name: outRec.nameID) ? .endOfRoad : (sameName ? .continue : .turn)
                    emitted = make(type, modifier, street: outRec.nameID, ref: outRec.refID)
                }
            }
            if let m = emitted { result.append(m) }
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
        result.append(arrive)

        // step lengths and times
        for i in 0..<(result.count - 1) {
            let a = result[i], b = result[i + 1]
            result[i].stepDistanceMeters = b.distanceFromStartMeters - a.distanceFromStartMeters
            let ta = leg.cumulativeSeconds[min(a.shapeIndex, leg.cumulativeSeconds.count - 1)]
            let tb = leg.cumulativeSeconds[min(b.shapeIndex, leg.cumulativeSeconds.count - 1)]
            result[i].stepDurationSeconds = tb - ta
        }
        return result
    }

    /// True when the junction is a T: options on both sides, none straight ahead.
    /// True at the end of a road meeting a through road: the other way along the same road
    /// (same name) leaves on the opposite side.
    private func hasOppositeOption(_ options: [DirectedEdge], bIn: Double, angle: Double, name: UInt32) -> Bool {
        options.contains { o in
            let a = Angle.difference(from: bIn, to: bearingOut(o))
            return (a > 0) != (angle > 0) && abs(a) > 45 && map.edge(o.edge).nameID == name
        }
    }

    /// The landmark at a junction node, when it has one.
    func landmark(at node: UInt32) -> Landmark? {
        let f = map.flags(ofNode: node)
        if f.contains(.trafficSignals) { return .trafficSignals }
        if f.contains(.stop) { return .stopSign }
        return nil
    }

    /// Bearing of a directed edge as it arrives at its target (last 20 m of shape).
    func bearingIn(_ d: DirectedEdge) -> Double {
        let g = map.geometry(of: d)
        let end = g[g.count - 1]
        var i = g.count - 2
        while i > 0 && ruler.distance(g[i], end) < 20 { i -= 1 }
        return ruler.bearing(g[i], end)
    }

    /// Bearing of a directed edge as it leaves its source (first 20 m of shape).
    func bearingOut(_ d: DirectedEdge) -> Double {
        let g = map.geometry(of: d)
        let start = g[0]
        var i = 1
        while i < g.count - 1 && ruler.distance(start, g[i]) < 20 { i += 1 }
        return ruler.bearing(start, g[i])
    }

    func bearingOut(_ leg: RouteLeg, shapeIndex: Int) -> Double {
        let s = leg.shape
        var j = shapeIndex + 1
        while j < s.count - 1 && ruler.distance(s[shapeIndex], s[j]) < 20 { j += 1 }
        return ruler.bearing(s[shapeIndex], s[min(j, s.count - 1)])
    }

    func bearingIn(_ leg: RouteLeg, shapeIndex: Int) -> Double {
        let s = leg.shape
        var j = shapeIndex - 1
        while j > 0 && ruler.distance(s[j], s[shapeIndex]) < 20 { j -= 1 }
        return ruler.bearing(s[max(0, j)], s[shapeIndex])
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
