import Glibc
import Platform

/// The lines of a log file, read a block at a time: `replay --direct` of a day's drive holds one
/// block, not the file (issue #27: nothing grows with the drive's length but the log on disk).
/// Lines are split at LF; a CR before it is dropped; invalid UTF-8 is replaced, as a log may hold
/// binary frames.
public final class NMEALineReader: IteratorProtocol, Sequence {
    private var fd: Int32
    private var buffer = [UInt8]()
    private var start = 0
    private var atEnd = false
    private static let blockSize = 64 * 1024

    /// Opens `path`; throws `GPSInputError.cannotRead` naming it.
    public init(path: String) throws {
        switch RegularFile.openForReading(path) {
        case .success(let d): fd = d
        case .failure(let refusal): throw GPSInputError.cannotRead(path: path, reason: refusal.reason)
        }
        buffer.reserveCapacity(NMEALineReader.blockSize * 2)
    }

    deinit { if fd >= 0 { close(fd) } }

    public func next() -> String? {
        while true {
            if let nl = buffer[start...].firstIndex(of: 0x0a) {
                let end = nl > start && buffer[nl - 1] == 0x0d ? nl - 1 : nl
                let line = String(decoding: buffer[start..<end], as: UTF8.self)
                start = nl + 1
                return line
            }
            if atEnd {
                guard start < buffer.count else {
                    if fd >= 0 { close(fd); fd = -1 }
                    return nil
                }
                var end = buffer.count
                if buffer[end - 1] == 0x0d { end -= 1 }
                let line = String(decoding: buffer[start..<end], as: UTF8.self)
                start = buffer.count
                return line
            }
            // keep the unfinished line, read the next block after it
            buffer.removeSubrange(0..<start)
            start = 0
            let old = buffer.count
            buffer.append(contentsOf: repeatElement(0, count: NMEALineReader.blockSize))
            let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress! + old, NMEALineReader.blockSize) }
            buffer.removeLast(NMEALineReader.blockSize - Swift.max(0, n))
            if n <= 0 { atEnd = true }
        }
    }
}
