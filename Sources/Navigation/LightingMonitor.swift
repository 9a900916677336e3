import Geo
import Positioning

/// The suggested lighting (day, twilight, night) from the sun's elevation at the position and
/// fix time, reported when it changes, with a little hysteresis so that it does not flicker at
/// a boundary.
struct LightingMonitor: Sendable {
    let dayAboveDegrees: Double
    let nightBelowDegrees: Double
    let hysteresisDegrees: Double
    /// The lighting last suggested, and the fix time it was last worked out at.
    private(set) var mode: String?
    private var lastCheck: Double?

    init(config: NavigatorConfig) {
        dayAboveDegrees = config.dayAboveDegrees
        nightBelowDegrees = config.nightBelowDegrees
        hysteresisDegrees = config.lightingHysteresisDegrees
    }

    mutating func update(_ p: FilteredPosition) -> NavigationEvent? {
        // the sun moves a quarter of a degree a minute: once a minute of fix time is enough
        if let last = lastCheck, p.time - last < 60, p.time >= last { return nil }
        lastCheck = p.time
        let e = SolarPosition.elevationDegrees(at: p.coordinate, time: p.time)
        let day = dayAboveDegrees, night = nightBelowDegrees, h = hysteresisDegrees
        let next: String
        if let current = mode {
            // a change only when the sun is past the boundary by the hysteresis
            if e > day + h { next = "day" } else if e < night - h { next = "night" } else if e < day - h && e > night + h { next = "twilight" }
            else { next = current }
        } else {
            next = e >= day ? "day" : (e < night ? "night" : "twilight")
        }
        guard next != mode else { return nil }
        mode = next
        return NavigationEvent(time: p.time, .lighting(mode: next))
    }
}
