/// A .tmap's bytes as sections (MapFormat.swift's layout), for the tools that change a map on
/// purpose: the fuzzing harness (fuzz/) and the tests that damage a map in one precise way, then
/// make its checksums right again so that the semantic checks, not the CRCs, are what is tested.
public struct MapFile {
    public var bytes: [UInt8]

    public init(bytes: [UInt8]) { self.bytes = bytes }

    /// The byte range of the section with `tag` ("CHUP"), when the table holds one inside the file.
    public func section(_ tag: String) -> Range<Int>? {
        for (name, range) in sections where name == tag { return range }
        return nil
    }

    /// Every section the table lists inside the file, with its tag.
    public var sections: [(String, Range<Int>)] {
        guard bytes.count >= MapFormat.headerSize else { return [] }
        let count = u32(12)
        guard count < 1000, MapFormat.headerSize + count * MapFormat.tableEntrySize <= bytes.count else { return [] }
        return (0..<count).compactMap { i in
            let e = MapFormat.headerSize + i * MapFormat.tableEntrySize
            guard let off = u64(e + 8), let len = u64(e + 16), off <= bytes.count, len <= bytes.count - off else { return nil }
            let tag = String(decoding: bytes[e..<(e + 8)].prefix { $0 != 0 }, as: UTF8.self)
            return (tag, off..<(off + len))
        }
    }

    /// Each section's CRC-32 in the table, then the table's in the header; entries pointing
    /// outside the file are left alone (opening must refuse them).
    public mutating func recomputeChecksums() {
        guard bytes.count >= MapFormat.headerSize else { return }
        let count = u32(12)
        let tableEnd = MapFormat.headerSize + count * MapFormat.tableEntrySize
        guard count < 1000, tableEnd <= bytes.count else { return }
        for i in 0..<count {
            let e = MapFormat.headerSize + i * MapFormat.tableEntrySize
            guard let off = u64(e + 8), let len = u64(e + 16), off <= bytes.count, len <= bytes.count - off else { continue }
            put(MapWriter.crc32(bytes[off..<(off + len)]), at: e + 24)
        }
        put(MapWriter.crc32(bytes[MapFormat.headerSize..<tableEnd]), at: 24)
    }

    public func u32(_ o: Int) -> Int { Int(bytes[o]) | Int(bytes[o + 1]) << 8 | Int(bytes[o + 2]) << 16 | Int(bytes[o + 3]) << 24 }

    public mutating func put(_ v: UInt32, at o: Int) {
        for k in 0..<4 { bytes[o + k] = UInt8(truncatingIfNeeded: v >> (8 * k)) }
    }

    private func u64(_ o: Int) -> Int? {
        var v: UInt64 = 0
        for k in (0..<8).reversed() { v = v << 8 | UInt64(bytes[o + k]) }
        return v < UInt64(Int.max) ? Int(v) : nil
    }
}
