import Foundation
import TestSupport
import Testing

/// `tern search` on a real extract: one query as lines, and the benchmark contract.
@Suite(.enabled(if: SharedData.isAvailable, Comment(rawValue: SharedData.missingMessage)))
struct SearchCommandTests {
    @Test func oneQueryPrintsNumberedLinesWithDistanceAndDirection() async throws {
        let dir = TempDir()
        defer { dir.remove() }
        let map = try TestMaps.extract("liechtenstein").path
        let r = try await TernBinary.run(["search", "--map", map, "--near", "47.0600,9.5100", "vaduz"], timeout: 30, in: dir)
        #expect(r.exitCode == 0, "\(r.output)")
        let first = try #require(r.output.split(separator: "\n").first)
        // Vaduz lies about 9 km north of the point
        #expect(first.hasPrefix("1 Vaduz"), "\(r.output)")
        #expect(first.hasSuffix(" km N"), "\(first)")
    }

    @Test func queryFileAnswersEveryQueryInOrderAndBadOnesWithAnError() async throws {
        let dir = TempDir()
        defer { dir.remove() }
        let map = try TestMaps.extract("liechtenstein").path
        let queries: [[String: Any]] = [
            ["id": "q1", "text": "Landstrasse 20, Balzers"],
            ["id": "q2", "text": "", "near": [47.14, 9.52]],
            ["id": "q3", "text": String(repeating: "Vaduz ", count: 2000)],
            ["id": "q4", "text": "Tankstelle", "near": [47.14, 9.52]],
        ]
        let file = dir.file("q.json")
        try JSONSerialization.data(withJSONObject: ["queries": queries]).write(to: URL(fileURLWithPath: file))
        let r = try await TernBinary.run(["search", "--map", map, "--queries", file, "--json"], timeout: 30, in: dir)
        #expect(r.exitCode == 0, "\(r.output)")
        let doc = try #require(try JSONSerialization.jsonObject(with: Data(r.output.utf8)) as? [String: Any])
        let results = try #require(doc["results"] as? [[String: Any]])
        #expect(results.map { $0["id"] as? String } == ["q1", "q2", "q3", "q4"])
        let q1 = try #require(results[0]["results"] as? [[String: Any]])
        #expect(results[0]["ok"] as? Bool == true && (results[0]["micros"] as? Double ?? -1) >= 0)
        #expect(q1.first?["kind"] as? String == "address")
        #expect((q1.first?["label"] as? String)?.hasPrefix("Landstrasse 20") == true, "\(q1)")
        #expect(q1.count <= 5)
        for bad in [results[1], results[2]] {
            #expect(bad["ok"] as? Bool == false)
            #expect((bad["error"] as? String)?.isEmpty == false)
        }
        let fuel = try #require(results[3]["results"] as? [[String: Any]])
        #expect(!fuel.isEmpty && fuel.allSatisfy { ($0["label"] as? String)?.contains("(fuel)") == true }, "\(fuel)")
    }

    @Test func aMapWithoutAnIndexOrAMissingMapIsAClearError() async throws {
        let dir = TempDir()
        defer { dir.remove() }
        let r = try await TernBinary.run(["search", "--map", dir.file("none.tmap"), "vaduz"], timeout: 30, in: dir)
        #expect(r.exitCode == 1)
        #expect(r.output.contains("none.tmap"), "\(r.output)")
    }
}

/// A drive to a house: the drive log's `arrived` line says where by address, as the status line
/// says where the car is when there is no route.
@Suite(.enabled(if: SharedData.isAvailable, Comment(rawValue: SharedData.missingMessage)))
struct DriveLogAddressTests {
    @Test(.timeLimit(.minutes(TestTiming.minutes(2)))) func arrivalIsLoggedWithItsAddress() async throws {
        let dir = TempDir()
        defer { dir.remove() }
        let map = try TestMaps.extract("liechtenstein").path
        // Landstrasse 20, Balzers (a supermarket with its address), from the north end of Balzers
        let to = "47.0754226,9.5120798", nmea = dir.file("drive.nmea")
        let sim = try await TernBinary.run(["simulate", "--map", map, "--from", "47.0700,9.5050", "--to", to, "-o", nmea],
                                           timeout: 60, in: dir)
        #expect(sim.exitCode == 0, "\(sim.output)")
        let r = try await TernBinary.run(["replay", nmea, "--map", map, "--to", to, "--direct", "--log-dir", dir.file("drives"), "--mute"],
                                         timeout: 60, in: dir)
        #expect(r.exitCode == 0, "\(r.output)")
        let folder = try #require(try FileManager.default.contentsOfDirectory(atPath: dir.file("drives")).first)
        let events = try String(contentsOfFile: dir.file("drives/\(folder)/events.jsonl"), encoding: .utf8)
        let arrived = try #require(events.split(separator: "\n").first { $0.contains(#""event":"arrived""#) })
        #expect(arrived.contains(#""address":"Landstrasse 20, Balzers""#), "\(arrived)")
        #expect(!events.split(separator: "\n").contains { $0.contains(#""event":"position""#) && $0.contains("address") })
    }
}
