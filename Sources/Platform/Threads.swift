import Glibc

/// Dedicated threads for blocking C calls (gpsd reads, ALSA writes, the serial port, the control
/// socket): Foundation's Thread without Foundation.
public enum Threads {
    /// Starts `body` on a new detached thread named `name` (the kernel keeps 15 bytes of it,
    /// which `top -H` and `/proc/PID/task/*/comm` show).
    public static func start(name: String, _ body: @escaping @Sendable () -> Void) {
        let box = Unmanaged.passRetained(Box(name: name, body: body)).toOpaque()
        var attr = pthread_attr_t()
        pthread_attr_init(&attr)
        defer { pthread_attr_destroy(&attr) }
        pthread_attr_setdetachstate(&attr, Int32(PTHREAD_CREATE_DETACHED))
        var thread = pthread_t()
        let rc = pthread_create(&thread, &attr, { raw in
            let box = Unmanaged<Box>.fromOpaque(raw!).takeRetainedValue()
            Threads.nameCurrent(box.name)
            box.body()
            return nil
        }, box)
        // out of threads: the system is failing; say so rather than silently lose the work
        precondition(rc == 0, "pthread_create failed (\(rc)) for \(name)")
    }

    /// pthread_setname_np needs _GNU_SOURCE, which Swift's Glibc module does not define; the
    /// kernel takes the name from /proc/thread-self/comm as well.
    private static func nameCurrent(_ name: String) {
        let fd = open("/proc/thread-self/comm", O_WRONLY)
        guard fd >= 0 else { return }
        let bytes = Array(name.utf8.prefix(15))
        _ = bytes.withUnsafeBufferPointer { write(fd, $0.baseAddress, $0.count) }
        close(fd)
    }

    private final class Box {
        let name: String
        let body: @Sendable () -> Void
        init(name: String, body: @escaping @Sendable () -> Void) { self.name = name; self.body = body }
    }
}
