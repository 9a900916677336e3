import FoundationEssentials
import Glibc
import Platform
import Geo
import Guidance
import MapCompiler
import MapData
import Routing

/// Runs OSRM `.feature` scenarios through Tern's real import, routing and guidance, and checks
/// the expected routes, turns, times, distances, speeds and routability row by row.
public struct FeatureRunner {
    /// One table row that did not pass, with why.
    public struct Failure: Sendable {
        public var scenario: String
        public var line: Int
        public var reason: String
    }

    public struct FileResult: Sendable {
        public var name: String
        public var passed = 0
        public var total = 0
        public var failures: [Failure] = []
        /// Rows judged on route and turns only, with the expectation columns left unchecked
        /// (lanes, intersections, ...), by column.
        public var unchecked: [String: Int] = [:]
        /// Rows that test something other than a car profile, by what: scenarios of another
        /// profile (bicycle, foot), scenarios fed OSRM's traffic update files (speed and
        /// turn-penalty CSVs given to osrm-contract/customize) or its region polygons (GeoJSON
        /// given to osrm-extract), and travel-time matrices (OSRM's table service, which a
        /// navigator has no use for). Neither passed nor counted in `total`.
        public var notApplicable: [String: Int] = [:]
        /// The rows of scenarios OSRM tags @todo (its own test suite skips them: OSRM does not
        /// pass them either), included in `passed` and `total` and counted here again, so that
        /// a figure without them can be given too.
        public var todoPassed = 0
        public var todoTotal = 0
    }

    let workDirectory: String
    /// Also compare the `lanes` column: the lanes at each step's maneuver (the part before the
    /// first ";", OSRM's first intersection of the step). Off by default: the issue's figure is
    /// route and turns.
    let compareLanes: Bool

    public init(workDirectory: String, compareLanes: Bool = false) {
        self.workDirectory = workDirectory
        self.compareLanes = compareLanes
    }

    public func run(path: String) -> FileResult {
        let name = Paths.droppingExtension(Paths.fileName(path))
        var result = FileResult(name: name)
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
            result.failures.append(Failure(scenario: "", line: 0, reason: "cannot read \(path)"))
            return result
        }
        let feature: FeatureFile
        do { feature = try FeatureFile(text: text, name: name) } catch {
            result.failures.append(Failure(scenario: "", line: 0, reason: "\(error)"))
            return result
        }
        for s in feature.scenarios {
            var state = ScenarioState(workDirectory: workDirectory, file: name, scenario: s.name)
            state.compareLanes = compareLanes
            let (passedBefore, totalBefore) = (result.passed, result.total)
            for step in feature.background + s.steps {
                state.apply(step, into: &result)
            }
            if s.tags.contains("@todo") {
                result.todoPassed += result.passed - passedBefore
                result.todoTotal += result.total - totalBefore
            }
        }
        return result
    }
}

/// The map and settings a scenario builds up step by step.
struct ScenarioState {
    let workDirectory: String
    let file: String
    let scenario: String
    var grid = 100.0
    var origin = Coordinate(latitude: 1, longitude: 1)
    var nodeMap: String?
    var locations: [(String, Coordinate)] = []
    var nodeTags: [String: [(String, String)]] = [:]
    var ways: [ScenarioMap.Way] = []
    var relations: [ScenarioMap.Relation] = []
    var options = ProfileOptions()
    /// `Given the query options`: OSRM request parameters by name (snapping, bearings, radiuses,
    /// and those that shape only the response).
    var queryOptions: [String: String] = [:]
    var parseConditionals = false
    var compareLanes = false
    /// Set by a step Tern does not support: every row after it fails with this reason.
    var unsupported: String?
    /// Set by `Given the profile "bicycle"` or "foot", or by a traffic update file: the
    /// scenario's rows are not applicable, counted under this reason.
    var notApplicable: String?
    var built: (map: RoadMap, scenario: ScenarioMap)?
    /// Where the scenario's OSM file was kept for `TERN_FEATURES_DUMP` (bench/osrm_features.py).
    var dumpedOSM: String?

    init(workDirectory: String, file: String, scenario: String) {
        self.workDirectory = workDirectory
        self.file = file
        self.scenario = scenario
    }

    mutating func apply(_ step: FeatureFile.Step, into result: inout FeatureRunner.FileResult) {
        let t = step.text
        func fail(_ rows: Int, _ why: String) {
            result.total += rows
            for _ in 0..<rows { result.failures.append(.init(scenario: scenario, line: step.line, reason: why)) }
        }
        if t.hasPrefix("the profile \"") {
            if let m = t.firstMatch(of: /^the profile "(bicycle|foot)"$/) {
                notApplicable = String(m.1)
            } else if t != "the profile \"car\"" {
                unsupported = "profile \(t)"
            }
        } else if let m = t.firstMatch(of: /^a grid size of ([\d.]+) meters$/), let g = Double(m.1) {
            grid = g
        } else if let m = t.firstMatch(of: /^the origin ([-\d.]+),\s*([-\d.]+)$/), let lon = Double(m.1), let lat = Double(m.2) {
            origin = Coordinate(latitude: lat, longitude: lon)
        } else if t == "the node map" {
            nodeMap = step.docString ?? ""
        } else if t == "the node locations" {
            for row in rows(step) {
                guard let n = row["node"], let lat = row["lat"].flatMap(Double.init), let lon = row["lon"].flatMap(Double.init) else { continue }
                locations.append((n, Coordinate(latitude: lat, longitude: lon)))
            }
        } else if t == "the nodes" {
            for row in rows(step) {
                guard let n = row["node"] else { continue }
                nodeTags[n, default: []] += row.tags(except: ["node", "id"])
            }
        } else if t == "the ways" {
            for row in rows(step) {
                guard let nodes = row["nodes"] else { continue }
                var tags = row.tags(except: ["nodes"])
                if row["highway"] == nil { tags.append(("highway", "primary")) }
                if row.columns.contains("name") == false { tags.append(("name", nodes)) }
                ways.append(ScenarioMap.Way(nodes: nodes.map { String($0) }, tags: tags.filter { $0.1 != "(nil)" }))
            }
        } else if t == "the relations" {
            for row in rows(step) {
                var members = [(type: String, ref: String, role: String)]()
                var tags = [(String, String)]()
                for (k, v) in row.pairs where !v.isEmpty {
                    let parts = k.split(separator: ":", maxSplits: 1).map(String.init)
                    // members by column: "way:east" (with a role) or "way" (none)
                    if ["way", "node", "relation"].contains(parts[0]) {
                        let role = parts.count == 2 ? parts[1] : ""
                        for ref in v.split(separator: ",") { members.append((parts[0], ref.trimmed(), role)) }
                    } else {
                        tags.append((k, v))
                    }
                }
                relations.append(ScenarioMap.Relation(members: members, tags: tags))
            }
        } else if t == "the query options" {
            for cells in step.table ?? [] where cells.count >= 2 {
                let (key, value) = (cells[0], cells[1])
                switch key {
                case "snapping" where value == "any" || value == "default", "bearings", "radiuses":
                    queryOptions[key] = value
                case "overview", "geometries", "annotations", "steps":
                    break  // the response's form, not the route: nothing Tern's columns see
                default:
                    unsupported = "query option \(key)=\(value)"
                }
            }
        } else if t == "the extract extra arguments \"--parse-conditional-restrictions\"" {
            parseConditionals = true
        } else if let m = t.firstMatch(of: /^the (contract|customize) extra arguments "--time-zone-file=\S*\/(\w+)\.geojson --parse-conditionals-from-now=(\d+)"$/),
                  let at = Double(m.3) {
            // the test time zones: Guinea (GMT all year) and London (GMT, BST in summer)
            guard parseConditionals else { return }
            options.conditionalRestrictionsAt = at
            switch m.2 {
            case "guinea": options.utcOffsetSeconds = 0
            case "london": options.utcOffsetSeconds = ScenarioState.londonOffset(at)
            default: unsupported = "time zone file \(m.2)"
            }
        } else if t.hasPrefix("the profile file \"car\" initialized with") {
            if let why = applyProfileOverrides(step.docString ?? "") { unsupported = why }
        } else if t == "the speed file" || t == "the turn penalty file"
                    || t.firstMatch(of: /^the (contract|customize) extra arguments ".*--(segment-speed-file|turn-penalty-file)/) != nil {
            notApplicable = ScenarioState.trafficFiles
        } else if t.hasPrefix("the extract extra arguments \"--location-dependent-data ") {
            notApplicable = ScenarioState.regionFiles
        } else if t.firstMatch(of: /^I request a travel (time|distance) matrix I should get$/) != nil {
            result.notApplicable[ScenarioState.tableService, default: 0] += max(0, (step.table?.count ?? 1) - 1)
        } else if t == "I route I should get" || t == "routability should be", let why = notApplicable {
            result.notApplicable[why, default: 0] += rows(step).count
        } else if t == "I route I should get" {
            let table = rows(step)
            if let why = unsupported { fail(table.count, "unsupported step: \(why)"); return }
            guard let b = build(&result, rows: table.count, step: step) else { return }
            for row in table {
                result.total += 1
                for c in RouteCheck.unchecked(row, lanes: compareLanes) { result.unchecked[c, default: 0] += 1 }
                if let why = RouteCheck(state: self, map: b.map, scenarioMap: b.scenario).check(row) {
                    result.failures.append(.init(scenario: scenario, line: row.line, reason: why))
                } else {
                    result.passed += 1
                }
            }
        } else if t == "routability should be" {
            let table = rows(step)
            if let why = unsupported { fail(table.count, "unsupported step: \(why)"); return }
            Routability(state: self).check(table, into: &result)
        } else {
            unsupported = "\(step.keyword) \(t)"
        }
    }

    static let trafficFiles = "traffic update file"
    static let tableService = "matrix (table service)"
    /// OSRM's `--location-dependent-data` polygons (test/data/regions/*.geojson): files of
    /// OSRM's repository that ../shared does not hold, and an input Tern has no reader for (a
    /// map's driving side is set for the whole map: `tern import --driving-side left`).
    static let regionFiles = "location-dependent data file"

    /// UTC offset of Europe/London at a moment: +1 h from the last Sunday of March to the last
    /// Sunday of October, 01:00 UTC (EU rule), else 0.
    static func londonOffset(_ t: Double) -> Double {
        var tt = time_t(t)
        var tmv = tm()
        gmtime_r(&tt, &tmv)
        let year = Int(tmv.tm_year) + 1900
        func lastSunday(_ month: Int) -> Double {
            let firstOfNext = FixTime.utc(year: month == 12 ? year + 1 : year, month: month == 12 ? 1 : month + 1, day: 1, hour: 1, minute: 0, second: 0)!
            var day = firstOfNext - 86400
            while Int(floor(day / 86400) + 3).quotientAndRemainder(dividingBy: 7).remainder != 6 { day -= 86400 }
            return day
        }
        return t >= lastSunday(3) && t < lastSunday(10) ? 3600 : 0
    }

    /// Rows of the step's table as dictionaries keyed by the header.
    func rows(_ step: FeatureFile.Step) -> [Row] {
        guard let table = step.table, let header = table.first else { return [] }
        return table.dropFirst().enumerated().map { i, cells in
            Row(columns: header, cells: cells, line: step.line + 1 + i + 1)
        }
    }

    /// Reads the Lua overrides Tern has an equivalent for; nil when all were understood.
    mutating func applyProfileOverrides(_ lua: String) -> String? {
        for line in ScenarioState.statements(lua) {
            if let m = line.firstMatch(of: /^profile\.avoid\s*=\s*Set\s*\{(.*)\}$/) {
                options.avoidHighways = Set(m.1.split(separator: ",").map { $0.trimmed(of: " '\"") })
            } else if line.hasPrefix("profile.speeds") {
                guard let speeds = ScenarioState.highwaySpeeds(line) else { return "profile override `\(line)`" }
                options.highwaySpeedsKmh = speeds
            } else if let m = line.firstMatch(of: /^profile\.properties\.weight_name\s*=\s*'(\w+)'$/), m.1 == "distance" || m.1 == "routability" {
                options.weightByDistance = m.1 == "distance"
            } else if let m = line.firstMatch(of: /^profile\.cardinal_directions\s*=\s*(true|false)$/) {
                options.cardinalDirections = m.1 == "true"
            } else if let m = line.firstMatch(of: /^profile\.vehicle_max_speed\s*=\s*([\d.]+|nil)$/) {
                options.vehicleMaxSpeedKmh = Double(m.1)
            } else if let m = line.firstMatch(of: /^profile\.properties\.left_hand_driving\s*=\s*(true|false)$/) {
                options.leftHandDriving = m.1 == "true"
            } else if let m = line.firstMatch(of: /^profile\.properties\.traffic_signal_penalty\s*=\s*([\d.]+)$/), let v = Double(m.1) {
                options.trafficSignalPenaltySeconds = v
            } else if let m = line.firstMatch(of: /^profile\.turn_bias\s*=\s*([\d.]+)(?:\s*\/\s*([\d.]+))?$/), let v = Double(m.1) {
                // a number, or a quotient as OSRM's side_bias.feature writes it ("1 / 1.075")
                if let d = m.2 {
                    guard let divisor = Double(d), divisor != 0 else { return "profile override `\(line)`" }
                    options.turnBias = v / divisor
                } else {
                    options.turnBias = v
                }
            } else {
                return "profile override `\(line)`"
            }
        }
        return nil
    }

    /// The Lua of a profile override as statements: one per line, except that a table written
    /// over several lines (`profile.speeds = Sequence { ... }`) is joined into one; comments
    /// and blank lines dropped.
    static func statements(_ lua: String) -> [String] {
        var out = [String](), open = 0
        for raw in lua.split(separator: "\n") {
            let line = raw.trimmed()
            if line.isEmpty || line.hasPrefix("--") { continue }
            if open > 0 { out[out.count - 1] += " " + line } else { out.append(line) }
            open += line.filter { $0 == "{" }.count - line.filter { $0 == "}" }.count
        }
        return out
    }

    /// `profile.speeds = Sequence { highway = { motorway = 90, primary = 50 } }`: the highway
    /// speeds; nil when it sets anything else (speeds of other keys Tern's profile has no table for).
    static func highwaySpeeds(_ statement: String) -> [String: Double]? {
        guard let m = statement.firstMatch(of: /^profile\.speeds\s*=\s*Sequence\s*\{\s*highway\s*=\s*\{([^{}]*)\}\s*,?\s*\}$/) else { return nil }
        var speeds = [String: Double]()
        for pair in m.1.split(separator: ",") {
            let kv = pair.split(separator: "=").map { $0.trimmed() }
            guard kv.count == 2, let v = Double(kv[1]) else { return nil }
            speeds[kv[0]] = v
        }
        return speeds
    }

    /// The scenario map as Tern imports it (built once per scenario).
    mutating func build(_ result: inout FeatureRunner.FileResult, rows: Int, step: FeatureFile.Step) -> (map: RoadMap, scenario: ScenarioMap)? {
        if let b = built { return b }
        var m = ScenarioMap(ascii: nodeMap ?? "", columnMeters: grid / 2, rowMeters: grid, origin: origin)
        for (n, c) in locations { m.setNode(n, c) }
        m.locationsOnly = Set(m.nodeOrder.filter { $0.first?.isNumber == true })
        m.nodeTags = nodeTags
        m.ways = ways
        m.relations = relations
        do {
            let map = try ScenarioState.compile(m, options: options, in: workDirectory, keep: &dumpedOSM)
            built = (map, m)
            return built
        } catch {
            result.total += rows
            for _ in 0..<rows { result.failures.append(.init(scenario: scenario, line: step.line, reason: "map: \(error)")) }
            return nil
        }
    }

    static func compile(_ m: ScenarioMap, options: ProfileOptions, in dir: String) throws -> RoadMap {
        var kept: String?
        return try compile(m, options: options, in: dir, keep: &kept)
    }

    static func compile(_ m: ScenarioMap, options: ProfileOptions, in dir: String, keep kept: inout String?) throws -> RoadMap {
        let id = UUID().uuidString
        let osm = Paths.join(dir, "\(id).osm"), out = Paths.join(dir, "\(id).tmap")
        defer { unlink(osm); unlink(out) }  // the mapping keeps the data after unlink
        try m.write(to: osm)
        // for looking at a scenario's map by hand, or running it through OSRM (ScenarioDump)
        if let keep = ProcessInfo.processInfo.environment["TERN_FEATURES_KEEP"] ?? ProcessInfo.processInfo.environment["TERN_FEATURES_DUMP"] {
            let path = Paths.join(keep, "\(id).osm")
            if (try? FileManager.default.copyItem(atPath: osm, toPath: path)) != nil { kept = path }
        }
        try MapCompiler.compile(input: osm, output: out, options: options)
        return try RoadMap(path: out)
    }
}

/// A table row by column name.
struct Row {
    let columns: [String]
    let cells: [String]
    let line: Int
    subscript(_ key: String) -> String? {
        guard let i = columns.firstIndex(of: key), i < cells.count else { return nil }
        return cells[i]
    }
    var pairs: [(String, String)] { zip(columns, cells).map { ($0, $1) } }
    /// Tag columns: empty cells are absent tags, `""` is an empty value.
    func tags(except: Set<String>) -> [(String, String)] {
        pairs.filter { !except.contains($0.0) && !$0.1.isEmpty }.map { ($0.0, $0.1 == "\"\"" ? "" : $0.1) }
    }
}
