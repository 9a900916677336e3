import Geo
import MapData
import Search

/// Builds the search sections from what the import gathered (SearchCollector):
/// - a street is every way of one name that touches the next (one object per stretch, so the
///   "Hauptstraße" of two villages are two results);
/// - each house number joins the nearest street object of its addr:street name, or a street made
///   from the numbers themselves where no way carries the name (addr:place, unmapped lanes);
/// - every object is "in" a town and a district (Whereabouts: its municipal boundary, else the
///   place node nearest relative to how far that kind of place reaches, the is_in rule);
/// - terms are SearchText's, postings list the objects whose names hold each term.
enum SearchIndexBuilder {
    /// Pieces of an object before its terms have ids.
    struct Pending {
        var object: SearchObject
        var nameTerms: [String] = []
        var primaryTerms = 0
        var contextTerms: [String] = []
        var numbers: [(Coordinate, String)] = []
    }

    static func build(_ collector: SearchCollector, names: inout [String]) -> SearchTables {
        var nameIDs = [String: UInt32]()
        for (i, n) in names.enumerated() where nameIDs[n] == nil { nameIDs[n] = UInt32(i) }
        func nameID(_ s: String) -> UInt32 {
            if let id = nameIDs[s] { return id }
            let id = UInt32(names.count)
            names.append(s)
            nameIDs[s] = id
            return id
        }
        var pending = [Pending]()
        func add(_ kind: SearchObject.Kind, at c: Coordinate, names n: SearchCollector.Names, category: UInt8, rank: UInt8,
                 extra: [String] = []) {
            var p = Pending(object: SearchObject(coordinate: c, labelID: nameID(n.primary), kind: kind, category: category, rank: rank))
            p.nameTerms = SearchText.terms(n.primary)
            p.primaryTerms = p.nameTerms.count
            for o in n.others { p.nameTerms += SearchText.terms(o) }
            p.nameTerms += extra
            pending.append(p)
        }

        // places first: objects point at their town and suburb by index
        var seenPlaces = [String: [Coordinate]]()
        for pl in collector.places {
            let key = "\(pl.kind.rawValue) \(pl.names.primary)"
            if seenPlaces[key, default: []].contains(where: { $0.distance(to: pl.coordinate) < 1000 }) { continue }
            seenPlaces[key, default: []].append(pl.coordinate)
            add(.place, at: pl.coordinate, names: pl.names, category: pl.kind.rawValue, rank: pl.kind.rank)
        }
        // a boundary is its place node where one of its name lies in it, else a place of its own
        let nodePlaceCount = pending.count
        let boundaries = collector.boundaries.assembled()
        var placesByName = [[String]: [Int]]()
        for k in pending.indices { placesByName[Array(pending[k].nameTerms.prefix(pending[k].primaryTerms)), default: []].append(k) }
        var boundaryPlace = [Int]()
        for b in boundaries {
            if let k = placesByName[SearchText.terms(b.names.primary)]?.first(where: { b.contains(pending[$0].object.coordinate) }) {
                boundaryPlace.append(k)
            } else {
                let cls: PlaceClass = b.level <= 8 ? .town : .suburb
                boundaryPlace.append(pending.count)
                add(.place, at: b.centre, names: b.names, category: cls.rawValue, rank: cls.rank)
            }
        }
        let placeCount = pending.count
        // where things are (the town splits a road through several into one street per town)
        // (by node, places from nodes only: a boundary's own place is found by its boundary)
        let placeNodes = Set(0..<placeCount).subtracting(boundaryPlace.filter { $0 >= nodePlaceCount })
        let whereabouts = Whereabouts(places: placeNodes.sorted().compactMap { i in
            PlaceClass(rawValue: pending[i].object.category).map { (i, pending[i].object.coordinate, $0) }
        }, boundaries: zip(boundaries, boundaryPlace).map { ($0, $1) }, addresses: collector.addresses)

        // streets: ways of one name in one town that touch (share a ~250 m cell) are one street
        let streets = StreetClusters(collector.streets, town: whereabouts.town)
        let firstStreet = pending.count
        for s in streets.clusters {
            add(.street, at: s.point, names: s.names, category: 0, rank: s.rank)
        }
        // house numbers: to the nearest street of their name within 1 km (in their own town if it
        // has one there), else to a street made of them
        var orphans = [String: [SearchCollector.RawAddress]]()
        for a in collector.addresses {
            let key = SearchText.terms(a.street).joined(separator: " ")
            guard !key.isEmpty else { continue }
            if let s = streets.nearest(key: key, to: a.coordinate, within: 1000, town: whereabouts.town(a.coordinate)) {
                pending[firstStreet + s].numbers.append((a.coordinate, a.number))
                addContext(a, to: &pending[firstStreet + s])
            } else {
                orphans[key, default: []].append(a)
            }
        }
        for (_, list) in orphans.sorted(by: { $0.key < $1.key }) {
            for group in proximityGroups(list, meters: 500) {
                let c = SearchCollector.centroid(group.map(\.coordinate))
                add(.street, at: c, names: .init(primary: group[0].street, others: []), category: 0, rank: 40)
                for a in group {
                    pending[pending.count - 1].numbers.append((a.coordinate, a.number))
                    addContext(a, to: &pending[pending.count - 1])
                }
            }
        }

        // POIs: one per name and category within 50 m (a node inside its own outline is one
        // place), found among the POIs of the ~100 m cells around (unnamed parkings number thousands)
        var seenPOIs = [String: [Coordinate]]()
        for poi in collector.pois {
            let names = poi.names ?? .init(primary: poi.category.word.prefix(1).uppercased() + poi.category.word.dropFirst(), others: [])
            let key = "\(poi.category.rawValue) \(names.primary)"
            let cell = PlaceGrid.key(poi.coordinate, 0.001)
            let around = [-1, 0, 1].flatMap { dy in [-1, 0, 1].map { dx in cell + Int64(dy) << 32 + Int64(dx) } }
            if around.contains(where: { seenPOIs["\(key) \($0)"]?.contains { $0.distance(to: poi.coordinate) < 50 } == true }) { continue }
            seenPOIs["\(key) \(cell)", default: []].append(poi.coordinate)
            add(.poi, at: poi.coordinate, names: names, category: poi.category.rawValue, rank: 65,
                extra: poi.category == .none ? [] : [poi.category.indexTerm])
            pending[pending.count - 1].contextTerms = Array(SearchText.terms(poi.town).prefix(12))
        }

        // where each object is
        for i in pending.indices {
            let own = i < placeCount ? PlaceClass(rawValue: pending[i].object.category) : nil
            let w = whereabouts.locate(pending[i].object.coordinate, object: i, ownClass: own)
            pending[i].object.city = w.city.map(UInt32.init) ?? SearchObject.none
            pending[i].object.suburb = w.suburb.map(UInt32.init) ?? SearchObject.none
            if w.city == nil, own == nil, pending[i].contextTerms.isEmpty, let town = w.neighboursTown {
                pending[i].contextTerms = SearchText.terms(town)
            }
        }
        return tables(pending, nameID: nameID)
    }

    /// addr:city and addr:postcode of a street's numbers are words that may follow its name.
    static func addContext(_ a: SearchCollector.RawAddress, to p: inout Pending) {
        for text in [a.city, a.postcode] where !text.isEmpty && p.contextTerms.count < 12 {
            for t in SearchText.terms(text) where !p.contextTerms.contains(t) { p.contextTerms.append(t) }
        }
    }

    /// Terms given ids in byte order, postings and records.
    static func tables(_ pending: [Pending], nameID: (String) -> UInt32) -> SearchTables {
        var all = Set<String>()
        for p in pending { all.formUnion(p.nameTerms); all.formUnion(p.contextTerms) }
        var t = SearchTables()
        t.terms = all.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        var termID = [String: UInt32]()
        for (i, s) in t.terms.enumerated() { termID[s] = UInt32(i) }
        t.postings = [[UInt32]](repeating: [], count: t.terms.count)
        for (i, var p) in pending.enumerated() {
            var seen = Set<String>()
            let nameTerms = p.nameTerms.filter { seen.insert($0).inserted }.prefix(255)
            let primary = min(p.primaryTerms, Set(p.nameTerms.prefix(p.primaryTerms)).count)
            let context = p.contextTerms.filter { !seen.contains($0) }
            p.object.termStart = UInt32(t.objectTerms.count)
            p.object.nameTermCount = UInt8(nameTerms.count)
            p.object.primaryTermCount = UInt8(min(primary, nameTerms.count))
            p.object.termCount = UInt16(nameTerms.count + context.count)
            for s in nameTerms {
                t.objectTerms.append(termID[s]!)
                t.postings[Int(termID[s]!)].append(UInt32(i))
            }
            for s in context { t.objectTerms.append(termID[s]!) }
            p.object.addressStart = UInt32(t.addresses.count)
            var kept = [(Coordinate, String)]()
            for (c, n) in p.numbers.sorted(by: { $0.1 < $1.1 }) where !kept.contains(where: { $0.1 == n && $0.0.distance(to: c) < 40 }) {
                kept.append((c, n))
                t.addresses.append(SearchAddress(coordinate: c, numberID: nameID(n), object: UInt32(i)))
            }
            p.object.addressCount = UInt32(kept.count)
            t.objects.append(p.object)
        }
        return t
    }

    /// Groups house numbers of one street name: each joins the first group that has one within
    /// `meters` of it, else starts a group (numbers of one name without a street are few).
    static func proximityGroups(_ items: [SearchCollector.RawAddress], meters: Double) -> [[SearchCollector.RawAddress]] {
        var groups = [[SearchCollector.RawAddress]]()
        for a in items {
            if let g = groups.firstIndex(where: { $0.contains { $0.coordinate.distance(to: a.coordinate) < meters } }) {
                groups[g].append(a)
            } else {
                groups.append([a])
            }
        }
        return groups
    }
}
