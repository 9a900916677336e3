import MapCompiler
import MapData
import Testing

@Suite struct CarProfileTests {
    @Test(arguments: [
        ("50", 50.0), ("30 mph", 48.27), ("10 knots", 18.52), ("DE:urban", 50), ("de:rural", 100), ("FR:rural", 80),
        ("GB:nsl_single", 96.54), ("walk", 7), ("50;30", 30), ("RU:urban", 60), ("CH:motorway", 120), ("XX:trunk", 110),
    ])
    func maxspeedValues(raw: String, kmh: Double) throws {
        let v = try #require(CarProfile.parseMaxspeed(raw))
        #expect(abs(v - kmh) < 0.01)
    }

    @Test func maxspeedUnknownAndNone() {
        #expect(CarProfile.parseMaxspeed("none") == .infinity)
        #expect(CarProfile.parseMaxspeed("DE:motorway") == nil)  // no number: the road's own speed applies
        #expect(CarProfile.parseMaxspeed("signals") == nil)
        #expect(CarProfile.parseMaxspeed("fast") == nil)
        #expect(CarProfile.parseMaxspeed("-5") == nil)
    }

    @Test func onewayAndRoundaboutsAndMotorways() throws {
        let oneway = try #require(CarProfile.attributes(of: ["highway": "residential", "oneway": "yes"]))
        #expect(oneway.forward && !oneway.backward)
        let reverse = try #require(CarProfile.attributes(of: ["highway": "residential", "oneway": "-1"]))
        #expect(!reverse.forward && reverse.backward)
        let ring = try #require(CarProfile.attributes(of: ["highway": "primary", "junction": "roundabout"]))
        #expect(ring.forward && !ring.backward && ring.flags.contains(.roundabout))
        let motorway = try #require(CarProfile.attributes(of: ["highway": "motorway"]))
        #expect(motorway.forward && !motorway.backward)
        let twoWayMotorway = try #require(CarProfile.attributes(of: ["highway": "motorway", "oneway": "no"]))
        #expect(twoWayMotorway.backward)
        #expect(CarProfile.attributes(of: ["highway": "residential", "oneway": "reversible"]) == nil)
    }

    @Test func placeholderNamesAreNotSpoken() throws {
        // Andorra's ref=FIXME (a secondary road): "take the second exit onto FIXME" must not be said
        let fixme = try #require(CarProfile.attributes(of: ["highway": "secondary", "name": "Carretera", "ref": "FIXME"]))
        #expect(fixme.name == "Carretera" && fixme.ref == "")
        for raw in ["fixme", "FIXME: name", "?", "???", "unknown", " Noname "] {
            #expect(CarProfile.spokenLabel(raw) == "", "\(raw)")
        }
        for real in ["CG-2", "Rue Hector Otto", "B 37", "Unknown Pleasures Lane"] {
            #expect(CarProfile.spokenLabel(real) == real)
        }
        #expect(CarProfile.spokenLabel("  Hauptstraße ") == "Hauptstraße")
    }

    /// Turn lanes per direction in OSRM's words: plain `turn:lanes` is the way's own direction (or
    /// the only one of a one-way drawn against it); lanes closed to cars, and bus lanes counted by
    /// `lanes:psv`, are left out (a bus lane both listed and counted only once); a lane's arrows
    /// come in OSRM's order.
    @Test func turnLanesPerDirection() throws {
        let two = try #require(CarProfile.attributes(of: ["highway": "primary", "turn:lanes:forward": "left|through;right",
                                                         "turn:lanes:backward": "reverse;left||"]))
        #expect(two.turnLanesForward == "left|straight;right")
        #expect(two.turnLanesBackward == "left;uturn|none|none")
        let plain = try #require(CarProfile.attributes(of: ["highway": "secondary", "turn:lanes": "left|through"]))
        #expect(plain.turnLanesForward == "left|straight" && plain.turnLanesBackward == "")
        let against = try #require(CarProfile.attributes(of: ["highway": "secondary", "oneway": "-1", "turn:lanes": "through|slight_right"]))
        #expect(against.turnLanesForward == "" && against.turnLanesBackward == "straight|slight right")
        let bus = try #require(CarProfile.attributes(of: ["highway": "primary", "oneway": "yes", "turn:lanes": "through|right|",
                                                         "lanes:psv": "1"]))
        #expect(bus.turnLanesForward == "straight|right")
        let closed = try #require(CarProfile.attributes(of: ["highway": "primary", "oneway": "yes", "turn:lanes": "through|through|right",
                                                            "vehicle:lanes": "yes|no|yes"]))
        #expect(closed.turnLanesForward == "straight|right")
        let both = try #require(CarProfile.attributes(of: ["highway": "primary", "oneway": "yes", "turn:lanes": "left|none|none",
                                                          "psv:lanes": "||designated", "lanes:psv": "1", "lanes:bus": "1"]))
        #expect(both.turnLanesForward == "left|none")
        // unmarked lanes only, unknown arrows, and a list no road has
        #expect(CarProfile.turnLanes(["turn:lanes": "none|"], forward: true) == "")
        #expect(CarProfile.turnLanes(["turn:lanes": "left|bogus"], forward: true) == "left|none")
        #expect(CarProfile.turnLanes(["turn:lanes": Array(repeating: "left", count: 17).joined(separator: "|")], forward: true) == "")
    }

    /// Signs per direction: plain `destination` is the way's own direction, or the only one of a
    /// one-way drawn against it; `:forward`/`:backward` win; the first of each list is kept.
    @Test func destinationsPerDirection() throws {
        let link = try #require(CarProfile.attributes(of: ["highway": "motorway_link", "destination": "Frankfurt;Darmstadt",
                                                          "destination:ref": "A 5"]))
        #expect(link.destinationForward == "A 5, Frankfurt" && link.destinationBackward == "")
        let against = try #require(CarProfile.attributes(of: ["highway": "primary", "oneway": "-1", "destination": "Mannheim"]))
        #expect(against.destinationForward == "" && against.destinationBackward == "Mannheim")
        let both = try #require(CarProfile.attributes(of: ["highway": "primary", "destination": "Heidelberg",
                                                          "destination:backward": "Speyer"]))
        #expect(both.destinationForward == "Heidelberg" && both.destinationBackward == "Speyer")
        let plain = try #require(CarProfile.attributes(of: ["highway": "primary", "destination": "Heidelberg"]))
        #expect(plain.destinationBackward == "")
    }

    @Test func accessRules() {
        #expect(CarProfile.attributes(of: ["highway": "residential", "access": "no"]) == nil)
        // private: destination only (no through traffic), and no route starts on a private service road
        let priv = CarProfile.attributes(of: ["highway": "service", "access": "private"])
        #expect(priv?.restrictedForward == true && priv?.startpoint == false)
        #expect(CarProfile.attributes(of: ["highway": "footway", "access": "private"]) == nil)
        #expect(CarProfile.attributes(of: ["highway": "footway", "access": "yes"])?.speedForwardKmh == 10)
        #expect(CarProfile.attributes(of: ["highway": "residential", "access": "agricultural;forestry"]) == nil)
        #expect(CarProfile.attributes(of: ["highway": "residential", "access": "yes;no"]) != nil)
        #expect(CarProfile.attributes(of: ["highway": "residential", "access": "no", "motor_vehicle": "yes"]) != nil)
        #expect(CarProfile.attributes(of: ["highway": "residential", "motorcar": "no"]) == nil)
        #expect(CarProfile.attributes(of: ["highway": "footway"]) == nil)
        #expect(CarProfile.attributes(of: ["highway": "track"]) == nil)
        #expect(CarProfile.attributes(of: ["highway": "residential", "access": "destination"])?.flags.contains(.destinationOnly) == true)
        #expect(CarProfile.attributes(of: ["route": "ferry", "motorcar": "yes"])?.roadClass == .ferry)
        #expect(CarProfile.attributes(of: ["route": "ferry", "duration": "0:10"])?.durationSeconds == 600)
        #expect(CarProfile.attributes(of: ["route": "ferry"])?.startpoint == false)
    }

    @Test func speedsFollowLimitsOrClassDefaults() throws {
        let limited = try #require(CarProfile.attributes(of: ["highway": "primary", "maxspeed": "100"]))
        #expect(limited.speedForwardKmh == 80)
        #expect(limited.maxspeedForwardKmh == 100)
        let plain = try #require(CarProfile.attributes(of: ["highway": "residential"]))
        #expect(plain.speedForwardKmh == 25)
        #expect(plain.maxspeedForwardKmh == nil)
        let faster = try #require(CarProfile.attributes(of: ["highway": "residential", "maxspeed": "90"]))
        #expect(faster.speedForwardKmh == 72)  // a posted limit replaces the class speed, up or down
        let split = try #require(CarProfile.attributes(of: ["highway": "secondary", "maxspeed:forward": "70", "maxspeed:backward": "50"]))
        #expect(split.maxspeedForwardKmh == 70 && split.maxspeedBackwardKmh == 50)
    }

    @Test func blockingBarriers() {
        #expect(CarProfile.nodeFlags(of: ["barrier": "bollard"]).contains(.barrier))
        #expect(!CarProfile.nodeFlags(of: ["barrier": "gate"]).contains(.barrier))
        #expect(CarProfile.nodeFlags(of: ["barrier": "gate", "access": "no"]).contains(.barrier))
        #expect(!CarProfile.nodeFlags(of: ["barrier": "gate", "access": "private"]).contains(.barrier))
        #expect(CarProfile.nodeAttributes(of: ["barrier": "gate"]).passPenaltySeconds == 60)
        #expect(!CarProfile.nodeFlags(of: ["barrier": "bollard", "bollard": "rising"]).contains(.barrier))
        #expect(!CarProfile.nodeFlags(of: ["barrier": "bollard", "motor_vehicle": "yes"]).contains(.barrier))
        #expect(CarProfile.nodeFlags(of: ["highway": "traffic_signals"]) == [.trafficSignals])
    }
}
