import Guidance

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
