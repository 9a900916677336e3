import FoundationEssentials
import Glibc
import Platform
import Geo

/// Distance units for spoken and written instructions.
public enum UnitSystem: String, Sendable, CaseIterable {
    /// Metres and kilometres.
    case metric
    /// Miles and feet (the United States).
    case imperial
    /// Miles and yards (the United Kingdom).
    case imperialUK = "imperial-uk"
}

/// Instruction text in one language, from the locale tables.
public struct Instructions: Sendable {
    public var units: UnitSystem
    public var locale: GuidanceLocale

    /// English (en-GB) in the given units.
    public init(units: UnitSystem = .metric) {
        self.units = units
        locale = .english
    }

    /// A locale's phrases in the given units (its own default when nil).
    public init(locale: GuidanceLocale, units: UnitSystem? = nil) {
        self.locale = locale
        self.units = units ?? locale.defaultUnits
    }

    /// "Main Street (B 37)", "Main Street", "B 37" or "" for an unnamed road. Of a road with
    /// several refs ("B 37;B 45") only the first is said, as OSRM's text instructions do, and so
    /// of several names ("Avigunda Sant Antoni; Avinguda Fiter i Rossell" in Andorra): a voice
    /// reading "B 37 semicolon B 45" helps nobody.
    static func wayName(_ m: Maneuver) -> String {
        func first(_ s: String) -> String { s.split(separator: ";").first.map { String(NameRules.trimmedSpaces(String($0))) } ?? "" }
        let name = first(m.street), ref = first(m.ref)
        if !name.isEmpty && !ref.isEmpty && name != ref { return "\(name) (\(ref))" }
        return name.isEmpty ? ref : name
    }

    /// The way's name as said: a ref's cardinal direction from its route relation ("I 80 $west",
    /// as OSRM writes it; MapCompiler's RouteRelations) in the locale's compass word.
    func spokenName(_ m: Maneuver) -> String {
        let name = Instructions.wayName(m)
        guard name.contains("$") else { return name }
        var out = name
        for (placeholder, key) in [("$north", "n"), ("$south", "s"), ("$east", "e"), ("$west", "w")] {
            out = out.replacing(placeholder, with: locale.phrase("compass." + key))
        }
        return out
    }

    static func compassKey(_ bearing: Double) -> String {
        let names = ["n", "ne", "e", "se", "s", "sw", "w", "nw"]
        return names[Int((Angle.normalized(bearing) + 22.5) / 45) % 8]
    }

    static func modifierKey(_ m: ManeuverModifier?) -> String {
        switch m {
        case .uturn?: return "uturn"
        case .sharpRight?: return "sharp_right"
        case .right?: return "right"
        case .slightRight?: return "slight_right"
        case .straight?, nil: return "straight"
        case .slightLeft?: return "slight_left"
        case .left?: return "left"
        case .sharpLeft?: return "sharp_left"
        }
    }

    /// A phrase key, with ".name" when the maneuver's road has a name or ref.
    private func say(_ key: String, _ m: Maneuver, _ values: [String: String] = [:]) -> String {
        let name = spokenName(m)
        var v = values
        if !name.isEmpty { v["way_name"] = name }
        return locale.phrase(name.isEmpty ? key : key + ".name", v)
    }

    /// An exit number as spoken: a plain number of up to four digits as the language says
    /// numbers (in words in Hebrew); anything else ("74b", a mapper's oddity) as signed.
    private func exitLabel(_ ref: String) -> String {
        guard (1...4).contains(ref.count), ref.allSatisfy({ $0.isASCII && $0.isNumber }), let n = Int(ref) else { return ref }
        return locale.number(Double(n))
    }

    private func side(_ m: ManeuverModifier?) -> String { locale.phrase(m?.isLeft == true ? "side.left" : "side.right") }
    private func modifier(_ m: ManeuverModifier?) -> String { locale.phrase("modifier." + Instructions.modifierKey(m)) }

    /// A turn in a direction: "Turn left", "Go straight", "Make a U-turn", with the road.
    private func turn(_ m: Maneuver) -> String {
        switch m.modifier {
        case .straight?, nil: return say("straight", m)
        case .uturn?: return say("uturn", m)
        default: return say("turn", m, ["modifier": modifier(m.modifier)])
        }
    }

    private func ringExit(_ prefix: String, _ m: Maneuver) -> String {
        guard let exit = m.exit else { return locale.phrase(prefix + ".enter") }
        if exit >= 1 && exit <= 10 { return say(prefix, m, ["ordinal": locale.phrase("ordinal.\(exit)")]) }
        return say(prefix + ".exit_n", m, ["n": locale.number(Double(exit))])
    }

    /// "At the next roundabout, take the second exit": a roundabout or rotary with its exit
    /// number and no name, said after another; nil for anything else.
    private func nextRingExit(_ m: Maneuver) -> String? {
        guard m.type == .roundabout || m.type == .rotary, let exit = m.exit, Instructions.wayName(m).isEmpty else { return nil }
        let prefix = m.type == .rotary ? "rotary" : "roundabout"
        if exit >= 1 && exit <= 10 { return locale.phrase(prefix + ".next", ["ordinal": locale.phrase("ordinal.\(exit)")]) }
        return locale.phrase(prefix + ".exit_n.next", ["n": locale.number(Double(exit))])
    }

    /// The instruction for a maneuver, as shown and spoken ("Turn left onto Hauptstraße").
    public func text(_ m: Maneuver) -> String { text(m, signs: true) }

    /// The instruction, with or without what the signs say (a "now" prompt at the exit is short:
    /// "take exit 38 on the right"; the prompts before it said where it leads).
    func text(_ m: Maneuver, signs: Bool) -> String {
        var s: String
        switch m.type {
        case .depart:
            s = say("depart", m, ["compass": locale.phrase("compass." + Instructions.compassKey(m.bearingAfter))])
        case .arrive:
            let base = m.isWaypoint ? "arrive.waypoint" : "arrive"
            s = locale.phrase(m.side.map { base + "." + $0.rawValue } ?? base)
        case .roundabout: s = ringExit("roundabout", m)
        case .rotary: s = ringExit("rotary", m)
        case .roundaboutTurn where m.modifier == .straight && locale.hasOwnPhrase("roundabout_turn.straight"):
            s = say("roundabout_turn.straight", m)
        case .roundaboutTurn: s = say("roundabout_turn", m, ["modifier": modifier(m.modifier)])
        case .exitRoundabout: s = say("exit_roundabout", m)
        case .exitRotary: s = say("exit_rotary", m)
        case .newName:
            if let mod = m.modifier, mod != .straight, !m.atBend {
                s = turn(m)  // a corner: "Turn right onto ..."
            } else {
                // (straight on, or where the road only bends: nothing to turn into, the driver
                // hears the new name; the direction stays in the maneuver's modifier)
                s = Instructions.wayName(m).isEmpty ? locale.phrase("continue") : say("new_name", m)
            }
        case .continue:
            switch m.modifier {
            case .straight?, nil: s = say("continue", m)
            case .uturn?: s = say("uturn", m)
            // the road the car is on goes on this way: "keep right to stay on B", "turn right to
            // stay on B" (OSRM, Valhalla), never "keep right" at a right angle, nor "turn right
            // onto B" that sends the driver looking for another road called B
            // (where the road taken has another name or ref than the one driven on, not said
            // before, e.g. off Grenzhöfer Weg (K 9702) onto an unnamed L 637: "onto")
            case .slightLeft?, .slightRight?:
                s = m.staysOnRoad ? locale.phrase("keep.stay", ["side": side(m.modifier), "way_name": spokenName(m)])
                    : say("keep", m, ["side": side(m.modifier)])
            default:
                s = m.staysOnRoad ? locale.phrase("turn.stay", ["modifier": modifier(m.modifier), "way_name": spokenName(m)]) : turn(m)
            }
        case .merge: s = say("merge", m)
        // (a ramp straight ahead has no side: "take the ramp", as OSRM)
        case .onRamp: s = m.modifier == .straight || m.modifier == nil ? say("on_ramp.straight", m) : say("on_ramp", m, ["side": side(m.modifier)])
        case .offRamp:
            // "take exit 12 on the right": the number on the sign where the exit leaves
            s = m.exitNumber.isEmpty ? say("off_ramp", m, ["side": side(m.modifier)])
                : say("off_ramp.exit", m, ["side": side(m.modifier), "exit": exitLabel(m.exitNumber)])
        case .fork: s = say("fork", m, ["side": side(m.modifier)])
        case .endOfRoad: s = say("end_of_road", m, ["modifier": modifier(m.modifier)])
        // boarding a ferry with no other way to go: "take the ferry" (OSRM's text for its mode)
        case .notification: s = m.onFerry ? say("ferry", m) : say("continue", m)
        case .turn: s = turn(m)
        }
        // what the signs say the road leads to, where the driver reads them: ramps, forks, merges
        // and turns ("take the ramp on the right towards A 5, Frankfurt"); not the ref or name
        // the instruction has already said
        let signed: Set<ManeuverType> = [.onRamp, .offRamp, .fork, .merge, .turn, .endOfRoad]
        if signs, signed.contains(m.type) {
            // (a part that is exactly the road's name or one of its refs has been said)
            let said = Set(([m.street] + m.ref.split(separator: ";").map(String.init)).map { $0.trimmed() })
            let parts = m.destination.split(separator: ", ", omittingEmptySubsequences: false).map(String.init).filter { !$0.isEmpty && !said.contains($0) }
            if !parts.isEmpty {
                s = locale.phrase("towards", ["instruction": locale.embedded(s), "destination": parts.joined(separator: ", ")])
            }
        }
        if Instructions.saysLandmark(m.type), let lm = m.landmark {
            var values = ["instruction": locale.embedded(s)]
            if case .place(let name, _) = lm { values["place"] = name }
            let key = Instructions.landmarkKey(lm)
            if locale.landmarkAfterVerb, let t = locale.template(key), t.hasPrefix("{instruction}") {
                // (after the verb: "Ga bij de verkeerslichten rechtsaf naar Dilsberger Straße")
                values["instruction"] = ""
                s = Instructions.afterFirstWord(s, insert: locale.phrase(key, values).trimmed(of: ", "))
            } else {
                s = locale.phrase(key, values)
            }
        }
        return s.capitalizedFirst
    }

    /// The phrase for a whole number of kilometres, 5 or more, by the language's number rules.
    private func wholeKilometresKey(_ n: Double) -> String {
        guard n < 1e15 else { return "distance.km.many" }
        let last = Int(n) % 10, lastTwo = Int(n) % 100
        if locale.pluralByLastDigit {
            // ("22 километра", "21 километр", not "22 километров", "21 километров")
            if last == 1, lastTwo != 11, locale.template("distance.km.one_n") != nil { return "distance.km.one_n" }
            if (2...4).contains(last), !(12...14).contains(lastTwo) { return "distance.km.few" }
        }
        // (Romanian "20 de kilometri": from 20, and past each hundred from its 20, the number takes
        // "de", where the table has that form)
        if lastTwo == 0 || lastTwo >= 20, locale.template("distance.km.from_20") != nil { return "distance.km.from_20" }
        return "distance.km.many"
    }

    /// Whether a maneuver is said with its landmark: not a ring's entry and exit, the start or
    /// the arrival. (A switch, not a set: guidance asks at every maneuver of every route.)
    static func saysLandmark(_ type: ManeuverType) -> Bool {
        switch type {
        case .roundabout, .rotary, .roundaboutTurn, .exitRoundabout, .exitRotary, .depart, .arrive: return false
        default: return true
        }
    }

    static func landmarkKey(_ lm: Landmark) -> String {
        switch lm {
        case .trafficSignals: return "landmark.at_signals"
        case .trafficSignalsBefore: return "landmark.after_signals"
        case .stopSign: return "landmark.at_stop"
        case .place(_, let after): return after ? "landmark.after_place" : "landmark.at_place"
        }
    }

    /// `s` with `insert` after its first word ("ga linksaf" → "ga daarna linksaf").
    static func afterFirstWord(_ s: String, insert: String) -> String {
        guard let space = s.firstIndex(of: " ") else { return s + " " + insert }
        return String(s[..<space]) + " " + insert + String(s[space...])
    }

    /// A distance as a driver hears it, rounded to a natural value ("300 metres", "half a mile").
    public func spokenDistance(_ meters: Double) -> String { words(spokenDistanceValue(meters)) }

    /// A distance rounded as it is said: two distances with the same value say the same words
    /// (the prompt plan keeps texts by it rather than building them again on every fix).
    public enum SpokenDistance: Hashable, Sendable {
        /// Kilometres: half steps below 4.75, whole ones above.
        case km(Double)
        /// Metres, in drivers' steps (`roundedMeters`).
        case m(Int)
        /// Miles: quarters below 0.875, halves below 4.75, whole ones above.
        case mi(Double)
        case yd(Double)
        case ft(Double)
    }

    /// The rounding half of `spokenDistance`.
    public func spokenDistanceValue(_ meters: Double) -> SpokenDistance {
        switch units {
        case .metric:
            if meters >= 950 {
                let km = meters / 1000
                return km < 4.75 ? .km(max(1, (km * 2).rounded() / 2)) : .km(km.rounded())
            }
            return .m(Instructions.roundedMeters(meters))
        case .imperial, .imperialUK:
            let miles = meters / 1609.344
            if miles >= 0.2 {
                if miles < 0.875 { return .mi(max(0.25, (miles * 4).rounded() / 4)) }
                return miles < 4.75 ? .mi(max(1, (miles * 2).rounded() / 2)) : .mi(miles.rounded())
            }
            if units == .imperialUK {
                let yards = meters / 0.9144
                return .yd(yards >= 100 ? (yards / 50).rounded() * 50 : max(10, (yards / 10).rounded() * 10))
            }
            let feet = meters / 0.3048
            return .ft(feet >= 500 ? (feet / 100).rounded() * 100 : max(50, (feet / 50).rounded() * 50))
        }
    }

    /// The words half of `spokenDistance`.
    private func words(_ d: SpokenDistance) -> String {
        switch d {
        case .km(let h) where h < 4.75:
            if h == 1 { return locale.phrase("distance.km.one") }
            // (a number said in a form of its own where the table has one: the Hebrew
            // construct "שני קילומטרים", the Arabic dual "كيلومتران", Slovenian "3 kilometre")
            let exact = "distance.km.exact." + (h == h.rounded() ? String(Int(h)) : String(printf: "%.1f", h))
            if locale.template(exact) != nil { return locale.phrase(exact) }
            // (a fraction takes its own form where the table has one: Polish "2,5 kilometra",
            // not "kilometry")
            let fraction = h != h.rounded() && locale.template("distance.km.fraction") != nil
            return locale.phrase(fraction ? "distance.km.fraction" : "distance.km.few", ["n": locale.number(h)])
        case .km(let n):
            return locale.phrase(wholeKilometresKey(n), ["n": locale.number(n)])
        case .m(let n):
            return locale.phrase("distance.m", ["n": locale.number(Double(n))])
        case .mi(let q) where q < 0.875:
            return locale.phrase(q == 0.25 ? "distance.mi.quarter" : q == 0.5 ? "distance.mi.half" : "distance.mi.three_quarters")
        case .mi(let h) where h < 4.75:
            return h == 1 ? locale.phrase("distance.mi.one") : locale.phrase("distance.mi.few", ["n": locale.number(h)])
        case .mi(let n):
            return locale.phrase("distance.mi.many", ["n": locale.number(n)])
        case .yd(let r):
            return locale.phrase("distance.yd", ["n": locale.number(r)])
        case .ft(let r):
            return locale.phrase("distance.ft", ["n": locale.number(r)])
        }
    }

    /// The far prompt's distance: the largest round distance (one said as it is, "1 kilometre",
    /// "1.5 kilometres", "three quarters of a mile") not beyond `meters`, so that a far prompt
    /// due at 1.25 km is said at 1 km rather than as "in 1.5 kilometres" 250 m short of it.
    public func roundDistance(atMost meters: Double) -> Double {
        switch units {
        case .metric:
            return meters >= 1000 ? (meters / 500).rounded(.down) * 500 : max(100, (meters / 100).rounded(.down) * 100)
        case .imperial, .imperialUK:
            let mile = 1609.344, miles = meters / mile
            return (miles >= 1 ? (miles * 2).rounded(.down) / 2 : max(0.25, (miles * 4).rounded(.down) / 4)) * mile
        }
    }

    /// A distance to say or show, 0 up to once round the Earth a hundred times: what a corrupt map
    /// or a wild fix could make of one (NaN, inf, -1e300) would trap in the rounding to whole metres.
    static func boundedMeters(_ m: Double) -> Double { m.isFinite ? min(max(m, 0), 4e9) : 0 }

    /// Distances as drivers say them: 10 m steps below 100, 50 m steps up to 500, then 100 m steps.
    static func roundedMeters(_ m: Double) -> Int {
        let m = Instructions.boundedMeters(m)
        if m < 100 { return max(10, Int((m / 10).rounded()) * 10) }
        if m < 500 { return Int((m / 50).rounded()) * 50 }
        return Int((m / 100).rounded()) * 100
    }

    /// Short written distance for the status line: "250 m", "1.2 km", "0.3 mi", "200 yd".
    public func shortDistance(_ meters: Double) -> String {
        let meters = Instructions.boundedMeters(meters)
        switch units {
        case .metric:
            if meters < 1000 { return "\(Int((meters / 10).rounded()) * 10) m" }
            return String(printf: meters < 10_000 ? "%.1f km" : "%.0f km", meters / 1000)
        case .imperial, .imperialUK:
            let miles = meters / 1609.344
            if miles < 0.1 {
                return units == .imperial ? "\(Int((meters / 0.3048 / 10).rounded()) * 10) ft" : "\(Int((meters / 0.9144 / 10).rounded()) * 10) yd"
            }
            return String(printf: miles < 10 ? "%.1f mi" : "%.0f mi", miles)
        }
    }
}

extension String {
    var capitalizedFirst: String {
        guard let f = first else { return self }
        return f.uppercased() + dropFirst()
    }
}

/// When a prompt is spoken, relative to its maneuver.
public enum PromptKind: String, Sendable {
    /// Well ahead on fast roads ("In 2 kilometres, ...").
    case prepare
    /// The usual announcement ("In 300 metres, turn left").
    case turnIn
    /// At the maneuver ("Turn left now").
    case now
    /// Arrival at a waypoint or the destination.
    case arrive
    /// Something to know that is not a maneuver: a lower speed limit ahead, a speeding warning,
    /// a faster route found. Said with verbosity `all` only.
    case notice
}

extension Instructions {
    /// Which lanes to take for a maneuver ("Use the left 2 lanes"), nil where the lanes are not
    /// mapped, every lane will do, or the lanes to take are not side by side.
    public func laneText(_ m: Maneuver) -> String? {
        guard let a = LaneAdvice(m.lanes) else { return nil }
        if a.count == 1 { return locale.phrase("lanes." + a.position.rawValue, [:]) }
        // (the count in the form the phrase needs, where a bare number reads wrong: the
        // genitive "из двух" in Russian, the feminine "duas" in Portuguese, "ze dvou" in Czech,
        // the construct "משני הנתיבים" in Hebrew, from the table's "lanes.count.N")
        let n = locale.template("lanes.count.\(a.count)") ?? locale.number(Double(a.count))
        return locale.phrase("lanes." + a.position.rawValue + "_n", ["n": n])
    }

    /// The spoken prompt for a maneuver `distanceMeters` ahead; `then` is the maneuver right after
    /// it when it follows within seconds.
    public func prompt(_ m: Maneuver, kind: PromptKind, distanceMeters: Double, then next: Maneuver? = nil) -> String {
        var text: String
        switch kind {
        case .prepare, .turnIn:
            let d = spokenDistance(distanceMeters)
            if m.type == .arrive {
                if m.isWaypoint {
                    text = locale.phrase("prompt.waypoint_in", ["distance": d])
                } else {
                    text = locale.phrase(m.side.map { "prompt.arrive_in." + $0.rawValue } ?? "prompt.arrive_in", ["distance": d])
                }
            } else {
                // (where the instruction begins with its landmark, a pause after the distance: "In
                // 300 Metern, nach der Ampel rechts abbiegen", not "in 300 metres after the lights")
                let leads = m.landmark.map { locale.template(Instructions.landmarkKey($0)).map { !$0.hasPrefix("{instruction}") } ?? false } ?? false
                let pause = leads && Instructions.saysLandmark(m.type)
                text = locale.phrase("prompt.in", ["distance": d, "instruction": locale.embedded(self.text(m))], pauseBefore: pause ? "instruction" : nil)
                // the lanes to take, while there is time to change lanes (not in the "now" prompt)
                if let lanes = laneText(m) {
                    return text.capitalizedFirst + locale.fullStop + (locale.fullStop == "." ? " " : "") + lanes.capitalizedFirst + locale.fullStop
                }
            }
        case .now, .arrive, .notice:
            text = self.text(m, signs: false)
        }
        if let n = next, kind == .now, n.type == .arrive {
            // the destination right after the last turn: "Turn right onto Plöck, then you will
            // reach your destination, on the left" (its own warning would come after the turn,
            // too late to look for it)
            let key = n.isWaypoint ? "prompt.then_waypoint" : n.side.map { "prompt.then_arrive." + $0.rawValue } ?? "prompt.then_arrive"
            text = locale.phrase(key, ["instruction": text])
        } else if let n = next, kind == .now, n.type != .depart {
            // a roundabout right after another is "the next roundabout": "At the roundabout, take
            // the second exit onto CG-2, then at the next roundabout, take the second exit"
            let ring = m.type == .roundabout || m.type == .rotary || m.type == .roundaboutTurn
            let nextText = ring ? nextRingExit(n) ?? self.text(n, signs: false) : self.text(n, signs: false)
            var next = locale.embedded(nextText)
            // (a verb-second language's "then" after the verb: "…en ga daarna linksaf")
            if let adverb = locale.thenAdverb { next = Instructions.afterFirstWord(next, insert: adverb) }
            text = locale.phrase("prompt.then", ["instruction": text, "next": next])
        }
        return text.capitalizedFirst + locale.fullStop
    }

    /// One of the navigator's own messages ("prompt.reroute", "prompt.gps_lost", ...).
    public func message(_ key: String, distanceMeters: Double? = nil) -> String {
        var v = [String: String]()
        if let d = distanceMeters { v["distance"] = spokenDistance(d) }
        return locale.phrase(key, v).capitalizedFirst + locale.fullStop
    }
}
