import FoundationEssentials
import Glibc
import Platform

/// A parsed `.feature` file (the subset of Gherkin OSRM's scenarios use).
public struct FeatureFile: Sendable {
    public struct Step: Sendable {
        public var keyword: String
        public var text: String
        public var table: [[String]]?
        public var docString: String?
        public var line: Int
    }
    public struct Scenario: Sendable {
        public var name: String
        public var tags: [String]
        public var steps: [Step]
        public var line: Int
    }
    public var name: String
    public var tags: [String] = []
    public var background: [Step] = []
    public var scenarios: [Scenario] = []

    /// Parses feature text; throws with the line number for what it cannot read.
    public init(text: String, name: String) throws {
        self.name = name
        var pendingTags: [String] = []
        var inBackground = false
        var current: Scenario?
        var steps: [Step] = []
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var i = 0
        func flush() {
            if var s = current { s.steps = steps; scenarios.append(s) } else if inBackground { background = steps }
            steps = []
        }
        while i < lines.count {
            let raw = lines[i]
            let line = raw.trimmed()
            let number = i + 1
            i += 1
            if line.isEmpty || line.hasPrefix("#") { continue }
            if line.hasPrefix("@") {
                pendingTags += line.split(separator: " ").map(String.init).filter { $0.hasPrefix("@") }
                continue
            }
            if line.hasPrefix("Feature:") {
                tags = pendingTags
                pendingTags = []
                continue
            }
            if line.hasPrefix("Background:") {
                // (inside a scenario, as in OSRM's classes.feature: its steps are that scenario's
                // own; taken as the file's background they ran before every scenario, and the
                // last scenario's map answered all the routes)
                if current != nil { continue }
                flush()
                inBackground = true
                current = nil
                continue
            }
            if line.hasPrefix("Scenario:") || line.hasPrefix("Scenario Outline:") {
                flush()
                inBackground = false
                let title = line.split(separator: ":", maxSplits: 1).last.map { $0.trimmed() } ?? ""
                current = Scenario(name: title, tags: pendingTags, steps: [], line: number)
                pendingTags = []
                continue
            }
            if line.hasPrefix("|") {
                guard !steps.isEmpty else { throw FeatureError("\(name):\(number): a table outside a step") }
                let cells = FeatureFile.cells(line)
                if steps[steps.count - 1].table == nil { steps[steps.count - 1].table = [] }
                steps[steps.count - 1].table!.append(cells)
                continue
            }
            if line.hasPrefix("\"\"\"") {
                guard !steps.isEmpty else { throw FeatureError("\(name):\(number): a doc string outside a step") }
                // the text keeps its indentation relative to the opening quotes
                let indent = raw.prefix { $0 == " " || $0 == "\t" }.count
                var body = [String]()
                while i < lines.count, !lines[i].trimmed().hasPrefix("\"\"\"") {
                    let l = lines[i]
                    let cut = min(indent, l.prefix { $0 == " " || $0 == "\t" }.count)
                    body.append(String(l.dropFirst(cut)))
                    i += 1
                }
                i += 1
                steps[steps.count - 1].docString = body.joined(separator: "\n")
                continue
            }
            let words = line.split(separator: " ", maxSplits: 1).map(String.init)
            if let kw = words.first, ["Given", "When", "Then", "And", "But", "*"].contains(kw) {
                steps.append(Step(keyword: kw, text: words.count > 1 ? words[1] : "", table: nil, docString: nil, line: number))
                continue
            }
            // free text after Feature:/Scenario: lines (descriptions) is ignored
        }
        flush()
    }

    /// The cells of a `| a | b |` row.
    static func cells(_ line: String) -> [String] {
        var parts = [String]()
        var cell = ""
        var escaped = false
        for ch in line.dropFirst() {
            if escaped { cell.append(ch); escaped = false; continue }
            if ch == "\\" { escaped = true; continue }
            if ch == "|" { parts.append(cell.trimmed()); cell = ""; continue }
            cell.append(ch)
        }
        return parts
    }
}

public struct FeatureError: Error, CustomStringConvertible {
    public let description: String
    public init(_ d: String) { description = d }
}
