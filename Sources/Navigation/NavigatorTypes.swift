import Geo
import Guidance
import MapMatching
import Positioning
import Routing

/// A route with its maneuvers per leg: what the navigator follows.
public struct NavigationRoute: Sendable {
    public var route: Route
    /// Maneuvers of each leg (depart first, arrive last).
    public var maneuvers: [[Maneuver]]
    public init(route: Route, maneuvers: [[Maneuver]]) {
        self.route = route
        self.maneuvers = maneuvers
    }
}

/// Why a route was computed.
public enum RouteReason: String, Sendable {
    case start, reroute, traffic, waypoint
}

/// A route the navigator needs; the caller computes it and answers with `.routeComputed(id:...)`
/// or `.routeFailed(id:...)`. A result for an older id is ignored.
public struct RouteRequest: Sendable, Equatable {
    public var id: Int
    public var reason: RouteReason
    public var origin: Coordinate
    public var headingDegrees: Double?
    /// Where to go, in order (remaining vias, then the destination).
    public var waypoints: [Coordinate]
    public var time: Double
}

/// A prompt to speak.
public struct Prompt: Sendable, Equatable {
    public var text: String
    public var locale: String
    public var kind: PromptKind
    public var maneuver: Maneuver?
    /// The maneuver said with it ("..., then ..."), if any.
    public var then: Maneuver?

    public init(text: String, locale: String, kind: PromptKind, maneuver: Maneuver?, then: Maneuver? = nil) {
        self.text = text
        self.locale = locale
        self.kind = kind
        self.maneuver = maneuver
        self.then = then
    }
}

/// Inputs of the navigator. Each carries its time; the navigator has no clock.
public enum NavigatorInput: Sendable {
    case position(FilteredPosition, MatchedPosition?)
    case discarded(time: Double, reason: DiscardReason)
    case setDestination([Coordinate], time: Double)
    case cancel(time: Double)
    case routeComputed(id: Int, NavigationRoute, time: Double)
    case routeFailed(id: Int, error: String, time: Double)
    case gpsLost(time: Double)
    case gpsRecovered(time: Double)
}

/// What the navigator asks its owner to do.
public enum NavigatorEffect: Sendable {
    case emit(NavigationEvent)
    case requestRoute(RouteRequest)
    case speak(Prompt)
}

/// Tuning of the navigator, with the seed SDKs' defaults.
public struct NavigatorConfig: Sendable {
    /// BCP 47 locale of prompts ("en-GB").
    public var locale = "en-GB"
    public var units: UnitSystem = .metric
    /// Progress is emitted when the remaining distance changed this much, or this much time passed
    /// (Google's distanceUpdateThreshold / timeUpdateThreshold), and at every new step.
    public var distanceUpdateThresholdMeters = 25.0
    public var timeUpdateThresholdSeconds = 5.0
    /// Off route when farther than max(this, 2 × accuracy) from the route for `offRouteFixes` fixes.
    public var offRouteDistanceMeters = 50.0
    public var offRouteFixes = 3
    /// No second reroute before the car moved this far from where the last one started.
    public var rerouteMinimumMovementMeters = 50.0
    /// A waypoint is reached within this distance of it (along the route).
    public var arrivalDistanceMeters = 20.0
    /// Seconds from deciding to speak to the end of the audio start-up (measured per device); the
    /// prompt plan speaks that much earlier.
    public var speechLatencySeconds = 0.3
    /// Speaking time per character of prompt text; nil: the locale's estimate.
    public var speechSecondsPerCharacter: Double?
    /// Seconds between the end of a "now" prompt and the maneuver, at the least.
    public var promptMarginSeconds = 1.5
    public init() {}
}
