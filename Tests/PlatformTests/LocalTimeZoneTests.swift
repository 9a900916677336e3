import Foundation
import Platform
import Testing

/// Local time from the C library's tz database agrees with Foundation's TimeZone.
@Suite struct LocalTimeZoneTests {
    @Test(arguments: ["Europe/Berlin", "America/New_York", "Asia/Kolkata", "Australia/Lord_Howe", "UTC"])
    func offsetsAsFoundation(zone: String) throws {
        let local = try #require(LocalTime(identifier: zone))
        let tz = try #require(TimeZone(identifier: zone))
        for t in stride(from: 1_700_000_000.0, to: 1_760_000_000, by: 2_500_000) {
            #expect(local.secondsFromUTC(at: t) == tz.secondsFromGMT(for: Date(timeIntervalSince1970: t)), "\(zone) at \(t)")
        }
    }

    @Test func unknownZonesAreRefused() {
        for bad in ["Mars/Olympus", "", "../etc/passwd", "/etc/localtime", "Europe/../../etc"] {
            #expect(LocalTime(identifier: bad) == nil, "\(bad)")
        }
    }
}
