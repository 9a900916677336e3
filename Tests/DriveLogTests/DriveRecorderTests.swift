import DriveLog
import Foundation
import Geo
import JSONLines
import Navigation
import Testing

@Suite struct DriveRecorderTests {
    func tempDir() -> String {
        let d = NSTemporaryDirectory() + "tern-drives-\(UUID().uuidString)"
        try? FileManager.default.createDirectory(atPath: d, withIntermediateDirectories: true)
        return d
    }

    @Test func writesTheThreeFiles() throws {
        let dir = tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let r = try DriveRecorder(logDirectory: dir, name: "drive")
        r.recordNMEA("$GPRMC,120000.00,A,4344.3040,N,00725.4760,E,27.0,60.0,150624,,,A*5F")
        r.record(NavigationEvent(time: 1_718_452_800, .position(lat: 43.7, lon: 7.4, speedMps: 13.9, courseDeg: 60, road: "Rue", snapped: Coordinate(latitude: 43.7, longitude: 7.4), estimated: false)))
        r.record(NavigationEvent(time: 1_718_452_801, .arrived(index: 1, name: "Rue")))
        r.close()
        let raw = try String(contentsOfFile: r.rawPath, encoding: .utf8)
        #expect(raw.hasSuffix("*5F\r\n"))
        let events = try String(contentsOfFile: r.eventsPath, encoding: .utf8).split(separator: "\n")
        #expect(events.count == 2)
        #expect(events[1] == #"{"t":"2024-06-15T12:00:01Z","event":"arrived","index":1,"name":"Rue"}"#)
        let track = try String(contentsOfFile: r.trackPath, encoding: .utf8).split(separator: "\n")
        #expect(track.count == 1)
        // a second drive with the same name gets its own folder
        let r2 = try DriveRecorder(logDirectory: dir, name: "drive")
        #expect(r2.folder != r.folder)
    }

    /// The files are made durable every `syncSeconds` of the drive's flushes (a power cut loses at
    /// most that much), not at every flush and not only at the end.
    @Test func syncedEverySyncSeconds() throws {
        let dir = tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let r = try DriveRecorder(logDirectory: dir, name: "drive")
        r.syncSeconds = 0.05
        let start = Date()
        var flushes = 0
        while Date().timeIntervalSince(start) < 0.4 {
            r.recordNMEA("$GPGGA,120000.00,4344.3040,N,00725.4760,E,1,08,0.9,10.0,M,0.0,M,,*4B")
            r.flush()
            flushes += 1
            usleep(5_000)
        }
        #expect(r.syncs >= 3 && r.syncs <= 9, "\(r.syncs) syncs in 0.4 s at one per 0.05 s")
        #expect(flushes > 2 * r.syncs)
        let lazy = try DriveRecorder(logDirectory: dir, name: "lazy")
        lazy.syncSeconds = 3600
        for _ in 0..<50 { lazy.recordNMEA("$GPGGA,x*00"); lazy.flush() }
        #expect(lazy.syncs == 0)
        lazy.close()
        #expect(lazy.syncs == 1)
    }

    /// The appliance's recorder makes nothing until the first fix (no empty folder for a start in a
    /// garage), then names the folder after that fix and keeps the sentences from before it.
    @Test func nothingBeforeTheFirstFix() throws {
        let dir = tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        do {
            let idle = try DriveRecorder(logDirectory: dir, waitForFix: true)
            idle.recordNMEA("$GPGSA,A,1,,,,,,,,,,,,,,,*1E")
            idle.record(NavigationEvent(time: 1_718_452_790, .gpsLost(since: 1_718_452_790)))
            idle.flush()
            idle.close()
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir).isEmpty)
        let r = try DriveRecorder(logDirectory: dir, waitForFix: true)
        r.recordNMEA("$GPGSA,A,1,,,,,,,,,,,,,,,*1E")
        r.flush()
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir).isEmpty)
        r.record(NavigationEvent(time: 1_718_452_800, .position(lat: 43.7, lon: 7.4, speedMps: 0, courseDeg: nil, road: "", snapped: nil,
                                                                estimated: false)))
        r.close()
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir) == ["20240615T120000Z"])
        #expect(try String(contentsOfFile: r.rawPath, encoding: .utf8) == "$GPGSA,A,1,,,,,,,,,,,,,,,*1E\r\n")
        #expect(try String(contentsOfFile: r.eventsPath, encoding: .utf8).contains(#""event":"position""#))
    }

    /// A full disk stops the file it fills, says so once, counts what it lost, and the caller and
    /// the other files go on (issue #29: one full file stopped all three, and the summary still
    /// said the events were recorded).
    @Test func fullDiskStopsLoggingOnly() throws {
        let dir = tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let folder = (dir as NSString).appendingPathComponent("full")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: (folder as NSString).appendingPathComponent("events.jsonl"), withDestinationPath: "/dev/full")
        var problems = [String]()
        let r = try DriveRecorder(existingFolder: folder) { problems.append($0) }
        r.retrySeconds = 0  // (tried again at every flush: still full, still said once)
        for i in 0..<5 {
            r.record(NavigationEvent(time: 1_718_452_800 + Double(i), .position(lat: 43.7, lon: 7.4, speedMps: 10, courseDeg: 90, road: "",
                                                                                snapped: nil, estimated: false)))
            r.recordNMEA("$GPGSA,A,1,,,,,,,,,,,,,,,*1E")
            r.flush()
        }
        #expect(r.hasStopped)
        #expect(problems.count == 1, "\(problems)")
        #expect(problems.first?.contains("events.jsonl stopped (No space left on device)") == true, "\(problems)")
        #expect(r.losses == [DriveRecorder.Loss(file: "events.jsonl", lines: 5, reason: "No space left on device")])
        #expect(DriveRecorder.lossText(r.losses) == "the drive log is incomplete: events.jsonl lost 5 lines (No space left on device)")
        r.close()
        // the other two files have every line
        #expect(try String(contentsOfFile: r.trackPath, encoding: .utf8).split(separator: "\n").count == 5)
        #expect(try String(contentsOfFile: r.rawPath, encoding: .utf8).components(separatedBy: "\r\n").count == 6)
    }
}
