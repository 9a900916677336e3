import DriveLog
import Foundation
import TestSupport
import Testing

/// Old drives go by age and by total size, oldest first; the drive being recorded and anything
/// that is not a drive stay.
@Suite struct DriveRetentionTests {
    func drive(_ dir: TempDir, _ name: String, daysOld: Double, bytes: Int, now: Double) throws -> String {
        let path = dir.file(name)
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        let file = path + "/events.jsonl"
        try Data(repeating: 0x41, count: bytes).write(to: URL(fileURLWithPath: file))
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSince1970: now - daysOld * 86_400)], ofItemAtPath: file)
        return path
    }

    @Test func byAgeThenBySize() throws {
        let dir = TempDir()
        defer { dir.remove() }
        let now = 1_800_000_000.0
        let old = try drive(dir, "a-old", daysOld: 40, bytes: 10, now: now)
        let mid = try drive(dir, "b-mid", daysOld: 5, bytes: 600, now: now)
        let new = try drive(dir, "c-new", daysOld: 1, bytes: 600, now: now)
        let current = try drive(dir, "d-current", daysOld: 0, bytes: 5000, now: now)
        try FileManager.default.createDirectory(atPath: dir.file("notes"), withIntermediateDirectories: true)  // not a drive
        try Data("keep".utf8).write(to: URL(fileURLWithPath: dir.file("notes/readme.txt")))
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSince1970: now - 400 * 86_400)], ofItemAtPath: dir.file("notes/readme.txt"))

        let removed = DriveRetention(maxAgeDays: 30, maxBytes: 1000).prune(logDirectory: dir.path, now: now, current: current)
        // 40 days old: gone; 600 + 600 bytes > 1000: the older of the two goes
        #expect(Set(removed) == [old, mid])
        for kept in [new, current, dir.file("notes")] { #expect(FileManager.default.fileExists(atPath: kept), "\(kept)") }
        // no limits: nothing goes
        #expect(DriveRetention().prune(logDirectory: dir.path, now: now + 1e9, current: nil).isEmpty)
        // a drive is as old as its name says (the receiver's time), whatever its files' dates
        let named = try drive(dir, "20240101T080000Z", daysOld: 0, bytes: 10, now: now)
        let renamed = try drive(dir, "20240101T080000Z-2", daysOld: 0, bytes: 10, now: now)
        let removedByName = DriveRetention(maxAgeDays: 30).prune(logDirectory: dir.path, now: now, current: current)
        #expect(Set(removedByName) == [named, renamed], "\(removedByName)")
    }
}
