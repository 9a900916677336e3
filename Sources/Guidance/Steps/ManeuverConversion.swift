import Geo
import MapData
import Routing

/// The engine's steps as the maneuvers the navigator says (OSRM's maneuver vocabulary): types,
/// modifiers, exits, names, lanes, signs, the side of the destination.
enum ManeuverConversion {
    static func maneuvers(_ steps: [RouteStep], _ c: StepContext, destination: Coordinate?) -> [Maneuver] {
        let leg = c.leg, map = c.map
        var out = [Maneuver]()
        out.reserveCapacity(steps.count)
        for s in steps {
            let at = min(s.geometryBegin, leg.shape.count - 1)
            var m = Maneuver(type: type(s), modifier: modifier(s), exit: s.exit == 0 ? nil : s.exit, street: c.text(s.nameID),
                             ref: c.text(s.refID), location: s.location, shapeIndex: at,
                             distanceFromStartMeters: leg.cumulativeMeters[at], bearingBefore: s.bearingBefore, bearingAfter: s.bearingAfter)
            m.onFerry = s.onFerry
            m.edgeIndex = s.edgeIndex
            m.destination = s.destinationEdge.map { map.destination(of: $0) } ?? ""
            m.rotaryName = c.text(s.rotaryNameID)
            if !s.isWaypoint, s.edgeIndex > 0, s.edgeIndex < leg.edges.count {
                let node = map.source(of: leg.edges[s.edgeIndex])
                m.exitNumber = map.exitRef(ofNode: node)
                if Instructions.saysLandmark(m.type) { m.landmark = Landmarks.atNode(map, node) }
                // no other road meets: the road only bends onto a new name
                m.atBend = s.front.roads == 2
            }
            m.lanes = lanes(s.front, c)
            if s.waypoint == .arrive, let d = destination {
                m.side = RelativeLocations.side(destination: d, leg: leg.shape)
                m.modifier = m.side.map { $0 == .left ? .left : .right }
            }
            out.append(m)
        }
        // step lengths and times
        // (the fields only: a whole Maneuver copied retains all its strings)
        let lastTime = leg.cumulativeSeconds.count - 1
        for i in 0..<max(0, out.count - 1) {
            let a = out[i].shapeIndex, b = out[i + 1].shapeIndex
            out[i].stepDistanceMeters = out[i + 1].distanceFromStartMeters - out[i].distanceFromStartMeters
            out[i].stepDurationSeconds = leg.cumulativeSeconds[min(b, lastTime)] - leg.cumulativeSeconds[min(a, lastTime)]
        }
        return out
    }

    static func type(_ s: RouteStep) -> ManeuverType {
        switch s.waypoint {
        case .depart: return .depart
        case .arrive: return .arrive
        case .none: break
        }
        switch s.type {
        case .newName: return .newName
        case .continue: return .continue
        case .turn, .sliproad, .invalid: return .turn
        case .merge: return .merge
        case .onRamp: return .onRamp
        case .offRamp: return .offRamp
        case .fork: return .fork
        case .endOfRoad: return .endOfRoad
        case .notification: return .notification
        case .enterRoundabout, .enterRoundaboutAtExit: return .roundabout
        case .enterAndExitRoundabout, .exitRoundabout, .exitRoundaboutIntersection: return .exitRoundabout
        case .enterRotary, .enterRotaryAtExit: return .rotary
        case .enterAndExitRotary, .exitRotary: return .exitRotary
        case .enterRoundaboutIntersection, .enterRoundaboutIntersectionAtExit, .enterAndExitRoundaboutIntersection: return .roundaboutTurn
        case .noTurn, .suppressed, .stayOnRoundabout: return .continue
        }
    }

    static func modifier(_ s: RouteStep) -> ManeuverModifier? {
        if s.isWaypoint { return nil }
        switch s.modifier {
        case .uturn: return .uturn
        case .sharpRight: return .sharpRight
        case .right: return .right
        case .slightRight: return .slightRight
        case .straight: return .straight
        case .slightLeft: return .slightLeft
        case .left: return .left
        case .sharpLeft: return .sharpLeft
        }
    }

    /// The lanes of the road coming in, left to right, those the turn takes valid (lane ids count
    /// from the right). The stored lane text is read as bytes: "|" between lanes (empty lanes
    /// kept), ";" between arrows (empty arrows dropped).
    static func lanes(_ x: StepIntersection, _ c: StepContext) -> [Lane] {
        guard x.lanesInTurn > 0, x.laneText != 0 else { return [] }
        let text = c.map.nameBytes(x.laneText)
        var lanes = [Lane]()
        lanes.reserveCapacity(x.laneCount)
        var arrows = [String]()
        var wordStart = 0
        for k in 0...text.count {
            let laneEnds = k == text.count || text[k] == UInt8(ascii: "|")
            guard laneEnds || text[k] == UInt8(ascii: ";") else { continue }
            if k > wordStart { arrows.append(TurnLaneType.word(text[wordStart..<k])) }
            wordStart = k + 1
            if laneEnds {
                lanes.append(Lane(indications: arrows, valid: false))
                arrows = []
            }
        }
        let n = lanes.count
        for p in lanes.indices {
            let id = n - 1 - p
            lanes[p].valid = id >= x.firstLaneFromTheRight && id < x.firstLaneFromTheRight + x.lanesInTurn
        }
        return lanes
    }
}
