/// The prompt texts of one leg, each built once, with its estimated speaking time. The prompt
/// plan weighs a dozen candidate texts on every fix within a kilometre of a maneuver; building
/// them afresh each time was most of a fix's cost (issue #24: 40 of 44 µs). A text is fully
/// determined by its key: which maneuver of the leg and in which form, the kind, the distance as
/// said, and the maneuver said with it ("..., then ..."), so a kept text is the one that would be
/// built. Kept per leg (`PromptPlanner.startNextLeg` and a new route start afresh).
public struct PromptTexts: Sendable {
    /// How a maneuver is said.
    public enum Form: UInt8, Hashable, Sendable {
        /// As the plan holds it (its "stays on the road" as the driver heard the names).
        case planned
        /// As the leg's list has it (a maneuver after the one planned).
        case listed
        /// Without its names (`PromptRules.bare`).
        case bare
        /// Without its names but with its landmark.
        case bareKeepingLandmark
        /// The form of a maneuver said as the "then" of another: without its names where it has some.
        case thenWords
    }

    public struct Key: Hashable, Sendable {
        public var index: Int
        public var form: Form
        /// nil: the written instruction (`Instructions.text`, the status line's and progress events').
        public var kind: PromptKind?
        public var distance: Instructions.SpokenDistance?
        public var then: Int?
        public var thenForm: Form?

        public init(index: Int, form: Form, kind: PromptKind?, distance: Instructions.SpokenDistance?, then: Int?, thenForm: Form?) {
            self.index = index
            self.form = form
            self.kind = kind
            self.distance = distance
            self.then = then
            self.thenForm = thenForm
        }
    }

    private var kept: [Key: (text: String, seconds: Double)] = [:]

    public init() {}

    /// The text for `key`, built by `build` the first time; its speaking time by `seconds`.
    public mutating func text(_ key: Key, build: () -> String, seconds: (String) -> Double) -> (text: String, seconds: Double) {
        if let t = kept[key] { return t }
        let text = build()
        let t = (text, seconds(text))
        kept[key] = t
        return t
    }
}
