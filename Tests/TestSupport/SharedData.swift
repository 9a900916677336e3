import Foundation

/// Locates the project's shared test data: `../shared/data` beside the package root.
/// Tests that need it skip (with the reason) when it is absent, as in a user's fresh clone.
public enum SharedData {
    /// The package root, found from this file's path (Tests/TestSupport/SharedData.swift).
    public static let packageRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// `../shared/data` relative to the package root, standardised.
    public static let root: URL = packageRoot.appendingPathComponent("../shared/data").standardizedFileURL

    public static var isAvailable: Bool { FileManager.default.fileExists(atPath: root.appendingPathComponent("osm").path) }

    /// Path of a file under the data folder.
    public static func path(_ relative: String) -> String { root.appendingPathComponent(relative).path }

    /// Sorted file names in a data sub-folder with the given suffix.
    public static func files(in folder: String, suffix: String) -> [String] {
        let dir = root.appendingPathComponent(folder).path
        let names = (try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []
        return names.filter { $0.hasSuffix(suffix) }.sorted()
    }

    /// The message tests print when skipping.
    public static let missingMessage = "../shared/data is absent (a fresh clone): skipped"
}

/// A fresh temporary directory, removed by `remove()`.
public struct TempDir: Sendable {
    public let path: String
    public init(_ prefix: String = "tern-test") {
        let template = (NSTemporaryDirectory() as NSString).appendingPathComponent("\(prefix).XXXXXX")
        var bytes = Array(template.utf8CString)
        let p = bytes.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
        path = p.map { String(cString: $0) } ?? template
    }
    public func file(_ name: String) -> String { (path as NSString).appendingPathComponent(name) }
    public func remove() { try? FileManager.default.removeItem(atPath: path) }
}

/// A thread-safe list for events arriving on other threads.
public final class Collector<T: Sendable>: @unchecked Sendable {
    // All access goes through `lock`.
    private let lock = NSLock()
    private var items: [T] = []
    public init() {}
    public func append(_ item: T) { lock.lock(); items.append(item); lock.unlock() }
    public var all: [T] { lock.lock(); defer { lock.unlock() }; return items }
    public var count: Int { lock.lock(); defer { lock.unlock() }; return items.count }
}
