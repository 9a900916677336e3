import Foundation
import Geo

/// The benchmark queries and the peers' answers in ../shared/data/bench.
public enum BenchQueries {
    public struct Query: Sendable {
        public var id: String
        public var locations: [Coordinate]
    }

    public static func load(_ extract: String) throws -> [Query] {
        let data = try Data(contentsOf: URL(fileURLWithPath: SharedData.path("bench/\(extract)-queries.json")))
        let root = try JSONSerialization.jsonObject(with: data) as? [String: Any]
        let list = root?["queries"] as? [[String: Any]] ?? []
        return list.compactMap { q in
            guard let id = q["id"] as? String, let locs = q["locations"] as? [[Double]] else { return nil }
            return Query(id: id, locations: locs.map { Coordinate(latitude: $0[0], longitude: $0[1]) })
        }
    }

    /// Valhalla's route length per query id, metres.
    public static func valhallaLengths(_ extract: String) throws -> [String: Double] {
        let data = try Data(contentsOf: URL(fileURLWithPath: SharedData.path("bench/valhalla-\(extract).json")))
        let root = try JSONSerialization.jsonObject(with: data) as? [String: Any]
        var out = [String: Double]()
        for r in root?["results"] as? [[String: Any]] ?? [] {
            if let id = r["id"] as? String, let l = r["length_m"] as? Double { out[id] = l }
        }
        return out
    }
}
