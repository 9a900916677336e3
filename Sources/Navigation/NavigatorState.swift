/// The navigator's named states (Mapbox v3's idle / free drive / active guidance, with the
/// guidance sub-states of the SDKs' should/will/did reroute and arrival per waypoint).
///
/// A route is held exactly in `.guiding` and `.arrived` (and in `.freeDrive` after a failed
/// start request, where the old route is kept only to be compared with the next one).
public enum NavigatorState: Hashable, Sendable {
    /// No destination, nothing tracked yet.
    case idle
    /// Positions are tracked (road name, speeding, lighting); a destination may be waiting for
    /// its first route.
    case freeDrive
    /// Following a route.
    case guiding(Guiding)
    /// At the destination: nothing more is said.
    case arrived

    public enum Guiding: Hashable, Sendable {
        /// On the route: progress and prompts.
        case tracking
        /// Judged off the route; a reroute is under way or waits (the policy, the back-off).
        case offRoute
        /// On an estimated position (no fix: a tunnel, gpsd gone): dead reckoned along the route,
        /// prompts go on, off-route is not judged.
        case uncertain
        /// A reroute was requested; positions wait for its answer.
        case rerouting
        /// Stopped at an intermediate waypoint until told to continue.
        case atWaypoint
    }

    /// The name the console, `tern ctl status` and the tests print (the names before the states
    /// were nested: "tracking", "waypoint", ...).
    public var name: String {
        switch self {
        case .idle: "idle"
        case .freeDrive: "freeDrive"
        case .arrived: "arrived"
        case .guiding(.tracking): "tracking"
        case .guiding(.offRoute): "offRoute"
        case .guiding(.uncertain): "uncertain"
        case .guiding(.rerouting): "rerouting"
        case .guiding(.atWaypoint): "waypoint"
        }
    }

    /// Following a route or arrived: the status line shows the route, not a receiver problem.
    public var hasRoute: Bool {
        if case .idle = self { return false }
        if case .freeDrive = self { return false }
        return true
    }

    /// Shorthands for the guidance sub-states.
    public static let tracking = NavigatorState.guiding(.tracking)
    public static let offRoute = NavigatorState.guiding(.offRoute)
    public static let uncertain = NavigatorState.guiding(.uncertain)
    public static let rerouting = NavigatorState.guiding(.rerouting)
    public static let atWaypoint = NavigatorState.guiding(.atWaypoint)
}
