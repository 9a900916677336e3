/// How much is spoken (OsmAnd's and Organic Maps' users ask for fewer words): `all`; `essential`,
/// the maneuvers and arrival only (the "turn in" and "now" prompts, no far prompt on a motorway,
/// no speed limit or faster-route notice); `off`, nothing (the status line and the events go on).
public enum Verbosity: String, CaseIterable, Sendable {
    case all, essential, off

    /// Whether a prompt of this kind is spoken.
    public func speaks(_ kind: PromptKind) -> Bool {
        switch self {
        case .all: return true
        case .off: return false
        case .essential: return kind == .turnIn || kind == .now || kind == .arrive
        }
    }

    /// Parses "all", "essential" or "off"; the error names the choices.
    public static func parse(_ text: String) throws -> Verbosity {
        guard let v = Verbosity(rawValue: text.lowercased()) else {
            throw LocaleChoiceError(message: "verbosity must be \(allCases.map(\.rawValue).joined(separator: ", ")), not `\(text)`")
        }
        return v
    }
}
