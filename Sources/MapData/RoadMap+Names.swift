/// The name table and the tables that point into it: names and refs, what the signs say, exit
/// numbers, turn lanes, and the turns restrictions forbid at a node (sorted (u32, u32) pairs,
/// found by binary search).
extension RoadMap {
    /// A string from the name table ("" for id 0 or an id out of range).
    public func name(_ id: UInt32) -> String { String(decoding: nameBytes(id), as: UTF8.self) }

    /// The UTF-8 bytes of a name as stored (empty for id 0 or an id out of range), without making
    /// a String: guidance compares names and reads lane texts at every step of every route. The
    /// bytes are the mapped file's, valid while this map lives.
    public func nameBytes(_ id: UInt32) -> UnsafeRawBufferPointer {
        guard id < nameCount else { return UnsafeRawBufferPointer(start: nil, count: 0) }
        let s = section(.names)
        let lo = Int(u32(s + 4 + Int(id) * 4)), hi = Int(u32(s + 8 + Int(id) * 4))
        let bytesStart = s + 4 + (nameCount + 1) * 4
        return bytes(at: bytesStart + lo, count: hi - lo)
    }


    /// Whether a restriction at the node between them forbids turning from `from` onto `to`
    /// (no_* and only_* restrictions at a node; the routing tables hold the rest).
    public func isTurnForbidden(from: DirectedEdge, to: DirectedEdge) -> Bool {
        guard let i = firstPair(.forbiddenTurns, forbiddenTurnCount, from.raw, to.raw) else { return false }
        return u32(section(.forbiddenTurns) + 8 + 8 * i) == to.raw
    }

    /// What the signs say a directed edge leads to ("A 5, Frankfurt"), "" where nothing is signed.
    public func destination(of d: DirectedEdge) -> String { name(signpost(.destinations, destinationCount, d.raw)) }

    /// The exit number of a motorway junction node ("12"), "" where it has none.
    public func exitRef(ofNode n: UInt32) -> String { name(signpost(.exitRefs, exitRefCount, n)) }

    /// The turn lanes of a directed edge as it reaches its end, left to right ("left|straight;right",
    /// see `CarProfile.turnLanes`), "" where none are mapped.
    public func turnLanes(of d: DirectedEdge) -> String { name(signpost(.turnLanes, turnLanesCount, d.raw)) }

    /// Whether a directed edge has turn lanes (no string made).
    public func hasTurnLanes(_ d: DirectedEdge) -> Bool { signpost(.turnLanes, turnLanesCount, d.raw) != 0 }

    /// The name id a signpost section gives `key`; 0 when absent.
    func signpost(_ tag: MapFormat.Tag, _ count: Int, _ key: UInt32) -> UInt32 {
        firstPair(tag, count, key, 0).map { u32(section(tag) + 8 + 8 * $0) } ?? 0
    }

    /// Binary search of a section of ascending (u32, u32) pairs: the index of the first pair at
    /// or after (`key`, `value`) whose key is `key`, nil when there is none.
    private func firstPair(_ tag: MapFormat.Tag, _ count: Int, _ key: UInt32, _ value: UInt32) -> Int? {
        guard count > 0 else { return nil }
        let base = section(tag) + 4
        var lo = 0, hi = count
        while lo < hi {
            let mid = (lo + hi) / 2
            if (u32(base + 8 * mid), u32(base + 8 * mid + 4)) < (key, value) { lo = mid + 1 } else { hi = mid }
        }
        return lo < count && u32(base + 8 * lo) == key ? lo : nil
    }
}
