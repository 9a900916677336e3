import FoundationEssentials
import Glibc

/// A short human reason for an error from a file operation ("No space left on device"), for
/// messages that name the file: what `localizedDescription` gave before issue #27 dropped Foundation.
public func errorText(_ error: Error) -> String {
    if let e = error as? CocoaError {
        if let posix = e.userInfo["NSUnderlyingError"] as? POSIXError { return String(cString: strerror(posix.code.rawValue)) }
        switch e.code {
        case .fileNoSuchFile, .fileReadNoSuchFile: return "No such file or directory"
        case .fileReadNoPermission, .fileWriteNoPermission: return "Permission denied"
        case .fileWriteOutOfSpace: return "No space left on device"
        case .fileWriteVolumeReadOnly: return "Read-only file system"
        case .fileWriteFileExists: return "File exists"
        case .fileReadCorruptFile: return "not readable as the expected format"
        default: return "error \(e.code.rawValue)"
        }
    }
    if let e = error as? AtomicFile.WriteError { return e.reason }
    if let e = error as? POSIXError { return String(cString: strerror(e.code.rawValue)) }
    return "\(error)"
}
