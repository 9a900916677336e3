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

    public var isMatched: Bool { edge != nil }

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

/// Nearest-road matching with the heading as a tie-breaker (issue #4 replaces it with an online
/// hidden Markov model; the output type stays).
public struct RoadMatcher: Sendable {
    public let map: RoadMap
    /// Positions farther than this from every road are left unmatched, metres.
    public var maximumDistanceMeters = 40.0

    public init(map: RoadMap) { self.map = map }

    public func match(_ c: Coordinate, courseDegrees: Double?, accuracyMeters: Double = 10) -> MatchedPosition {
        let radius = max(maximumDistanceMeters, accuracyMeters)
        let candidates = map.nearestEdges(to: c, radiusMeters: radius, limit: 8)
        var best: (score: Double, snap: Snap, edge: DirectedEdge)?
        for s in candidates {
            let e = map.edge(s.edge)
            var options: [(DirectedEdge, Double)] = []
            if e.flags.contains(.forward) { options.append((DirectedEdge(edge: s.edge, reversed: false), s.bearingDegrees)) }
            if e.flags.contains(.backward) { options.append((DirectedEdge(edge: s.edge, reversed: true), Angle.normalized(s.bearingDegrees + 180))) }
            for (d, bearing) in options {
                var score = s.distanceMeters
                if let course = courseDegrees {
                    // 90° off costs as much as 20 m off
                    score += abs(Angle.difference(from: bearing, to: course)) / 90 * 20
                }
                if best == nil || score < best!.score { best = (score, s, d) }
            }
        }
        guard let b = best else {
            return MatchedPosition(edge: nil, offsetMeters: 0, coordinate: c, roadName: "", roadRef: "", speedLimitKmh: nil,
                                   confidence: 0, distanceMeters: .infinity)
        }
        let rec = map.edge(b.edge.edge)
        let offset = b.edge.reversed ? b.snap.edgeLengthMeters - b.snap.offsetMeters : b.snap.offsetMeters
        let confidence = max(0, min(1, 1 - b.score / (radius + 20)))
        return MatchedPosition(edge: b.edge, offsetMeters: offset, coordinate: b.snap.point, roadName: map.name(rec.nameID),
                               roadRef: map.name(rec.refID), speedLimitKmh: map.maxspeedKmh(of: b.edge),
                               confidence: confidence, distanceMeters: b.snap.distanceMeters)
    }
}
