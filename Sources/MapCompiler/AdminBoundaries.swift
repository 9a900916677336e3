import Geo

/// Municipal and district boundaries (boundary=administrative relations of admin_level 7–10),
/// read during the import's one pass and joined into rings, to say which town and district a
/// search result is in where the map has them ("Larvotto, Monaco"; the nearest place node alone
/// would put Larvotto in Beausoleil, across the border).
struct AdminBoundaries {
    struct Boundary {
        var names: SearchCollector.Names
        var level: Int
        var rings: [[Coordinate]]
        var minLat: Double, maxLat: Double, minLon: Double, maxLon: Double

        /// The middle of its extent (where a town known only by its boundary is shown).
        var centre: Coordinate { Coordinate(latitude: (minLat + maxLat) / 2, longitude: (minLon + maxLon) / 2) }

        func contains(_ c: Coordinate) -> Bool {
            guard c.latitude >= minLat, c.latitude <= maxLat, c.longitude >= minLon, c.longitude <= maxLon else { return false }
            var inside = false
            for ring in rings {
                var j = ring.count - 1
                for i in ring.indices {
                    let a = ring[i], b = ring[j]
                    if (a.latitude > c.latitude) != (b.latitude > c.latitude),
                       c.longitude < a.longitude + (c.latitude - a.latitude) * (b.longitude - a.longitude) / (b.latitude - a.latitude) {
                        inside.toggle()
                    }
                    j = i
                }
            }
            return inside
        }
    }

    struct RawRelation { var names: SearchCollector.Names; var level: Int; var outerWays: [Int64] }

    private var wayShapes: [Int64: [Coordinate]] = [:]
    private var relations: [RawRelation] = []
    static let levels = 7...10

    mutating func add(way: OSMWay, points: [Coordinate]) {
        if way.tags["boundary"] == "administrative", points.count == way.nodeIDs.count { wayShapes[way.id] = points }
    }

    mutating func add(relation r: OSMRelation) {
        guard r.tags["boundary"] == "administrative", let level = r.tags["admin_level"].flatMap({ Int($0) }), Self.levels.contains(level),
              let names = SearchCollector.names(r.tags) else { return }
        let outer = r.members.filter { $0.type == "w" && ($0.role == "outer" || $0.role.isEmpty) }.map(\.ref)
        relations.append(RawRelation(names: names, level: level, outerWays: outer))
    }

    /// The boundaries whose outer ways the file holds and that close into rings (a boundary cut
    /// by the extract's edge is left out: half a town would claim what lies beyond it).
    func assembled() -> [Boundary] {
        var out = [Boundary]()
        for r in relations {
            var pieces = r.outerWays.compactMap { wayShapes[$0] }
            guard pieces.count == r.outerWays.count, !pieces.isEmpty else { continue }
            var rings = [[Coordinate]]()
            while var ring = pieces.popLast() {
                while ring.first != ring.last {
                    guard let k = pieces.firstIndex(where: { $0.first == ring.last || $0.last == ring.last }) else { break }
                    let next = pieces.remove(at: k)
                    ring += (next.first == ring.last ? next : next.reversed()).dropFirst()
                }
                guard ring.count >= 4, ring.first == ring.last else { rings = []; break }
                rings.append(ring)
            }
            guard !rings.isEmpty else { continue }
            let all = rings.joined()
            out.append(Boundary(names: r.names, level: r.level, rings: rings,
                                minLat: all.map(\.latitude).min()!, maxLat: all.map(\.latitude).max()!,
                                minLon: all.map(\.longitude).min()!, maxLon: all.map(\.longitude).max()!))
        }
        return out
    }
}
