/// A road passing driveways, service roads or parking aisles: no decision, just the road going on
/// (OSRM's DrivewayHandler, src/guidance/driveway_handler.cpp).
extension AnalysisContext {
    /// Exactly two real roads (the one coming in and one other), every other road a minor one.
    func isDriveway(_ x: Intersection) -> Bool {
        guard x.count > 2, !classification(x[0].edge).isLowPriority else { return false }
        let low = x.filter { classification($0.edge).isLowPriority }.count
        return low + 2 == x.count
    }

    func handleDriveway(via: GuidanceGraph.Edge, _ x: inout Intersection) {
        guard let main = x.indices.dropFirst().first(where: { !classification(x[$0].edge).isLowPriority }) else { return }
        // (a road the car may not take kept no instruction from setTurnTypes)
        guard x[main].instruction != .invalid else { return }
        x[main].instruction.kind = isSameName(via, x[main].edge) ? .noTurn : .newName
        if x[main].instruction.direction == .straight {
            // a driveway about straight on is a slight turn to its side of the road
            for i in 1..<x.count where i != main && x[i].instruction.direction == .straight {
                x[i].instruction.direction = i < main ? .slightRight : .slightLeft
            }
        }
    }
}
