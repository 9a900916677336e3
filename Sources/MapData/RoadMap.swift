import FoundationEssentials
import Glibc
import Geo
import Platform

/// A travel direction over an edge: `reversed` means driven to → from. Encoded as `edge << 1 | reversed`.
public struct DirectedEdge: Hashable, Sendable, Comparable {
    public let raw: UInt32
    public init(raw: UInt32) { self.raw = raw }
    public init(edge: UInt32, reversed: Bool) { raw = edge << 1 | (reversed ? 1 : 0) }
    public var edge: UInt32 { raw >> 1 }
    public var reversed: Bool { raw & 1 == 1 }
    public var opposite: DirectedEdge { DirectedEdge(raw: raw ^ 1) }
    public static func < (a: DirectedEdge, b: DirectedEdge) -> Bool { a.raw < b.raw }
}

/// A read-only road map backed by a memory-mapped .tmap file (format in MapFormat.swift).
/// Immutable after init, so it is shared freely between threads.
public final class RoadMap: Sendable {
    public let path: String
    // The mapping is read-only and never changes after init; it is unmapped in deinit only.
    nonisolated(unsafe) private let base: UnsafeRawPointer
    private let mappedSize: Int
    private let sections: [String: Range<Int>]
    /// Start offsets of the sections by tag order (MapFormat.Tag.allCases): looked up on every
    /// access, so an array index rather than a string-keyed dictionary.
    private let starts: [Int]
    /// End offsets, the same way.
    private let ends: [Int]

    public let nodeCount: Int
    public let edgeCount: Int
    public let geometryCount: Int
    public let nameCount: Int
    public let wayCount: Int
    let grid: GridHeader

    /// Opens and validates a map; throws MapError with the reason for anything wrong with the file.
    public convenience init(path: String) throws {
        let fd: Int32
        switch RegularFile.openForReading(path) {
        case .success(let d): fd = d
        case .failure(let refusal): throw MapError.cannotOpen(path: path, reason: refusal.reason)
        }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0 else { throw MapError.cannotOpen(path: path, reason: String(cString: strerror(errno))) }
        let size = Int(st.st_size)
        guard size >= MapFormat.headerSize else {
            if size == 0 { throw MapError.corrupt(path: path, detail: "file is empty") }
            throw MapError.notAMap(path: path)
        }
        guard let p = mmap(nil, size, PROT_READ, MAP_PRIVATE, fd, 0), p != MAP_FAILED else {
            throw MapError.cannotOpen(path: path, reason: String(cString: strerror(errno)))
        }
        do {
            try self.init(path: path, base: UnsafeRawPointer(p), size: size)
        } catch {
            munmap(p, size)  // the object never existed, so deinit does not run
            throw error
        }
        // From here deinit unmaps if validation throws.
        try validate()
        // Validation read every page; give them back so the resident set is what routing uses
        // (the pages are clean and read-only: they come back from the file when touched).
        madvise(UnsafeMutableRawPointer(mutating: base), mappedSize, MADV_DONTNEED)
    }

    private init(path: String, base: UnsafeRawPointer, size: Int) throws {
        self.path = path
        self.base = base
        mappedSize = size
        let raw = UnsafeRawBufferPointer(start: base, count: size)
        guard Array(raw[0..<8]) == MapFormat.magic else { throw MapError.notAMap(path: path) }
        let version = raw.loadUnaligned(fromByteOffset: 8, as: UInt32.self).littleEndian
        guard version == MapFormat.version else { throw MapError.wrongVersion(path: path, found: version) }
        let count = Int(raw.loadUnaligned(fromByteOffset: 12, as: UInt32.self).littleEndian)
        let fileSize = raw.loadUnaligned(fromByteOffset: 16, as: UInt64.self).littleEndian
        guard fileSize == UInt64(size) else {
            if fileSize > UInt64(size) { throw MapError.truncated(path: path, expected: fileSize, actual: UInt64(size)) }
            throw MapError.corrupt(path: path, detail: "file is \(size) bytes, header says \(fileSize)")
        }
        let tableEnd = MapFormat.headerSize + count * MapFormat.tableEntrySize
        guard count < 1024, tableEnd <= size else { throw MapError.corrupt(path: path, detail: "section table out of range") }
        let tableCRC = raw.loadUnaligned(fromByteOffset: 24, as: UInt32.self).littleEndian
        guard MapWriter.crc32(UnsafeRawBufferPointer(rebasing: raw[MapFormat.headerSize..<tableEnd])) == tableCRC else {
            throw MapError.checksum(path: path, section: "table")
        }
        var found = [String: Range<Int>]()
        for i in 0..<count {
            let e = MapFormat.headerSize + i * MapFormat.tableEntrySize
            let tagBytes = raw[e..<(e + 8)].prefix { $0 != 0 }
            let tag = String(decoding: tagBytes, as: UTF8.self)
            let off = raw.loadUnaligned(fromByteOffset: e + 8, as: UInt64.self).littleEndian
            let len = raw.loadUnaligned(fromByteOffset: e + 16, as: UInt64.self).littleEndian
            let crc = raw.loadUnaligned(fromByteOffset: e + 24, as: UInt32.self).littleEndian
            guard off % 8 == 0, off >= UInt64(tableEnd), len <= UInt64(size), off <= UInt64(size) - len else {
                throw MapError.corrupt(path: path, detail: "section \(tag) lies outside the file")
            }
            let range = Int(off)..<Int(off + len)
            guard MapWriter.crc32(UnsafeRawBufferPointer(rebasing: raw[range])) == crc else {
                throw MapError.checksum(path: path, section: tag)
            }
            found[tag] = range
        }
        for tag in MapFormat.Tag.allCases where found[tag.rawValue] == nil && !tag.isOptional {
            throw MapError.missingSection(path: path, section: tag.rawValue)
        }
        sections = found
        for tag in MapFormat.Tag.allCases where found[tag.rawValue] == nil { found[tag.rawValue] = 0..<0 }
        starts = MapFormat.Tag.allCases.map { found[$0.rawValue]!.lowerBound }
        ends = MapFormat.Tag.allCases.map { found[$0.rawValue]!.upperBound }
        func len(_ t: MapFormat.Tag) -> Int { found[t.rawValue]!.count }
        func check(_ ok: Bool, _ detail: String) throws { if !ok { throw MapError.corrupt(path: path, detail: detail) } }
        try check(len(.nodes) % 8 == 0, "NODES size")
        nodeCount = len(.nodes) / 8
        try check(len(.nodeFlags) == nodeCount, "NODEFLAG size")
        try check(len(.edges) % EdgeRecord.byteSize == 0, "EDGES size")
        edgeCount = len(.edges) / EdgeRecord.byteSize
        try check(len(.geometry) % 8 == 0, "GEOM size")
        geometryCount = len(.geometry) / 8
        try check(len(.wayIDs) % 8 == 0, "WAYIDS size")
        wayCount = len(.wayIDs) / 8
        try check(len(.names) >= 8, "NAMES size")
        let namesBase = found[MapFormat.Tag.names.rawValue]!.lowerBound
        nameCount = Int(raw.load(fromByteOffset: namesBase, as: UInt32.self).littleEndian)
        try check(len(.names) >= 4 + 4 * (nameCount + 1), "NAMES offsets")
        try check(len(.grid) >= GridHeader.byteSize, "GRID size")
        grid = GridHeader(raw: raw, offset: found[MapFormat.Tag.grid.rawValue]!.lowerBound)
        // the sections of (u32, u32) pairs: a count, then the pairs in ascending order, each
        // checked against what it points into; signposts have one entry per key, NOTURN one per pair
        func pairs(_ tag: MapFormat.Tag, keys: Int, values: Int, uniqueKeys: Bool) throws -> Int {
            let r = found[tag.rawValue]!
            guard !r.isEmpty else { return 0 }
            let n = r.count >= 4 ? Int(raw.loadUnaligned(fromByteOffset: r.lowerBound, as: UInt32.self).littleEndian) : -1
            try check(n >= 0 && r.count == 4 + 8 * n, "\(tag.rawValue) size")
            var previous: (UInt32, UInt32)? = nil
            for i in 0..<n {
                let key = raw.loadUnaligned(fromByteOffset: r.lowerBound + 4 + 8 * i, as: UInt32.self).littleEndian
                let value = raw.loadUnaligned(fromByteOffset: r.lowerBound + 8 + 8 * i, as: UInt32.self).littleEndian
                let ascending = previous.map { uniqueKeys ? $0.0 < key : ($0.0, $0.1) < (key, value) } ?? true
                try check(Int(key) < keys && Int(value) < values && ascending, "\(tag.rawValue) entry \(i)")
                previous = (key, value)
            }
            return n
        }
        destinationCount = try pairs(.destinations, keys: edgeCount * 2, values: nameCount, uniqueKeys: true)
        exitRefCount = try pairs(.exitRefs, keys: nodeCount, values: nameCount, uniqueKeys: true)
        turnLanesCount = try pairs(.turnLanes, keys: edgeCount * 2, values: nameCount, uniqueKeys: true)
        forbiddenTurnCount = try pairs(.forbiddenTurns, keys: edgeCount * 2, values: edgeCount * 2, uniqueKeys: false)
        turnLaneTextCount = try pairs(.turnLaneTexts, keys: edgeCount * 2, values: nameCount, uniqueKeys: true)
        turnIndexCount = len(.turnIndex) / 4
        bearingIndexCount = len(.bearingIndex) / 4
        (maneuverOverrides, maneuverOverridesByFirstEdge) = try RoadMap.readOverrides(
            raw, found[MapFormat.Tag.maneuvers.rawValue]!, nodeCount: nodeCount, edgeCount: edgeCount, path: path)
    }

    /// Entries of the signpost sections (0 for a map without them).
    let destinationCount: Int
    let exitRefCount: Int
    let turnLanesCount: Int
    /// Entries of NOTURN (0 for a map without it).
    let forbiddenTurnCount: Int
    /// Entries of TURNLANE, TURNIDX and BEARIDX.
    let turnLaneTextCount: Int
    let turnIndexCount: Int
    let bearingIndexCount: Int

    /// Mappers' maneuver overrides, and for each first edge of a path the overrides starting there.
    public let maneuverOverrides: [ManeuverOverride]
    public let maneuverOverridesByFirstEdge: [DirectedEdge: [Int]]

    private static func readOverrides(_ raw: UnsafeRawBufferPointer, _ r: Range<Int>, nodeCount: Int, edgeCount: Int,
                                      path: String) throws -> ([ManeuverOverride], [DirectedEdge: [Int]]) {
        guard !r.isEmpty else { return ([], [:]) }
        func bad(_ detail: String) -> MapError { MapError.corrupt(path: path, detail: "MANEUVR: \(detail)") }
        guard r.count >= 4 else { throw bad("size") }
        let count = Int(raw.loadUnaligned(fromByteOffset: r.lowerBound, as: UInt32.self).littleEndian)
        var out = [ManeuverOverride]()
        var byFirst = [DirectedEdge: [Int]]()
        var o = r.lowerBound + 4
        for i in 0..<count {
            guard o + 8 <= r.upperBound else { throw bad("override \(i) is cut off") }
            let via = raw.loadUnaligned(fromByteOffset: o, as: UInt32.self).littleEndian
            guard let kind = ManeuverOverride.Kind(rawValue: raw[o + 4]), let dir = ManeuverOverride.Direction(rawValue: raw[o + 5]) else {
                throw bad("override \(i) has an unknown kind or direction")
            }
            let n = Int(raw.loadUnaligned(fromByteOffset: o + 6, as: UInt16.self).littleEndian)
            o += 8
            guard n >= 2, o + 4 * n <= r.upperBound, Int(via) < nodeCount else { throw bad("override \(i) is out of range") }
            var edges = [DirectedEdge]()
            for k in 0..<n {
                let d = DirectedEdge(raw: raw.loadUnaligned(fromByteOffset: o + 4 * k, as: UInt32.self).littleEndian)
                guard Int(d.edge) < edgeCount else { throw bad("override \(i) refers to a missing edge") }
                edges.append(d)
            }
            o += 4 * n
            byFirst[edges[0], default: []].append(out.count)
            out.append(ManeuverOverride(kind: kind, direction: dir, viaNode: via, path: edges))
        }
        return (out, byFirst)
    }

    deinit { munmap(UnsafeMutableRawPointer(mutating: base), mappedSize) }

    // MARK: raw access

    @inline(__always) func section(_ tag: MapFormat.Tag) -> Int { starts[tag.ordinal] }
    @inline(__always) func u32(_ offset: Int) -> UInt32 { base.load(fromByteOffset: offset, as: UInt32.self).littleEndian }
    /// Bytes of the file in place (valid while the map lives).
    @inline(__always) func bytes(at offset: Int, count: Int) -> UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(start: base + offset, count: count)
    }
    @inline(__always) func i32(_ offset: Int) -> Int32 { base.load(fromByteOffset: offset, as: Int32.self).littleEndian }
    /// A stored coordinate (i32 lat e7, i32 lon e7) at a byte offset of the file.
    @inline(__always) func coordinate(at offset: Int) -> Coordinate {
        Coordinate(latitude: E7.decode(i32(offset)), longitude: E7.decode(i32(offset + 4)))
    }
    @inline(__always) func u8(_ offset: Int) -> UInt8 { base.load(fromByteOffset: offset, as: UInt8.self) }

    /// The section's bytes (0..<0 for an optional section the file lacks).
    @inline(__always) public func sectionRange(_ tag: MapFormat.Tag) -> Range<Int> { starts[tag.ordinal]..<ends[tag.ordinal] }
    public var sectionTags: [String] { sections.keys.sorted() }
    public var fileSizeBytes: Int { mappedSize }

    // MARK: content

    /// Build information as JSON text.
    public var metaJSON: String {
        let r = sections[MapFormat.Tag.meta.rawValue]!
        return String(decoding: UnsafeRawBufferPointer(start: base + r.lowerBound, count: r.count), as: UTF8.self)
    }

    public func coordinate(ofNode n: UInt32) -> Coordinate {
        let o = section(.nodes) + Int(n) * 8
        return coordinate(at: o)
    }

    public func flags(ofNode n: UInt32) -> NodeFlags { NodeFlags(rawValue: u8(section(.nodeFlags) + Int(n))) }

    public func edge(_ i: UInt32) -> EdgeRecord {
        let o = section(.edges) + Int(i) * EdgeRecord.byteSize
        return EdgeRecord(
            from: u32(o), to: u32(o + 4), geometryStart: u32(o + 8), geometryCount: u32(o + 12),
            lengthMeters: Float(bitPattern: u32(o + 16)), nameID: u32(o + 20), refID: u32(o + 24), wayIndex: u32(o + 28),
            flags: EdgeFlags(rawValue: base.load(fromByteOffset: o + 32, as: UInt16.self).littleEndian),
            roadClass: RoadClass(rawValue: u8(o + 34)) ?? .road,
            speedForwardKmh: u8(o + 35), speedBackwardKmh: u8(o + 36),
            maxspeedForwardKmh: u8(o + 37), maxspeedBackwardKmh: u8(o + 38))
    }

    /// Single fields of an edge, without decoding the whole record (hot paths).
    @inline(__always) public func lengthMeters(ofEdge i: UInt32) -> Double {
        Double(Float(bitPattern: u32(section(.edges) + Int(i) * EdgeRecord.byteSize + 16)))
    }
    @inline(__always) public func flags(ofEdge i: UInt32) -> EdgeFlags {
        EdgeFlags(rawValue: base.load(fromByteOffset: section(.edges) + Int(i) * EdgeRecord.byteSize + 32, as: UInt16.self).littleEndian)
    }
    /// Whether no route may start or end on a road: a private service road (a yard's lane, a
    /// driveway, a car park's aisle: OSRM's startpoint rule), ferries aside. A car off its route
    /// on one is off the network a new route can start from (issue #24).
    public func isNoStartRoad(_ edge: UInt32) -> Bool {
        let f = flags(ofEdge: edge)
        return f.contains(.noStartpoint) && !f.contains(.ferry)
    }
    @inline(__always) public func nameID(ofEdge i: UInt32) -> UInt32 { u32(section(.edges) + Int(i) * EdgeRecord.byteSize + 20) }
    @inline(__always) public func refID(ofEdge i: UInt32) -> UInt32 { u32(section(.edges) + Int(i) * EdgeRecord.byteSize + 24) }

    /// Directed edges a car may leave `node` by.
    public func outgoing(_ node: UInt32) -> [DirectedEdge] { adjacency(.outIndex, .outEdges, node) }
    /// Directed edges a car may arrive at `node` by.
    public func incoming(_ node: UInt32) -> [DirectedEdge] { adjacency(.inIndex, .inEdges, node) }

    /// Calls `body` for each directed edge leaving `node`, without allocating.
    @inline(__always) public func forEachOutgoing(_ node: UInt32, _ body: (DirectedEdge) -> Void) {
        let idx = section(.outIndex) + Int(node) * 4
        let lo = Int(u32(idx)), hi = Int(u32(idx + 4))
        let list = section(.outEdges)
        for k in lo..<hi { body(DirectedEdge(raw: u32(list + k * 4))) }
    }

    /// Positions of a node's outgoing edges in the adjacency list, for loops without a closure.
    @inline(__always) public func outgoingRange(_ node: UInt32) -> Range<Int> {
        let idx = section(.outIndex) + Int(node) * 4
        return Int(u32(idx))..<Int(u32(idx + 4))
    }
    @inline(__always) public func outgoingEdge(at k: Int) -> DirectedEdge { DirectedEdge(raw: u32(section(.outEdges) + k * 4)) }
    /// The same for the edges arriving at a node.
    @inline(__always) public func incomingRange(_ node: UInt32) -> Range<Int> {
        let idx = section(.inIndex) + Int(node) * 4
        return Int(u32(idx))..<Int(u32(idx + 4))
    }
    @inline(__always) public func incomingEdge(at k: Int) -> DirectedEdge { DirectedEdge(raw: u32(section(.inEdges) + k * 4)) }

    private func adjacency(_ index: MapFormat.Tag, _ list: MapFormat.Tag, _ node: UInt32) -> [DirectedEdge] {
        let idx = section(index) + Int(node) * 4
        let lo = Int(u32(idx)), hi = Int(u32(idx + 4))
        let l = section(list)
        return (lo..<hi).map { DirectedEdge(raw: u32(l + $0 * 4)) }
    }

    public func wayID(_ index: UInt32) -> Int64 {
        base.load(fromByteOffset: section(.wayIDs) + Int(index) * 8, as: Int64.self).littleEndian
    }

    /// Bounding box of the graph nodes: (min, max).
    public var bounds: (min: Coordinate, max: Coordinate) {
        let maxLat = grid.minLat + Double(grid.rows) * grid.cellLat
        let maxLon = grid.minLon + Double(grid.cols) * grid.cellLon
        return (Coordinate(latitude: grid.minLat, longitude: grid.minLon), Coordinate(latitude: maxLat, longitude: maxLon))
    }

    /// The spatial grid's cells overlapping a box, as cell numbers (row-major), for callers that
    /// cache per cell.
    public func gridCells(nearLatitude lat: ClosedRange<Double>, longitude lon: ClosedRange<Double>, into out: inout [Int]) {
        out.removeAll(keepingCapacity: true)
        guard let (r0, r1, c0, c1) = cellRange(lat, lon) else { return }
        for r in r0...r1 { for c in c0...c1 { out.append(r * grid.cols + c) } }
    }

    /// A grid cell's extent: (south-west corner, north-east corner).
    public func gridCellBounds(_ cell: Int) -> (min: Coordinate, max: Coordinate) {
        let g = grid
        let r = cell / max(1, g.cols), c = cell % max(1, g.cols)
        let lat = g.minLat + Double(r) * g.cellLat, lon = g.minLon + Double(c) * g.cellLon
        return (Coordinate(latitude: lat, longitude: lon), Coordinate(latitude: lat + g.cellLat, longitude: lon + g.cellLon))
    }

    /// The edges listed in one grid cell (an edge crossing several cells is listed in each).
    public func edges(inGridCell cell: Int, into out: inout [UInt32]) {
        out.removeAll(keepingCapacity: true)
        let g = grid
        guard cell >= 0, cell < g.rows * g.cols else { return }
        let offsets = section(.grid) + GridHeader.byteSize
        let entries = offsets + (g.rows * g.cols + 1) * 4
        let lo = Int(u32(offsets + cell * 4)), hi = Int(u32(offsets + cell * 4 + 4))
        for k in lo..<hi { out.append(u32(entries + k * 4)) }
    }

    func cellRange(_ lat: ClosedRange<Double>, _ lon: ClosedRange<Double>) -> (Int, Int, Int, Int)? {
        let g = grid
        guard lat.lowerBound.isFinite, lat.upperBound.isFinite, lon.lowerBound.isFinite, lon.upperBound.isFinite else { return nil }
        // (each clamped to the grid before it becomes an integer: a latitude of 1e295 is finite)
        func cell(_ q: Double, _ n: Int) -> Int { Int(min(Double(n), max(-1, q.rounded(.down)))) }
        let r0 = max(0, cell((lat.lowerBound - g.minLat) / g.cellLat, g.rows))
        let r1 = min(g.rows - 1, cell((lat.upperBound - g.minLat) / g.cellLat, g.rows))
        let c0 = max(0, cell((lon.lowerBound - g.minLon) / g.cellLon, g.cols))
        let c1 = min(g.cols - 1, cell((lon.upperBound - g.minLon) / g.cellLon, g.cols))
        guard r0 <= r1, c0 <= c1 else { return nil }
        return (r0, r1, c0, c1)
    }

    /// Edges whose shape may pass within the box (grid cells overlapping it), each once.
    public func edges(nearLatitude lat: ClosedRange<Double>, longitude lon: ClosedRange<Double>, into out: inout [UInt32]) {
        out.removeAll(keepingCapacity: true)
        let g = grid
        guard let (r0, r1, c0, c1) = cellRange(lat, lon) else { return }
        let s = section(.grid)
        let offsets = s + GridHeader.byteSize
        let entries = offsets + (g.rows * g.cols + 1) * 4
        for r in r0...r1 {
            for c in c0...c1 {
                let cell = r * g.cols + c
                let lo = Int(u32(offsets + cell * 4)), hi = Int(u32(offsets + cell * 4 + 4))
                for k in lo..<hi { out.append(u32(entries + k * 4)) }
            }
        }
        if r0 != r1 || c0 != c1 {
            out.sort()
            var w = 0
            for i in 0..<out.count where i == 0 || out[i] != out[i - 1] { out[w] = out[i]; w += 1 }
            out.removeLast(out.count - w)
        }
    }
}

/// The spatial grid's header (48 bytes): origin and cell size in degrees, rows and columns.
struct GridHeader: Sendable {
    static let byteSize = 48
    let minLat, minLon, cellLat, cellLon: Double
    let rows, cols: Int
    init(raw: UnsafeRawBufferPointer, offset o: Int) {
        minLat = Double(bitPattern: raw.loadUnaligned(fromByteOffset: o, as: UInt64.self).littleEndian)
        minLon = Double(bitPattern: raw.loadUnaligned(fromByteOffset: o + 8, as: UInt64.self).littleEndian)
        cellLat = Double(bitPattern: raw.loadUnaligned(fromByteOffset: o + 16, as: UInt64.self).littleEndian)
        cellLon = Double(bitPattern: raw.loadUnaligned(fromByteOffset: o + 24, as: UInt64.self).littleEndian)
        rows = Int(raw.loadUnaligned(fromByteOffset: o + 32, as: UInt32.self).littleEndian)
        cols = Int(raw.loadUnaligned(fromByteOffset: o + 36, as: UInt32.self).littleEndian)
    }
}
