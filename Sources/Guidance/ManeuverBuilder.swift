import Geo
import MapData
import Routing

/// The maneuvers of a route leg: the turn records the import decided (Sources/Guidance/Analysis,
/// OSRM's extractor guidance), assembled into steps and put through OSRM's engine passes in its
/// order (include/engine/api/route_api.hpp, MakeLegs), then said in Tern's words with signs,
/// lanes and landmarks. Each pass is a file in Sources/Guidance/Steps.
public struct ManeuverBuilder: Sendable {
    public let map: RoadMap

    public init(map: RoadMap) { self.map = map }

    /// Maneuvers of one leg: depart first, arrive last. `destination` is the requested end point
    /// (before snapping), for the side of the street; `isLastLeg` false makes the arrival a
    /// waypoint's.
    public func maneuvers(for leg: RouteLeg, destination: Coordinate? = nil, isLastLeg: Bool = true) -> [Maneuver] {
        guard !leg.edges.isEmpty, leg.shape.count >= 2 else { return [] }
        let c = StepContext(map: map, leg: leg)
        var steps = StepAssembler.assemble(c)
        for pass in ManeuverBuilder.passes {
            pass(&steps, c)
        }
        var result = ManeuverConversion.maneuvers(steps, c, destination: destination)
        Signposts.apply(&result)
        Landmarks.apply(&result, map: map, leg: leg)
        if !isLastLeg, !result.isEmpty { result[result.count - 1].isWaypoint = true }
        return result
    }

    /// OSRM's engine passes, in its order: overrides while every turn has its step, the
    /// segregated junctions, the short ends, roundabouts before the collapsing that expects
    /// them, lanes before the suppressed steps are folded, then the short names.
    static let passes: [@Sendable (inout [RouteStep], StepContext) -> Void] = [
        ApplyOverrides.apply, CollapseSegregated.apply, TrimShortSegments.apply, HandleRoundabouts.apply, CollapseTurns.apply,
        AnticipateLanes.apply, BuildIntersections.apply, SuppressShortNames.apply,
    ]
}
