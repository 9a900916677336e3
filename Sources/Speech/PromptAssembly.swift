import FoundationEssentials
import Glibc
import Platform

/// A prompt said with a voice pack: its words matched to the pack's clips, longest first ("turn
/// left" before "turn"), and what has no clip (a street name, a word the pack lacks) said by
/// espeak-ng, all joined into one run of samples at the pack's rate. Every part is trimmed of its
/// own leading and trailing silence and the parts are joined with short pauses, so no gap is
/// longer than `commaPause` (the clips' own silences would otherwise stack up).
enum PromptAssembly {
    /// The pause between two parts of a phrase, and at a comma or full stop.
    static let partPause = 0.04
    static let commaPause = 0.12

    enum Part: Equatable {
        case clip(String)
        case speech(String)
        case pause(Double)
    }

    /// The words of a text as a pack's keys are written: lower case, without the punctuation
    /// around them ("Hauptstraße," → "hauptstraße"; "1.5" stays "1.5").
    static func words(_ text: String) -> [String] {
        text.lowercased().split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" }).map {
            String($0).trimmed(of: ",.;:!?\"'()„“”«»。、")
        }.filter { !$0.isEmpty }
    }

    /// The parts of `text`: clips where `has` knows the words (longest match first, up to
    /// `longest` words), speech for the rest, pauses at commas and full stops.
    static func parts(_ text: String, longest: Int, has: (String) -> Bool) -> [Part] {
        var out = [Part]()
        // phrases end at a comma, semicolon or full stop followed by a space or the end ("1.5" is one word)
        var phrases = [String]()
        var current = ""
        let chars = Array(text)
        for (i, c) in chars.enumerated() {
            current.append(c)
            if ",;.:!?。、".contains(c), i + 1 == chars.count || chars[i + 1] == " " {
                phrases.append(current)
                current = ""
            }
        }
        if !current.trimmed().isEmpty { phrases.append(current) }
        for phrase in phrases {
            let w = words(phrase)
            guard !w.isEmpty else { continue }
            if !out.isEmpty { out.append(.pause(commaPause)) }
            var i = 0
            var spoken = [String]()
            func flush() {
                if !spoken.isEmpty {
                    if let last = out.last, last != .pause(commaPause) { out.append(.pause(partPause)) }
                    out.append(.speech(spoken.joined(separator: " ")))
                    spoken = []
                }
            }
            while i < w.count {
                var matched = 0
                for n in stride(from: min(longest, w.count - i), through: 1, by: -1) where has(w[i..<(i + n)].joined(separator: " ")) {
                    matched = n
                    break
                }
                if matched == 0 {
                    spoken.append(w[i])
                    i += 1
                    continue
                }
                flush()
                if let last = out.last, last != .pause(commaPause) { out.append(.pause(partPause)) }
                out.append(.clip(w[i..<(i + matched)].joined(separator: " ")))
                i += matched
            }
            flush()
        }
        return out
    }

    /// Samples without their leading and trailing silence (a 10 ms margin kept). Silence is
    /// what stays 34 dB under the loudest sample (a recording's noise floor is its own, not
    /// espeak-ng's), at least 64.
    static func trimmed(_ s: [Int16], rate: Int) -> [Int16] {
        let peak = s.reduce(0) { max($0, abs(Int($1))) }
        let threshold = max(64, peak / 50)
        guard let first = s.firstIndex(where: { abs(Int($0)) > threshold }),
              let last = s.lastIndex(where: { abs(Int($0)) > threshold }) else { return [] }
        let margin = rate / 100
        return Array(s[max(0, first - margin)...min(s.count - 1, last + margin)])
    }

    /// Linear resampling from `from` Hz to `to` Hz (espeak-ng's 22050 Hz to a pack recorded at
    /// another rate).
    static func resampled(_ s: [Int16], from: Int, to: Int) -> [Int16] {
        guard from != to, !s.isEmpty else { return s }
        let n = Int(Double(s.count) * Double(to) / Double(from))
        return (0..<n).map { i in
            let x = Double(i) * Double(from) / Double(to)
            let j = min(Int(x), s.count - 1), k = min(j + 1, s.count - 1)
            let f = x - Double(j)
            return Int16((Double(s[j]) * (1 - f) + Double(s[k]) * f).rounded())
        }
    }
}

extension VoicePack {
    /// The prompt's samples at `sampleRate`; `synthesize` says a text with espeak-ng (in the
    /// fallback voice) and returns its samples and rate.
    func render(_ text: String, synthesize: (String) throws -> (samples: [Int16], rate: Int)) throws -> [Int16] {
        var out = [Int16]()
        for part in PromptAssembly.parts(text, longest: longestKey, has: { clips[$0] != nil }) {
            switch part {
            case .clip(let key): out += clips[key] ?? []
            case .pause(let seconds): out += [Int16](repeating: 0, count: Int(seconds * Double(sampleRate)))
            case .speech(let words):
                let s = try synthesize(words)
                out += PromptAssembly.resampled(PromptAssembly.trimmed(s.samples, rate: s.rate), from: s.rate, to: sampleRate)
            }
        }
        return out
    }
}
