import Foundation
import Platform
import TestSupport
import Testing

/// Files written whole (maps, trip state, reports, GPX, simulated drives) go through `AtomicFile`
/// (issue #29): only a regular file or a new path is replaced, never a device, a FIFO or a folder;
/// a link's target is replaced and the link kept; nothing is left beside the file.
@Suite struct AtomicFileTests {
    private func mode(_ path: String) -> mode_t {
        var st = stat()
        return lstat(path, &st) == 0 ? st.st_mode : 0
    }

    @Test func writesNewAndReplacesAFileKeepingItsMode() throws {
        let dir = TempDir()
        defer { dir.remove() }
        let p = dir.file("a.txt")
        try AtomicFile.write("one\n", to: p)
        #expect(try String(contentsOfFile: p, encoding: .utf8) == "one\n")
        let m = umask(0o022); umask(m)
        #expect(mode(p) & 0o777 == 0o644 & ~m)
        chmod(p, 0o600)
        try AtomicFile.write(Data("two\n".utf8), to: p)
        #expect(try String(contentsOfFile: p, encoding: .utf8) == "two\n")
        #expect(mode(p) & 0o777 == 0o600)
        // nothing left beside it
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["a.txt"])
    }

    @Test func refusesDevicesFIFOsAndFolders() throws {
        let dir = TempDir()
        defer { dir.remove() }
        let fifo = dir.file("fifo")
        #expect(mkfifo(fifo, 0o644) == 0)
        let folder = dir.file("folder")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
        for (path, kind) in [(fifo, "a FIFO"), (folder, "a folder"), ("/dev/null", "a character device")] {
            let before = mode(path)
            do {
                try AtomicFile.write("x", to: path)
                Issue.record("\(path) was replaced")
            } catch {
                #expect("\(error)" == "\(path): not a regular file (\(kind)): refusing to replace it; give a file name")
            }
            #expect(mode(path) == before, "\(path) changed")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted() == ["fifo", "folder"])
        // a missing folder is named, and nothing is made
        #expect(throws: AtomicFile.WriteError.self) { try AtomicFile.write("x", to: dir.file("no/such/file")) }
    }

    @Test func aLinkKeepsPointingAtTheNewFile() throws {
        let dir = TempDir()
        defer { dir.remove() }
        let real = dir.file("real.tmap"), link = dir.file("map.tmap")
        try AtomicFile.write("old", to: real)
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "real.tmap")
        try AtomicFile.write("new", to: link)
        #expect(mode(link) & S_IFMT == S_IFLNK)
        #expect(try String(contentsOfFile: real, encoding: .utf8) == "new")
        // a dangling link makes its target
        let dangling = dir.file("next.tmap")
        try FileManager.default.createSymbolicLink(atPath: dangling, withDestinationPath: "made.tmap")
        try AtomicFile.write("made", to: dangling)
        #expect(try String(contentsOfFile: dir.file("made.tmap"), encoding: .utf8) == "made")
    }
}
