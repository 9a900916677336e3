import FoundationEssentials
import Glibc
import Platform
import Speech

/// `tern say TEXT [--lang L] [--voice V|PACK_DIR] [--volume N] [--rate WPM] [--device PCM | --wav FILE]`
/// (or `--file PROMPTS.txt`, one prompt a line): tries the voice settings of tern.conf, or a voice
/// pack, on the speaker, and prints how long each prompt took to its first sample.
enum SayCommand {
    static func run(_ args: [String]) throws -> Int32 {
        let a = try Arguments(args, valued: ["lang", "device", "wav", "voice", "volume", "rate", "file"], switches: [])
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
        var texts = a.positional.isEmpty ? [] : [a.positional.joined(separator: " ")]
        if let f = a.value("file") {
            let body: String
            do { body = try RegularFile.readText(f) } catch { throw CommandError("\(f): cannot read: \(error)") }
            texts += body.textLines().map { $0.trimmed() }.filter { !$0.isEmpty }
        }
        guard !texts.isEmpty else { throw UsageError("say needs the text to speak, or --file PROMPTS.txt") }
        let output: SpeechOutput
        if let w = a.value("wav") { output = .wavFile(w) } else { output = .device(a.value("device") ?? "default") }
        if case .device(let name) = output, let problem = SpeechEngine.deviceProblem(name) {
            throw CommandError("audio device \(name): \(problem) (no sound card? use --wav FILE or --device PCM)")
        }
        let events = EventBox()
        let engine = SpeechEngine(output: output, settings: settings) { events.add($0) }
        for (i, text) in texts.enumerated() {
            engine.speak(Utterance(id: i + 1, text: text, voice: Voices.espeakVoice(forLocale: a.value("lang") ?? "en-GB")))
        }
        engine.waitUntilIdle(timeout: 120)
        engine.shutdown()
        for e in events.all {
            switch e {
            case let .spoken(_, _, synth, audio, play):
                // (synthesis is what comes between the command and the first sample, besides the device)
                printError(String(printf: "tern say: %.2f s of speech (synthesis %.1f ms, playback %.0f ms)", audio, synth * 1000, play * 1000))
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
    private let lock = Lock()
    private var items: [SpeechEvent] = []
    func add(_ e: SpeechEvent) { lock.lock(); items.append(e); lock.unlock() }
    var all: [SpeechEvent] { lock.lock(); defer { lock.unlock() }; return items }
}
