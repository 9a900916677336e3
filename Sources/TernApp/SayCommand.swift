import Foundation
import Speech

/// `tern say TEXT [--lang L] [--voice V] [--volume N] [--rate WPM] [--device PCM | --wav FILE]`:
/// tries the voice settings of tern.conf on the speaker.
enum SayCommand {
    static func run(_ args: [String]) throws -> Int32 {
        let a = try Arguments(args, valued: ["lang", "device", "wav", "voice", "volume", "rate"], switches: [])
        var settings = VoiceSettings()
        if let v = a.value("volume") {
            guard let n = VoiceSettings.volume(v) else { throw UsageError("--volume takes 0 to 100") }
            settings.volume = n
        }
        if let r = a.value("rate") {
            guard let n = VoiceSettings.rate(r) else { throw UsageError("--rate takes \(VoiceSettings.rates.lowerBound) to \(VoiceSettings.rates.upperBound) words a minute") }
            settings.rate = n
        }
        if let v = a.value("voice") {
            if let problem = SpeechEngine.voiceProblem(v) { throw CommandError(problem) }
            settings.voice = v
        }
        guard !a.positional.isEmpty else { throw UsageError("say needs the text to speak") }
        let text = a.positional.joined(separator: " ")
        let output: SpeechOutput
        if let w = a.value("wav") { output = .wavFile(w) } else { output = .device(a.value("device") ?? "default") }
        if case .device(let name) = output, let problem = SpeechEngine.deviceProblem(name) {
            throw CommandError("audio device \(name): \(problem) (no sound card? use --wav FILE or --device PCM)")
        }
        let events = EventBox()
        let engine = SpeechEngine(output: output, settings: settings) { events.add($0) }
        engine.speak(Utterance(id: 1, text: text, voice: Voices.espeakVoice(forLocale: a.value("lang") ?? "en-GB")))
        engine.waitUntilIdle(timeout: 120)
        engine.shutdown()
        for e in events.all {
            switch e {
            case let .spoken(_, _, synth, audio, play):
                printError(String(format: "tern say: %.2f s of speech (synthesis %.0f ms, playback %.0f ms)", audio, synth * 1000, play * 1000))
            case let .failed(_, reason): throw CommandError(reason)
            case let .outputUnavailable(reason): throw CommandError(reason)
            case .interrupted, .started, .outputAvailable: break  // (nothing interrupts `say`)
            }
        }
        return 0
    }
}

/// Collects speech events from the speech thread.
final class EventBox: @unchecked Sendable {
    // every access holds `lock`
    private let lock = NSLock()
    private var items: [SpeechEvent] = []
    func add(_ e: SpeechEvent) { lock.lock(); items.append(e); lock.unlock() }
    var all: [SpeechEvent] { lock.lock(); defer { lock.unlock() }; return items }
}
