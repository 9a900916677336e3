import Console
import Dispatch
import FoundationEssentials
import Glibc
import Platform

/// The control socket of a running tern (`/run/tern/control`, mode 0660): one command line in,
/// its reply out (one line, or a list: a header "ok: N …:" and N lines), the console's commands;
/// `watch` turns a connection into a stream of the event lines of `events.jsonl` as they happen
/// (as gpsd's `?WATCH`).
///
/// One thread serves every client with poll(2), on non-blocking sockets, as gpsd does. The engine
/// only queues lines (`send`, `broadcast`) into each client's bounded `ControlOutbox` and never
/// waits on a client: a watcher that stops reading loses its oldest lines (and is told how many),
/// not the drive its status line and watchdog (issue #29). Connections are limited; a command
/// client silent for `Limits.idleSeconds` is closed, and at the limit the one silent the longest
/// makes room, so idle clients cannot crowd out a maintainer's `tern ctl`.
final class ControlServer: @unchecked Sendable {
    struct Limits {
        /// Clients at once. One more closes the command client silent the longest, or is told
        /// to try later when all are watching or busy.
        var connections = 64
        /// Bytes queued per client before its oldest lines are dropped (about 200 event lines).
        var outboxBytes = 64 * 1024
        /// The longest command line; a longer one is refused whole.
        var lineBytes = 4096
        /// A client that is not watching and sends nothing for this long is closed.
        var idleSeconds = 120.0
    }

    final class Connection: @unchecked Sendable {
        let fd: Int32
        // (under the server's lock: the engine queues, the server's thread writes)
        fileprivate var watching = false
        fileprivate var open = true
        fileprivate var outbox: ControlOutbox
        // (the server's thread only)
        fileprivate var framer: LineFramer
        fileprivate var lastHeard: Double
        init(fd: Int32, limits: Limits, now: Double) {
            self.fd = fd
            outbox = ControlOutbox(capacity: limits.outboxBytes)
            framer = LineFramer(limit: limits.lineBytes)
            lastHeard = now
        }
    }

    /// Another tern answers on the socket's path: this one must not take it over.
    struct Held: Error, CustomStringConvertible {
        let path: String
        var description: String {
            "\(path): another tern is running and answers on this control socket; stop it first (systemctl stop tern), or give this one another --control path"
        }
    }

    let path: String
    let limits: Limits
    private let listener: Int32
    /// A pipe that wakes the server's thread when the engine queued lines or stops it.
    private let wakeRead: Int32, wakeWrite: Int32
    private let lock = Lock()
    private var connections: [Connection] = []
    private var stopped = false
    private let finished = DispatchSemaphore(value: 0)
    private let onLine: (String, Connection) -> Void

    /// Binds the socket (a stale one left by a crash is replaced, a live one is not: `Held`);
    /// throws with the reason.
    init(path: String, limits: Limits = Limits(), onLine: @escaping (String, Connection) -> Void) throws {
        self.path = path
        self.limits = limits
        self.onLine = onLine
        var addr = try ControlServer.address(path)
        if ControlServer.answers(path) { throw Held(path: path) }
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw CommandError("\(path): socket: \(String(cString: strerror(errno)))") }
        unlink(path)
        let bound = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard bound == 0 else {
            let why = String(cString: strerror(errno))
            close(fd)
            throw CommandError("\(path): cannot bind the control socket: \(why)")
        }
        chmod(path, 0o660)
        guard listen(fd, 64) == 0 else {
            let why = String(cString: strerror(errno))
            close(fd)
            throw CommandError("\(path): listen: \(why)")
        }
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else {
            let why = String(cString: strerror(errno))
            close(fd)
            throw CommandError("\(path): pipe: \(why)")
        }
        for f in [fd, ends[0], ends[1]] { Self.setNonBlocking(f) }
        listener = fd
        wakeRead = ends[0]
        wakeWrite = ends[1]
        Threads.start(name: "tern-control") { [self] in serve() }
    }

    /// A Unix socket address for a path.
    static func address(_ path: String) throws -> sockaddr_un {
        var addr = sockaddr_un()
        addr.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: addr.sun_path) else { throw CommandError("\(path): socket path too long") }
        withUnsafeMutableBytes(of: &addr.sun_path) { buf in
            for (i, b) in bytes.enumerated() { buf[i] = b }
            buf[bytes.count] = 0
        }
        return addr
    }

    /// Whether something accepts connections on the path (a live tern, not a stale file).
    static func answers(_ path: String) -> Bool {
        guard var addr = try? address(path) else { return false }
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        return withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        } == 0
    }

    /// How many lines follow a list reply's header ("ok: 3 found:" → 3); nil for a one-line reply.
    static func listLength(header: String) -> Int? {
        guard header.hasPrefix("ok: "), header.hasSuffix(":") else { return nil }
        return Int(header.dropFirst(4).prefix { $0.isNumber })
    }

    /// Queues one line (or several joined by "\n") for a connection; nothing when it is gone.
    func send(_ line: String, to conn: Connection) {
        lock.withLock { if conn.open { conn.outbox.append(line) } }
        wake()
    }

    /// Makes a connection a watcher of the event stream.
    func watch(_ conn: Connection) {
        lock.withLock { conn.watching = true }
    }

    /// Queues an event line for every watcher (the line is made only when someone watches).
    func broadcast(_ line: @autoclosure () -> String) {
        let queued = lock.withLock { () -> Bool in
            let watchers = connections.filter { $0.watching && $0.open }
            if watchers.isEmpty { return false }
            let text = line()
            for c in watchers { c.outbox.append(text) }
            return true
        }
        if queued { wake() }
    }

    /// Lines dropped for slow readers so far, per open connection (for tests and diagnostics).
    var droppedLines: [Int] { lock.withLock { connections.map { $0.outbox.droppedTotal } } }
    var connectionCount: Int { lock.withLock { connections.count } }

    func stop() {
        let already = lock.withLock { () -> Bool in defer { stopped = true }; return stopped }
        guard !already else { return }
        wake()
        _ = finished.wait(timeout: .now() + 2)
        unlink(path)
    }

    private func wake() {
        var b: UInt8 = 1
        _ = write(wakeWrite, &b, 1)  // (a full pipe already wakes it)
    }

    // MARK: the server's thread

    private func serve() {
        var buf = [UInt8](repeating: 0, count: 4096)
        while true {
            let (isStopped, conns, writable) = lock.withLock { (stopped, connections, connections.map { !$0.outbox.isEmpty }) }
            if isStopped { break }
            var fds = [pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0),
                       pollfd(fd: listener, events: Int16(POLLIN), revents: 0)]
            for (c, w) in zip(conns, writable) {
                fds.append(pollfd(fd: c.fd, events: Int16(POLLIN) | (w ? Int16(POLLOUT) : 0), revents: 0))
            }
            // (a second's timeout: idle clients are closed even when nothing happens)
            let r = poll(&fds, nfds_t(fds.count), 1000)
            if r < 0 && errno != EINTR { break }
            if fds[0].revents != 0 { while read(wakeRead, &buf, buf.count) > 0 {} }
            if fds[1].revents != 0 { acceptAll() }
            let now = Self.monotonic()
            for (i, c) in conns.enumerated() {
                let ev = fds[i + 2].revents
                if ev & Int16(POLLIN | POLLHUP | POLLERR) != 0 && !receive(c, &buf, now: now) { drop(c); continue }
                if !flush(c) { drop(c); continue }
                let idle = lock.withLock { !c.watching && c.outbox.isEmpty }
                if idle && now - c.lastHeard > limits.idleSeconds { drop(c) }
            }
        }
        let all = lock.withLock { () -> [Connection] in defer { connections.removeAll() }; return connections }
        for c in all { close(c.fd) }
        close(listener)
        close(wakeRead)
        close(wakeWrite)
        finished.signal()
    }

    private func acceptAll() {
        while true {
            let fd = accept(listener, nil, nil)
            if fd < 0 {
                if errno == EINTR { continue }
                return  // EAGAIN: all taken
            }
            Self.setNonBlocking(fd)
            // at the limit, the command client silent the longest makes room (idle clients
            // cannot lock a maintainer out); when every one is watching or busy, the new one waits
            let (full, evicted) = lock.withLock { () -> (Bool, Connection?) in
                guard connections.count >= limits.connections else { return (false, nil) }
                let idle = connections.filter { !$0.watching && $0.outbox.isEmpty }.min { $0.lastHeard < $1.lastHeard }
                return (idle == nil, idle)
            }
            if let old = evicted {
                let msg = "error: closed to make room: too many control connections (at most \(limits.connections))\n"
                Self.tell(old.fd, msg)
                drop(old)
            }
            if full {
                let msg = "error: too many control connections (at most \(limits.connections)), all watching or busy; try again later\n"
                Self.tell(fd, msg)
                close(fd)
                continue
            }
            let conn = Connection(fd: fd, limits: limits, now: Self.monotonic())
            lock.withLock { connections.append(conn) }
        }
    }

    /// Reads what a client sent and hands over its lines; false when it is gone.
    private func receive(_ c: Connection, _ buf: inout [UInt8], now: Double) -> Bool {
        while true {
            let n = read(c.fd, &buf, buf.count)
            if n < 0 {
                if errno == EINTR { continue }
                return errno == EAGAIN || errno == EWOULDBLOCK
            }
            if n == 0 { return false }
            c.lastHeard = now
            for item in c.framer.feed(buf[0..<n]) {
                switch item {
                case .line(let l):
                    let line = l.trimmed()
                    if !line.isEmpty { onLine(line, c) }
                case .tooLong(let limit):
                    send("error: line too long (at most \(limit) bytes); it was not run", to: c)
                }
            }
        }
    }

    /// Writes what is queued for a client until the socket is full; false when it is gone.
    private func flush(_ c: Connection) -> Bool {
        lock.withLock {
            while let chunk = c.outbox.next(gap: { [watching = c.watching] n in Self.gapLine(dropped: n, watching: watching) }) {
                let n = chunk.withUnsafeBytes { Glibc.send(c.fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT)) }
                if n < 0 {
                    if errno == EINTR { continue }
                    if errno == EAGAIN || errno == EWOULDBLOCK { return true }
                    c.open = false
                    return false
                }
                c.outbox.wrote(n)
            }
            return true
        }
    }

    /// The line that marks lines dropped for a slow reader: an event line for a watcher (its
    /// stream stays JSON lines), an error for a command client.
    static func gapLine(dropped n: Int, watching: Bool) -> String {
        watching ? #"{"event":"gap","dropped":\#(n)}"#
            : "error: \(n) reply line\(n == 1 ? "" : "s") dropped: the client did not read them"
    }

    private func drop(_ c: Connection) {
        lock.withLock {
            c.open = false
            connections.removeAll { $0 === c }
        }
        close(c.fd)
    }

    /// One last line to a client about to be closed, if its socket has room (never waits).
    private static func tell(_ fd: Int32, _ line: String) {
        _ = line.withCString { Glibc.send(fd, $0, strlen($0), Int32(MSG_NOSIGNAL | MSG_DONTWAIT)) }
    }

    /// Non-blocking and closed on exec (pipe2 and accept4 need _GNU_SOURCE, which Swift's Glibc
    /// module does not define).
    private static func setNonBlocking(_ fd: Int32) {
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
    }

    private static func monotonic() -> Double { ProcessInfo.processInfo.systemUptime }
}
