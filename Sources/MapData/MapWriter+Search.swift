import Geo

extension MapWriter {
    /// The search sections (layout in MapFormat.swift).
    static func searchSections(_ s: SearchTables, cellOf: (Coordinate) -> Int, cellCount: Int) -> [(MapFormat.Tag, [UInt8])] {
        var out: [(MapFormat.Tag, [UInt8])] = []
        var b = ByteBuffer()
        b.append(UInt32(s.terms.count))
        var offset: UInt32 = 0
        var bytes = [UInt8]()
        for t in s.terms {
            b.append(offset)
            bytes += t.utf8
            offset = UInt32(bytes.count)
        }
        b.append(offset)
        b.bytes += bytes
        out.append((.searchTerms, b.take()))
        var first: UInt32 = 0
        for p in s.postings { b.append(first); first += UInt32(p.count) }
        b.append(first)
        out.append((.searchPostingIndex, b.take()))
        for p in s.postings { for o in p { b.append(o) } }
        out.append((.searchPostings, b.take()))
        for o in s.objects {
            b.append(E7.encode(o.coordinate.latitude)); b.append(E7.encode(o.coordinate.longitude))
            b.append(o.labelID); b.append(o.city); b.append(o.suburb)
            b.append(o.termStart); b.append(o.termCount); b.append(o.nameTermCount); b.append(o.primaryTermCount)
            b.append(o.addressStart); b.append(o.addressCount)
            b.append(o.kind.rawValue); b.append(o.category); b.append(o.rank); b.append(UInt8(0))
        }
        out.append((.searchObjects, b.take()))
        for t in s.objectTerms { b.append(t) }
        out.append((.searchObjectTerms, b.take()))
        for a in s.addresses {
            b.append(E7.encode(a.coordinate.latitude)); b.append(E7.encode(a.coordinate.longitude))
            b.append(a.numberID); b.append(a.object)
        }
        out.append((.searchAddresses, b.take()))
        var cells = [[UInt32]](repeating: [], count: cellCount)
        for (i, a) in s.addresses.enumerated() { cells[cellOf(a.coordinate)].append(UInt32(i)) }
        var start: UInt32 = 0
        for c in cells { b.append(start); start += UInt32(c.count) }
        b.append(start)
        out.append((.searchAddressIndex, b.take()))
        for c in cells { for a in c { b.append(a) } }
        out.append((.searchAddressCells, b.take()))
        return out
    }
}
