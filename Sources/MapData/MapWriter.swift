import CZlib
import FoundationEssentials
import Glibc
import Geo
import Platform

/// Writes a RoadGraph as a .tmap file (format in MapFormat.swift), through `AtomicFile`: a crash
/// or a full disk never leaves a half-written map under the real name, and only a file is replaced.
public enum MapWriter {
    /// Grid cell size in degrees of latitude (about 220 m); longitude cells are scaled to be square.
    public static let gridCellDegreesLatitude = 0.002
    /// The most grid cells a map has (16 MB of offsets, as much for the addresses' index).
    public static let maxGridCells = 4_000_000

    public static func write(_ graph: RoadGraph, to path: String) throws {
        let data = encode(graph)
        do { try AtomicFile.write(data, to: path) } catch let e as AtomicFile.WriteError {
            throw MapError.cannotWrite(path: path, reason: e.reason)
        }
    }

    /// The whole file in memory.
    public static func encode(_ graph: RoadGraph) -> Data {
        var sections: [(MapFormat.Tag, [UInt8])] = []
        sections.append((.meta, Array(metaJSON(graph).utf8)))
        var b = ByteBuffer()
        for c in graph.nodes { b.append(E7.encode(c.latitude)); b.append(E7.encode(c.longitude)) }
        sections.append((.nodes, b.take()))
        sections.append((.nodeFlags, graph.nodeFlags.map(\.rawValue)))
        for e in graph.edges {
            b.append(e.from); b.append(e.to); b.append(e.geometryStart); b.append(e.geometryCount)
            b.append(e.lengthMeters.bitPattern); b.append(e.nameID); b.append(e.refID); b.append(e.wayIndex)
            b.append(e.flags.rawValue); b.append(e.roadClass.rawValue)
            b.append(e.speedForwardKmh); b.append(e.speedBackwardKmh)
            b.append(e.maxspeedForwardKmh); b.append(e.maxspeedBackwardKmh); b.append(UInt8(0))
        }
        sections.append((.edges, b.take()))
        for c in graph.geometry { b.append(E7.encode(c.latitude)); b.append(E7.encode(c.longitude)) }
        sections.append((.geometry, b.take()))

        let (outIdx, out, inIdx, inn) = adjacency(graph)
        for v in outIdx { b.append(v) }
        sections.append((.outIndex, b.take()))
        for v in out { b.append(v) }
        sections.append((.outEdges, b.take()))
        for v in inIdx { b.append(v) }
        sections.append((.inIndex, b.take()))
        for v in inn { b.append(v) }
        sections.append((.inEdges, b.take()))

        b.append(UInt32(graph.names.count))
        var offset: UInt32 = 0
        var bytes = [UInt8]()
        for name in graph.names {
            b.append(offset)
            let u = Array(name.utf8)
            bytes += u
            offset += UInt32(u.count)
        }
        b.append(offset)
        b.bytes += bytes
        sections.append((.names, b.take()))
        for id in graph.wayIDs { b.append(id) }
        sections.append((.wayIDs, b.take()))
        let (gridBytes, placeIndex, placesSorted, cellOf, cellCount) = grid(graph)
        sections.append((.grid, gridBytes))
        for v in placeIndex { b.append(v) }
        sections.append((.poiIndex, b.take()))
        for pl in placesSorted {
            b.append(E7.encode(pl.coordinate.latitude)); b.append(E7.encode(pl.coordinate.longitude))
            b.append(pl.nameID); b.append(pl.kind.rawValue)
        }
        sections.append((.pois, b.take()))
        if !graph.search.isEmpty { sections += searchSections(graph.search, cellOf: cellOf, cellCount: cellCount) }
        b.append(UInt32(graph.maneuverOverrides.count))
        for o in graph.maneuverOverrides {
            b.append(o.viaNode); b.append(o.kind.rawValue); b.append(o.direction.rawValue); b.append(UInt16(o.path.count))
            for d in o.path { b.append(d.raw) }
        }
        sections.append((.maneuvers, b.take()))
        b.append(UInt32(graph.destinations.count))
        for (d, name) in graph.destinations.sorted(by: { $0.key < $1.key }) { b.append(d.raw); b.append(name) }
        sections.append((.destinations, b.take()))
        b.append(UInt32(graph.exitRefs.count))
        for (n, name) in graph.exitRefs.sorted(by: { $0.key < $1.key }) { b.append(n); b.append(name) }
        sections.append((.exitRefs, b.take()))
        b.append(UInt32(graph.turnLanes.count))
        for (d, name) in graph.turnLanes.sorted(by: { $0.key < $1.key }) { b.append(d.raw); b.append(name) }
        sections.append((.turnLanes, b.take()))
        // (ascending and each once, as the reader demands)
        let forbidden = Set(graph.forbiddenTurns).sorted()
        b.append(UInt32(forbidden.count))
        for t in forbidden { b.append(UInt32(t >> 32)); b.append(UInt32(t & 0xFFFF_FFFF)) }
        sections.append((.forbiddenTurns, b.take()))
        // (a graph built without the turn analysis: no turn decided anywhere, tables of the right size)
        var t = graph.turnTables
        if t.index.isEmpty {
            t.index = [UInt32](repeating: 0, count: graph.edges.count * 2 + 1)
            t.entry = [UInt32](repeating: 0, count: graph.edges.count * 2)
            t.bearingIndex = [UInt32](repeating: 0, count: graph.nodes.count + 1)
            t.segregated = [UInt8](repeating: 0, count: (graph.edges.count * 2 + 7) / 8)
        }
        for v in t.index { b.append(v) }
        sections.append((.turnIndex, b.take()))
        for v in t.records { b.append(v) }
        sections.append((.turns, b.take()))
        for v in t.entry { b.append(v) }
        sections.append((.turnEntry, b.take()))
        b.append(UInt32(t.laneTexts.count))
        for (d, name) in t.laneTexts.sorted(by: { $0.key < $1.key }) { b.append(d.raw); b.append(name) }
        sections.append((.turnLaneTexts, b.take()))
        for v in t.bearingIndex { b.append(v) }
        sections.append((.bearingIndex, b.take()))
        for v in t.bearings { b.append(v) }
        sections.append((.bearings, b.take()))
        sections.append((.segregated, t.segregated))
        let r = graph.routing
        for v in r.weights { b.append(v) }
        sections.append((.routingWeights, b.take()))
        for v in r.durations { b.append(v) }
        sections.append((.routingDurations, b.take()))
        for v in r.copies { b.append(v) }
        sections.append((.routingCopies, b.take()))
        for (indexTag, listTag, index, list) in [(MapFormat.Tag.upIndex, MapFormat.Tag.up, r.upIndex, r.up),
                                                 (.downIndex, .down, r.downIndex, r.down)] {
            for v in index { b.append(v) }
            sections.append((indexTag, b.take()))
            for a in list { b.append(a.node); b.append(a.weight); b.append(a.middle); b.append(a.duration) }
            sections.append((listTag, b.take()))
        }
        return assemble(sections)
    }

    static func metaJSON(_ graph: RoadGraph) -> String {
        var s = "{"
        for (i, (k, v)) in graph.meta.enumerated() {
            if i > 0 { s += "," }
            s += "\"\(k)\":\(v)"
        }
        return s + "}"
    }

    /// CSR adjacency: for each node, the edges a car may leave it by, and arrive at it by.
    public static func adjacency(_ g: RoadGraph) -> ([UInt32], [UInt32], [UInt32], [UInt32]) {
        let n = g.nodes.count
        var outLists = [[UInt32]](repeating: [], count: n)
        var inLists = [[UInt32]](repeating: [], count: n)
        for (i, e) in g.edges.enumerated() {
            let id = UInt32(i) << 1
            if e.flags.contains(.forward) {
                outLists[Int(e.from)].append(id)
                inLists[Int(e.to)].append(id)
            }
            if e.flags.contains(.backward) {
                outLists[Int(e.to)].append(id | 1)
                inLists[Int(e.from)].append(id | 1)
            }
        }
        func flatten(_ lists: [[UInt32]]) -> ([UInt32], [UInt32]) {
            var idx = [UInt32](); idx.reserveCapacity(n + 1)
            var flat = [UInt32]()
            for l in lists { idx.append(UInt32(flat.count)); flat += l }
            idx.append(UInt32(flat.count))
            return (idx, flat)
        }
        let (oi, o) = flatten(outLists)
        let (ii, inn) = flatten(inLists)
        return (oi, o, ii, inn)
    }

    /// The spatial grid of edges, the places sorted by the same cells with their index, and the
    /// cell of a point (for the other sections indexed by cell).
    static func grid(_ g: RoadGraph) -> ([UInt8], [UInt32], [Place], (Coordinate) -> Int, Int) {
        var minLat = 90.0, maxLat = -90.0, minLon = 180.0, maxLon = -180.0
        for c in g.nodes {
            minLat = min(minLat, c.latitude); maxLat = max(maxLat, c.latitude)
            minLon = min(minLon, c.longitude); maxLon = max(maxLon, c.longitude)
        }
        if g.nodes.isEmpty { minLat = 0; maxLat = 0; minLon = 0; maxLon = 0 }
        // Cells of about 220 m, as long as the box needs at most 16 cells a road edge (at least
        // 65536, at most `maxGridCells`); a larger box gets larger cells (issue #29: two roads
        // 1000 km apart made a 542 MB map, and a road from pole to pole asked for 129.6 GB).
        // Issue #28's sparse index, whose size follows the roads alone, is the real cure.
        let cellBudget = min(maxGridCells, max(65_536, 16 * g.edges.count))
        var cellLat = gridCellDegreesLatitude
        var cellLon = cellLat / max(0.05, cos((minLat + maxLat) / 2 * .pi / 180))
        func count(_ span: Double, _ size: Double) -> Int { max(1, Int((span / size).rounded(.down)) + 1) }
        let wanted = Double(count(maxLat - minLat, cellLat)) * Double(count(maxLon - minLon, cellLon))
        if wanted > Double(cellBudget) {
            let grow = (wanted / Double(cellBudget)).squareRoot() * 1.01
            cellLat *= grow
            cellLon *= grow
        }
        let rows = count(maxLat - minLat, cellLat), cols = count(maxLon - minLon, cellLon)
        var cells = [[UInt32]](repeating: [], count: rows * cols)
        func cell(_ lat: Double, _ lon: Double) -> (Int, Int) {
            (min(rows - 1, max(0, Int((lat - minLat) / cellLat))), min(cols - 1, max(0, Int((lon - minLon) / cellLon))))
        }
        for (i, e) in g.edges.enumerated() {
            var pts = [g.nodes[Int(e.from)]]
            pts += g.geometry[Int(e.geometryStart)..<Int(e.geometryStart + e.geometryCount)]
            pts.append(g.nodes[Int(e.to)])
            var seen = Set<Int>()
            for k in 1..<pts.count {
                // along the segment in steps of under half a cell, each step's box of cells (at
                // most 2 × 2): the cells the line crosses, not every cell of its bounding box
                let a = pts[k - 1], z = pts[k]
                let steps = max(1, Int(max(abs(z.latitude - a.latitude) / cellLat, abs(z.longitude - a.longitude) / cellLon) * 2) + 1)
                var (pr, pc) = cell(a.latitude, a.longitude)
                for s in 1...steps {
                    let f = Double(s) / Double(steps)
                    let (r, c) = cell(a.latitude + (z.latitude - a.latitude) * f, a.longitude + (z.longitude - a.longitude) * f)
                    for rr in min(pr, r)...max(pr, r) {
                        for cc in min(pc, c)...max(pc, c) where seen.insert(rr * cols + cc).inserted {
                            cells[rr * cols + cc].append(UInt32(i))
                        }
                    }
                    (pr, pc) = (r, c)
                }
            }
        }
        var b = ByteBuffer()
        b.append(minLat.bitPattern); b.append(minLon.bitPattern)
        b.append(cellLat.bitPattern); b.append(cellLon.bitPattern)
        b.append(UInt32(rows)); b.append(UInt32(cols))
        b.append(UInt64(0))  // reserved: header is 48 bytes
        var offset: UInt32 = 0
        for c in cells { b.append(offset); offset += UInt32(c.count) }
        b.append(offset)
        for c in cells { for e in c { b.append(e) } }
        var placeCells = [[Place]](repeating: [], count: rows * cols)
        for pl in g.places {
            let (r, c) = cell(pl.coordinate.latitude, pl.coordinate.longitude)
            placeCells[r * cols + c].append(pl)
        }
        var index = [UInt32](), sorted = [Place]()
        for c in placeCells { index.append(UInt32(sorted.count)); sorted += c }
        index.append(UInt32(sorted.count))
        return (b.take(), index, sorted, { let (r, c) = cell($0.latitude, $0.longitude); return r * cols + c }, rows * cols)
    }

    static func assemble(_ sections: [(MapFormat.Tag, [UInt8])]) -> Data {
        let tableStart = MapFormat.headerSize
        var offset = tableStart + sections.count * MapFormat.tableEntrySize
        var table = ByteBuffer()
        var layout: [(Int, [UInt8])] = []
        for (tag, bytes) in sections {
            offset = (offset + 7) & ~7
            var tagBytes = Array(tag.rawValue.utf8)
            tagBytes += [UInt8](repeating: 0, count: 8 - tagBytes.count)
            table.bytes += tagBytes
            table.append(UInt64(offset))
            table.append(UInt64(bytes.count))
            table.append(crc32(bytes))
            table.append(UInt32(0))
            layout.append((offset, bytes))
            offset += bytes.count
        }
        let fileSize = offset
        var out = [UInt8](repeating: 0, count: fileSize)
        var header = ByteBuffer()
        header.bytes += MapFormat.magic
        header.append(MapFormat.version)
        header.append(UInt32(sections.count))
        header.append(UInt64(fileSize))
        header.append(crc32(table.bytes))
        header.append(UInt32(0))
        out.replaceSubrange(0..<header.bytes.count, with: header.bytes)
        out.replaceSubrange(tableStart..<(tableStart + table.bytes.count), with: table.bytes)
        for (off, bytes) in layout { out.replaceSubrange(off..<(off + bytes.count), with: bytes) }
        return Data(out)
    }

    public static func crc32<C: ContiguousBytes>(_ bytes: C) -> UInt32 {
        bytes.withUnsafeBytes { raw in
            var crc: UInt = CZlib.crc32(0, nil, 0)
            var base = raw.baseAddress?.assumingMemoryBound(to: UInt8.self)
            var left = raw.count
            while left > 0, let p = base {
                let chunk = min(left, 1 << 30)
                crc = CZlib.crc32(crc, p, uInt(chunk))
                base = p + chunk
                left -= chunk
            }
            return UInt32(truncatingIfNeeded: crc)
        }
    }
}

/// Little-endian byte accumulation for the writer.
struct ByteBuffer {
    var bytes: [UInt8] = []
    mutating func append<T: FixedWidthInteger>(_ v: T) {
        withUnsafeBytes(of: v.littleEndian) { bytes += $0 }
    }
    mutating func take() -> [UInt8] {
        defer { bytes = [] }
        return bytes
    }
}
