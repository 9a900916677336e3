import Geo

/// How long prompts take, as the prompt plan reckons (`NavigatorConfig` holds the values).
public struct PromptTiming: Sendable {
    /// Seconds from deciding to speak to the end of the audio start-up.
    public var speechLatencySeconds: Double
    /// Speaking time per character of text; nil: the locale's estimate.
    public var speechSecondsPerCharacter: Double?
    /// Seconds between the end of a "now" prompt and the maneuver, at the least.
    public var promptMarginSeconds: Double
    /// Where the arrival is taken (metres before the end, or seconds at the car's speed): what is
    /// said for the last turn ends before "you have arrived".
    public var arrivalDistanceMeters: Double
    public var arrivalSeconds: Double

    public init(speechLatencySeconds: Double, speechSecondsPerCharacter: Double?, promptMarginSeconds: Double,
                arrivalDistanceMeters: Double, arrivalSeconds: Double) {
        self.speechLatencySeconds = speechLatencySeconds
        self.speechSecondsPerCharacter = speechSecondsPerCharacter
        self.promptMarginSeconds = promptMarginSeconds
        self.arrivalDistanceMeters = arrivalDistanceMeters
        self.arrivalSeconds = arrivalSeconds
    }
}

/// The prompt plan's rules on a list of maneuvers, with no state: which maneuvers are said, which
/// follow one another too closely to be said apart, how long a text takes to say, and the short
/// form of a maneuver.
public struct PromptRules: Sendable {
    public let text: Instructions
    public let timing: PromptTiming

    public init(text: Instructions, timing: PromptTiming) {
        self.text = text
        self.timing = timing
    }

    /// Whether the prompt plan says maneuver `i` of `list`: the spoken ones, but not a new name
    /// straight on along the same ref without a lane to take ("Continue onto Avinguda Sant Antoni
    /// (CG-3)" on the CG-3: the signs say CG-3 all along; the console shows the name), nor one
    /// onto a road with neither name nor ref ("Continue."), nor one where no other road meets,
    /// nor a return to the name last heard past such changes ("Continue onto Landstrasse" to a
    /// driver who heard "Turn right onto Landstrasse" and nothing since).
    public func isAnnounced(_ list: [Maneuver], _ i: Int) -> Bool {
        let m = list[i]
        guard m.isSpoken, !isQuietNameChange(list, i) else { return false }
        if m.isNameChangeOnly, text.laneText(m) == nil {
            let k = lastHeard(list, before: i)
            if k < i - 1, list[k].street == m.street, list[k].ref == m.ref { return false }
        }
        return true
    }

    /// A name change not said by what it is alone (without a lane to take): onto a road without
    /// a name or ref, along the same ref, or where no other road meets.
    public func isQuietNameChange(_ list: [Maneuver], _ i: Int) -> Bool {
        let m = list[i]
        guard m.isNameChangeOnly, text.laneText(m) == nil else { return false }
        return (m.street.isEmpty && m.ref.isEmpty) || (!m.ref.isEmpty && i > 0 && list[i - 1].ref == m.ref) || m.atBend
    }

    /// The maneuver before `i` whose names the driver last heard: the nearest one said, or the
    /// start. (By the rules that look at a maneuver alone: one quiet because it returns to the
    /// name last heard carries that name, so stopping there finds the same name, and the walk
    /// stays linear; through `isAnnounced` it recursed once per quiet name change before it,
    /// 2^n calls on a run of n.)
    public func lastHeard(_ list: [Maneuver], before i: Int) -> Int {
        var k = i - 1
        while k > 0 && (!list[k].isSpoken || isQuietNameChange(list, k)) { k -= 1 }
        return max(k, 0)
    }

    /// Whether a maneuver the plan announces (not the arrival) lies beyond `meters` along the leg.
    public func turnAhead(_ list: [Maneuver], beyondMeters meters: Double) -> Bool {
        var i = list.count - 1
        while i >= 0 && list[i].distanceFromStartMeters > meters {
            if list[i].type != .arrive && isAnnounced(list, i) { return true }
            i -= 1
        }
        return false
    }

    /// The speed above which a car counts as moving when a route starts: it is not told to
    /// "head north", and what follows its first maneuver is said short.
    public static let movingSpeed = 2.5

    /// How far out a "turn in" prompt is said: 13 s at the speed (150 m at the least), plus the
    /// prompt's own length. A lower speed limit ahead is told at the same distance.
    public func turnInDistance(speed v: Double, speechSeconds: Double) -> Double { max(150, v * 13) + v * speechSeconds }

    /// The speed a car leaves a turn or a roundabout at, about 30 km/h, for what can be said after it.
    public static let turningSpeed = 8.0

    /// A maneuver said as the "then" of the one before gets a "now" prompt of its own, as a
    /// reminder, when that comes this long after the "then" prompt ended.
    public static let reminderAfterSeconds = 4.0

    /// A "now" prompt leaves out the names when the maneuver's "turn in" prompt ended less than
    /// this long before the car reaches the maneuver.
    public static let namesHeardSeconds = 15.0

    /// Whether `b` comes too soon after `a` to be announced on its own once `a` is passed: then
    /// it is said with `a` ("..., then ...").
    /// (`bNowSeconds`: the speaking time of b's own "now" prompt, when known.)
    public func followsClosely(_ a: Maneuver, _ b: Maneuver, speed v: Double, bNowSeconds: Double? = nil) -> Bool {
        let own = (bNowSeconds ?? speechSeconds(text.prompt(b, kind: .now, distanceMeters: 0))) + timing.promptMarginSeconds + 2
        return b.distanceFromStartMeters - a.distanceFromStartMeters <= max(60, v * own)
    }

    /// Estimated seconds from deciding to speak a text to the end of its audio.
    public func speechSeconds(_ text: String) -> Double {
        // a number is read as words: "9707" is "nine thousand seven hundred and seven"
        let digits = text.reduce(0) { $0 + ($1.isNumber ? 1 : 0) }
        let units = Double(text.count + 4 * digits)
        return timing.speechLatencySeconds + units * (timing.speechSecondsPerCharacter ?? self.text.locale.speechSecondsPerCharacter)
    }

    /// The maneuver without the names that make its text long (street, ref, signs, and the
    /// landmark unless `keepingLandmark`), for a prompt that must be short; nil where nothing is
    /// left to say but "continue".
    public static func bare(_ m: Maneuver, keepingLandmark: Bool = false) -> Maneuver? {
        // (not a merge: without its name, "merge" says neither where nor which side)
        guard !m.isNameChangeOnly, m.type != .arrive, m.type != .merge, m.modifier != .straight || m.type == .roundabout || m.type == .rotary,
              !m.street.isEmpty || !m.ref.isEmpty || !m.destination.isEmpty || (m.landmark != nil && !keepingLandmark) else { return nil }
        var b = m
        b.street = ""
        b.ref = ""
        b.destination = ""
        if !keepingLandmark { b.landmark = nil }
        b.rotaryName = ""
        b.staysOnRoad = false  // ("turn right to stay on ." without the name)
        return b
    }
}
