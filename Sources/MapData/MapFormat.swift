// The .tmap file: one map, one file, memory-mapped at start-up (no parsing).
//
// Layout (all integers little-endian):
//
//   offset 0   header, 32 bytes
//     0  magic         8 bytes  "TERNMAP\0"
//     8  version       u32      MapFormat.version; a reader refuses any other
//     12 sectionCount  u32
//     16 fileSize      u64      the whole file; a shorter file is truncated
//     24 tableCRC      u32      CRC-32 (zlib) of the section table
//     28 reserved      u32      0
//   offset 32  section table, sectionCount entries of 32 bytes
//     0  tag      8 bytes  ASCII, NUL-padded (e.g. "NODES")
//     8  offset   u64      from the start of the file, a multiple of 8
//     16 length   u64      bytes
//     24 crc      u32      CRC-32 (zlib) of the section's bytes
//     28 reserved u32      0
//   sections, each starting on an 8-byte boundary, in table order.
//
// Sections of version 1 (record layouts in RoadMap.swift, written by MapWriter.swift):
//   META      UTF-8 JSON: build information and counts (map-info prints it)
//   NODES     graph nodes: i32 latitude e7, i32 longitude e7                      8 B each
//   NODEFLAG  one u8 per graph node: NodeFlags
//   EDGES     road segments between graph nodes: EdgeRecord                       40 B each
//   GEOM      intermediate shape points of edges: i32 lat e7, i32 lon e7          8 B each
//   OUTIDX    u32 × (nodes + 1): first OUT entry of each node
//   OUT       u32 per entry: edge << 1 | 1 when the edge is driven to→from; edges leaving a node
//   INIDX     u32 × (nodes + 1)
//   IN        u32 per entry, same encoding: edges arriving at a node
//   NAMES     string table: u32 count, u32 × (count + 1) offsets, UTF-8 bytes; id 0 is ""
//   WAYIDS    i64 OSM way id per way index
//   GRID      spatial index: GridHeader (48 B), u32 × (cells + 1) offsets, u32 edge ids
//
// Routing (version 2): the edge-based graph's contraction hierarchy. Routing node ids
// 0..<2·edges are DirectedEdge.raw; ids from 2·edges on are copies of directed edges made for
// turn restrictions over via ways.
//   RWEIGHT   u32 per routing node: weight (what routes minimise, ms) of its edge (0xFFFFFFFF: not allowed)
//   RDUR      u32 per routing node: milliseconds to drive its edge
//   RCOPIES   u32 per copy: the DirectedEdge.raw it copies
//   CHUPIDX   u32 × (routing nodes + 1)
//   CHUP      16 B per arc from a node to a higher-ranked one: u32 target, u32 weight ms,
//             u32 middle (the node a shortcut skips, 0xFFFFFFFF for an original turn),
//             u32 duration ms
//   CHDNIDX   u32 × (routing nodes + 1)
//   CHDN      16 B per arc into a node from a higher-ranked one: u32 source, weight, middle, duration
//
// Landmarks:
//   POIIDX    u32 × (grid cells + 1): first POI of each GRID cell
//   POIS      16 B per named place, by grid cell: i32 lat e7, i32 lon e7, u32 name id, u32 kind (PlaceKind)
//
// Maneuver overrides (optional: a map written before them has none):
//   MANEUVR   u32 count, then per override (a mapper's type=maneuver relation): u32 via node,
//             u8 kind (ManeuverOverride.Kind), u8 direction (ManeuverOverride.Direction),
//             u16 path length n, u32 × n DirectedEdge.raw: the from edge, the via edges and the
//             to edge in driving order
//
// Signposts (optional, like MANEUVR):
//   DESTS     u32 count, then count × (u32 DirectedEdge.raw, u32 name id), ascending by edge: what
//             the signs say a directed edge leads to ("A 5, Frankfurt": first destination:ref and
//             first destination)
//   EXITREF   u32 count, then count × (u32 node, u32 name id), ascending by node: the exit number
//             of a motorway junction ("12")
//
// Turn lanes (optional, like MANEUVR):
//   LANES     u32 count, then count × (u32 DirectedEdge.raw, u32 name id), ascending by edge: the
//             lanes of a directed edge as it reaches its end, left to right, in OSRM's words
//             ("left|straight|straight;right"; CarProfile.turnLanes)
//
// Turn restrictions at nodes (optional, like MANEUVR; the routing tables apply them already,
// this is for guidance, which must not count a forbidden turn as a way the driver may take):
//   NOTURN    u32 count, then count × (u32 from DirectedEdge.raw, u32 to DirectedEdge.raw),
//             ascending by (from, to): turns from an edge onto an edge leaving the node it
//             reaches that a no_* restriction forbids or an only_* restriction leaves out
//             (restrictions over via ways are not listed: they depend on the way the car came)
//
// Turn analysis (version 3): what guidance decided at import for every turn, as OSRM's
// extractor stores it (Sources/Guidance/Analysis); a route reads these and only post-processes.
//   TURNIDX   u32 × (2·edges + 1): per directed edge, the first TURNS record of the turns from it;
//             the turns from edge d are one per entry of OUT at d's target, in that order; none
//             where d reaches a node the road only passes through (a signal, a way split)
//   TURNS     u32 per turn: byte 0 OSRM's TurnInstruction (type in the low 5 bits, direction
//             modifier in the high 3), byte 1 lanes (lanes in the turn << 4 | first lane from the
//             right; 0 none), byte 2 the bearing of the road back seen from the junction, byte 3
//             the bearing after the turn (both in 360/256° steps)
//   TURNENT   u32 per directed edge: bit i set where the car arriving on it may take the road of
//             the i-th bearing of its target (BEARINGS)
//   TURNLANE  u32 count, then count × (u32 DirectedEdge.raw, u32 name id), ascending by edge: the
//             lane text ("left|straight;right") the lanes of the turns from an edge count
//   BEARIDX   u32 × (nodes + 1): per node, the first of its BEARINGS
//   BEARINGS  u16 per road at a junction: its bearing in whole degrees, clockwise from north,
//             ascending from the first bin (OSRM's bearing class: multiples of 15 where the roads
//             fall in distinct 15° bins)
//   SEGREG    one bit per directed edge (bit d & 7 of byte d >> 3): the edge lies inside a divided
//             road's junction (OSRM's segregated edges)
//
// Search (optional, all or none; built by MapCompiler's SearchIndexBuilder, read by the Search
// module; terms are folded by Search's SearchText, the same at import and at query time):
//   SDICT     the terms, a string table like NAMES, ascending by bytes (binary search; prefixes)
//   SPOSTIDX  u32 × (terms + 1): first SPOST entry of each term
//   SPOST     u32 object ids, ascending per term: the objects whose names hold the term
//   SOBJ      40 B per object (SearchObject): i32 lat e7, i32 lon e7, u32 label name id, u32 city
//             object, u32 suburb object (0xFFFFFFFF none), u32 first SOTERM, u16 term count, u8 name
//             terms, u8 primary-name terms, u32 first SADDR, u32 address count, u8 kind (1 street,
//             2 place, 3 POI), u8 category (SearchCategory; a place's rank class), u8 rank, u8 0
//   SOTERM    u32 term ids per object: name terms, then context terms (addr:city, postcode)
//   SADDR     16 B per house number, grouped by object: i32 lat e7, i32 lon e7, u32 number name id,
//             u32 object
//   SADRIDX   u32 × (grid cells + 1): first SADRCEL entry of each GRID cell
//   SADRCEL   u32 address ids by GRID cell (reverse geocoding: "near Hauptstraße 12")
//
// Readers check the magic, version, sizes and every checksum when opening, then every index
// stored in a record against the count it points into, so that a corrupt file is refused with a
// clear error instead of crashing later.

/// Constants of the .tmap format.
public enum MapFormat {
    public static let magic: [UInt8] = Array("TERNMAP".utf8) + [0]
    public static let version: UInt32 = 3
    public static let headerSize = 32
    public static let tableEntrySize = 32
    /// The most lanes a road keeps turn lanes for (LANES); a longer list is a tagging error.
    public static let maxTurnLanes = 16

    public enum Tag: String, CaseIterable, Sendable {
        case meta = "META"
        case nodes = "NODES"
        case nodeFlags = "NODEFLAG"
        case edges = "EDGES"
        case geometry = "GEOM"
        case outIndex = "OUTIDX"
        case outEdges = "OUT"
        case inIndex = "INIDX"
        case inEdges = "IN"
        case names = "NAMES"
        case wayIDs = "WAYIDS"
        case grid = "GRID"
        case routingWeights = "RWEIGHT"
        case routingDurations = "RDUR"
        case routingCopies = "RCOPIES"
        case upIndex = "CHUPIDX"
        case up = "CHUP"
        case downIndex = "CHDNIDX"
        case down = "CHDN"
        case poiIndex = "POIIDX"
        case pois = "POIS"
        case maneuvers = "MANEUVR"
        case destinations = "DESTS"
        case exitRefs = "EXITREF"
        case turnLanes = "LANES"
        case forbiddenTurns = "NOTURN"
        case turnIndex = "TURNIDX"
        case turns = "TURNS"
        case turnEntry = "TURNENT"
        case turnLaneTexts = "TURNLANE"
        case bearingIndex = "BEARIDX"
        case bearings = "BEARINGS"
        case segregated = "SEGREG"
        case searchTerms = "SDICT"
        case searchPostingIndex = "SPOSTIDX"
        case searchPostings = "SPOST"
        case searchObjects = "SOBJ"
        case searchObjectTerms = "SOTERM"
        case searchAddresses = "SADDR"
        case searchAddressIndex = "SADRIDX"
        case searchAddressCells = "SADRCEL"

        /// Sections a map may lack (written by a later import than the map's): read as empty.
        public var isOptional: Bool { self == .maneuvers || self == .destinations || self == .exitRefs || self == .turnLanes
            || self == .forbiddenTurns || isSearch }

        /// The search index (a map imported before search has none: `find` says to re-import).
        public var isSearch: Bool { ordinal >= Tag.searchTerms.ordinal }

        /// Position in `allCases` (a switch, not a hash: it is on every map access).
        @inline(__always) public var ordinal: Int {
            switch self {
            case .meta: return 0
            case .nodes: return 1
            case .nodeFlags: return 2
            case .edges: return 3
            case .geometry: return 4
            case .outIndex: return 5
            case .outEdges: return 6
            case .inIndex: return 7
            case .inEdges: return 8
            case .names: return 9
            case .wayIDs: return 10
            case .grid: return 11
            case .routingWeights: return 12
            case .routingDurations: return 13
            case .routingCopies: return 14
            case .upIndex: return 15
            case .up: return 16
            case .downIndex: return 17
            case .down: return 18
            case .poiIndex: return 19
            case .pois: return 20
            case .maneuvers: return 21
            case .destinations: return 22
            case .exitRefs: return 23
            case .turnLanes: return 24
            case .forbiddenTurns: return 25
            case .turnIndex: return 26
            case .turns: return 27
            case .turnEntry: return 28
            case .turnLaneTexts: return 29
            case .bearingIndex: return 30
            case .bearings: return 31
            case .segregated: return 32
            case .searchTerms: return 33
            case .searchPostingIndex: return 34
            case .searchPostings: return 35
            case .searchObjects: return 36
            case .searchObjectTerms: return 37
            case .searchAddresses: return 38
            case .searchAddressIndex: return 39
            case .searchAddressCells: return 40
            }
        }
    }
}

/// Why a map file was refused.
public enum MapError: Error, CustomStringConvertible, Equatable {
    case cannotOpen(path: String, reason: String)
    case notAMap(path: String)
    case wrongVersion(path: String, found: UInt32)
    case truncated(path: String, expected: UInt64, actual: UInt64)
    case corrupt(path: String, detail: String)
    case checksum(path: String, section: String)
    case missingSection(path: String, section: String)
    case cannotWrite(path: String, reason: String)

    public var description: String {
        switch self {
        case let .cannotOpen(path, reason): return "\(path): cannot open map: \(reason)"
        case let .notAMap(path): return "\(path): not a Tern map (bad magic); build one with `tern import`"
        case let .wrongVersion(path, found):
            return "\(path): map format version \(found), this tern reads version \(MapFormat.version); re-import the map"
        case let .truncated(path, expected, actual):
            return "\(path): map is truncated: \(actual) of \(expected) bytes"
        case let .corrupt(path, detail): return "\(path): map is corrupt: \(detail)"
        case let .checksum(path, section): return "\(path): map is corrupt: checksum mismatch in section \(section)"
        case let .missingSection(path, section): return "\(path): map is corrupt: section \(section) is missing"
        case let .cannotWrite(path, reason): return "\(path): cannot write map: \(reason)"
        }
    }
}

/// Per-node properties (bit set).
public struct NodeFlags: OptionSet, Sendable, Hashable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }
    public static let trafficSignals = NodeFlags(rawValue: 1 << 0)
    public static let stop = NodeFlags(rawValue: 1 << 1)
    public static let giveWay = NodeFlags(rawValue: 1 << 2)
    /// A barrier cars cannot pass (bollard, block...): edges through it are cut at import.
    public static let barrier = NodeFlags(rawValue: 1 << 3)
    public static let crossing = NodeFlags(rawValue: 1 << 4)
    public static let miniRoundabout = NodeFlags(rawValue: 1 << 5)
    /// A turning circle or loop: turning round is allowed there.
    public static let turningCircle = NodeFlags(rawValue: 1 << 6)
    /// A road that cars may use but the car profile does not route on (`highway=road`, a road of
    /// unknown kind) leaves here: at a roundabout it is an exit the driver sees and counts.
    public static let unroutedRoad = NodeFlags(rawValue: 1 << 7)
}

/// Per-edge properties (bit set).
public struct EdgeFlags: OptionSet, Sendable, Hashable {
    public let rawValue: UInt16
    public init(rawValue: UInt16) { self.rawValue = rawValue }
    /// Cars may drive from → to.
    public static let forward = EdgeFlags(rawValue: 1 << 0)
    /// Cars may drive to → from.
    public static let backward = EdgeFlags(rawValue: 1 << 1)
    public static let roundabout = EdgeFlags(rawValue: 1 << 2)
    public static let link = EdgeFlags(rawValue: 1 << 3)
    public static let toll = EdgeFlags(rawValue: 1 << 4)
    public static let ferry = EdgeFlags(rawValue: 1 << 5)
    public static let tunnel = EdgeFlags(rawValue: 1 << 6)
    public static let bridge = EdgeFlags(rawValue: 1 << 7)
    /// access=destination: only to reach a place on it.
    public static let destinationOnly = EdgeFlags(rawValue: 1 << 8)
    /// junction=circular or a named rotary.
    public static let circular = EdgeFlags(rawValue: 1 << 9)
    /// In a small strongly connected piece of the network (cut off by barriers, one-ways or
    /// access): snapping avoids it unless nothing else is near, as OSRM does.
    public static let isolated = EdgeFlags(rawValue: 1 << 10)
    /// No route may start or end on it (ferries, private service roads): snapping passes it over.
    public static let noStartpoint = EdgeFlags(rawValue: 1 << 11)
    /// Destination-only from → to / to → from (private, delivery...): no through traffic.
    public static let restrictedForward = EdgeFlags(rawValue: 1 << 12)
    public static let restrictedBackward = EdgeFlags(rawValue: 1 << 13)
}

/// OSM highway classes Tern routes on, ordered from most to least important.
public enum RoadClass: UInt8, Sendable, CaseIterable {
    case motorway = 0, trunk, primary, secondary, tertiary, unclassified, residential, livingStreet, service
    case motorwayLink, trunkLink, primaryLink, secondaryLink, tertiaryLink, road, track, ferry
    /// Any other highway a car is explicitly allowed on (a footway with access=yes, a winter road...).
    case other

    public init?(highway: String) {
        switch highway {
        case "motorway": self = .motorway
        case "trunk": self = .trunk
        case "primary": self = .primary
        case "secondary": self = .secondary
        case "tertiary": self = .tertiary
        case "unclassified": self = .unclassified
        case "residential": self = .residential
        case "living_street": self = .livingStreet
        case "service": self = .service
        case "motorway_link": self = .motorwayLink
        case "trunk_link": self = .trunkLink
        case "primary_link": self = .primaryLink
        case "secondary_link": self = .secondaryLink
        case "tertiary_link": self = .tertiaryLink
        case "road": self = .road
        case "track": self = .track
        default: return nil
        }
    }

    public var osmName: String {
        switch self {
        case .motorway: return "motorway"
        case .trunk: return "trunk"
        case .primary: return "primary"
        case .secondary: return "secondary"
        case .tertiary: return "tertiary"
        case .unclassified: return "unclassified"
        case .residential: return "residential"
        case .livingStreet: return "living_street"
        case .service: return "service"
        case .motorwayLink: return "motorway_link"
        case .trunkLink: return "trunk_link"
        case .primaryLink: return "primary_link"
        case .secondaryLink: return "secondary_link"
        case .tertiaryLink: return "tertiary_link"
        case .road: return "road"
        case .track: return "track"
        case .ferry: return "ferry"
        case .other: return "other"
        }
    }

    public var isLink: Bool {
        switch self {
        case .motorwayLink, .trunkLink, .primaryLink, .secondaryLink, .tertiaryLink: return true
        default: return false
        }
    }

    /// Larger is more important; used by guidance to tell a main road from a side road.
    public var priority: Int {
        switch self {
        case .motorway: return 10
        case .trunk: return 9
        case .primary: return 8
        case .secondary: return 7
        case .tertiary: return 6
        case .motorwayLink, .trunkLink: return 5
        case .primaryLink, .secondaryLink, .tertiaryLink: return 4
        case .unclassified, .road: return 3
        case .residential: return 2
        case .livingStreet, .service, .ferry: return 1
        case .track, .other: return 0
        }
    }
}

/// What a named place is, for landmark instructions ("turn right after the fuel station").
public enum PlaceKind: UInt32, Sendable, CaseIterable {
    case other = 0, fuel, parking, placeOfWorship, school, hospital, restaurant, cafe, pub, fastFood, supermarket, shop
    case hotel, bank, pharmacy, station, museum, theatre, cinema, police, postOffice, townHall, library, monument

    /// The kind of an OSM object from its tags; nil when it is not a landmark.
    public init?(tags: [String: String]) {
        switch (tags["amenity"], tags["shop"], tags["tourism"], tags["railway"] ?? tags["public_transport"], tags["historic"]) {
        case ("fuel"?, _, _, _, _): self = .fuel
        case ("parking"?, _, _, _, _): self = .parking
        case ("place_of_worship"?, _, _, _, _): self = .placeOfWorship
        case ("school"?, _, _, _, _): self = .school
        case ("hospital"?, _, _, _, _): self = .hospital
        case ("restaurant"?, _, _, _, _): self = .restaurant
        case ("cafe"?, _, _, _, _): self = .cafe
        case ("pub"?, _, _, _, _), ("bar"?, _, _, _, _): self = .pub
        case ("fast_food"?, _, _, _, _): self = .fastFood
        case ("bank"?, _, _, _, _): self = .bank
        case ("pharmacy"?, _, _, _, _): self = .pharmacy
        case ("police"?, _, _, _, _): self = .police
        case ("post_office"?, _, _, _, _): self = .postOffice
        case ("townhall"?, _, _, _, _): self = .townHall
        case ("library"?, _, _, _, _): self = .library
        case ("theatre"?, _, _, _, _): self = .theatre
        case ("cinema"?, _, _, _, _): self = .cinema
        case (_, "supermarket"?, _, _, _): self = .supermarket
        case (_, _?, _, _, _): self = .shop
        case (_, _, "hotel"?, _, _): self = .hotel
        case (_, _, "museum"?, _, _): self = .museum
        case (_, _, _, "station"?, _): self = .station
        case (_, _, _, _, "monument"?), (_, _, _, _, "memorial"?): self = .monument
        case (_?, _, _, _, _): self = .other
        default: return nil
        }
    }

    /// Whether a place of this kind named `name` is a landmark a driver can tell by its name. A
    /// post office, car park, station or town hall is mostly named after its town or quarter (La
    /// Poste's "La Turbie", the car park "Annonciade", the station "Èze"): "turn left after Èze"
    /// reads as the village. Those count only where the name says what they are ("Parking Uter",
    /// "Gare de Monaco", "Deutsche Post", "Rathaus Vaduz").
    public func isLandmark(named name: String) -> Bool {
        let words: [String]
        switch self {
        case .parking: words = ["park", "parc", "garage", "aparcament", "stationnement"]
        case .station: words = ["bahnhof", "hbf", "gare", "station", "stazione", "estació", "estación"]
        case .postOffice: words = ["post", "correo", "correu"]
        case .townHall: words = ["rathaus", "mairie", "hôtel de ville", "town hall", "city hall", "gemeinde", "ajuntament", "comú", "municipi"]
        default: return true
        }
        let n = name.lowercased()
        return words.contains { n.contains($0) }
    }
}
