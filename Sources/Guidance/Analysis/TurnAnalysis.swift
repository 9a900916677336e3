/// The instruction for every road of a junction seen from one road coming in: the handlers in
/// OSRM's order (TurnAnalysis::AssignTurnTypes, src/guidance/turn_analysis.cpp). A ferry carries
/// on silently; a roundabout has its own rules; else driveways, motorway junctions or the general
/// turn handler; then sliproads over what those decided.
extension AnalysisContext {
    func assignTurnTypes(via: GuidanceGraph.Edge, _ view: Intersection) -> Intersection {
        var x = view
        for i in x.indices {
            x[i].instruction = .invalid
            x[i].lanes = nil
        }
        if isAllFerry(via: via, x) {
            handleSuppressMode(&x)
            return x
        }
        if isRoundaboutJunction(via: via, x) {
            handleRoundabout(via: via, &x)
        } else {
            setTurnTypes(via: via, &x)
            if isDriveway(x) {
                handleDriveway(via: via, &x)
            } else if isMotorwayJunction(via: via, x) {
                handleMotorway(via: via, &x)
            } else {
                handleTurns(via: via, &x)
            }
        }
        if x.count > 2 { handleSliproads(via: via, &x) }
        // from a motorway, a ramp is always an exit
        if classification(via).isMotorwayClass {
            for i in x.indices where x[i].instruction.kind == .onRamp { x[i].instruction.kind = .offRamp }
        }
        return x
    }

    /// The defaults the special handlers start from: back the way the car came a u-turn, every
    /// other road it may take a turn its angle's way.
    func setTurnTypes(via: GuidanceGraph.Edge, _ x: inout Intersection) {
        let fromNode = graph.source(via)
        for i in x.indices where x[i].entryAllowed {
            x[i].instruction = graph.target(x[i].edge) == fromNode && x[i].edge == graph.reverse(via)
                ? TurnInstruction(.continue, .uturn) : TurnInstruction(.turn, TurnAngle.direction(x[i].angle))
        }
    }
}
