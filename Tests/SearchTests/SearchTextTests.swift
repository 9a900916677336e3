import Testing
@testable import Search

@Suite struct SearchTextTests {
    @Test func foldsCaseDiacriticsAndAbbreviations() {
        #expect(SearchText.terms("Hauptstraße 12, Heidelberg") == ["hauptstr", "12", "heidelberg"])
        #expect(SearchText.terms("hauptstr. 12 heid") == ["hauptstr", "12", "heid"])
        #expect(SearchText.terms("Avinguda Meritxell") == ["av", "meritxell"])
        #expect(SearchText.terms("Müller-Thurgau-Weg") == ["muller", "thurgau", "weg"])
        #expect(SearchText.terms("Carrer d'Anna") == ["carrer", "anna"])
        #expect(SearchText.terms("Bismarckplatz") == ["bismarckpl"])
        #expect(SearchText.terms("Rue de l'Église") == ["rue", "de", "eglise"])
        #expect(SearchText.terms("L 600") == ["l600"])
        // decomposed accents (as some keyboards send them) are the same letters
        #expect(SearchText.terms("Mu\u{308}ller Cafe\u{301}") == ["muller", "cafe"])
        #expect(SearchText.terms("Hauptstr. 12 a") == ["hauptstr", "12a"])
    }
}

@Suite struct TermDistanceTests {
    func within(_ a: String, _ b: String) -> Bool { TermDistance.withinOne(Array(a.utf8), Array(b.utf8)) }

    @Test func oneEditOfAnyKind() {
        #expect(within("hauptstr", "hauptstr"))
        #expect(within("haupstr", "hauptstr"))      // deleted
        #expect(within("hauptsstr", "hauptstr"))    // inserted
        #expect(within("hauptsrt", "hauptstr"))     // swapped
        #expect(within("hauptxtr", "hauptstr"))     // replaced
        #expect(!within("hastpstr", "hauptstr"))
        #expect(!within("haustr", "hauptstr"))
        #expect(!within("hauptstrasse", "hauptstr"))
    }

    @Test func germanEndingsWithATypo() {
        #expect(SearchText.endingTypoForms("hauptstrase").contains("hauptstr"))
        #expect(SearchText.endingTypoForms("zeppelinftrasse").contains("zeppelinstr"))
        #expect(SearchText.endingTypoForms("bergtrasse").contains("bergstr"))
        #expect(SearchText.endingTypoForms("straess").contains("str"))
        #expect(SearchText.endingTypoForms("bismarckplaz").contains("bismarckpl"))
        #expect(SearchText.endingTypoForms("hauptstrasse").isEmpty)  // no typo: the canonical form only
    }
}
