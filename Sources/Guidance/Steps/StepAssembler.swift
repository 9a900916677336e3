import Geo
import MapData
import Routing

/// A leg's steps as the map's turn records give them (OSRM's assembleSteps,
/// include/engine/guidance/assemble_steps.hpp): a step begins at every turn whose instruction is
/// not NoTurn (suppressed turns included: the later passes fold them), named after the road taken
/// there, with the junction's bearings, entries and lanes; a depart step first, an arrive last.
enum StepAssembler {
    static func assemble(_ c: StepContext) -> [RouteStep] {
        let leg = c.leg, map = c.map
        let edges = leg.edges
        let n = leg.shape.count
        var steps = [RouteStep]()
        // (a step is some 250 bytes: growing the array by doubling moved more memory than the
        // passes read)
        steps.reserveCapacity(edges.count + 1)
        var depart = RouteStep(instruction: .noTurn, location: leg.shape[0], front: .waypoint(in: nil, out: nil))
        depart.waypoint = .depart
        depart.bearingAfter = departBearing(leg)
        depart.nameID = map.nameID(ofEdge: edges[0].edge)
        depart.refID = map.refID(ofEdge: edges[0].edge)
        depart.segregated = map.isSegregated(edges[0])
        depart.front.outBearing = depart.bearingAfter
        depart.edgeIndex = 0
        steps.append(depart)
        for k in 1..<max(1, edges.count) {
            let inEdge = edges[k - 1], outEdge = edges[k]
            guard let turn = turn(map, from: inEdge, to: outEdge) else { continue }
            let node = map.target(of: inEdge)
            var s = RouteStep(instruction: turn.instruction, location: map.coordinate(ofNode: node),
                              front: intersection(c, node: node, from: inEdge, turn: turn))
            s.bearingBefore = TurnAngle.reverse(turn.pre.rounded())
            s.bearingAfter = turn.post
            s.edgeIndex = k
            s.nameID = map.nameID(ofEdge: outEdge.edge)
            s.refID = map.refID(ofEdge: outEdge.edge)
            s.destinationEdge = outEdge
            s.segregated = map.isSegregated(outEdge)
            steps.append(s)
        }
        var arrive = RouteStep(instruction: .noTurn, location: leg.shape[n - 1], front: .waypoint(in: nil, out: nil))
        arrive.waypoint = .arrive
        arrive.bearingBefore = arriveBearing(leg)
        arrive.nameID = map.nameID(ofEdge: edges[edges.count - 1].edge)
        arrive.refID = map.refID(ofEdge: edges[edges.count - 1].edge)
        arrive.edgeIndex = edges.count
        arrive.front.inBearing = TurnAngle.reverse(arrive.bearingBefore)
        steps.append(arrive)
        // lengths, times and shapes: each step from its turn to the next
        for i in steps.indices {
            let begin = i == 0 ? 0 : (steps[i].waypoint == .arrive ? n - 1 : leg.edgeShapeStart[steps[i].edgeIndex])
            steps[i].geometryBegin = min(begin, n - 1)
        }
        for i in steps.indices {
            let end = i + 1 < steps.count ? steps[i + 1].geometryBegin : n - 1
            steps[i].geometryEnd = end + 1
            steps[i].distance = leg.cumulativeMeters[end] - leg.cumulativeMeters[steps[i].geometryBegin]
            steps[i].duration = leg.cumulativeSeconds[min(end, leg.cumulativeSeconds.count - 1)]
                - leg.cumulativeSeconds[min(steps[i].geometryBegin, leg.cumulativeSeconds.count - 1)]
            // the mode of the road the step ends on (OSRM: the last edge before the next turn)
            let lastEdge = i + 1 < steps.count ? max(0, steps[i + 1].edgeIndex - 1) : edges.count - 1
            steps[i].onFerry = map.flags(ofEdge: edges[min(lastEdge, edges.count - 1)].edge).contains(.ferry)
        }
        return steps
    }

    struct Turn {
        var instruction: TurnInstruction
        var lanes: UInt8
        var pre: Double
        var post: Double
    }

    /// The turn between two edges of the leg; nil where nothing is decided (the road passes a
    /// node and goes on: OSRM's compressed geometry).
    static func turn(_ map: RoadMap, from a: DirectedEdge, to b: DirectedEdge) -> Turn? {
        guard let r = map.turnRecord(from: a, to: b) else {
            // a u-turn where the road only passes a node (a turning circle): said as one
            if b == a.opposite {
                let back = shapeBearing(map, a.opposite)
                return Turn(instruction: TurnInstruction(.continue, .uturn), lanes: 0, pre: back, post: back)
            }
            return nil
        }
        var instruction = TurnInstruction(packed: r.instruction) ?? .invalid
        let pre = TurnRecord.degrees(r.preBearing), post = TurnRecord.degrees(r.postBearing)
        if instruction.kind == .noTurn && instruction.direction == .uturn && b != a.opposite { return nil }
        if instruction == .invalid {
            // a turn the router may take that the analysis found no way on (a u-turn it does not
            // allow): said by its angle
            let angle = TurnAngle.between(entry: TurnAngle.reverse(pre), exit: post)
            instruction = b == a.opposite ? TurnInstruction(.continue, .uturn) : TurnInstruction(.turn, TurnAngle.direction(angle))
        }
        if instruction.kind == .noTurn { return nil }
        return Turn(instruction: instruction, lanes: r.lanes, pre: pre, post: post)
    }

    /// The junction as the step's first intersection: the stored bearings nearest the turn's
    /// (OSRM's findMatchingBearing), and the straightest other way the car could take.
    static func intersection(_ c: StepContext, node: UInt32, from a: DirectedEdge, turn: Turn) -> StepIntersection {
        let map = c.map
        let bearings = map.storedBearings(atNode: node)
        guard !bearings.isEmpty else {
            // (a node the road only passes, for a u-turn there)
            return StepIntersection(inBearing: turn.pre, outBearing: turn.pre, roads: 1, allowed: 1)
        }
        let mask = map.entryMask(from: a)
        let count = bearings.count
        // the stored bearings nearest the turn's, first of equals
        var i = 0, o = 0
        for k in 1..<count {
            if TurnAngle.deviation(bearings[k], turn.pre) < TurnAngle.deviation(bearings[i], turn.pre) { i = k }
            if TurnAngle.deviation(bearings[k], turn.post) < TurnAngle.deviation(bearings[o], turn.post) { o = k }
        }
        let inBearing = bearings[i]
        var allowed = 0
        var straightest = 360.0
        for k in 0..<count where mask & (1 << UInt32(k)) != 0 {
            allowed += 1
            guard k != i && k != o else { continue }
            let angle = TurnAngle.between(entry: TurnAngle.reverse(inBearing), exit: bearings[k])
            if straightest == 360 || TurnAngle.fromStraight(angle) < TurnAngle.fromStraight(straightest) { straightest = angle }
        }
        var x = StepIntersection(inBearing: inBearing, outBearing: bearings[o],
                                 roads: count, allowed: allowed, straightestOther: straightest)
        if turn.lanes != 0 {
            x.lanesInTurn = Int(turn.lanes >> 4)
            x.firstLaneFromTheRight = Int(turn.lanes & 0xf)
            x.laneText = map.turnLaneTextID(from: a)
            x.laneCount = c.laneCount(x.laneText)
        }
        return x
    }

    /// The bearing of a directed edge leaving its source (first shape point over a metre away).
    static func shapeBearing(_ map: RoadMap, _ d: DirectedEdge) -> Double {
        let s = map.shape(of: d)
        for i in 1..<s.count where s[0].distance(to: s[i]) > 1 { return s[0].bearing(to: s[i]) }
        return s[0].bearing(to: s[s.count - 1])
    }

    /// OSRM's depart bearing: along the first metre or more of the leg.
    static func departBearing(_ leg: RouteLeg) -> Double {
        let s = leg.shape
        guard s.count >= 2 else { return 0 }
        for i in 1..<s.count where s[0].distance(to: s[i]) > 1 { return s[0].bearing(to: s[i]).rounded() }
        return s[0].bearing(to: s[1]).rounded()
    }

    static func arriveBearing(_ leg: RouteLeg) -> Double {
        let s = leg.shape
        guard s.count >= 2 else { return 0 }
        let last = s[s.count - 1]
        for i in stride(from: s.count - 2, through: 0, by: -1) where s[i].distance(to: last) > 1 { return s[i].bearing(to: last).rounded() }
        return s[s.count - 2].bearing(to: last).rounded()
    }
}
