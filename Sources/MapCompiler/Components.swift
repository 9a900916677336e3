import MapData

/// Strongly connected components of the drivable graph (iterative Tarjan), to mark the small
/// pieces a car could enter but not leave, or not reach at all.
enum Components {
    /// Marks edges touching a component smaller than `min(1000, largest / 2)` nodes as isolated.
    static func markIsolated(_ g: inout RoadGraph) -> Int {
        let n = g.nodes.count
        guard n > 0 else { return 0 }
        var adj = [[Int32]](repeating: [], count: n)
        for e in g.edges {
            if e.flags.contains(.forward) { adj[Int(e.from)].append(Int32(e.to)) }
            if e.flags.contains(.backward) { adj[Int(e.to)].append(Int32(e.from)) }
        }
        var index = [Int32](repeating: -1, count: n)
        var low = [Int32](repeating: 0, count: n)
        var onStack = [Bool](repeating: false, count: n)
        var comp = [Int32](repeating: -1, count: n)
        var stack = [Int32]()
        var sizes = [Int]()
        var counter: Int32 = 0
        // explicit DFS stack: (node, next neighbour position)
        var work = [(Int32, Int)]()
        for root in 0..<n where index[root] < 0 {
            work.append((Int32(root), 0))
            while let (v, pos) = work.last {
                let vi = Int(v)
                if pos == 0 && index[vi] < 0 {
                    index[vi] = counter; low[vi] = counter; counter += 1
                    stack.append(v); onStack[vi] = true
                }
                if pos < adj[vi].count {
                    work[work.count - 1].1 += 1
                    let w = Int(adj[vi][pos])
                    if index[w] < 0 {
                        work.append((Int32(w), 0))
                    } else if onStack[w] {
                        low[vi] = min(low[vi], index[w])
                    }
                } else {
                    work.removeLast()
                    if let (parent, _) = work.last { low[Int(parent)] = min(low[Int(parent)], low[vi]) }
                    if low[vi] == index[vi] {
                        let id = Int32(sizes.count)
                        var size = 0
                        while let w = stack.popLast() {
                            onStack[Int(w)] = false
                            comp[Int(w)] = id
                            size += 1
                            if w == v { break }
                        }
                        sizes.append(size)
                    }
                }
            }
        }
        let largest = sizes.max() ?? 0
        // On a small map (a test scenario, a village) nothing is "the main network": leave it all
        // routable as it is, so a route the map cannot give stays "no route".
        guard largest >= 1000 else { return 0 }
        let threshold = min(1000, largest / 2)
        var marked = 0
        for i in g.edges.indices {
            let a = sizes[Int(comp[Int(g.edges[i].from)])], b = sizes[Int(comp[Int(g.edges[i].to)])]
            if a < threshold || b < threshold {
                g.edges[i].flags.insert(.isolated)
                marked += 1
            }
        }
        return marked
    }
}
