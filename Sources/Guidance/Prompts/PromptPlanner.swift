import Geo

/// A prompt the plan chose to say now.
public struct PlannedPrompt: Sendable, Equatable {
    public var kind: PromptKind
    public var text: String
    public var maneuver: Maneuver
    /// The maneuver said with it ("..., then ..."), for a "now" prompt.
    public var then: Maneuver?
    /// Which maneuver of the route it is, and the one said with it.
    public var ref: PromptLedger.Ref
    public var thenRef: PromptLedger.Ref?
}

/// The prompt plan of one route: which prompt to say at a place, by time at the current speed,
/// with what was said on the route so far (`PromptLedger`, keyed by leg and maneuver) and the
/// leg's texts built once (`PromptTexts`). The rules it applies are `PromptRules`; the navigator
/// speaks what it chooses and tells it when that will end (`heard`).
public struct PromptPlanner: Sendable {
    /// The prompts given, and when maneuvers were last heard.
    public var ledger = PromptLedger()
    /// The leg's prompt texts, each built once.
    public var texts = PromptTexts()

    public init() {}

    /// On to the next leg: its texts are its own.
    public mutating func startNextLeg() { texts = PromptTexts() }

    /// The prompt to say now, if any: a far prompt on fast roads, a "turn in" prompt, and a "now"
    /// prompt started early enough that it ends `promptMarginSeconds` before the maneuver (its
    /// length estimated from the text); an earlier prompt only when it can end before the next
    /// one must start; "then ..." when the next maneuver follows within seconds (it is not
    /// announced again); never a prompt for a maneuver passed or while another is still being
    /// spoken (before `speakerFreeAt`). Roundabout exits are part of the entry's instruction.
    /// The kinds it returns count as given.
    /// - `nextIndex`, `toNext`: the next maneuver of `maneuvers` (leg `legIndex`) and the metres to it;
    /// - `speed`: the car's; `routeSpeed`: the speed the route expects up to the next maneuver;
    /// - `fixInterval`: seconds to the next fix (a "now" prompt is said at the last fix that still
    ///   leaves time);
    /// - `leaving`: the car looks off the route on fewer fixes than the policy needs to say so: no
    ///   far or "turn in" prompt (a "now" prompt is not held: a false alarm as it falls due would
    ///   lose it).
    public mutating func next(_ rules: PromptRules, maneuvers: [Maneuver], legIndex: Int, nextIndex: Int, toNext: Double,
                              speed: Double, routeSpeed: Double, fixInterval: Double, time: Double, speakerFreeAt: Double,
                              leaving: Bool) -> PlannedPrompt? {
        guard let index = maneuvers.indices.first(where: { $0 >= nextIndex && rules.isAnnounced(maneuvers, $0) }) else { return nil }
        var m = maneuvers[index]
        // "to stay on Route de Menton" only where the driver heard that name: after a name change
        // not said (along the same ref, mid-road) it is "keep right onto Route de Menton"
        if m.staysOnRoad, maneuvers[rules.lastHeard(maneuvers, before: index)].street != m.street { m.staysOnRoad = false }
        let d = toNext + (m.distanceFromStartMeters - maneuvers[nextIndex].distanceFromStartMeters)
        if time < speakerFreeAt { return nil }
        let v = max(speed, 3)
        // nothing is said farther out than the far prompt: no texts to build until then
        // (at a round distance, said as it is)
        let prepareAt = rules.text.roundDistance(atMost: max(1000, v * 45))
        if d > prepareAt { return nil }
        let this = PromptLedger.Ref(leg: legIndex, index: index)
        let margin = rules.timing.promptMarginSeconds
        // every text below through the leg's kept texts: built once, not on every fix
        let instructions = rules.text
        func said(_ i: Int, _ form: PromptTexts.Form, _ kind: PromptKind, meters: Double? = nil, then t: Int? = nil,
                  _ build: () -> String) -> (text: String, seconds: Double) {
            let k = PromptTexts.Key(index: i, form: form, kind: kind, distance: meters.map { instructions.spokenDistanceValue($0) },
                                    then: t, thenForm: t == nil ? nil : .thenWords)
            return texts.text(k, build: build, seconds: { rules.speechSeconds($0) })
        }

        // the "now" prompt, with the next maneuver when it follows within a few seconds
        var then: Maneuver?
        var thenIndex: Int?
        let nextAnnounced = maneuvers.indices.first { $0 > index && rules.isAnnounced(maneuvers, $0) }
        // the speed after `m`: the car slows for a turn or a roundabout (the ring counts)
        let turns = m.type == .roundabout || m.type == .rotary || [.right, .sharpRight, .left, .sharpLeft, .uturn].contains(m.modifier)
        let vAfter = turns ? min(v, PromptRules.turningSpeed) : v
        // for the last maneuver, the seconds until "you have arrived" may be said (the arrival is
        // taken 20 m or 3 s out): what is said for it ends a second before that, or runs into it
        // ("Turn right." still playing as "You have arrived" starts, 5 m after the turn)
        // (with the destination within the arrival distance of the turn, it is taken before the
        // turn, as soon as it is that close; after the turn, within 60 m only)
        let arrivalIn = nextAnnounced.flatMap { ai -> Double? in
            guard maneuvers[ai].type == .arrive, m.type != .arrive else { return nil }
            let gap = maneuvers[ai].distanceFromStartMeters - m.distanceFromStartMeters
            if gap < rules.timing.arrivalDistanceMeters { return max(0, d - (rules.timing.arrivalDistanceMeters - gap)) / v }
            return d / v + max(0, gap - min(60, max(rules.timing.arrivalDistanceMeters, rules.timing.arrivalSeconds * vAfter))) / vAfter
        }
        if let ai = nextAnnounced, m.type != .arrive, !maneuvers[ai].isNameChangeOnly {
            let after = maneuvers[ai]
            if after.type != .arrive {
                let afterNow = said(ai, .listed, .now) { instructions.prompt(after, kind: .now, distanceMeters: 0) }.seconds
                if rules.followsClosely(m, after, speed: v, bNowSeconds: afterNow) { (then, thenIndex) = (after, ai) }
            } else {
                // the destination close after the last turn, too close for its own "turn in" prompt
                // once the car has turned, at the speed it turns at (the ring counts: that warning
                // may come while the car drives round it):
                // "Turn right, then you will reach your destination"; otherwise that warning came
                // after the turn or never (also in the reminder of a turn said as a "then", "Turn
                // left, then you will reach your destination", which waits for its moment below)
                let gap = after.distanceFromStartMeters - m.distanceFromStartMeters
                let warning = said(ai, .listed, .turnIn, meters: max(50, gap)) { instructions.prompt(after, kind: .turnIn, distanceMeters: max(50, gap)) }
                if gap <= vAfter * (warning.seconds + margin) + 20 { (then, thenIndex) = (after, ai) }
            }
        }
        // (what follows is said short, "..., then turn left": the long form is said early enough
        // to end before the first maneuver, and the longer it is the earlier that must be)
        let thenWords = then.map { PromptRules.bare($0) ?? $0 }
        let plannedM = m
        let fullNow = m.type == .arrive ? (text: "", seconds: rules.speechSeconds(""))
            : said(index, .planned, .now, then: thenIndex) { instructions.prompt(plannedM, kind: .now, distanceMeters: 0, then: thenWords) }
        // the names heard a moment ago in the "turn in" prompt ("In 200 metres, turn right onto
        // Plöck after the traffic lights") are not said again: "Turn right after the traffic
        // lights", as Google's prompt is; the landmark, the exit number stay. (A "turn in" prompt
        // that ended less than `namesHeardSeconds` before the car reaches the maneuver; timed by
        // its own length, the short form is said near the maneuver, not where the long one was due.)
        // (built only where it is used)
        func shortNow() -> (text: String, seconds: Double)? {
            guard m.type != .arrive, let b = PromptRules.bare(plannedM, keepingLandmark: true) else { return nil }
            return said(index, .bareKeepingLandmark, .now, then: thenIndex) { instructions.prompt(b, kind: .now, distanceMeters: 0, then: thenWords) }
        }
        let namesHeard = ledger.turnInEnds[this].map { time - $0 + d / v < PromptRules.namesHeardSeconds } ?? false
        let nowText = namesHeard ? shortNow() ?? fullNow : fullNow
        // said when it ends `margin` before the maneuver, or earlier by up to one fix: at the next
        // fix it might be too late (a window of one fix is missed on a jittery position)
        let nowAt = max(25, v * (nowText.seconds + margin + fixInterval))
        let turnInText = said(index, .planned, .turnIn, meters: max(d, 50)) { instructions.prompt(plannedM, kind: .turnIn, distanceMeters: max(d, 50)) }
        // (the "turn in" prompt is placed at the speed the car will have: near the route's
        // expected speed when the car is much slower now, just after a turn; drivers keep a
        // quarter below it in town)
        let vt = max(v, 0.75 * routeSpeed)
        let turnInAt = rules.turnInDistance(speed: vt, speechSeconds: turnInText.seconds)

        var kind: PromptKind?
        var chosen = ""
        if m.type == .arrive {
            // the arrival itself is said on arrival; before it, one "turn in" when there is room
            if d <= turnInAt && d > v * (turnInText.seconds + margin) + 20 && !ledger.wasGiven(this, .turnIn) {
                kind = .turnIn
                chosen = turnInText.text
            }
        } else if d <= nowAt {
            if let end = ledger.thenEnds[this], time - end < PromptRules.reminderAfterSeconds {
                // said as the "then" of the maneuver before a moment ago: not again yet; the
                // reminder waits for the end of those moments and is said then, in the longest form
                // that still fits (at the turn, as Google and Mapbox say each maneuver again),
                // else not at all. (Dropped when due in those moments, it was never said where the
                // second turn came 8 s after the first prompt; and "Turn left, then you will reach
                // your destination", due earlier for its length, never: the driver first heard of
                // the destination on reaching it.)
                return nil
            } else if !ledger.wasGiven(this, .now) {
                // the longest form that still ends before the maneuver (half a second to spare):
                // with what follows; the maneuver alone (first when what follows can still have
                // a prompt of its own) or without its names with what follows ("turn left, then
                // ..."); without its names alone; too late even for that: nothing (a prompt after
                // the turn is worse than none)
                let bare = PromptRules.bare(m)
                var forms: [((text: String, seconds: Double), Maneuver?)] = [(nowText, then)]
                if let t = then, let ti = thenIndex, let tw = thenWords {
                    let alone = (said(index, .planned, .now) { instructions.prompt(plannedM, kind: .now, distanceMeters: 0) }, Maneuver?.none)
                    let twNow = said(ti, .thenWords, .now) { instructions.prompt(tw, kind: .now, distanceMeters: 0) }
                    let ownTime = t.distanceFromStartMeters - m.distanceFromStartMeters >= v * (twNow.seconds + margin)
                    if ownTime { forms.append(alone) }
                    if let b = bare { forms.append((said(index, .bare, .now, then: ti) { instructions.prompt(b, kind: .now, distanceMeters: 0, then: tw) }, t)) }
                    if !ownTime { forms.append(alone) }
                }
                if let b = bare { forms.append((said(index, .bare, .now) { instructions.prompt(b, kind: .now, distanceMeters: 0) }, nil)) }
                guard let form = forms.first(where: { f in
                    d >= v * (f.0.seconds + 0.5) && arrivalIn.map { $0 >= f.0.seconds + 1 } ?? true
                }) else {
                    ledger.give(this, [.now])
                    return nil
                }
                kind = .now
                chosen = form.0.text
                then = form.1
            }
        } else if d <= turnInAt {
            // only when it ends 1.5 s before the (short) "now" prompt must start, at the speed
            // the car will have (said at 15 km/h just after a turn, a long "turn in" prompt ran
            // into the "now" prompt at 45 km/h: the same words twice); where the whole prompt
            // does not fit, one without the names may ("In 400 metres, turn right", lanes kept);
            // and only with something to get ready for (a new name straight ahead is said once,
            // unless a lane is to be taken)
            let nowAtThen = max(25, vt * ((shortNow() ?? fullNow).seconds + margin + fixInterval))
            if !leaving, !ledger.wasGiven(this, .turnIn) && (!m.isNameChangeOnly || rules.text.laneText(m) != nil) {
                var candidates = [turnInText]
                if let b = PromptRules.bare(m) {
                    candidates.append(said(index, .bare, .turnIn, meters: max(d, 50)) { instructions.prompt(b, kind: .turnIn, distanceMeters: max(d, 50)) })
                }
                if let t = candidates.first(where: { d - vt * $0.seconds > nowAtThen + vt * 1.5 }) {
                    kind = .turnIn
                    chosen = t.text
                }
            }
        } else if d <= prepareAt && v >= 20 && !m.isNameChangeOnly && !leaving {
            let t = said(index, .planned, .prepare, meters: d) { instructions.prompt(plannedM, kind: .prepare, distanceMeters: d) }
            if !ledger.wasGiven(this, .prepare) && d - v * t.seconds > turnInAt + v * 2 {
                kind = .prepare
                chosen = t.text
            }
        }
        guard let k = kind else { return nil }
        // all earlier kinds count as given: never a far prompt after a near one
        ledger.give(this, k == .now ? [.now, .turnIn, .prepare] : k == .turnIn ? [.turnIn, .prepare] : [k])
        var thenRef: PromptLedger.Ref?
        if k == .now, let t = then, let ti = maneuvers.firstIndex(where: { $0.distanceFromStartMeters == t.distanceFromStartMeters && $0.type == t.type }) {
            thenRef = PromptLedger.Ref(leg: legIndex, index: ti)
        }
        return PlannedPrompt(kind: k, text: chosen, maneuver: m, then: k == .now ? then : nil, ref: this, thenRef: thenRef)
    }

    /// A planned prompt is being said and will end at `end`: its "turn in" is remembered (a "now"
    /// prompt soon after leaves out the names), and the maneuver said as its "then" gets no far
    /// prompt of its own, and a "now" prompt only as a reminder when it comes well after this one
    /// has ended (an arrival is still said on arrival).
    public mutating func heard(_ p: PlannedPrompt, until end: Double) {
        if p.kind == .turnIn { ledger.heardTurnIn(p.ref, until: end) }
        if let announced = p.thenRef {
            ledger.give(announced, [.prepare, .turnIn])
            ledger.heardAsThen(announced, until: end)
        }
    }
}
