import Geo
import MapData

/// Turns the car profile's ways into a RoadGraph: graph nodes at way ends, shared nodes and
/// tagged nodes (signals, stops, barriers), edges between them with their shape.
struct GraphBuilder {
    private struct KeptWay {
        let id: Int64
        let attributes: WayAttributes
        let nodeIDs: [Int64]
        let coordinates: [Coordinate]
    }

    private var ways: [KeptWay] = []
    private var nodeUse: [Int64: UInt8] = [:]
    var nodeFlags: [Int64: NodeFlags] = [:]
    private(set) var skippedNodes = 0

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

    /// What the build produced besides the graph: how OSM ids map onto it (for turn restrictions).
    struct Index {
        /// OSM node id → graph node (barrier nodes, which are split, are absent).
        var nodes: [Int64: UInt32] = [:]
        /// OSM way id → its edges in way order.
        var wayEdges: [Int64: [UInt32]] = [:]
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
        func isGraphNode(_ id: Int64) -> Bool {
            (nodeUse[id] ?? 0) >= 2 || !(nodeFlags[id] ?? []).isEmpty
        }
        func graphNode(_ id: Int64, _ c: Coordinate) -> UInt32 {
            let flags = nodeFlags[id] ?? []
            // A blocking barrier splits the road: each side gets its own copy of the node, so no
            // edge pair joins through it.
            if !flags.contains(.barrier), let i = nodeIndex[id] { return i }
            let i = UInt32(g.nodes.count)
            g.nodes.append(c)
            g.nodeFlags.append(flags)
            if !flags.contains(.barrier) { nodeIndex[id] = i }
            return i
        }
        for way in ways {
            let a = way.attributes
            let wayIndex = UInt32(g.wayIDs.count)
            g.wayIDs.append(way.id)
            let nameID = intern(a.name), refID = intern(a.ref)
            var flags = a.flags
            if a.forward { flags.insert(.forward) }
            if a.backward { flags.insert(.backward) }
            var startNode = graphNode(way.nodeIDs[0], way.coordinates[0])
            var shape: [Coordinate] = []
            var length = 0.0
            for k in 1..<way.nodeIDs.count {
                length += way.coordinates[k - 1].distance(to: way.coordinates[k])
                let id = way.nodeIDs[k]
                if k == way.nodeIDs.count - 1 || isGraphNode(id) {
                    let endNode = graphNode(id, way.coordinates[k])
                    if !(startNode == endNode && shape.isEmpty) {
                        index.wayEdges[way.id, default: []].append(UInt32(g.edges.count))
                        g.edges.append(EdgeRecord(
                            from: startNode, to: endNode, geometryStart: UInt32(g.geometry.count),
                            geometryCount: UInt32(shape.count), lengthMeters: Float(max(length, 0.01)),
                            nameID: nameID, refID: refID, wayIndex: wayIndex, flags: flags, roadClass: a.roadClass,
                            speedForwardKmh: kmh(a.speedForwardKmh), speedBackwardKmh: kmh(a.speedBackwardKmh),
                            maxspeedForwardKmh: limit(a.maxspeedForwardKmh), maxspeedBackwardKmh: limit(a.maxspeedBackwardKmh)))
                        g.geometry += shape
                    }
                    // A barrier node was copied for the edge that ended there; the next edge starts on a new copy.
                    startNode = (nodeFlags[id] ?? []).contains(.barrier) ? graphNode(id, way.coordinates[k]) : endNode
                    shape.removeAll(keepingCapacity: true)
                    length = 0
                } else {
                    shape.append(way.coordinates[k])
                }
            }
        }
        index.nodes = nodeIndex
        return g
    }

    private func kmh(_ v: Double) -> UInt8 { v <= 0 ? 0 : UInt8(min(254, max(1, v.rounded()))) }
    private func limit(_ v: Double?) -> UInt8 {
        guard let v else { return 0 }
        return v.isInfinite ? 255 : UInt8(min(254, max(1, v.rounded())))
    }
}
