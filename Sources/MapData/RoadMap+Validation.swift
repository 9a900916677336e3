import FoundationEssentials
import Glibc

extension RoadMap {
    /// Checks every stored index against the count it points into, so no later access can go out
    /// of bounds on a corrupt file that happens to pass its checksums.
    func validate() throws {
        func check(_ ok: Bool, _ detail: @autoclosure () -> String) throws {
            if !ok { throw MapError.corrupt(path: path, detail: detail()) }
        }
        for n in 0..<nodeCount {
            let o = section(.nodes) + n * 8
            try check(abs(i32(o)) <= 900_000_000 && abs(i32(o + 4)) <= 1_800_000_000, "node \(n) has an impossible coordinate")
        }
        for i in 0..<edgeCount {
            let o = section(.edges) + i * EdgeRecord.byteSize
            try check(Int(u32(o)) < nodeCount && Int(u32(o + 4)) < nodeCount, "edge \(i) refers to a missing node")
            try check(Int(u32(o + 8)) + Int(u32(o + 12)) <= geometryCount, "edge \(i) refers to missing shape points")
            let len = Float(bitPattern: u32(o + 16))
            try check(len.isFinite && len >= 0, "edge \(i) has an invalid length")
            try check(Int(u32(o + 20)) < nameCount && Int(u32(o + 24)) < nameCount, "edge \(i) refers to a missing name")
            try check(Int(u32(o + 28)) < wayCount, "edge \(i) refers to a missing way")
            try check(RoadClass(rawValue: u8(o + 34)) != nil, "edge \(i) has an unknown road class")
        }
        for (indexTag, listTag) in [(MapFormat.Tag.outIndex, MapFormat.Tag.outEdges), (.inIndex, .inEdges)] {
            try check(sectionRange(indexTag).count == (nodeCount + 1) * 4, "\(indexTag.rawValue) size")
            let listCount = sectionRange(listTag).count / 4
            var previous = 0
            for n in 0...nodeCount {
                let v = Int(u32(section(indexTag) + n * 4))
                try check(v >= previous && v <= listCount, "\(indexTag.rawValue) is not ascending")
                previous = v
            }
            try check(previous == listCount, "\(indexTag.rawValue) does not cover \(listTag.rawValue)")
            for k in 0..<listCount {
                try check(Int(u32(section(listTag) + k * 4) >> 1) < edgeCount, "\(listTag.rawValue) refers to a missing edge")
            }
        }
        let names = section(.names)
        let bytes = sectionRange(.names).count - 4 - (nameCount + 1) * 4
        var previous = 0
        for k in 0...nameCount {
            let v = Int(u32(names + 4 + k * 4))
            try check(v >= previous && v <= bytes, "NAMES offsets are not ascending")
            previous = v
        }
        let g = grid
        // (a cell of under 1e-6° or an origin off the globe would turn every cell computation into nonsense)
        try check(g.rows > 0 && g.cols > 0 && g.rows < 50_000_000 && g.cols < 50_000_000 && g.rows * g.cols < 50_000_000 && g.cellLat >= 1e-6 && g.cellLon >= 1e-6
                  && g.cellLat <= 180 && g.cellLon <= 360 && abs(g.minLat) <= 90 && abs(g.minLon) <= 360, "GRID header")
        let cells = g.rows * g.cols
        let gridLen = sectionRange(.grid).count
        try check(gridLen >= GridHeader.byteSize + (cells + 1) * 4, "GRID size")
        let offsets = section(.grid) + GridHeader.byteSize
        let entryCount = (gridLen - GridHeader.byteSize - (cells + 1) * 4) / 4
        var prev = 0
        for c in 0...cells {
            let v = Int(u32(offsets + c * 4))
            try check(v >= prev && v <= entryCount, "GRID offsets are not ascending")
            prev = v
        }
        let entries = offsets + (cells + 1) * 4
        for k in 0..<entryCount { try check(Int(u32(entries + k * 4)) < edgeCount, "GRID refers to a missing edge") }
        try validateRouting()
        try validatePlaces()
        try validateSearch()
        try validateTurns()
    }

    /// The turn tables: indices ascending and covering their lists, each edge's turns one per
    /// road leaving its target, instructions OSRM's, bearings under 360°.
    func validateTurns() throws {
        func check(_ ok: Bool, _ detail: @autoclosure () -> String) throws {
            if !ok { throw MapError.corrupt(path: path, detail: detail()) }
        }
        let directed = edgeCount * 2
        try check(sectionRange(.turnIndex).count == (directed + 1) * 4, "TURNIDX size")
        try check(sectionRange(.turns).count % 4 == 0, "TURNS size")
        let records = sectionRange(.turns).count / 4
        var previous = 0
        for d in 0...directed {
            let v = Int(u32(section(.turnIndex) + d * 4))
            try check(v >= previous && v <= records, "TURNIDX is not ascending")
            if d > 0, v > previous {
                let from = DirectedEdge(raw: UInt32(d - 1))
                try check(v - previous == outgoingRange(target(of: from)).count, "TURNIDX entry \(d - 1) does not match OUT")
            }
            previous = v
        }
        try check(previous == records, "TURNIDX does not cover TURNS")
        for k in 0..<records {
            let type = u8(section(.turns) + k * 4) & 0x1f
            try check(type <= 26 && type != 16, "TURNS record \(k) has an unknown instruction")
        }
        try check(sectionRange(.turnEntry).count == directed * 4, "TURNENT size")
        try check(sectionRange(.bearingIndex).count == (nodeCount + 1) * 4, "BEARIDX size")
        let bearings = sectionRange(.bearings).count / 2
        previous = 0
        for n in 0...nodeCount {
            let v = Int(u32(section(.bearingIndex) + n * 4))
            try check(v >= previous && v <= bearings && v - previous <= 32, "BEARIDX is not ascending")
            previous = v
        }
        try check(previous == bearings, "BEARIDX does not cover BEARINGS")
        for k in 0..<bearings { try check(base16(section(.bearings) + k * 2) < 360, "BEARINGS entry \(k) is not a bearing") }
        try check(sectionRange(.segregated).count == (directed + 7) / 8, "SEGREG size")
    }
}
