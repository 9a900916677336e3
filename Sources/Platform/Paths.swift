import Glibc

/// File path arithmetic on plain strings, as NSString did it (issue #27: no Foundation in the appliance).
public enum Paths {
    /// `directory/name`, with one slash between them; `name` alone when `directory` is empty.
    public static func join(_ directory: String, _ name: String) -> String {
        if directory.isEmpty { return name }
        return directory.hasSuffix("/") ? directory + name : directory + "/" + name
    }

    /// The last component: "b.tmap" for "/a/b.tmap" and for "/a/b.tmap/".
    public static func fileName(_ path: String) -> String {
        let trimmed = path.count > 1 && path.hasSuffix("/") ? String(path.dropLast()) : path
        guard let slash = trimmed.lastIndex(of: "/") else { return trimmed }
        let name = String(trimmed[trimmed.index(after: slash)...])
        return name.isEmpty ? "/" : name
    }

    /// Everything before the last component: "/a" for "/a/b", "/" for "/a", "" for "b".
    public static func directory(_ path: String) -> String {
        let trimmed = path.count > 1 && path.hasSuffix("/") ? String(path.dropLast()) : path
        guard let slash = trimmed.lastIndex(of: "/") else { return "" }
        return slash == trimmed.startIndex ? "/" : String(trimmed[..<slash])
    }

    /// The path without its last extension: "/a/b" for "/a/b.tmap"; a leading dot is not an extension.
    public static func droppingExtension(_ path: String) -> String {
        let path = path.count > 1 && path.hasSuffix("/") ? String(path.dropLast()) : path
        let name = fileName(path)
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return path }
        return String(path.dropLast(name.distance(from: dot, to: name.endIndex)))
    }

    /// The folder for scratch files, ending in "/": $TMPDIR, else /tmp/ (NSTemporaryDirectory's rule).
    public static var temporaryDirectory: String {
        guard let t = getenv("TMPDIR").map({ String(cString: $0) }), !t.isEmpty else { return "/tmp/" }
        return t.hasSuffix("/") ? t : t + "/"
    }
}

extension Paths {
    /// The size in bytes of the file at `path`, and when it was last modified (seconds since the
    /// epoch); nil when it cannot be read. (stat, not FileManager: without Foundation its `.size`
    /// attribute is a UInt, which `as? Int` silently turns into nil.)
    public static func fileStatus(_ path: String) -> (bytes: Int, modified: Double)? {
        var st = stat()
        guard stat(path, &st) == 0 else { return nil }
        return (Int(st.st_size), Double(st.st_mtim.tv_sec) + Double(st.st_mtim.tv_nsec) / 1e9)
    }

    /// The size in bytes of the file at `path`; nil when it cannot be read.
    public static func fileSize(_ path: String) -> Int? { fileStatus(path)?.bytes }
}
