import Geo

/// Walking along a road from junction to junction (OSRM's NodeBasedGraphWalker and its
/// accumulators and selectors, src/extractor/intersection/node_based_graph_walker.cpp). The
/// views along the way are built without merging, from close coordinates, so that looking at a
/// neighbour never needs the neighbour's own merges.
extension AnalysisContext {
    /// A road's identity for the walkers: OSRM compares name ids, which hold the name and the ref.
    struct NameKey: Hashable { var name: UInt32, ref: UInt32 }
    func nameKey(_ e: GuidanceGraph.Edge) -> NameKey { NameKey(name: graph.data(e).nameID, ref: graph.data(e).refID) }

    /// Drives from `start` along `edge`, letting `select` pick the way on at each junction, until
    /// `terminate` says so (then the node and edge last driven), or the road ends, loops back,
    /// or `select` finds no way on (nil). `update` sees every edge driven.
    @discardableResult
    func traverse(from start: UInt32, via edge: GuidanceGraph.Edge, update: (UInt32, GuidanceGraph.Edge) -> Void,
                  terminate: () -> Bool, select: (UInt32, GuidanceGraph.Edge, Intersection) -> GuidanceGraph.Edge?)
        -> (node: UInt32, edge: GuidanceGraph.Edge)? {
        var node = start, current = edge
        for _ in 0..<1000 {
            update(node, current)
            if graph.target(current) == start { return nil }
            let view = connectedRoads(from: current, useClose: true)
            if view.count <= 1 { return nil }
            guard let next = select(node, current, view) else { return nil }
            if terminate() { return (node, current) }
            node = graph.target(current)
            current = next
        }
        return nil
    }

    /// Through nodes of two roads only (a signal, a change of tags).
    func skipPassThrough(_ node: UInt32, _ edge: GuidanceGraph.Edge, _ view: Intersection) -> GuidanceGraph.Edge? {
        view.count == 2 ? view[1].edge : nil
    }

    /// The road named `desired` (or else the straightest), by score: not enterable +360 where
    /// entry is required, another name +180, plus the deviation from straight.
    func selectByNameAndStraightness(_ view: Intersection, desired: NameKey, requiresEntry: Bool) -> Int? {
        func score(_ r: ConnectedRoad) -> Double {
            (requiresEntry && !r.entryAllowed ? 360 : 0) + (nameKey(r.edge) != desired ? 180 : 0) + r.deviation
        }
        guard view.count > 1 else { return nil }
        var best = 1
        for i in 2..<view.count where score(view[i]) < score(view[best]) { best = i }
        if requiresEntry && !view[best].entryAllowed { return nil }
        return best
    }

    /// The straightest road of the name wanted, where following it is the only sensible choice
    /// (OSRM's SelectStraightmostRoadByNameAndOnlyChoice): it goes on roughly the way the walk
    /// began, or it is the only road of that name and no crazy turn; with `stopOnAmbiguous`, not
    /// at an end of road with a road as good the other way, nor where one can go straight on.
    func selectStraightmostByName(_ view: Intersection, desired: NameKey, initialBearing: Double, requiresEntry: Bool,
                                  stopOnAmbiguous: Bool) -> GuidanceGraph.Edge? {
        guard view.count > 1 else { return nil }
        let sameName = view.filter { nameKey($0.edge) == desired }.count
        if sameName > 2 { return nil }
        guard let m = selectByNameAndStraightness(view, desired: desired, requiresEntry: requiresEntry) else { return nil }
        let road = view[m]
        if (view.count == 2 || view.closestTurn(180) == m) && road.deviation < 40
            && TurnAngle.deviation(initialBearing, road.perceivedBearing) < 40 {
            return road.edge
        }
        let onlySameName = sameName <= 2 && nameKey(road.edge) == desired && road.deviation < 100
        if stopOnAmbiguous && road.deviation > 60 {
            if let o = view.closestTurn(TurnAngle.reverse(road.angle)), TurnAngle.deviation(road.angle, view[o].angle) > 155 { return nil }
            if let s = view.closestTurn(180), view[s].deviation < 25 { return nil }
        }
        return onlySameName ? road.edge : nil
    }

    /// Walks up to `maxLength` metres along a road, collecting its shape (OSRM's
    /// LengthLimitedCoordinateAccumulator); junction points appear twice, as OSRM collects them.
    func coordinatesAlong(from node: UInt32, via edge: GuidanceGraph.Edge, maxLength: Double,
                          select: (UInt32, GuidanceGraph.Edge, Intersection) -> GuidanceGraph.Edge?) -> (coordinates: [Coordinate], length: Double) {
        var coords = [Coordinate]()
        var total = 0.0
        traverse(from: node, via: edge, update: { _, e in
            var c = graph.geometry(e)
            let len = GeometryMath.length(c)
            if total + len > maxLength { c = CoordinateExtractor.trim(c, to: maxLength - total) }
            coords += c
            total = min(total + len, maxLength)
        }, terminate: { total >= maxLength }, select: select)
        return (coords, total)
    }

    /// Walks to the next junction of more than two roads, at most `hopLimit` edges, along roads
    /// `select` picks (OSRM's IntersectionFinderAccumulator): the last node, the edge into the
    /// junction and the junction's view (close coordinates).
    func findIntersection(from node: UInt32, via edge: GuidanceGraph.Edge, hopLimit: Int,
                          select: (UInt32, GuidanceGraph.Edge, Intersection) -> GuidanceGraph.Edge?)
        -> (node: UInt32, via: GuidanceGraph.Edge, view: Intersection) {
        var hops = 0
        var last = (node: node, via: edge, view: Intersection())
        traverse(from: node, via: edge, update: { from, e in
            hops += 1
            last = (from, e, connectedRoads(from: e, useClose: true))
        }, terminate: {
            if last.view.count > 2 || hops == hopLimit {
                hops = 0
                return true
            }
            return false
        }, select: select)
        return last
    }
}
