import CEspeakNG
import FoundationEssentials
import Glibc
import Platform

/// espeak-ng rendering text to 16-bit mono samples in memory.
///
/// espeak-ng keeps global state (one voice, one callback) and is not thread-safe, so there is one
/// synthesizer per process, reached only through `withShared`, which serialises every use.
final class SpeechSynthesizer {
    // Guarded by `lock`; created on first use and kept for the life of the process.
    nonisolated(unsafe) private static var shared: Result<SpeechSynthesizer, Error>?
    private static let lock = Lock()

    /// Runs `body` with exclusive use of the process's synthesizer.
    static func withShared<R>(_ body: (SpeechSynthesizer) throws -> R) throws -> R {
        lock.lock()
        defer { lock.unlock() }
        if shared == nil { shared = Result { try SpeechSynthesizer() } }
        return try body(shared!.get())
    }

    /// Output sample rate reported by espeak-ng (22050 Hz).
    let sampleRate: Int
    private var currentVoice: String?

    /// Collects samples during one synchronous synthesis call (passed through user_data).
    private final class Sink { var samples: [Int16] = [] }

    private init() throws {
        espeak_ng_InitializePath(nil)
        var ctx: espeak_ng_ERROR_CONTEXT? = nil
        let st = espeak_ng_Initialize(&ctx)
        guard st == ENS_OK else {
            espeak_ng_ClearErrorContext(&ctx)
            throw SpeechError.synthesizer("espeak-ng failed to initialise: \(SpeechSynthesizer.message(st))")
        }
        let out = espeak_ng_InitializeOutput(ENOUTPUT_MODE_SYNCHRONOUS, 0, nil)
        guard out == ENS_OK else { throw SpeechError.synthesizer("espeak-ng output: \(SpeechSynthesizer.message(out))") }
        sampleRate = Int(espeak_ng_GetSampleRate())
        espeak_SetSynthCallback { wav, count, events in
            guard let events, let user = events.pointee.user_data else { return 0 }
            let sink = Unmanaged<Sink>.fromOpaque(user).takeUnretainedValue()
            if let wav, count > 0 { sink.samples.append(contentsOf: UnsafeBufferPointer(start: wav, count: Int(count))) }
            return 0
        }
    }

    /// Selects an espeak-ng voice by name ("en-gb", "de", "fr"...); throws when it does not exist.
    func setVoice(_ name: String) throws {
        guard name != currentVoice else { return }
        // "en-gb+f3": a voice and one of espeak-ng's variants (another speaker of the same language)
        let parts = name.split(separator: "+", maxSplits: 1).map(String.init)
        let base = parts.first ?? name
        let variant = parts.count > 1 ? parts[1] : nil
        if let v = variant, !variantNames.contains(v) { throw SpeechError.unknownVoice(name) }
        // A voice file name ("de") works directly; a language tag ("en-gb") is matched by
        // language, as the espeak-ng command line does.
        if espeak_ng_SetVoiceByName(base) != ENS_OK {
            var spec = espeak_VOICE()
            let ok = base.withCString { lang -> Bool in
                spec.languages = lang
                return espeak_ng_SetVoiceByProperties(&spec) == ENS_OK
            }
            guard ok, let chosen = espeak_GetCurrentVoice()?.pointee, let langs = chosen.languages else {
                throw SpeechError.unknownVoice(name)
            }
            // espeak-ng falls back to a default voice for unknown languages: accept only a real
            // match, tag by tag
            let got = String(cString: langs + 1).lowercased()
            let want = base.lowercased()
            guard got == want || got.hasPrefix(want + "-") || want.hasPrefix(got + "-") else { throw SpeechError.unknownVoice(name) }
            if let v = variant, let id = chosen.identifier {
                // (by its file, "gmw/en+f3": a variant is added to a voice file, not a language)
                guard espeak_ng_SetVoiceByName(String(cString: id) + "+" + v) == ENS_OK else { throw SpeechError.unknownVoice(name) }
            }
        } else if let v = variant, espeak_ng_SetVoiceByName(base + "+" + v) != ENS_OK {
            throw SpeechError.unknownVoice(name)
        }
        currentVoice = name
        currentRate = -1  // (a voice brings its own speed: the rate is set again)
    }

    /// espeak-ng's voice variants ("f3", "m2", "klatt"), the part after "+" in a voice name (listed
    /// once: they are files of espeak-ng's data).
    private lazy var variantNames = SpeechSynthesizer.variants()
    private static func variants() -> Set<String> {
        var spec = espeak_VOICE()
        return "variant".withCString { lang -> Set<String> in
            spec.languages = lang
            guard let list = espeak_ListVoices(&spec) else { return [] }
            var out = Set<String>()
            var i = 0
            while let v = list[i] {
                // identifiers are "!v/f3"
                if let id = v.pointee.identifier { out.insert(String(String(cString: id).split(separator: "/").last ?? "")) }
                i += 1
            }
            return out
        }
    }

    /// Sets the speaking rate in words per minute (espeak-ng keeps it until changed).
    func setRate(_ wpm: Int) {
        guard wpm != currentRate else { return }
        espeak_SetParameter(espeakRATE, Int32(wpm), 0)
        currentRate = wpm
    }
    private var currentRate = VoiceSettings.defaultRate

    /// Renders `text`; returns its samples at `sampleRate`.
    func synthesize(_ text: String) throws -> [Int16] {
        let sink = Sink()
        let user = Unmanaged.passUnretained(sink).toOpaque()
        var uid: UInt32 = 0
        let st = text.withCString { p in
            espeak_ng_Synthesize(p, strlen(p) + 1, 0, POS_CHARACTER, 0, UInt32(espeakCHARS_UTF8), &uid, user)
        }
        withExtendedLifetime(sink) {}
        guard st == ENS_OK else { throw SpeechError.synthesizer("espeak-ng: \(SpeechSynthesizer.message(st))") }
        return sink.samples
    }

    static func message(_ st: espeak_ng_STATUS) -> String {
        var buf = [CChar](repeating: 0, count: 512)
        espeak_ng_GetStatusCodeMessage(st, &buf, buf.count)
        return buf.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
    }

    /// Voice names espeak-ng offers (e.g. "en-gb", "de").
    static func availableVoices() -> [String] {
        (try? withShared { _ in listVoices() }) ?? []
    }

    private static func listVoices() -> [String] {
        guard let list = espeak_ListVoices(nil) else { return [] }
        var out = [String]()
        var i = 0
        while let v = list[i] {
            if let id = v.pointee.identifier { out.append(String(cString: id)) }
            i += 1
        }
        return out
    }
}

/// Errors of the speech stage.
public enum SpeechError: Error, CustomStringConvertible, Equatable {
    case synthesizer(String)
    case unknownVoice(String)
    case audioDevice(name: String, reason: String)
    case file(path: String, reason: String)

    public var description: String {
        switch self {
        case let .synthesizer(m): return m
        case let .unknownVoice(v): return "espeak-ng has no voice \"\(v)\""
        case let .audioDevice(name, reason): return "audio device \(name): \(reason)"
        case let .file(path, reason): return "\(path): \(reason)"
        }
    }
}
