/// On a ferry, where every road of the junction is ferry too, nothing is said: the car is on
/// board (OSRM's SuppressModeHandler, src/guidance/suppress_mode_handler.cpp).
extension AnalysisContext {
    func isAllFerry(via: GuidanceGraph.Edge, _ x: Intersection) -> Bool {
        graph.data(via).ferry && x.allSatisfy { graph.data($0.edge).ferry }
    }

    func handleSuppressMode(_ x: inout Intersection) {
        for i in x.indices { x[i].instruction = TurnInstruction(.noTurn, x[i].instruction.direction) }
    }
}
