import MapData

/// Mappers' maneuver relations (type=maneuver): where the route follows a relation's path, the
/// step at its via node takes the type and direction given (OSRM's applyOverrides,
/// post_processing.cpp; first of the passes, while every turn still has its own step). A step
/// exists only where a turn was decided, so a relation at a node the road merely passes does
/// nothing, as in OSRM.
enum ApplyOverrides {
    static func apply(_ steps: inout [RouteStep], _ c: StepContext) {
        let map = c.map, edges = c.leg.edges
        guard !map.maneuverOverrides.isEmpty else { return }
        for i in edges.indices {
            for oi in map.maneuverOverridesByFirstEdge[edges[i]] ?? [] {
                let o = map.maneuverOverrides[oi]
                guard i + o.path.count <= edges.count, Array(edges[i..<(i + o.path.count)]) == o.path,
                      let k = ((i + 1)..<(i + o.path.count)).first(where: { map.source(of: edges[$0]) == o.viaNode }),
                      let s = steps.firstIndex(where: { !$0.isWaypoint && $0.edgeIndex == k }) else { continue }
                switch o.kind {
                case .turn: steps[s].type = .turn
                case .continueOn: steps[s].type = .continue
                case .fork: steps[s].type = .fork
                case .uturn:
                    steps[s].type = .continue
                    steps[s].modifier = .uturn
                case .suppress: steps[s].type = .suppressed
                }
                if let d = direction(o.direction) { steps[s].modifier = d }
                steps[s].overridden = true
            }
        }
    }

    static func direction(_ d: ManeuverOverride.Direction) -> TurnInstruction.Direction? {
        switch d {
        case .none: return nil
        case .sharpLeft: return .sharpLeft
        case .left: return .left
        case .slightLeft: return .slightLeft
        case .straight: return .straight
        case .slightRight: return .slightRight
        case .right: return .right
        case .sharpRight: return .sharpRight
        }
    }
}
