import Geo

/// Edge shapes and what a directed edge is like in its direction of travel.
extension RoadMap {
    /// The edge's shape points in order, from node to to node, without building an array.
    @inline(__always) public func forEachShapePoint(ofEdge i: UInt32, _ body: (Coordinate) -> Void) {
        let o = section(.edges) + Int(i) * EdgeRecord.byteSize
        let gStart = Int(u32(o + 8)), gCount = Int(u32(o + 12)), g = section(.geometry)
        body(coordinate(ofNode: u32(o)))
        for k in 0..<gCount {
            let q = g + (gStart + k) * 8
            body(coordinate(at: q))
        }
        body(coordinate(ofNode: u32(o + 4)))
    }

    /// The edge's shape from its `from` node to its `to` node.
    public func geometry(ofEdge i: UInt32) -> [Coordinate] {
        let e = edge(i)
        var pts = [coordinate(ofNode: e.from)]
        pts.reserveCapacity(Int(e.geometryCount) + 2)
        let g = section(.geometry)
        for k in 0..<Int(e.geometryCount) {
            let o = g + (Int(e.geometryStart) + k) * 8
            pts.append(coordinate(at: o))
        }
        pts.append(coordinate(ofNode: e.to))
        return pts
    }

    /// The shape of a directed edge in the direction of travel, read point by point from the
    /// file without making an array (for code that looks at a few points of many edges).
    public struct Shape {
        unowned(unsafe) let map: RoadMap
        let from: UInt32, to: UInt32, geometryStart: Int, reversed: Bool
        /// Points, both ends included.
        public let count: Int

        public subscript(k: Int) -> Coordinate {
            let i = reversed ? count - 1 - k : k
            if i == 0 { return map.coordinate(ofNode: from) }
            if i == count - 1 { return map.coordinate(ofNode: to) }
            let o = map.section(.geometry) + (geometryStart + i - 1) * 8
            return map.coordinate(at: o)
        }
    }

    public func shape(of d: DirectedEdge) -> Shape {
        let e = edge(d.edge)
        return Shape(map: self, from: e.from, to: e.to, geometryStart: Int(e.geometryStart), reversed: d.reversed,
                     count: Int(e.geometryCount) + 2)
    }

    /// The shape in the direction of travel.
    public func geometry(of d: DirectedEdge) -> [Coordinate] {
        let g = geometry(ofEdge: d.edge)
        return d.reversed ? g.reversed() : g
    }

    /// Node a directed edge starts at and ends at.
    @inline(__always) public func source(of d: DirectedEdge) -> UInt32 {
        u32(section(.edges) + Int(d.edge) * EdgeRecord.byteSize + (d.reversed ? 4 : 0))
    }
    @inline(__always) public func target(of d: DirectedEdge) -> UInt32 {
        u32(section(.edges) + Int(d.edge) * EdgeRecord.byteSize + (d.reversed ? 0 : 4))
    }

    /// Typical speed in km/h along a directed edge.
    public func speedKmh(of d: DirectedEdge) -> Double {
        let e = edge(d.edge)
        return Double(d.reversed ? e.speedBackwardKmh : e.speedForwardKmh)
    }

    /// Posted limit in km/h along a directed edge: nil when unknown or unlimited.
    public func maxspeedKmh(of d: DirectedEdge) -> Double? {
        let e = edge(d.edge)
        let v = d.reversed ? e.maxspeedBackwardKmh : e.maxspeedForwardKmh
        return v == 0 || v == 255 ? nil : Double(v)
    }
}
