/// Traffic on the route being followed: when to look for a faster route (Mapbox's defaults: every
/// `trafficCheckSeconds` while more than `trafficCheckMinimumRemainingSeconds` remain), the delay
/// category last reported, and how far the route's remaining time is off its own estimate under
/// the latest traffic.
struct TrafficMonitor: Sendable {
    let checkSeconds: Double
    let minimumRemainingSeconds: Double
    /// When the route was last checked (nil: never, no route yet).
    private(set) var lastCheck: Double?
    private(set) var category: String?
    /// Seconds the traffic adds to the current route's remaining time (0 at free flow, or before
    /// any answer on this route).
    private(set) var correctionSeconds = 0.0

    init(config: NavigatorConfig) {
        checkSeconds = config.trafficCheckSeconds
        minimumRemainingSeconds = config.trafficCheckMinimumRemainingSeconds
    }

    /// A route was taken: the correction is for the old one. A traffic check's own answer keeps
    /// the check's time; any other route starts the interval afresh.
    mutating func routeTaken(reason: RouteReason, time: Double) {
        correctionSeconds = 0
        if lastCheck == nil || reason != .traffic { lastCheck = time }
    }

    /// Traffic has been given (a feed, the driver's `traffic` command). Only then can a route
    /// from here be faster than the rest of the one being followed, so only then are periodic
    /// checks due: at free flow everywhere the answer is the same route, and each check cost an
    /// alternatives search (3 routes) every two minutes of every drive.
    private(set) var trafficGiven = false

    /// Whether the route is due for a check at `time`, with `remainingSeconds` left to drive;
    /// when it is, the check counts as made.
    mutating func checkDue(time: Double, remainingSeconds: Double) -> Bool {
        guard trafficGiven, remainingSeconds > minimumRemainingSeconds, time - (lastCheck ?? time) >= checkSeconds else { return false }
        lastCheck = time
        return true
    }

    /// A check asked for now (traffic changed).
    mutating func checked(at time: Double) { lastCheck = time }

    /// Traffic was given or changed.
    mutating func trafficChanged() { trafficGiven = true }

    /// The answer for the current route: `currentSeconds` under traffic and `freeSeconds` at free
    /// flow for the roads ahead. Returns the delay, and the category event when the category
    /// changed (none under 5% or 30 s, light under 15%, medium under 35%, heavy).
    mutating func answer(currentSeconds c: Double, freeSeconds free: Double, time: Double) -> (delay: Double, event: NavigationEvent?) {
        let delay = max(0, c - free)
        correctionSeconds = delay
        let ratio = free > 0 ? delay / free : 0
        let next = ratio < 0.05 || delay < 30 ? "none" : ratio < 0.15 ? "light" : ratio < 0.35 ? "medium" : "heavy"
        guard next != category else { return (delay, nil) }
        category = next
        return (delay, NavigationEvent(time: time, .delayCategory(category: next, delaySeconds: delay)))
    }
}
