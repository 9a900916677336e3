import Geo
import Guidance
import MapData
import Positioning
import Routing

/// The prompt plan: which maneuvers are said, and when and how each prompt is spoken.
extension Navigator {
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
    func isQuietNameChange(_ list: [Maneuver], _ i: Int) -> Bool {
        let m = list[i]
        guard m.isNameChangeOnly, text.laneText(m) == nil else { return false }
        return (m.street.isEmpty && m.ref.isEmpty) || (!m.ref.isEmpty && i > 0 && list[i - 1].ref == m.ref) || m.atBend
    }

    /// The maneuver before `i` whose names the driver last heard: the nearest one said, or the
    /// start. (By the rules that look at a maneuver alone: one quiet because it returns to the
    /// name last heard carries that name, so stopping there finds the same name, and the walk
    /// stays linear; through `isAnnounced` it recursed once per quiet name change before it,
    /// 2^n calls on a run of n.)
    func lastHeard(_ list: [Maneuver], before i: Int) -> Int {
        var k = i - 1
        while k > 0 && (!list[k].isSpoken || isQuietNameChange(list, k)) { k -= 1 }
        return max(k, 0)
    }

    /// Whether a maneuver the plan announces (not the arrival) lies beyond `meters` along the leg.
    func turnAhead(_ list: [Maneuver], beyondMeters meters: Double) -> Bool {
        var i = list.count - 1
        while i >= 0 && list[i].distanceFromStartMeters > meters {
            if list[i].type != .arrive && isAnnounced(list, i) { return true }
            i -= 1
        }
        return false
    }

    /// The speed above which a car counts as moving when a route starts: it is not told to
    /// "head north", and what follows its first maneuver is said short.
    static let movingSpeed = 2.5

    /// The speed a car leaves a turn or a roundabout at, about 30 km/h, for what can be said after it.
    static let turningSpeed = 8.0

    /// A maneuver said as the "then" of the one before gets a "now" prompt of its own, as a
    /// reminder, when that comes this long after the "then" prompt ended.
    static let reminderAfterSeconds = 4.0

    /// A "now" prompt leaves out the names when the maneuver's "turn in" prompt ended less than
    /// this long before the car reaches the maneuver.
    static let namesHeardSeconds = 15.0

    /// Whether `b` comes too soon after `a` to be announced on its own once `a` is passed: then
    /// it is said with `a` ("..., then ...").
    /// (`bNowSeconds`: the speaking time of b's own "now" prompt, when known.)
    func followsClosely(_ a: Maneuver, _ b: Maneuver, speed v: Double, bNowSeconds: Double? = nil) -> Bool {
        let own = (bNowSeconds ?? speechSeconds(text.prompt(b, kind: .now, distanceMeters: 0))) + config.promptMarginSeconds + 2
        return b.distanceFromStartMeters - a.distanceFromStartMeters <= max(60, v * own)
    }

    /// Estimated seconds from deciding to speak a text to the end of its audio.
    func speechSeconds(_ text: String) -> Double {
        // a number is read as words: "9707" is "nine thousand seven hundred and seven"
        let digits = text.reduce(0) { $0 + ($1.isNumber ? 1 : 0) }
        let units = Double(text.count + 4 * digits)
        return config.speechLatencySeconds + units * (config.speechSecondsPerCharacter ?? self.text.locale.speechSecondsPerCharacter)
    }

    /// The prompt plan, by time at the current speed: a far prompt on fast roads, a "turn in"
    /// prompt, and a "now" prompt started early enough that it ends `promptMarginSeconds` before
    /// the maneuver (its length estimated from the text); an earlier prompt only when it can end
    /// before the next one must start; "then ..." when the next maneuver follows within seconds
    /// (it is not announced again); never a prompt for a maneuver passed or while another is
    /// still being spoken. Roundabout exits are part of the entry's instruction.
    mutating func schedulePrompts(_ g: inout Guidance, maneuvers: [Maneuver], nextIndex: Int, toNext: Double, speed: Double,
                                          routeSpeed: Double, fixInterval: Double, time: Double, leaving: Bool,
                                          _ out: inout [NavigatorEffect]) {
        guard let index = maneuvers.indices.first(where: { $0 >= nextIndex && isAnnounced(maneuvers, $0) }) else { return }
        var m = maneuvers[index]
        // "to stay on Route de Menton" only where the driver heard that name: after a name change
        // not said (along the same ref, mid-road) it is "keep right onto Route de Menton"
        if m.staysOnRoad, maneuvers[lastHeard(maneuvers, before: index)].street != m.street { m.staysOnRoad = false }
        let d = toNext + (m.distanceFromStartMeters - maneuvers[nextIndex].distanceFromStartMeters)
        if time < speakingUntil { return }
        let v = max(speed, 3)
        // nothing is said farther out than the far prompt: no texts to build until then
        // (at a round distance, said as it is)
        let prepareAt = text.roundDistance(atMost: max(1000, v * 45))
        if d > prepareAt { return }
        let legIndex = g.legIndex
        let this = PromptLedger.Ref(leg: legIndex, index: index)
        let margin = config.promptMarginSeconds
        // every text below through the leg's kept texts: built once, not on every fix
        let instructions = text
        func said(_ i: Int, _ form: PromptTexts.Form, _ kind: PromptKind, meters: Double? = nil, then t: Int? = nil,
                  _ build: () -> String) -> (text: String, seconds: Double) {
            let k = PromptTexts.Key(index: i, form: form, kind: kind, distance: meters.map { instructions.spokenDistanceValue($0) },
                                    then: t, thenForm: t == nil ? nil : .thenWords)
            return g.texts.text(k, build: build, seconds: { speechSeconds($0) })
        }

        // the "now" prompt, with the next maneuver when it follows within a few seconds
        var then: Maneuver?
        var thenIndex: Int?
        let nextAnnounced = maneuvers.indices.first { $0 > index && isAnnounced(maneuvers, $0) }
        // the speed after `m`: the car slows for a turn or a roundabout (the ring counts)
        let turns = m.type == .roundabout || m.type == .rotary || [.right, .sharpRight, .left, .sharpLeft, .uturn].contains(m.modifier)
        let vAfter = turns ? min(v, Navigator.turningSpeed) : v
        // for the last maneuver, the seconds until "you have arrived" may be said (the arrival is
        // taken 20 m or 3 s out): what is said for it ends a second before that, or runs into it
        // ("Turn right." still playing as "You have arrived" starts, 5 m after the turn)
        // (with the destination within the arrival distance of the turn, it is taken before the
        // turn, as soon as it is that close; after the turn, within 60 m only)
        let arrivalIn = nextAnnounced.flatMap { ai -> Double? in
            guard maneuvers[ai].type == .arrive, m.type != .arrive else { return nil }
            let gap = maneuvers[ai].distanceFromStartMeters - m.distanceFromStartMeters
            if gap < config.arrivalDistanceMeters { return max(0, d - (config.arrivalDistanceMeters - gap)) / v }
            return d / v + max(0, gap - min(60, max(config.arrivalDistanceMeters, config.arrivalSeconds * vAfter))) / vAfter
        }
        if let ai = nextAnnounced, m.type != .arrive, !maneuvers[ai].isNameChangeOnly {
            let after = maneuvers[ai]
            if after.type != .arrive {
                let afterNow = said(ai, .listed, .now) { instructions.prompt(after, kind: .now, distanceMeters: 0) }.seconds
                if followsClosely(m, after, speed: v, bNowSeconds: afterNow) { (then, thenIndex) = (after, ai) }
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
        let thenWords = then.map { Navigator.bare($0) ?? $0 }
        let plannedM = m
        let fullNow = m.type == .arrive ? (text: "", seconds: speechSeconds(""))
            : said(index, .planned, .now, then: thenIndex) { instructions.prompt(plannedM, kind: .now, distanceMeters: 0, then: thenWords) }
        // the names heard a moment ago in the "turn in" prompt ("In 200 metres, turn right onto
        // Plöck after the traffic lights") are not said again: "Turn right after the traffic
        // lights", as Google's prompt is; the landmark, the exit number stay. (A "turn in" prompt
        // that ended less than `namesHeardSeconds` before the car reaches the maneuver; timed by
        // its own length, the short form is said near the maneuver, not where the long one was due.)
        // (built only where it is used)
        func shortNow() -> (text: String, seconds: Double)? {
            guard m.type != .arrive, let b = Navigator.bare(plannedM, keepingLandmark: true) else { return nil }
            return said(index, .bareKeepingLandmark, .now, then: thenIndex) { instructions.prompt(b, kind: .now, distanceMeters: 0, then: thenWords) }
        }
        let namesHeard = g.prompts.turnInEnds[this].map { time - $0 + d / v < Navigator.namesHeardSeconds } ?? false
        let nowText = namesHeard ? shortNow() ?? fullNow : fullNow
        // said when it ends `margin` before the maneuver, or earlier by up to one fix: at the next
        // fix it might be too late (a window of one fix is missed on a jittery position)
        let nowAt = max(25, v * (nowText.seconds + margin + fixInterval))
        let turnInText = said(index, .planned, .turnIn, meters: max(d, 50)) { instructions.prompt(plannedM, kind: .turnIn, distanceMeters: max(d, 50)) }
        // (the "turn in" prompt is placed at the speed the car will have: near the route's
        // expected speed when the car is much slower now, just after a turn; drivers keep a
        // quarter below it in town)
        let vt = max(v, 0.75 * routeSpeed)
        let turnInAt = max(150, vt * 13) + vt * turnInText.seconds

        var kind: PromptKind?
        var chosen = ""
        if m.type == .arrive {
            // the arrival itself is said on arrival; before it, one "turn in" when there is room
            if d <= turnInAt && d > v * (turnInText.seconds + margin) + 20 && !g.prompts.wasGiven(this, .turnIn) {
                kind = .turnIn
                chosen = turnInText.text
            }
        } else if d <= nowAt {
            if let end = g.prompts.thenEnds[this], time - end < Navigator.reminderAfterSeconds {
                // said as the "then" of the maneuver before a moment ago: not again yet; the
                // reminder waits for the end of those moments and is said then, in the longest form
                // that still fits (at the turn, as Google and Mapbox say each maneuver again),
                // else not at all. (Dropped when due in those moments, it was never said where the
                // second turn came 8 s after the first prompt; and "Turn left, then you will reach
                // your destination", due earlier for its length, never: the driver first heard of
                // the destination on reaching it.)
                return
            } else if !g.prompts.wasGiven(this, .now) {
                // the longest form that still ends before the maneuver (half a second to spare):
                // with what follows; the maneuver alone (first when what follows can still have
                // a prompt of its own) or without its names with what follows ("turn left, then
                // ..."); without its names alone; too late even for that: nothing (a prompt after
                // the turn is worse than none)
                let bare = Navigator.bare(m)
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
                    g.prompts.give(this, [.now])
                    return
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
            if !leaving, !g.prompts.wasGiven(this, .turnIn) && (!m.isNameChangeOnly || text.laneText(m) != nil) {
                var candidates = [turnInText]
                if let b = Navigator.bare(m) {
                    candidates.append(said(index, .bare, .turnIn, meters: max(d, 50)) { instructions.prompt(b, kind: .turnIn, distanceMeters: max(d, 50)) })
                }
                if let t = candidates.first(where: { d - vt * $0.seconds > nowAtThen + vt * 1.5 }) {
                    kind = .turnIn
                    chosen = t.text
                }
            }
        } else if d <= prepareAt && v >= 20 && !m.isNameChangeOnly && !leaving {
            let t = said(index, .planned, .prepare, meters: d) { instructions.prompt(plannedM, kind: .prepare, distanceMeters: d) }
            if !g.prompts.wasGiven(this, .prepare) && d - v * t.seconds > turnInAt + v * 2 {
                kind = .prepare
                chosen = t.text
            }
        }
        guard let k = kind else { return }
        // all earlier kinds count as given: never a far prompt after a near one
        g.prompts.give(this, k == .now ? [.now, .turnIn, .prepare] : k == .turnIn ? [.turnIn, .prepare] : [k])
        speak(Prompt(text: chosen, locale: config.locale, kind: k, maneuver: m, then: k == .now ? then : nil), time: time, &out)
        if k == .turnIn { g.prompts.heardTurnIn(this, until: speakingUntil) }
        if k == .now, let t = then, let ti = maneuvers.firstIndex(where: { $0.distanceFromStartMeters == t.distanceFromStartMeters && $0.type == t.type }) {
            // announced: no far prompt of its own, and a "now" prompt only as a reminder when it
            // comes well after this one has ended (an arrival is still said on arrival)
            let announced = PromptLedger.Ref(leg: legIndex, index: ti)
            g.prompts.give(announced, [.prepare, .turnIn])
            g.prompts.heardAsThen(announced, until: speakingUntil)
        }
    }

    /// The maneuver without the names that make its text long (street, ref, signs, and the
    /// landmark unless `keepingLandmark`), for a prompt that must be short; nil where nothing is
    /// left to say but "continue".
    static func bare(_ m: Maneuver, keepingLandmark: Bool = false) -> Maneuver? {
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

    /// The speech thread's real timings replace the estimate of when the speaker is free.
    mutating func noteSpeech(_ input: NavigatorInput) {
        switch input {
        case .speechStarted(let endsAt): speakingUntil = endsAt
        case .speechEnded(let time): speakingUntil = min(speakingUntil, time)
        default: break
        }
    }

    mutating func speak(_ prompt: Prompt, time: Double, _ out: inout [NavigatorEffect]) {
        speakingUntil = max(speakingUntil, time) + speechSeconds(prompt.text)
        out.append(.emit(NavigationEvent(time: time, .prompt(text: prompt.text, locale: prompt.locale, kind: prompt.kind.rawValue,
                                                             maneuver: prompt.maneuver?.osrmTurn ?? ""))))
        out.append(.speak(prompt))
    }
}
