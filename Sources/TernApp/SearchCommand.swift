import Dispatch
import FoundationEssentials
import Glibc
import Platform
import Geo
import JSONLines
import MapData
import Search

/// `tern search`: destination search on a map's index, one query or a benchmark file of them.
enum SearchCommand {
    static func run(_ args: [String]) throws -> Int32 {
        let a = try Arguments(args, valued: ["map", "near", "queries", "limit"], switches: ["json"])
        let mapPath = try a.require("map")
        let near = try a.coordinate("near")
        let limit = try a.int("limit", default: 5, range: 1...50)
        if a.value("queries") == nil && a.positional.isEmpty { throw UsageError("search needs TEXT (or --queries Q.json)") }
        let geocoder: Geocoder
        do { geocoder = try Geocoder(map: RoadMap(path: mapPath)) } catch { throw CommandError("\(error)") }
        if let q = a.value("queries") {
            var items = [JSONValue]()
            for (i, query) in try loadQueries(q).enumerated() {
                items.append(answer(id: query.id ?? .int(i), query.text, near: query.near ?? near, limit: limit, geocoder))
            }
            printOut(JSONValue.object([("results", .array(items))]).serialized())
            return 0
        }
        let text = a.positional.joined(separator: " ")
        if a.has("json") {
            let obj = answer(id: .null, text, near: near, limit: limit, geocoder)
            printOut(obj.serialized())
            if case .object(let f) = obj, f.contains(where: { $0.0 == "ok" && $0.1 == .bool(false) }) { return 1 }
            return 0
        }
        let results: [SearchResult]
        do { results = try geocoder.search(text, near: near, limit: limit) } catch { throw CommandError("\(error)") }
        if results.isEmpty { printOut("nothing found for \"\(text)\"") }
        for (i, r) in results.enumerated() { printOut(SearchResultText.line(i + 1, r, from: near)) }
        return 0
    }

    /// One query's answer in the benchmark contract: id, ok, micros, results (or error).
    static func answer(id: JSONValue, _ text: String, near: Coordinate?, limit: Int, _ geocoder: Geocoder) -> JSONValue {
        let t0 = DispatchTime.now().uptimeNanoseconds
        do {
            let results = try geocoder.search(text, near: near, limit: limit)
            let micros = Double(DispatchTime.now().uptimeNanoseconds - t0) / 1000
            let list = results.map { r in
                JSONValue.object([("lat", .num(r.coordinate.latitude, 7)), ("lon", .num(r.coordinate.longitude, 7)),
                                  ("label", .string(r.label)), ("kind", .string(r.kind.rawValue)), ("score", .num(r.score, 3))])
            }
            return .object([("id", id), ("ok", .bool(true)), ("micros", .num(micros, 1)), ("results", .array(list))])
        } catch {
            return .object([("id", id), ("ok", .bool(false)), ("micros", .num(0, 1)), ("error", .string("\(error)"))])
        }
    }

    struct Query { var id: JSONValue?; var text: String; var near: Coordinate? }

    /// Reads `{"queries": [{"id": "q1", "text": "Hauptstr 12, Heidelberg", "near": [lat, lon]}]}`
    /// (other fields, such as a benchmark's truth, are ignored).
    static func loadQueries(_ path: String) throws -> [Query] {
        guard let data = FileManager.default.contents(atPath: path) else { throw CommandError("\(path): cannot read") }
        let root: Any
        do { root = try JSONValue.parse(data) } catch { throw CommandError("\(path): not JSON: \(errorText(error))") }
        guard let d = root as? [String: Any], let list = d["queries"] as? [Any] else {
            throw CommandError("\(path): expected {\"queries\": [{\"id\", \"text\", \"near\"}]}")
        }
        return try list.enumerated().map { i, item in
            guard let q = item as? [String: Any], let text = q["text"] as? String else {
                throw CommandError("\(path): query \(i): expected {\"id\", \"text\": \"...\"}")
            }
            var near: Coordinate?
            if let n = q["near"] {
                guard let l = n as? [Any], l.count >= 2, let lat = JSONValue.double(l[0]), let lon = JSONValue.double(l[1]),
                      Coordinate(latitude: lat, longitude: lon).isValid else {
                    throw CommandError("\(path): query \(i): near: expected [lat, lon]")
                }
                near = Coordinate(latitude: lat, longitude: lon)
            }
            let id: JSONValue? = (q["id"] as? String).map { .string($0) } ?? (q["id"] as? Int).map { .int($0) }
            return Query(id: id, text: text, near: near)
        }
    }
}
