/// Placeholder substitution for the phrase tables, on UTF-8 bytes. Foundation's
/// `replacingOccurrences` goes through NSString and UTF-16 on Linux; the prompt plan builds a
/// dozen texts on every fix near a maneuver, and that call was most of a fix's cost (issue #24).
/// A byte scan gives the same result: UTF-8 is self-synchronising, so a whole-character target
/// cannot match inside another character.
extension String {
    /// `self` with every `target` replaced by `value`.
    func replacingAll(_ target: String, with value: String) -> String {
        var result: String?
        withContiguousUTF8 { s in
            target.withContiguousUTF8 { t in
                guard let first = t.first, s.count >= t.count else { return }
                var out = [UInt8]()
                var i = 0, copied = 0
                while i + t.count <= s.count {
                    if s[i] == first && (1..<t.count).allSatisfy({ s[i + $0] == t[$0] }) {
                        if out.isEmpty { out.reserveCapacity(s.count + value.utf8.count) }
                        out.append(contentsOf: UnsafeBufferPointer(rebasing: s[copied..<i]))
                        out.append(contentsOf: value.utf8)
                        i += t.count
                        copied = i
                    } else {
                        i += 1
                    }
                }
                guard copied > 0 else { return }
                out.append(contentsOf: UnsafeBufferPointer(rebasing: s[copied...]))
                result = String(decoding: out, as: UTF8.self)
            }
        }
        return result ?? self
    }

    /// Calls `body` with the string's UTF-8 bytes, contiguous (a bridged or lazy string is made
    /// native first).
    private func withContiguousUTF8<R>(_ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        var copy = self
        return copy.withUTF8(body)
    }
}
