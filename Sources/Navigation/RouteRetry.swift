import Geo

/// Route requests after failures (issue #24: 64 failed reroutes in 2.5 minutes on a closed road,
/// one per fix). The first `freeFailures` failures in a row are retried at once, as before;
/// after them the next request waits 10 s, doubling with each failure up to 2 minutes, or until
/// the car has moved `retryAfterMeters` (it may have reached a road the router can use). A route
/// found ends the back-off.
struct RouteRetry {
    static let freeFailures = 3
    static let firstDelaySeconds = 10.0
    static let maxDelaySeconds = 120.0
    static let retryAfterMeters = 150.0

    /// Failed requests in a row.
    private(set) var failures = 0
    private var notBefore: (time: Double, place: Coordinate)?

    /// Records a failure at `time` with the car at `place`.
    mutating func failed(time: Double, at place: Coordinate) {
        failures += 1
        guard failures >= RouteRetry.freeFailures else { return }
        // (10, 20, 40, 80 s, then the cap: four doublings reach it)
        let doublings = min(failures - RouteRetry.freeFailures, 4)
        let delay = min(RouteRetry.maxDelaySeconds, RouteRetry.firstDelaySeconds * Double(1 << doublings))
        notBefore = (time + delay, place)
    }

    mutating func succeeded() { self = RouteRetry() }

    /// Whether a new request may go out now.
    func mayRequest(time: Double, at place: Coordinate) -> Bool {
        guard let n = notBefore else { return true }
        return time >= n.time || place.distance(to: n.place) >= RouteRetry.retryAfterMeters
    }
}
