/// What the prompt plan has said on a route: which prompts of which maneuver were given, and
/// when a maneuver was last heard (in a "..., then X" prompt, or its "turn in" prompt). Keyed by
/// leg and maneuver index, not by text ("leg:index:kind" strings before issue #24).
public struct PromptLedger: Sendable {
    /// A maneuver of the route: its leg and its index in the leg's maneuvers.
    public struct Ref: Hashable, Sendable {
        public var leg: Int
        public var index: Int
        public init(leg: Int, index: Int) {
            self.leg = leg
            self.index = index
        }
    }

    private struct Given: Hashable, Sendable {
        var maneuver: Ref
        var kind: PromptKind
    }

    private var given = Set<Given>()

    public init() {}
    /// When a "..., then X" prompt that announced X ended: X gets a "now" prompt of its own only
    /// when that was a while ago.
    private(set) var thenEnds = [Ref: Double]()
    /// When the "turn in" prompt of a maneuver ended: a "now" prompt soon after does not repeat
    /// the names just heard.
    private(set) var turnInEnds = [Ref: Double]()

    public func wasGiven(_ m: Ref, _ kind: PromptKind) -> Bool { given.contains(Given(maneuver: m, kind: kind)) }

    /// Marks these prompts of `m` as given (a later, nearer prompt counts the earlier kinds too).
    public mutating func give(_ m: Ref, _ kinds: [PromptKind]) {
        for k in kinds { given.insert(Given(maneuver: m, kind: k)) }
    }

    public mutating func heardAsThen(_ m: Ref, until end: Double) { thenEnds[m] = end }
    public mutating func heardTurnIn(_ m: Ref, until end: Double) { turnInEnds[m] = end }
}
