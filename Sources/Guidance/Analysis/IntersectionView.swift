import Geo

/// A junction as seen from one road coming in: which roads the car may take and at what angle
/// (OSRM's convertToIntersectionView and isTurnAllowed, intersection_analysis.cpp).
extension AnalysisContext {
    /// The view from `incoming` (an edge arriving at its target) with divided roads merged: what
    /// the turn handlers decide on.
    func intersectionView(from incoming: GuidanceGraph.Edge) -> Intersection {
        let node = graph.target(incoming)
        let g = intersectionGeometries(node)
        return view(from: incoming, geometries: g.roads, merged: g.merged)
    }

    /// The view without merging, with close (`useClose`) or representative coordinates (OSRM's
    /// getConnectedRoads, for walking along roads and looking at neighbouring junctions).
    func connectedRoads(from incoming: GuidanceGraph.Edge, useClose: Bool) -> Intersection {
        let node = graph.target(incoming)
        let out = outgoingGeometries(node, useClose: useClose)
        var all = out
        for o in out {
            all.append(RoadGeometry(edge: graph.reverse(o.edge), initialBearing: TurnAngle.reverse(o.initialBearing),
                                    perceivedBearing: TurnAngle.reverse(o.perceivedBearing), segmentLength: o.segmentLength, arriving: true))
        }
        return view(from: incoming, geometries: all, merged: [])
    }

    /// The road `e` in a junction's geometries: leaving the junction, or with `arriving` the way
    /// it comes in (the two differ only for a loop, whose ends both lie at the junction).
    func geometry(_ e: GuidanceGraph.Edge, in geoms: [RoadGeometry], arriving: Bool = false) -> RoadGeometry? {
        geoms.first { $0.edge == e && $0.arriving == arriving } ?? geoms.first { $0.edge == e }
    }

    /// The view: [0] the way back, then by angle; roads the car may not take kept where they
    /// shape the junction (a one-way coming in), merged carriageways coming in left out.
    func view(from incoming: GuidanceGraph.Edge, geometries geoms: [RoadGeometry], merged: Set<GuidanceGraph.Edge>) -> Intersection {
        let node = graph.target(incoming), fromNode = graph.source(incoming)
        guard let inGeom = geometry(incoming, in: geoms, arriving: true) else { return [] }
        let inBearing = inGeom.perceivedBearing, inInitial = inGeom.initialBearing
        var uturn: ConnectedRoad? = nil
        var keyed = [(road: ConnectedRoad, key: Double)]()
        var allowedUTurns = 0
        func isUTurn(_ a: Double) -> Bool { abs(a) < Double.ulpOfOne }
        for o in graph.edges(at: node) {
            guard let g = geometry(o, in: geoms) else { continue }
            let allowed = isTurnAllowed(from: incoming, to: o, geometries: geoms)
            var angle = (TurnAngle.between(entry: inBearing, exit: g.perceivedBearing) * 1e8).rounded() / 1e8
            angle = angle.truncatingRemainder(dividingBy: 360)
            var initialAngle = TurnAngle.between(entry: inInitial, exit: g.initialBearing)
            // the representative point puts the road just past the way back, while the road as
            // drawn lies on the other side: noise, the turn is a u-turn
            if allowed && ((angle < 15 && initialAngle > 180) || (angle > 345 && initialAngle < 180)) {
                angle = 0
                initialAngle = 0
            }
            var road = ConnectedRoad(edge: o, initialBearing: g.initialBearing, perceivedBearing: g.perceivedBearing,
                                     segmentLength: g.segmentLength)
            road.entryAllowed = allowed
            road.angle = angle
            if o == graph.reverse(incoming) {
                uturn = road
            } else if allowed || (!merged.contains(o) && !isUTurn(angle)) {
                if isUTurn(angle) { allowedUTurns += 1 }
                // ordered by the roads as drawn, where the perceived angle crosses the way back
                let key: Double
                if isUTurn(initialAngle) {
                    key = angle > 180 ? 360 : 0
                } else if (angle > 270 && initialAngle < 90) || (angle < 90 && initialAngle > 270) {
                    key = angle
                } else {
                    key = initialAngle
                }
                keyed.append((road, key))
            }
        }
        _ = fromNode
        guard let back = uturn else { return [] }
        if back.entryAllowed || allowedUTurns == 0 { keyed.insert((back, 0), at: 0) }
        // (a stable sort by the drawn order, then the perceived angle)
        let order = keyed.indices.sorted { (keyed[$0].key, keyed[$0].road.angle, $0) < (keyed[$1].key, keyed[$1].road.angle, $1) }
        var roads = order.map { keyed[$0].road }
        // keep the perceived angles in that order: at most half a degree past the previous one
        if roads.count >= 2 {
            for i in 1..<roads.count where roads[i].angle < roads[i - 1].angle {
                let c = roads[i - 1].angle
                roads[i].angle = restrictAngle(c + min(0.5, restrictAngle(360 - c) / 2))
            }
        }
        if !roads.contains(where: { abs($0.angle) < Double.ulpOfOne }) { roads.insert(back, at: 0) }
        return roads
    }

    func restrictAngle(_ a: Double) -> Double {
        var x = a
        while x < 0 { x += 360 }
        while x > 360 { x -= 360 }
        return x
    }

    /// Whether a car arriving on `from` may leave on `to` (OSRM's isTurnAllowed): not against a
    /// one-way, not where a restriction forbids it, a u-turn only at a dead end or where nothing
    /// else can be done, and never against a roundabout's flow.
    func isTurnAllowed(from: GuidanceGraph.Edge, to: GuidanceGraph.Edge, geometries geoms: [RoadGeometry]) -> Bool {
        if graph.data(from).reversed || graph.data(to).reversed { return false }
        let node = graph.target(from), fromNode = graph.source(from)
        let inTern = graph.lastTernEdge(from)
        func restricted(_ o: GuidanceGraph.Edge) -> Bool { restrictions.forbids(inTern, graph.firstTernEdge(o)) }
        if restricted(to) { return false }
        guard let fromGeom = geometry(from, in: geoms, arriving: true) else { return true }
        let fromReverse = TurnAngle.reverse(fromGeom.perceivedBearing)
        var allowedExits = 0, arriving = 0
        var ringFrom: (edge: GuidanceGraph.Edge, angle: Double)? = nil
        var ringTo: (edge: GuidanceGraph.Edge, angle: Double)? = nil
        for e in graph.edges(at: node) {
            let rev = graph.reverse(e)
            if !graph.data(e).reversed && !restricted(e) { allowedExits += 1 }
            if !graph.data(rev).reversed { arriving += 1 }
            let d = graph.data(e)
            guard d.roundabout || d.circular else { continue }
            if d.reversed {
                // a ring edge flowing into the node
                guard let rg = geometry(rev, in: geoms, arriving: true) else { continue }
                let a = TurnAngle.between(entry: rg.perceivedBearing, exit: fromReverse)
                if a > (ringFrom?.angle ?? 0) { ringFrom = (rev, a) }
            } else {
                guard let eg = geometry(e, in: geoms) else { continue }
                let a = TurnAngle.between(entry: fromReverse, exit: eg.perceivedBearing)
                if a > (ringTo?.angle ?? 0) { ringTo = (e, a) }
            }
        }
        let barrier = graph.map.nodeFlags[Int(node)].contains(.barrier)
        if graph.target(to) == fromNode && to == graph.reverse(from) {
            if barrier { return true }
            if graph.degree(node) == 1 { return true }
            if allowedExits == 1 || arriving <= 1 { return true }
            if hasUTurnLane(from) { return true }
            return false
        }
        if barrier { return false }
        if let rf = ringFrom, let rt = ringTo, let rfg = geometry(rf.edge, in: geoms, arriving: true), let rtg = geometry(rt.edge, in: geoms),
           let tg = geometry(to, in: geoms) {
            let ring = TurnAngle.between(entry: rfg.perceivedBearing, exit: rtg.perceivedBearing)
            let fromAngle = TurnAngle.between(entry: rfg.perceivedBearing, exit: fromReverse)
            let toAngle = TurnAngle.between(entry: rfg.perceivedBearing, exit: tg.perceivedBearing)
            if (fromAngle < ring && toAngle < fromAngle) || (fromAngle > ring && toAngle > fromAngle) { return false }
        }
        return true
    }

    /// The road coming in has a lane marked for turning round.
    func hasUTurnLane(_ e: GuidanceGraph.Edge) -> Bool {
        let id = graph.data(e).laneDescription
        guard id != 0 else { return false }
        return graph.text(id).split(separator: "|", omittingEmptySubsequences: false).contains { lane in
            lane.split(separator: ";").contains { $0 == "uturn" }
        }
    }

    /// Follows a road over nodes of two roads until a junction (or back to the start): the node
    /// before it and the edge into it (OSRM's skipDegreeTwoNodes).
    func skipDegreeTwoNodes(from node: UInt32, via edge: GuidanceGraph.Edge) -> (node: UInt32, edge: GuidanceGraph.Edge) {
        var road = (node: node, edge: edge)
        var next = graph.target(edge)
        var hops = 0
        while graph.degree(next) == 2 && next != node && hops < 1000 {
            let out = graph.edges(at: next)
            var e = out[out.startIndex]
            if graph.target(e) == road.node { e = out[out.startIndex + 1] }
            road = (next, e)
            next = graph.target(e)
            hops += 1
        }
        return road
    }
}
