/// Junctions of motorways and their ramps: exits, motorways splitting, ramps merging, a
/// motorway ending in ramps (OSRM's MotorwayHandler, src/guidance/motorway_handler.cpp).
extension AnalysisContext {
    /// A ramp: a motorway or trunk link, or coming off a motorway any link.
    func isRamp(_ e: GuidanceGraph.Edge, fromMotorway: Bool = true) -> Bool {
        let c = classification(e)
        return c.isRampClass || (fromMotorway && c.isLink)
    }

    /// Only motorways and ramps meet, every way on within 60° of straight, and the car is on a
    /// motorway or there is one to join.
    func isMotorwayJunction(via: GuidanceGraph.Edge, _ x: Intersection) -> Bool {
        let fromMotorway = classification(via).isMotorwayClass
        var hasMotorway = false, hasNormalRoads = false
        for r in x {
            if r.entryAllowed && r.deviation > 60 { return false }
            if classification(r.edge).isMotorwayClass {
                if r.entryAllowed { hasMotorway = true }
            } else if !isRamp(r.edge, fromMotorway: fromMotorway) {
                hasNormalRoads = true
            }
        }
        if hasNormalRoads { return false }
        return hasMotorway || fromMotorway
    }

    func handleMotorway(via: GuidanceGraph.Edge, _ x: inout Intersection) {
        if classification(via).isMotorwayClass {
            fromMotorway(via: via, &x)
            for i in x.indices where x[i].instruction.kind == .onRamp { x[i].instruction.kind = .offRamp }
        } else {
            fromRamp(via: via, &x)
        }
    }

    /// The angle of the motorway going on: by name, else the straightest motorway.
    private func continueAngle(via: GuidanceGraph.Edge, _ x: Intersection) -> Double {
        if let r = x.first(where: { r in
            r.entryAllowed && r.angle != 0 && !isEmptyName(via) && !isEmptyName(r.edge) && !requiresAnnouncement(via, r.edge)
                && classification(r.edge).isMotorwayClass
        }) {
            return r.angle
        }
        var best = 180.0, angle = x[0].angle
        for r in x where classification(r.edge).isMotorwayClass && r.deviation < best {
            best = r.deviation
            angle = r.angle
        }
        return angle
    }

    private func fromMotorway(via: GuidanceGraph.Edge, _ x: inout Intersection) {
        let cont = continueAngle(via: via, x)
        func dir(_ i: Int) -> TurnInstruction.Direction { TurnAngle.direction(x[i].angle) }
        if cont == x[0].angle {
            // the motorway does not go on, and nothing is obvious
            if x.count == 2 {
                // (ramps at the end of a motorway are not announced)
                x[1].instruction = TurnInstruction(.noTurn, dir(1))
            } else if x.count == 3 {
                if x[1].entryAllowed && x[2].entryAllowed {
                    assignFork(via: via, left: 2, right: 1, &x)
                } else if x[1].entryAllowed {
                    x[1].instruction = TurnInstruction(.noTurn, dir(1))
                } else {
                    x[2].instruction = TurnInstruction(.noTurn, dir(2))
                }
            } else if x.count == 4 && classification(x[1].edge).sameClass(classification(x[2].edge))
                        && classification(x[2].edge).sameClass(classification(x[3].edge)) {
                assignFork(via: via, left: 3, center: 2, right: 1, &x)
            } else if x.countEnterable > 0 {
                motorwayFallback(&x)
            }
            return
        }
        let validExits = x.countEnterable
        let exitingMotorways = x.filter { $0.entryAllowed && classification($0.edge).isMotorwayClass }.count
        if exitingMotorways == 0 {
            // ending in ramps
            for i in x.indices where x[i].entryAllowed { x[i].instruction = TurnInstruction(.suppressed, dir(i)) }
        } else if exitingMotorways == 1 || exitingMotorways != validExits {
            // the motorway passing ramps, or merging onto another motorway
            if x.count == 2 {
                x[1].instruction = instructionForObvious(roads: 2, via: via, throughStreet: isThroughStreet(1, x), x[1])
            } else {
                for i in x.indices where x[i].entryAllowed {
                    let ramp = isRamp(x[i].edge)
                    if x[i].angle == cont {
                        // (OSRM's through-street test here always looks at road 1)
                        x[i].instruction = instructionForObvious(roads: x.count, via: via, throughStreet: isThroughStreet(1, x), x[i])
                    } else if x[i].angle < cont {
                        x[i].instruction = TurnInstruction(ramp ? .offRamp : .turn, x[i].angle < 145 ? .right : .slightRight)
                    } else {
                        x[i].instruction = TurnInstruction(ramp ? .offRamp : .turn, x[i].angle > 215 ? .left : .slightLeft)
                    }
                }
            }
        } else {
            // motorways splitting
            let motorways = x.indices.filter { x[$0].entryAllowed && classification(x[$0].edge).isMotorwayClass }
            if motorways.count == 2 {
                assignFork(via: via, left: motorways[1], right: motorways[0], &x)
            } else if motorways.count == 3 {
                assignFork(via: via, left: motorways[2], center: motorways[1], right: motorways[0], &x)
            } else {
                motorwayFallback(&x)
            }
        }
    }

    private func fromRamp(via: GuidanceGraph.Edge, _ x: inout Intersection) {
        let valid = x.countEnterable
        func dir(_ i: Int) -> TurnInstruction.Direction { TurnAngle.direction(x[i].angle) }
        if x.count == 2 && valid == 1 {
            x[1].instruction = instructionForObvious(roads: 2, via: via, throughStreet: isThroughStreet(1, x), x[1])
        } else if x.count == 3 {
            let sameName12 = !requiresAnnouncement(x[2].edge, x[1].edge)
            let named1 = !hasNoName(x[1].edge), named2 = !hasNoName(x[2].edge)
            if valid == 1 {
                // merging onto a motorway passing by: it comes from the side of the road not taken
                if x[1].entryAllowed {
                    if classification(x[1].edge).isMotorwayClass && named1 && named2 && sameName12 {
                        x[1].instruction = TurnInstruction(.merge, x[1].deviation < 80 ? .slightLeft : dir(1))
                    } else {
                        x[1].instruction = instructionForObvious(roads: 3, via: via, throughStreet: isThroughStreet(1, x), x[1])
                    }
                } else {
                    if classification(x[2].edge).isMotorwayClass && named1 && named2 && sameName12 {
                        x[2].instruction = TurnInstruction(.merge, x[2].deviation < 80 ? .slightRight : dir(2))
                    } else {
                        x[2].instruction = instructionForObvious(roads: 3, via: via, throughStreet: isThroughStreet(2, x), x[2])
                    }
                }
            } else {
                let m1 = classification(x[1].edge).isMotorwayClass, m2 = classification(x[2].edge).isMotorwayClass
                if m1 && m2 {
                    assignFork(via: via, left: 2, right: 1, &x)
                } else if m1 {
                    // the ramp goes on past a motorway's entry
                    x[1].instruction = TurnInstruction(.turn, .slightRight)
                    x[2].instruction = TurnInstruction(.continue, .slightLeft)
                } else {
                    assignFork(via: via, left: 2, right: 1, &x)
                }
            }
        } else if x.count == 4 {
            // an on/off ramp on a passing motorway
            var passed = false
            for i in x.indices {
                let motorway = classification(x[i].edge).isMotorwayClass
                if !x[i].entryAllowed && motorway {
                    passed = true
                } else if motorway {
                    x[i].instruction = TurnInstruction(.merge, passed ? .slightRight : .slightLeft)
                } else {
                    x[i].instruction = TurnInstruction(.offRamp, dir(i))
                }
            }
        } else {
            motorwayFallback(&x)
        }
    }

    private func motorwayFallback(_ x: inout Intersection) {
        for i in x.indices where x[i].entryAllowed {
            if classification(x[i].edge).isMotorwayClass {
                x[i].instruction = TurnInstruction(.merge, x[i].angle < 180 ? .slightLeft : .slightRight)
            } else {
                let d: TurnInstruction.Direction = x[i].deviation < 25 ? .straight : (x[i].angle > 180 ? .slightLeft : .slightRight)
                x[i].instruction = TurnInstruction(.turn, d)
            }
        }
    }
}
