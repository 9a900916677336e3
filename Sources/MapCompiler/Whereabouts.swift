import FoundationEssentials
import Glibc
import Geo

/// Which town and district a search object lies in, the way people name them:
/// - the municipality boundary (admin_level 8, else 7) holding it, where the map has boundaries;
/// - else the city or town whose node is nearest relative to how far that kind of place reaches
///   (is_in by nearest place node), else such a village;
/// - the district: the admin_level 9–10 boundary holding it, else the nearest suburb, quarter,
///   neighbourhood, hamlet or village node within its reach that is not the town and lies in the
///   same town (Andorra's villages lie in parishes named after their towns: "Carrer del Barrers,
///   Santa Coloma, Andorra la Vella"; a hamlet over the municipal border is not a district);
/// - where neither names a town, the addr:city most used by the house numbers within 1 km, as
///   words a search may name ("Hauptstraße, Heidelberg" on an extract without place nodes).
struct Whereabouts {
    private let towns: PlaceGrid
    private let villages: PlaceGrid
    private let districts: PlaceGrid
    private let boundaries: [(AdminBoundaries.Boundary, Int)]
    /// Boundaries by the 0.1° cells their extent covers (a point is tested against those of its cell).
    private var boundaryCells: [Int64: [Int]] = [:]
    private var addressTowns: [Int64: [(Coordinate, String)]] = [:]
    /// Places whose boundary the map has: the point is in them by the boundary or not at all.
    private let bounded: Set<Int>
    /// The town of each district place (by object index).
    private var districtTown: [Int: Int] = [:]
    static let townCellDegrees = 0.01

    init(places: [(Int, Coordinate, PlaceClass)], boundaries: [(AdminBoundaries.Boundary, Int)], addresses: [SearchCollector.RawAddress]) {
        towns = PlaceGrid(places.filter { $0.2 == .city || $0.2 == .town })
        villages = PlaceGrid(places.filter { $0.2 == .village })
        districts = PlaceGrid(places.filter { $0.2.isSubdivision || $0.2 == .village })
        self.boundaries = boundaries
        bounded = Set(boundaries.map(\.1))
        let cell = PlaceGrid.cellDegrees
        // (a municipality spans well under 5°; a wider one is a broken relation, not worth the cells)
        for (k, (b, _)) in boundaries.enumerated() where b.maxLat - b.minLat < 5 && b.maxLon - b.minLon < 5 {
            let r0 = Int64((b.minLat / cell).rounded(.down)), r1 = Int64((b.maxLat / cell).rounded(.down))
            let c0 = Int64((b.minLon / cell).rounded(.down)), c1 = Int64((b.maxLon / cell).rounded(.down))
            for row in r0...r1 { for col in c0...c1 { boundaryCells[row << 32 + col, default: []].append(k) } }
        }
        for a in addresses where !a.city.isEmpty {
            addressTowns[PlaceGrid.key(a.coordinate, Self.townCellDegrees), default: []].append((a.coordinate, a.city))
        }
        for (i, c, cls) in places where cls.isSubdivision || cls == .village {
            if let town = city(of: c, object: i, ownClass: cls) { districtTown[i] = town }
        }
    }

    /// The town a point is in: its municipality boundary, else the nearest town or village node.
    private func city(of c: Coordinate, object: Int, ownClass: PlaceClass?) -> Int? {
        // a place is in a bigger settlement only
        // (a town whose boundary the map has is not "nearest" to what lies outside it: Monaco's
        // node is not the town of the French village across the border)
        let bigger: (Int, PlaceClass) -> Bool = { [bounded] k, cls in
            k != object && !bounded.contains(k) && (ownClass == nil || cls.rawValue < ownClass!.rawValue)
        }
        return boundary(containing: c, levels: 8...8, except: object) ?? boundary(containing: c, levels: 7...7, except: object)
            ?? towns.nearest(to: c, allowed: bigger) ?? villages.nearest(to: c, allowed: bigger)
    }

    /// The place of the most detailed boundary of these levels holding a point.
    private func boundary(containing c: Coordinate, levels: ClosedRange<Int>, except object: Int) -> Int? {
        let candidates = boundaryCells[PlaceGrid.key(c, PlaceGrid.cellDegrees)] ?? []
        return candidates.map { boundaries[$0] }.filter { levels.contains($0.0.level) && $0.1 != object && $0.0.contains(c) }
            .max { $0.0.level < $1.0.level }?.1
    }

    func locate(_ c: Coordinate, object: Int, ownClass: PlaceClass?) -> (city: Int?, suburb: Int?, neighboursTown: String?) {
        let city = self.city(of: c, object: object, ownClass: ownClass)
        // a place is named by itself and its town only ("Rotenboden, Triesenberg")
        let suburb = ownClass != nil ? nil : boundary(containing: c, levels: 9...10, except: object)
            ?? districts.nearest(to: c) { [bounded] k, _ in k != object && k != city && !bounded.contains(k) && districtTown[k] == city }
        return (city, suburb, city == nil ? neighboursTown(c) : nil)
    }

    /// A key for the town a point is in ("" where nothing names one).
    func town(_ c: Coordinate) -> String {
        city(of: c, object: -1, ownClass: nil).map { String($0) } ?? neighboursTown(c) ?? ""
    }

    /// The addr:city most tagged on house numbers within 1 km.
    private func neighboursTown(_ c: Coordinate) -> String? {
        var votes = [String: Int]()
        let key = PlaceGrid.key(c, Self.townCellDegrees)
        for dy in Int64(-1)...1 {
            for dx in Int64(-1)...1 {
                for (p, town) in addressTowns[key + (dy << 32) + dx] ?? [] where p.distance(to: c) <= 1000 { votes[town, default: 0] += 1 }
            }
        }
        return votes.max { $0.value != $1.value ? $0.value < $1.value : $0.key > $1.key }?.key
    }
}

/// Places found by position: the one whose node is nearest relative to how far its kind reaches.
struct PlaceGrid {
    private let places: [(index: Int, coordinate: Coordinate, kind: PlaceClass)]
    private var cells: [Int64: [Int]] = [:]
    static let cellDegrees = 0.1

    init(_ places: [(Int, Coordinate, PlaceClass)]) {
        self.places = places.map { (index: $0.0, coordinate: $0.1, kind: $0.2) }
        for (k, p) in self.places.enumerated() { cells[Self.key(p.coordinate, Self.cellDegrees), default: []].append(k) }
    }

    /// A cell key: row << 32 + column (columns of one row are neighbours by ±1).
    static func key(_ c: Coordinate, _ cell: Double) -> Int64 {
        Int64((c.latitude / cell).rounded(.down)) << 32 + Int64((c.longitude / cell).rounded(.down))
    }

    /// The index of the place whose node is nearest relative to its reach, among those `allowed` accepts.
    func nearest(to c: Coordinate, allowed: (Int, PlaceClass) -> Bool) -> Int? {
        var best: (Int, Double)?
        let key = Self.key(c, Self.cellDegrees)
        // 12 km (a city's reach) is within two cells of 0.1° in latitude; in longitude a cell
        // narrows with the latitude's cosine (two cells at 45°N, four at 65°N)
        let across = Int64(min(20, (2 / max(0.1, cos(c.latitude * .pi / 180))).rounded(.up)))
        for dy in Int64(-2)...2 {
            for dx in -across...across {
                for k in cells[key + (dy << 32) + dx] ?? [] {
                    let p = places[k]
                    guard allowed(p.index, p.kind) else { continue }
                    let ratio = c.distance(to: p.coordinate) / p.kind.reachMeters
                    if ratio < 1, ratio < (best?.1 ?? .infinity) { best = (p.index, ratio) }
                }
            }
        }
        return best?.0
    }
}
