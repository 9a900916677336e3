import FoundationEssentials
import Glibc
import Platform

/// The control socket of a running tern (`/run/tern/control`, mode 0660): one command line in,
/// its reply out (one line, or a list: a header "ok: N …:" and N lines), the console's commands; `watch` turns a connection into a stream of the
/// event lines of `events.jsonl` as they happen (as gpsd's `?WATCH`). A thread accepts, a thread
/// per connection reads; replies and events are written under a lock, without SIGPIPE.
final class ControlServer: @unchecked Sendable {
    final class Connection: @unchecked Sendable {
        let fd: Int32
        fileprivate var watching = false
        fileprivate var open = true
        init(fd: Int32) { self.fd = fd }
    }

    let path: String
    private let listener: Int32
    private let lock = Lock()
    private var connections: [Connection] = []
    private let onLine: (String, Connection) -> Void
    private var stopped = false

    /// Binds the socket (a stale one left by a crash is replaced); throws with the reason.
    init(path: String, onLine: @escaping (String, Connection) -> Void) throws {
        self.path = path
        self.onLine = onLine
        var addr = try ControlServer.address(path)
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
        guard listen(fd, 8) == 0 else {
            let why = String(cString: strerror(errno))
            close(fd)
            throw CommandError("\(path): listen: \(why)")
        }
        listener = fd
        Threads.start(name: "tern-control") { [weak self] in self?.acceptLoop() }
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

    private func acceptLoop() {
        while true {
            let c = accept(listener, nil, nil)
            if c < 0 {
                if errno == EINTR { continue }
                return  // closed: stopping
            }
            let conn = Connection(fd: c)
            lock.lock()
            if stopped {
                lock.unlock()
                close(c)
                return
            }
            connections.append(conn)
            lock.unlock()
            Threads.start(name: "tern-control-client") { [weak self] in self?.readLoop(conn) }
        }
    }

    private func readLoop(_ conn: Connection) {
        var pending = [UInt8]()
        var buf = [UInt8](repeating: 0, count: 1024)
        // after a line too long, the rest of it up to its end is dropped, not read as a command
        var discarding = false
        while true {
            let n = read(conn.fd, &buf, buf.count)
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { break }
            pending += buf[0..<n]
            while let nl = pending.firstIndex(of: 10) {
                let line = String(decoding: pending[..<nl], as: UTF8.self).trimmed()
                pending.removeSubrange(...nl)
                if discarding { discarding = false; continue }
                if !line.isEmpty { onLine(line, conn) }
            }
            if pending.count > 4096 {
                if !discarding { send("error: line too long (at most 4096 bytes)", to: conn) }
                pending.removeAll()
                discarding = true
            }
        }
        drop(conn)
    }

    /// How many lines follow a list reply's header ("ok: 3 found:" → 3); nil for a one-line reply.
    static func listLength(header: String) -> Int? {
        guard header.hasPrefix("ok: "), header.hasSuffix(":") else { return nil }
        return Int(header.dropFirst(4).prefix { $0.isNumber })
    }

    /// Writes one line to a connection (nothing when it is gone).
    func send(_ line: String, to conn: Connection) {
        lock.lock()
        defer { lock.unlock() }
        write(line, conn)
    }

    /// Makes a connection a watcher of the event stream.
    func watch(_ conn: Connection) {
        lock.lock()
        conn.watching = true
        lock.unlock()
    }

    /// Writes an event line to every watcher (the line is made only when someone watches).
    func broadcast(_ line: @autoclosure () -> String) {
        lock.lock()
        defer { lock.unlock() }
        let watchers = connections.filter { $0.watching && $0.open }
        if watchers.isEmpty { return }
        let text = line()
        for c in watchers { write(text, c) }
    }

    private func write(_ line: String, _ conn: Connection) {
        guard conn.open else { return }
        let bytes = Array((line + "\n").utf8)
        var off = 0
        while off < bytes.count {
            let n = bytes[off...].withUnsafeBytes { Glibc.send(conn.fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { conn.open = false; return }
            off += n
        }
    }

    private func drop(_ conn: Connection) {
        lock.lock()
        conn.open = false
        connections.removeAll { $0 === conn }
        lock.unlock()
        close(conn.fd)
    }

    func stop() {
        lock.lock()
        stopped = true
        let all = connections
        lock.unlock()
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
        for c in all { shutdown(c.fd, Int32(SHUT_RDWR)) }
        unlink(path)
    }
}

/// `tern ctl [--socket PATH] COMMAND...`: sends one command to a running tern and prints the
/// reply (a list reply: its header line "ok: N …:" and N lines); `watch` prints the event lines
/// until the connection ends (or for `--seconds N`).
enum CtlCommand {
    static func run(_ args: [String]) throws -> Int32 {
        let a = try Arguments(args, valued: ["socket", "seconds"], switches: [])
        let path = a.value("socket") ?? "/run/tern/control"
        guard !a.positional.isEmpty else { throw UsageError("ctl needs a command: go LAT,LON, via, cancel, continue, reroute, repeat, mute, status, watch") }
        let seconds = try a.value("seconds").map { s -> Double in
            guard let v = Double(s), v > 0 else { throw UsageError("--seconds \(s): expected a positive number") }
            return v
        }
        var addr = try ControlServer.address(path)
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw CommandError("socket: \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        let ok = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard ok == 0 else {
            // (the socket is group tern's: a maintainer not in the group is told how to join)
            if errno == EACCES {
                throw CommandError("\(path): permission denied: the control socket is for group tern (sudo usermod -a -G tern $USER, then log in again; or sudo tern ctl ...)")
            }
            throw CommandError("\(path): no tern running there (\(String(cString: strerror(errno))))")
        }
        let line = a.positional.joined(separator: " ") + "\n"
        _ = line.withCString { Glibc.send(fd, $0, strlen($0), Int32(MSG_NOSIGNAL)) }
        let watching = a.positional.first == "watch"
        if let s = seconds {
            var tv = timeval(tv_sec: Int(s), tv_usec: __suseconds_t((s - s.rounded(.down)) * 1_000_000))
            setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
        }
        var pending = [UInt8]()
        var buf = [UInt8](repeating: 0, count: 4096)
        let deadline = seconds.map { Date().addingTimeInterval($0) }
        // lines still to come of a list reply ("ok: 3 found:" then three lines)
        var listLines: Int?
        while deadline.map({ Date() < $0 }) ?? true {
            let n = read(fd, &buf, buf.count)
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { break }
            pending += buf[0..<n]
            while let nl = pending.firstIndex(of: 10) {
                let line = String(decoding: pending[..<nl], as: UTF8.self)
                pending.removeSubrange(...nl)
                printOut(line)
                // a command's reply is one line, or a list whose header says how many follow;
                // `watch` goes on until the end
                if watching { continue }
                if let left = listLines {
                    if left <= 1 { return 0 }
                    listLines = left - 1
                } else if let n = ControlServer.listLength(header: line) {
                    listLines = n
                } else {
                    return line.hasPrefix("error") ? 1 : 0
                }
            }
        }
        return 0
    }
}
