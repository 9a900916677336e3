import Foundation
import Guidance
@testable import Speech
import Testing

/// Every guidance language's espeak-ng voice exists and speaks that language's prompt: real
/// espeak-ng synthesis into memory (no sound card needed).
@Suite(.serialized) struct LocaleVoiceTests {
    @Test(arguments: GuidanceLocale.all.map(\.code))
    func voiceSpeaksAPrompt(code: String) throws {
        let locale = try #require(GuidanceLocale.named(code))
        let t = Instructions(locale: locale)
        let m = Maneuver(type: .turn, modifier: .left, street: "", location: .init(latitude: 0, longitude: 0), shapeIndex: 0,
                         distanceFromStartMeters: 0)
        let text = t.prompt(m, kind: .turnIn, distanceMeters: 300)
        let samples = try SpeechSynthesizer.withShared { s -> [Int16] in
            try s.setVoice(locale.voice)
            return try s.synthesize(text)
        }
        // espeak-ng speaks at 22.05 kHz: a prompt is at least half a second
        #expect(samples.count > 11_000, "\(code) voice \(locale.voice): \(samples.count) samples for \(text)")
    }
}
