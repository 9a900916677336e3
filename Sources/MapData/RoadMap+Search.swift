import Geo

/// Little-endian u32s read in place from the mapped file (a posting list, an object's terms).
public struct MappedU32s: RandomAccessCollection, Sendable {
    // Read-only bytes of the map's mapping, which lives as long as the RoadMap (immutable,
    // unmapped in deinit only), so sharing them between threads is safe while the map is held.
    nonisolated(unsafe) let bytes: UnsafeRawBufferPointer
    public var startIndex: Int { 0 }
    public var endIndex: Int { bytes.count / 4 }
    public subscript(i: Int) -> UInt32 { bytes.loadUnaligned(fromByteOffset: i * 4, as: UInt32.self).littleEndian }
}

/// The search sections read in place (layout in MapFormat.swift; built by SearchIndexBuilder).
extension RoadMap {
    /// Whether the map was imported with a search index (with something in it).
    public var hasSearchIndex: Bool { !sectionRange(.searchObjects).isEmpty }

    public var searchTermCount: Int { hasSearchIndex ? Int(u32(section(.searchTerms))) : 0 }
    public var searchObjectCount: Int { sectionRange(.searchObjects).count / SearchObject.byteSize }
    public var searchAddressCount: Int { sectionRange(.searchAddresses).count / SearchAddress.byteSize }

    /// The UTF-8 bytes of term `i` (valid while the map lives).
    public func searchTermBytes(_ i: Int) -> UnsafeRawBufferPointer {
        let s = section(.searchTerms)
        let n = searchTermCount
        let lo = Int(u32(s + 4 + i * 4)), hi = Int(u32(s + 8 + i * 4))
        return bytes(at: s + 4 + (n + 1) * 4 + lo, count: hi - lo)
    }

    /// The first term not below `key` in byte order (terms are sorted: the terms starting with
    /// a prefix are a run from here).
    public func searchTermLowerBound(_ key: [UInt8]) -> Int {
        var lo = 0, hi = searchTermCount
        while lo < hi {
            let mid = (lo + hi) / 2
            if searchTermBytes(mid).lexicographicallyPrecedes(key) { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }

    /// The id of the term spelt exactly so, nil when the map has none.
    public func searchTerm(exactly key: [UInt8]) -> Int? {
        let t = searchTermLowerBound(key)
        return t < searchTermCount && searchTermBytes(t).elementsEqual(key) ? t : nil
    }

    /// The objects whose names hold term `i`, ascending.
    public func searchPostings(_ term: Int) -> MappedU32s {
        let idx = section(.searchPostingIndex)
        let lo = Int(u32(idx + term * 4)), hi = Int(u32(idx + term * 4 + 4))
        return MappedU32s(bytes: bytes(at: section(.searchPostings) + lo * 4, count: (hi - lo) * 4))
    }

    public func searchObject(_ i: Int) -> SearchObject {
        let o = section(.searchObjects) + i * SearchObject.byteSize
        return SearchObject(
            coordinate: coordinate(at: o), labelID: u32(o + 8), city: u32(o + 12), suburb: u32(o + 16),
            termStart: u32(o + 20), termCount: UInt16(truncatingIfNeeded: u32(o + 24)), nameTermCount: u8(o + 26),
            primaryTermCount: u8(o + 27), addressStart: u32(o + 28), addressCount: u32(o + 32),
            kind: SearchObject.Kind(rawValue: u8(o + 36)) ?? .poi, category: u8(o + 37), rank: u8(o + 38))
    }

    /// The term ids of an object (names first, then context).
    public func searchTerms(of object: SearchObject) -> MappedU32s {
        MappedU32s(bytes: bytes(at: section(.searchObjectTerms) + Int(object.termStart) * 4, count: Int(object.termCount) * 4))
    }

    public func searchAddress(_ i: Int) -> SearchAddress {
        let o = section(.searchAddresses) + i * SearchAddress.byteSize
        return SearchAddress(coordinate: coordinate(at: o), numberID: u32(o + 8), object: u32(o + 12))
    }

    /// The nearest house number within `radiusMeters`, with its distance.
    public func nearestAddress(to c: Coordinate, radiusMeters: Double) -> (SearchAddress, Double)? {
        guard hasSearchIndex, c.isValid, radiusMeters.isFinite, radiusMeters >= 0 else { return nil }
        let ruler = CheapRuler(latitude: c.latitude)
        let g = grid
        let dLat = radiusMeters / ruler.ky, dLon = radiusMeters / ruler.kx
        guard let (r0, r1, c0, c1) = cellRange((c.latitude - dLat)...(c.latitude + dLat), (c.longitude - dLon)...(c.longitude + dLon)) else {
            return nil
        }
        var best: (SearchAddress, Double)?
        let idx = section(.searchAddressIndex), cells = section(.searchAddressCells)
        for r in r0...r1 {
            for col in c0...c1 {
                let cell = r * g.cols + col
                for k in Int(u32(idx + cell * 4))..<Int(u32(idx + cell * 4 + 4)) {
                    let a = searchAddress(Int(u32(cells + k * 4)))
                    let d = ruler.distance(c, a.coordinate)
                    if d <= radiusMeters, d < (best?.1 ?? .infinity) { best = (a, d) }
                }
            }
        }
        return best
    }

    /// Checks the search sections (called from validate()): all or none, every index in range.
    func validateSearch() throws {
        func check(_ ok: Bool, _ detail: @autoclosure () -> String) throws {
            if !ok { throw MapError.corrupt(path: path, detail: detail()) }
        }
        let tags = MapFormat.Tag.allCases.filter(\.isSearch)
        let stored = Set(sectionTags)
        let present = tags.filter { stored.contains($0.rawValue) }
        guard !present.isEmpty else { return }
        try check(present.count == tags.count && sectionRange(.searchTerms).count >= 8,
                  "search sections incomplete (have \(present.map(\.rawValue).joined(separator: ",")))")
        let terms = searchTermCount, objects = searchObjectCount, addresses = searchAddressCount
        let dict = sectionRange(.searchTerms)
        try check(dict.count >= 4 + (terms + 1) * 4, "SDICT offsets")
        let textBytes = dict.count - 4 - (terms + 1) * 4
        var previous = 0
        for k in 0...terms {
            let v = Int(u32(dict.lowerBound + 4 + k * 4))
            try check(v >= previous && v <= textBytes, "SDICT offsets are not ascending")
            previous = v
        }
        for k in 1..<max(1, terms) {
            try check(searchTermBytes(k - 1).lexicographicallyPrecedes(searchTermBytes(k)), "SDICT term \(k) is out of order")
        }
        try check(sectionRange(.searchPostingIndex).count == (terms + 1) * 4, "SPOSTIDX size")
        try check(sectionRange(.searchPostings).count % 4 == 0, "SPOST size")
        let postings = sectionRange(.searchPostings).count / 4
        previous = 0
        for k in 0...terms {
            let v = Int(u32(section(.searchPostingIndex) + k * 4))
            try check(v >= previous && v <= postings, "SPOSTIDX is not ascending")
            previous = v
        }
        try check(previous == postings, "SPOSTIDX does not cover SPOST")
        for k in 0..<postings { try check(Int(u32(section(.searchPostings) + k * 4)) < objects, "SPOST entry \(k) is out of range") }
        try check(sectionRange(.searchObjects).count % SearchObject.byteSize == 0, "SOBJ size")
        try check(sectionRange(.searchObjectTerms).count % 4 == 0, "SOTERM size")
        let objectTerms = sectionRange(.searchObjectTerms).count / 4
        for k in 0..<objectTerms { try check(Int(u32(section(.searchObjectTerms) + k * 4)) < terms, "SOTERM entry \(k) is out of range") }
        try check(sectionRange(.searchAddresses).count % SearchAddress.byteSize == 0, "SADDR size")
        for i in 0..<objects {
            let o = searchObject(i)
            try check(Int(o.labelID) < nameCount, "search object \(i) refers to a missing name")
            try check(o.city == SearchObject.none || Int(o.city) < objects, "search object \(i) has no such city")
            try check(o.suburb == SearchObject.none || Int(o.suburb) < objects, "search object \(i) has no such suburb")
            try check(Int(o.termStart) + Int(o.termCount) <= objectTerms && Int(o.nameTermCount) <= Int(o.termCount)
                      && o.primaryTermCount <= o.nameTermCount, "search object \(i) refers to missing terms")
            try check(Int(o.addressStart) + Int(o.addressCount) <= addresses, "search object \(i) refers to missing addresses")
        }
        for i in 0..<addresses {
            let a = searchAddress(i)
            try check(Int(a.numberID) < nameCount && Int(a.object) < objects, "address \(i) is out of range")
        }
        let cells = grid.rows * grid.cols
        try check(sectionRange(.searchAddressIndex).count == (cells + 1) * 4, "SADRIDX size")
        try check(sectionRange(.searchAddressCells).count == addresses * 4, "SADRCEL size")
        previous = 0
        for k in 0...cells {
            let v = Int(u32(section(.searchAddressIndex) + k * 4))
            try check(v >= previous && v <= addresses, "SADRIDX is not ascending")
            previous = v
        }
        for k in 0..<addresses { try check(Int(u32(section(.searchAddressCells) + k * 4)) < addresses, "SADRCEL entry \(k) is out of range") }
    }
}
