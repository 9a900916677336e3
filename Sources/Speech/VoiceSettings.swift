import FoundationEssentials
import Glibc
import Platform

/// How prompts sound: loudness, speed and voice. Changed while driving (`volume 60`, `louder`,
/// `rate 190`, `voice en-gb+f3` on the console or through `tern ctl`) and set in tern.conf; the
/// speech thread reads them for every prompt, so a change applies from the next one.
public struct VoiceSettings: Sendable, Equatable {
    /// 0 (silent) to 100 (the synthesizer's full level), as a driver turns a knob.
    public var volume = 100
    /// espeak-ng's speaking rate, words per minute.
    public var rate = VoiceSettings.defaultRate
    /// An espeak-ng voice or variant ("en-gb", "de+m3", "en-us+f2") said instead of the guidance
    /// language's own voice; nil: the language's.
    public var voice: String?

    public static let defaultRate = 175
    /// espeak-ng's own bounds for the rate.
    public static let rates = 80...450
    /// One `louder` or `quieter`.
    public static let volumeStep = 10

    public init(volume: Int = 100, rate: Int = VoiceSettings.defaultRate, voice: String? = nil) {
        self.volume = volume
        self.rate = rate
        self.voice = voice
    }

    /// The factor samples are multiplied by: a logarithmic knob, half a decibel a step (100 is
    /// 0 dB, 50 is -25 dB, 1 is -49.5 dB), as loudness is heard, and 0 is silence.
    /// (Scaled in software, so it works the same on any card, a file and a voice pack; the card's
    /// own mixer stays the maintainer's setting.)
    public var gain: Double {
        volume <= 0 ? 0 : pow(10, Double(min(volume, 100) - 100) * 0.5 / 20)
    }

    /// Parses a volume "0"–"100"; nil when it is not one.
    public static func volume(_ text: String) -> Int? {
        guard let v = Int(text.trimmed()), (0...100).contains(v) else { return nil }
        return v
    }

    /// Parses a rate in words per minute within `rates`; nil when it is not one.
    public static func rate(_ text: String) -> Int? {
        guard let v = Int(text.trimmed()), rates.contains(v) else { return nil }
        return v
    }

    /// Multiplies 16-bit samples by `gain`, clipping (never wrapping) at full scale.
    static func scale(_ samples: inout [Int16], by gain: Double) {
        guard gain != 1 else { return }
        for i in samples.indices {
            samples[i] = Int16(max(-32768, min(32767, (Double(samples[i]) * gain).rounded())))
        }
    }
}
