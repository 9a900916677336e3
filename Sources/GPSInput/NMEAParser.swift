import FoundationEssentials
import Glibc
import Platform
import Geo

/// Counts of what an NMEA reader saw.
public struct NMEAStats: Sendable, Equatable {
    public var lines = 0
    public var sentences = 0
    /// Sentences whose checksum did not match: skipped.
    public var badChecksum = 0
    /// Sentences without a checksum: accepted (some receivers send none), counted.
    public var missingChecksum = 0
    /// Lines that are not an NMEA sentence, or sentences whose fields could not be read: skipped.
    public var malformed = 0
    /// Valid sentences of types Tern does not use (GSV, proprietary...).
    public var ignored = 0
    public var fixes = 0
    public init() {}
    public var skipped: Int { badChecksum + malformed }
}

/// Assembles fixes from NMEA 0183 sentences (RMC, GGA, GSA, GNS, GST, VTG, ZDA; any talker).
/// A fix is emitted per epoch (the sentences sharing one time of day). Never traps on input.
public struct NMEAParser: Sendable {
    public private(set) var stats = NMEAStats()
    /// Also return epochs without a fix (mode .noFix, no position) when they carry a date and time:
    /// an outage keeps its clock, so a replay can dead-reckon through it.
    public var reportsNoFix = false

    private struct Epoch {
        var timeOfDay: Double?
        var coordinate: Coordinate?
        var valid: Bool?
        var quality: Int?
        var speed: Double?
        var course: Double?
        var altitude: Double?
        var hdop: Double?
        var satellites: Int?
        var gsaMode: Int?
        var latSigma: Double?, lonSigma: Double?
        var dateSeen = false
        var hasData: Bool { coordinate != nil || valid != nil || gsaMode != nil }
    }
    private var epoch = Epoch()
    private var date: (year: Int, month: Int, day: Int)?
    /// The last time of day seen, to roll the date over at midnight.
    private var lastTimeOfDay: Double?

    public init() {}

    /// Feeds one line; returns a fix when the line closed an epoch that had one.
    public mutating func feed(line raw: String) -> GPSFix? {
        stats.lines += 1
        guard let (fields, checksum) = sentence(raw) else {
            if !raw.trimmed().isEmpty && !raw.hasPrefix("#") { stats.malformed += 1 }
            return nil
        }
        stats.sentences += 1
        switch checksum {
        case .bad: stats.badChecksum += 1; return nil
        case .missing: stats.missingChecksum += 1
        case .good: break
        }
        let type = fields[0].utf8.count >= 5 ? String(NMEAParser.part(fields[0], fields[0].utf8.count - 3)) : ""
        guard fields[0].first != "P" else { stats.ignored += 1; return nil }
        var out: GPSFix?
        switch type {
        case "RMC", "GGA", "GNS", "GLL":
            guard let t = fields.count > (type == "GLL" ? 5 : 1) ? NMEAParser.timeOfDay(type == "GLL" ? fields[5] : fields[1]) : nil else {
                // an empty time is a receiver without a fix yet, not a malformed sentence
                let timeField = type == "GLL" ? (fields.count > 5 ? fields[5] : "") : (fields.count > 1 ? fields[1] : "")
                if timeField.isEmpty { stats.ignored += 1 } else { stats.malformed += 1 }
                return nil
            }
            if let prev = epoch.timeOfDay, abs(prev - t) > 0.0005 { out = flush() }
            epoch.timeOfDay = t
            if !apply(type, fields) { stats.malformed += 1 }
        case "GSA":
            if fields.count > 2, let m = Int(fields[2]) { epoch.gsaMode = m }
            if fields.count > 16, let h = NMEAParser.number(fields[16]) { epoch.hdop = epoch.hdop ?? h }
        case "GST":
            if fields.count > 7 {
                epoch.latSigma = NMEAParser.number(fields[6])
                epoch.lonSigma = NMEAParser.number(fields[7])
            }
        case "VTG":
            if fields.count > 7 {
                if let c = NMEAParser.number(fields[1]) { epoch.course = epoch.course ?? c }
                if let kmh = NMEAParser.number(fields[7]) { epoch.speed = epoch.speed ?? kmh / 3.6 }
            }
        case "ZDA":
            // (a date no calendar has, a year of 3000000000, is not taken: the RMC's date stands)
            if fields.count > 4, let d = Int(fields[2]), let m = Int(fields[3]), let y = Int(fields[4]),
               FixTime.utc(year: y, month: m, day: d, hour: 0, minute: 0, second: 0) != nil {
                date = (y, m, d)
                epoch.dateSeen = true
            }
        default:
            stats.ignored += 1
        }
        return out
    }

    /// Ends the input: returns the last epoch's fix, if any.
    public mutating func finish() -> GPSFix? { flush() }

    private mutating func apply(_ type: String, _ f: [Substring]) -> Bool {
        switch type {
        case "RMC":
            guard f.count >= 10 else { return false }
            epoch.valid = f[2] == "A"
            if let c = NMEAParser.coordinate(f[3], f[4], f[5], f[6]) { epoch.coordinate = c }
            if let kn = NMEAParser.number(f[7]) { epoch.speed = kn * Speed.metersPerSecondPerKnot }
            if let c = NMEAParser.number(f[8]) { epoch.course = c }
            if f[9].utf8.count == 6, let d = Int(NMEAParser.part(f[9], 0, 2)), let m = Int(NMEAParser.part(f[9], 2, 4)), let y = Int(NMEAParser.part(f[9], 4)),
               y >= 0, FixTime.utc(year: 2000 + y, month: m, day: d, hour: 0, minute: 0, second: 0) != nil {
                date = (y < 80 ? 2000 + y : 1900 + y, m, d)
                epoch.dateSeen = true
            }
            if f.count > 12, f[12] == "N" { epoch.valid = false }
        case "GGA":
            guard f.count >= 10 else { return false }
            var q = Int(f[6]) ?? 0
            // A fix from no satellites is not a fix (gpsd 3.22 agrees: hemi.log).
            if let s = Int(f[7]), s == 0 { q = 0 }
            epoch.quality = q
            // The later sentence of an epoch wins, as in gpsd (RMC and GGA may differ in the last digit).
            if q > 0, let c = NMEAParser.coordinate(f[2], f[3], f[4], f[5]) { epoch.coordinate = c }
            epoch.satellites = Int(f[7])
            if let h = NMEAParser.number(f[8]) { epoch.hdop = h }
            if q > 0, let a = NMEAParser.number(f[9]) { epoch.altitude = a }
        case "GLL":
            guard f.count >= 7 else { return false }
            if f[6] == "A", let c = NMEAParser.coordinate(f[1], f[2], f[3], f[4]) { epoch.coordinate = c; epoch.valid = epoch.valid ?? true }
        case "GNS":
            guard f.count >= 10 else { return false }
            let modes = f[6]
            let ok = modes.contains { $0 != "N" } && !modes.isEmpty
            epoch.quality = ok ? 1 : 0
            if ok, let c = NMEAParser.coordinate(f[2], f[3], f[4], f[5]) { epoch.coordinate = c }
            epoch.satellites = Int(f[7])
            if let h = NMEAParser.number(f[8]) { epoch.hdop = h }
            if ok, let a = NMEAParser.number(f[9]) { epoch.altitude = a }
        default: break
        }
        return true
    }

    private mutating func flush() -> GPSFix? {
        defer { epoch = Epoch() }
        guard epoch.hasData, let tod = epoch.timeOfDay else { return nil }
        let valid = epoch.valid ?? ((epoch.quality ?? 0) > 0)
        var mode: FixMode = epoch.altitude != nil ? .threeD : .twoD
        if let m = epoch.gsaMode { mode = m >= 3 ? .threeD : (m == 2 ? .twoD : .noFix) }
        guard let c = epoch.coordinate, c.isValid, valid, (epoch.quality ?? 1) > 0, mode >= .twoD else {
            guard reportsNoFix, let d = date else { return nil }
            let t = FixTime.utc(year: d.year, month: d.month, day: d.day, hour: Int(tod / 3600),
                                minute: Int(tod.truncatingRemainder(dividingBy: 3600) / 60), second: tod.truncatingRemainder(dividingBy: 60))
            return t.map { GPSFix(time: $0, coordinate: Coordinate(latitude: .nan, longitude: .nan), mode: .noFix) }
        }
        var time: Double?
        if let d = date {
            // midnight passed without a sentence carrying the new date
            if !epoch.dateSeen, let last = lastTimeOfDay, tod + 43_200 < last { date = NMEAParser.nextDay(d) }
            let dd = date!
            time = FixTime.utc(year: dd.year, month: dd.month, day: dd.day, hour: Int(tod / 3600),
                               minute: Int(tod.truncatingRemainder(dividingBy: 3600) / 60), second: tod.truncatingRemainder(dividingBy: 60))
        }
        lastTimeOfDay = tod
        guard let t = time else { return nil }  // no date yet: a time of day alone cannot order drives
        var eph: Double?
        if let a = epoch.latSigma, let b = epoch.lonSigma { eph = 2 * (a * a + b * b).squareRoot() }
        stats.fixes += 1
        return GPSFix(time: t, coordinate: c, mode: mode, speedMetersPerSecond: epoch.speed, courseDegrees: epoch.course,
                      altitudeMeters: epoch.altitude, horizontalErrorMeters: eph, hdop: epoch.hdop,
                      satellitesUsed: epoch.satellites)
    }

    enum Checksum { case good, bad, missing }

    /// Splits a line into fields; nil if it holds no sentence. Tolerates leading garbage, "$$", CR/LF.
    private func sentence(_ raw: String) -> ([Substring], Checksum)? {
        // (on the UTF-8 bytes: every byte looked for is ASCII, and a Character walk costs a
        // grapheme break test per byte; an ASCII byte's index is a valid String index)
        let u = raw.utf8
        var end = u.endIndex
        while end > u.startIndex {
            let b = u[u.index(before: end)]
            guard b == 0x0d || b == 0x0a || b == 0x20 else { break }
            end = u.index(before: end)
        }
        guard var start = u[..<end].firstIndex(of: UInt8(ascii: "$")) else { return nil }
        start = u.index(after: start)
        while start < end, u[start] == UInt8(ascii: "$") { start = u.index(after: start) }
        var bodyEnd = end
        var checksum = Checksum.missing
        if let star = u[start..<end].lastIndex(of: UInt8(ascii: "*")) {
            bodyEnd = star
            let hex = u[u.index(after: star)..<end]
            guard hex.count == 2, let hi = NMEAParser.hexDigit(hex[hex.startIndex]), let lo = NMEAParser.hexDigit(hex[hex.index(after: hex.startIndex)]) else {
                return (Array(raw[start..<bodyEnd].split(separator: ",", omittingEmptySubsequences: false)), .bad)
            }
            var x: UInt8 = 0
            for b in u[start..<bodyEnd] { x ^= b }
            checksum = x == hi << 4 | lo ? .good : .bad
        }
        let body = raw[start..<bodyEnd]
        guard body.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7f }) else { return checksum == .bad ? ([body], .bad) : nil }
        // (split on the bytes: the body is printable ASCII here)
        var fields = [Substring]()
        fields.reserveCapacity(24)
        var fieldStart = start
        var i = start
        while i < bodyEnd {
            if u[i] == UInt8(ascii: ",") {
                fields.append(raw[fieldStart..<i])
                fieldStart = u.index(after: i)
            }
            i = u.index(after: i)
        }
        fields.append(raw[fieldStart..<bodyEnd])
        // (ASCII letters and digits by byte: Character's isLetter looks up Unicode properties)
        guard let first = fields.first, first.utf8.count >= 3,
              first.utf8.allSatisfy({ ($0 >= 0x30 && $0 <= 0x39) || ($0 | 0x20 >= 0x61 && $0 | 0x20 <= 0x7a) }) else {
            return checksum == .bad ? (fields, .bad) : nil
        }
        return (fields, checksum)
    }

    static func nextDay(_ d: (year: Int, month: Int, day: Int)) -> (year: Int, month: Int, day: Int) {
        guard let t = FixTime.utc(year: d.year, month: d.month, day: d.day, hour: 12, minute: 0, second: 0) else { return d }
        var tt = time_t(t + 86_400)
        var tmv = tm()
        gmtime_r(&tt, &tmv)
        return (Int(tmv.tm_year) + 1900, Int(tmv.tm_mon) + 1, Int(tmv.tm_mday))
    }
}
