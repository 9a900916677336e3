import Foundation
import Geo
import Guidance
import Testing

/// The phrase tables: every language Tern speaks has every phrase English has, with the same
/// placeholders, and renders every kind of maneuver without a placeholder left over.
@Suite struct LocaleTests {
    static let required = ["cs", "da", "en-GB", "en-US", "fi", "fr-FR", "de", "it", "ko", "nb", "pl", "pt-BR", "pt-PT", "ru", "es-ES",
                           "sv", "tr", "vi", "id", "ar", "bg", "ca", "el", "en-AU", "et", "he", "hi", "hu", "ja", "mn", "nl", "ro",
                           "sk", "sl", "uk", "zh-CN"]

    @Test func everyRequiredLocaleIsThere() {
        let codes = Set(GuidanceLocale.all.map(\.code))
        #expect(codes.count >= 36)
        for c in LocaleTests.required { #expect(codes.contains(c), "missing locale \(c)") }
    }

    static func placeholders(_ s: String) -> [String] {
        s.matches(of: /\{(\w+)\}/).map { String($0.1) }.sorted()
    }

    @Test(arguments: GuidanceLocale.all.map(\.code))
    func tableHasEveryPhraseWithItsPlaceholders(code: String) throws {
        let l = try #require(GuidanceLocale.named(code))
        let en = GuidanceLocale.english
        for key in GuidanceLocale.keys {
            let want = try #require(en.template(key))
            guard let got = l.template(key) else {
                Issue.record("\(code): no phrase \(key)")
                continue
            }
            #expect(!got.trimmingCharacters(in: .whitespaces).isEmpty, "\(code) \(key) is empty")
            #expect(LocaleTests.placeholders(got) == LocaleTests.placeholders(want), "\(code) \(key): \(got)")
        }
        #expect(!l.voice.isEmpty)
    }

    /// One maneuver of every type and modifier, rendered in every language, as text and as
    /// prompts at several distances in every unit system.
    @Test(arguments: GuidanceLocale.all.map(\.code))
    func everyManeuverRendersCompletely(code: String) throws {
        let l = try #require(GuidanceLocale.named(code))
        let at = Coordinate(latitude: 48, longitude: 11)
        var samples = [Maneuver]()
        for type in ManeuverType.allCases {
            for mod in [nil] + ManeuverModifier.allCases.map(Optional.some) {
                for street in ["", "Hauptstraße"] {
                    var m = Maneuver(type: type, modifier: mod, exit: type == .roundabout || type == .rotary ? 3 : nil, street: street,
                                     ref: street.isEmpty ? "" : "B 2", location: at, shapeIndex: 0, distanceFromStartMeters: 0, bearingAfter: 100)
                    if type == .arrive { m.side = mod?.isLeft == true ? .left : (mod?.isRight == true ? .right : nil) }
                    samples.append(m)
                }
            }
        }
        // (a continue on the road driven on: "turn right to stay on Hauptstraße")
        samples += samples.filter { $0.type == .continue && !$0.street.isEmpty }.map { var m = $0; m.staysOnRoad = true; return m }
        var big = samples[0]
        big.type = .roundabout
        big.exit = 12
        samples.append(big)
        var landmark = samples[10]
        landmark.type = .turn
        landmark.modifier = .left
        for lm: Landmark in [.trafficSignals, .trafficSignalsBefore, .stopSign, .place("Marienplatz", after: true), .place("Marienplatz", after: false)] {
            landmark.landmark = lm
            samples.append(landmark)
        }
        // signposts: an exit number and what the road leads to
        var signed = [Maneuver]()
        for type in [ManeuverType.offRamp, .onRamp, .fork, .merge, .turn, .endOfRoad] {
            for street in ["", "Hauptstraße"] {
                var m = Maneuver(type: type, modifier: .slightRight, street: street, location: at, shapeIndex: 0,
                                 distanceFromStartMeters: 0, bearingAfter: 100)
                m.destination = "A 9, Nürnberg"
                m.exitNumber = type == .offRamp ? (street.isEmpty ? "74b" : "38") : ""
                signed.append(m)
            }
        }
        samples += signed
        // boarding a ferry
        for street in ["", "Rheinfähre"] {
            var m = Maneuver(type: .notification, modifier: .straight, street: street, location: at, shapeIndex: 0, distanceFromStartMeters: 0)
            m.onFerry = true
            samples.append(m)
            let text = Instructions(locale: l).text(m)
            #expect(text != Instructions(locale: l).text(Maneuver(type: .notification, modifier: .straight, street: street, location: at,
                                                                  shapeIndex: 0, distanceFromStartMeters: 0)), "\(code): \(text)")
        }
        // lanes: the left, right or middle one or two of three, said after the instruction
        var laneTexts = Set<String>()
        for valid in [[true, false, false], [true, true, false], [false, false, true], [false, true, true], [false, true, false]] {
            var m = Maneuver(type: .turn, modifier: .left, street: "Hauptstraße", location: at, shapeIndex: 0, distanceFromStartMeters: 0)
            m.lanes = valid.map { Lane(indications: ["left"], valid: $0) }
            let lanes = try #require(Instructions(locale: l).laneText(m), "\(code)")
            laneTexts.insert(lanes)
            let p = Instructions(locale: l).prompt(m, kind: .turnIn, distanceMeters: 300)
            #expect(!lanes.contains("{") && p.contains(String(lanes.dropFirst())), "\(code): \(p)")
            samples.append(m)
        }
        #expect(laneTexts.count == 5, "\(code): \(laneTexts)")
        let signedTexts = signed.map { (Instructions(locale: l).text($0), $0.type == .offRamp ? $0.exitNumber : "") }
        for (text, number) in signedTexts {
            let spoken = code == "he" && number == "38" ? "שלושים ושמונה" : number
            let ok = text.contains("Nürnberg") && (number.isEmpty || text.contains(spoken))
            #expect(ok, "\(code): \(text)")
        }
        for units in UnitSystem.allCases {
            let t = Instructions(locale: l, units: units)
            for m in samples {
                let text = t.text(m)
                #expect(!text.isEmpty && !text.contains("{") && !text.contains("}"), "\(code): \(text)")
                for d in [12.0, 85, 280, 640, 1200, 2600, 7400] {
                    let p = t.prompt(m, kind: .turnIn, distanceMeters: d, then: nil)
                    #expect(!p.contains("{") && !p.contains("}"), "\(code) \(units): \(p)")
                }
                let now = t.prompt(m, kind: .now, distanceMeters: 0, then: samples[2])
                #expect(!now.contains("{"), "\(code): \(now)")
            }
            for key in ["prompt.reroute", "prompt.gps_lost", "prompt.gps_recovered", "prompt.uturn_when_possible", "prompt.faster_route"] {
                #expect(!t.message(key).contains("{"))
            }
            #expect(!t.message("prompt.continue_for", distanceMeters: 4000).contains("{"))
        }
    }

    /// Lanes are said after the instruction while there is time to change lanes, not at the
    /// maneuver; nothing is said where every lane will do or the lanes to take are apart.
    @Test func laneAdviceIsSaid() throws {
        let at = Coordinate(latitude: 48, longitude: 11)
        var m = Maneuver(type: .turn, modifier: .left, street: "Hauptstraße", location: at, shapeIndex: 0, distanceFromStartMeters: 0)
        m.lanes = [Lane(indications: ["left"], valid: true), Lane(indications: ["left", "straight"], valid: true),
                   Lane(indications: ["straight"], valid: false)]
        let t = Instructions()
        #expect(t.prompt(m, kind: .turnIn, distanceMeters: 300) == "In 300 metres, turn left onto Hauptstraße. Use the left 2 lanes.")
        #expect(t.prompt(m, kind: .now, distanceMeters: 0) == "Turn left onto Hauptstraße.")
        m.lanes[0].valid = false
        #expect(t.laneText(m) == "Use the middle lane")
        m.lanes[2].valid = true
        #expect(t.laneText(m) == "Use the right 2 lanes")
        m.lanes[0].valid = true
        #expect(t.laneText(m) == nil)
        m.lanes[1].valid = false
        #expect(t.laneText(m) == nil)
        let de = Instructions(locale: try #require(GuidanceLocale.named("de")))
        m.lanes[1].valid = true
        m.lanes[2].valid = false
        #expect(de.laneText(m) == "Eine der 2 linken Spuren benutzen")
        // Hebrew counts in the construct form before the definite noun ("of the two lanes")
        let he = Instructions(locale: try #require(GuidanceLocale.named("he")))
        #expect(he.laneText(m) == "השתמשו באחד משני הנתיבים השמאליים")
        // where a bare number reads in the wrong form, the table's count words: the genitive
        // after "из", the feminine "duas", "ze dvou" (espeak-ng reads "2" as два, dois, dva)
        for (code, said) in [("ru", "Займите одну из двух левых полос"), ("pt-BR", "Use uma das duas faixas da esquerda"),
                             ("cs", "Použijte jeden ze dvou levých pruhů"), ("pl", "Jedź jednym z dwóch lewych pasów")] {
            #expect(Instructions(locale: try #require(GuidanceLocale.named(code))).laneText(m) == said)
        }
    }

    /// A phrase that begins with the road's name keeps the name as written when it is put inside
    /// another (Turkish is verb-final: "300 metre sonra Kurfürsten-Anlage ..."), while a phrase
    /// word is lowered ("In 300 metres, turn left").
    @Test func namesAreNotLowered() throws {
        let at = Coordinate(latitude: 49.4, longitude: 8.7)
        var m = Maneuver(type: .turn, modifier: .left, street: "Kurfürsten-Anlage", location: at, shapeIndex: 0, distanceFromStartMeters: 0)
        m.destination = "Mosbach"
        let tr = Instructions(locale: try #require(GuidanceLocale.named("tr")))
        let said = tr.prompt(m, kind: .turnIn, distanceMeters: 300)
        #expect(said.contains("Mosbach") && !said.contains("mosbach"), "\(said)")
        m.landmark = .place("Shell", after: false)
        #expect(!tr.text(m).contains("shell"), "\(tr.text(m))")
        #expect(Instructions().prompt(m, kind: .turnIn, distanceMeters: 300).hasPrefix("In 300 metres, turn left"))
    }

    /// French and Catalan elide "de" before a name beginning with a vowel: "Au niveau d'Audi",
    /// not "de Audi"; before a consonant or an "h" it stays, but for the mute "h" of the words that
    /// begin many places' names ("d'Hôtel Hermitage").
    @Test func deIsElidedBeforeAVowel() throws {
        let at = Coordinate(latitude: 43.7, longitude: 7.4)
        var m = Maneuver(type: .turn, modifier: .right, street: "Tunnel du Millenium", location: at, shapeIndex: 0, distanceFromStartMeters: 0)
        m.landmark = .place("Audi", after: false)
        let fr = Instructions(locale: try #require(GuidanceLocale.named("fr-FR")))
        #expect(fr.text(m).hasPrefix("Au niveau d'Audi, tournez à droite"), "\(fr.text(m))")
        m.landmark = .place("Hôtel Hermitage", after: false)
        #expect(fr.text(m).hasPrefix("Au niveau d'Hôtel Hermitage"), "\(fr.text(m))")  // (a mute h)
        m.landmark = .place("Hollande Bar", after: false)
        #expect(fr.text(m).hasPrefix("Au niveau de Hollande Bar"), "\(fr.text(m))")  // (an aspirated one)
        m.landmark = .place("Balmoral", after: false)
        #expect(fr.text(m).hasPrefix("Au niveau de Balmoral"), "\(fr.text(m))")
        m.landmark = .place("Institut", after: false)
        let ca = Instructions(locale: try #require(GuidanceLocale.named("ca")))
        #expect(ca.text(m).hasPrefix("A l'altura d'Institut"), "\(ca.text(m))")
        let es = Instructions(locale: try #require(GuidanceLocale.named("es-ES")))
        #expect(es.text(m).hasPrefix("A la altura de Institut"), "\(es.text(m))")
    }

    @Test func fallbacksAndErrors() throws {
        #expect(GuidanceLocale.named("de-AT")?.code == "de")
        #expect(GuidanceLocale.named("en")?.code == "en-GB")
        #expect(GuidanceLocale.named("pt")?.code == "pt-PT")
        #expect(GuidanceLocale.named("zh")?.code == "zh-CN")
        #expect(GuidanceLocale.named("EN_us")?.code == "en-US")
        #expect(GuidanceLocale.named("xx") == nil)
        #expect(throws: LocaleChoiceError.self) { try GuidanceLocale.parse("klingon", setting: "--lang") }
        #expect(GuidanceLocale.named("en-GB")?.defaultUnits == .imperialUK)
        #expect(GuidanceLocale.named("en-US")?.defaultUnits == .imperial)
        #expect(GuidanceLocale.named("de")?.defaultUnits == .metric)
    }

    /// Distances rounded as drivers say them, with each language's number forms and decimal mark.
    @Test func spokenDistancesInOtherLanguages() throws {
        let de = Instructions(locale: try #require(GuidanceLocale.named("de")))
        #expect(de.spokenDistance(2600).hasPrefix("2,5 "))
        let uk = Instructions(locale: .english, units: .imperialUK)
        #expect(uk.spokenDistance(150) == "150 yards")
        #expect(uk.spokenDistance(60) == "70 yards")
        #expect(uk.spokenDistance(800) == "half a mile")
        let us = Instructions(locale: try #require(GuidanceLocale.named("en-US")))
        #expect(us.spokenDistance(100) == "350 feet")
        #expect(us.spokenDistance(9000) == "6 miles")
        let ru = Instructions(locale: try #require(GuidanceLocale.named("ru")))
        #expect(ru.spokenDistance(1500) != ru.spokenDistance(7000))
        #expect(ru.spokenDistance(1500).hasPrefix("1,5"))
        // a fraction takes the genitive in Polish and Czech ("2,5 kilometra"), whole numbers not
        let pl = Instructions(locale: try #require(GuidanceLocale.named("pl")))
        #expect(pl.spokenDistance(2600) == "2,5 kilometra" && pl.spokenDistance(3100) == "3 kilometry")
        #expect(Instructions(locale: try #require(GuidanceLocale.named("cs"))).spokenDistance(2600) == "2,5 kilometru")
    }

    /// Landmarks and "then" read in order; the embedded instruction is lower-cased only where
    /// the language has case.
    @Test func promptsCombineInstructions() throws {
        let at = Coordinate(latitude: 48, longitude: 11)
        var turn = Maneuver(type: .turn, modifier: .left, street: "Main Street", location: at, shapeIndex: 0, distanceFromStartMeters: 0)
        turn.landmark = .trafficSignalsBefore
        let en = Instructions()
        #expect(en.text(turn) == "Turn left onto Main Street after the traffic lights")
        turn.landmark = .place("the Town Hall", after: false)
        #expect(en.prompt(turn, kind: .turnIn, distanceMeters: 300) == "In 300 metres, turn left onto Main Street at the Town Hall.")
        let ja = Instructions(locale: try #require(GuidanceLocale.named("ja")))
        #expect(ja.prompt(turn, kind: .turnIn, distanceMeters: 300).hasSuffix("。"))
        // of several refs only the first is said (Ziegelhäuser Straße, B 37;B 45)
        var road = Maneuver(type: .turn, modifier: .right, street: "Ziegelhäuser Straße", ref: "B 37;B 45", location: at, shapeIndex: 0,
                            distanceFromStartMeters: 0)
        #expect(en.text(road) == "Turn right onto Ziegelhäuser Straße (B 37)")
        road.street = ""
        #expect(en.text(road) == "Turn right onto B 37")
        road.street = "Avigunda Sant Antoni; Avinguda Fiter i Rossell"
        road.ref = "CG-3"
        #expect(en.text(road) == "Turn right onto Avigunda Sant Antoni (CG-3)")
        // a roundabout right after another is the next one; after a turn it is "the roundabout"
        var ring = Maneuver(type: .roundabout, modifier: .straight, street: "CG-2", location: at, shapeIndex: 0, distanceFromStartMeters: 0)
        ring.exit = 2
        var second = ring
        second.street = ""
        #expect(en.prompt(ring, kind: .now, distanceMeters: 0, then: second)
            == "At the roundabout, take the second exit onto CG-2, then at the next roundabout, take the second exit.")
        #expect(en.prompt(road, kind: .now, distanceMeters: 0, then: second) == "Turn right onto Avigunda Sant Antoni (CG-3), then at the roundabout, take the second exit.")
        second.exit = 12
        #expect(en.prompt(ring, kind: .now, distanceMeters: 0, then: second).hasSuffix("then at the next roundabout, take exit 12."))
        let de = Instructions(locale: try #require(GuidanceLocale.named("de")))
        #expect(de.prompt(ring, kind: .now, distanceMeters: 0, then: ring).contains("dann im Kreisverkehr"))  // (with its name: as it is)
        second.exit = 3
        #expect(de.prompt(ring, kind: .now, distanceMeters: 0, then: second).hasSuffix("dann im nächsten Kreisverkehr die dritte Ausfahrt nehmen."))
        // in every language the part after "then" differs from the one after a turn
        var turnFirst = ring
        turnFirst.type = .turn
        for locale in GuidanceLocale.all {
            let text = Instructions(locale: locale)
            let s = text.prompt(ring, kind: .now, distanceMeters: 0, then: second)
            let t = text.prompt(turnFirst, kind: .now, distanceMeters: 0, then: second)
            let afterRing = s.dropFirst(text.text(ring).count), afterTurn = t.dropFirst(text.text(turnFirst).count)
            #expect(afterRing != afterTurn && !s.contains("{"), "\(locale.code): \(s) | \(t)")
        }
    }
}

extension LocaleTests {
    /// What a native-speaking review of 16 drives in eight languages found wrong: Dutch and
    /// Swedish "then" is said after the verb of what follows ("…, daarna ga linksaf" is no Dutch
    /// word order), a Dutch landmark after the verb, not at the end where it seemed to belong to the
    /// last name; Italian prepositions take a name's article in ("su la Carrera Nova"); a distance
    /// before an instruction that begins with its landmark is followed by a pause ("In 300 Metern
    /// nach der Ampel" read as 300 m after the lights); Polish and Russian say "a kilometre"
    /// without "one", and whole kilometres by the last digit ("22 километра").
    @Test func wordOrderAndContractionsAsNativeSpeakersSayThem() throws {
        let at = Coordinate(latitude: 49.4, longitude: 8.7)
        func m(_ type: ManeuverType, _ mod: ManeuverModifier, _ street: String = "") -> Maneuver {
            Maneuver(type: type, modifier: mod, street: street, location: at, shapeIndex: 0, distanceFromStartMeters: 0)
        }
        func say(_ code: String) throws -> Instructions { Instructions(locale: try #require(GuidanceLocale.named(code))) }
        var ring = m(.roundabout, .straight)
        ring.exit = 1
        let nl = try say("nl"), sv = try say("sv")
        #expect(nl.prompt(m(.turn, .left), kind: .now, distanceMeters: 0, then: m(.turn, .right)) == "Ga linksaf en ga daarna rechtsaf.")
        #expect(nl.prompt(m(.turn, .slightRight), kind: .now, distanceMeters: 0, then: ring)
            == "Ga schuin rechtsaf en neem daarna op de rotonde de eerste afslag.")
        #expect(sv.prompt(m(.turn, .left), kind: .now, distanceMeters: 0, then: m(.turn, .right)) == "Sväng vänster och sväng sedan höger.")
        var lights = m(.turn, .right, "Dilsberger Straße")
        lights.landmark = .trafficSignals
        #expect(nl.prompt(lights, kind: .turnIn, distanceMeters: 350) == "Over 350 meter, ga bij de verkeerslichten rechtsaf naar Dilsberger Straße.")
        lights.landmark = .place("Caprabo", after: false)
        #expect(nl.text(lights) == "Ga bij Caprabo rechtsaf naar Dilsberger Straße")
        // (the arrival after "then" keeps its own wording: "daarna bereikt u uw bestemming")
        #expect(nl.prompt(m(.turn, .left), kind: .now, distanceMeters: 0, then: m(.arrive, .straight)) == "Ga linksaf, daarna bereikt u uw bestemming.")
        let it = try say("it")
        var depart = m(.depart, .straight, "la Carrera Nova")
        depart.bearingAfter = 180
        #expect(it.text(depart) == "Procedi in direzione sud sulla Carrera Nova")
        #expect(it.text(m(.turn, .right, "L'Aquila")).hasSuffix("nell'Aquila") || it.text(m(.turn, .right, "L'Aquila")).hasSuffix("sull'Aquila"),
                "\(it.text(m(.turn, .right, "L'Aquila")))")
        #expect(it.text(m(.turn, .right, "Lanterna")).hasSuffix(" Lanterna") && it.text(m(.turn, .right, "L 600")).hasSuffix(" L 600"))
        // (singular articles only: a French name's "Le" is no Italian plural, "delle Rocher")
        #expect(it.text(m(.turn, .right, "Le Rocher")).hasSuffix(" Le Rocher"), "\(it.text(m(.turn, .right, "Le Rocher")))")
        lights.landmark = .trafficSignalsBefore
        #expect(try say("de").prompt(lights, kind: .turnIn, distanceMeters: 300).hasPrefix("In 300 Metern, nach der Ampel rechts abbiegen"))
        #expect(try say("ru").prompt(lights, kind: .turnIn, distanceMeters: 300).hasPrefix("Через 300 метров, после светофора"))
        #expect(try say("de").prompt(m(.turn, .right), kind: .turnIn, distanceMeters: 300) == "In 300 Metern rechts abbiegen.")
        #expect(try say("pl").spokenDistance(1100) == "kilometr" && say("ru").spokenDistance(1100) == "километр")
        // whole kilometres of 5 and more by the last digit ("21 километров" was said)
        let ru = try say("ru"), uk = try say("uk"), pl = try say("pl")
        #expect([21_000, 22_000, 25_000, 12_000, 111_000].map { ru.spokenDistance($0) } == ["21 километр", "22 километра", "25 километров", "12 километров", "111 километров"])
        #expect(uk.spokenDistance(21_000) == "21 кілометр" && uk.spokenDistance(23_000) == "23 кілометри")
        #expect(pl.spokenDistance(22_000) == "22 kilometry" && pl.spokenDistance(21_000) == "21 kilometrów" && pl.spokenDistance(13_000) == "13 kilometrów")
        #expect(try say("cs").spokenDistance(22_000).hasSuffix("kilometrů"))
        // a second review, of twelve more languages: Danish and Norwegian "then" and landmarks
        // after the verb, the Slovak clitic before the verb where something comes first, a pause
        // after a distance said with a word of its own ("300 metre sonra, …"), Hungarian places
        // with a postposition, Catalan "d'Hotel", Turkish "U-dönüşü" kept capital
        let da = try say("da")
        #expect(da.prompt(m(.turn, .right), kind: .now, distanceMeters: 0, then: m(.turn, .left)) == "Drej til højre, og drej derefter til venstre.")
        lights.landmark = .trafficSignals
        #expect(da.prompt(lights, kind: .turnIn, distanceMeters: 350) == "Om 350 meter, drej ved lyskrydset til højre ind på Dilsberger Straße.")
        let sk = try say("sk")
        var stay = m(.continue, .slightRight, "CG-2")
        stay.staysOnRoad = true
        #expect(sk.prompt(stay, kind: .turnIn, distanceMeters: 800).hasPrefix("O 800 metrov sa držte vpravo"), "\(sk.prompt(stay, kind: .turnIn, distanceMeters: 800))")
        #expect(sk.prompt(stay, kind: .now, distanceMeters: 0).hasPrefix("Držte sa vpravo"))
        #expect(sk.prompt(m(.continue, .uturn), kind: .turnIn, distanceMeters: 300) == "O 300 metrov sa otočte.")
        #expect(try say("tr").prompt(lights, kind: .turnIn, distanceMeters: 300).hasPrefix("300 metre sonra, trafik ışıklarında"))
        #expect(try say("tr").prompt(m(.continue, .uturn), kind: .turnIn, distanceMeters: 300) == "300 metre sonra U-dönüşü yapın.")
        lights.landmark = .place("Marché U", after: true)
        #expect(try say("hu").text(lights).hasPrefix("Marché U után forduljon"))
        lights.landmark = .place("Hotel Magic Ski", after: false)
        #expect(try say("ca").text(lights).hasPrefix("A l'altura d'Hotel Magic Ski"))
        // and of the last twelve: the Slovenian clitic, Estonian places before the instruction
        // (after it they ran into the street's name) and no second pause after "siis"
        let sl = try say("sl")
        #expect(sl.prompt(stay, kind: .turnIn, distanceMeters: 800).hasPrefix("Čez 800 metrov se držite desno"), "\(sl.prompt(stay, kind: .turnIn, distanceMeters: 800))")
        lights.landmark = .place("Credit Suisse", after: false)
        #expect(try say("et").text(lights).hasPrefix("Credit Suisse juures"))
        lights.landmark = .trafficSignals
        #expect(try say("et").prompt(lights, kind: .turnIn, distanceMeters: 250).hasPrefix("Veel 250 meetrit, siis foori juures"))
        // numbers in a form of their own before "kilometre(s)" (the far prompt at motorway speed
        // says "in 1.5 kilometres")
        #expect(try say("he").spokenDistance(2000) == "שני קילומטרים" && say("he").spokenDistance(1500) == "קילומטר וחצי")
        #expect(try say("ar").spokenDistance(2000) == "كيلومتران" && say("sl").spokenDistance(3000) == "3 kilometre")
        #expect(try say("ar").spokenDistance(3000) == "3 كيلومترات")
        let ro = try say("ro")
        #expect([7_000, 19_000, 20_000, 25_000, 101_000, 120_000].map { ro.spokenDistance($0) }
            == ["7 kilometri", "19 kilometri", "20 de kilometri", "25 de kilometri", "101 kilometri", "120 de kilometri"])
    }

    /// espeak-ng's Hebrew voice reads no digits: Hebrew distances are written in words.
    /// What the signs say: "take exit 12 on the right towards Frankfurt"; a ref the instruction
    /// has already said is not said twice, nor a destination that is the road's own name.
    @Test func signpostsAreSaid() throws {
        let at = Coordinate(latitude: 49.4, longitude: 8.6)
        let en = Instructions()
        var exit = Maneuver(type: .offRamp, modifier: .slightRight, street: "", location: at, shapeIndex: 0, distanceFromStartMeters: 0)
        exit.exitNumber = "38"
        exit.destination = "B 535, Schwetzingen"
        #expect(en.text(exit) == "Take exit 38 on the right towards B 535, Schwetzingen")
        // the prompts before the exit say where it leads; the one at the exit is short
        #expect(en.prompt(exit, kind: .prepare, distanceMeters: 800) == "In 800 metres, take exit 38 on the right towards B 535, Schwetzingen.")
        #expect(en.prompt(exit, kind: .now, distanceMeters: 0) == "Take exit 38 on the right.")
        exit.ref = "B 535"
        #expect(en.text(exit) == "Take exit 38 on the right onto B 535 towards Schwetzingen")
        var fork = Maneuver(type: .fork, modifier: .slightLeft, street: "", ref: "A 5", location: at, shapeIndex: 0, distanceFromStartMeters: 0)
        fork.destination = "A 5"
        #expect(en.text(fork) == "Keep left at the fork onto A 5")
        fork.destination = "Darmstadt"
        #expect(Instructions(locale: GuidanceLocale.named("en-US")!).text(fork) == "Keep left at the fork onto A 5 toward Darmstadt")
        #expect(Instructions(locale: GuidanceLocale.named("de")!).text(fork) == "An der Gabelung links halten und auf A 5 weiterfahren, Richtung Darmstadt")
        #expect(Instructions(locale: GuidanceLocale.named("he")!).text(exit).contains("שלושים ושמונה"))
        // what is not a plain number is said as signed, whatever it looks like to a parser
        for odd in ["inf", "1e100", "99999999999999999999", "nan", "012a"] {
            exit.exitNumber = odd
            #expect(Instructions(locale: GuidanceLocale.named("he")!).text(exit).contains(odd))
        }
        // a sign naming the road already said is not said again, nor a longer ref's prefix dropped
        var link = Maneuver(type: .turn, modifier: .right, street: "Hauptstraße", ref: "B 535", location: at, shapeIndex: 0,
                            distanceFromStartMeters: 0)
        link.destination = "B 535"
        #expect(en.text(link) == "Turn right onto Hauptstraße (B 535)")
        link.ref = "A 50"
        link.destination = "A 5, Köln"
        #expect(en.text(link) == "Turn right onto Hauptstraße (A 50) towards A 5, Köln")
        var name = Maneuver(type: .newName, modifier: .straight, street: "Speyerer Straße", location: at, shapeIndex: 0, distanceFromStartMeters: 0)
        name.destination = "Heidelberg"
        #expect(en.text(name) == "Continue onto Speyerer Straße")
        // a ramp straight ahead has no side to name (heidelberg-0186: "take the ramp on the right")
        var ramp = Maneuver(type: .onRamp, modifier: .straight, street: "", location: at, shapeIndex: 0, distanceFromStartMeters: 0)
        ramp.destination = "B 37"
        #expect(en.text(ramp) == "Take the ramp towards B 37")
        ramp.modifier = .slightRight
        #expect(en.text(ramp) == "Take the ramp on the right towards B 37")
        ramp.modifier = .straight
        #expect(Instructions(locale: GuidanceLocale.named("de")!).text(ramp) == "Die Auffahrt nehmen, Richtung B 37")
    }

    /// Where the road the car is on goes on by turning (OSRM's "continue"), the driver hears that
    /// it stays on it: "turn right to stay on Route de la Turbie", not "turn right onto Route de la
    /// Turbie", which sends them looking for another road of that name (monaco-0002).
    @Test func stayingOnTheRoadIsSaid() throws {
        let at = Coordinate(latitude: 43.75, longitude: 7.43)
        let en = Instructions(), de = Instructions(locale: GuidanceLocale.named("de")!)
        var m = Maneuver(type: .continue, modifier: .right, street: "Route de la Turbie", location: at, shapeIndex: 0, distanceFromStartMeters: 0)
        m.staysOnRoad = true
        #expect(en.text(m) == "Turn right to stay on Route de la Turbie")
        #expect(de.text(m) == "Rechts abbiegen, um auf Route de la Turbie zu bleiben")
        #expect(en.prompt(m, kind: .prepare, distanceMeters: 200) == "In 200 metres, turn right to stay on Route de la Turbie.")
        m.modifier = .slightLeft
        #expect(en.text(m) == "Keep left to stay on Route de la Turbie")
        #expect(de.text(m) == "Links halten, um auf Route de la Turbie zu bleiben")
        m.modifier = .sharpLeft
        #expect(en.text(m) == "Turn sharp left to stay on Route de la Turbie")
        // onto another road than the one driven on (off Grenzhöfer Weg onto an unnamed L 637,
        // heidelberg-0186, where the name is not said to change): "onto"
        m.staysOnRoad = false
        m.street = ""
        m.ref = "L 637"
        #expect(en.text(m) == "Turn sharp left onto L 637")
        m.modifier = .slightRight
        #expect(en.text(m) == "Keep right onto L 637")
        // a turn onto another road is still "onto"
        let turn = Maneuver(type: .turn, modifier: .right, street: "Avenue du Port", location: at, shapeIndex: 0, distanceFromStartMeters: 0)
        #expect(en.text(turn) == "Turn right onto Avenue du Port")
    }

    @Test func hebrewDistancesAreWords() throws {
        let he = Instructions(locale: try #require(GuidanceLocale.named("he")))
        for d in [40.0, 150, 300, 950, 2600, 7400] {
            let s = he.spokenDistance(d)
            let digits = s.filter { $0.isNumber }
            #expect(digits.isEmpty, "\(d) m: \(s)")
        }
        #expect(he.spokenDistance(300).contains("שלוש מאות"))
        #expect(he.spokenDistance(150).contains("מאה וחמישים"))
        #expect(he.spokenDistance(2600).contains("שניים וחצי"))
    }

    /// A small roundabout said as one turn (OSRM's roundabout turn): straight across is "go
    /// straight ahead" in English, not "turn straight"; a language without that optional phrase
    /// says its general one with the modifier word.
    @Test func straightAcrossARoundaboutIsGoStraight() throws {
        let at = Coordinate(latitude: 48, longitude: 11)
        var m = Maneuver(type: .roundaboutTurn, modifier: .straight, street: "Boulevard du Jardin Exotique", location: at, shapeIndex: 0,
                         distanceFromStartMeters: 0)
        let en = Instructions(locale: try #require(GuidanceLocale.named("en-GB")))
        #expect(en.text(m) == "At the roundabout, go straight ahead onto Boulevard du Jardin Exotique")
        let deLocale = try #require(GuidanceLocale.named("de"))
        #expect(!deLocale.hasOwnPhrase("roundabout_turn.straight"))
        let general = deLocale.phrase("roundabout_turn.name", ["modifier": deLocale.phrase("modifier.straight"), "way_name": m.street])
        #expect(Instructions(locale: deLocale).text(m) == general)
        m.modifier = .left
        #expect(en.text(m) == "At the roundabout, turn left onto Boulevard du Jardin Exotique")
        #expect(!GuidanceLocale.keys.contains("roundabout_turn.straight"))
    }
}
