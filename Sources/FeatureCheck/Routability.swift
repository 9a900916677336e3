import FoundationEssentials
import Glibc
import Platform
import Geo
import Guidance
import MapCompiler
import MapData
import Routing

/// Checks a `Then routability should be` table: one way per row, driven from its second to its
/// fourth node and back, compared per direction with `x`, empty, a speed, a time or a rate.
struct Routability {
    let state: ScenarioState

    func check(_ rows: [Row], into result: inout FeatureRunner.FileResult) {
        guard !rows.isEmpty else { return }
        var m = ScenarioMap(ascii: "", columnMeters: state.grid, rowMeters: state.grid, origin: state.origin)
        let projection = LocalProjection(origin: state.origin)
        func point(_ x: Double) -> Coordinate { projection.unproject(LocalPoint(x: x * state.grid, y: 0)) }
        for (i, row) in rows.enumerated() {
            let names = (0..<5).map { "\(["a", "b", "c", "d", "e"][$0])\(i)" }
            for (j, n) in names.enumerated() { m.setNode(n, point(Double(j + 100 * i))) }
            var tags = [(String, String)]()
            var nodeTags = [(String, String)]()
            for (k, v) in row.pairs where !v.isEmpty {
                if ["forw", "backw", "bothw", "#"].contains(k) || k.hasSuffix("_rate") { continue }
                if k.hasPrefix("node/") { nodeTags.append((String(k.dropFirst(5)), v)); continue }
                tags.append((k, v == "\"\"" ? "" : v))
            }
            if row["highway"] == nil { tags.append(("highway", "primary")) }
            tags = tags.filter { $0.1 != "(nil)" }
            tags.append(("name", "w\(i)"))
            if !nodeTags.isEmpty { m.nodeTags[names[2]] = nodeTags }
            m.ways.append(ScenarioMap.Way(nodes: names, tags: tags))
        }
        let map: RoadMap
        do { map = try ScenarioState.compile(m, options: state.options, in: state.workDirectory) } catch {
            result.total += rows.count
            for r in rows { result.failures.append(.init(scenario: state.scenario, line: r.line, reason: "map: \(error)")) }
            return
        }
        let router = Router(map: map)
        for (i, row) in rows.enumerated() {
            result.total += 1
            let b = m.nodes["b\(i)"]!, d = m.nodes["d\(i)"]!
            let forw = drive(router, map, from: b, to: d, name: "w\(i)")
            let backw = drive(router, map, from: d, to: b, name: "w\(i)")
            var problems = [String]()
            for (column, results) in [("forw", [forw]), ("backw", [backw]), ("bothw", [forw, backw])] {
                guard let want = row[column] else { continue }
                for r in results where !Routability.matches(r, want, rate: false) {
                    problems.append("\(column) \(Routability.describe(r)), expected \(want.isEmpty ? "not routable" : want)")
                }
            }
            for (column, r) in [("forw_rate", forw), ("backw_rate", backw)] {
                guard let want = row[column] else { continue }
                if !Routability.matches(r, want, rate: true) {
                    problems.append("\(column) \(r.map { String(printf: "%.1f", $0.rate) } ?? "not routable"), expected \(want.isEmpty ? "not routable" : want)")
                }
            }
            if problems.isEmpty { result.passed += 1 } else {
                result.failures.append(.init(scenario: state.scenario, line: row.line, reason: problems.joined(separator: "; ")))
            }
        }
    }

    struct Drive { var duration: Double; var distance: Double; var weight: Double
        var speed: Double { duration > 0 ? (3.6 * distance / duration).rounded(.down) : 0 }
        var rate: Double { weight > 0 ? (distance / weight * 10).rounded() / 10 : 0 }
    }

    /// A drive counts when it exists and starts on the row's way.
    func drive(_ router: Router, _ map: RoadMap, from: Coordinate, to: Coordinate, name: String) -> Drive? {
        guard let route = try? router.route([from, to]), let leg = route.legs.first, let first = leg.edges.first,
              map.name(map.edge(first.edge).nameID) == name else { return nil }
        // OSRM's API reports distance and duration to a tenth; the harness computes from those
        return Drive(duration: (route.durationSeconds * 10).rounded() / 10, distance: (route.distanceMeters * 10).rounded() / 10,
                     weight: (route.weightSeconds * 10).rounded() / 10)
    }

    static func matches(_ r: Drive?, _ want: String, rate: Bool) -> Bool {
        let w = want.trimmed()
        if w.isEmpty { return r == nil }
        guard let r else { return false }
        if w == "x" { return true }
        if rate {
            guard let x = Double(w) else { return false }
            return abs(r.rate - x) < 0.05
        }
        if w.contains("km/h") { return Fuzzy.matches(r.speed, w, unit: "km/h") }
        if w.hasSuffix("s") || w.contains("s +-") { return Fuzzy.matches(r.duration, w, unit: "s") }
        return false
    }

    static func describe(_ r: Drive?) -> String {
        guard let r else { return "not routable" }
        return "\(Int(r.speed)) km/h (\(Fuzzy.format(r.duration)) s)"
    }
}
