/// A binary min-heap of (key, node): the one priority queue of the router's searches, the
/// contraction's witness searches and node order, and the matcher's road distances. Keys and
/// nodes are kept in two arrays (the keys compared on every step stay dense in cache). Equal keys
/// come out in no fixed order: a caller that needs one folds the tie-break into the key.
/// (Inlinable so that each module gets it specialised for its key type.)
public struct BinaryHeap<Key: Comparable> {
    @usableFromInline var keys: [Key] = []
    @usableFromInline var nodes: [UInt32] = []

    @inlinable public init() {}

    @inlinable public var isEmpty: Bool { keys.isEmpty }
    /// The smallest key, nil when empty.
    @inlinable public var topKey: Key? { keys.first }

    /// Empties the heap, keeping its storage.
    @inlinable public mutating func removeAll() {
        keys.removeAll(keepingCapacity: true)
        nodes.removeAll(keepingCapacity: true)
    }

    @inlinable public mutating func push(_ key: Key, _ node: UInt32) {
        keys.append(key)
        nodes.append(node)
        var i = keys.count - 1
        while i > 0 {
            let p = (i - 1) / 2
            if !(keys[i] < keys[p]) { break }
            keys.swapAt(p, i)
            nodes.swapAt(p, i)
            i = p
        }
    }

    /// The entry with the smallest key, removed; nil when empty.
    @inlinable public mutating func pop() -> (Key, UInt32)? {
        guard !keys.isEmpty else { return nil }
        let top = (keys[0], nodes[0])
        let lastKey = keys.removeLast(), lastNode = nodes.removeLast()
        if !keys.isEmpty {
            keys[0] = lastKey
            nodes[0] = lastNode
            var i = 0
            let n = keys.count
            while true {
                let l = 2 * i + 1, r = l + 1
                var m = i
                if l < n && keys[l] < keys[m] { m = l }
                if r < n && keys[r] < keys[m] { m = r }
                if m == i { break }
                keys.swapAt(m, i)
                nodes.swapAt(m, i)
                i = m
            }
        }
        return top
    }
}
