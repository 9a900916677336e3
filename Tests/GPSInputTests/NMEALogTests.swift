import Foundation
import GPSInput
import TestSupport
import Testing

/// Every plain NMEA log from gpsd's regression suite, read by the offline NMEA reader.
@Suite struct NMEALogTests {
    static let logs = SharedData.files(in: "gpsd", suffix: ".log")

    @Test(.enabled(if: SharedData.isAvailable, Comment(rawValue: SharedData.missingMessage))) func logsArePresent() throws {
        #expect(Self.logs.count == 116)
    }

    /// Logs where gpsd reports nothing at all (empty `.chk`) though the log holds valid fixes.
    static let gpsdSilent: Set<String> = [
        "hp58534a.log",  // no checksums and no RMC: gpsd never reports; the reader accepts its 2 GGA+ZDA fixes
    ]

    /// The reader never traps, and every position it reports is one gpsd reports for the log
    /// (its `.chk` file): the same point, or one within 5 m (gpsd sometimes takes an epoch's
    /// position from another of its sentences, which differ in the last digits).
    @Test(arguments: logs)
    func readerAgreesWithGpsd(log: String) throws {
        let path = SharedData.path("gpsd/\(log)")
        let (fixes, stats) = try NMEAFile.read(path: path)
        #expect(stats.lines > 0)
        let chk = try GpsdCheckFile(path: path + ".chk")
        let known = chk.positions
        var unmatched = 0
        for f in fixes where !known.contains(where: { abs($0.0 - f.coordinate.latitude) < 5e-5 && abs($0.1 - f.coordinate.longitude) < 8e-5 }) {
            unmatched += 1
        }
        if Self.gpsdSilent.contains(log) {
            #expect(known.isEmpty)
            return
        }
        // gpsd reports at least the positions we do; a few epochs may differ where gpsd merges
        // sentences across epochs in ways a plain reader does not.
        #expect(unmatched <= max(1, fixes.count / 20), "\(log): \(unmatched) of \(fixes.count) positions not in the .chk")
        if known.isEmpty { #expect(fixes.count == 0, "\(log): gpsd reports no position but the reader found \(fixes.count)") }
    }
}

/// The TPV reports of a gpsd `.chk` file (one JSON object per line).
struct GpsdCheckFile {
    var tpvs: [[String: Any]] = []
    init(path: String) throws {
        let text = try String(contentsOfFile: path, encoding: .utf8)
        for line in text.split(whereSeparator: \.isNewline) where line.contains("\"class\":\"TPV\"") {
            if let obj = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] { tpvs.append(obj) }
        }
    }
    /// (lat, lon) of TPVs with a 2D/3D fix.
    var positions: [(Double, Double)] {
        tpvs.compactMap { t in
            guard let m = t["mode"] as? Int, m >= 2, let lat = t["lat"] as? Double, let lon = t["lon"] as? Double else { return nil }
            return (lat, lon)
        }
    }
}
