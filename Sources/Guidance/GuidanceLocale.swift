import FoundationEssentials
import Glibc
import JSONLines
import Platform

/// The phrase tables of one guidance language, parsed from `Locales/*.swift`.
public struct GuidanceLocale: Sendable {
    /// BCP 47 code ("en-GB", "pt-BR", "zh-CN").
    public let code: String
    /// The espeak-ng voice that reads it.
    public let voice: String
    /// The distance units drivers there expect unless told otherwise.
    public let defaultUnits: UnitSystem
    /// Lower-case an instruction's first letter when it is put inside another phrase.
    let lowerFirst: Bool
    let decimal: String
    /// The word "de" elided before a name beginning with a vowel ("au niveau d'Audi"; French,
    /// Catalan).
    let elidesDe: Bool
    /// A verb-second language's word for "then", said after the verb of what follows ("Ga linksaf
    /// en ga daarna rechtsaf", not "…, daarna ga rechtsaf"; Dutch, Swedish); `prompt.then` joins the
    /// two with "and".
    let thenAdverb: String?
    /// A landmark goes after the instruction's verb ("Ga bij de verkeerslichten rechtsaf naar …"),
    /// not at its end, where it seemed to belong to the last name said (Dutch).
    let landmarkAfterVerb: Bool
    /// A preposition before a name that begins with an article takes the article in ("sulla
    /// Carrera Nova", not "su la Carrera Nova"; Italian).
    let contractsArticles: Bool
    /// Whole numbers of 5 and more take their noun's form by the last digit, as 2–4 do ("22
    /// километра", "22 kilometry"; 12–14 excepted), and by a last 1 the singular where the table
    /// has `distance.km.one_n` ("21 километр"); Russian, Ukrainian, Polish.
    let pluralByLastDigit: Bool
    /// "de" is elided before an "h" too ("A l'altura d'Hotel Magic Ski"; Catalan).
    let elidesDeBeforeH: Bool
    /// A reflexive clitic that must stand second in its clause: where an instruction is put
    /// after something said before it ("O 800 metrov sa držte vpravo"), it goes before the verb,
    /// not after it ("O 800 metrov držte sa vpravo"; Slovak "sa", Czech "se").
    let clitic: String?
    let phrases: [String: String]
    let leadWords: Set<String>

    /// Every locale Tern speaks, in the order of `LocaleTables.registry`.
    public static let all: [GuidanceLocale] = LocaleTables.registry.map { entry in
        do {
            return try GuidanceLocale(code: entry.code, units: entry.units, table: entry.table)
        } catch {
            // the tables are compiled in and checked by GuidanceLocaleTests: a failure here is a build defect
            preconditionFailure("guidance locale \(entry.code): \(error)")
        }
    }

    public static let english = named("en-GB")!

    /// The locale for a code, ignoring case and "_" vs "-"; a region Tern does not have falls
    /// back to the language ("de-AT" → "de", "en" → "en-GB", "pt" → "pt-PT", "zh" → "zh-CN").
    public static func named(_ code: String) -> GuidanceLocale? {
        let c = code.replacing("_", with: "-").lowercased()
        if let l = all.first(where: { $0.code.lowercased() == c }) { return l }
        let language = c.split(separator: "-").first.map(String.init) ?? c
        if let l = all.first(where: { $0.code.lowercased() == language }) { return l }
        if let l = all.first(where: { $0.code.lowercased() == "\(language)-\(language)" }) { return l }
        return all.first { $0.code.lowercased().hasPrefix(language + "-") }
    }

    /// The locale for a user's setting, or an error naming the setting and what Tern speaks.
    public static func parse(_ code: String, setting: String) throws -> GuidanceLocale {
        guard let l = named(code) else {
            throw LocaleChoiceError(message: "\(setting) \(code): not a language Tern speaks (\(all.map(\.code).joined(separator: ", ")))")
        }
        return l
    }

    /// Keys every table has (those of English).
    /// Phrases a language may leave out: without its own, the general phrase is said with the
    /// modifier word ("At the roundabout, turn {modifier}"), where that reads well in the language
    /// and "turn straight" does not in English; "Resuming guidance to …" after a restart is not
    /// said at all (the route's first prompt follows anyway).
    public static let optionalKeys: Set<String> = ["roundabout_turn.straight", "roundabout_turn.straight.name", "prompt.resuming"]

    /// The phrases every language has.
    public static var keys: [String] { english.phrases.keys.filter { !optionalKeys.contains($0) }.sorted() }

    init(code: String, units: UnitSystem, table: String) throws {
        let merged = try LocaleTables.resolve(table)
        guard let voice = merged["voice"] as? String, !voice.isEmpty else { throw LocaleError.missing("voice") }
        self.code = code
        self.voice = voice
        defaultUnits = units
        lowerFirst = merged["lower_first"] as? Bool ?? true
        decimal = merged["decimal"] as? String ?? "."
        elidesDe = merged["elide_de"] as? Bool ?? false
        thenAdverb = merged["then_adverb"] as? String
        landmarkAfterVerb = merged["landmark_after_verb"] as? Bool ?? false
        contractsArticles = merged["contract_articles"] as? Bool ?? false
        pluralByLastDigit = merged["plural_by_last_digit"] as? Bool ?? false
        elidesDeBeforeH = merged["elide_de_before_h"] as? Bool ?? false
        clitic = merged["clitic"] as? String
        var p = [String: String]()
        for (k, v) in merged where !GuidanceLocale.settings.contains(k) {
            guard let s = v as? String else { throw LocaleError.notText(k) }
            p[k] = s
        }
        phrases = p
        // (the words a phrase or a modifier begins with, not a placeholder: what `embedded` may lower)
        leadWords = Set(p.values.filter { !$0.hasPrefix("{") }.map(GuidanceLocale.firstWord))
    }

    /// The keys of a table that are settings, not phrases.
    static let settings: Set<String> = ["base", "voice", "lower_first", "decimal", "elide_de", "then_adverb", "landmark_after_verb",
                                        "contract_articles", "plural_by_last_digit", "elide_de_before_h", "clitic"]

    /// A phrase with its placeholders filled; the English phrase when this table lacks the key.
    /// With `pauseBefore`, a comma before that placeholder where a word or another placeholder
    /// comes right before it ("In {distance} {instruction}", "{distance} sonra {instruction}").
    public func phrase(_ key: String, _ values: [String: String] = [:], pauseBefore: String? = nil) -> String {
        guard var template = phrases[key] ?? GuidanceLocale.englishPhrase(key) else { return key }
        if let p = pauseBefore, let r = template.firstRange(of: " {\(p)}"), r.lowerBound > template.startIndex {
            let before = template[template.index(before: r.lowerBound)]
            // (not where the phrase pauses already: Estonian "Veel {distance}, siis {instruction}")
            if before.isLetter || before == "}", !template[..<r.lowerBound].contains(",") { template.insert(",", at: r.lowerBound) }
        }
        var out = template
        for (name, var value) in values {
            // (the clitic after the verb moves before it where something comes first)
            if let c = clitic, name == "instruction" || name == "next", !out.hasPrefix("{\(name)}") {
                let words = value.split(separator: " ", omittingEmptySubsequences: false)
                if words.count >= 2, words[1] == c { value = ([words[1], words[0]] + words[2...]).joined(separator: " ") }
            }
            if elidesDe, let f = value.first,
               GuidanceLocale.elisionVowels.contains(f) || ((f == "h" || f == "H") && (elidesDeBeforeH || GuidanceLocale.hasMuteH(value))) {
                out = out.replacingAll(" de {\(name)}", with: " d'{\(name)}")
                if out.hasPrefix("De {\(name)}") { out = "D'" + out.dropFirst(3) }
            }
            if contractsArticles { out = GuidanceLocale.contractingArticle(of: value, before: "{\(name)}", in: out) }
            out = out.replacingAll("{\(name)}", with: value)
        }
        return out
    }

    /// Italian articulated prepositions: the stem of each preposition and the ending each article
    /// gives it ("su" + "la" = "sulla", "in" + "il" = "nel", "di" + "l'" = "dell'").
    private static let prepositionStems = ["su": "su", "in": "ne", "di": "de", "a": "a", "da": "da"]
    /// (the singular articles only: a foreign name's "Le" or "I" is no Italian plural, "Le Rocher"
    /// stays "di Le Rocher", not "delle Rocher")
    private static let articleEndings = ["il": "l", "lo": "llo", "la": "lla"]

    /// `template` with "su {way_name}" made "sulla Carrera Nova" where the name begins with an
    /// article ("la Carrera Nova", "La Rambla"), the article taken into the preposition.
    static func contractingArticle(of value: String, before placeholder: String, in template: String) -> String {
        let article = value.prefix { $0 != " " && $0 != "'" && $0 != "’" }
        let lower = article.lowercased()
        let elided = value.dropFirst(article.count).first.map { $0 == "'" || $0 == "’" } ?? false
        let ending: String
        if elided, lower == "l" { ending = "ll'" } else if let e = articleEndings[lower], value.dropFirst(article.count).first == " " { ending = e } else { return template }
        let rest = value.dropFirst(article.count + 1)
        guard !rest.isEmpty else { return template }
        var out = template
        for (prep, stem) in prepositionStems {
            for p in [prep, prep.prefix(1).uppercased() + prep.dropFirst()] {
                let before = p + " " + placeholder
                guard let r = out.firstRange(of: before), r.lowerBound == out.startIndex || out[out.index(before: r.lowerBound)] == " " else { continue }
                let contracted = (p.first!.isUppercase ? stem.prefix(1).uppercased() + stem.dropFirst() : stem) + ending
                out.replaceSubrange(r, with: contracted + (ending.hasSuffix("'") ? "" : " ") + rest)
                return out
            }
        }
        return template
    }

    /// Words with a mute "h" that begin many places' names ("au niveau d'Hôtel Hermitage"); an "h"
    /// is otherwise left alone, as it may be aspirated ("de Hollande").
    private static let muteHWords: Set<String> = ["hôtel", "hotel", "hôpital", "hopital", "hospice", "horloge", "hippodrome", "héliport",
                                                  "heliport", "hôtellerie", "habitat", "herboristerie", "horlogerie", "hélicoptère"]

    static func hasMuteH(_ s: String) -> Bool {
        muteHWords.contains(String(s.prefix { $0.isLetter }).lowercased())
    }

    /// Initials before which "de" is elided (an "h" is left alone: it may be aspirated).
    private static let elisionVowels = Set("AEIOUYÀÂÄÉÈÊËÎÏÔÖÙÛÜaeiouyàâäéèêëîïôöùûü")

    /// The raw template (for the tests that compare placeholders).
    public func template(_ key: String) -> String? { phrases[key] }

    /// Whether this table (or the one it is based on) has the phrase itself, not by falling back
    /// to English: for the optional keys.
    public func hasOwnPhrase(_ key: String) -> Bool { phrases[key] != nil }

    /// A phrase as a spoken sentence: capitalised, with the language's full stop.
    public func sentence(_ key: String, _ values: [String: String] = [:]) -> String { phrase(key, values).capitalizedFirst + fullStop }

    private static func englishPhrase(_ key: String) -> String? {
        all.first { $0.code == "en-GB" }?.phrases[key]
    }

    /// An instruction as it reads inside another phrase.
    func embedded(_ s: String) -> String {
        guard lowerFirst, let f = s.first else { return s }
        // "U-turn", an all-capital ref or a name stays as it is: only a capitalised word is lowered
        let second = s.dropFirst().first
        // ("U-dönüşü yapın": a letter joined by a hyphen is a name for a shape, kept)
        if let n = second, n.isUppercase || n == "-" { return s }
        // and only a word the phrases begin with: a phrase that starts with the road's name
        // (Turkish "Kurfürsten-Anlage üzerinde kalın") keeps the name as it is written
        guard leadWords.contains(GuidanceLocale.firstWord(s)) else { return s }
        return f.lowercased() + s.dropFirst()
    }

    /// The first word of a text, lower-cased, without a trailing comma.
    static func firstWord(_ s: String) -> String {
        String(s.prefix { $0 != " " && $0 != "," && $0 != "\u{060C}" }).lowercased()
    }

    /// A cautious estimate of espeak-ng's speaking time per character of this language's text at
    /// the default rate (measured on every table's "in 300 metres, turn left" prompt: 0.06–0.085 s
    /// for alphabetic scripts, up to 0.16 s for Japanese kana and Chinese; 15–20% added).
    public var speechSecondsPerCharacter: Double {
        switch code.split(separator: "-").first.map(String.init) ?? code {
        case "ja", "zh": return 0.19
        case "ko": return 0.16
        case "he", "mn": return 0.14
        case "ar": return 0.12
        default: return 0.095
        }
    }

    /// What ends a spoken sentence.
    var fullStop: String { code.hasPrefix("ja") || code.hasPrefix("zh") ? "。" : "." }

    /// A number as spoken: "2.5" or "2,5"; in words where the voice does not read digits.
    func number(_ v: Double) -> String {
        if code == "he", let words = HebrewNumbers.words(v) { return words }
        let s = v == v.rounded() && abs(v) < 1e15 ? String(Int(v)) : String(printf: "%.1f", v)
        return decimal == "." ? s : s.replacing(".", with: decimal)
    }

    enum LocaleError: Error, CustomStringConvertible {
        case badJSON(String), missing(String), notText(String), base(String)
        var description: String {
            switch self {
            case .badJSON(let e): return "bad JSON: \(e)"
            case .missing(let k): return "no \(k)"
            case .notText(let k): return "\(k) is not text"
            case .base(let b): return "unknown base \(b)"
            }
        }
    }
}

public struct LocaleChoiceError: Error, CustomStringConvertible {
    public let message: String
    public var description: String { message }
}

extension UnitSystem {
    /// The units for a user's setting, or an error naming the setting.
    public static func parse(_ value: String, setting: String) throws -> UnitSystem {
        guard let u = UnitSystem(rawValue: value) else {
            throw LocaleChoiceError(message: "\(setting) \(value): expected metric, imperial (miles and feet) or imperial-uk (miles and yards)")
        }
        return u
    }
}

/// The compiled-in tables (one Swift file per language under Locales/).
enum LocaleTables {
    /// Code, table, default units: the 17 languages Navmii speaks, Vietnamese and Indonesian,
    /// the rest of Valhalla's narration languages, and Chinese. en-AU reads the British table
    /// in metric units.
    static let registry: [(code: String, table: String, units: UnitSystem)] = [
        ("en-GB", en, .imperialUK), ("en-US", enUS, .imperial), ("en-AU", en, .metric), ("cs", cs, .metric),
        ("da", da, .metric), ("de", de, .metric), ("fi", fi, .metric), ("fr-FR", fr_FR, .metric), ("it", it, .metric),
        ("ko", ko, .metric), ("nb", nb, .metric), ("pl", pl, .metric), ("pt-BR", pt_BR, .metric),
        ("pt-PT", pt_PT, .metric), ("ru", ru, .metric), ("es-ES", es_ES, .metric), ("sv", sv, .metric),
        ("tr", tr, .metric), ("vi", vi, .metric), ("id", id, .metric), ("ar", ar, .metric), ("bg", bg, .metric),
        ("ca", ca, .metric), ("el", el, .metric), ("et", et, .metric), ("he", he, .metric), ("hi", hi, .metric),
        ("hu", hu, .metric), ("ja", ja, .metric), ("mn", mn, .metric), ("nl", nl, .metric), ("ro", ro, .metric),
        ("sk", sk, .metric), ("sl", sl, .metric), ("uk", uk, .metric), ("zh-CN", zh_CN, .metric),
    ]

    static let byName: [String: String] = ["en": en, "enUS": enUS, "pt_BR": pt_BR]

    static func parse(_ table: String) throws -> [String: Any] {
        do {
            guard let o = try JSONValue.parse(table.utf8) as? [String: Any] else {
                throw GuidanceLocale.LocaleError.badJSON("not an object")
            }
            return o
        } catch let e as GuidanceLocale.LocaleError {
            throw e
        } catch {
            throw GuidanceLocale.LocaleError.badJSON("\(error)")
        }
    }

    /// The table with its "base" table's keys under it.
    static func resolve(_ table: String, depth: Int = 0) throws -> [String: Any] {
        let t = try parse(table)
        guard let b = t["base"] as? String else { return t }
        guard depth < 4, let base = byName[b] else { throw GuidanceLocale.LocaleError.base(b) }
        return try resolve(base, depth: depth + 1).merging(t) { $1 }
    }
}

/// Hebrew numbers in words (masculine, as for metres and kilometres): espeak-ng 1.51's Hebrew
/// voice reads no digits. Whole numbers below 10 000 and halves ("שניים וחצי").
enum HebrewNumbers {
    static let ones = ["", "אחד", "שניים", "שלושה", "ארבעה", "חמישה", "שישה", "שבעה", "שמונה", "תשעה"]
    static let teens = ["עשרה", "אחד עשר", "שנים עשר", "שלושה עשר", "ארבעה עשר", "חמישה עשר", "שישה עשר", "שבעה עשר",
                        "שמונה עשר", "תשעה עשר"]
    static let tens = ["", "", "עשרים", "שלושים", "ארבעים", "חמישים", "שישים", "שבעים", "שמונים", "תשעים"]
    static let hundreds = ["", "מאה", "מאתיים", "שלוש מאות", "ארבע מאות", "חמש מאות", "שש מאות", "שבע מאות", "שמונה מאות",
                           "תשע מאות"]
    static let thousands = ["", "אלף", "אלפיים", "שלושת אלפים", "ארבעת אלפים", "חמשת אלפים", "ששת אלפים", "שבעת אלפים",
                            "שמונת אלפים", "תשעת אלפים"]

    static func words(_ v: Double) -> String? {
        guard v.isFinite, v >= 0, v < 10_000 else { return nil }
        let whole = Int(v.rounded(.down))
        let half = v - Double(whole) >= 0.25
        var parts = [String]()
        var n = whole
        if n >= 1000 { parts.append(thousands[n / 1000]); n %= 1000 }
        if n >= 100 { parts.append(hundreds[n / 100]); n %= 100 }
        if n >= 20 {
            parts.append(tens[n / 10])
            if n % 10 > 0 { parts.append(ones[n % 10]) }
        } else if n >= 10 {
            parts.append(teens[n - 10])
        } else if n > 0 || parts.isEmpty && !half {
            parts.append(n == 0 ? "אפס" : ones[n])
        }
        if half { parts.append("חצי") }
        // "and" (ו) before the last part
        if parts.count > 1 { parts[parts.count - 1] = "ו" + parts[parts.count - 1] }
        return parts.joined(separator: " ")
    }
}
