import Geo
import MapData

/// One answer to a search.
public struct SearchResult: Sendable, Equatable {
    public enum Kind: String, Sendable { case address, street, place, poi }
    public var kind: Kind
    /// Where it is (the house, the street's middle, the place's node, the POI).
    public var coordinate: Coordinate
    /// How it is shown: "Hauptstraße 12, Altstadt, Heidelberg".
    public var label: String
    /// How well the text matched (about 0…1.3; higher is better).
    public var score: Double
    public var category: SearchCategory
    /// Metres from the point the search was made near (nil when none was given).
    public var distanceMeters: Double?
    /// How important it is (a city over a hamlet, a main road over a lane): SearchObject.rank.
    public var importance: Int
}

/// Why a search gave no answer list.
public enum SearchError: Error, CustomStringConvertible, Equatable {
    case noIndex(path: String)
    case emptyQuery
    case tooLong(characters: Int)

    public var description: String {
        switch self {
        case let .noIndex(path): return "\(path) has no search index (it was imported before search existed): import it again with `tern import`"
        case .emptyQuery: return "nothing to search for: type a street, address, place or POI (e.g. find hauptstr 12 heidelberg)"
        case let .tooLong(n): return "a search is at most \(Geocoder.maxCharacters) characters (got \(n))"
        }
    }
}

/// Finds addresses, streets, places and POIs in a map's search index by text as people type it
/// (folding and abbreviations: SearchText; prefixes and one typo: SearchQuery). Ranked by how
/// well the text matches, then how important the thing is, then how near.
public struct Geocoder: Sendable {
    public let map: RoadMap
    public static let maxCharacters = 200
    /// A word listed under more objects than this does not start candidates ("str"); it still counts.
    static let commonWordPostings = 20_000

    /// Results scoring this much below the best are not listed.
    static let worseThanBest = 0.45

    /// The map's terms by their length in bytes (category terms left out): a typo keeps a word's
    /// length within one, so the typo-tolerant match reads a few lengths, not the dictionary.
    let termsByLength: [[UInt32]]
    static let longestTerm = 64

    public init(map: RoadMap) throws {
        guard map.hasSearchIndex else { throw SearchError.noIndex(path: map.path) }
        self.map = map
        var byLength = [[UInt32]](repeating: [], count: Self.longestTerm + 1)
        for t in 0..<map.searchTermCount {
            let bytes = map.searchTermBytes(t)
            if bytes.count <= Self.longestTerm, bytes.first != 0x40 { byLength[bytes.count].append(UInt32(t)) }
        }
        termsByLength = byLength
    }

    public func search(_ text: String, near: Coordinate? = nil, limit: Int = 5) throws -> [SearchResult] {
        let n = text.count
        if n > Self.maxCharacters { throw SearchError.tooLong(characters: n) }
        let query = SearchQuery(text, map: map, termsByLength: termsByLength)
        guard query.words.contains(where: { !$0.isNumber }) else { throw SearchError.emptyQuery }
        var scored = [SearchResult]()
        for o in candidates(query) {
            if let r = score(Int(o), query, near: near) { scored.append(r) }
        }
        return Self.ranked(scored, limit: limit)
    }

    /// POIs of a category nearest to a point (within `radiusMeters`), nearest first.
    public func nearest(_ category: SearchCategory, to c: Coordinate, radiusMeters: Double = 50_000, limit: Int = 5) -> [SearchResult] {
        guard c.isValid, let t = map.searchTerm(exactly: Array(category.indexTerm.utf8)) else { return [] }
        var out = [SearchResult]()
        for o in map.searchPostings(t) {
            let obj = map.searchObject(Int(o))
            let d = c.distance(to: obj.coordinate)
            if d <= radiusMeters { out.append(result(obj, number: nil, score: 1, distance: d)) }
        }
        return Array(out.sorted { $0.distanceMeters! < $1.distanceMeters! }.prefix(limit))
    }

    /// "Hauptstraße 12, Altstadt" (its district, else its town) for the house number nearest a
    /// point (within 60 m), nil when none.
    public func describe(_ c: Coordinate) -> String? {
        guard let (a, _) = map.nearestAddress(to: c, radiusMeters: 60) else { return nil }
        let street = map.searchObject(Int(a.object))
        return label(street, number: map.name(a.numberID), places: 1)
    }

    // MARK: candidates and scores

    /// Objects listed under any word's terms, starting from the words that are not too common.
    /// A word too common to start from ("hauptstr" on a country's map) still brings its objects
    /// that lie in a town or district another word names.
    private func candidates(_ q: SearchQuery) -> Set<UInt32> {
        let words = q.words.filter { !$0.matches.isEmpty }
        guard !words.isEmpty else { return [] }
        var starters = words.indices.filter { words[$0].postings <= Self.commonWordPostings }
        if starters.isEmpty, let rarest = words.indices.min(by: { words[$0].postings < words[$1].postings }) { starters = [rarest] }
        var out = Set<UInt32>()
        for k in starters {
            for t in words[k].matches.keys { out.formUnion(map.searchPostings(Int(t))) }
        }
        let places = Set(out.filter { map.searchObject(Int($0)).kind == .place })
        guard !places.isEmpty else { return out }
        for k in words.indices where !starters.contains(k) {
            for t in words[k].matches.keys {
                for o in map.searchPostings(Int(t)) {
                    let obj = map.searchObject(Int(o))
                    if places.contains(obj.city) || places.contains(obj.suburb) { out.insert(o) }
                }
            }
        }
        return out
    }

    /// How well the query describes object `i`, as a result (nil: its name matches nothing).
    private func score(_ i: Int, _ q: SearchQuery, near: Coordinate?) -> SearchResult? {
        let o = map.searchObject(i)
        let terms = map.searchTerms(of: o)
        let nameTerms = terms.prefix(Int(o.nameTermCount))
        var context = Array(terms.dropFirst(Int(o.nameTermCount)))
        for p in [o.city, o.suburb] where p != SearchObject.none {
            let place = map.searchObject(Int(p))
            context += map.searchTerms(of: place).prefix(Int(place.nameTermCount))
        }
        var nameScore = 0.0, contextScore = 0.0, unmatched = 0, words = 0
        var primaryMatched = Set<UInt32>()
        var numbers = [String]()
        // each name term answers one word: in "Straße des 17. Juni 17" the second 17 is the house
        var used = Set<UInt32>()
        for w in q.words {
            var best = 0.0, bestTerm: UInt32?
            for t in nameTerms where !used.contains(t) { if let m = w.matches[t], m > best { best = m; bestTerm = t } }
            if let c = w.category, o.kind == .poi, o.category == c.rawValue { best = 1; bestTerm = nil }
            if best > 0 {
                nameScore += best
                if let t = bestTerm {
                    used.insert(t)
                    if nameTerms.prefix(Int(o.primaryTermCount)).contains(t) { primaryMatched.insert(t) }
                }
                if !w.isNumber { words += 1 }
                continue
            }
            var inContext = 0.0
            for t in context { if let m = w.matches[t] { inContext = max(inContext, m) } }
            if inContext > 0 {
                contextScore += 0.9 * inContext
                if !w.isNumber { words += 1 }
            } else if w.isNumber {
                numbers.append(w.text)
            } else {
                unmatched += 1
                words += 1
            }
        }
        guard nameScore > 0 else { return nil }
        var text = (nameScore + contextScore - Double(unmatched)) / Double(max(1, words))
        if o.primaryTermCount > 0 { text += 0.25 * Double(primaryMatched.count) / Double(o.primaryTermCount) }
        var house: SearchAddress?
        if !numbers.isEmpty {
            let found = address(o, numbers: numbers)
            house = found?.address
            text += house == nil ? -0.15 * Double(numbers.count) : 0.2 - 0.15 * Double(numbers.count - found!.used)
        }
        let at = house?.coordinate ?? o.coordinate
        return result(o, number: house.map { map.name($0.numberID) }, score: text, distance: near.map { $0.distance(to: at) }, at: at)
    }

    /// The house on a street whose number starts as the query's numbers do ("24-26" for "24" or
    /// "24-26", "118/2" for "118 2"), the longest agreement first, and how many numbers it used.
    private func address(_ o: SearchObject, numbers: [String]) -> (address: SearchAddress, used: Int)? {
        guard o.addressCount > 0 else { return nil }
        var best: (address: SearchAddress, used: Int)?, bestScore = 0
        for k in Int(o.addressStart)..<Int(o.addressStart + o.addressCount) {
            let a = map.searchAddress(k)
            let stored = SearchText.terms(map.name(a.numberID))
            guard stored.first == numbers[0] else { continue }
            var used = 1
            while used < min(stored.count, numbers.count), stored[used] == numbers[used] { used += 1 }
            // a number that is exactly the query's beats one that only starts with it
            let score = used * 2 + (stored.count == used ? 1 : 0)
            if score > bestScore { best = (a, used); bestScore = score }
        }
        return best
    }

    private func result(_ o: SearchObject, number: String?, score: Double, distance: Double?, at: Coordinate? = nil) -> SearchResult {
        let kind: SearchResult.Kind = number != nil ? .address : o.kind == .street ? .street : o.kind == .place ? .place : .poi
        return SearchResult(kind: kind, coordinate: at ?? o.coordinate, label: label(o, number: number), score: score,
                            category: o.kind == .poi ? SearchCategory(rawValue: o.category) ?? .none : .none, distanceMeters: distance,
                            importance: Int(o.rank))
    }

    /// Name, house number, then the suburb and town it is in (each once; at most `places` of them).
    func label(_ o: SearchObject, number: String?, places: Int = 2) -> String {
        var parts = [map.name(o.labelID) + (number.map { " \($0)" } ?? "")]
        if o.kind == .poi, let c = SearchCategory(rawValue: o.category), c != .none, !parts[0].lowercased().contains(c.word) {
            parts[0] += " (\(c.word))"
        }
        for p in [o.suburb, o.city] where p != SearchObject.none && parts.count <= places {
            let name = map.name(map.searchObject(Int(p)).labelID)
            if !parts.contains(name) { parts.append(name) }
        }
        return parts.joined(separator: ", ")
    }

    /// Best first: text score (in steps of 0.05), then importance (in steps of 10), then distance; the same
    /// label within 200 m of a better one is dropped (a street split in two stretches).
    static func ranked(_ results: [SearchResult], limit: Int) -> [SearchResult] {
        // a result far worse than the best matched only a common word ("str") of the query
        let best = results.map(\.score).max() ?? 0
        let sorted = results.filter { $0.score >= best - Self.worseThanBest }.sorted { a, b in
            let sa = (a.score * 20).rounded(), sb = (b.score * 20).rounded()
            if sa != sb { return sa > sb }
            if a.importance / 10 != b.importance / 10 { return a.importance > b.importance }
            let da = a.distanceMeters ?? 0, db = b.distanceMeters ?? 0
            if da != db { return da < db }
            // (the candidates come from a Set, whose order changes from run to run: equal answers
            // are put in a fixed order so the same query gives the same list every time)
            if a.label != b.label { return a.label < b.label }
            if a.coordinate.latitude != b.coordinate.latitude { return a.coordinate.latitude < b.coordinate.latitude }
            return a.coordinate.longitude < b.coordinate.longitude
        }
        var out = [SearchResult]()
        for r in sorted where !out.contains(where: { $0.label == r.label && $0.coordinate.distance(to: r.coordinate) < 200 }) {
            out.append(r)
            if out.count == limit { break }
        }
        return out
    }
}
