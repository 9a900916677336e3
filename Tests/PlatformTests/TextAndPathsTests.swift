import Foundation
import Platform
import Testing

/// Trimming and path arithmetic as Foundation's NSString did them.
@Suite struct TextAndPathsTests {
    @Test func trimmingAsFoundation() {
        for s in ["", "   ", "a", "  a b  ", "\t x \r\n", "\u{00A0}nbsp\u{00A0}", "ünï  ", "\n\n"] {
            #expect(s.trimmed() == s.trimmingCharacters(in: .whitespacesAndNewlines), "\(s.debugDescription)")
        }
        #expect("(Mo-Fr 07:00-19:00) ".trimmed(of: "() ") == "Mo-Fr 07:00-19:00")
        #expect(" 'motorway'".trimmed(of: " '\"") == "motorway")
        #expect(",,".trimmed(of: ", ") == "")
    }

    static let paths = ["/a/b.tmap", "/a/b.tmap/", "b.tmap", "/", "", "a/b/c", "/a", ".hidden", "/x/.hidden", "/x/y.tar.gz", "dir/"]

    @Test(arguments: paths) func pathsAsFoundation(path: String) {
        let ns = path as NSString
        #expect(Paths.fileName(path) == ns.lastPathComponent, "fileName")
        #expect(Paths.directory(path) == ns.deletingLastPathComponent, "directory")
        #expect(Paths.droppingExtension(path) == ns.deletingPathExtension, "droppingExtension")
        for name in ["x.json", "sub/x"] where !path.isEmpty {
            #expect(Paths.join(path, name) == ns.appendingPathComponent(name), "join \(name)")
        }
    }

    @Test func temporaryDirectoryEndsInASlash() {
        #expect(Paths.temporaryDirectory.hasSuffix("/"))
        #expect(Paths.temporaryDirectory == NSTemporaryDirectory())
    }
}
