import Dispatch
import FoundationEssentials
import Glibc
import Platform
import Synchronization

/// Where speech is played.
public enum SpeechOutput: Sendable, Equatable {
    /// An ALSA PCM by name ("default", "hw:1,0", "null", "file:FILE=/tmp/x.wav,FORMAT=wav").
    case device(String)
    /// ALSA PCMs in order of preference ("usbspeaker", "jack"): the first that opens plays, and
    /// a preferred one that appears later takes over (`OutputKeeper`).
    case devices([String])
    /// A WAV file of everything spoken.
    case wavFile(String)
    /// Synthesis only, no audio (measuring).
    case none
}

/// What the speech thread reports back.
public enum SpeechEvent: Sendable, Equatable {
    /// A prompt's audio is about to play: it lasts `audioSeconds` (known once synthesised), so
    /// the navigator knows when the speaker will be free.
    case started(id: Int, audioSeconds: Double)
    /// A prompt was spoken: synthesis took `synthesisSeconds`, the audio lasts `audioSeconds`,
    /// and playback (including device start-up) took `playbackSeconds`.
    case spoken(id: Int, text: String, synthesisSeconds: Double, audioSeconds: Double, playbackSeconds: Double)
    /// The audio output cannot be used; speech goes on silently, and the output is tried again
    /// every few seconds. Reported once per outage.
    case outputUnavailable(String)
    /// Speech plays on this output again (after an outage), or on a preferred one that appeared.
    case outputAvailable(String)
    /// One prompt failed (unknown voice, synthesis error); the engine goes on.
    case failed(id: Int, reason: String)
    /// A prompt was cut off (`interrupt`) after `playedSeconds` of its audio (0: before it began).
    case interrupted(id: Int, text: String, playedSeconds: Double)
}

/// One utterance.
public struct Utterance: Sendable, Equatable {
    public var id: Int
    public var text: String
    /// espeak-ng voice name, e.g. "en-gb".
    public var voice: String
    public init(id: Int, text: String, voice: String = "en-gb") {
        self.id = id
        self.text = text
        self.voice = voice
    }
}

/// Speaks prompts on a dedicated thread that owns the audio output and is the one user of
/// espeak-ng while it synthesises.
/// `speak` never blocks the caller; prompts are spoken in order; a missing sound card is reported
/// once and never stops anything.
public final class SpeechEngine: Sendable {
    private struct State {
        var queue: [Utterance] = []
        var stopping = false
        var finished = false
    }
    private let state = Locked(State())
    private let wake = DispatchSemaphore(value: 0)
    private let handler: @Sendable (SpeechEvent) -> Void
    public let output: SpeechOutput
    /// How often a missing output is tried again.
    public let retrySeconds: Double
    private let voiceSettings: Locked<VoiceSettings>

    public init(output: SpeechOutput, settings: VoiceSettings = VoiceSettings(), retrySeconds: Double = 5,
                handler: @escaping @Sendable (SpeechEvent) -> Void = { _ in }) {
        self.output = output
        self.retrySeconds = retrySeconds
        self.handler = handler
        voiceSettings = Locked(settings)
        Threads.start(name: "tern.speech") { [self] in run() }
    }

    deinit { shutdown() }

    /// Volume, rate and voice, read for every prompt: a change applies from the next one.
    public var settings: VoiceSettings {
        get { voiceSettings.withLock { $0 } }
        set { voiceSettings.withLock { $0 = newValue } }
    }

    /// Queues a prompt.
    public func speak(_ u: Utterance) {
        state.withLock { $0.queue.append(u) }
        wake.signal()
    }

    /// Stops the prompt being said (within a tenth of a second of audio) and drops the queued
    /// ones: they no longer apply (the car has left the route they were for).
    public func interrupt() {
        state.withLock { s in
            s.queue.removeAll()
            generation.add(1, ordering: .releasing)
        }
    }
    private let generation = Atomic<Int>(0)

    /// True when nothing is queued or being spoken.
    public var isIdle: Bool { state.withLock { $0.queue.isEmpty } && pendingCount.load(ordering: .acquiring) == 0 }
    private let pendingCount = Atomic<Int>(0)

    /// Waits until everything queued has been spoken (or `timeout` seconds pass); true if idle.
    @discardableResult
    public func waitUntilIdle(timeout: Double) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while !isIdle {
            if Date() >= deadline { return false }
            usleep(5_000)
        }
        return true
    }

    /// Finishes what is queued, closes the output (a WAV or file PCM is complete afterwards) and
    /// ends the thread.
    public func shutdown(timeout: Double = 10) {
        let already = state.withLock { s -> Bool in
            defer { s.stopping = true }
            return s.stopping
        }
        if !already { wake.signal() }
        let deadline = Date().addingTimeInterval(timeout)
        while !state.withLock({ $0.finished }) && Date() < deadline { usleep(5_000) }
    }

    private func run() {
        var output = OutputKeeper(output, retrySeconds: retrySeconds)
        var packs = [String: VoicePack]()
        func report(_ events: [SpeechEvent]) { events.forEach(handler) }
        while true {
            let next: (Utterance, Int)? = state.withLock { s in
                if s.queue.isEmpty { return nil }
                pendingCount.add(1, ordering: .acquiringAndReleasing)
                return (s.queue.removeFirst(), generation.load(ordering: .acquiring))
            }
            guard let (u, started) = next else {
                if state.withLock({ $0.stopping && $0.queue.isEmpty }) { break }
                var events = [SpeechEvent]()
                output.poll(now: ProcessInfo.processInfo.systemUptime, events: &events)
                report(events)
                // a voice pack chosen is read while nothing is said, not when the next prompt is due
                if let name = settings.voice, Self.isVoicePack(name), packs[name] == nil { packs[name] = try? VoicePack(path: name) }
                _ = wake.wait(timeout: .now() + 0.5)
                continue
            }
            defer { pendingCount.subtract(1, ordering: .acquiringAndReleasing) }
            let settings = self.settings
            do {
                let t0 = Date()
                var (samples, sampleRate) = try Self.render(u, settings, packs: &packs)
                VoiceSettings.scale(&samples, by: settings.gain)
                let t1 = Date()
                let cut = { self.generation.load(ordering: .acquiring) != started }
                if cut() {
                    handler(.interrupted(id: u.id, text: u.text, playedSeconds: 0))
                    continue
                }
                var events = [SpeechEvent]()
                let sink = output.sinkForPrompt(now: ProcessInfo.processInfo.systemUptime, events: &events)
                report(events)
                if let sink {
                    handler(.started(id: u.id, audioSeconds: Double(samples.count) / Double(sampleRate)))
                    do {
                        let played = try sink.play(samples, sampleRate: sampleRate, stop: cut)
                        if played < samples.count {
                            handler(.interrupted(id: u.id, text: u.text, playedSeconds: Double(played) / Double(sampleRate)))
                            continue
                        }
                        var events = [SpeechEvent]()
                        output.played(events: &events)
                        report(events)
                    } catch {
                        // the device went away mid-drive: said once, tried again from now on
                        var events = [SpeechEvent]()
                        output.lost(error, now: ProcessInfo.processInfo.systemUptime, events: &events)
                        report(events)
                    }
                }
                let t2 = Date()
                handler(.spoken(id: u.id, text: u.text, synthesisSeconds: t1.timeIntervalSince(t0),
                                audioSeconds: Double(samples.count) / Double(sampleRate),
                                playbackSeconds: t2.timeIntervalSince(t1)))
            } catch {
                handler(.failed(id: u.id, reason: "\(error)"))
            }
        }
        output.close()
        state.withLock { $0.finished = true }
    }

    /// espeak-ng voice names available on this machine.
    public static func voices() -> [String] { SpeechSynthesizer.availableVoices() }
}

extension SpeechEngine {
    /// A voice setting that names a folder ("/var/lib/tern/voices/anna") is a recorded voice pack.
    public static func isVoicePack(_ voice: String) -> Bool { voice.contains("/") }

    /// The utterance's samples and rate: from the voice pack the settings name, where it speaks
    /// the utterance's language (loaded once, kept in `packs`), else espeak-ng.
    static func render(_ u: Utterance, _ settings: VoiceSettings, packs: inout [String: VoicePack]) throws -> ([Int16], Int) {
        func espeak(_ text: String, voice: String) throws -> ([Int16], Int) {
            try SpeechSynthesizer.withShared { synth in
                try synth.setVoice(voice)
                synth.setRate(settings.rate)
                return (try synth.synthesize(text), synth.sampleRate)
            }
        }
        guard let name = settings.voice, isVoicePack(name) else { return try espeak(u.text, voice: settings.voice ?? u.voice) }
        if packs[name] == nil { packs[name] = try VoicePack(path: name) }
        guard let pack = packs[name], pack.speaks(voice: u.voice) else { return try espeak(u.text, voice: u.voice) }
        return (try pack.render(u.text) { try espeak($0, voice: pack.fallbackVoice) }, pack.sampleRate)
    }

    /// Why `name` is neither an espeak-ng voice or variant this machine has ("en-gb", "de+m3") nor a
    /// voice pack folder whose manifest and clips read, or nil.
    public static func voiceProblem(_ name: String) -> String? {
        if isVoicePack(name) {
            do {
                let pack = try VoicePack(path: name)
                return voiceProblem(pack.fallbackVoice).map { "\(name): fallback_voice: \($0)" }
            } catch { return "\(error)" }
        }
        do {
            try SpeechSynthesizer.withShared { try $0.setVoice(name) }
            return nil
        } catch {
            return "\(error) (espeak-ng --voices lists them; a variant is added as +m1..m7, +f1..f5)"
        }
    }

    /// Why the ALSA PCM `name` cannot be opened for playback, or nil when it can.
    public static func deviceProblem(_ name: String) -> String? {
        do {
            let sink = try ALSASink(name: name)
            sink.close()
            return nil
        } catch let e as SpeechError {
            if case let .audioDevice(_, reason) = e { return reason }
            return e.description
        } catch {
            return "\(error)"
        }
    }
}
