import FeatureCheck
import FoundationEssentials
import Glibc
import Platform
import JSONLines

/// `tern check-features FILE_OR_DIR... [--json] [--verbose] [--lanes]`: runs OSRM-style scenario
/// files through the real import, routing and guidance; one line per file `NAME: passed/total`,
/// and a last line `TOTAL: passed/total`. `--lanes` also compares the lanes at each maneuver.
/// Rows of bicycle or foot scenarios are not applicable to a car navigator: they are listed apart,
/// per file and before the total, and not counted in it. Rows of scenarios OSRM tags @todo (its
/// own suite skips them) count in the total, and the figure without them is printed too.
enum CheckFeaturesCommand {
    static func run(_ args: [String]) throws -> Int32 {
        let a = try Arguments(args, valued: [], switches: ["json", "verbose", "lanes"])
        guard !a.positional.isEmpty else { throw UsageError("check-features needs feature files or folders") }
        var files = [String]()
        for p in a.positional {
            var isDir = false
            guard FileManager.default.fileExists(atPath: p, isDirectory: &isDir) else { throw CommandError("\(p): no such file or folder") }
            if isDir {
                let names = (try? FileManager.default.contentsOfDirectory(atPath: p)) ?? []
                files += names.filter { $0.hasSuffix(".feature") }.sorted().map { Paths.join(p, $0) }
            } else {
                files.append(p)
            }
        }
        let work = Paths.temporaryDirectory + "tern-features-\(getpid())"
        try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: work) }
        let runner = FeatureRunner(workDirectory: work, compareLanes: a.has("lanes"))
        var passed = 0, total = 0, todoPassed = 0, todoTotal = 0
        var unchecked = [String: Int]()
        var notApplicable = [(file: String, rows: [String: Int])]()
        var items = [JSONValue]()
        for f in files {
            let r = runner.run(path: f)
            passed += r.passed
            total += r.total
            unchecked.merge(r.unchecked) { $0 + $1 }
            todoPassed += r.todoPassed
            todoTotal += r.todoTotal
            if !r.notApplicable.isEmpty { notApplicable.append((r.name, r.notApplicable)) }
            if a.has("json") {
                items.append(.object([
                    ("name", .string(r.name)), ("passed", .int(r.passed)), ("total", .int(r.total)),
                    ("todo_passed", .int(r.todoPassed)), ("todo_total", .int(r.todoTotal)),
                    ("not_applicable", .object(r.notApplicable.sorted { $0.key < $1.key }.map { ($0.key, .int($0.value)) })),
                    ("unchecked_columns", .object(r.unchecked.sorted { $0.key < $1.key }.map { ($0.key, .int($0.value)) })),
                    ("failures", .array(r.failures.map { .object([("scenario", .string($0.scenario)), ("line", .int($0.line)),
                                                                  ("reason", .string($0.reason))]) })),
                ]))
            } else {
                let na = r.notApplicable.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key) row\($0.value == 1 ? "" : "s")" }.joined(separator: ", ")
                if r.total == 0, !na.isEmpty {
                    printOut("\(r.name): not applicable (\(na))")
                } else {
                    let todo = r.todoTotal == 0 ? "" : "; without OSRM's @todo scenarios \(r.passed - r.todoPassed)/\(r.total - r.todoTotal)"
                    printOut("\(r.name): \(r.passed)/\(r.total)" + todo + (na.isEmpty ? "" : " (and \(na), not applicable)"))
                }
                if a.has("verbose") {
                    if !r.unchecked.isEmpty {
                        printOut("    not checked: " + r.unchecked.sorted { $0.key < $1.key }.map { "\($0.key) (\($0.value) rows)" }.joined(separator: ", "))
                    }
                    for x in r.failures { printOut("    line \(x.line) (\(x.scenario)): \(x.reason)") }
                }
            }
        }
        if a.has("json") {
            let naTotal = notApplicable.reduce(into: [String: Int]()) { acc, f in acc.merge(f.rows) { $0 + $1 } }
            printOut(JSONValue.object([("files", .array(items)), ("passed", .int(passed)), ("total", .int(total)),
                                       ("todo_passed", .int(todoPassed)), ("todo_total", .int(todoTotal)),
                                       ("not_applicable", .object(naTotal.sorted { $0.key < $1.key }.map { ($0.key, .int($0.value)) })),
                                       ("unchecked_columns", .object(unchecked.sorted { $0.key < $1.key }.map { ($0.key, .int($0.value)) }))]).serialized())
        } else {
            if a.has("verbose"), !unchecked.isEmpty {
                printOut("not checked (rows judged on route and turns): "
                         + unchecked.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", "))
            }
            if !notApplicable.isEmpty {
                let rows = notApplicable.reduce(0) { $0 + $1.rows.values.reduce(0, +) }
                printOut("NOT APPLICABLE (not counted: bicycle or foot profile, traffic update and region files, matrices): \(rows) rows in "
                         + notApplicable.map { "\($0.file) \($0.rows.values.reduce(0, +))" }.joined(separator: ", "))
            }
            if todoTotal > 0 {
                printOut("OSRM's @todo scenarios (its own suite skips them; counted in the total): \(todoPassed)/\(todoTotal) rows; "
                         + "without them \(passed - todoPassed)/\(total - todoTotal)")
            }
            printOut("TOTAL: \(passed)/\(total)")
        }
        return 0
    }
}
