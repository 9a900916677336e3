import Foundation
@testable import Speech
import TestSupport
import Testing

/// Volume, rate and voice as a driver sets them, through espeak-ng, and an output that comes and
/// goes, through ALSA's file PCM.
@Suite(.serialized) struct VoiceControlTests {
    static let sentence = "In 300 metres, turn left onto Hauptstrasse."

    /// Speaks `text` once with `settings` into a WAV file and reads it back.
    func spoken(_ settings: VoiceSettings, _ text: String = VoiceControlTests.sentence) throws -> WAVContents {
        let dir = TempDir()
        defer { dir.remove() }
        let wav = dir.file("v.wav")
        // (a WAV file holds exactly the samples; ALSA's file PCM adds up to a period of padding)
        let engine = SpeechEngine(output: .wavFile(wav), settings: settings)
        engine.speak(Utterance(id: 1, text: text, voice: "en-gb"))
        #expect(engine.waitUntilIdle(timeout: 20))
        engine.shutdown()
        return try WAVContents(path: wav)
    }

    func rms(_ w: WAVContents) -> Double {
        (w.samples.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(max(1, w.samples.count))).squareRoot()
    }

    @Test func volumeScalesTheSamplesOnALogarithmicKnob() throws {
        let full = try spoken(VoiceSettings(volume: 100))
        let half = try spoken(VoiceSettings(volume: 50))
        let silent = try spoken(VoiceSettings(volume: 0))
        // (espeak-ng's output varies by a few per cent from call to call)
        #expect(abs(Double(full.samples.count) / Double(half.samples.count) - 1) < 0.1)
        // 50 is 25 dB down: a factor of 0.056 in amplitude
        let ratio = rms(half) / rms(full)
        #expect(abs(ratio - 0.0562) < 0.005, "ratio \(ratio)")
        #expect(silent.samples.allSatisfy { $0 == 0 })
        #expect(abs(Double(silent.samples.count) / Double(full.samples.count) - 1) < 0.1, "a silent prompt still takes its time")
    }

    @Test func rateChangesHowLongAPromptTakes() throws {
        let usual = try spoken(VoiceSettings(rate: 175))
        let fast = try spoken(VoiceSettings(rate: 350))
        let ratio = Double(fast.samples.count) / Double(usual.samples.count)
        #expect(ratio < 0.7 && ratio > 0.35, "350 wpm took \(ratio) of 175 wpm's time")
        // and the rate is set again after the voice changes (espeak-ng's voice brings its own speed)
        let again = try spoken(VoiceSettings(rate: 350, voice: "de"))
        let german = try spoken(VoiceSettings(rate: 175, voice: "de"))
        #expect(Double(again.samples.count) / Double(german.samples.count) < 0.7)
    }

    @Test func voiceOverridesTheLanguagesVoiceAndIsChecked() throws {
        let own = try spoken(VoiceSettings())
        let variant = try spoken(VoiceSettings(voice: "en-gb+f3"))
        #expect(own.samples != variant.samples, "the variant sounds the same")
        #expect(SpeechEngine.voiceProblem("en-gb+f3") == nil)
        #expect(SpeechEngine.voiceProblem("de") == nil)
        for wrong in ["no-such-voice", "en-gb+nosuchvariant", "xx"] {
            let problem = SpeechEngine.voiceProblem(wrong)
            #expect(problem?.contains(wrong) == true, "\(wrong): \(problem ?? "accepted")")
        }
    }

    /// A card that is not there at start (the first of two is missing): the next one plays.
    @Test func firstOutputThatOpensPlays() throws {
        let dir = TempDir()
        defer { dir.remove() }
        let wav = dir.file("second.wav")
        let events = Collector<SpeechEvent>()
        let engine = SpeechEngine(output: .devices(["hw:CARD=NoSuchSpeaker", "file:FILE=\(wav),FORMAT=wav"])) { events.append($0) }
        engine.speak(Utterance(id: 1, text: "Turn right.", voice: "en-gb"))
        #expect(engine.waitUntilIdle(timeout: 20))
        engine.shutdown()
        #expect(try WAVContents(path: wav).voicedSeconds() > 0.3)
        #expect(!events.all.contains { if case .outputUnavailable = $0 { return true }; return false }, "\(events.all)")
    }

    /// An output that fails while in use (a USB speaker pulled out: here a file PCM whose folder
    /// is missing) is reported once; it is tried again every few seconds, and once it works again
    /// prompts are heard, with the recovery reported.
    @Test func vanishedOutputIsTriedAgainAndComesBack() throws {
        let dir = TempDir()
        defer { dir.remove() }
        let folder = dir.file("later")
        let wav = folder + "/prompts.wav"
        let events = Collector<SpeechEvent>()
        let engine = SpeechEngine(output: .device("file:FILE=\(wav),FORMAT=wav"), retrySeconds: 0.3) { events.append($0) }
        for i in 1...2 { engine.speak(Utterance(id: i, text: "Turn right.", voice: "en-gb")) }
        #expect(engine.waitUntilIdle(timeout: 20))
        let down = events.all.filter { if case .outputUnavailable = $0 { return true }; return false }
        #expect(down.count == 1, "\(events.all)")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
        usleep(700_000)  // (a retry between prompts, as in the car)
        engine.speak(Utterance(id: 3, text: "Turn left.", voice: "en-gb"))
        #expect(engine.waitUntilIdle(timeout: 20))
        engine.shutdown()
        #expect(events.all.filter { if case .outputAvailable = $0 { return true }; return false }.count == 1, "\(events.all)")
        #expect(try WAVContents(path: wav).voicedSeconds() > 0.3)
        // every prompt went through (spoken, silently while there was no output)
        #expect(events.all.filter { if case .spoken = $0 { return true }; return false }.count == 3)
    }
}
