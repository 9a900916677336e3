/// The lines waiting to be written to one control client, bounded in bytes. A client that stops
/// reading (`tern ctl watch | less`, a crashed dashboard) costs at most `capacity` bytes and never
/// blocks the engine (issue #29: it used to stop the status line and the watchdog). When a line
/// does not fit, the oldest whole lines not yet begun go; the next line the client reads is one
/// gap line that says how many went, so a reader knows its stream has a hole.
struct ControlOutbox {
    let capacity: Int
    /// The line being written (with its "\n") and how much of it is out.
    private var current: [UInt8] = []
    private var written = 0
    /// Lines not yet begun; `head` is the first of them.
    private var queue: [[UInt8]] = []
    private var head = 0
    /// Bytes in `queue[head...]`.
    private(set) var queuedBytes = 0
    /// Lines dropped since the last gap line was given.
    private(set) var droppedSinceGap = 0
    /// Lines dropped over the connection's life.
    private(set) var droppedTotal = 0

    init(capacity: Int) { self.capacity = capacity }

    var isEmpty: Bool { written == current.count && head == queue.count && droppedSinceGap == 0 }

    mutating func append(_ line: String) {
        let bytes = Array(line.utf8) + [10]
        // (one line larger than the whole box still goes when nothing waits: a reply is not lost)
        while queuedBytes + bytes.count > capacity && head < queue.count {
            queuedBytes -= queue[head].count
            queue[head] = []
            head += 1
            droppedSinceGap += 1
            droppedTotal += 1
        }
        queue.append(bytes)
        queuedBytes += bytes.count
        if head > 64 && head * 2 > queue.count {
            queue.removeFirst(head)
            head = 0
        }
    }

    /// The bytes to write next, or nil when everything is out. `gap` makes the gap line for a
    /// number of dropped lines (its wording depends on what the client asked for).
    mutating func next(gap: (Int) -> String) -> ArraySlice<UInt8>? {
        if written == current.count {
            if droppedSinceGap > 0 {
                current = Array(gap(droppedSinceGap).utf8) + [10]
                droppedSinceGap = 0
            } else if head < queue.count {
                current = queue[head]
                queue[head] = []
                head += 1
                queuedBytes -= current.count
            } else {
                current = []
            }
            written = 0
        }
        return written < current.count ? current[written...] : nil
    }

    /// `n` bytes of what `next` gave were written.
    mutating func wrote(_ n: Int) { written = min(current.count, written + n) }
}
