import MapData

/// A typed query as words the map's terms can match: each word with the terms it may stand for
/// (itself, a prefix of, one typo from, an umlaut spelled out) and how well.
struct SearchQuery {
    struct Word {
        var text: String
        var isNumber: Bool
        /// Short forms the word may stand for with a typo in its ending (SearchText.endingTypoForms).
        var endingTypoForms: [String] = []
        /// The category the word names ("tankstelle" → fuel), if any.
        var category: SearchCategory?
        /// Map terms this word matches, with a weight: 1 exact, less for a prefix or a typo.
        var matches: [UInt32: Double] = [:]
        /// Objects listed under all of `matches` (how costly the word is as a starting point).
        var postings = 0
    }

    /// At most this many words are read: a query is a few words, and the rest of a 10 kB paste
    /// would only cost time.
    static let maxWords = 10
    /// At most this many terms a prefix stands for ("st" starts thousands): the shortest come first.
    static let maxPrefixTerms = 400

    var words: [Word] = []

    init(_ text: String, map: RoadMap, termsByLength: [[UInt32]]) {
        let raw = Array(SearchText.words(text).prefix(Self.maxWords))
        let terms = raw.map(SearchText.canonical)
        // category phrases ("gas station") become one word
        var i = 0
        while i < terms.count {
            var merged = false
            for (phrase, category) in SearchCategory.phrases where phrase.count > 0 && i + phrase.count <= terms.count
                && Array(terms[i..<(i + phrase.count)]) == phrase {
                words.append(Word(text: terms[i..<(i + phrase.count)].joined(separator: " "), isNumber: false, category: category))
                i += phrase.count
                merged = true
                break
            }
            if !merged {
                let number = SearchText.isNumeric(terms[i])
                words.append(Word(text: terms[i], isNumber: number, endingTypoForms: number ? [] : SearchText.endingTypoForms(raw[i])))
                i += 1
            }
        }
        for k in words.indices { expand(&words[k], map: map, termsByLength: termsByLength, last: k == words.count - 1) }
    }

    /// Fills a word's matches from the map's terms.
    private func expand(_ w: inout Word, map: RoadMap, termsByLength: [[UInt32]], last: Bool) {
        func add(_ term: Int, _ weight: Double) {
            let id = UInt32(term)
            if weight > (w.matches[id] ?? 0) {
                if w.matches[id] == nil { w.postings += map.searchPostings(term).count }
                w.matches[id] = weight
            }
        }
        if let c = w.category, let t = map.searchTerm(exactly: Array(c.indexTerm.utf8)) { add(t, 1) }
        let spellings = [w.text] + SearchText.variants(w.text)
        for s in spellings {
            let key = Array(s.utf8)
            var t = map.searchTermLowerBound(key)
            // numbers match whole (a house number "1" is not a prefix of "12"); words as prefixes too
            let prefixes = !w.isNumber && key.count >= (last ? 2 : 3)
            var expanded = 0
            while t < map.searchTermCount, expanded < Self.maxPrefixTerms {
                let bytes = map.searchTermBytes(t)
                guard bytes.starts(with: key) else { break }
                if bytes.count == key.count {
                    add(t, 1)
                } else if prefixes {
                    add(t, 0.55 + 0.4 * Double(key.count) / Double(bytes.count))
                    expanded += 1
                } else {
                    break
                }
                t += 1
            }
        }
        for form in w.endingTypoForms {
            if let t = map.searchTerm(exactly: Array(form.utf8)) { add(t, 0.8) }
        }
        // one typo in a word of 5 letters or more that matched nothing, not even as a prefix
        // (a scan of the terms one letter shorter, as long or one longer: Geocoder.termsByLength)
        if !w.isNumber, w.text.utf8.count >= 5, w.matches.isEmpty {
            for s in spellings + w.endingTypoForms {
                let key = Array(s.utf8)
                for length in (key.count - 1)...(key.count + 1) where length < termsByLength.count {
                    for t in termsByLength[length] where TermDistance.withinOne(map.searchTermBytes(Int(t)), key) { add(Int(t), 0.8) }
                }
            }
        }
    }
}
