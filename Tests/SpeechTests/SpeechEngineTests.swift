import Foundation
@testable import Speech
import TestSupport
import Testing

/// A WAV file's format and samples, read back for checks.
/// (Read with the engine's own reader, which refuses anything but 16-bit mono PCM: a WAV that
/// reads is in the format the tests expect.)
struct WAVContents {
    var sampleRate = 0
    var samples: [Int16] = []

    init(path: String) throws {
        (samples, sampleRate) = try WAVReader.read(path)
    }

    /// Seconds of audio whose 20 ms windows are louder than `threshold` RMS.
    func voicedSeconds(threshold: Double = 300) -> Double {
        let window = max(1, sampleRate / 50)
        var voiced = 0
        for start in stride(from: 0, to: samples.count - window, by: window) {
            var sum = 0.0
            for s in samples[start..<(start + window)] { sum += Double(s) * Double(s) }
            if (sum / Double(window)).squareRoot() > threshold { voiced += 1 }
        }
        return Double(voiced) / 50
    }
}

@Suite(.serialized) struct SpeechEngineTests {
    static let sentence = "In 300 metres, turn left onto Hauptstrasse, then take the second exit at the roundabout."

    /// espeak-ng → ALSA's `file:` PCM (no sound card needed): a 22050 Hz mono WAV with speech in it.
    @Test func promptReachesALSAFilePCM() throws {
        let dir = TempDir()
        defer { dir.remove() }
        let wav = dir.file("prompt.wav")
        let events = Collector<SpeechEvent>()
        let engine = SpeechEngine(output: .device("file:FILE=\(wav),FORMAT=wav")) { events.append($0) }
        engine.speak(Utterance(id: 1, text: Self.sentence, voice: "en-gb"))
        #expect(engine.waitUntilIdle(timeout: 20))
        engine.shutdown()
        let w = try WAVContents(path: wav)
        #expect(w.sampleRate == 22050)
        let seconds = Double(w.samples.count) / 22050
        #expect(seconds >= 1.0, "only \(seconds) s of audio")
        #expect(w.voicedSeconds() >= 1.0, "only \(w.voicedSeconds()) s of the audio is not silence")
        let spoken = events.all.compactMap { e -> Double? in if case let .spoken(_, _, _, audio, _) = e { return audio }; return nil }
        #expect(spoken.count == 1)
        #expect(abs((spoken.first ?? 0) - seconds) < 0.1)
        // its length was reported as it began, before the end (the navigator's real timing)
        let started = events.all.firstIndex { if case .started(_, let audio) = $0 { return abs(audio - (spoken.first ?? -1)) < 1e-9 }; return false }
        let ended = events.all.firstIndex { if case .spoken = $0 { return true }; return false }
        #expect(started != nil && ended != nil && started! < ended!)
    }

    @Test func wavFileCollectsEveryPrompt() throws {
        let dir = TempDir()
        defer { dir.remove() }
        let wav = dir.file("all.wav")
        let engine = SpeechEngine(output: .wavFile(wav))
        engine.speak(Utterance(id: 1, text: "Turn left.", voice: "en-gb"))
        engine.speak(Utterance(id: 2, text: "Biegen Sie links ab.", voice: "de"))
        #expect(engine.waitUntilIdle(timeout: 20))
        let whileOpen = try WAVContents(path: wav)  // valid before shutdown: header rewritten per prompt
        engine.shutdown()
        let w = try WAVContents(path: wav)
        #expect(whileOpen.samples.count == w.samples.count)
        #expect(w.sampleRate == 22050)
        #expect(w.voicedSeconds() > 0.8)
    }

    /// `interrupt` (the car left the route the prompts were for): the prompt being synthesised
    /// is not played, queued ones are dropped, and what is said next is heard at once.
    @Test func interruptCutsThePromptForARouteLeft() throws {
        let dir = TempDir()
        defer { dir.remove() }
        let wav = dir.file("cut.wav")
        let events = Collector<SpeechEvent>()
        let engine = SpeechEngine(output: .device("file:FILE=\(wav),FORMAT=wav")) { events.append($0) }
        // a long prompt takes a while to synthesise (made ≈ 0.4 s long here): it is cut in the
        // middle of that (a file PCM is not paced: played audio cannot be cut in a test)
        func synthesisSeconds(_ text: String) throws -> Double {
            try SpeechSynthesizer.withShared { s -> Double in
                try s.setVoice("en-gb")
                let t = Date()
                _ = try s.synthesize(text)
                return Date().timeIntervalSince(t)
            }
        }
        let ten = try synthesisSeconds(Array(repeating: Self.sentence, count: 10).joined(separator: " "))
        let long = Array(repeating: Self.sentence, count: min(150, max(10, Int(10 * 0.4 / max(ten, 0.001))))).joined(separator: " ")
        let synthesis = try synthesisSeconds(long)
        try #require(synthesis > 0.15, "synthesis of the long prompt took only \(synthesis) s")
        engine.speak(Utterance(id: 1, text: long, voice: "en-gb"))
        engine.speak(Utterance(id: 2, text: "Turn left.", voice: "en-gb"))
        usleep(UInt32(min(synthesis / 3, 0.1) * 1_000_000))
        engine.interrupt()
        engine.speak(Utterance(id: 3, text: "In 200 metres, turn right.", voice: "en-gb"))
        #expect(engine.waitUntilIdle(timeout: 20))
        engine.shutdown()
        let said = events.all.compactMap { e -> Int? in if case let .spoken(id, _, _, _, _) = e { return id }; return nil }
        #expect(said == [3], "\(events.all)")
        #expect(events.all.contains { if case .interrupted(1, _, 0) = $0 { return true }; return false }, "\(events.all)")
        let w = try WAVContents(path: wav)
        #expect(Double(w.samples.count) / 22050 < 3, "\(Double(w.samples.count) / 22050) s of audio: the long prompt was played")
    }

    /// No sound card: the output is reported unavailable once, and speaking goes on without a crash.
    @Test func missingDeviceIsReportedOnceAndNeverStops() {
        let events = Collector<SpeechEvent>()
        let engine = SpeechEngine(output: .device("hw:77,0")) { events.append($0) }
        for i in 1...3 { engine.speak(Utterance(id: i, text: "Turn right.", voice: "en-gb")) }
        #expect(engine.waitUntilIdle(timeout: 20))
        engine.shutdown()
        let unavailable = events.all.filter { if case .outputUnavailable = $0 { return true }; return false }
        #expect(unavailable.count == 1)
        let spoken = events.all.filter { if case .spoken = $0 { return true }; return false }
        #expect(spoken.count == 3)
    }

    @Test func unknownVoiceFailsThatPromptOnly() {
        let events = Collector<SpeechEvent>()
        let engine = SpeechEngine(output: .none) { events.append($0) }
        engine.speak(Utterance(id: 1, text: "x", voice: "no-such-voice"))
        engine.speak(Utterance(id: 2, text: "Turn right.", voice: "en-gb"))
        #expect(engine.waitUntilIdle(timeout: 20))
        engine.shutdown()
        #expect(events.all.contains { if case .failed(1, _) = $0 { return true }; return false })
        #expect(events.all.contains { if case .spoken(2, _, _, _, _) = $0 { return true }; return false })
    }
}
