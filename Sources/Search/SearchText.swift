import Platform

// How text becomes search terms, the same at import (names in the map) and at query time (what a
// driver types), so that the two always meet: one rule in one place.
//
//   "Hauptstraße 12, Heidelberg"  →  hauptstr · 12 · heidelberg
//   "hauptstr. 12 heid"           →  hauptstr · 12 · heid      (prefix of heidelberg)
//   "Avinguda Meritxell"          →  av · meritxell
//   "Müller-Thurgau-Weg"          →  muller · thurgau · weg    (and "mueller" finds it: `variants`)
//
// Folding: lower case; diacritics dropped (é→e, ä→a, ø→o, ł→l); ß→ss, æ→ae, œ→oe, þ→th; every
// character that is not a letter or digit separates terms; single letters are dropped (initials
// and the "d" of "d'Andorra" carry nothing a driver types reliably; "d'Anna" is found as "anna").
// Abbreviations (what Nominatim's and libpostal's abbreviation lists treat as one word) become
// their short form on both sides, so "Str.", "Straße" and "Strasse" are the same term, also at
// the end of a German compound ("Hauptstraße" → "hauptstr").

public enum SearchText {
    /// The terms of a name or a query, in order (duplicates kept: a query may repeat a word).
    public static func terms(_ text: String) -> [String] { words(text).map(canonical) }

    /// The folded words of a text before abbreviations are shortened. A single letter joins the
    /// number after it ("L 600" → "l600", a road's ref) or before it ("12 a" → "12a", a house
    /// number); other single letters are dropped.
    public static func words(_ text: String) -> [String] {
        var raw = [String]()
        // (bytes, not a String grown a letter at a time: the import folds every name of a country)
        var current = [UInt8]()
        func flush() {
            if !current.isEmpty { raw.append(String(decoding: current, as: UTF8.self)) }
            current.removeAll(keepingCapacity: true)
        }
        // composed first: "u" + combining diaeresis is "ü", one letter, not a separator
        let ascii = text.utf8.allSatisfy { $0 < 0x80 }
        for u in (ascii ? text : text.composed).unicodeScalars {
            let v = u.value
            if v < 0x80 {
                switch v {
                case 0x30...0x39, 0x61...0x7A: current.append(UInt8(v))
                case 0x41...0x5A: current.append(UInt8(v + 0x20))
                default: flush()
                }
                continue
            }
            if u.properties.generalCategory == .nonspacingMark { continue }
            if let folded = fold(u) { current += folded.utf8 } else { flush() }
        }
        flush()
        // a name of single letters only ("P&P", "A & O") is one word of them
        if !raw.isEmpty, raw.allSatisfy({ $0.count == 1 && !isNumeric($0) }) { return [raw.joined()] }
        var out = [String]()
        var i = 0
        while i < raw.count {
            let w = raw[i]
            if w.count == 1, !isNumeric(w), i + 1 < raw.count, isNumeric(raw[i + 1]) {
                out.append(w + raw[i + 1])
                i += 2
            } else if isNumeric(w), i + 1 < raw.count, raw[i + 1].count == 1, !isNumeric(raw[i + 1]) {
                out.append(w + raw[i + 1])
                i += 2
            } else {
                if w.count >= 2 || isNumeric(w) { out.append(w) }
                i += 1
            }
        }
        return out
    }

    /// Folds one scalar: its lower-case base letters or digit, or nil where it separates terms.
    /// (ASCII is folded in `words`, byte by byte, before it gets here.)
    static func fold(_ u: Unicode.Scalar) -> String? {
        let v = u.value
        if let special = specials[v] { return special }
        guard u.properties.isAlphabetic || u.properties.numericType != nil else { return nil }
        // decompose (é → e + ◌́) and keep the base letters
        var base = ""
        for s in String(u).decomposed.unicodeScalars where !(0x300...0x36F).contains(s.value) {
            base.unicodeScalars.append(s)
        }
        return base.lowercased()
    }

    /// Letters Unicode does not decompose into a base letter, as their usual Latin spelling.
    static let specials: [UInt32: String] = [
        0xDF: "ss", 0x1E9E: "ss", 0xE6: "ae", 0xC6: "ae", 0x153: "oe", 0x152: "oe", 0xF8: "o", 0xD8: "o",
        0x142: "l", 0x141: "l", 0x111: "d", 0x110: "d", 0xF0: "d", 0xD0: "d", 0xFE: "th", 0xDE: "th",
        0x131: "i",
    ]

    /// A folded word in its short form ("strasse" → "str", "hauptstrasse" → "hauptstr").
    public static func canonical(_ word: String) -> String {
        if let short = abbreviations[word] { return short }
        for (suffix, short) in compoundSuffixes where word.count > suffix.count + 2 && word.hasSuffix(suffix) {
            return String(word.dropLast(suffix.count)) + short
        }
        return word
    }

    /// What a typed word may stand for when its German ending has one typo ("hauptstrase",
    /// "zeppelinftrasse", "bergtrasse", "straeß"): the short forms of every split of the word into
    /// a stem and an ending one edit from "strasse" (or "straße", ß one letter) or "platz". The
    /// typo-tolerant match cannot find these itself: "hauptstrase" is three edits from "hauptstr".
    public static func endingTypoForms(_ word: String) -> [String] {
        guard canonical(word) == word else { return [] }  // the ending is spelt right
        let w = Array(word.utf8)
        var out = [String]()
        for (endings, short) in typoEndings {
            for ending in endings {
                let e = Array(ending.utf8)
                for tail in (e.count - 1)...(e.count + 2) where w.count >= tail {
                    let stem = w.dropLast(tail)
                    guard stem.isEmpty || stem.count >= 3 else { continue }
                    var t = Array(w.suffix(tail))
                    if ending == "strase" { t = collapsed(t) }
                    if TermDistance.withinOne(t, e) {
                        let form = String(decoding: stem, as: UTF8.self) + short
                        if !out.contains(form) { out.append(form) }
                    }
                }
            }
        }
        return out
    }

    static let typoEndings: [([String], String)] = [(["strasse", "strase"], "str"), (["platz"], "pl")]

    /// "ss" as "s" (ß folded to two letters counts as one letter for a typo).
    static func collapsed(_ t: [UInt8]) -> [UInt8] {
        var out = [UInt8]()
        for c in t where !(c == 0x73 && out.last == 0x73) { out.append(c) }
        return out
    }

    /// Whole words and their short forms (the short form maps to itself implicitly).
    static let abbreviations: [String: String] = [
        // German
        "strasse": "str", "platz": "pl", "sankt": "st", "doktor": "dr", "professor": "prof",
        // English
        "street": "st", "saint": "st", "avenue": "av", "ave": "av", "road": "rd", "drive": "dr", "lane": "ln",
        "boulevard": "bd", "blvd": "bd", "bvd": "bd", "square": "sq", "place": "pl", "doctor": "dr",
        // French, Catalan, Spanish, Italian
        "avinguda": "av", "avenida": "av", "avda": "av", "avgda": "av", "route": "rte", "chemin": "ch",
        "carretera": "ctra", "placa": "pl", "plaza": "pl", "piazza": "pza", "sainte": "ste",
    ]

    /// German compounds end in these ("Hauptstraße", "Bismarckplatz").
    static let compoundSuffixes: [(String, String)] = [("strasse", "str"), ("platz", "pl")]

    /// Spellings of a typed word that mean the same in the data: German umlauts typed as two
    /// letters ("mueller" for "müller", which the map folds to "muller").
    public static func variants(_ term: String) -> [String] {
        guard term.contains("ae") || term.contains("oe") || term.contains("ue") else { return [] }
        var v = term
        for (pair, single) in [("ae", "a"), ("oe", "o"), ("ue", "u")] { v = v.replacing(pair, with: single) }
        return v == term ? [] : [v]
    }

    /// Whether a folded term is a house number or postcode rather than a word ("12", "12a", "3-5" is two terms).
    public static func isNumeric(_ term: String) -> Bool { term.utf8.first.map { $0 >= 0x30 && $0 <= 0x39 } ?? false }
}
