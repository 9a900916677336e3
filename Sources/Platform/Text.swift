/// Trimming without Foundation's CharacterSet (issue #27: the appliance links FoundationEssentials only).
extension StringProtocol {
    /// The text without leading and trailing white space and line breaks.
    public func trimmed() -> String {
        guard let first = firstIndex(where: { !$0.isWhitespace }) else { return "" }
        let last = lastIndex(where: { !$0.isWhitespace })!
        return String(self[first...last])
    }

    /// The text without leading and trailing characters from `characters`.
    public func trimmed(of characters: String) -> String {
        let set = Set(characters)
        guard let first = firstIndex(where: { !set.contains($0) }) else { return "" }
        let last = lastIndex(where: { !set.contains($0) })!
        return String(self[first...last])
    }
}

extension StringProtocol {
    /// The lines as any editor writes them: LF, CR LF and CR each end a line, and a UTF-8
    /// byte-order mark before the first is not text (issue #29: in Swift "\r\n" is one
    /// Character, so a CRLF file split at "\n" was one line and every setting in it was lost).
    public func textLines() -> [SubSequence] {
        let body = first == "\u{FEFF}" ? self[index(after: startIndex)...] : self[...]
        return body.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline)
    }

    /// The statements of a line-based settings file (tern.conf, a traffic file): each line's
    /// text before a `#`, trimmed, with its line number counted from 1; blank lines and comments
    /// are left out.
    public func statementLines() -> [(number: Int, text: String)] {
        textLines().enumerated().compactMap { n, raw in
            let text = (raw.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first ?? "").trimmed()
            return text.isEmpty ? nil : (n + 1, text)
        }
    }
}
