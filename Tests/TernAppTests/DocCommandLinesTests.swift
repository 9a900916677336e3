import Foundation
@testable import TernApp
import TestSupport
import Testing

/// Every `tern` command line shown in README.md, docs/*.md and `tern --help` goes through the
/// real argument parser of its command (without running it), so the documentation and the code
/// cannot drift apart: an option renamed in one is a failure here.
@Suite struct DocCommandLinesTests {
    static let root = SharedData.packageRoot

    /// The documents and their command lines.
    static func documented() throws -> [(source: String, line: String)] {
        var out = [(String, String)]()
        var files = ["README.md"]
        let docs = root.appendingPathComponent("docs").path
        files += try FileManager.default.contentsOfDirectory(atPath: docs).filter { $0.hasSuffix(".md") }.sorted().map { "docs/" + $0 }
        for f in files {
            let text = try String(contentsOf: root.appendingPathComponent(f), encoding: .utf8)
            out += commandLines(markdown: text).map { ("\(f): \($0)", $0) }
        }
        out += synopsis(TernCLI.usage.split(separator: "\n").map(String.init)).map { ("tern --help: \($0)", $0) }
        return out
    }

    /// `tern ...` lines of fenced code blocks (with their indented continuation lines) and
    /// `tern ...` inline code spans.
    static func commandLines(markdown: String) -> [String] {
        var out = [String]()
        var inFence = false
        var block = [String]()
        for line in markdown.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            if line.trimmingCharacters(in: .whitespaces).hasPrefix("```") {
                if inFence { out += synopsis(block) }
                inFence.toggle()
                block = []
                continue
            }
            if inFence { block.append(line); continue }
            // (`tern ctl: ... no tern running there` quotes a message: the command word is a bare word)
            for m in line.matches(of: /`((?:sudo )?(?:\S*\/)?tern -{0,2}[a-z][a-z-]*(?:[ ][^`]*)?)`/) { out.append(String(m.1)) }
        }
        return out
    }

    /// Command lines of a synopsis: a `tern` line and the indented lines under it that go on
    /// with its options; a description after two spaces is left out.
    static func synopsis(_ lines: [String]) -> [String] {
        var out = [String]()
        var current: String?
        for raw in lines {
            let trimmed = raw.trimmingCharacters(in: .whitespaces)
            let body = trimmed.replacing(/\s{2,}.*$/, with: "")
            let first = body.split(separator: " ").first.map(String.init) ?? ""
            let isTern = first == "tern" || first.hasSuffix("/tern") || body.hasPrefix("sudo tern ") || body.hasPrefix("sudo -u tern tern ")
            // the usage lists commands without "tern" (`  import IN.osm.pbf -o OUT.tmap`)
            let isUsageCommand = raw.hasPrefix("  ") && !raw.hasPrefix("   ") && TernCLI.usage(of: first) != nil
            if isTern || isUsageCommand {
                if let c = current { out.append(c) }
                current = isUsageCommand ? "tern " + body : body
            } else if current != nil, raw.hasPrefix("   "), body.hasPrefix("[") || body.hasPrefix("-") {
                current! += " " + body
            } else if let c = current {
                out.append(c)
                current = nil
            }
        }
        if let c = current { out.append(c) }
        return out.filter { !$0.contains("$(") && !$0.contains("COMMAND...") }
    }

    /// The argument lists a synopsis stands for: `[...]` groups taken (nested ones flattened),
    /// each ` | ` alternative once, `a|b` values as their first, `...` dropped.
    static func variants(_ line: String) -> [[String]] {
        // the bracket groups at depth 1 and the text between them
        var pieces = [(text: String, group: Bool)]()
        var depth = 0, buf = ""
        for ch in line {
            if ch == "[" {
                if depth == 0 { pieces.append((buf, false)); buf = "" } else { buf.append(" ") }
                depth += 1
            } else if ch == "]" {
                depth -= 1
                if depth == 0 { pieces.append((buf, true)); buf = "" } else { buf.append(" ") }
            } else {
                buf.append(ch)
            }
        }
        pieces.append((buf, false))
        let options = pieces.map { $0.group ? $0.text.components(separatedBy: " | ") : [$0.text] }
        var lines = [options.map { $0[0] }]
        for (i, alternatives) in options.enumerated() {
            for alt in alternatives.dropFirst() {
                var l = options.map { $0[0] }
                l[i] = alt
                lines.append(l)
            }
        }
        return lines.map { words(($0.joined(separator: " ")).replacingOccurrences(of: "...", with: "")) }
    }

    /// Shell words (quotes kept together), the command name dropped, `a|b` values as their first.
    static func words(_ line: String) -> [String] {
        var out = [String](), cur = "", quote: Character?
        for ch in line {
            if let q = quote {
                if ch == q { quote = nil } else { cur.append(ch) }
            } else if ch == "\"" || ch == "'" {
                quote = ch
            } else if ch == " " {
                if !cur.isEmpty { out.append(cur); cur = "" }
            } else {
                cur.append(ch)
            }
        }
        if !cur.isEmpty { out.append(cur) }
        if out.first == "sudo" { out.removeFirst() }
        if out.first == "-u", out.count > 1 { out.removeFirst(2) }  // sudo -u tern tern ...
        if let f = out.first, f == "tern" || f.hasSuffix("/tern") { out.removeFirst() }
        // a shell pipe or redirection ends the command
        if let end = out.firstIndex(where: { ["|", ">", "2>", "&&", ";"].contains($0) }) { out = Array(out[..<end]) }
        return out.map { w in w.hasPrefix("-") || !w.contains("|") || w.hasPrefix("(") ? w : String(w.split(separator: "|")[0]) }
    }

    @Test func everyDocumentedCommandLineParses() async throws {
        let lines = try Self.documented()
        #expect(lines.count > 40, "only \(lines.count) command lines found")
        var checked = 0
        for (source, line) in lines {
            for args in Self.variants(line) where !args.isEmpty {
                checked += 1
                if let problem = await TernCLI.check(args) { Issue.record("\(source)\n  tern \(args.joined(separator: " ")): \(problem)") }
            }
        }
        #expect(checked > 60)
    }

    /// The check can fail: an option no command has, a command that does not exist, a console
    /// command `ctl` would send that the appliance does not know.
    @Test func checkRejectsWhatDoesNotParse() async {
        #expect(await TernCLI.check(["route", "--map", "m", "--frm", "1,2"]) != nil)
        #expect(await TernCLI.check(["teleport"]) != nil)
        #expect(await TernCLI.check(["ctl", "fly", "home"]) != nil)
        #expect(await TernCLI.check(["replay", "d.nmea", "--rate"]) != nil)
        #expect(await TernCLI.check(["route", "--map", "m", "--from", "1,2", "--to", "3,4"]) == nil)
        #expect(await TernCLI.check(["ctl", "volume", "40"]) == nil)
    }
}
