import Geo
import MapData

/// A position placed on the road network.
public struct MatchedPosition: Sendable, Equatable {
    /// The edge and direction of travel, when matched.
    public var edge: DirectedEdge?
    /// Metres from the start of the directed edge.
    public var offsetMeters: Double
    /// The point on the road (the input position when unmatched).
    public var coordinate: Coordinate
    public var roadName: String
    public var roadRef: String
    /// Posted limit in km/h, nil when unknown or unlimited.
    public var speedLimitKmh: Double?
    /// 0...1: how sure the match is.
    public var confidence: Double
    public var distanceMeters: Double
    /// No route may start on the road (a private service road: `RoadMap.isNoStartRoad`).
    public var onNoStartRoad = false

    public var isMatched: Bool { edge != nil }

    /// The road's name as the driver sees it, the one rule for the roadName event and the status
    /// line: its name, else its ref ("B 3"); nil when unmatched.
    public var displayName: String? { isMatched ? (roadName.isEmpty ? roadRef : roadName) : nil }

    public init(edge: DirectedEdge?, offsetMeters: Double, coordinate: Coordinate, roadName: String, roadRef: String,
                speedLimitKmh: Double?, confidence: Double, distanceMeters: Double) {
        self.edge = edge
        self.offsetMeters = offsetMeters
        self.coordinate = coordinate
        self.roadName = roadName
        self.roadRef = roadRef
        self.speedLimitKmh = speedLimitKmh
        self.confidence = confidence
        self.distanceMeters = distanceMeters
    }
}
