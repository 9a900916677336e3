import Glibc

/// Opening a file Tern reads (a map, a drive log, a configuration) only when it is a regular
/// file. `open` on a FIFO waits for a writer, so a FIFO given as the map hung `map-info`, `route`
/// and `replay` (issue #29); a device would be read as a map or a log. Opened without blocking,
/// checked with fstat, then set to block again.
public enum RegularFile {
    /// The descriptor, or why not ("No such file or directory", "not a regular file (a FIFO)").
    public static func openForReading(_ path: String) -> Result<Int32, RegularFile.Refusal> {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else { return .failure(Refusal(reason: String(cString: strerror(errno)))) }
        var st = stat()
        guard fstat(fd, &st) == 0 else {
            let why = String(cString: strerror(errno))
            close(fd)
            return .failure(Refusal(reason: why))
        }
        guard st.st_mode & S_IFMT == S_IFREG else {
            close(fd)
            return .failure(Refusal(reason: "not a regular file (\(kind(st.st_mode)))"))
        }
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
        return .success(fd)
    }

    /// A small text file whole (a configuration, a traffic file, prompts), as UTF-8; refused
    /// when it is not a regular file, larger than `limit` bytes, or not UTF-8.
    public static func readText(_ path: String, limit: Int = 16 << 20) throws(Refusal) -> String {
        guard let text = String(validating: try read(path, limit: limit), as: UTF8.self) else { throw Refusal(reason: "not UTF-8 text") }
        return text
    }

    /// A file whole (a trace to match), refused when it is not a regular file or larger than `limit` bytes.
    public static func read(_ path: String, limit: Int = 256 << 20) throws(Refusal) -> [UInt8] {
        let fd: Int32
        switch openForReading(path) {
        case .success(let d): fd = d
        case .failure(let r): throw r
        }
        defer { close(fd) }
        var bytes = [UInt8](), buf = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = Glibc.read(fd, &buf, buf.count)
            if n < 0 && errno == EINTR { continue }
            if n < 0 { throw Refusal(reason: String(cString: strerror(errno))) }
            if n == 0 { break }
            bytes += buf[0..<n]
            if bytes.count > limit { throw Refusal(reason: "larger than \(limit >> 20) MB: not a file Tern reads whole") }
        }
        return bytes
    }

    public struct Refusal: Error, CustomStringConvertible {
        public let reason: String
        public var description: String { reason }
    }

    /// What a file that is not a regular one is, for messages.
    public static func kind(_ mode: mode_t) -> String {
        switch mode & S_IFMT {
        case S_IFDIR: return "a folder"
        case S_IFCHR: return "a character device"
        case S_IFBLK: return "a block device"
        case S_IFIFO: return "a FIFO"
        case S_IFSOCK: return "a socket"
        case S_IFLNK: return "a link"
        default: return "not a file"
        }
    }
}
