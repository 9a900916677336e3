import Geo
import Guidance
import MapMatching
import Navigation

/// What reaches the drive engine. The appliance, the bench and the tests give it the same inputs;
/// only where they come from differs (gpsd or a log, the console or a test, a worker or the caller
/// answering route requests).
public enum DriveInput: Sendable {
    /// One receiver epoch; a fix below 2D is an epoch without a fix.
    case fix(GPSFix)
    /// An epoch without a fix (a tunnel: gpsd still reports, the receiver sees no sky).
    case noFix(time: Double)
    /// The receiver or gpsd went away (the reason is shown on the status line until a fix returns).
    case receiverLost(reason: String)
    /// The appliance's clock, at least once a second, in drive time (`DriveClock`): keeps the
    /// status line and dead reckoning going when nothing at all comes from gpsd.
    case tick(time: Double)
    /// A command (destination, cancel, continue, reroute, traffic changed) or the answer to a
    /// route request (`routeComputed`, `routeFailed`, `trafficAnswer`), for the navigator.
    case navigator(NavigatorInput)
}

/// What the drive engine asks of its owner, in order.
public enum DriveEffect: Sendable {
    /// An event for the drive log and listeners.
    case event(NavigationEvent)
    /// A prompt to speak now.
    case speak(Prompt)
    /// Stop the prompt being spoken and drop queued ones.
    case silence
    /// A route to compute; its answer comes back as `.navigator(...)`. An answer to an older
    /// request is dropped by the navigator (its id is no longer awaited).
    case requestRoute(RouteRequest)
    /// The status line's content: once a second of drive time whatever the fix, and at once when
    /// the state changes.
    case status(DriveStatus)
}

/// What the status line shows, as values (the console formats it).
public struct DriveStatus: Sendable, Equatable {
    public var state: NavigatorState
    public var progress: RouteProgress?
    public var speedMetersPerSecond: Double?
    /// nil: no fix (a tunnel, no receiver).
    public var fixMode: FixMode?
    public var time: Double
    public var road: String?
    public var units: UnitSystem
    /// Why there is no receiver (gpsd gone), until a fix returns.
    public var receiverProblem: String?
    /// The posted limit of the road the car is on, km/h (nil: not mapped).
    public var speedLimitKmh: Double?

    public init(state: NavigatorState, progress: RouteProgress?, speedMetersPerSecond: Double?, fixMode: FixMode?, time: Double,
                road: String?, units: UnitSystem, receiverProblem: String? = nil, speedLimitKmh: Double? = nil) {
        self.state = state
        self.progress = progress
        self.speedMetersPerSecond = speedMetersPerSecond
        self.fixMode = fixMode
        self.time = time
        self.road = road
        self.units = units
        self.receiverProblem = receiverProblem
        self.speedLimitKmh = speedLimitKmh
    }
}
