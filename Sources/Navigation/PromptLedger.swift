import Guidance

/// What the prompt plan has said on a route: which prompts of which maneuver were given, and
/// when a maneuver was last heard (in a "..., then X" prompt, or its "turn in" prompt). Keyed by
/// leg and maneuver index, not by text ("leg:index:kind" strings before issue #24).
struct PromptLedger: Sendable {
    /// A maneuver of the route: its leg and its index in the leg's maneuvers.
    struct Ref: Hashable, Sendable {
        var leg: Int
        var index: Int
    }

    private struct Given: Hashable, Sendable {
        var maneuver: Ref
        var kind: PromptKind
    }

    private var given = Set<Given>()
    /// When a "..., then X" prompt that announced X ended: X gets a "now" prompt of its own only
    /// when that was a while ago.
    private(set) var thenEnds = [Ref: Double]()
    /// When the "turn in" prompt of a maneuver ended: a "now" prompt soon after does not repeat
    /// the names just heard.
    private(set) var turnInEnds = [Ref: Double]()

    func wasGiven(_ m: Ref, _ kind: PromptKind) -> Bool { given.contains(Given(maneuver: m, kind: kind)) }

    /// Marks these prompts of `m` as given (a later, nearer prompt counts the earlier kinds too).
    mutating func give(_ m: Ref, _ kinds: [PromptKind]) {
        for k in kinds { given.insert(Given(maneuver: m, kind: k)) }
    }

    mutating func heardAsThen(_ m: Ref, until end: Double) { thenEnds[m] = end }
    mutating func heardTurnIn(_ m: Ref, until end: Double) { turnInEnds[m] = end }
}
