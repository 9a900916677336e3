import Foundation
import Simulation
import TestSupport
import Testing

/// `tern gpx` on a drive the appliance's own pipeline logged: three tracks and the prompts as
/// waypoints, valid against the GPX 1.1 schema (xmllint, ../shared/data/schemas/gpx-1.1.xsd);
/// `tern report` of the same drive: one page that needs nothing else.
@Suite(.enabled(if: SharedData.isAvailable, Comment(rawValue: SharedData.missingMessage)))
struct GPXCommandTests {
    static let schema = SharedData.path("schemas/gpx-1.1.xsd")

    /// Runs xmllint against the schema; nil when xmllint is missing (a user's machine without
    /// libxml2-utils: scripts/setup.sh installs it).
    static func validate(_ gpx: String) throws -> (ok: Bool, output: String)? {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/xmllint") else { return nil }
        let r = try Tool.run("/usr/bin/xmllint", ["--noout", "--schema", schema, gpx])
        return (r.status == 0, r.output)
    }

    @Test(.timeLimit(.minutes(TestTiming.minutes(2)))) func loggedDriveBecomesValidGPX() async throws {
        let dir = TempDir()
        defer { dir.remove() }
        let map = dir.file("town.tmap")
        _ = try DemoTown.build(mapPath: map, workDirectory: dir.path)
        let from = DemoTown.start, to = "\(DemoTown.destination.latitude),\(DemoTown.destination.longitude)"
        let nmea = dir.file("drive.nmea")
        let sim = try await TernBinary.run(["simulate", "--map", map, "--from", "\(from.latitude),\(from.longitude)", "--to", to,
                                            "--noise", "4", "-o", nmea], timeout: 60, in: dir)
        #expect(sim.exitCode == 0, "\(sim.output)")
        let r = try await TernBinary.run(["replay", nmea, "--map", map, "--to", to, "--direct", "--log-dir", dir.file("drives"), "--mute"],
                                         timeout: 60, in: dir)
        #expect(r.exitCode == 0, "\(r.output)")
        let folder = dir.file("drives/" + (try #require(try FileManager.default.contentsOfDirectory(atPath: dir.file("drives")).first)))
        let out = dir.file("drive.gpx")
        let g = try await TernBinary.run(["gpx", folder, "-o", out], timeout: 30, in: dir)
        #expect(g.exitCode == 0, "\(g.output)")
        let text = try String(contentsOfFile: out, encoding: .utf8)
        #expect(text.components(separatedBy: "<trk>").count - 1 == 3)
        for name in ["Receiver (raw)", "Filtered", "Matched to roads"] { #expect(text.contains("<name>\(name)</name>")) }
        #expect(text.contains("<type>prompt</type>") && text.contains("<type>arrived</type>"))
        #expect(text.components(separatedBy: "<trkpt ").count > 100)
        if let v = try Self.validate(out) {
            #expect(v.ok, "\(v.output)")
        } else {
            print("xmllint is not installed (apt-get install libxml2-utils): schema check skipped")
        }

        // the HTML report of the same drive: one file, the map and both plots inline, nothing fetched
        let html = dir.file("report.html")
        let rep = try await TernBinary.run(["report", folder, "-o", html], timeout: 30, in: dir)
        #expect(rep.exitCode == 0, "\(rep.output)")
        let page = try String(contentsOfFile: html, encoding: .utf8)
        #expect(page.components(separatedBy: "<svg ").count - 1 == 3, "a map and two plots")
        #expect(page.contains("<title>") && page.contains("Arrival</td><td>yes"))
        #expect(!page.contains("http://") || page.components(separatedBy: "http://").count - 1 == page.components(separatedBy: "xmlns=\"http://www.w3.org/2000/svg\"").count - 1,
                "the page refers to something outside itself")
        #expect(!page.contains("<script") && !page.contains("src="))

        // a torn last line (a power cut) is left out; a bad line in the middle is named
        let track = folder + "/track.jsonl"
        let whole = try String(contentsOfFile: track, encoding: .utf8)
        try (whole + #"{"t":"2024-06-"#).write(toFile: track, atomically: true, encoding: .utf8)
        let torn = try await TernBinary.run(["gpx", folder, "-o", out], timeout: 30, in: dir)
        #expect(torn.exitCode == 0 && torn.output.contains("torn"), "\(torn.output)")
        var lines = whole.split(separator: "\n").map(String.init)
        lines[3] = "garbage"
        try (lines.joined(separator: "\n") + "\n").write(toFile: track, atomically: true, encoding: .utf8)
        let bad = try await TernBinary.run(["gpx", folder, "-o", out], timeout: 30, in: dir)
        #expect(bad.exitCode == 1 && bad.output.contains("track.jsonl:4"), "\(bad.output)")
        let none = try await TernBinary.run(["gpx", dir.file("nowhere")], timeout: 30, in: dir)
        #expect(none.exitCode == 1 && none.output.contains("not a drive folder"), "\(none.output)")
    }

    /// A name with XML's special characters stays well-formed, and the schema rejects what
    /// gpsd's gpxlogger-style mistakes would be (so the check above can fail).
    @Test func schemaCheckCanFail() throws {
        let dir = TempDir()
        defer { dir.remove() }
        let bad = dir.file("bad.gpx")
        // <time> after <name> in a trkpt is out of the schema's order
        try """
            <?xml version="1.0" encoding="UTF-8"?>
            <gpx version="1.1" creator="x" xmlns="http://www.topografix.com/GPX/1/1"><trk><trkseg>
            <trkpt lat="1" lon="2"><name>a</name><time>2024-01-01T00:00:00Z</time></trkpt></trkseg></trk></gpx>
            """.write(toFile: bad, atomically: true, encoding: .utf8)
        if let v = try Self.validate(bad) { #expect(!v.ok) }
    }
}
