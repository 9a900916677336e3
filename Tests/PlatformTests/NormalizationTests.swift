import Foundation
import MapData
import Platform
import TestSupport
import Testing

/// The standard library's normaliser, reached through underscored entry points, must agree with
/// Foundation's (ICU's) on real names: the search index folds every name of a map with it.
@Suite struct NormalizationTests {
    @Test func samples() {
        #expect("u\u{0308}".composed == "ü")
        #expect("ü".composed.unicodeScalars.count == 1)
        #expect("é".decomposed.unicodeScalars.map(\.value) == [0x65, 0x301])
        #expect("Straße".decomposed == "Straße")
        #expect("가".decomposed.unicodeScalars.count == 2)
    }

    @Test(.enabled(if: SharedData.isAvailable, Comment(rawValue: SharedData.missingMessage)), arguments: ["andorra", "heidelberg"])
    func everyNameOfAMapAsFoundation(extract: String) throws {
        let map = try TestMaps.extract(extract)
        var checked = 0
        for id in 1..<UInt32(map.nameCount) {
            let name = map.name(id)
            for s in [name, name.decomposedStringWithCanonicalMapping] {
                #expect(s.composed.unicodeScalars.elementsEqual(s.precomposedStringWithCanonicalMapping.unicodeScalars), "\(s)")
                #expect(s.decomposed.unicodeScalars.elementsEqual(s.decomposedStringWithCanonicalMapping.unicodeScalars), "\(s)")
            }
            checked += 1
        }
        #expect(checked > 100)
    }
}
