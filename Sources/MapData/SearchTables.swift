import Geo

/// What `find` searches: the search sections of a map as the import builds them (MapWriter stores
/// them; RoadMap+Search reads them in place). Layout in MapFormat.swift.
public struct SearchTables: Sendable, Equatable {
    /// Folded terms, ascending by their UTF-8 bytes (SDICT).
    public var terms: [String] = []
    /// Per term, the objects whose names or category hold it, ascending (SPOSTIDX + SPOST).
    public var postings: [[UInt32]] = []
    public var objects: [SearchObject] = []
    /// Per object its terms: the names', then the context's (SOTERM).
    public var objectTerms: [UInt32] = []
    /// House numbers, grouped by the street (or addr:place) object they belong to (SADDR).
    public var addresses: [SearchAddress] = []

    public init() {}
    public var isEmpty: Bool { objects.isEmpty }
}

/// One thing a search can find: a street, a place or a POI (addresses hang off their street).
public struct SearchObject: Sendable, Equatable {
    public enum Kind: UInt8, Sendable { case street = 1, place, poi }
    /// Where the object is (a street: a point on it; a place: its node; a POI: its node or centroid).
    public var coordinate: Coordinate
    /// Its name as shown (a name id).
    public var labelID: UInt32
    /// The town or village and the suburb it lies in (object indices), `SearchObject.none` for none.
    public var city: UInt32
    public var suburb: UInt32
    /// Its terms in SOTERM: `termStart`, then `nameTermCount` name terms (the first
    /// `primaryTermCount` from `name`, then other languages, refs and the category), then context
    /// terms up to `termCount` (addr:city, postcode).
    public var termStart: UInt32
    public var termCount: UInt16
    public var nameTermCount: UInt8
    public var primaryTermCount: UInt8
    /// Its house numbers in SADDR.
    public var addressStart: UInt32
    public var addressCount: UInt32
    public var kind: Kind
    /// `SearchCategory` raw value of a POI, a place's `PlaceRank` for places.
    public var category: UInt8
    /// Importance: larger for a city than a hamlet, a main road than a lane.
    public var rank: UInt8

    public static let none = UInt32.max
    public static let byteSize = 40

    public init(coordinate: Coordinate, labelID: UInt32, city: UInt32 = SearchObject.none, suburb: UInt32 = SearchObject.none,
                termStart: UInt32 = 0, termCount: UInt16 = 0, nameTermCount: UInt8 = 0, primaryTermCount: UInt8 = 0,
                addressStart: UInt32 = 0, addressCount: UInt32 = 0, kind: Kind, category: UInt8 = 0, rank: UInt8 = 0) {
        self.coordinate = coordinate
        self.labelID = labelID
        self.city = city
        self.suburb = suburb
        self.termStart = termStart
        self.termCount = termCount
        self.nameTermCount = nameTermCount
        self.primaryTermCount = primaryTermCount
        self.addressStart = addressStart
        self.addressCount = addressCount
        self.kind = kind
        self.category = category
        self.rank = rank
    }
}

/// A house number on a street.
public struct SearchAddress: Sendable, Equatable {
    public var coordinate: Coordinate
    /// The number as tagged ("12a"), a name id.
    public var numberID: UInt32
    /// The street (or addr:place) object it belongs to.
    public var object: UInt32
    public static let byteSize = 16
    public init(coordinate: Coordinate, numberID: UInt32, object: UInt32) {
        self.coordinate = coordinate
        self.numberID = numberID
        self.object = object
    }
}
