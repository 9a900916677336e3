import FoundationEssentials
import Glibc
import JSONLines
import Platform

/// A recorded voice: a folder of WAV clips and a `manifest.json` mapping the words of prompts to
/// them (Navmii ships such packs; Organic Maps' users ask for them, organicmaps#5753). A prompt
/// is said from clips where its words have them, and by espeak-ng for the rest (street names,
/// anything the pack lacks); see `PromptAssembly` and docs/voice-packs.md for the format.
public struct VoicePack: Sendable {
    public let path: String
    public let name: String
    /// BCP 47 language of the clips ("en-GB"): the pack speaks prompts of this language only.
    public let language: String
    /// The espeak-ng voice for the words the pack has no clip for.
    public let fallbackVoice: String
    public let sampleRate: Int
    /// Clips by their words (lower case, single spaces), and the longest key in words.
    let clips: [String: [Int16]]
    let longestKey: Int

    static let formatVersion = 1
    static let sections = ["phrases", "numbers", "ordinals", "distances"]

    /// Reads and checks a pack; the error names the file or the key that is wrong.
    public init(path: String) throws {
        self.path = path
        let manifestPath = Paths.join(path, "manifest.json")
        guard let data = FileManager.default.contents(atPath: manifestPath) else {
            throw SpeechError.file(path: manifestPath, reason: "no voice pack here (a folder with manifest.json and its clips)")
        }
        guard let root = try? JSONValue.parse(data) as? [String: Any] else {
            throw SpeechError.file(path: manifestPath, reason: "not a JSON object")
        }
        guard root["format"] as? Int == Self.formatVersion else { throw SpeechError.file(path: manifestPath, reason: "format: expected \(Self.formatVersion)") }
        guard let language = root["language"] as? String, !language.isEmpty else {
            throw SpeechError.file(path: manifestPath, reason: "language: expected a tag like en-GB")
        }
        self.language = language
        name = root["name"] as? String ?? Paths.fileName(path)
        fallbackVoice = root["fallback_voice"] as? String ?? language.lowercased()
        var clips = [String: [Int16]]()
        var rate: Int?
        for section in Self.sections {
            guard let entries = root[section] else { continue }
            guard let map = entries as? [String: String] else {
                throw SpeechError.file(path: manifestPath, reason: "\(section): expected {\"words\": \"file.wav\", ...}")
            }
            for (words, file) in map {
                let key = PromptAssembly.words(words).joined(separator: " ")
                guard !key.isEmpty else { throw SpeechError.file(path: manifestPath, reason: "\(section): an empty key") }
                let clipPath = Paths.join(path, file)
                let wav = try WAVReader.read(clipPath)
                if let r = rate, r != wav.sampleRate {
                    throw SpeechError.file(path: clipPath, reason: "\(wav.sampleRate) Hz, the pack's other clips are \(r) Hz")
                }
                rate = wav.sampleRate
                let clip = PromptAssembly.trimmed(wav.samples, rate: wav.sampleRate)
                // (a silent clip would drop its words from every prompt without a sound)
                guard !clip.isEmpty else { throw SpeechError.file(path: clipPath, reason: "silent: no sound in the clip for \"\(words)\"") }
                clips[key] = clip
            }
        }
        guard let r = rate, !clips.isEmpty else { throw SpeechError.file(path: manifestPath, reason: "no clips") }
        sampleRate = r
        self.clips = clips
        longestKey = clips.keys.map { $0.split(separator: " ").count }.max() ?? 1
    }

    /// Whether the pack speaks prompts meant for espeak-ng voice `voice` (the same language).
    public func speaks(voice: String) -> Bool {
        func lang(_ s: String) -> Substring { s.lowercased().split(whereSeparator: { $0 == "-" || $0 == "_" || $0 == "+" }).first ?? "" }
        return lang(voice) == lang(language)
    }

    /// How many clips the pack has.
    public var clipCount: Int { clips.count }
}

/// 16-bit PCM mono WAV files (a voice pack's clips).
enum WAVReader {
    static func read(_ path: String) throws -> (samples: [Int16], sampleRate: Int) {
        guard let d = FileManager.default.contents(atPath: path) else { throw SpeechError.file(path: path, reason: "cannot read the clip") }
        let b = [UInt8](d)
        func u32(_ o: Int) -> Int { Int(b[o]) | Int(b[o + 1]) << 8 | Int(b[o + 2]) << 16 | Int(b[o + 3]) << 24 }
        func u16(_ o: Int) -> Int { Int(b[o]) | Int(b[o + 1]) << 8 }
        guard b.count >= 12, b[0..<4].elementsEqual("RIFF".utf8), b[8..<12].elementsEqual("WAVE".utf8) else {
            throw SpeechError.file(path: path, reason: "not a WAV file")
        }
        var o = 12, rate = 0, format: (channels: Int, bits: Int, tag: Int)?
        while o + 8 <= b.count {
            var size = u32(o + 4)
            if b[o..<(o + 4)].elementsEqual("fmt ".utf8), o + 24 <= b.count {
                format = (u16(o + 10), u16(o + 22), u16(o + 8))
                rate = u32(o + 12)
            } else if b[o..<(o + 4)].elementsEqual("data".utf8) {
                guard let f = format, f.tag == 1, f.channels == 1, f.bits == 16, rate > 0 else {
                    throw SpeechError.file(path: path, reason: "expected 16-bit PCM mono (convert with: sox IN -b 16 -c 1 OUT.wav)")
                }
                if size == 0 || o + 8 + size > b.count { size = b.count - o - 8 }  // a header never finalised
                let samples = stride(from: o + 8, to: o + 8 + size - 1, by: 2).map { Int16(bitPattern: UInt16(b[$0]) | UInt16(b[$0 + 1]) << 8) }
                return (samples, rate)
            }
            o += 8 + size + (size & 1)
        }
        throw SpeechError.file(path: path, reason: "no audio data in the WAV file")
    }
}
