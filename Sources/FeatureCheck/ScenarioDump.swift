import FoundationEssentials
import Glibc
import Platform
import Geo
import Guidance
import MapCompiler

/// With TERN_FEATURES_DUMP=DIR set, each routed row of a scenario is written to DIR/rows.jsonl
/// with the scenario's OSM file beside it, so that bench/osrm_features.py can ask OSRM itself the
/// same question: what the reference engine says where Tern and a scenario file disagree.
enum ScenarioDump {
    static func record(state: ScenarioState, row: Row, points: [Coordinate], steps: [Maneuver]) {
        guard let dir = ProcessInfo.processInfo.environment["TERN_FEATURES_DUMP"], let osm = state.dumpedOSM else { return }
        let quoted = MapCompiler.quoteJSON
        let fields: [(String, String)] = [
            ("file", quoted(state.file)), ("scenario", quoted(state.scenario)), ("line", String(row.line)), ("osm", quoted(osm)),
            ("waypoints", "[" + points.map { "[\($0.latitude),\($0.longitude)]" }.joined(separator: ",") + "]"),
            ("expect_route", quoted(row["route"] ?? "")), ("expect_turns", quoted(row["turns"] ?? "")),
            ("tern_route", quoted(steps.map(\.street).joined(separator: ","))),
            ("tern_turns", quoted(steps.map(\.osrmTurn).joined(separator: ","))),
            ("expect_lanes", quoted(row["lanes"] ?? "")),
            ("tern_lanes", quoted(steps.map { $0.lanes.map(\.osrmText).joined(separator: " ") }.joined(separator: ","))),
        ]
        let line = "{" + fields.map { "\"\($0.0)\":\($0.1)" }.joined(separator: ",") + "}\n"
        let path = Paths.join(dir, "rows.jsonl")
        // appended with O_APPEND: one write per row, so rows from parallel runs never interleave
        let fd = open(path, O_WRONLY | O_CREAT | O_APPEND, 0o644)
        guard fd >= 0 else { return }
        _ = line.utf8CString.withUnsafeBufferPointer { write(fd, $0.baseAddress, $0.count - 1) }
        close(fd)
    }
}
