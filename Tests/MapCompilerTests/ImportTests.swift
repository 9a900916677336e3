import Foundation
import Geo
import MapCompiler
import MapData
import Simulation
import TestSupport
import Testing

@Suite struct ImportTests {
    static let extracts = ["monaco", "andorra", "liechtenstein", "heidelberg"]

    /// Every extract imports, opens, and holds a plausible road network.
    @Test(.enabled(if: SharedData.isAvailable, Comment(rawValue: SharedData.missingMessage)), arguments: extracts)
    func importsExtract(name: String) throws {
        let dir = TempDir()
        defer { dir.remove() }
        let out = dir.file("\(name).tmap")
        var messages = [String]()
        let s = try MapCompiler.compile(input: SharedData.path("osm/\(name).osm.pbf"), output: out) { messages.append($0) }
        #expect(messages.contains { $0.hasPrefix("reading") })
        #expect(s.roadWays > 1000)
        #expect(s.edges >= s.roadWays)
        #expect(s.fileBytes > 100_000)
        let m = try RoadMap(path: out)
        #expect(m.nodeCount == s.graphNodes && m.edgeCount == s.edges)
        // most of the network is one connected piece
        #expect(Double(s.isolatedEdges) < 0.2 * Double(s.edges))
        if name == "heidelberg" { #expect(s.signals > 300 && s.restrictions == 476) }
    }

    /// The same file gives the same map, byte for byte (names get ids as they come: nothing may
    /// come in a dictionary's order, which changes from run to run).
    @Test(.enabled(if: SharedData.isAvailable, Comment(rawValue: SharedData.missingMessage))) func sameFileSameMap() throws {
        let dir = TempDir()
        defer { dir.remove() }
        var maps = [Data]()
        for k in 0..<3 {
            try MapCompiler.compile(input: SharedData.path("osm/monaco.osm.pbf"), output: dir.file("\(k).tmap"))
            maps.append(try Data(contentsOf: URL(fileURLWithPath: dir.file("\(k).tmap"))))
        }
        #expect(maps[0] == maps[1] && maps[1] == maps[2])
    }

    @Test func demoTownHasItsStreets() throws {
        let m = try TestMaps.demoTown()
        var names = Set<String>()
        var roundabout = 0, oneway = 0
        for e in 0..<m.edgeCount {
            let r = m.edge(UInt32(e))
            names.insert(m.name(r.nameID))
            if r.flags.contains(.roundabout) { roundabout += 1 }
            if r.flags.contains(.forward) != r.flags.contains(.backward) { oneway += 1 }
        }
        #expect(names.isSuperset(of: ["Harbour Road", "Market Street", "Market Circle", "Church Street", "Park Avenue"]))
        #expect(roundabout == 4)
        #expect(oneway >= 7)  // the roundabout and Church Street
        #expect((0..<m.nodeCount).filter { m.flags(ofNode: UInt32($0)).contains(.trafficSignals) }.count == 2)
    }

    @Test func badInputGetsAClearError() throws {
        let dir = TempDir()
        defer { dir.remove() }
        let garbage = dir.file("garbage.osm.pbf")
        try Data((0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 31) }).write(to: URL(fileURLWithPath: garbage))
        #expect(throws: ImportError.self) { try MapCompiler.compile(input: garbage, output: dir.file("x.tmap")) }
        #expect(throws: ImportError.self) { try MapCompiler.compile(input: dir.file("missing.osm.pbf"), output: dir.file("x.tmap")) }
        let noRoads = dir.file("empty.osm")
        try "<?xml version='1.0'?><osm version='0.6'><node id='1' lat='1' lon='1'/></osm>".write(toFile: noRoads, atomically: true, encoding: .utf8)
        do {
            try MapCompiler.compile(input: noRoads, output: dir.file("x.tmap"))
            Issue.record("a map without roads was accepted")
        } catch let e as ImportError {
            #expect(e.description.contains("no roads"))
        }
        #expect(!FileManager.default.fileExists(atPath: dir.file("x.tmap")))
    }

    @Test(.enabled(if: SharedData.isAvailable, Comment(rawValue: SharedData.missingMessage))) func truncatedPBFIsRefused() throws {
        let dir = TempDir()
        defer { dir.remove() }
        let data = try Data(contentsOf: URL(fileURLWithPath: SharedData.path("osm/monaco.osm.pbf")))
        let cut = dir.file("cut.osm.pbf")
        try data.prefix(data.count / 2).write(to: URL(fileURLWithPath: cut))
        #expect(throws: ImportError.self) { try MapCompiler.compile(input: cut, output: dir.file("cut.tmap")) }
    }
}
