import Glibc

/// Giving the allocator's free memory back to the kernel, on a schedule.
///
/// glibc's malloc returns memory to the kernel only from the top of a heap. What is freed in the
/// middle (an old route after a reroute, a search's arrays) stays in the process, so the
/// resident set keeps the high-water mark of the first hours of a drive rather than what is in
/// use: measured over a 24-hour replay, 1.2–2.4 MB more at the end than after 10 minutes while the
/// live heap shrank (issue #27). `malloc_trim(0)` hands every free page of every arena back.
public struct MemoryTrim {
    /// Seconds of drive time between trims. A trim walks the free lists (tens of microseconds
    /// for Tern's few megabytes); once a minute is nothing, and soon enough after any reroute.
    public var interval: Double
    private var last: Double?

    public init(interval: Double = 60) { self.interval = interval }

    /// Trims when `interval` has passed since the last trim by the drive's clock (a replay's
    /// compressed time trims as the car would); true when it did.
    @discardableResult
    public mutating func tick(at time: Double) -> Bool {
        guard time.isFinite else { return false }
        guard let l = last, time >= l else {
            last = time  // the first tick, or the clock went back (a new drive): start counting
            return false
        }
        guard time - l >= interval else { return false }
        last = time
        MemoryTrim.returnFreePages()
        return true
    }

    /// Hands free heap pages back to the kernel now.
    public static func returnFreePages() { _ = mallocTrim?(0) }

    /// glibc's `malloc_trim`, looked up once: `<malloc.h>` is not in Swift's Glibc module. Nil on
    /// a C library without it (musl), where there is nothing to trim this way.
    private static let mallocTrim: (@convention(c) (Int) -> Int32)? = {
        guard let symbol = dlsym(nil, "malloc_trim") else { return nil }
        return unsafeBitCast(symbol, to: (@convention(c) (Int) -> Int32).self)
    }()
}
