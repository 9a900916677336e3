import MapData

extension RoutingTables {
    /// Contracts the turn graph and lays the hierarchy out as the file stores it.
    init(_ t: TurnGraph, contracting progress: ((String) -> Void)?) {
        self.init()
        weights = t.weights
        durations = t.durations
        copies = t.copies
        var last = -1
        let ch = Contractor(t).run { f in
            let percent = Int(f * 100)
            if percent / 25 != last / 25 { last = percent; progress?("contracting \(percent)%") }
        }
        upIndex = [0]
        downIndex = [0]
        upIndex.reserveCapacity(t.nodeCount + 1)
        downIndex.reserveCapacity(t.nodeCount + 1)
        for v in 0..<t.nodeCount {
            for a in ch.up[v].sorted(by: { $0.node < $1.node }) { up.append(HierarchyArc(node: a.node, weight: a.weight, middle: a.middle, duration: a.duration)) }
            for a in ch.down[v].sorted(by: { $0.node < $1.node }) { down.append(HierarchyArc(node: a.node, weight: a.weight, middle: a.middle, duration: a.duration)) }
            upIndex.append(UInt32(up.count))
            downIndex.append(UInt32(down.count))
        }
    }
}
