import FoundationEssentials
import Glibc

/// `tern ctl [--socket PATH] COMMAND...`: sends one command to a running tern and prints the
/// reply (a list reply: its header line "ok: N …:" and N lines); `watch` prints the event lines
/// until the connection ends (or for `--seconds N`).
enum CtlCommand {
    static func run(_ args: [String]) throws -> Int32 {
        let a = try Arguments(args, valued: ["socket", "seconds"], switches: [])
        let path = a.value("socket") ?? "/run/tern/control"
        guard !a.positional.isEmpty else { throw UsageError("ctl needs a command: go LAT,LON, via, cancel, continue, reroute, repeat, mute, status, watch") }
        let seconds = try a.value("seconds").map { s -> Double in
            guard let v = Double(s), v > 0, v <= 86_400 * 366 else { throw UsageError("--seconds \(s): expected a positive number of seconds, at most a year") }
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
