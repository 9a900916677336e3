import Geo
import MapData

/// Finds the fastest car route on a RoadMap (A* on travel time, with a traffic-signal penalty).
/// A Router keeps reusable search arrays, so create one per thread and reuse it.
public final class Router {
    public let map: RoadMap
    public let snapper: Snapper
    /// Seconds added for each traffic signal passed (OSRM uses 2 s).
    public var signalPenaltySeconds = 2.0
    private let maxSpeedMps: Double

    // search state, reused between queries (generation-stamped)
    private var cost: [Double]
    private var parent: [UInt32]  // DirectedEdge.raw that reached the node, or .max
    private var stamp: [UInt32]
    private var settled: [UInt32]
    /// Generation stamp set when a node's parent edge is one of the start edges (the search root).
    private var rootStamp: [UInt32]
    private var generation: UInt32 = 0
    private var heap = MinHeap()

    public init(map: RoadMap) {
        self.map = map
        snapper = Snapper(map: map)
        var fastest = 10.0
        for e in 0..<map.edgeCount {
            let r = map.edge(UInt32(e))
            fastest = max(fastest, Double(max(r.speedForwardKmh, r.speedBackwardKmh)))
        }
        maxSpeedMps = fastest / 3.6
        cost = Array(repeating: 0, count: map.nodeCount)
        parent = Array(repeating: .max, count: map.nodeCount)
        stamp = Array(repeating: 0, count: map.nodeCount)
        settled = Array(repeating: 0, count: map.nodeCount)
        rootStamp = Array(repeating: 0, count: map.nodeCount)
    }

    /// A route through `waypoints` in order. `headingDegrees` (the car's course) makes the first
    /// leg start in the direction the car is driving when the road allows.
    public func route(_ waypoints: [Coordinate], headingDegrees: Double? = nil) throws -> Route {
        guard waypoints.count >= 2 else { throw RoutingError.tooFewWaypoints }
        var snaps = [Snap]()
        for (i, w) in waypoints.enumerated() {
            guard let s = snapper.snap(w, headingDegrees: i == 0 ? headingDegrees : nil) else {
                throw RoutingError.noRoadNear(w, index: i)
            }
            snaps.append(s)
        }
        var legs = [RouteLeg]()
        for i in 1..<snaps.count {
            let heading = i == 1 ? headingDegrees : nil
            if let leg = leg(from: snaps[i - 1], to: snaps[i], headingDegrees: heading) {
                legs.append(leg)
                continue
            }
            // A waypoint in a small cut-off piece (behind a private gate, say): route to the
            // nearest point of the connected network instead.
            func connected(_ k: Int) -> Snap? {
                map.edge(snaps[k].edge).flags.contains(.isolated)
                    ? snapper.snap(waypoints[k], headingDegrees: k == 0 ? headingDegrees : nil, allowIsolated: false) : snaps[k]
            }
            guard let a = connected(i - 1), let b = connected(i), a != snaps[i - 1] || b != snaps[i],
                  let leg = leg(from: a, to: b, headingDegrees: heading) else {
                throw RoutingError.noRoute(from: i - 1, to: i)
            }
            snaps[i] = b
            legs.append(leg)
        }
        return Route(legs: legs, waypoints: waypoints)
    }

    /// Seconds to drive `meters` along a directed edge.
    @inline(__always) func seconds(_ d: DirectedEdge, meters: Double) -> Double {
        let kmh = map.speedKmh(of: d)
        return kmh > 0 ? meters / (kmh / 3.6) : .infinity
    }

    /// The fastest leg between two snapped points.
    public func leg(from a: Snap, to b: Snap, headingDegrees: Double? = nil) -> RouteLeg? {
        let ea = map.edge(a.edge), eb = map.edge(b.edge)
        // Ways out of the start point: forward along the edge to `to`, backward to `from`.
        var starts: [(DirectedEdge, Double)] = []  // (directed edge, offset along it)
        let fwdA = DirectedEdge(edge: a.edge, reversed: false), bwdA = DirectedEdge(edge: a.edge, reversed: true)
        var allowForward = ea.flags.contains(.forward), allowBackward = ea.flags.contains(.backward)
        if let h = headingDegrees, allowForward && allowBackward {
            // A moving car keeps its direction: start behind it only if nothing else works.
            let diff = abs(Angle.difference(from: a.bearingDegrees, to: h))
            if diff <= 90 { allowBackward = false } else { allowForward = false }
        }
        if allowForward { starts.append((fwdA, a.offsetMeters)) }
        if allowBackward { starts.append((bwdA, a.edgeLengthMeters - a.offsetMeters)) }

        var best: (cost: Double, path: [DirectedEdge], startOffset: Double, endOffset: Double)?
        // Same edge, driving towards b directly.
        for (d, off) in starts where d.edge == b.edge {
            let endOff = d.reversed ? b.edgeLengthMeters - b.offsetMeters : b.offsetMeters
            if endOff >= off {
                let c = seconds(d, meters: endOff - off)
                if best == nil || c < best!.cost { best = (c, [d], off, endOff) }
            }
        }

        generation &+= 1
        if generation == 0 {  // wrapped: clear stamps once every 4 billion queries
            for i in stamp.indices { stamp[i] = 0; settled[i] = 0; rootStamp[i] = 0 }
            generation = 1
        }
        heap.removeAll()
        let goal = b.point
        let ruler = CheapRuler(latitude: goal.latitude)
        func h(_ n: UInt32) -> Double { ruler.distance(map.coordinate(ofNode: n), goal) / maxSpeedMps * 0.9 }
        func relax(_ node: UInt32, _ c: Double, _ via: UInt32, root: Bool) {
            let i = Int(node)
            if stamp[i] != generation || c < cost[i] {
                stamp[i] = generation
                cost[i] = c
                parent[i] = via
                rootStamp[i] = root ? generation : 0
                heap.push(c + h(node), node)
            }
        }
        for (d, off) in starts {
            let len = Double(map.edge(d.edge).lengthMeters)
            relax(map.target(of: d), seconds(d, meters: len - off), d.raw, root: true)
        }
        // Targets: arriving at eb.from then driving forward, or at eb.to then driving backward.
        var ends: [UInt32: (DirectedEdge, Double)] = [:]
        if eb.flags.contains(.forward) { ends[eb.from] = (DirectedEdge(edge: b.edge, reversed: false), b.offsetMeters) }
        if eb.flags.contains(.backward) {
            let d = DirectedEdge(edge: b.edge, reversed: true)
            let off = b.edgeLengthMeters - b.offsetMeters
            if let existing = ends[eb.to], seconds(existing.0, meters: existing.1) <= seconds(d, meters: off) {
            } else { ends[eb.to] = (d, off) }
        }
        if eb.from == eb.to, eb.flags.contains(.forward), eb.flags.contains(.backward) {
            // a loop edge: either direction from its single node
            let fo = b.offsetMeters, bo = b.edgeLengthMeters - b.offsetMeters
            ends[eb.from] = fo <= bo ? (DirectedEdge(edge: b.edge, reversed: false), fo) : (DirectedEdge(edge: b.edge, reversed: true), bo)
        }

        var bestEnd: (node: UInt32, cost: Double)?
        while let (key, node) = heap.pop() {
            let i = Int(node)
            if settled[i] == generation { continue }
            settled[i] = generation
            let c = cost[i]
            if let limit = best?.cost, key >= limit { break }
            if let bestCost = bestEnd?.cost, key >= bestCost { break }
            if let (d, off) = ends[node] {
                let total = c + seconds(d, meters: off)
                if bestEnd == nil || total < bestEnd!.cost { bestEnd = (node, total) }
            }
            let signal = map.flags(ofNode: node).contains(.trafficSignals) ? signalPenaltySeconds : 0
            map.forEachOutgoing(node) { d in
                let len = Double(map.edge(d.edge).lengthMeters)
                let next = map.target(of: d)
                relax(next, c + signal + seconds(d, meters: len), d.raw, root: false)
            }
        }
        if let be = bestEnd, best == nil || be.cost < best!.cost {
            // Unwind parents back to one of the start edges.
            var path = [ends[be.node]!.0]
            var node = be.node
            var startOffset = 0.0
            var guardCount = 0
            while true {
                let via = parent[Int(node)]
                if rootStamp[Int(node)] == generation {
                    let d = DirectedEdge(raw: via)
                    path.append(d)
                    startOffset = starts.first { $0.0 == d }?.1 ?? 0
                    break
                }
                let d = DirectedEdge(raw: via)
                path.append(d)
                node = map.source(of: d)
                guardCount += 1
                if guardCount > map.edgeCount * 2 { return nil }
            }
            path.reverse()
            best = (be.cost, path, startOffset, ends[be.node]!.1)
        }
        guard let found = best else { return nil }
        return makeLeg(path: found.path, startOffset: found.startOffset, endOffset: found.endOffset, from: a, to: b)
    }

    /// Builds the leg's shape and cumulative distance and time.
    func makeLeg(path: [DirectedEdge], startOffset: Double, endOffset: Double, from a: Snap, to b: Snap) -> RouteLeg {
        var shape = [Coordinate](), cumM = [Double](), cumS = [Double](), edgeStart = [Int]()
        var totalM = 0.0, totalS = 0.0
        for (k, d) in path.enumerated() {
            let geo = map.geometry(of: d)
            let stored = Double(map.edge(d.edge).lengthMeters)
            var lens = [Double](), along = 0.0
            for i in 1..<geo.count { let l = geo[i - 1].distance(to: geo[i]); lens.append(l); along += l }
            let scale = along > 0 ? stored / along : 1
            let lo = k == 0 ? startOffset : 0
            let hi = k == path.count - 1 ? endOffset : stored
            let speed = max(0.1, map.speedKmh(of: d) / 3.6)
            edgeStart.append(max(0, shape.count - 1))
            // walk the shape, emitting points between lo and hi
            var pos = 0.0
            func emit(_ c: Coordinate, _ at: Double) {
                if shape.isEmpty {
                    shape.append(c); cumM.append(0); cumS.append(0)
                } else {
                    let step = max(0, at - pos)
                    totalM += step; totalS += step / speed
                    pos = at
                    if let last = shape.last, last == c { cumM[cumM.count - 1] = totalM; cumS[cumS.count - 1] = totalS; return }
                    shape.append(c); cumM.append(totalM); cumS.append(totalS)
                }
            }
            pos = lo
            if k == 0 || shape.isEmpty { emit(point(geo, lens, scale, at: lo), lo) }
            var acc = 0.0
            for i in 1..<geo.count {
                acc += lens[i - 1] * scale
                if acc > lo && acc < hi { emit(geo[i], acc) }
            }
            emit(point(geo, lens, scale, at: hi), hi)
            if k < path.count - 1, map.flags(ofNode: map.target(of: d)).contains(.trafficSignals) {
                totalS += signalPenaltySeconds
                cumS[cumS.count - 1] = totalS
            }
        }
        if shape.count == 1 { shape.append(shape[0]); cumM.append(totalM); cumS.append(totalS) }
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

/// A binary min-heap of (key, node).
struct MinHeap {
    private var keys: [Double] = []
    private var nodes: [UInt32] = []
    mutating func removeAll() { keys.removeAll(keepingCapacity: true); nodes.removeAll(keepingCapacity: true) }
    mutating func push(_ key: Double, _ node: UInt32) {
        keys.append(key); nodes.append(node)
        var i = keys.count - 1
        while i > 0 {
            let p = (i - 1) / 2
            if keys[p] <= keys[i] { break }
            keys.swapAt(p, i); nodes.swapAt(p, i)
            i = p
        }
    }
    mutating func pop() -> (Double, UInt32)? {
        guard !keys.isEmpty else { return nil }
        let top = (keys[0], nodes[0])
        let lastK = keys.removeLast(), lastN = nodes.removeLast()
        if !keys.isEmpty {
            keys[0] = lastK; nodes[0] = lastN
            var i = 0
            let n = keys.count
            while true {
                let l = 2 * i + 1, r = l + 1
                var m = i
                if l < n && keys[l] < keys[m] { m = l }
                if r < n && keys[r] < keys[m] { m = r }
                if m == i { break }
                keys.swapAt(m, i); nodes.swapAt(m, i)
                i = m
            }
        }
        return top
    }
}
