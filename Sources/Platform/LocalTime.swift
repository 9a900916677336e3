import Glibc

/// The offset of local time from UTC, from the C library's time-zone database (/usr/share/zoneinfo).
///
/// Why not Foundation's TimeZone: without ICU (FoundationEssentials only, issue #27) it knows no
/// named zones. The C library reads the same tz database that Debian keeps up to date, through
/// the process-wide TZ: the appliance sets it once (`use`), so the offset on every fix is one
/// `localtime_r`; a zone other than the process's (a test comparing zones) sets TZ for the call.
public struct LocalTime: Sendable {
    /// The zone's name ("Europe/Berlin"), or nil for the system's zone (TZ, /etc/localtime).
    public let identifier: String?

    /// The system's zone.
    public static let system = LocalTime(checked: nil)

    /// A named zone from the tz database; nil when there is no such zone.
    public init?(identifier: String) {
        guard LocalTime.isKnown(identifier) else { return nil }
        self.init(checked: identifier)
    }

    private init(checked identifier: String?) { self.identifier = identifier }

    /// Whether the tz database has a zone of that name.
    public static func isKnown(_ identifier: String) -> Bool {
        identifier == "UTC" || identifier == "GMT"
            || (!identifier.isEmpty && !identifier.hasPrefix("/") && !identifier.contains("..")
                && access("/usr/share/zoneinfo/" + identifier, R_OK) == 0)
    }

    /// Makes the named zone the process's local time (`timezone =` in tern.conf); nil when unknown.
    public static func use(_ identifier: String) -> LocalTime? {
        guard let zone = LocalTime(identifier: identifier) else { return nil }
        lock.withLock {
            setenv("TZ", identifier, 1)
            tzset()
            processZone = identifier
        }
        return zone
    }

    /// Seconds to add to UTC for local time at `time` (seconds since the epoch), summer time included.
    public func secondsFromUTC(at time: Double) -> Int {
        LocalTime.lock.withLock {
            let other = identifier != nil && identifier != LocalTime.processZone
            if other, let identifier { setenv("TZ", identifier, 1); tzset() }
            defer {
                if other {
                    if let zone = LocalTime.processZone { setenv("TZ", zone, 1) } else { unsetenv("TZ") }
                    tzset()
                }
            }
            var t = time_t(time.rounded(.down))
            var parts = tm()
            guard localtime_r(&t, &parts) != nil else { return 0 }
            return Int(parts.tm_gmtoff)
        }
    }

    private static let lock = Lock()
    // guarded by `lock`; nil: TZ as the process started (the system's zone)
    nonisolated(unsafe) private static var processZone: String?
}
