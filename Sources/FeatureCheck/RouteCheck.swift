import FoundationEssentials
import Glibc
import Platform
import Geo
import Guidance
import MapCompiler
import MapData
import Routing

/// Checks one row of a `When I route I should get` table.
struct RouteCheck {
    let state: ScenarioState
    let map: RoadMap
    let scenarioMap: ScenarioMap

    /// The expectation columns Tern compares; others (lanes, intersections, bearings, ...) are
    /// reported as not checked, and the row is judged on the rest.
    static let supported: Set<String> = ["from", "to", "waypoints", "bearings", "route", "turns", "time", "distance", "speed", "locations",
                                         "#", "modes", "ref"]

    /// A `bearings` cell, one entry per waypoint apart by spaces (or ";"), each "bearing,range" or
    /// empty: the first waypoint's is the direction to start in, the last one's the direction to
    /// arrive in (OSRM's bearings parameter; Tern keeps a direction within 90° of it where the
    /// road goes both ways, whatever the range, except that a range of 180° allows every direction).
    static func bearings(_ cell: String?) -> (start: Double?, end: Double?) {
        guard let cell, !cell.isEmpty else { return (nil, nil) }
        let entries = cell.split(omittingEmptySubsequences: false, whereSeparator: { $0 == " " || $0 == ";" })
        func bearing(_ e: Substring?) -> Double? {
            guard let parts = e?.split(separator: ","), let b = parts.first.flatMap({ Double($0) }) else { return nil }
            if parts.count > 1, let range = Double(parts[1]), range >= 180 { return nil }
            return b
        }
        return (bearing(entries.first), entries.count > 1 ? bearing(entries.last) : nil)
    }

    /// A `radiuses` option, one entry per waypoint apart by ";": metres, or "unlimited"/empty (nil).
    static func radii(_ value: String?) -> [Double?] {
        guard let value else { return [] }
        return value.split(separator: ";", omittingEmptySubsequences: false).map { Double($0.trimmed()) }
    }

    /// The columns of a row Tern does not compare.
    static func unchecked(_ row: Row, lanes: Bool = false) -> [String] {
        row.columns.filter { !supported.contains($0) && !$0.isEmpty && !(lanes && $0 == "lanes") }
    }

    /// The lanes of a step's first intersection in a `lanes` cell: the cell lists each
    /// intersection's lanes, apart by ";" (which also joins a lane's arrows: "straight;right:true"),
    /// so the first intersection ends at the first ";" after a lane's ":true" or ":false".
    static func firstIntersectionLanes(_ cell: String) -> String {
        let c = cell.trimmed()
        if c.hasPrefix(";") { return "" }
        var lanes = [String]()
        for token in c.split(separator: " ") {
            if let r = token.firstMatch(of: /:(true|false);/) {
                lanes.append(String(token[..<r.range.lowerBound]) + ":" + r.output.1)
                break
            }
            lanes.append(String(token))
        }
        return lanes.joined(separator: " ")
    }

    /// nil when the row passes, else why not.
    func check(_ row: Row) -> String? {
        var names: [String] = []
        if let w = row["waypoints"] { names = w.split(separator: ",").map { $0.trimmed() } } else {
            if let f = row["from"] { names.append(f) }
            if let t = row["to"] { names.append(t) }
        }
        var points = [Coordinate]()
        for n in names {
            guard let c = scenarioMap.nodes[n] else { return "unknown waypoint \(n)" }
            points.append(c)
        }
        let checked: Set<String> = ["route", "turns", "time", "distance", "speed", "locations", "modes", "ref"]
        if !row.columns.contains(where: { checked.contains($0) }) {
            return "nothing Tern checks in this row (columns \(RouteCheck.unchecked(row).joined(separator: ", ")))"
        }
        let expectRoute = row["route"] ?? "x"
        let route: Route
        do {
            let b = RouteCheck.bearings(row["bearings"] ?? state.queryOptions["bearings"])
            let router = Router(map: map)
            router.snapToAnyRoad = state.queryOptions["snapping"] == "any"
            route = try router.route(points, headingDegrees: b.start, arrivalHeadingDegrees: b.end,
                                     radiiMeters: RouteCheck.radii(state.queryOptions["radiuses"]))
        } catch {
            return expectRoute.isEmpty ? nil : "no route (\(error)), expected \(expectRoute)"
        }
        let builder = ManeuverBuilder(map: map)
        var steps = [Maneuver]()
        for (i, leg) in route.legs.enumerated() { steps += builder.maneuvers(for: leg, destination: points[i + 1]) }
        ScenarioDump.record(state: state, row: row, points: points, steps: steps)
        if expectRoute.isEmpty { return "found a route (\(steps.map(\.street).joined(separator: ","))), expected none" }
        var problems = [String]()
        if let want = row["route"] {
            let got = steps.map(\.street).joined(separator: ",")
            if got != want { problems.append("route \(got), expected \(want)") }
        }
        if let want = row["turns"], !want.isEmpty {
            let got = steps.map(\.osrmTurn).joined(separator: ",")
            if got != want { problems.append("turns \(got), expected \(want)") }
        }
        if state.compareLanes, let want = row["lanes"], !want.isEmpty {
            let wanted = want.split(separator: ",", omittingEmptySubsequences: false).map { RouteCheck.firstIntersectionLanes(String($0)) }
            let got = steps.map { $0.lanes.map(\.osrmText).joined(separator: " ") }
            if got != wanted {
                problems.append("lanes \(got.joined(separator: ",")), expected \(wanted.joined(separator: ","))")
            }
        }
        if let want = row["ref"] {
            // a road's refs as OSRM writes them, "I 80; CO 93" (the map keeps the tag's "I 80;CO 93")
            func canonical(_ refs: String) -> String {
                RouteRelations.joined(RouteRelations.refList(refs))
            }
            let got = steps.map { canonical($0.ref) }.joined(separator: ",")
            let wanted = want.split(separator: ",", omittingEmptySubsequences: false).map { canonical(String($0)) }.joined(separator: ",")
            if got != wanted { problems.append("ref \(got), expected \(want)") }
        }
        if let want = row["modes"], !want.isEmpty {
            let got = steps.map { $0.onFerry ? "ferry" : "driving" }
            if got.joined(separator: ",") != want { problems.append("modes \(got.joined(separator: ",")), expected \(want)") }
        }
        if let want = row["locations"], !want.isEmpty {
            let got = steps.map { m -> String in
                scenarioMap.nodeOrder.first {
                    !scenarioMap.locationsOnly.contains($0) && scenarioMap.nodes[$0]!.distance(to: m.location) < state.grid / 4
                } ?? "_"
            }.joined(separator: ",")
            if got != want { problems.append("locations \(got), expected \(want)") }
        }
        let duration = (route.durationSeconds * 10).rounded() / 10
        if let want = row["time"], !want.isEmpty, !Fuzzy.matches(duration, want, unit: "s") {
            problems.append("time \(Fuzzy.format(duration))s, expected \(want)")
        }
        if let want = row["distance"], !want.isEmpty, !Fuzzy.matches(route.distanceMeters.rounded(), want, unit: "m") {
            problems.append("distance \(Int(route.distanceMeters.rounded()))m, expected \(want)")
        }
        if let want = row["speed"], !want.isEmpty {
            let speed = route.durationSeconds > 0 ? (3.6 * route.distanceMeters / route.durationSeconds).rounded() : 0
            if !Fuzzy.matches(speed, want, unit: "km/h") { problems.append("speed \(Int(speed)) km/h, expected \(want)") }
        }
        return problems.isEmpty ? nil : problems.joined(separator: "; ")
    }
}

/// OSRM's cucumber comparisons: exact, `X +-M`, `X ~P%`.
enum Fuzzy {
    static func matches(_ value: Double, _ expected: String, unit: String) -> Bool {
        let e = expected.trimmed()
        if let m = e.firstMatch(of: /^([-\d.]+)\s*([a-z\/]*)\s*\+-\s*([\d.]+)/), let x = Double(m.1), let tol = Double(m.3) {
            return abs(value - x) <= tol + 1e-9
        }
        if let m = e.firstMatch(of: /^([-\d.]+)\s*([a-z\/]*)\s*~\s*([\d.]+)%/), let x = Double(m.1), let p = Double(m.3) {
            return abs(value - x) <= abs(x) * p / 100 + 1e-9
        }
        if let m = e.firstMatch(of: /^([-\d.]+)\s*([a-z\/]*)$/), let x = Double(m.1) {
            return abs(value - x) < 0.05
        }
        return false
    }

    static func format(_ v: Double) -> String {
        v == v.rounded() ? String(Int(v)) : String(printf: "%.1f", v)
    }
}
