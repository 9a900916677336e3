import FoundationEssentials
import Glibc

/// Entering, going round and leaving roundabouts and rotaries (OSRM's RoundaboutHandler,
/// src/guidance/roundabout_handler.cpp). The ring's kind is a property of the whole ring: a
/// small one with few, well separated exits is a junction of its own ("roundabout turn"), a large
/// named one a rotary.
extension AnalysisContext {
    /// A rotary has a name of its own and is larger than this (radius, m).
    static let maxRoundaboutRadius = 15.0
    /// A roundabout this small with distinct exits is said as a turn.
    static let maxRoundaboutIntersectionRadius = 15.0

    struct RoundaboutFlags { var onRoundabout = false, canEnter = false, canExitSeparately = false }

    func isRing(_ e: GuidanceGraph.Edge) -> Bool { graph.data(e).roundabout || graph.data(e).circular }

    func roundaboutFlags(via: GuidanceGraph.Edge, _ x: Intersection) -> RoundaboutFlags {
        var f = RoundaboutFlags()
        f.onRoundabout = isRing(via)
        let fromNode = graph.source(via)
        // (in the order the car meets them: counter-clockwise for right-hand traffic)
        let order: [Int] = leftHandDriving ? Array(x.indices.reversed()) : Array(x.indices)
        for i in order {
            let r = x[i]
            if graph.data(r.edge).reversed || !r.entryAllowed { continue }
            if isRing(r.edge) {
                f.canEnter = true
            } else if graph.target(r.edge) != fromNode && !f.canEnter {
                // an exit before the ring's entry: leaving here is a turn of its own
                f.canExitSeparately = true
            }
        }
        return f
    }

    func isRoundaboutJunction(via: GuidanceGraph.Edge, _ x: Intersection) -> Bool {
        let f = roundaboutFlags(via: via, x)
        guard f.onRoundabout || f.canEnter else { return false }
        return roundaboutType(graph.target(via)) != .none
    }

    /// What kind of ring passes `node`, walking it once round.
    func roundaboutType(_ node: UInt32) -> RoundaboutType {
        let here = graph.edges(at: node)
        let roundabout = here.contains { graph.data($0).roundabout }, circular = here.contains { graph.data($0).circular }
        if roundabout == circular { return .none }
        var ringNodes = Set<UInt32>()
        var length = 0.0
        var last = node
        var names = [GuidanceGraph.Edge]()
        var connected = Set<AnalysisContext.NameKey>()
        var seen = Set<UInt32>()
        while !seen.contains(last) {
            seen.insert(last)
            let edges = graph.edges(at: last)
            if edges.count > 2 { ringNodes.insert(last) }
            if edges.filter({ isRing($0) }).count != 2 { return .none }
            var next: GuidanceGraph.Edge? = nil
            for e in edges {
                let d = graph.data(e)
                if !d.reversed && d.circular == circular && d.roundabout == roundabout {
                    if next != nil { return .none }  // a fork in the ring
                    next = e
                    if !hasNoName(e) && (names.isEmpty || names.allSatisfy({ requiresAnnouncement($0, e) })) { names.append(e) }
                } else if !d.roundabout && !d.circular {
                    connected.insert(nameKey(e))
                }
            }
            guard let n = next else { return .none }
            length += GeometryMath.length(graph.geometry(n))
            last = graph.target(n)
            if last == node { break }
        }
        if ringNodes.isEmpty { return .none }
        // a ring with one way in and out is more a turning loop than a roundabout
        if ringNodes.count == 1 && roundabout { return .roundaboutIntersection }
        let radius = length / (2 * .pi)
        if names.count == 1, circular || (!connected.contains(nameKey(names[0])) && radius > AnalysisContext.maxRoundaboutRadius) {
            return .rotary
        }
        // an unnamed circular junction is no roundabout: its turns are said as at any junction
        if circular { return .none }
        if qualifiesAsRoundaboutIntersection(ringNodes) && radius < AnalysisContext.maxRoundaboutIntersectionRadius {
            return .roundaboutIntersection
        }
        return .roundabout
    }

    /// At most four ways in and out, one road each, their directions over 40° apart.
    func qualifiesAsRoundaboutIntersection(_ nodes: Set<UInt32>) -> Bool {
        if nodes.count > 4 { return false }
        var bearings = [Double]()
        for n in nodes {
            let edges = graph.edges(at: n)
            if edges.count > 3 { return false }
            guard let road = edges.first(where: { !isRing($0) }) else { continue }
            let g = graph.geometry(road)
            let p = CoordinateExtractor.representative(g, data: graph.data(road), lanes: intersectionLanes(n), selfLoop: graph.target(road) == n)
            bearings.append(GeometryMath.bearing(g[0], p))
        }
        bearings.sort()
        for i in bearings.indices {
            // (OSRM compares the last with the first without wrapping round north)
            if abs(bearings[(i + 1) % bearings.count] - bearings[i]) <= 40 { return false }
        }
        return true
    }

    func handleRoundabout(via: GuidanceGraph.Edge, _ x: inout Intersection) {
        let type = roundaboutType(graph.target(via))
        let flags = roundaboutFlags(via: via, x)
        let node = graph.target(via)
        let order: [Int] = leftHandDriving ? Array(x.indices.reversed()) : Array(x.indices)
        if flags.onRoundabout {
            for i in order {
                let r = x[i]
                let dir = TurnAngle.direction(r.angle)
                if isRing(r.edge) {
                    let exits = graph.edges(at: node).filter { !graph.data($0).reversed }.count
                    if exits == 1 {
                        // the ring goes on and a road only comes in here
                        x[i].instruction = x.count == 2 ? .noTurn : TurnInstruction(.suppressed, dir)
                    } else {
                        // an exit only to service roads does not count on a main-road roundabout
                        let nonIgnorable = graph.edges(at: node).contains { e in
                            !graph.data(e).reversed && !isRing(e) && !classification(e).isLowPriority
                        }
                        x[i].instruction = classification(r.edge).isLowPriority || nonIgnorable
                            ? .remainRoundabout(dir) : TurnInstruction(.suppressed, dir)
                    }
                } else {
                    x[i].instruction = .exitRoundabout(type, dir)
                }
            }
            return
        }
        var crossing = false
        for i in order {
            let r = x[i]
            if isRing(r.edge) { crossing.toggle() }
            guard r.entryAllowed else { continue }
            let dir = TurnAngle.direction(r.angle)
            if isRing(r.edge) {
                x[i].instruction = flags.canExitSeparately ? .enterRoundaboutAtExit(type, dir) : .enterRoundabout(type, dir)
            } else if r.deviation < 25 && crossing {
                // a road straight across the ring, not part of it (a throughabout)
                x[i].instruction = instructionForObvious(roads: x.count, via: via, throughStreet: isThroughStreet(i, x), r)
            } else {
                x[i].instruction = .enterAndExitRoundabout(type, dir)
            }
        }
    }
}
