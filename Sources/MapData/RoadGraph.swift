import Geo
import Platform

/// One road segment between two graph nodes, as the compiler builds it and the writer stores it.
public struct EdgeRecord: Sendable, Equatable {
    public var from: UInt32
    public var to: UInt32
    /// First intermediate shape point in the geometry array, and how many there are.
    public var geometryStart: UInt32
    public var geometryCount: UInt32
    public var lengthMeters: Float
    public var nameID: UInt32
    public var refID: UInt32
    public var wayIndex: UInt32
    public var flags: EdgeFlags
    public var roadClass: RoadClass
    /// Typical car speed in km/h from → to and to → from (0 where not allowed).
    public var speedForwardKmh: UInt8
    public var speedBackwardKmh: UInt8
    /// Posted limit in km/h per direction: 0 unknown, 255 no limit.
    public var maxspeedForwardKmh: UInt8
    public var maxspeedBackwardKmh: UInt8

    public init(from: UInt32, to: UInt32, geometryStart: UInt32, geometryCount: UInt32, lengthMeters: Float,
                nameID: UInt32, refID: UInt32, wayIndex: UInt32, flags: EdgeFlags, roadClass: RoadClass,
                speedForwardKmh: UInt8, speedBackwardKmh: UInt8, maxspeedForwardKmh: UInt8, maxspeedBackwardKmh: UInt8) {
        self.from = from
        self.to = to
        self.geometryStart = geometryStart
        self.geometryCount = geometryCount
        self.lengthMeters = lengthMeters
        self.nameID = nameID
        self.refID = refID
        self.wayIndex = wayIndex
        self.flags = flags
        self.roadClass = roadClass
        self.speedForwardKmh = speedForwardKmh
        self.speedBackwardKmh = speedBackwardKmh
        self.maxspeedForwardKmh = maxspeedForwardKmh
        self.maxspeedBackwardKmh = maxspeedBackwardKmh
    }

    public static let byteSize = 40
}

/// A whole road network in memory: what MapCompiler produces and MapWriter stores.
public struct RoadGraph: Sendable {
    public var nodes: [Coordinate] = []
    public var nodeFlags: [NodeFlags] = []
    public var edges: [EdgeRecord] = []
    public var geometry: [Coordinate] = []
    /// Index 0 is the empty string.
    public var names: [String] = [""]
    public var wayIDs: [Int64] = []
    /// Build information stored in META (JSON object members as text pairs, in order).
    public var meta: [(String, String)] = []
    /// The contraction hierarchy over the edge-based graph (built by MapCompiler).
    public var routing = RoutingTables()
    /// Named places kept as landmarks.
    public var places: [Place] = []
    /// Mappers' maneuver overrides (type=maneuver relations).
    public var maneuverOverrides: [ManeuverOverride] = []
    /// Signposts: what a directed edge leads to (a name id), and motorway exit numbers by node.
    public var destinations: [DirectedEdge: UInt32] = [:]
    public var exitRefs: [UInt32: UInt32] = [:]
    /// Turn lanes of a directed edge as it reaches its end (a name id of the lane text).
    public var turnLanes: [DirectedEdge: UInt32] = [:]
    /// Turns forbidden at a node (from.raw << 32 | to.raw), in any order (the writer sorts them).
    public var forbiddenTurns: [UInt64] = []
    /// What guidance decided for every turn (Sources/Guidance/Analysis, at import).
    public var turnTables = TurnTables()
    /// What `find` searches (addresses, streets, places, POIs); empty: the map has no search sections.
    public var search = SearchTables()
    /// Lanes per way index (`lanes`, else `lanes:forward` + `lanes:backward`), for guidance at
    /// import; not stored in the map.
    public var wayLanes: [UInt8] = []

    public init() {}
}

/// Fixed-point coordinates as stored in the file (1e-7 degrees, about 1 cm).
public enum E7 {
    public static func encode(_ degrees: Double) -> Int32 { Int32((degrees * 1e7).rounded()) }
    public static func decode(_ value: Int32) -> Double { Double(value) * 1e-7 }
}

/// One arc of the contraction hierarchy, as stored.
public struct HierarchyArc: Sendable, Equatable {
    /// Target of an up arc, source of a down arc.
    public var node: UInt32
    /// What routes minimise, ms.
    public var weight: UInt32
    /// The node a shortcut skips, or `HierarchyArc.original`.
    public var middle: UInt32
    /// Milliseconds of driving (turn and edge; a shortcut's whole path).
    public var duration: UInt32
    public static let original = UInt32.max
    public static let byteSize = 16
    public init(node: UInt32, weight: UInt32, middle: UInt32, duration: UInt32) {
        self.node = node
        self.weight = weight
        self.middle = middle
        self.duration = duration
    }
}

/// The routing sections: edge-based graph weights and its contraction hierarchy in CSR form.
public struct RoutingTables: Sendable {
    public var weights: [UInt32] = []
    public var durations: [UInt32] = []
    public var copies: [UInt32] = []
    public var upIndex: [UInt32] = [0]
    public var up: [HierarchyArc] = []
    public var downIndex: [UInt32] = [0]
    public var down: [HierarchyArc] = []
    public init() {}
    public var nodeCount: Int { weights.count }
}

/// A named place near the roads (a landmark for guidance).
public struct Place: Sendable, Equatable {
    public var coordinate: Coordinate
    public var nameID: UInt32
    public var kind: PlaceKind
    public init(coordinate: Coordinate, nameID: UInt32, kind: PlaceKind) {
        self.coordinate = coordinate
        self.nameID = nameID
        self.kind = kind
    }
}

/// A mapper's override of the maneuver at a junction (OSM `type=maneuver` relations, as OSRM
/// reads them): where a route follows `path` (the from edge, any via edges, the to edge), the
/// maneuver at `viaNode` is `kind` with `direction`, or not said at all.
public struct ManeuverOverride: Sendable, Equatable {
    public enum Kind: UInt8, Sendable { case turn = 0, continueOn, fork, uturn, suppress }
    /// `none` keeps the direction worked out from the geometry.
    public enum Direction: UInt8, Sendable { case none = 0, sharpLeft, left, slightLeft, straight, slightRight, right, sharpRight }
    public var kind: Kind
    public var direction: Direction
    public var viaNode: UInt32
    public var path: [DirectedEdge]

    public init(kind: Kind, direction: Direction, viaNode: UInt32, path: [DirectedEdge]) {
        self.kind = kind
        self.direction = direction
        self.viaNode = viaNode
        self.path = path
    }

    /// From the relation's tags: `maneuver` (turn, continue, fork, uturn, suppress) and
    /// `direction` (sharp_left … sharp_right, straight); nil for any other maneuver.
    public static func parse(maneuver: String, direction: String?) -> (Kind, Direction)? {
        let kinds: [String: Kind] = ["turn": .turn, "continue": .continueOn, "fork": .fork, "uturn": .uturn, "suppress": .suppress]
        let directions: [String: Direction] = ["sharp_left": .sharpLeft, "left": .left, "slight_left": .slightLeft, "straight": .straight,
                                               "slight_right": .slightRight, "right": .right, "sharp_right": .sharpRight]
        guard let k = kinds[maneuver.trimmed().lowercased()] else { return nil }
        guard let d = direction?.trimmed().lowercased(), !d.isEmpty else { return (k, .none) }
        guard let dir = directions[d] else { return nil }
        return (k, dir)
    }
}
