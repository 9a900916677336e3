/// Cuts a byte stream into command lines: the serial console's and the control socket's. A line
/// ends at LF or CR (a terminal sends CR, `nc` LF, a Windows tool CR LF); empty lines are skipped.
/// A line longer than `limit` bytes is refused whole: `.tooLong` as soon as it passes the limit,
/// and the rest of it, up to its end, is dropped. Its pieces are never run as commands (issue #29:
/// the tail of an oversized line used to run as a command of its own).
public struct LineFramer: Sendable {
    public enum Item: Equatable, Sendable {
        case line(String)
        /// A line passed the limit; it is being dropped to its end.
        case tooLong(limit: Int)
    }

    public let limit: Int
    private var buffer: [UInt8] = []
    /// The current line passed the limit: bytes are dropped until its end.
    private var dropping = false

    public init(limit: Int) {
        precondition(limit > 0, "a line limit must be positive")
        self.limit = limit
    }

    public mutating func feed(_ bytes: some Sequence<UInt8>) -> [Item] {
        var out = [Item]()
        for b in bytes {
            if b == 0x0a || b == 0x0d {
                if !dropping && !buffer.isEmpty { out.append(.line(String(decoding: buffer, as: UTF8.self))) }
                buffer.removeAll(keepingCapacity: true)
                dropping = false
            } else if dropping {
                continue
            } else if buffer.count == limit {
                out.append(.tooLong(limit: limit))
                buffer.removeAll(keepingCapacity: true)
                dropping = true
            } else {
                buffer.append(b)
            }
        }
        return out
    }
}
