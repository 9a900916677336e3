import Geo
import MapData

/// Turns the car profile's ways into a RoadGraph: graph nodes at way ends, shared nodes and
/// tagged nodes (signals, stops, barriers, gates), edges between them with their shape, and the
/// per-direction durations and weights of every edge (OSRM's rounding: each segment between two
/// OSM nodes to a tenth of a second).
struct GraphBuilder {
    struct KeptWay {
        let id: Int64
        var attributes: WayAttributes
        let nodeIDs: [Int64]
        let coordinates: [Coordinate]
    }

    var ways: [KeptWay] = []
    private var nodeUse: [Int64: UInt8] = [:]
    var nodeAttributes: [Int64: NodeAttributes] = [:]
    private(set) var skippedNodes = 0
    /// A segment weighs its metres instead of its seconds (ProfileOptions.weightByDistance).
    var weightByDistance = false

    mutating func add(way: OSMWay, attributes: WayAttributes) {
        var ids = [Int64](), coords = [Coordinate]()
        ids.reserveCapacity(way.nodeIDs.count)
        coords.reserveCapacity(way.nodeIDs.count)
        for i in way.nodeIDs.indices {
            let c = Coordinate(latitude: way.latitudes[i], longitude: way.longitudes[i])
            guard c.isValid else { skippedNodes += 1; continue }
            if let last = ids.last, last == way.nodeIDs[i] { continue }
            ids.append(way.nodeIDs[i])
            coords.append(c)
        }
        guard ids.count >= 2 else { return }
        for (k, id) in ids.enumerated() {
            let weight: UInt8 = (k == 0 || k == ids.count - 1) ? 2 : 1
            nodeUse[id] = nodeUse[id, default: 0] &+ weight
        }
        ways.append(KeptWay(id: way.id, attributes: attributes, nodeIDs: ids, coordinates: coords))
    }

    var wayCount: Int { ways.count }

    /// Ring nodes where a road the car profile does not route on leaves (`highway=road`): they
    /// become graph nodes flagged `unroutedRoad`, so that guidance counts them as exits.
    mutating func markRingExits(onto unrouted: Set<Int64>) {
        guard !unrouted.isEmpty else { return }
        for way in ways where way.attributes.flags.contains(.roundabout) || way.attributes.flags.contains(.circular) {
            for id in way.nodeIDs where unrouted.contains(id) {
                nodeAttributes[id, default: NodeAttributes()].flags.insert(.unroutedRoad)
            }
        }
    }

    /// What the build produced besides the graph: how OSM ids map onto it (for turn
    /// restrictions) and the per-direction costs the turn graph is built from.
    struct Index {
        /// OSM node id → graph node (barrier nodes, which are split, are absent).
        var nodes: [Int64: UInt32] = [:]
        /// OSM way id → its edges in way order.
        var wayEdges: [Int64: [UInt32]] = [:]
        /// Per directed edge (DirectedEdge.raw): milliseconds to drive it, and its weight.
        var durations: [UInt32] = []
        var weights: [UInt32] = []
        /// Per directed edge: penalty (ms) for passing its target node when arriving by it
        /// (signals and signs facing that way, gates).
        var arrivalPenalties: [UInt32] = []
    }

    /// Builds the graph; `meta` is stored as the map's build information.
    func build(meta: [(String, String)]) -> RoadGraph {
        var index = Index()
        return build(meta: meta, index: &index)
    }

    func build(meta: [(String, String)], index: inout Index) -> RoadGraph {
        var g = RoadGraph()
        g.meta = meta
        var nodeIndex: [Int64: UInt32] = [:]
        nodeIndex.reserveCapacity(ways.count * 2)
        var nameIndex: [String: UInt32] = ["": 0]

        func intern(_ s: String) -> UInt32 {
            if let i = nameIndex[s] { return i }
            let i = UInt32(g.names.count)
            g.names.append(s)
            nameIndex[s] = i
            return i
        }
        func attributes(_ id: Int64) -> NodeAttributes { nodeAttributes[id] ?? NodeAttributes() }
        func isGraphNode(_ id: Int64) -> Bool { (nodeUse[id] ?? 0) >= 2 || nodeAttributes[id] != nil }
        func graphNode(_ id: Int64, _ c: Coordinate) -> UInt32 {
            let flags = attributes(id).flags
            // A blocking barrier splits the road: each side gets its own copy of the node, so no
            // edge pair joins through it.
            if !flags.contains(.barrier), let i = nodeIndex[id] { return i }
            let i = UInt32(g.nodes.count)
            g.nodes.append(c)
            g.nodeFlags.append(flags)
            if !flags.contains(.barrier) { nodeIndex[id] = i }
            return i
        }
        func millis(_ seconds: Double) -> UInt32 { UInt32(min(Double(UInt32.max - 2), max(0, (seconds * 1000).rounded()))) }
        func penalty(_ a: NodeAttributes, forwardAlongWay: Bool) -> UInt32 {
            func applies(_ f: NodeAttributes.Facing) -> Bool { f == .both || (f == .forward) == forwardAlongWay }
            var s = a.passPenaltySeconds
            if a.flags.contains(.trafficSignals) && applies(a.signalFacing) { s += 2 }
            if a.stopPenaltySeconds > 0 && applies(a.stopFacing) { s += a.stopPenaltySeconds }
            return millis(s)
        }

        for way in GraphBuilder.withoutOverlaps(ways, weightByDistance: weightByDistance, shared: { (nodeUse[$0] ?? 0) >= 2 }) {
            let a = way.attributes
            let wayIndex = UInt32(g.wayIDs.count)
            g.wayIDs.append(way.id)
            // (the larger of the tagged count and the turn lanes, as OSRM counts them)
            let turnLaneCount = [a.turnLanesForward, a.turnLanesBackward].filter { !$0.isEmpty }
                .reduce(0) { $0 + $1.split(separator: "|", omittingEmptySubsequences: false).count }
            g.wayLanes.append(UInt8(clamping: max(Int(a.lanes), turnLaneCount)))
            let nameID = intern(a.name), refID = intern(a.ref)
            var flags = a.flags
            if a.forward { flags.insert(.forward) }
            if a.backward { flags.insert(.backward) }
            if a.restrictedForward { flags.insert(.restrictedForward) }
            if a.restrictedBackward { flags.insert(.restrictedBackward) }
            if !a.startpoint { flags.insert(.noStartpoint) }
            let segments = way.nodeIDs.count - 1
            func segmentSeconds(_ meters: Double, kmh: Double, rate: Double) -> (duration: Double, weight: Double) {
                GraphBuilder.segmentCost(meters: meters, kmh: kmh, rate: rate, attributes: a, segments: segments,
                                         weightByDistance: weightByDistance)
            }
            var startNode = graphNode(way.nodeIDs[0], way.coordinates[0])
            var shape: [Coordinate] = []
            var length = 0.0
            var fwd = (duration: 0.0, weight: 0.0), bwd = (duration: 0.0, weight: 0.0)
            for k in 1..<way.nodeIDs.count {
                // lengths with the WGS 84 "cheap ruler" at the segment's latitude, as OSRM measures
                let a0 = way.coordinates[k - 1], a1 = way.coordinates[k]
                let seg = CheapRuler(latitude: (a0.latitude + a1.latitude) / 2).distance(a0, a1)
                length += seg
                let f = segmentSeconds(seg, kmh: a.speedForwardKmh, rate: a.rateFactorForward)
                let b = segmentSeconds(seg, kmh: a.speedBackwardKmh, rate: a.rateFactorBackward)
                fwd.duration += f.duration; fwd.weight += f.weight
                bwd.duration += b.duration; bwd.weight += b.weight
                let id = way.nodeIDs[k]
                if k == way.nodeIDs.count - 1 || isGraphNode(id) {
                    let endNode = graphNode(id, way.coordinates[k])
                    if !(startNode == endNode && shape.isEmpty) {
                        let e = UInt32(g.edges.count)
                        if !a.destinationForward.isEmpty { g.destinations[DirectedEdge(edge: e, reversed: false)] = intern(a.destinationForward) }
                        if !a.destinationBackward.isEmpty { g.destinations[DirectedEdge(edge: e, reversed: true)] = intern(a.destinationBackward) }
                        if !a.turnLanesForward.isEmpty { g.turnLanes[DirectedEdge(edge: e, reversed: false)] = intern(a.turnLanesForward) }
                        if !a.turnLanesBackward.isEmpty { g.turnLanes[DirectedEdge(edge: e, reversed: true)] = intern(a.turnLanesBackward) }
                        index.wayEdges[way.id, default: []].append(e)
                        g.edges.append(EdgeRecord(
                            from: startNode, to: endNode, geometryStart: UInt32(g.geometry.count),
                            geometryCount: UInt32(shape.count), lengthMeters: Float(max(length, 0.01)),
                            nameID: nameID, refID: refID, wayIndex: wayIndex, flags: flags, roadClass: a.roadClass,
                            speedForwardKmh: kmh(a.forward ? a.speedForwardKmh : 0), speedBackwardKmh: kmh(a.backward ? a.speedBackwardKmh : 0),
                            maxspeedForwardKmh: limit(a.maxspeedForwardKmh), maxspeedBackwardKmh: limit(a.maxspeedBackwardKmh)))
                        g.geometry += shape
                        // at least a millisecond: a zero weight would let the search loop for free
                        index.durations += [a.forward ? max(1, millis(fwd.duration)) : TurnGraph.unreachable,
                                            a.backward ? max(1, millis(bwd.duration)) : TurnGraph.unreachable]
                        index.weights += [a.forward ? max(1, millis(fwd.weight)) : TurnGraph.unreachable,
                                          a.backward ? max(1, millis(bwd.weight)) : TurnGraph.unreachable]
                        // forward arrives at the end node along the way's order; backward at the start node against it
                        let startAttrs = attributes(way.nodeIDs[k - Int(shape.count) - 1])
                        index.arrivalPenalties += [penalty(attributes(id), forwardAlongWay: true),
                                                   penalty(startAttrs, forwardAlongWay: false)]
                    }
                    // A barrier node was copied for the edge that ended there; the next edge starts on a new copy.
                    startNode = attributes(id).flags.contains(.barrier) ? graphNode(id, way.coordinates[k]) : endNode
                    shape.removeAll(keepingCapacity: true)
                    length = 0
                    fwd = (0, 0); bwd = (0, 0)
                } else {
                    shape.append(way.coordinates[k])
                }
            }
        }
        index.nodes = nodeIndex
        // (in id order: a dictionary's order changes from run to run, and names get ids as they come)
        for (id, attrs) in nodeAttributes.filter({ !$0.value.exitRef.isEmpty }).sorted(by: { $0.key < $1.key }) {
            if let n = nodeIndex[id] { g.exitRefs[n] = intern(attrs.exitRef) }
        }
        return g
    }

    /// OSRM stores segment durations and weights in tenths of a second, rounded.
    static func deciseconds(_ seconds: Double) -> Double { (seconds * 10).rounded() / 10 }

    /// Duration and weight (seconds) of one segment between two OSM nodes of a way with
    /// `segments` segments, driven at `kmh` with the weight factor `rate`.
    static func segmentCost(meters: Double, kmh: Double, rate: Double, attributes a: WayAttributes, segments: Int,
                            weightByDistance: Bool) -> (duration: Double, weight: Double) {
        if let total = a.durationSeconds {
            let d = total / Double(segments)  // a tagged duration is shared equally by the segments
            return (d, weightByDistance ? deciseconds(meters) : d / rate)
        }
        guard kmh > 0 else { return (0, 0) }
        let weight = weightByDistance ? deciseconds(meters) : deciseconds(meters / (kmh / 3.6 * rate))
        return (deciseconds(meters / (kmh / 3.6)), weight)
    }

    private func kmh(_ v: Double) -> UInt8 { v <= 0 ? 0 : UInt8(min(254, max(1, v.rounded()))) }
    private func limit(_ v: Double?) -> UInt8 {
        guard let v else { return 0 }
        return v.isInfinite ? 255 : UInt8(min(254, max(1, v.rounded())))
    }
}
