import Dispatch
import FoundationEssentials
import Glibc
import Platform
import Synchronization

/// Where status lines go.
public protocol StatusSink: Sendable {
    func write(_ line: StatusLine)
    func close()
}

/// Status lines on standard output (the bench and the demo).
public final class StdoutStatusSink: StatusSink {
    public init() {}
    public func write(_ line: StatusLine) {
        // unbuffered write(2): lines appear at once even when stdout is a pipe
        let bytes = Array((line.text + "\n").utf8)
        _ = bytes.withUnsafeBytes { Glibc.write(1, $0.baseAddress!, $0.count) }
    }
    public func close() {}
}

/// The serial console: a tty (UART, USB serial, or a pseudo-terminal in tests) in raw mode at a
/// configurable baud rate. Status lines are written by a dedicated thread (a slow or stalled line
/// never blocks guidance; only the newest pending line is kept). Lines typed on it are read by a
/// second thread and handed to `onLine`.
public final class SerialConsole: StatusSink {
    public let path: String
    private let fd: Int32
    private struct State { var pending: [String] = []; var closed = false }
    private let state = Locked(State())
    private let wake = DispatchSemaphore(value: 0)
    private let onLine: (@Sendable (String) -> Void)?
    private let threadsDone = Atomic<Int>(0)

    /// Baud rates the console accepts.
    public static let supportedBaudRates: [Int: speed_t] = [
        9600: speed_t(B9600), 19200: speed_t(B19200), 38400: speed_t(B38400), 57600: speed_t(B57600),
        115_200: speed_t(B115200), 230_400: speed_t(B230400), 460_800: speed_t(B460800), 921_600: speed_t(B921600),
    ]

    public init(path: String, baud: Int = 115_200, onLine: (@Sendable (String) -> Void)? = nil) throws {
        guard let speed = SerialConsole.supportedBaudRates[baud] else {
            throw ConsoleError("\(path): unsupported baud rate \(baud) (use one of \(SerialConsole.supportedBaudRates.keys.sorted()))")
        }
        self.path = path
        self.onLine = onLine
        fd = try SerialConsole.openRaw(path, speed: speed)
        Threads.start(name: "tern.serial.out") { [self] in writeLoop(); threadsDone.add(1, ordering: .releasing) }
        if onLine != nil {
            Threads.start(name: "tern.serial.in") { [self] in readLoop() }
        }
    }

    /// Opens `path` as a raw terminal at `speed`; the descriptor is closed again on any failure.
    private static func openRaw(_ path: String, speed: speed_t) throws -> Int32 {
        let fd = open(path, O_RDWR | O_NOCTTY | O_CLOEXEC)
        guard fd >= 0 else { throw ConsoleError("\(path): cannot open serial console: \(String(cString: strerror(errno)))") }
        var tio = termios()
        guard tcgetattr(fd, &tio) == 0 else {
            let reason = String(cString: strerror(errno))
            Glibc.close(fd)
            throw ConsoleError("\(path): not a terminal: \(reason)")
        }
        cfmakeraw(&tio)
        tio.c_cflag |= tcflag_t(CLOCAL | CREAD)
        tio.c_cflag &= ~tcflag_t(CRTSCTS)
        withUnsafeMutableBytes(of: &tio.c_cc) { $0[Int(VMIN)] = 1; $0[Int(VTIME)] = 0 }
        cfsetispeed(&tio, speed)
        cfsetospeed(&tio, speed)
        guard tcsetattr(fd, TCSANOW, &tio) == 0 else {
            let reason = String(cString: strerror(errno))
            Glibc.close(fd)
            throw ConsoleError("\(path): cannot configure: \(reason)")
        }
        return fd
    }

    public func write(_ line: StatusLine) { send(line.text) }

    /// Queues a line of text (CR LF is added). Keeps at most 8 pending lines: the console shows
    /// the present, not a backlog.
    public func send(_ text: String) {
        state.withLock { s in
            guard !s.closed else { return }
            s.pending.append(text)
            if s.pending.count > 8 { s.pending.removeFirst(s.pending.count - 8) }
        }
        wake.signal()
    }

    private func writeLoop() {
        while true {
            let (lines, closed) = state.withLock { s -> ([String], Bool) in
                defer { s.pending.removeAll() }
                return (s.pending, s.closed)
            }
            for l in lines {
                let bytes = Array((l + "\r\n").utf8)
                var off = 0
                while off < bytes.count {
                    let n = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + off, bytes.count - off) }
                    if n < 0 {
                        if errno == EINTR || errno == EAGAIN { usleep(1000); continue }
                        break  // the line went away (unplugged): drop it, keep guiding
                    }
                    off += n
                }
            }
            if closed { return }
            _ = wake.wait(timeout: .now() + 0.5)
        }
    }

    private func readLoop() {
        // a typed line longer than a command can be is refused whole, never cut and run
        var framer = LineFramer(limit: SerialConsole.lineLimit)
        var chunk = [UInt8](repeating: 0, count: 256)
        while !state.withLock({ $0.closed }) {
            var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let r = poll(&pfd, 1, 200)
            if r <= 0 { continue }
            let n = read(fd, &chunk, chunk.count)
            if n <= 0 {
                if n < 0 && (errno == EINTR || errno == EAGAIN) { continue }
                usleep(200_000)  // hung up (EIO on a pty): wait for it to come back or close
                continue
            }
            for item in framer.feed(chunk[0..<n]) {
                switch item {
                case .line(let l): onLine?(l)
                case .tooLong(let limit): send("error: line too long (at most \(limit) bytes); it was not run")
                }
            }
        }
    }

    /// The longest line typed on the console (a command with a place name fits many times over).
    public static let lineLimit = 512

    public func close() {
        let already = state.withLock { s -> Bool in defer { s.closed = true }; return s.closed }
        guard !already else { return }
        wake.signal()
        let deadline = Date().addingTimeInterval(2)
        while threadsDone.load(ordering: .acquiring) < 1 && Date() < deadline { usleep(2_000) }
        usleep(250_000)  // let the reader's poll time out before the descriptor goes
        Glibc.close(fd)
    }

    deinit { close() }
}
