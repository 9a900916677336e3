import FeatureCheck
import Foundation
import JSONLines

/// `tern check-features FILE_OR_DIR... [--json] [--verbose] [--lanes]`: runs OSRM-style scenario
/// files through the real import, routing and guidance; one line per file `NAME: passed/total`,
/// and a last line `TOTAL: passed/total`. `--lanes` also compares the lanes at each maneuver.
enum CheckFeaturesCommand {
    static func run(_ args: [String]) throws -> Int32 {
        let a = try Arguments(args, valued: [], switches: ["json", "verbose", "lanes"])
        guard !a.positional.isEmpty else { throw UsageError("check-features needs feature files or folders") }
        var files = [String]()
        for p in a.positional {
            var isDir: ObjCBool = false
            guard FileManager.default.fileExists(atPath: p, isDirectory: &isDir) else { throw CommandError("\(p): no such file or folder") }
            if isDir.boolValue {
                let names = (try? FileManager.default.contentsOfDirectory(atPath: p)) ?? []
                files += names.filter { $0.hasSuffix(".feature") }.sorted().map { (p as NSString).appendingPathComponent($0) }
            } else {
                files.append(p)
            }
        }
        let work = NSTemporaryDirectory() + "tern-features-\(getpid())"
        try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: work) }
        let runner = FeatureRunner(workDirectory: work, compareLanes: a.has("lanes"))
        var passed = 0, total = 0
        var unchecked = [String: Int]()
        var items = [JSONValue]()
        for f in files {
            let r = runner.run(path: f)
            passed += r.passed
            total += r.total
            unchecked.merge(r.unchecked) { $0 + $1 }
            if a.has("json") {
                items.append(.object([
                    ("name", .string(r.name)), ("passed", .int(r.passed)), ("total", .int(r.total)),
                    ("unchecked_columns", .object(r.unchecked.sorted { $0.key < $1.key }.map { ($0.key, .int($0.value)) })),
                    ("failures", .array(r.failures.map { .object([("scenario", .string($0.scenario)), ("line", .int($0.line)),
                                                                  ("reason", .string($0.reason))]) })),
                ]))
            } else {
                printOut("\(r.name): \(r.passed)/\(r.total)")
                if a.has("verbose") {
                    if !r.unchecked.isEmpty {
                        printOut("    not checked: " + r.unchecked.sorted { $0.key < $1.key }.map { "\($0.key) (\($0.value) rows)" }.joined(separator: ", "))
                    }
                    for x in r.failures { printOut("    line \(x.line) (\(x.scenario)): \(x.reason)") }
                }
            }
        }
        if a.has("json") {
            printOut(JSONValue.object([("files", .array(items)), ("passed", .int(passed)), ("total", .int(total)),
                                       ("unchecked_columns", .object(unchecked.sorted { $0.key < $1.key }.map { ($0.key, .int($0.value)) }))]).serialized())
        } else {
            if a.has("verbose"), !unchecked.isEmpty {
                printOut("not checked (rows judged on route and turns): "
                         + unchecked.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", "))
            }
            printOut("TOTAL: \(passed)/\(total)")
        }
        return 0
    }
}
