import Glibc

/// Every file Tern writes whole (a map, the trip state, a report, a GPX track, a simulated
/// drive) is written here, one rule in one place (issue #29): into a new temporary file in the
/// same folder, flushed to the disk (fsync), renamed over the target, and the folder flushed, so
/// that after a crash or a power cut at any moment the path holds the old file or the new one,
/// never a mix, and a full disk leaves the old one as it was.
///
/// Only a regular file or a new path is replaced. A device, a folder, a FIFO or a socket at the
/// path is refused with the reason (`import -o /dev/full` once replaced the device with a file).
/// A symbolic link is followed: its target is replaced, the link stays.
public enum AtomicFile {
    public struct WriteError: Error, CustomStringConvertible {
        public let path: String
        public let reason: String
        public var description: String { "\(path): \(reason)" }
    }

    public static func write(_ bytes: some Collection<UInt8>, to path: String) throws {
        let target = try replaceable(path)
        let folder = Paths.directory(target)
        // (O_EXCL with 0644: the umask applies to a new file as to any other; a replaced file keeps its mode)
        var tmp = "", fd: Int32 = -1
        for _ in 0..<16 {
            tmp = Paths.join(folder, ".\(Paths.fileName(target)).\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
            fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
            if fd >= 0 || errno != EEXIST { break }
        }
        guard fd >= 0 else { throw WriteError(path: path, reason: "cannot create a file beside it: \(String(cString: strerror(errno)))") }
        func fail(_ why: String) -> WriteError {
            close(fd)
            unlink(tmp)
            return WriteError(path: path, reason: why)
        }
        var st = stat()
        if stat(target, &st) == 0 { fchmod(fd, st.st_mode & 0o7777) }
        let written = bytes.withContiguousStorageIfAvailable { writeAll(fd, $0) } ?? Array(bytes).withUnsafeBufferPointer { writeAll(fd, $0) }
        if let why = written { throw fail(why) }
        guard fsync(fd) == 0 else { throw fail(String(cString: strerror(errno))) }
        close(fd)
        guard rename(tmp, target) == 0 else {
            let why = String(cString: strerror(errno))
            unlink(tmp)
            throw WriteError(path: path, reason: why)
        }
        // the rename reaches the disk with the folder's entry
        let dir = open(folder.isEmpty ? "." : folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if dir >= 0 {
            defer { close(dir) }
            guard fsync(dir) == 0 else { throw WriteError(path: path, reason: "written, but its folder: \(String(cString: strerror(errno)))") }
        }
    }

    public static func write(_ text: String, to path: String) throws { try write(Array(text.utf8), to: path) }

    /// The path to replace: `path` itself, or the target of the link it is; throws when what is
    /// there is not a regular file.
    static func replaceable(_ path: String) throws -> String {
        guard !path.isEmpty else { throw WriteError(path: path, reason: "an empty path") }
        var st = stat()
        guard lstat(path, &st) == 0 else {
            if errno == ENOENT { return path }
            throw WriteError(path: path, reason: String(cString: strerror(errno)))
        }
        var target = path
        if st.st_mode & S_IFMT == S_IFLNK {
            guard let real = realpath(path, nil) else {
                // a dangling link: its target is made
                var buf = [CChar](repeating: 0, count: 4096)
                let n = readlink(path, &buf, buf.count - 1)
                guard n > 0 else { throw WriteError(path: path, reason: String(cString: strerror(errno))) }
                let dest = String(decoding: buf[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
                return dest.hasPrefix("/") ? dest : Paths.join(Paths.directory(path), dest)
            }
            target = String(cString: real)
            free(real)
            guard stat(target, &st) == 0 else { throw WriteError(path: path, reason: String(cString: strerror(errno))) }
        }
        guard st.st_mode & S_IFMT == S_IFREG else {
            throw WriteError(path: path, reason: "not a regular file (\(RegularFile.kind(st.st_mode))): refusing to replace it; give a file name")
        }
        return target
    }

    /// nil when every byte was written, else why not.
    private static func writeAll(_ fd: Int32, _ buf: UnsafeBufferPointer<UInt8>) -> String? {
        var off = 0
        while off < buf.count {
            let n = Glibc.write(fd, buf.baseAddress! + off, buf.count - off)
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { return n < 0 ? String(cString: strerror(errno)) : "nothing written" }
            off += n
        }
        return nil
    }
}
