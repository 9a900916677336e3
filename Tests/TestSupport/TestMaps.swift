import Foundation
import Geo
import MapCompiler
import MapData
import Simulation

/// Maps built once per test process (imported through the real libosmium path) and shared.
public enum TestMaps {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var built: [String: String] = [:]  // guarded by lock
    private static let dir = TempDir("tern-maps")

    /// The demo town as a .tmap.
    public static func demoTown() throws -> RoadMap {
        try RoadMap(path: path(for: "demo-town") { out in try DemoTown.build(mapPath: out, workDirectory: dir.path) })
    }

    /// An extract from ../shared/data/osm (e.g. "heidelberg") as a .tmap.
    public static func extract(_ name: String) throws -> RoadMap {
        try RoadMap(path: path(for: name) { out in
            try MapCompiler.compile(input: SharedData.path("osm/\(name).osm.pbf"), output: out)
        })
    }

    /// Any OSM file under ../shared/data (e.g. "traces/novi-sad/issue-70.osm.pbf") as a .tmap.
    public static func shared(_ relative: String) throws -> RoadMap {
        try RoadMap(path: path(for: relative.replacingOccurrences(of: "/", with: "_")) { out in
            try MapCompiler.compile(input: SharedData.path(relative), output: out)
        })
    }

    /// Two ways from a to d: north then east via b (the fastest), and south via c and e (2% longer).
    public static func twoWays() throws -> (ScenarioMap, RoadMap) {
        var s = ScenarioMap(ascii: """
            a       b

            c       d
                e
            """, gridMeters: 50, origin: Coordinate(latitude: 48.0, longitude: 11.0))
        s.ways = [.init("ab", [("highway", "secondary"), ("name", "North Road")]),
                  .init("bd", [("highway", "secondary"), ("name", "East Road")]),
                  .init("ac", [("highway", "secondary"), ("name", "West Road")]),
                  .init("ced", [("highway", "secondary"), ("name", "South Road")])]
        return (s, try scenario(s, name: "two-ways"))
    }

    /// Imports a scenario map to a fresh .tmap.
    public static func scenario(_ m: ScenarioMap, name: String = UUID().uuidString, options: ProfileOptions = ProfileOptions()) throws -> RoadMap {
        let osm = dir.file("\(name).osm"), out = dir.file("\(name).tmap")
        try m.write(to: osm)
        try MapCompiler.compile(input: osm, output: out, options: options)
        return try RoadMap(path: out)
    }

    private static func path(for key: String, build: (String) throws -> Any) throws -> String {
        lock.lock()
        defer { lock.unlock() }
        if let p = built[key] { return p }
        let out = dir.file("\(key).tmap")
        _ = try build(out)
        built[key] = out
        return out
    }
}
