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
