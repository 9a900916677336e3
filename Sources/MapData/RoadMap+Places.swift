import Geo

extension RoadMap {
    public var placeCount: Int { sectionRange(.pois).count / 16 }

    public func place(_ i: Int) -> Place {
        let o = section(.pois) + i * 16
        return Place(coordinate: Coordinate(latitude: E7.decode(i32(o)), longitude: E7.decode(i32(o + 4))),
                     nameID: u32(o + 8), kind: PlaceKind(rawValue: u32(o + 12)) ?? .other)
    }

    /// Named places within `radiusMeters` of a point, nearest first.
    public func places(near c: Coordinate, radiusMeters: Double) -> [(place: Place, distanceMeters: Double)] {
        var out = [(place: Place, distanceMeters: Double)]()
        visitPlaces(near: c, radiusMeters: radiusMeters) { out.append(($0, $1)); return true }
        return out.sorted { $0.distanceMeters < $1.distanceMeters }
    }

    /// Whether any named place lies within `radiusMeters` of a point (nothing allocated: guidance
    /// asks at every turn, and most junctions have none near).
    public func hasPlace(near c: Coordinate, radiusMeters: Double) -> Bool {
        var found = false
        visitPlaces(near: c, radiusMeters: radiusMeters) { _, _ in found = true; return false }
        return found
    }

    /// Calls `body` with each place within the radius and its distance, while it returns true.
    private func visitPlaces(near c: Coordinate, radiusMeters: Double, _ body: (Place, Double) -> Bool) {
        guard placeCount > 0, c.isValid, radiusMeters.isFinite, radiusMeters >= 0 else { return }
        let ruler = CheapRuler(latitude: c.latitude)
        let dLat = radiusMeters / ruler.ky, dLon = radiusMeters / ruler.kx
        let g = grid
        guard let (r0, r1, c0, c1) = cellRange((c.latitude - dLat)...(c.latitude + dLat), (c.longitude - dLon)...(c.longitude + dLon)) else {
            return
        }
        for r in r0...r1 {
            for col in c0...c1 {
                let cell = r * g.cols + col
                let lo = Int(u32(section(.poiIndex) + cell * 4)), hi = Int(u32(section(.poiIndex) + cell * 4 + 4))
                for i in lo..<hi {
                    let p = place(i)
                    let d = ruler.distance(c, p.coordinate)
                    if d <= radiusMeters, !body(p, d) { return }
                }
            }
        }
    }

    /// Checks the landmark sections (called from validate()).
    func validatePlaces() throws {
        func check(_ ok: Bool, _ detail: @autoclosure () -> String) throws {
            if !ok { throw MapError.corrupt(path: path, detail: detail()) }
        }
        try check(sectionRange(.pois).count % 16 == 0, "POIS size")
        let cells = grid.rows * grid.cols
        try check(sectionRange(.poiIndex).count == (cells + 1) * 4, "POIIDX size")
        var previous = 0
        for k in 0...cells {
            let v = Int(u32(section(.poiIndex) + k * 4))
            try check(v >= previous && v <= placeCount, "POIIDX is not ascending")
            previous = v
        }
        try check(previous == placeCount, "POIIDX does not cover POIS")
        for i in 0..<placeCount { try check(Int(u32(section(.pois) + i * 16 + 8)) < nameCount, "place \(i) refers to a missing name") }
    }
}
