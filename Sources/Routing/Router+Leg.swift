import Geo
import MapData

extension Router {
    /// Builds the leg's shape and cumulative distance and time from its routing nodes.
    func makeLeg(nodes inNodes: [UInt32], arcs inArcs: [HierarchyArc], startOffset inStart: Double, endOffset inEnd: Double,
                 from a: Snap, to b: Snap) -> RouteLeg {
        var nodes = inNodes, arcs = inArcs, startOffset = inStart, endOffset = inEnd
        // A point exactly on a junction snaps to one of the edges meeting there; an edge driven
        // for no distance at either end is not part of the route (no "turn" onto it). The turn
        // it costs stays in the time, as in OSRM's (ferry.feature: a start at the ferry's
        // landing, where a ferry is no start point, pays the turn off the road onto the ferry).
        func turnSeconds(_ arc: HierarchyArc, into node: UInt32) -> Double {
            max(0, Double(arc.duration) - Double(map.routingDuration(node))) / 1000
        }
        var endTurn = 0.0, startTurn = 0.0
        if nodes.count > 1, endOffset < 0.01 {
            endTurn = turnSeconds(arcs[arcs.count - 1], into: nodes[nodes.count - 1])
            nodes.removeLast(); arcs.removeLast()
            endOffset = map.lengthMeters(ofEdge: map.directedEdge(ofRoutingNode: nodes[nodes.count - 1]).edge)
        }
        if nodes.count > 1, startOffset > map.lengthMeters(ofEdge: map.directedEdge(ofRoutingNode: nodes[0]).edge) - 0.01 {
            startTurn = turnSeconds(arcs[0], into: nodes[1])
            nodes.removeFirst(); arcs.removeFirst()
            startOffset = 0
        }
        let path = nodes.map { map.directedEdge(ofRoutingNode: $0) }
        let ruler = CheapRuler(latitude: a.point.latitude)
        var shape = [Coordinate](), cumM = [Double](), cumS = [Double](), edgeStart = [Int]()
        var totalM = 0.0, totalS = startTurn
        for (k, d) in path.enumerated() {
            let geo = map.geometry(of: d)
            let stored = map.lengthMeters(ofEdge: d.edge)
            var lens = [Double](), along = 0.0
            for i in 1..<geo.count { let l = ruler.distance(geo[i - 1], geo[i]); lens.append(l); along += l }
            let scale = along > 0 ? stored / along : 1
            let lo = k == 0 ? startOffset : 0
            let hi = k == path.count - 1 ? endOffset : stored
            let edgeMillis = Double(map.routingDuration(nodes[k]))
            let secondsPerMeter = stored > 0 ? edgeMillis / 1000 / stored : 0
            if k > 0 {
                // the turn into this edge: the arc's duration beyond driving the edge itself
                let turn = max(0, Double(arcs[k - 1].duration) - edgeMillis) / 1000
                totalS += turn
                if !cumS.isEmpty { cumS[cumS.count - 1] = totalS }
            }
            edgeStart.append(max(0, shape.count - 1))
            var pos = lo
            func emit(_ c: Coordinate, _ at: Double) {
                if shape.isEmpty {
                    shape.append(c); cumM.append(0); cumS.append(0)
                    pos = at
                    return
                }
                let step = max(0, at - pos)
                totalM += step
                totalS += step * secondsPerMeter
                pos = at
                if let last = shape.last, last == c { cumM[cumM.count - 1] = totalM; cumS[cumS.count - 1] = totalS; return }
                shape.append(c); cumM.append(totalM); cumS.append(totalS)
            }
            if shape.isEmpty { emit(point(geo, lens, scale, at: lo), lo) }
            var acc = 0.0
            for i in 1..<geo.count {
                acc += lens[i - 1] * scale
                if acc > lo && acc < hi { emit(geo[i], acc) }
            }
            emit(point(geo, lens, scale, at: hi), hi)
        }
        if shape.count == 1 { shape.append(shape[0]); cumM.append(totalM); cumS.append(totalS) }
        if endTurn > 0 { cumS[cumS.count - 1] += endTurn }
        return RouteLeg(edges: path, startOffsetMeters: startOffset, endOffsetMeters: endOffset, shape: shape,
                        cumulativeMeters: cumM, cumulativeSeconds: cumS, edgeShapeStart: edgeStart, from: a, to: b)
    }

    /// The point `at` metres (stored length scale) along a shape.
    func point(_ geo: [Coordinate], _ lens: [Double], _ scale: Double, at: Double) -> Coordinate {
        var acc = 0.0
        for i in 1..<geo.count {
            let l = lens[i - 1] * scale
            if acc + l >= at {
                let f = l > 0 ? (at - acc) / l : 0
                let a = geo[i - 1], b = geo[i]
                return Coordinate(latitude: a.latitude + (b.latitude - a.latitude) * f,
                                  longitude: a.longitude + (b.longitude - a.longitude) * f)
            }
            acc += l
        }
        return geo[geo.count - 1]
    }
}
