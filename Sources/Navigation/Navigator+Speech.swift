import Guidance
import Positioning

/// Speaking: a prompt said (its event, the effect, and when the speaker will be free), and the
/// speech thread's real timings.
extension Navigator {
    /// The speech thread's real timings replace the estimate of when the speaker is free.
    mutating func noteSpeech(_ input: NavigatorInput) {
        switch input {
        case .speechStarted(let endsAt): speakingUntil = endsAt
        case .speechEnded(let time): speakingUntil = min(speakingUntil, time)
        default: break
        }
    }

    mutating func speak(_ prompt: Prompt, time: Double, _ out: inout [NavigatorEffect]) {
        speakingUntil = max(speakingUntil, time) + rules.speechSeconds(prompt.text)
        out.append(.emit(NavigationEvent(time: time, .prompt(text: prompt.text, locale: prompt.locale, kind: prompt.kind.rawValue,
                                                             maneuver: prompt.maneuver?.osrmTurn ?? ""))))
        out.append(.speak(prompt))
    }
}

extension Navigator {
    /// "Speed limit 50" before a lower limit on the route begins, at the distance a "turn in"
    /// prompt is given; never where it would hold up the next maneuver's prompts: it ends before
    /// that maneuver's "turn in" prompt is due (or after it was given, with room left before the
    /// "now" prompt). A turn prompt is said first, and the limit after it if there is still room.
    /// (`next`: the index of the next maneuver announced, looked up only when a limit is due.)
    mutating func tellLimitAhead(_ p: FilteredPosition, progress: RouteProgress, toNext: Double, next: () -> Int?, _ g: inout Guidance,
                                 _ out: inout [NavigatorEffect]) {
        let leg = g.legIndex
        guard leg < g.route.speedLimits.count else { return }
        let v = max(p.speedMetersPerSecond ?? 0, 3)
        let words = text
        let rules = self.rules
        guard let (limit, place) = g.limitAhead.due(g.route.speedLimits[leg], leg: leg, traveled: progress.legDistanceTraveledMeters,
                                           announceMeters: { rules.turnInDistance(speed: v, speechSeconds: rules.speechSeconds(words.speedLimitPrompt($0))) })
        else { return }
        let said = words.speedLimitPrompt(limit)
        let left = toNext - v * (rules.speechSeconds(said) + config.promptMarginSeconds)
        let turnInGiven = next().map { g.planner.ledger.wasGiven(PromptLedger.Ref(leg: leg, index: $0), .turnIn) } ?? true
        // before the "turn in" zone (a 3-second prompt's), or after it with 5 s to spare before "now"
        guard left > rules.turnInDistance(speed: v, speechSeconds: 3) || (turnInGiven && left > max(25, v * 5)) else { return }
        speak(Prompt(text: said, locale: config.locale, kind: .notice, maneuver: nil), time: p.time, &out)
        g.limitAhead.said(place)
    }

    /// "Speed limit 50, slow down", once per episode (`SpeedingMonitor`), when the speaker is free.
    mutating func warnSpeeding(_ p: FilteredPosition, _ out: inout [NavigatorEffect]) {
        guard !p.estimated, let limit = speeding.warningDue(time: p.time, speakerFree: p.time >= speakingUntil) else { return }
        speak(Prompt(text: text.speedingWarning(limit), locale: config.locale, kind: .notice, maneuver: nil), time: p.time, &out)
    }
}
