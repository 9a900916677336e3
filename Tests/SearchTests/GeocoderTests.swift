import Foundation
import Geo
import MapCompiler
import MapData
import Search
import Testing
import TestSupport

/// Two villages 4 km apart, both with a Hauptstraße 12, imported through the real import:
/// Oberdorf stands alone; Unterdorf lies in the municipality of Talheim (a boundary relation
/// whose outline is two ways, one of them without tags),
/// and its even numbers 2–10 are an interpolation line.
enum TwoVillages {
    static let origin = Coordinate(latitude: 49.0, longitude: 8.5)
    static func at(_ x: Double, _ y: Double) -> Coordinate {
        LocalProjection(origin: origin).unproject(LocalPoint(x: x, y: y))
    }

    static let map: Result<RoadMap, Error> = Result {
        var s = ScenarioMap(ascii: "", gridMeters: 100, origin: origin)
        func node(_ name: String, _ x: Double, _ y: Double, _ tags: [(String, String)] = []) {
            s.setNode(name, at(x, y))
            if !tags.isEmpty { s.nodeTags[name] = tags }
        }
        // Oberdorf: Hauptstraße west–east, Müllerweg south from it, the link road east
        node("a", 0, 0); node("b", 300, 0); node("c", 600, 0); node("i", 300, -400)
        // Unterdorf
        node("e", 4000, 0); node("f", 4300, 0); node("g", 4600, 0); node("j", 4300, -400)
        s.ways = [.init("abc", [("highway", "residential"), ("name", "Hauptstraße")]),
                  .init("bi", [("highway", "residential"), ("name", "Müllerweg")]),
                  .init("ce", [("highway", "secondary"), ("name", "Landstraße"), ("ref", "L 600")]),
                  .init("efg", [("highway", "residential"), ("name", "Hauptstraße")]),
                  .init("fj", [("highway", "residential"), ("name", "Straße des 17. Juni")])]
        node("Oberdorf", 300, -100, [("place", "village"), ("name", "Oberdorf")])
        node("Unterdorf", 4300, -100, [("place", "village"), ("name", "Unterdorf")])
        func house(_ name: String, _ x: Double, _ street: String, _ number: String, y: Double = 20, more: [(String, String)] = []) {
            node(name, x, y, [("addr:street", street), ("addr:housenumber", number)] + more)
        }
        house("o12", 150, "Hauptstraße", "12")
        house("o24", 450, "Hauptstraße", "24-26")
        house("m3", 320, "Müllerweg", "3", y: -250)
        house("u12", 4150, "Hauptstraße", "12", more: [("addr:postcode", "74999")])
        house("u2", 4050, "Hauptstraße", "2", y: -20)
        house("u10", 4450, "Hauptstraße", "10", y: -20)
        house("j17", 4320, "Straße des 17. Juni", "17", y: -300)
        s.ways.append(.init(nodes: ["u2", "u10"], tags: [("addr:interpolation", "even")]))
        node("fuel", 350, 30, [("amenity", "fuel"), ("name", "Aral"), ("brand", "Aral")])
        node("cafe", 4350, 30, [("amenity", "cafe"), ("name", "Café Sonne")])
        node("kiga", 4380, 35, [("amenity", "kindergarten"), ("name", "Regenbogen")])
        // the municipality of Talheim around Unterdorf
        node("t1", 3500, 1000); node("t2", 5000, 1000); node("t3", 5000, -1000); node("t4", 3500, -1000)
        // (in two ways, one without tags, as most boundary ways are: found by the relation)
        s.ways.append(.init(nodes: ["t1", "t2", "t3"], tags: [("boundary", "administrative"), ("admin_level", "8")]))
        s.ways.append(.init(nodes: ["t3", "t4", "t1"], tags: []))
        // an enclave: the municipality has a hole round a farm shop that belongs elsewhere
        node("x1", 4700, 900); node("x2", 4900, 900); node("x3", 4900, 700); node("x4", 4700, 700)
        s.ways.append(.init(nodes: ["x1", "x2", "x3", "x4", "x1"], tags: []))
        node("farm", 4800, 800, [("shop", "farm"), ("name", "Hofladen Enklave")])
        s.relations = [.init(members: [(type: "way", ref: "t1t2t3", role: "outer"), (type: "way", ref: "t3t4t1", role: "outer"),
                                       (type: "way", ref: "x1x2x3x4x1", role: "inner")],
                             tags: [("type", "boundary"), ("boundary", "administrative"), ("admin_level", "8"), ("name", "Talheim")])]
        return try TestMaps.scenario(s, name: "two-villages")
    }

    static func geocoder() throws -> Geocoder { try Geocoder(map: map.get()) }
}

@Suite struct GeocoderTests {
    let g: Geocoder
    init() throws { g = try TwoVillages.geocoder() }

    func top(_ text: String, near: Coordinate? = nil) throws -> SearchResult {
        let r = try g.search(text, near: near)
        return try #require(r.first, "no result for \(text)")
    }

    func distance(_ r: SearchResult, _ x: Double, _ y: Double) -> Double { r.coordinate.distance(to: TwoVillages.at(x, y)) }

    @Test func aHouseNumberInTheNamedVillage() throws {
        let o = try top("Hauptstraße 12, Oberdorf")
        #expect(o.kind == .address && distance(o, 150, 20) < 1, "\(o)")
        #expect(o.label == "Hauptstraße 12, Oberdorf")
        let u = try top("hauptstr 12 unterdorf")
        #expect(distance(u, 4150, 20) < 1, "\(u)")
        // the municipality's name also places it, and so does the postcode
        #expect(distance(try top("Hauptstr. 12, Talheim"), 4150, 20) < 1)
        #expect(distance(try top("74999 hauptstrasse 12"), 4150, 20) < 1)
        #expect(u.label == "Hauptstraße 12, Unterdorf, Talheim", "\(u.label)")
    }

    @Test func withoutAPlaceTheNearestComesFirst() throws {
        #expect(distance(try top("Hauptstraße 12", near: TwoVillages.at(4000, 0)), 4150, 20) < 1)
        #expect(distance(try top("Hauptstraße 12", near: TwoVillages.at(0, 0)), 150, 20) < 1)
    }

    @Test func typosAbbreviationsPrefixesUmlautsAndAnyOrder() throws {
        for text in ["Hauptstrase 12 Oberdorf", "Hauptsrtaße 12 Oberdorf", "Haupstraße 12 oberdorf", "12 hauptstr oberdorf",
                     "haupt 12 ober", "HAUPTSTRASSE 12, OBERDORF"] {
            #expect(distance(try top(text), 150, 20) < 1, "\(text)")
        }
        for text in ["Müllerweg 3", "muellerweg 3", "mullerweg 3", "Mülerweg 3"] {
            #expect(distance(try top(text), 320, -250) < 1, "\(text)")
        }
    }

    @Test func aNumberInTheStreetsNameIsNotItsHouseNumber() throws {
        let r = try top("Straße des 17. Juni 17")
        #expect(r.kind == .address && distance(r, 4320, -300) < 1, "\(r)")
        #expect(try top("Straße des 17. Juni").kind == .street)
    }

    @Test func aRangeAndAnInterpolatedNumber() throws {
        #expect(distance(try top("Hauptstraße 24-26 Oberdorf"), 450, 20) < 1)
        #expect(distance(try top("Hauptstraße 24 Oberdorf"), 450, 20) < 1)
        // 6 is half way along the line from 2 to 10
        let six = try top("Hauptstraße 6, Unterdorf")
        #expect(six.kind == .address && distance(six, 4250, -20) < 5, "\(six)")
        // a number the street does not have: the street itself, marked as such
        let missing = try top("Hauptstraße 99, Unterdorf")
        #expect(missing.kind == .street && missing.label.hasPrefix("Hauptstraße"))
    }

    @Test func streetsPlacesRefsAndPOIs() throws {
        #expect(try top("Landstraße").kind == .street)
        #expect(try top("L 600").label.hasPrefix("Landstraße"))
        let place = try top("Unterdorf")
        #expect(place.kind == .place && place.label == "Unterdorf, Talheim", "\(place)")
        #expect(try top("Talheim").kind == .place)
        #expect(try top("Cafe Sonne").label == "Café Sonne (cafe), Unterdorf, Talheim")
        #expect(try top("Regenbogen").kind == .poi)
        // in the enclave, not in Talheim
        #expect(try !top("Hofladen Enklave").label.contains("Talheim"))
        // by category word, in any language the table has
        for word in ["fuel", "Tankstelle", "petrol station", "gas station"] {
            #expect(try top(word).label.hasPrefix("Aral"), "\(word)")
        }
        #expect(g.nearest(.cafe, to: TwoVillages.at(0, 0)).first?.label.hasPrefix("Café Sonne") == true)
        #expect(g.nearest(.pharmacy, to: TwoVillages.at(0, 0)).isEmpty)
    }

    @Test func reverseGeocoding() {
        #expect(g.describe(TwoVillages.at(152, 15)) == "Hauptstraße 12, Oberdorf")
        #expect(g.describe(TwoVillages.at(2000, 0)) == nil)
    }

    @Test func badInputGetsAnAnswerNotACrash() throws {
        #expect(throws: SearchError.emptyQuery) { try g.search("") }
        #expect(throws: SearchError.emptyQuery) { try g.search("  ,;  12 ") }
        #expect(throws: SearchError.tooLong(characters: 10_000)) { try g.search(String(repeating: "x", count: 10_000)) }
        // control characters separate words: "haupt" and "stra" "2jsse" find no house
        #expect(try g.search("Haupt\u{7}stra\u{1b}[2Jße 12").allSatisfy { $0.kind != .address })
        #expect(try g.search("zzzzqqq").isEmpty)
        #expect(try g.search(String(repeating: "ab ", count: 60)).isEmpty)
    }
}

/// Search on a real extract: every house number the index holds is found by its own street,
/// number and town as the results print them, and named places lie where they are.
@Suite(.enabled(if: SharedData.isAvailable, Comment(rawValue: SharedData.missingMessage)))
struct RealExtractSearchTests {
    @Test func everyHouseNumberIsFoundByItsOwnLabel() throws {
        let map = try TestMaps.extract("liechtenstein")
        let g = try Geocoder(map: map)
        #expect(map.searchAddressCount > 900)
        var found = 0, tried = 0
        for i in stride(from: 0, to: map.searchAddressCount, by: 7) {
            let a = map.searchAddress(i)
            let street = map.searchObject(Int(a.object))
            let city = street.city == SearchObject.none ? "" : map.name(map.searchObject(Int(street.city)).labelID)
            let text = "\(map.name(street.labelID)) \(map.name(a.numberID)), \(city)"
            tried += 1
            if let top = try g.search(text).first, top.coordinate.distance(to: a.coordinate) <= 50 { found += 1 }
        }
        #expect(Double(found) >= 0.97 * Double(tried), "\(found) of \(tried)")
    }

    @Test func placesLieWhereTheyAre() throws {
        let g = try Geocoder(map: TestMaps.extract("liechtenstein"))
        let vaduz = try #require(try g.search("Vaduz").first)
        #expect(vaduz.kind == .place)
        #expect(vaduz.coordinate.distance(to: Coordinate(latitude: 47.1410, longitude: 9.5215)) < 1500, "\(vaduz)")
        let schaan = try #require(try g.search("schan").first)  // one typo
        #expect(schaan.label.hasPrefix("Schaan"), "\(schaan)")
    }
}
