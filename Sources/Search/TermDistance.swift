/// One typo: whether two words differ by at most one letter inserted, deleted, replaced, or two
/// neighbours swapped (Damerau–Levenshtein distance ≤ 1), on their bytes.
public enum TermDistance {
    public static func withinOne<A: RandomAccessCollection<UInt8>, B: RandomAccessCollection<UInt8>>(_ a: A, _ b: B) -> Bool
    where A.Index == Int, B.Index == Int {
        let n = a.count, m = b.count
        if abs(n - m) > 1 { return false }
        let a0 = a.startIndex, b0 = b.startIndex
        var i = 0
        while i < n, i < m, a[a0 + i] == b[b0 + i] { i += 1 }
        if i == n && i == m { return true }
        func same(_ x: Int, _ y: Int) -> Bool {
            var x = x, y = y
            while x < n, y < m {
                if a[a0 + x] != b[b0 + y] { return false }
                x += 1; y += 1
            }
            return x == n && y == m
        }
        if n == m {
            if same(i + 1, i + 1) { return true }  // replaced
            // swapped neighbours
            return i + 1 < n && a[a0 + i] == b[b0 + i + 1] && a[a0 + i + 1] == b[b0 + i] && same(i + 2, i + 2)
        }
        return n > m ? same(i + 1, i) : same(i, i + 1)
    }
}
