import Geo
import Search

/// Named ways grouped into streets: ways whose folded names are equal, that lie in the same town
/// and that touch or nearly touch (share a cell of about 250 m) are one street. Two "Hauptstraße"
/// in two villages stay two, and a Landstrasse through four villages is four streets, each
/// labelled with its own village.
struct StreetClusters {
    struct Cluster {
        var names: SearchCollector.Names
        var rank: UInt8
        /// Shape points of its ways (house numbers are matched to the nearest).
        var points: [Coordinate]
        /// A point on the street near the middle of it, where a search result for it lies.
        var point: Coordinate
        var town: String
        /// Its extent, degrees (most clusters of a name are ruled out by it without a look at their points).
        var minLat: Double, maxLat: Double, minLon: Double, maxLon: Double
    }

    private(set) var clusters: [Cluster] = []
    /// Clusters by folded name, and by folded name and town.
    private var byKey: [String: [Int]] = [:]
    private var byKeyInTown: [String: [Int]] = [:]
    static let cellDegrees = 0.0025

    init(_ ways: [SearchCollector.RawStreet], town: (Coordinate) -> String) {
        var groups = [String: [Int]]()
        var towns = [String]()
        for (i, w) in ways.enumerated() {
            let key = SearchText.terms(w.names.primary).joined(separator: " ")
            let t = town(w.points[w.points.count / 2])
            towns.append(t)
            if !key.isEmpty { groups[key + "\u{1}" + t, default: []].append(i) }
        }
        for (group, members) in groups.sorted(by: { $0.key < $1.key }) {
            let key = String(group.prefix { $0 != "\u{1}" })
            // union-find over the ways of one name, joined where they share a cell
            var parent = Array(members.indices)
            func root(_ x: Int) -> Int {
                var x = x
                while parent[x] != x { parent[x] = parent[parent[x]]; x = parent[x] }
                return x
            }
            var owner = [Int64: Int]()
            for (k, w) in members.enumerated() {
                for p in ways[w].points {
                    let cell = PlaceGrid.key(p, Self.cellDegrees)
                    if let other = owner[cell] { parent[root(k)] = root(other) } else { owner[cell] = k }
                }
            }
            var byRoot = [Int: [Int]]()
            for k in members.indices { byRoot[root(k), default: []].append(members[k]) }
            for (_, ws) in byRoot.sorted(by: { $0.key < $1.key }) {
                let points = ws.flatMap { ways[$0].points }
                let centre = SearchCollector.centroid(points)
                let point = points.min { $0.distance(to: centre) < $1.distance(to: centre) } ?? centre
                var names = ways[ws[0]].names
                var others = Set(names.others)
                for w in ws.dropFirst() { others.formUnion(ways[w].names.others) }
                names.others = others.sorted()
                byKey[key, default: []].append(clusters.count)
                byKeyInTown[group, default: []].append(clusters.count)
                clusters.append(Cluster(names: names, rank: ws.map { ways[$0].rank }.max() ?? 40, points: points, point: point,
                                        town: towns[ws[0]], minLat: points.map(\.latitude).min()!, maxLat: points.map(\.latitude).max()!,
                                        minLon: points.map(\.longitude).min()!, maxLon: points.map(\.longitude).max()!))
            }
        }
    }

    /// The street of this folded name nearest to `c` within `within` metres, in `town` where one is.
    func nearest(key: String, to c: Coordinate, within: Double, town: String) -> Int? {
        nearest(among: byKeyInTown[key + "\u{1}" + town] ?? [], to: c, within: within)
            ?? nearest(among: byKey[key] ?? [], to: c, within: within)
    }

    private func nearest(among candidates: [Int], to c: Coordinate, within: Double) -> Int? {
        var best: (Int, Double)?
        let ruler = CheapRuler(latitude: c.latitude)
        let dLat = within / ruler.ky, dLon = within / ruler.kx
        for k in candidates {
            let s = clusters[k]
            guard c.latitude >= s.minLat - dLat, c.latitude <= s.maxLat + dLat, c.longitude >= s.minLon - dLon,
                  c.longitude <= s.maxLon + dLon else { continue }
            for p in clusters[k].points {
                let d = ruler.distance(c, p)
                if d <= within, d < (best?.1 ?? .infinity) { best = (k, d) }
            }
        }
        return best?.0
    }
}
