@testable import Guidance
import Testing

/// OSRM's name-change rule exists once (NameRules.requiresAnnouncement) and is read in two forms:
/// Strings at import, the map's stored bytes at query time. Both must give the same answers.
@Suite struct NameRulesTests {
    static let names = ["", "Hauptstraße", "Hauptstraße ", " Hauptstraße", "Haupt", "Hauptstraße Nord", "Bergheimer Straße",
                        "Main Street", "Main Street North", "Main", "Rue de la Paix", "Rue de la Paix 2", "Straße", "Ébène", "É"]
    static let refs = ["", "B 37", "B 37;B 3", "B 3", "A 5", "L 534", "E 35;A 5"]

    /// The byte form of a name, as RoadMap.nameBytes gives it, for the length of `body`.
    func withBytes<R>(_ a: String, _ b: String, _ c: String, _ d: String,
                      _ body: (NameBytes, NameBytes, NameBytes, NameBytes) -> R) -> R {
        let arrays = [a, b, c, d].map { Array($0.utf8) }
        return arrays[0].withUnsafeBytes { p0 in
            arrays[1].withUnsafeBytes { p1 in
                arrays[2].withUnsafeBytes { p2 in
                    arrays[3].withUnsafeBytes { p3 in
                        body(NameBytes(bytes: p0), NameBytes(bytes: p1), NameBytes(bytes: p2), NameBytes(bytes: p3))
                    }
                }
            }
        }
    }

    @Test func bytesAndStringsAgree() {
        var pairs = 0, announced = 0
        for an in Self.names {
            for ar in Self.refs {
                for bn in Self.names {
                    for br in Self.refs {
                        let strings = NameRules.requiresAnnouncement(from: RoadName(name: an, ref: ar), to: RoadName(name: bn, ref: br),
                                                                     suffixes: false)
                        let bytes = withBytes(an, ar, bn, br) { NameRules.requiresAnnouncement(from: ($0, $1), to: ($2, $3)) }
                        #expect(strings == bytes, "\(an)/\(ar) → \(bn)/\(br): strings \(strings), bytes \(bytes)")
                        pairs += 1
                        if strings { announced += 1 }
                    }
                }
            }
        }
        // (both answers occur: the comparison above can fail either way)
        #expect(announced > 0 && announced < pairs)
    }

    /// What the rule says on known cases (OSRM's name_announcements.hpp).
    @Test func knownChanges() {
        func says(_ a: (String, String), _ b: (String, String)) -> Bool {
            NameRules.requiresAnnouncement(from: RoadName(name: a.0, ref: a.1), to: RoadName(name: b.0, ref: b.1), suffixes: false)
        }
        #expect(says(("", ""), ("Main", "")))                  // from nothing to something
        #expect(!says(("Main Street", ""), ("Main", "")))      // one name contains the other
        #expect(says(("Main", ""), ("Rue de la Paix", "")))    // another road
        #expect(!says(("Main", "B 37"), ("Main", "B 37;B 3"))) // a ref added to the same road
        #expect(says(("", "B 37"), ("Main", "")))              // a ref, then a name only
        #expect(!says(("Main ", ""), ("Main", "")))            // spaces at the end
    }
}
