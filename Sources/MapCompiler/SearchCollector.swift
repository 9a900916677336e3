import Geo
import Search

/// What the search index is built from, gathered during the import's one pass over the OSM file:
/// named places, named streets (any highway, also footways: houses stand on them), house numbers
/// (nodes, building outlines, interpolation lines) and POIs.
struct SearchCollector {
    struct Names {
        /// `name`, then every other name a driver may type (name:xx, alt_name, old_name, …, ref).
        var primary: String
        var others: [String]
    }
    struct RawPlace { var coordinate: Coordinate; var names: Names; var kind: PlaceClass }
    struct RawStreet { var points: [Coordinate]; var names: Names; var rank: UInt8 }
    struct RawAddress {
        var coordinate: Coordinate
        var number: String
        /// addr:street, else addr:place
        var street: String
        var city: String
        var postcode: String
    }
    struct RawPOI {
        var coordinate: Coordinate
        var names: Names?
        var category: SearchCategory
        /// addr:city and addr:postcode where tagged: a shop on a border street is in the town it says.
        var town: String
    }
    struct RawInterpolation { var nodeIDs: [Int64]; var points: [Coordinate]; var step: Int; var street: String }

    var places: [RawPlace] = []
    var streets: [RawStreet] = []
    var addresses: [RawAddress] = []
    var pois: [RawPOI] = []
    var interpolations: [RawInterpolation] = []
    /// House-number nodes by id: the ends of interpolation lines.
    var numberedNodes: [Int64: RawAddress] = [:]
    /// Municipal boundaries, their relations read in a first pass (AdminBoundaries.read).
    var boundaries: AdminBoundaries

    init(boundaries: AdminBoundaries) { self.boundaries = boundaries }

    /// Ways the reader must deliver for search besides roads.
    static let wayKeys = ["addr:housenumber", "addr:interpolation", "place"] + poiKeys

    /// Named objects with one of these keys are POIs a driver may search for by name, whether or
    /// not their kind is a SearchCategory ("Comenius" the kindergarten, "Thingstätte").
    static let poiKeys = ["amenity", "shop", "tourism", "leisure", "historic", "office", "craft", "healthcare"]

    /// A POI's names and category: a known category (found by name or by category word), or any
    /// named object with a POI key (found by name).
    static func poi(_ tags: OSMTags) -> (Names?, SearchCategory)? {
        if let c = SearchCategory(tags: tags) { return (names(tags, poi: true), c) }
        guard poiKeys.contains(where: { tags[$0] != nil }), let n = names(tags, poi: true) else { return nil }
        return (n, SearchCategory.none)
    }

    mutating func add(nodeID: Int64, at c: Coordinate, tags: OSMTags) {
        guard c.isValid else { return }
        if let kind = tags["place"].flatMap(PlaceClass.init(tag:)), let names = Self.names(tags) {
            places.append(RawPlace(coordinate: c, names: names, kind: kind))
        }
        if let a = Self.address(tags, at: c) {
            addresses.append(a)
            numberedNodes[nodeID] = a
        }
        if let (names, category) = Self.poi(tags) { pois.append(RawPOI(coordinate: c, names: names, category: category, town: Self.town(tags))) }
    }

    mutating func add(way: OSMWay) {
        let tags = way.tags
        // most ways the import reads are roads without a name: nothing here wants their shape
        let named = tags["name"] != nil || tags["ref"] != nil || tags["brand"] != nil || tags.keys.contains { $0.hasPrefix("name:") }
        guard named || tags["addr:housenumber"] != nil || tags["addr:interpolation"] != nil || boundaries.wants(way.id)
            || (tags["highway"] == nil && SearchCategory(tags: tags) != nil) else { return }
        var points = [Coordinate]()
        points.reserveCapacity(way.latitudes.count)
        for (lat, lon) in zip(way.latitudes, way.longitudes) {
            let c = Coordinate(latitude: lat, longitude: lon)
            if c.isValid { points.append(c) }
        }
        guard !points.isEmpty else { return }
        boundaries.add(way: way, points: points)
        if let hw = tags["highway"], let names = Self.names(tags, ref: true) {
            streets.append(RawStreet(points: points, names: names, rank: Self.streetRank(hw)))
        }
        if let step = tags["addr:interpolation"].flatMap(Self.interpolationStep), points.count == way.nodeIDs.count {
            interpolations.append(RawInterpolation(nodeIDs: way.nodeIDs, points: points, step: step,
                                                   street: tags["addr:street"] ?? ""))
        }
        let centre = Self.centroid(points)
        if let a = Self.address(tags, at: centre) { addresses.append(a) }
        if let (names, category) = Self.poi(tags) {
            pois.append(RawPOI(coordinate: centre, names: names, category: category, town: Self.town(tags)))
        }
        if let kind = tags["place"].flatMap(PlaceClass.init(tag:)), let names = Self.names(tags) {
            places.append(RawPlace(coordinate: centre, names: names, kind: kind))
        }
    }

    /// The numbers an interpolation line stands for, between each pair of numbered nodes on it.
    mutating func interpolate() {
        for line in interpolations {
            var previous: (index: Int, number: Int, address: RawAddress)?
            for (i, id) in line.nodeIDs.enumerated() {
                // (a number beyond 100 000 is a tagging error, and would overflow the arithmetic)
                guard let a = numberedNodes[id], let n = Int(a.number), (0...100_000).contains(n) else { continue }
                if let p = previous, abs(n - p.number) > line.step, abs(n - p.number) / line.step <= 500 {
                    let along = Array(line.points[p.index...i]), length = along.lengthMeters
                    let dir = n > p.number ? line.step : -line.step
                    var k = p.number + dir
                    while k != n, (dir > 0 ? k < n : k > n) {
                        let f = Double(k - p.number) / Double(n - p.number)
                        var made = a
                        made.coordinate = along.point(atMeters: length * f).coordinate
                        made.number = String(k)
                        if made.street.isEmpty { made.street = line.street.isEmpty ? p.address.street : line.street }
                        addresses.append(made)
                        k += dir
                    }
                }
                previous = (i, n, a)
            }
        }
        interpolations = []
        numberedNodes = [:]
    }

    static func town(_ tags: OSMTags) -> String { [tags["addr:city"], tags["addr:postcode"]].compactMap { $0 }.joined(separator: " ") }

    static func interpolationStep(_ v: String) -> Int? {
        switch v {
        case "even", "odd": return 2
        case "all", "1": return 1
        default: return Int(v).flatMap { $0 > 0 && $0 <= 100 ? $0 : nil }
        }
    }

    static func address(_ tags: OSMTags, at c: Coordinate) -> RawAddress? {
        guard let number = tags["addr:housenumber"], !number.isEmpty,
              let street = tags["addr:street"] ?? tags["addr:place"], !street.isEmpty else { return nil }
        return RawAddress(coordinate: c, number: number, street: street, city: tags["addr:city"] ?? "", postcode: tags["addr:postcode"] ?? "")
    }

    /// An object's names; a POI without a name is still found by its brand or operator.
    static func names(_ tags: OSMTags, ref: Bool = false, poi: Bool = false) -> Names? {
        var primary = CarProfile.spokenLabel(tags["name"])
        var others = [String]()
        for (k, v) in tags where k.hasPrefix("name:") || k == "alt_name" || k == "old_name" || k == "official_name"
            || k == "short_name" || k == "loc_name" || (poi && k == "brand") || (ref && k == "ref") {
            let v = CarProfile.spokenLabel(v)
            if !v.isEmpty, v != primary { others += v.split(separator: ";").map(String.init) }
        }
        if primary.isEmpty, poi, let b = tags["brand"] ?? tags["operator"], !b.isEmpty { primary = b }
        guard !primary.isEmpty || !others.isEmpty else { return nil }
        // (sorted first: the tags come in no fixed order, and the same file must give the same map)
        others.sort()
        if primary.isEmpty { primary = others.removeFirst() }
        return Names(primary: primary, others: others)
    }

    /// How much a street stands out: a main road before a residential street before a path.
    static func streetRank(_ highway: String) -> UInt8 {
        switch highway {
        case "motorway", "trunk": return 90
        case "primary": return 80
        case "secondary": return 75
        case "tertiary": return 70
        case "unclassified", "residential", "living_street": return 60
        case "pedestrian", "service": return 50
        default: return 40
        }
    }

    static func centroid(_ points: [Coordinate]) -> Coordinate {
        // a closed outline repeats its first point: count it once
        let pts = points.count > 1 && points.first == points.last ? Array(points.dropLast()) : points
        let lat = pts.reduce(0) { $0 + $1.latitude } / Double(pts.count)
        let lon = pts.reduce(0) { $0 + $1.longitude } / Double(pts.count)
        return Coordinate(latitude: lat, longitude: lon)
    }
}

/// A place's class: how big it is (its search rank) and how far its name reaches as the town or
/// suburb of what lies around it.
public enum PlaceClass: UInt8, Sendable {
    case city = 1, town, village, hamlet, suburb, quarter, neighbourhood, locality, isolated

    init?(tag: String) {
        switch tag {
        case "city": self = .city
        case "town", "municipality": self = .town
        case "village": self = .village
        case "hamlet": self = .hamlet
        case "suburb", "borough": self = .suburb
        case "quarter": self = .quarter
        case "neighbourhood": self = .neighbourhood
        case "locality": self = .locality
        case "isolated_dwelling", "farm": self = .isolated
        default: return nil
        }
    }

    /// Suburbs and hamlets subdivide a town (Whereabouts).
    /// (A hamlet is named like a district of the municipality around it: "Rotenboden, Triesenberg".)
    var isSubdivision: Bool { self == .suburb || self == .quarter || self == .neighbourhood || self == .hamlet }

    /// How far from its node a place still names the area, metres.
    var reachMeters: Double {
        switch self {
        case .city: return 12_000
        case .town: return 6_000
        case .village: return 2_500
        case .hamlet: return 1_000
        case .suburb: return 2_500
        case .quarter: return 1_500
        case .neighbourhood: return 800
        case .locality, .isolated: return 500
        }
    }

    var rank: UInt8 {
        switch self {
        case .city: return 200
        case .town: return 170
        case .village: return 140
        case .suburb: return 120
        case .hamlet: return 110
        case .quarter: return 100
        case .neighbourhood: return 90
        case .locality, .isolated: return 70
        }
    }
}
