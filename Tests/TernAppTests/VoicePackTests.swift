import Foundation
@testable import Speech
import TestSupport
import Testing

/// A recorded voice pack, made by scripts/make-voice-pack.sh with the built tern: a prompt is said
/// from its clips where they exist and by espeak-ng for the street name, with no gap longer than
/// 150 ms; a broken pack is refused with the file named.
@Suite(.serialized) struct VoicePackTests {
    static func makePack(in dir: TempDir) throws -> String {
        let pack = dir.file("sample-pack")
        let tern = try #require(TernBinary.path)
        let r = try Tool.run("/bin/bash", [SharedData.packageRoot.appendingPathComponent("scripts/make-voice-pack.sh").path, pack, tern])
        try #require(r.status == 0, "\(r.output)")
        return pack
    }

    /// The words of the prompt matched to clips, longest first, the street name by espeak-ng.
    @Test func partsOfAPrompt() {
        let keys: Set = ["in", "300", "metres", "turn left", "turn", "onto"]
        let parts = PromptAssembly.parts("In 300 metres, turn left onto Hauptstraße.", longest: 2, has: { keys.contains($0) })
        #expect(parts == [.clip("in"), .pause(0.04), .clip("300"), .pause(0.04), .clip("metres"), .pause(0.12),
                          .clip("turn left"), .pause(0.04), .clip("onto"), .pause(0.04), .speech("hauptstraße")])
        // "1.5" is one word; a comma inside a number is no pause
        #expect(PromptAssembly.words("In 1.5 kilometres, keep left.") == ["in", "1.5", "kilometres", "keep", "left"])
    }

    @Test(.timeLimit(.minutes(TestTiming.minutes(3)))) func promptFromClipsAndEspeak() async throws {
        let dir = TempDir()
        defer { dir.remove() }
        let pack = try Self.makePack(in: dir)
        let loaded = try VoicePack(path: pack)
        #expect(loaded.clipCount > 100)
        let wav = dir.file("prompt.wav")
        let r = try await TernBinary.run(["say", "In 300 metres, turn left onto Hauptstrasse.", "--voice", pack, "--wav", wav], timeout: 60, in: dir)
        #expect(r.exitCode == 0, "\(r.output)")
        let out = try WAVReader.read(wav)
        // the clip for "turn left" is in the prompt, sample for sample
        let clip = PromptAssembly.trimmed(try WAVReader.read(pack + "/turn-left.wav").samples, rate: 22050)
        try #require(clip.count > 1000)
        let found = (0...(out.samples.count - clip.count)).contains { i in out.samples[i] == clip[0] && Array(out.samples[i..<(i + clip.count)]) == clip }
        #expect(found, "the clip of \"turn left\" is not in the prompt")
        // the street name was spoken (the prompt is longer than its clips and pauses alone)
        let clipsOnly = ["in", "300", "metres", "turn-left", "onto"].map { try? PromptAssembly.trimmed(WAVReader.read(pack + "/\($0).wav").samples, rate: 22050).count }
        let pauses = Int((0.04 * 4 + 0.12) * 22050)
        // (summed apart: Swift 6.0 cannot type-check it inside #expect in reasonable time)
        let clipSamples: Int = clipsOnly.compactMap { $0 }.reduce(0, +)
        let atLeast = clipSamples + pauses + 22050 / 5
        #expect(out.samples.count > atLeast)
        // no silence longer than 150 ms between the first and the last sound
        let loud = out.samples.indices.filter { abs(Int(out.samples[$0])) > 300 }
        var longest = 0, last = loud.first ?? 0
        for i in loud { longest = max(longest, i - last); last = i }
        #expect(Double(longest) / 22050 <= 0.15, "a gap of \(Double(longest) / 22050) s")
    }

    @Test func brokenPacksAreRefusedByName() async throws {
        let dir = TempDir()
        defer { dir.remove() }
        let empty = dir.file("empty")
        try FileManager.default.createDirectory(atPath: empty, withIntermediateDirectories: true)
        let none = try await TernBinary.run(["say", "Turn left", "--voice", empty, "--wav", dir.file("x.wav")], timeout: 30, in: dir)
        #expect(none.exitCode == 1 && none.output.contains("manifest.json"), "\(none.output)")
        let bad = dir.file("bad")
        try FileManager.default.createDirectory(atPath: bad, withIntermediateDirectories: true)
        try #"{"format": 1, "language": "en-GB", "phrases": {"turn left": "missing.wav"}}"#.write(toFile: bad + "/manifest.json", atomically: true, encoding: .utf8)
        let missing = try await TernBinary.run(["say", "Turn left", "--voice", bad, "--wav", dir.file("x.wav")], timeout: 30, in: dir)
        #expect(missing.exitCode == 1 && missing.output.contains("missing.wav"), "\(missing.output)")
    }
}
