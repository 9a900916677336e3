import Foundation
import Geo
import MapData
import Testing

/// A tiny graph: a square a-b-c-d with a one-way diagonal a→c and a name on each side.
func squareGraph() -> RoadGraph {
    var g = RoadGraph()
    let o = Coordinate(latitude: 49.41, longitude: 8.69)
    g.nodes = [o, o.moved(meters: 100, bearingDegrees: 90), o.moved(meters: 141.4, bearingDegrees: 135), o.moved(meters: 100, bearingDegrees: 180)]
    g.nodeFlags = [[], [.trafficSignals], [], [.stop]]
    g.names = ["", "North Side", "East Side", "Diagonal"]
    g.wayIDs = [10, 11, 12]
    func edge(_ a: UInt32, _ b: UInt32, name: UInt32, way: UInt32, flags: EdgeFlags, shape: [Coordinate] = []) {
        let start = UInt32(g.geometry.count)
        g.geometry += shape
        let pts = [g.nodes[Int(a)]] + shape + [g.nodes[Int(b)]]
        g.edges.append(EdgeRecord(from: a, to: b, geometryStart: start, geometryCount: UInt32(shape.count),
                                  lengthMeters: Float(pts.lengthMeters), nameID: name, refID: 0, wayIndex: way, flags: flags,
                                  roadClass: .residential, speedForwardKmh: 30, speedBackwardKmh: flags.contains(.backward) ? 30 : 0,
                                  maxspeedForwardKmh: 30, maxspeedBackwardKmh: 0))
    }
    edge(0, 1, name: 1, way: 0, flags: [.forward, .backward], shape: [o.moved(meters: 50, bearingDegrees: 90)])
    edge(1, 2, name: 2, way: 1, flags: [.forward, .backward])
    edge(2, 3, name: 2, way: 1, flags: [.forward, .backward])
    edge(3, 0, name: 2, way: 1, flags: [.forward, .backward])
    edge(0, 2, name: 3, way: 2, flags: [.forward])
    g.names.append("Corner Café")
    g.places = [Place(coordinate: o.moved(meters: 10, bearingDegrees: 45), nameID: 4, kind: .cafe)]
    g.meta = [("format", "\"test\"")]
    // a mapper's override: from the north side round the corner onto the east side, "sharp right"
    g.maneuverOverrides = [ManeuverOverride(kind: .turn, direction: .sharpRight, viaNode: 1,
                                            path: [DirectedEdge(edge: 0, reversed: false), DirectedEdge(edge: 1, reversed: false)])]
    // signposts: the diagonal leads to "Diagonal" (name 3), node 1 is exit "North Side" (name 1)
    g.destinations = [DirectedEdge(edge: 4, reversed: false): 3]
    g.exitRefs = [1: 1]
    g.names.append("left|straight;right")
    g.turnLanes = [DirectedEdge(edge: 2, reversed: true): UInt32(g.names.count - 1)]
    // two turns a restriction forbids: edge 0 onto edge 1 at node 1, the diagonal onto edge 2 at node 2
    g.forbiddenTurns = [UInt64(DirectedEdge(edge: 0, reversed: false).raw) << 32 | UInt64(DirectedEdge(edge: 1, reversed: false).raw),
                        UInt64(DirectedEdge(edge: 4, reversed: false).raw) << 32 | UInt64(DirectedEdge(edge: 2, reversed: false).raw)]
    return g
}

@Suite struct MapFileTests {
    func write(_ data: Data) throws -> String {
        let path = NSTemporaryDirectory() + "tern-mapfile-\(UUID().uuidString).tmap"
        try data.write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test func writeThenReadRoundTrips() throws {
        let g = squareGraph()
        let path = try write(MapWriter.encode(g))
        defer { unlink(path) }
        let m = try RoadMap(path: path)
        #expect(m.nodeCount == 4)
        #expect(m.edgeCount == 5)
        #expect(m.flags(ofNode: 1) == [.trafficSignals])
        #expect(m.edge(0) == g.edges[0])
        #expect(m.name(m.edge(4).nameID) == "Diagonal")
        #expect(m.wayID(2) == 12)
        #expect(m.geometry(ofEdge: 0).count == 3)
        #expect(m.coordinate(ofNode: 2).distance(to: g.nodes[2]) < 0.02)
        // a→c is one-way: it leaves a and arrives at c only
        #expect(m.outgoing(0).contains(DirectedEdge(edge: 4, reversed: false)))
        #expect(!m.outgoing(2).contains(DirectedEdge(edge: 4, reversed: true)))
        #expect(m.incoming(2).contains(DirectedEdge(edge: 4, reversed: false)))
        #expect(m.metaJSON == #"{"format":"test"}"#)
        #expect(m.maneuverOverrides == g.maneuverOverrides)
        #expect(m.maneuverOverridesByFirstEdge[DirectedEdge(edge: 0, reversed: false)] == [0])
        #expect(m.destination(of: DirectedEdge(edge: 4, reversed: false)) == "Diagonal")
        #expect(m.destination(of: DirectedEdge(edge: 4, reversed: true)) == "")
        #expect(m.destination(of: DirectedEdge(edge: 0, reversed: false)) == "")
        #expect(m.exitRef(ofNode: 1) == "North Side")
        #expect(m.exitRef(ofNode: 2) == "")
        #expect(m.turnLanes(of: DirectedEdge(edge: 2, reversed: true)) == "left|straight;right")
        #expect(m.hasTurnLanes(DirectedEdge(edge: 2, reversed: true)))
        #expect(!m.hasTurnLanes(DirectedEdge(edge: 2, reversed: false)) && m.turnLanes(of: DirectedEdge(edge: 1, reversed: true)) == "")
        #expect(m.isTurnForbidden(from: DirectedEdge(edge: 0, reversed: false), to: DirectedEdge(edge: 1, reversed: false)))
        #expect(m.isTurnForbidden(from: DirectedEdge(edge: 4, reversed: false), to: DirectedEdge(edge: 2, reversed: false)))
        #expect(!m.isTurnForbidden(from: DirectedEdge(edge: 0, reversed: false), to: DirectedEdge(edge: 4, reversed: false)))
        #expect(!m.isTurnForbidden(from: DirectedEdge(edge: 1, reversed: false), to: DirectedEdge(edge: 0, reversed: false)))
        let cafes = m.places(near: g.nodes[0], radiusMeters: 30)
        #expect(cafes.count == 1)
        #expect(cafes.first.map { m.name($0.place.nameID) } == "Corner Café")
        #expect(cafes.first?.place.kind == .cafe)
        #expect(m.places(near: g.nodes[2], radiusMeters: 30).isEmpty)
        let near = m.nearestEdges(to: g.nodes[0].moved(meters: 20, bearingDegrees: 90).moved(meters: 5, bearingDegrees: 0), radiusMeters: 30)
        #expect(near.first?.edge == 0)
        #expect(abs((near.first?.offsetMeters ?? 0) - 20) < 0.5)
    }

    @Test func emptyAndForeignFilesAreRefused() throws {
        let empty = try write(Data())
        let text = try write(Data("<osm version=\"0.6\"></osm>\n".utf8))
        defer { unlink(empty); unlink(text) }
        #expect(throws: MapError.corrupt(path: empty, detail: "file is empty")) { try RoadMap(path: empty) }
        #expect(throws: MapError.notAMap(path: text)) { try RoadMap(path: text) }
        #expect(throws: MapError.self) { try RoadMap(path: "/nonexistent/x.tmap") }
        #expect(throws: MapError.self) { try RoadMap(path: NSTemporaryDirectory()) }
    }

    @Test func wrongVersionIsNamed() throws {
        var bytes = [UInt8](MapWriter.encode(squareGraph()))
        bytes[8] = 99
        let path = try write(Data(bytes))
        defer { unlink(path) }
        #expect(throws: MapError.wrongVersion(path: path, found: 99)) { try RoadMap(path: path) }
    }

    @Test func truncatedFileSaysSo() throws {
        let bytes = MapWriter.encode(squareGraph())
        let path = try write(bytes.prefix(bytes.count - 10))
        defer { unlink(path) }
        #expect(throws: MapError.truncated(path: path, expected: UInt64(bytes.count), actual: UInt64(bytes.count - 10))) {
            try RoadMap(path: path)
        }
    }

    /// Random truncations and bit flips: every one is refused with a MapError or (a flip in
    /// padding) opens to a map that still reads; nothing traps.
    @Test func fuzzTruncationsAndBitFlips() throws {
        try fuzz([UInt8](MapWriter.encode(squareGraph())))
    }

    func fuzz(_ original: [UInt8]) throws {
        var rng = SystemRandomNumberGenerator()
        var refused = 0, opened = 0
        let path = NSTemporaryDirectory() + "tern-fuzz-\(UUID().uuidString).tmap"
        defer { unlink(path) }
        for i in 0..<400 {
            var b = original
            if i % 2 == 0 {
                b = Array(b.prefix(Int.random(in: 0..<b.count, using: &rng)))
            } else {
                for _ in 0..<Int.random(in: 1...4, using: &rng) {
                    let k = Int.random(in: 0..<b.count, using: &rng)
                    b[k] ^= UInt8(1 << Int.random(in: 0..<8, using: &rng))
                }
            }
            try Data(b).write(to: URL(fileURLWithPath: path))
            do {
                let m = try RoadMap(path: path)
                opened += 1
                for e in 0..<m.edgeCount { _ = m.geometry(ofEdge: UInt32(e)); _ = m.name(m.edge(UInt32(e)).nameID) }
                for n in 0..<m.nodeCount { _ = m.outgoing(UInt32(n)) }
            } catch is MapError {
                refused += 1
            }
        }
        #expect(refused >= 390, "only \(refused) of 400 damaged files were refused")
        #expect(refused + opened == 400)
    }
}

/// A map written before maneuver overrides, signposts, lanes, restrictions for guidance and search
/// existed has no MANEUVR, DESTS, EXITREF, LANES, NOTURN or search section: it opens, with none.
/// The file's bytes with the sections of these tags left out of the section table (their bytes
/// stay behind, unreferenced), as a map written before they existed.
func dropSections(_ tags: [MapFormat.Tag], from graph: RoadGraph) throws -> [UInt8] {
    var bytes = [UInt8](MapWriter.encode(graph))
    func u32(_ o: Int) -> UInt32 { bytes[o..<(o + 4)].reversed().reduce(0) { $0 << 8 | UInt32($1) } }
    func put(_ v: UInt32, at o: Int) { for i in 0..<4 { bytes[o + i] = UInt8(truncatingIfNeeded: v >> (8 * i)) } }
    for tag in tags {
        let count = Int(u32(12))
        let entry = (0..<count).map { 32 + $0 * 32 }.first {
            String(decoding: bytes[$0..<($0 + 8)].prefix { $0 != 0 }, as: UTF8.self) == tag.rawValue
        }
        let e = try #require(entry)
        let tableEnd = 32 + count * 32
        bytes.replaceSubrange(e..<tableEnd, with: bytes[(e + 32)..<tableEnd] + [UInt8](repeating: 0, count: 32))
        put(UInt32(count - 1), at: 12)
        put(bytes.withUnsafeBytes { MapWriter.crc32(UnsafeRawBufferPointer(rebasing: $0[32..<(tableEnd - 32)])) }, at: 24)
    }
    return bytes
}

func openBytes(_ bytes: [UInt8]) throws -> RoadMap {
    let path = NSTemporaryDirectory() + "tern-old-\(UUID().uuidString).tmap"
    try Data(bytes).write(to: URL(fileURLWithPath: path))
    defer { unlink(path) }
    return try RoadMap(path: path)
}

@Test func mapsWithoutOptionalSectionsOpen() throws {
    let m = try openBytes(dropSections(MapFormat.Tag.allCases.filter { $0.isOptional && !$0.isSearch }, from: squareGraph()))
    #expect(!m.hasSearchIndex)
    #expect(m.maneuverOverrides.isEmpty)
    #expect(m.destination(of: DirectedEdge(edge: 4, reversed: false)) == "")
    #expect(m.exitRef(ofNode: 1) == "")
    #expect(m.turnLanes(of: DirectedEdge(edge: 2, reversed: true)) == "")
    #expect(!m.isTurnForbidden(from: DirectedEdge(edge: 0, reversed: false), to: DirectedEdge(edge: 1, reversed: false)))
    #expect(m.edgeCount == 5)
    #expect(!m.sectionTags.contains("MANEUVR") && !m.sectionTags.contains("DESTS") && !m.sectionTags.contains("EXITREF")
            && !m.sectionTags.contains("LANES") && !m.sectionTags.contains("NOTURN"))
}

/// Signposts and overrides that point outside the map are refused with the section's name, even
/// where the checksums are right (a writer's bug, not a damaged file).
@Test func signpostsAndOverridesOutsideTheMapAreRefused() throws {
    var bad = [RoadGraph]()
    var g = squareGraph()
    g.destinations = [DirectedEdge(edge: 99, reversed: false): 3]
    bad.append(g)
    g = squareGraph()
    g.exitRefs = [1: 999]
    bad.append(g)
    g = squareGraph()
    g.turnLanes = [DirectedEdge(edge: 3, reversed: false): 9999]
    bad.append(g)
    g = squareGraph()
    g.forbiddenTurns = [UInt64(DirectedEdge(edge: 0, reversed: false).raw) << 32 | 99]
    bad.append(g)
    g = squareGraph()
    g.maneuverOverrides[0].path.append(DirectedEdge(edge: 99, reversed: false))
    bad.append(g)
    for (i, graph) in bad.enumerated() {
        let path = NSTemporaryDirectory() + "tern-bad-\(UUID().uuidString).tmap"
        try MapWriter.encode(graph).write(to: URL(fileURLWithPath: path))
        defer { unlink(path) }
        #expect(throws: MapError.self, "case \(i)") { _ = try RoadMap(path: path) }
    }
}

@Test func tagOrdinalsFollowTheirOrder() {
    #expect(MapFormat.Tag.allCases.enumerated().allSatisfy { $0.offset == $0.element.ordinal })
}

/// The search sections round trip through the file, and a map with only some of them, or with
/// an index pointing outside them, is refused with the reason.
@Test func searchSectionsRoundTripAndAreCheckedWhole() throws {
    var g = squareGraph()
    let c = Coordinate(latitude: E7.decode(494_100_000), longitude: E7.decode(86_914_000))  // as stored, to the bit
    g.search.terms = ["corner", "north", "side"]
    g.search.objects = [SearchObject(coordinate: c, labelID: 1, termCount: 2, nameTermCount: 2, primaryTermCount: 2,
                                     addressCount: 1, kind: .street, rank: 60)]
    g.search.objectTerms = [1, 2]
    g.search.postings = [[], [0], [0]]
    g.search.addresses = [SearchAddress(coordinate: c, numberID: 2, object: 0)]
    let m = try openBytes([UInt8](MapWriter.encode(g)))
    #expect(m.hasSearchIndex && m.searchTermCount == 3 && m.searchObjectCount == 1 && m.searchAddressCount == 1)
    #expect(m.searchObject(0) == g.search.objects[0])
    #expect(Array(m.searchTerms(of: m.searchObject(0))) == [1, 2])
    #expect(Array(m.searchPostings(2)) == [0])
    #expect(m.searchTermLowerBound(Array("no".utf8)) == 1)
    #expect(m.nearestAddress(to: c, radiusMeters: 10)?.0 == g.search.addresses[0])
    func refusal(_ bytes: [UInt8]) -> String {
        do {
            _ = try openBytes(bytes)
            return "opened"
        } catch let MapError.corrupt(_, detail) { return detail } catch { return "\(error)" }
    }
    #expect(refusal(try dropSections([.searchPostings], from: g)).hasPrefix("search sections incomplete"))
    // each index the search reads is checked against what it points into
    let damaged: [(String, (inout SearchTables) -> Void)] = [
        ("SPOST entry 1 is out of range", { $0.postings = [[], [0], [7]] }),
        ("SOTERM entry 1 is out of range", { $0.objectTerms = [1, 9] }),
        ("search object 0 refers to missing terms", { $0.objects[0].termCount = 3 }),
        ("search object 0 has no such city", { $0.objects[0].city = 1 }),
        ("search object 0 has no such suburb", { $0.objects[0].suburb = 5 }),
        ("search object 0 refers to missing addresses", { $0.objects[0].addressCount = 2 }),
        ("search object 0 refers to a missing name", { $0.objects[0].labelID = 999 }),
        ("address 0 is out of range", { $0.addresses[0].object = 3 }),
        ("SDICT term 2 is out of order", { $0.terms = ["corner", "side", "north"] }),
    ]
    for (reason, damage) in damaged {
        var bad = g
        damage(&bad.search)
        #expect(refusal([UInt8](MapWriter.encode(bad))) == reason)
    }
}
