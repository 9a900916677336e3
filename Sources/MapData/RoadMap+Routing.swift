import FoundationEssentials
import Glibc

extension RoadMap {
    /// Routing nodes: directed edges and their copies.
    public var routingNodeCount: Int { sectionRange(.routingWeights).count / 4 }

    /// Milliseconds to drive a routing node's edge (`.max` when not allowed).
    @inline(__always) public func routingWeight(_ node: UInt32) -> UInt32 { u32(section(.routingWeights) + Int(node) * 4) }

    /// Milliseconds to drive a routing node's edge.
    @inline(__always) public func routingDuration(_ node: UInt32) -> UInt32 { u32(section(.routingDurations) + Int(node) * 4) }

    /// The directed edge a routing node stands for.
    @inline(__always) public func directedEdge(ofRoutingNode node: UInt32) -> DirectedEdge {
        let directed = edgeCount * 2
        if Int(node) < directed { return DirectedEdge(raw: node) }
        return DirectedEdge(raw: u32(section(.routingCopies) + (Int(node) - directed) * 4))
    }

    /// Range of a node's up arcs (to higher-ranked nodes) in CHUP.
    @inline(__always) public func upArcs(_ node: UInt32) -> Range<Int> {
        let i = section(.upIndex) + Int(node) * 4
        return Int(u32(i))..<Int(u32(i + 4))
    }

    /// Range of a node's down arcs (from higher-ranked nodes) in CHDN.
    @inline(__always) public func downArcs(_ node: UInt32) -> Range<Int> {
        let i = section(.downIndex) + Int(node) * 4
        return Int(u32(i))..<Int(u32(i + 4))
    }

    @inline(__always) public func upArc(_ k: Int) -> HierarchyArc {
        let o = section(.up) + k * HierarchyArc.byteSize
        return HierarchyArc(node: u32(o), weight: u32(o + 4), middle: u32(o + 8), duration: u32(o + 12))
    }

    @inline(__always) public func downArc(_ k: Int) -> HierarchyArc {
        let o = section(.down) + k * HierarchyArc.byteSize
        return HierarchyArc(node: u32(o), weight: u32(o + 4), middle: u32(o + 8), duration: u32(o + 12))
    }

    /// Checks the routing sections' indices (called from validate()).
    func validateRouting() throws {
        // the message is built only when a check fails: this runs over every stored index
        func check(_ ok: Bool, _ detail: @autoclosure () -> String) throws {
            if !ok { throw MapError.corrupt(path: path, detail: detail()) }
        }
        let nodes = routingNodeCount
        try check(sectionRange(.routingWeights).count % 4 == 0, "RWEIGHT size")
        try check(sectionRange(.routingDurations).count == sectionRange(.routingWeights).count, "RDUR size")
        // a map may come without routing tables (0 nodes); otherwise every directed edge is a node
        try check(nodes == 0 || nodes >= edgeCount * 2, "RWEIGHT has fewer nodes than directed edges")
        let copies = max(0, nodes - edgeCount * 2)
        try check(sectionRange(.routingCopies).count == copies * 4, "RCOPIES size")
        for k in 0..<copies {
            try check(Int(u32(section(.routingCopies) + k * 4)) < edgeCount * 2, "RCOPIES refers to a missing edge")
        }
        for (indexTag, listTag) in [(MapFormat.Tag.upIndex, MapFormat.Tag.up), (.downIndex, .down)] {
            try check(sectionRange(indexTag).count == (nodes + 1) * 4 || (nodes == 0 && sectionRange(indexTag).count == 4),
                      "\(indexTag.rawValue) size")
            try check(sectionRange(listTag).count % HierarchyArc.byteSize == 0, "\(listTag.rawValue) size")
            let arcs = sectionRange(listTag).count / HierarchyArc.byteSize
            var previous = 0
            for n in 0..<(sectionRange(indexTag).count / 4) {
                let v = Int(u32(section(indexTag) + n * 4))
                try check(v >= previous && v <= arcs, "\(indexTag.rawValue) is not ascending")
                previous = v
            }
            try check(previous == arcs, "\(indexTag.rawValue) does not cover \(listTag.rawValue)")
            let base = section(listTag)
            for k in 0..<arcs {
                let o = base + k * HierarchyArc.byteSize
                let middle = u32(o + 8)
                try check(Int(u32(o)) < nodes && (middle == HierarchyArc.original || Int(middle) < nodes),
                          "\(listTag.rawValue) refers to a missing node")
            }
        }
    }
}
