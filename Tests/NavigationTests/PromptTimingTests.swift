import Foundation
import Geo
import Guidance
import MapCompiler
import MapData
@testable import Navigation
import Positioning
import Routing
import Simulation
@testable import Speech
import TestSupport
import Testing

/// The prompt plan against real speech: routes driven at a constant 50, 90 and 130 km/h, every
/// prompt synthesised by espeak-ng in its language; a "now" prompt must end (synthesis +
/// playback) before the car reaches its maneuver, and no prompt may start while another is
/// still being spoken.
@Suite(.serialized) struct PromptTimingTests {
    struct Spoken {
        var time: Double
        var prompt: Prompt
        var end: Double
    }

    /// Drives `route` at `speed` m/s (positions every half second, exactly on the route) and
    /// returns the prompts with their real end times, and the time the car passes each maneuver.
    static func drive(map: RoadMap, from: Coordinate, to: Coordinate, speed: Double, locale: String) throws
        -> (spoken: [Spoken], maneuvers: [(Maneuver, Double)]) {
        var config = NavigatorConfig()
        config.locale = locale
        // the navigator alone, on positions exactly on the route (the prompt plan's own timing)
        var navigator = Navigator(config: config)
        let route = try Router(map: map).route([from, to])
        let leg = route.legs[0]
        let maneuvers = ManeuverBuilder(map: map).maneuvers(for: leg, destination: to)
        var spoken = [Spoken]()
        let voice = GuidanceLocale.named(locale)!.voice
        func collect(_ effects: [NavigatorEffect], at t: Double) throws {
            for case .speak(let p) in effects {
                let started = Date()
                let samples = try SpeechSynthesizer.withShared { s -> [Int16] in
                    try s.setVoice(voice)
                    return try s.synthesize(p.text)
                }
                let synthesis = Date().timeIntervalSince(started)
                // audio starts after synthesis (or the configured start-up delay, if longer)
                let start = max(t, spoken.last?.end ?? t) + max(config.speechLatencySeconds, synthesis)
                spoken.append(Spoken(time: t, prompt: p, end: start + Double(samples.count) / 22_050))
            }
        }
        func position(_ along: Double, _ t: Double) -> FilteredPosition {
            let (c, i) = leg.position(atMeters: along)
            return FilteredPosition(time: t, coordinate: c, speedMetersPerSecond: speed, courseDegrees: leg.shape[i].bearing(to: leg.shape[i + 1]),
                                    accuracyMeters: 3, estimated: false, mode: .threeD)
        }
        var effects = navigator.handle(.position(position(0, 0), nil))
        effects += navigator.handle(.setDestination([to], time: 0))
        for case .requestRoute(let r) in effects {
            let nav = NavigationRoute(route: route, maneuvers: [maneuvers])
            effects += navigator.handle(.routeComputed(id: r.id, nav, time: 0))
        }
        try collect(effects, at: 0)
        var t = 0.5
        while t * speed <= leg.distanceMeters + 30 && navigator.state != .arrived {
            try collect(navigator.handle(.position(position(min(t * speed, leg.distanceMeters), t), nil)), at: t)
            t += 0.5
        }
        // (the maneuvers the plan says: not a new name along the same ref)
        let said = maneuvers.indices.filter { !maneuvers[$0].isSpoken || navigator.rules.isAnnounced(maneuvers, $0) }
        return (spoken, said.map { (maneuvers[$0], maneuvers[$0].distanceFromStartMeters / speed) })
    }

    /// Late "now" prompts, overlaps, and how many of the spoken maneuvers were announced (by a
    /// prompt of their own or as the "then" of the one before).
    static func check(_ r: (spoken: [Spoken], maneuvers: [(Maneuver, Double)]), label: String)
        -> (now: Int, late: [String], overlaps: [String], announced: Int, spokenManeuvers: Int) {
        var late = [String](), overlaps = [String]()
        var nowCount = 0
        // the prompt when guidance starts is said at the start, where a car stands: not judged
        for s in r.spoken.dropFirst() where s.prompt.kind == .now {
            guard let m = s.prompt.maneuver, m.type != .depart else { continue }
            let due = r.maneuvers.first { $0.0.distanceFromStartMeters == m.distanceFromStartMeters && $0.0.type == m.type }?.1 ?? .infinity
            nowCount += 1
            if s.end > due + 1e-6 { late.append("\(label): \"\(s.prompt.text)\" ends at \(s.end) s, maneuver at \(due) s") }
        }
        for (a, b) in zip(r.spoken, r.spoken.dropFirst()) where b.time < a.end - 1e-6 && b.prompt.kind != .arrive {
            overlaps.append("\(label): \"\(b.prompt.text)\" at \(b.time) s while \"\(a.prompt.text)\" plays until \(a.end) s")
        }
        let targets = r.maneuvers.map(\.0).filter { $0.isSpoken && $0.type != .arrive }
        let said = r.spoken.flatMap { [$0.prompt.maneuver, $0.prompt.then].compactMap { $0 } }
        let announced = targets.filter { t in said.contains { $0.distanceFromStartMeters == t.distanceFromStartMeters && $0.type == t.type } }.count
        return (nowCount, late, overlaps, announced, targets.count)
    }

    @Test(arguments: [50.0, 90.0, 130.0])
    func demoTownPromptsEndBeforeTheManeuver(kmh: Double) throws {
        let map = try TestMaps.demoTown()
        for locale in ["en-GB", "de", "ja"] {
            let r = try PromptTimingTests.drive(map: map, from: DemoTown.start, to: DemoTown.destination, speed: kmh / 3.6, locale: locale)
            let c = PromptTimingTests.check(r, label: "\(locale) \(Int(kmh)) km/h")
            // at 50 km/h there is time for the turn's own prompt; faster, the start prompt says it all
            #expect(c.now >= (kmh <= 50 ? 1 : 0), "\(locale) \(kmh): \(r.spoken.map(\.prompt.text))")
            #expect(r.spoken.count >= 2, "\(locale) \(kmh): \(r.spoken.map(\.prompt.text))")
            #expect(c.late.isEmpty, "\(c.late)")
            #expect(c.overlaps.isEmpty, "\(c.overlaps)")
        }
    }

    /// The far prompt on a fast road says the distance there is: at 110 km/h it once came at
    /// 1.35 km as "in 1.5 kilometres"; it now waits for a round distance ("in 1 kilometre").
    @Test func farPromptSaysTheDistanceThereIs() throws {
        var s = ScenarioMap(ascii: """
            a                         b d

                                      c
            """, gridMeters: 100, origin: Coordinate(latitude: 48.0, longitude: 11.0))
        s.ways = [.init("abd", [("highway", "trunk"), ("name", "Long Road")]),
                  .init("bc", [("highway", "secondary"), ("name", "Side Road")])]
        let m = try TestMaps.scenario(s)
        for kmh in stride(from: 80.0, through: 130.0, by: 10) {
            let r = try PromptTimingTests.drive(map: m, from: s["a"]!, to: s["c"]!, speed: kmh / 3.6, locale: "en-GB")
            let turnAt: Double = try #require(r.maneuvers.first(where: { $0.0.type == .turn })).0.distanceFromStartMeters
            let texts = r.spoken.map { $0.prompt.text }
            let far: Spoken = try #require(r.spoken.first(where: { $0.prompt.kind == .prepare }), "\(kmh) km/h: \(texts)")
            let actual = turnAt - far.time * kmh / 3.6
            let words = far.prompt.text
            let said = words.hasPrefix("In 1 kilometre") ? 1000.0
                : try #require(Double(words.dropFirst(3).prefix { $0 != " " }), "\(words)") * 1000
            #expect(abs(said - actual) <= 0.1 * actual, "\(kmh) km/h: '\(words)' at \(Int(actual)) m")
        }
    }

    @Test(.enabled(if: SharedData.isAvailable, Comment(rawValue: SharedData.missingMessage)), arguments: [50.0, 90.0, 130.0])
    func cityRoutesPromptsEndBeforeTheManeuver(kmh: Double) throws {
        let map = try TestMaps.extract("heidelberg")
        let queries = try BenchQueries.load("heidelberg").prefix(12)
        var nowPrompts = 0, announced = 0, total = 0
        for q in queries {
            let r = try PromptTimingTests.drive(map: map, from: q.locations[0], to: q.locations[q.locations.count - 1], speed: kmh / 3.6,
                                                locale: "en-GB")
            let c = PromptTimingTests.check(r, label: "\(q.id) \(Int(kmh)) km/h")
            nowPrompts += c.now
            announced += c.announced
            total += c.spokenManeuvers
            #expect(c.late.isEmpty, "\(c.late)")
            #expect(c.overlaps.isEmpty, "\(c.overlaps)")
        }
        #expect(nowPrompts >= 20)
        // maneuvers a second or two apart cannot all be said in time: the figure is reported
        print("prompt plan at \(Int(kmh)) km/h: \(announced) of \(total) maneuvers announced in time, \(nowPrompts) \"now\" prompts, none late")
        #expect(Double(announced) >= Double(total) * (kmh <= 50 ? 0.85 : 0.7))
    }
}


/// The prompt plan on drives as the appliance sees them: simulated drives with 3 m receiver
/// noise, one fix a second, speeds that rise and fall with the road and the turns, through the
/// position filter and the matchers. Every spoken maneuver passed must have been announced near
/// it (its own "now" prompt, or as the "then" of the one before), the destination must be
/// announced before the car reaches it, and "you have arrived" must not come while a turn is
/// still ahead, nor while the last turn's prompt is still being said.
@Suite struct NoisyDrivePromptTests {
    @Test(.enabled(if: SharedData.isAvailable, Comment(rawValue: SharedData.missingMessage)), arguments: ["heidelberg", "monaco", "andorra"])
    func everyManeuverIsAnnouncedAndArrivalComesLast(extract: String) throws {
        let m = try TestMaps.extract(extract)
        let queries = try BenchQueries.load(extract).prefix(10)
        var targets = 0, announced = 0, silent = [String](), repeats = 0, warnedDrives = 0, reminders = 0
        for (i, q) in queries.enumerated() {
            let from = q.locations[0], to = q.locations[q.locations.count - 1]
            var config = NavigatorConfig()
            config.distanceUpdateThresholdMeters = 0  // progress on every fix
            let h = try Harness.noisyDrive(m, from: from, to: to, seed: UInt64(i + 7), config: config)
            // the route driven: the last one planned (a drive that starts the wrong way plans again)
            guard let route = h.navigator.route, h.named("offRoute").isEmpty else { continue }
            let list = route.maneuvers[0]
            let maneuvers = list.indices.filter { h.navigator.rules.isAnnounced(list, $0) && list[$0].type != .arrive }.map { list[$0] }
            // (near it: a "now" prompt; a "turn in" prompt 300 m before does not count)
            let said = h.spoken.filter { $0.kind == .now }.flatMap { [$0.maneuver, $0.then].compactMap { $0 } }
            // every prompt a whole sentence: no name left out of its phrase ("turn right to stay
            // on ." in the short form), no bare "Continue."
            for p in h.spoken {
                #expect(!p.text.contains(" .") && !p.text.contains(" ,") && p.text != "Continue." && !p.text.hasPrefix("Merge."), "\(q.id): \(p.text)")
            }
            // "to stay on X" only where X was heard before (not after a name change left unsaid)
            for (i, p) in h.spoken.enumerated() where p.text.contains(" to stay on ") {
                let street = (p.maneuver?.street ?? "").split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces) } ?? ""
                #expect(street.isEmpty || h.spoken[..<i].contains { $0.text.contains(street) }, "\(q.id): '\(p.text)' but '\(street)' was never said")
            }
            // a "now" prompt right after its "turn in" prompt does not repeat the names just heard
            let timed = h.timedPrompts
            for (x, y) in zip(timed, timed.dropFirst()) where x.1.kind == .turnIn && y.1.kind == .now {
                guard let mx = x.1.maneuver, let my = y.1.maneuver, mx.distanceFromStartMeters == my.distanceFromStartMeters,
                      !my.street.isEmpty, PromptRules.bare(my) != nil else { continue }
                if y.0 - (x.0 + h.navigator.rules.speechSeconds(x.1.text)) < 3 {
                    repeats += 1
                    #expect(!y.1.text.contains(my.street), "\(q.id): '\(x.1.text)' then '\(y.1.text)'")
                }
            }
            for t in maneuvers {
                targets += 1
                if said.contains(where: { $0.distanceFromStartMeters == t.distanceFromStartMeters && $0.type == t.type }) {
                    announced += 1
                } else {
                    silent.append("\(q.id): \(Instructions(locale: GuidanceLocale.named("en-GB")!).text(t))")
                }
            }
            // a maneuver said as the "then" of the one before gets a prompt of its own only as a
            // reminder, at least `reminderAfterSeconds` after that prompt ended: not the same
            // words again a moment later ("you have arrived" is the arrival itself, not a reminder:
            // it comes when the car gets there, however soon after "then you will reach ...")
            for (i, x) in timed.enumerated() {
                guard let t = x.1.then else { continue }
                for y in timed[(i + 1)...] where y.1.kind != .arrive && y.1.maneuver?.distanceFromStartMeters == t.distanceFromStartMeters && y.1.maneuver?.type == t.type {
                    reminders += 1
                    #expect(y.0 - (x.0 + h.navigator.rules.speechSeconds(x.1.text)) >= PromptRules.reminderAfterSeconds - 1e-9,
                            "\(q.id): '\(y.1.text)' at \(y.0) s, right after '\(x.1.text)' at \(x.0) s")
                }
            }
            // the destination is announced before the car reaches it: by a "turn in" prompt of its
            // own, or with the last turn ("Turn right, then you will reach your destination"), or
            // that last turn was itself said as the "then" of the one before
            let last = maneuvers.last
            let warned = h.spoken.contains { ($0.kind == .turnIn && $0.maneuver?.type == .arrive) || $0.then?.type == .arrive }
            let chained = last.map { l in h.spoken.contains { $0.then?.distanceFromStartMeters == l.distanceFromStartMeters } } ?? false
            if warned { warnedDrives += 1 }
            #expect(warned || chained, "\(q.id): no warning of the destination; last prompts \(h.spoken.suffix(3).map(\.text))")
            // "you have arrived" does not start while the last turn's prompt is still being said
            if let a = timed.lastIndex(where: { $0.1.kind == .arrive }), a > 0 {
                let (t, p) = timed[a - 1]
                #expect(t + h.navigator.rules.speechSeconds(p.text) <= timed[a].0, "\(q.id): '\(p.text)' at \(t) s still playing at the arrival, \(timed[a].0) s")
            }
            // arrival: the progress on the fix before it has no turn ahead farther than a fix's drive,
            // short of the last metres
            let arrivedAt = try #require(h.events.firstIndex { $0.name == "arrived" }, "\(q.id) did not arrive")
            if let last = h.events[..<arrivedAt].last(where: { $0.name == "progress" }), case let .progress(p) = last.kind,
               let next = p.nextManeuver, next.type != .arrive {
                // (within the last 20 m, the arrival distance, the destination is reached: a fix's drive before that)
                #expect(p.distanceToNextMeters < 20 || p.legRemainingMeters < 35, "\(q.id): arrived with '\(Instructions(locale: GuidanceLocale.named("en-GB")!).text(next))' \(p.distanceToNextMeters) m ahead")
            }
        }
        print("prompt plan on noisy \(extract) drives: \(announced) of \(targets) maneuvers announced; silent: \(silent); \(repeats) 'now' prompts right after their 'turn in' prompt, said short; destination announced on \(warnedDrives) drives; \(reminders) reminders of a 'then'")
        #expect(targets >= 40)
        #expect(Double(announced) >= Double(targets) * 0.95, "\(silent)")
    }
}

/// The drive bench/prompt_drives.py makes of benchmark query `id` (3 m receiver noise, seed 7).
/// With `missing` k, the car misses the k-th junction, as the script's "-wrong" drives. Needs
/// ../shared/data (the extract and its queries).
func benchDrive(_ extract: String, _ id: String, missing k: Int? = nil) throws -> Harness {
    try #require(SharedData.isAvailable, Comment(rawValue: SharedData.missingMessage))
    let m = try TestMaps.extract(extract)
    let q = try #require(try BenchQueries.load(extract).first { $0.id == id })
    return try Harness.noisyDrive(m, from: q.locations[0], to: q.locations[q.locations.count - 1], seed: 7, missing: k)
}

/// A maneuver said as the "then" of the one before gets its reminder once the moments after that
/// prompt have passed, if it still fits before the maneuver; when the destination follows it
/// closely, that reminder says it ("Turn left, then you will reach your destination"), or the
/// driver first hears of the destination on reaching it. (Dropped when it fell due in those
/// moments, neither was said on these drives.)
@Suite struct ThenReminderTests {
    @Test(.enabled(if: SharedData.isAvailable, Comment(rawValue: SharedData.missingMessage)), arguments: [("monaco", "monaco-0033"), ("liechtenstein", "liechtenstein-0050")])
    func reminderOfAThenWaitsForItsMoment(extract: String, id: String) throws {
        let h = try benchDrive(extract, id)
        let timed = h.timedPrompts
        // reminders: prompts for a maneuver said before as a "then"
        var reminders = [(Double, Prompt)]()
        for (i, x) in timed.enumerated() {
            guard let t = x.1.then, t.type != .arrive else { continue }
            for y in timed[(i + 1)...] where y.1.kind == .now && y.1.maneuver?.distanceFromStartMeters == t.distanceFromStartMeters {
                #expect(y.0 - (x.0 + h.navigator.rules.speechSeconds(x.1.text)) >= PromptRules.reminderAfterSeconds - 1e-9)
                reminders.append(y)
            }
        }
        print("\(id): reminders \(reminders.map(\.1.text))")
        if id == "monaco-0033" {
            // "Turn slightly left after Parking du Stade, then turn sharp right" 24 s before the
            // arrival; the sharp right's reminder 11 s later, the destination 13 s past it
            #expect(reminders.contains { $0.1.then?.type == .arrive }, "\(id): the destination after the last turn was not said")
        } else {
            // "Turn left at Streetside 9, then turn left", the second 9 s later: its reminder fell
            // due within 4 s of the first prompt's end
            #expect(reminders.contains { $0.1.text == "Turn left." }, "\(id): \(reminders.map(\.1.text))")
        }
    }
}

/// What is said for the last turn ends before "you have arrived" can start: with the destination
/// a few metres past the turn, the reminder "Turn right." was still playing as the arrival was
/// said (heidelberg-0010), "Turn slightly right onto Zwischenbäch, then you will reach your
/// destination" ran 0.5 s into it (liechtenstein-0007).
@Suite struct LastTurnPromptTests {
    @Test(.enabled(if: SharedData.isAvailable, Comment(rawValue: SharedData.missingMessage)), arguments: [("heidelberg", "heidelberg-0010"), ("liechtenstein", "liechtenstein-0007")])
    func lastTurnPromptEndsBeforeTheArrival(extract: String, id: String) throws {
        let h = try benchDrive(extract, id)
        let timed = h.timedPrompts
        let a = try #require(timed.lastIndex { $0.1.kind == .arrive })
        let (t, p) = timed[a - 1]
        print("\(id): '\(p.text)' ends \(timed[a].0 - t - h.navigator.rules.speechSeconds(p.text)) s before the arrival")
        #expect(t + h.navigator.rules.speechSeconds(p.text) <= timed[a].0, "\(id): '\(p.text)' at \(t) s still playing at the arrival, \(timed[a].0) s")
    }
}

/// Which maneuvers the prompt plan says at all: a new name along the same ref is not (the signs
/// say CG-3 all along), nor one onto a road with neither name nor ref, nor one where no other
/// road meets, nor a return to the name last heard; a new name or ref at a junction, or a turn, is.
@Suite struct AnnouncedManeuverTests {
    @Test func sameRefAndUnnamedNameChangesAreQuiet() {
        let at = Coordinate(latitude: 42.5, longitude: 1.5)
        func m(_ type: ManeuverType, _ mod: ManeuverModifier?, _ street: String, _ ref: String, _ along: Double) -> Maneuver {
            Maneuver(type: type, modifier: mod, street: street, ref: ref, location: at, shapeIndex: 0, distanceFromStartMeters: along)
        }
        let list = [m(.depart, nil, "Avinguda Meritxell", "CG-3", 0),
                    m(.newName, .straight, "Avigunda Sant Antoni", "CG-3", 400),   // same ref: quiet
                    m(.newName, .straight, "Carrer Major", "CG-4", 900),           // new ref: said
                    m(.newName, .straight, "", "", 1300),                          // no name, no ref: quiet
                    m(.newName, .straight, "Carrer Nou", "", 1500),                // a name: said
                    m(.turn, .left, "Carrer Nou", "", 1800),                       // a turn: said
                    m(.arrive, nil, "", "", 2000)]
        let nav = Navigator()
        #expect(list.indices.map { nav.rules.isAnnounced(list, $0) } == [false, false, true, false, true, true, true])
        // a new name where no other road meets (the road only changes its name) is not said either
        var midRoad = list
        midRoad[4].atBend = true
        #expect(!nav.rules.isAnnounced(midRoad, 4))
        // nor a return, at a junction, to the name last heard past a change not said ("Turn right
        // onto Landstrasse", Churerstrasse mid-road, then "Continue onto Landstrasse")
        var back = [m(.depart, nil, "Feldkircher Strasse", "", 0), m(.turn, .right, "Landstrasse", "", 300),
                    m(.newName, .straight, "Churerstrasse", "", 900), m(.newName, .straight, "Landstrasse", "", 1400),
                    m(.arrive, nil, "", "", 2000)]
        back[2].atBend = true
        #expect(back.indices.map { nav.rules.isAnnounced(back, $0) } == [false, true, false, false, true])
        back[1].street = "Austrasse"
        #expect(nav.rules.isAnnounced(back, 3))
        // a lane to take makes even a quiet name change worth a prompt
        var laned = list
        laned[1].lanes = [Lane(indications: ["straight"], valid: true), Lane(indications: ["right"], valid: false)]
        #expect(nav.rules.isAnnounced(laned, 1))
    }
}

/// The short forms the prompt plan falls back on, in every language: the maneuver without its
/// names ("turn left") and "…, then turn left" are whole sentences (no placeholder left empty,
/// no "to stay on ." without its name), and so is "…, then you will reach your destination".
@Suite struct ShortFormTests {
    @Test(.enabled(if: SharedData.isAvailable, Comment(rawValue: SharedData.missingMessage))) func shortFormsAreWholeSentencesInEveryLanguage() throws {
        let map = try TestMaps.extract("heidelberg")
        let router = Router(map: map)
        var maneuvers = [Maneuver]()
        for q in try BenchQueries.load("heidelberg").prefix(10) {
            let to = q.locations[q.locations.count - 1]
            maneuvers += ManeuverBuilder(map: map).maneuvers(for: try router.route([q.locations[0], to]).legs[0], destination: to)
        }
        let pairs = zip(maneuvers, maneuvers.dropFirst()).compactMap { a, b -> (Maneuver, Maneuver)? in
            guard let ba = PromptRules.bare(a), let bb = PromptRules.bare(b) else { return nil }
            return (ba, bb)
        }
        #expect(pairs.count >= 50)
        // a merge keeps its name ("Merge onto B 37"): alone, "merge" says neither where nor which side
        var merge = try #require(maneuvers.first { $0.type == .turn && !$0.street.isEmpty })
        merge.type = .merge
        merge.modifier = .slightLeft
        #expect(PromptRules.bare(merge) == nil)
        #expect(pairs.contains { $0.0.type == .continue })  // ("stay on" maneuvers among them)
        // the destination as the "then" of the last turn, on either side, or a stop on the way
        let arrival = try #require(maneuvers.first { $0.type == .arrive })
        var arrivals = [arrival]
        for side in [Side.left, .right] { var x = arrival; x.side = side; arrivals.append(x) }
        var stop = arrival
        stop.isWaypoint = true
        arrivals.append(stop)
        for locale in GuidanceLocale.all {
            let text = Instructions(locale: locale)
            let toArrival = arrivals.map { text.prompt(pairs[0].0, kind: .now, distanceMeters: 0, then: $0) }
            #expect(Set(toArrival).count == 4, "\(locale.code): \(toArrival)")
            for s in toArrival {
                #expect(!s.contains("{") && !s.contains("  ") && !s.contains(" .") && !s.contains(" ,") && s.count > text.prompt(pairs[0].0, kind: .now, distanceMeters: 0).count + 5,
                        "\(locale.code): \(s)")
            }
            for (a, b) in pairs {
                for s in [text.prompt(a, kind: .now, distanceMeters: 0), text.prompt(a, kind: .now, distanceMeters: 0, then: b)] {
                    let broken = s.contains("{") || s.contains("  ") || s.contains(" .") || s.contains(" ,") || s.contains("()")
                        || s.contains(" 。") || s.contains("،،")
                    #expect(!broken, "\(locale.code): \(s)")
                }
            }
        }
    }
}

