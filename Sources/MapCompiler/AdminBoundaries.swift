import Geo

/// Municipal and district boundaries (boundary=administrative relations of admin_level 7–10),
/// their relations read in a first pass and their outlines in the import's main pass, joined
/// into rings, to say which town and district a
/// search result is in where the map has them ("Larvotto, Monaco"; the nearest place node alone
/// would put Larvotto in Beausoleil, across the border).
struct AdminBoundaries {
    struct Boundary {
        var names: SearchCollector.Names
        var level: Int
        var minLat: Double, maxLat: Double, minLon: Double, maxLon: Double
        /// The rings' edges by band of latitude: a point is tested against the edges of its band
        /// only (a municipality's outline has thousands of points, and every way asks).
        private var bands: [[(Coordinate, Coordinate)]]
        static let bandCount = 64

        init(names: SearchCollector.Names, level: Int, rings: [[Coordinate]]) {
            self.names = names
            self.level = level
            let all = rings.joined()
            minLat = all.map(\.latitude).min() ?? 0
            maxLat = all.map(\.latitude).max() ?? 0
            minLon = all.map(\.longitude).min() ?? 0
            maxLon = all.map(\.longitude).max() ?? 0
            bands = [[(Coordinate, Coordinate)]](repeating: [], count: Self.bandCount)
            for ring in rings {
                for (a, b) in zip(ring, ring.dropFirst()) {
                    for k in band(min(a.latitude, b.latitude))...band(max(a.latitude, b.latitude)) { bands[k].append((a, b)) }
                }
            }
        }

        private func band(_ latitude: Double) -> Int {
            guard maxLat > minLat else { return 0 }
            return min(Self.bandCount - 1, max(0, Int((latitude - minLat) / (maxLat - minLat) * Double(Self.bandCount))))
        }

        /// The middle of its extent (where a town known only by its boundary is shown).
        var centre: Coordinate { Coordinate(latitude: (minLat + maxLat) / 2, longitude: (minLon + maxLon) / 2) }

        /// Even–odd rule: a ray to the east crosses the outline an odd number of times.
        func contains(_ c: Coordinate) -> Bool {
            guard c.latitude >= minLat, c.latitude <= maxLat, c.longitude >= minLon, c.longitude <= maxLon else { return false }
            var inside = false
            for (a, b) in bands[band(c.latitude)]
            where (a.latitude > c.latitude) != (b.latitude > c.latitude)
                && c.longitude < a.longitude + (c.latitude - a.latitude) * (b.longitude - a.longitude) / (b.latitude - a.latitude) {
                inside.toggle()
            }
            return inside
        }
    }

    struct RawRelation { var names: SearchCollector.Names; var level: Int; var outerWays: [Int64]; var innerWays: [Int64] }

    private var wayShapes: [Int64: [Coordinate]] = [:]
    private var relations: [RawRelation] = []
    static let levels = 7...10

    /// The outline ways of the boundaries, as the main pass must deliver them (many carry no tags).
    var memberWays: [Int64] { relations.flatMap { $0.outerWays + $0.innerWays } }

    mutating func add(way: OSMWay, points: [Coordinate]) {
        if points.count == way.nodeIDs.count, wanted.contains(way.id) { wayShapes[way.id] = points }
    }

    /// Whether a way is the outline of a boundary.
    func wants(_ way: Int64) -> Bool { wanted.contains(way) }

    /// Reads the boundary relations in a relations-only pass before the import's main pass: their
    /// member ways come before them in a file, and most carry no tags to be recognised by.
    static func read(_ path: String) throws -> AdminBoundaries {
        var b = AdminBoundaries()
        var handlers = OSMReader.Handlers()
        handlers.relationsOnly = true
        handlers.relationKeys = ["boundary"]
        handlers.relation = { b.add(relation: $0) }
        try OSMReader.read(path: path, handlers: handlers)
        b.wanted = Set(b.memberWays)
        return b
    }

    private var wanted = Set<Int64>()

    mutating func add(relation r: OSMRelation) {
        guard r.tags["boundary"] == "administrative", let level = r.tags["admin_level"].flatMap({ Int($0) }), Self.levels.contains(level),
              let names = SearchCollector.names(r.tags) else { return }
        let ways = r.members.filter { $0.type == "w" }
        relations.append(RawRelation(names: names, level: level, outerWays: ways.filter { $0.role == "outer" || $0.role.isEmpty }.map(\.ref),
                                     innerWays: ways.filter { $0.role == "inner" }.map(\.ref)))
    }

    /// The boundaries whose outer ways the file holds and that close into rings (a boundary cut
    /// by the extract's edge is left out: half a town would claim what lies beyond it), with
    /// their inner rings where those close too: the even-odd test leaves an enclave out of the
    /// town around it.
    func assembled() -> [Boundary] {
        var out = [Boundary]()
        for r in relations {
            guard let outer = rings(r.outerWays), !outer.isEmpty else { continue }
            out.append(Boundary(names: r.names, level: r.level, rings: outer + (rings(r.innerWays) ?? [])))
        }
        return out
    }

    /// Ways joined end to end into closed rings; nil when one is missing or a ring stays open.
    private func rings(_ ways: [Int64]) -> [[Coordinate]]? {
        var pieces = ways.compactMap { wayShapes[$0] }
        guard pieces.count == ways.count else { return nil }
        var rings = [[Coordinate]]()
        while var ring = pieces.popLast() {
            while ring.first != ring.last {
                guard let k = pieces.firstIndex(where: { $0.first == ring.last || $0.last == ring.last }) else { break }
                let next = pieces.remove(at: k)
                ring += (next.first == ring.last ? next : next.reversed()).dropFirst()
            }
            guard ring.count >= 4, ring.first == ring.last else { return nil }
            rings.append(ring)
        }
        return rings
    }
}
