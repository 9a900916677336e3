/// How two steps folded into one decide the instruction (OSRM's combine strategies,
/// src/engine/guidance/collapse_turns.cpp).
enum CombineStrategy {
    /// The angle of the two turns together where they add up to a turn (the same way, or close
    /// together), else the first's: opposite turns do not cancel out.
    static func totalTurnAngle(_ a: RouteStep, _ b: RouteStep) -> Double {
        let (entry, exit) = a.geometryBegin > b.geometryBegin ? (b, a) : (a, b)
        let exitAngle = exit.front.turnAngle ?? 180, entryAngle = entry.front.turnAngle ?? 180
        guard let i = entry.front.inBearing, let o = exit.front.outBearing else { return entryAngle }
        let total = TurnAngle.between(entry: TurnAngle.reverse(i), exit: o)
        let useTotal: Bool
        if TurnAngle.fromStraight(total) < 20 {
            useTotal = false
        } else if entry.distance < Collapsing.maxCollapseDistance {
            useTotal = true
        } else {
            useTotal = (entryAngle <= 185 && exitAngle <= 185) || (entryAngle >= 175 && exitAngle >= 175)
        }
        return useTotal ? total : entryAngle
    }

    /// The direction of the two turns together (AdjustToCombinedTurnAngleStrategy); a fork keeps
    /// its side, which depends only on where the road forks.
    static func adjustToCombinedTurnAngle(_ at: inout RouteStep, _ from: RouteStep) {
        if at.type == .fork { return }
        at.modifier = TurnAngle.direction(totalTurnAngle(at, from))
    }

    /// The combined direction, and a type that fits it (AdjustToCombinedTurnStrategy): a name
    /// change folded into a turn makes it a turn, onto the road it came on a continue.
    static func adjustToCombinedTurn(prior: RouteStep, _ c: StepContext) -> (inout RouteStep, RouteStep) -> Void {
        { at, from in
            let angle = totalTurnAngle(at, from)
            let newModifier = at.type == .fork || at.type == .merge ? at.modifier : TurnAngle.direction(angle)
            func nonTurn(_ s: RouteStep) -> Bool {
                s.type == .newName || (s.type == .turn && s.modifier == .straight) || (s.type == .continue && s.modifier == .straight)
            }
            if nonTurn(from) || nonTurn(at) || at.type == .suppressed {
                if at.type == .suppressed {
                    at.type = newModifier == .straight ? .newName : (c.haveSameName(prior, from) ? .continue : .turn)
                } else if at.type == .newName && from.type == .suppressed && newModifier != .straight {
                    at.type = .turn
                } else if at.type == .continue && !c.haveSameName(prior, from) {
                    at.type = .turn
                } else if at.type == .turn && from.type != .suppressed && c.haveSameName(prior, from) {
                    at.type = .continue
                }
            } else if from.type == .onRamp {
                at.type = .onRamp
            } else if at.type == .turn && from.type == .turn && c.haveSameName(prior, from) {
                at.type = .continue
            } else if at.type == .continue && from.type == .turn && !c.haveSameName(prior, from) {
                at.type = .turn
            }
            at.modifier = newModifier
        }
    }

    /// A staggered crossing is straight on: silent on the same road, else a new name.
    static func staggeredTurn(prior: RouteStep, _ c: StepContext) -> (inout RouteStep, RouteStep) -> Void {
        { at, from in
            at.modifier = .straight
            at.type = c.haveSameName(prior, from) ? .suppressed : .newName
        }
    }

    static func fixed(_ i: TurnInstruction) -> (inout RouteStep, RouteStep) -> Void { { at, _ in at.instruction = i } }

    /// Two pieces inside a divided road's junction: an end of road stays one.
    static func combineSegregatedSteps(_ at: inout RouteStep, _ from: RouteStep) {
        if at.type == .endOfRoad || from.type == .endOfRoad { at.type = .endOfRoad }
    }

    /// The turn onto a piece inside a divided road's junction and the turn off it, as one: by
    /// the bearings before and after (SegregatedTurnStrategy).
    static func segregatedTurn(prior: RouteStep, _ c: StepContext) -> (inout RouteStep, RouteStep) -> Void {
        { at, from in
            var update = true
            let angle = TurnAngle.between(entry: at.bearingBefore, exit: from.bearingAfter)
            let dir = TurnAngle.direction(angle)
            func straightStep(_ s: RouteStep) -> Bool {
                turnStep(s) && (s.modifier == .straight || s.modifier == .slightLeft || s.modifier == .slightRight)
            }
            func turnStep(_ s: RouteStep) -> Bool {
                switch s.type {
                case .turn, .continue, .newName, .suppressed: return true
                default: return false
                }
            }
            if at.type == .endOfRoad || from.type == .endOfRoad {
                at.type = .endOfRoad
            } else if at.type == .fork {
                update = false
            } else if dir == .straight && straightStep(from) {
                at.type = c.haveSameName(prior, from) ? .suppressed : .newName
            } else if Collapsing.isWiderStraight(angle) && at.intersectionCount == 1 && Collapsing.hasStraightestTurn(at)
                        && Collapsing.hasStraightestTurn(from) {
                at.type = c.haveSameName(prior, from) ? .suppressed : .newName
                at.modifier = .straight
                update = false
            } else if dir != .straight && turnStep(from) {
                at.type = .turn
            } else {
                at.type = from.type
            }
            if update { at.modifier = dir }
        }
    }
}
