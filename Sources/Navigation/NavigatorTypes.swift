import Geo
import Guidance
import MapData
import MapMatching
import Positioning
import Routing

/// A route with its maneuvers per leg: what the navigator follows.
public struct NavigationRoute: Sendable {
    public var route: Route
    /// Maneuvers of each leg (depart first, arrive last).
    public var maneuvers: [[Maneuver]]
    /// Where the posted limit changes along each leg (empty: not known).
    public var speedLimits: [[SpeedLimitChange]]
    public init(route: Route, maneuvers: [[Maneuver]], speedLimits: [[SpeedLimitChange]] = []) {
        self.route = route
        self.maneuvers = maneuvers
        self.speedLimits = speedLimits
    }
}

/// From `startMeters` along a leg on, the posted limit is `limitKmh` (nil: none mapped).
public struct SpeedLimitChange: Sendable, Equatable {
    public var startMeters: Double
    public var limitKmh: Double?
    public init(startMeters: Double, limitKmh: Double?) {
        self.startMeters = startMeters
        self.limitKmh = limitKmh
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
    /// A full recalculation (the reroute loop guard tripped): the router should not constrain the
    /// start by the heading nor prefer the previous route.
    public var full = false
    /// For a reroute: the old route's edges still ahead. Among routes nearly as fast as the best,
    /// the one driving most of these is preferred (Mapbox's mostSimilar, Navmii).
    public var previousEdges: [DirectedEdge] = []

    public init(id: Int, reason: RouteReason, origin: Coordinate, headingDegrees: Double?, waypoints: [Coordinate], time: Double) {
        self.id = id
        self.reason = reason
        self.origin = origin
        self.headingDegrees = headingDegrees
        self.waypoints = waypoints
        self.time = time
    }
    /// Where to go, in order (remaining vias, then the destination).
    public var waypoints: [Coordinate]
    public var time: Double
}

/// A route considered besides the one taken: its time under the traffic, its length, and whether
/// it drives mostly (60% or more of its roads) the route the car was on.
public struct RouteAlternative: Sendable, Equatable {
    public var durationSeconds: Double
    public var distanceMeters: Double
    public var resemblesPrevious: Bool
    public init(durationSeconds: Double, distanceMeters: Double, resemblesPrevious: Bool) {
        self.durationSeconds = durationSeconds
        self.distanceMeters = distanceMeters
        self.resemblesPrevious = resemblesPrevious
    }
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
    /// A position with the matcher's road; `unbiased`: the road a matcher without the route's
    /// prior gives (while guiding), which tells a car leaving the route at a slowly parting fork
    /// sooner than the route-held answer does.
    case position(FilteredPosition, MatchedPosition?, unbiased: MatchedPosition? = nil)
    case discarded(time: Double, reason: DiscardReason)
    case setDestination([Coordinate], time: Double)
    case cancel(time: Double)
    case routeComputed(id: Int, NavigationRoute, time: Double)
    case routeFailed(id: Int, error: String, time: Double)
    case gpsLost(time: Double)
    case gpsRecovered(time: Double)
    /// Go on to the next waypoint after stopping at one (`tern ctl continue`, the SDKs'
    /// didArriveAt returning false, then the user's go-ahead).
    case continueRoute(time: Double)
    /// Reroute now (when `automaticReroute` is off, or on the driver's request).
    case reroute(time: Double)
    /// Traffic changed (a file was loaded, a closure typed): check the route now.
    case trafficChanged(time: Double)
    /// The speech thread's real timings, in drive time: a prompt's audio started and will end at
    /// `endsAt` (its length is known once synthesised), or the speaker fell silent at `time`
    /// (the prompt ended or was cut off, nothing queued). They replace the estimate from the
    /// text's length, which only says when the next prompt may start.
    case speechStarted(endsAt: Double)
    case speechEnded(time: Double)
    /// The answer to a `.traffic` request: the best route under traffic (nil when there is none),
    /// and the time still to drive on the current route under traffic (nil: it is closed) and at
    /// free flow.
    /// `alternatives`: other routes considered, with their times under the traffic (reported with
    /// a switch, as Navmii's onReroutingByTrafficOccurred).
    case trafficAnswer(id: Int, route: NavigationRoute?, currentSeconds: Double?, freeSeconds: Double, time: Double,
                       alternatives: [RouteAlternative] = [])
}

/// What the navigator asks its owner to do.
public enum NavigatorEffect: Sendable {
    case emit(NavigationEvent)
    case requestRoute(RouteRequest)
    case speak(Prompt)
    /// Stop what is being said and drop what is queued: it was for a route the car has left.
    case silence
}

/// How off route is decided: Tern's own anchors (default), Mapbox's (50 m halved near a
/// maneuver, 4 disagreeing courses) or OsmAnd's (2 × (30 m + accuracy), wrong direction).
public enum OffRoutePolicy: String, Sendable, CaseIterable {
    case tern, mapbox, osmand
}

/// Why a position was judged off the route (the `reason` of the `offRoute` event).
public enum OffRouteReason: String, Sendable {
    case distance, course, road, drift, backtracking

    /// Judged by where the car is, not by its course (trusted right after a tunnel too).
    var isByPlace: Bool { self == .distance || self == .road }
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
    /// Whose anchors decide off route (see `OffRoutePolicy`).
    public var offRoutePolicy: OffRoutePolicy = .tern
    /// Fixes driving back along the route before it counts as backtracking.
    public var backtrackFixes = 3
    /// A car driving back along the route is on a later pass of the leg in its direction (it
    /// turned round sooner than the route) when that pass is this near, or within its accuracy.
    public var backtrackLaterPassMeters = 15.0
    /// No second reroute before the car moved this far from where the last one started.
    public var rerouteMinimumMovementMeters = 50.0
    /// And at least this long after it (issue #24: a driver keeping to a detour of their own left
    /// each new route within seconds, and got a reroute every 3 s): one reroute per 20 s at most.
    public var rerouteMinimumIntervalSeconds = 20.0
    /// Automatic reroutes while the car is off the road network (no road within the matchers'
    /// reach) before Tern says "no route from here" and waits for the car to reach a road.
    public var reroutesOffNetwork = 1
    /// A waypoint is reached within this distance of it (along the route).
    public var arrivalDistanceMeters = 20.0
    /// ... or when the car will be there within this many seconds at its speed (and is within 60 m).
    public var arrivalSeconds = 3.0
    /// On estimated positions (a tunnel, gpsd gone) an arrival only this long after the last real
    /// fix: a longer dead reckoning may have run past a car that slowed or turned off in the
    /// tunnel, and the arrival then waits for a real fix.
    public var arrivalMaxEstimatedSeconds = 10.0
    /// ... or when the car stops or slows (below `arrivalSlowMetersPerSecond`, 10 km/h) this near
    /// the point the driver asked for, in a straight line, wherever the route ends.
    public var arrivalPointMeters = 30.0
    public var arrivalSlowMetersPerSecond = 2.8
    /// At an intermediate waypoint: go on to the next leg at once, or stay until `.continueRoute`.
    public var continueAtWaypoints = true
    /// The reroute loop guard: after this many reroutes within `rerouteLoopSeconds`, the next
    /// request is a full recalculation (no heading constraint, no preference for the old route).
    public var rerouteLoopCount = 3
    /// Rerouting on its own when off route (the SDKs' shouldReroute answering true); when false
    /// the navigator reports off route and waits for `.reroute`.
    public var automaticReroute = true
    /// Traffic checks (Mapbox's defaults): every `trafficCheckSeconds` while more than
    /// `trafficCheckMinimumRemainingSeconds` remain; a route is switched to when it takes at most
    /// `fasterRouteRatio` of the current route's remaining time.
    public var trafficCheckSeconds = 120.0
    public var trafficCheckMinimumRemainingSeconds = 600.0
    public var fasterRouteRatio = 0.9
    /// A reroute starts where the car will be this many seconds later (the route takes time to
    /// compute and to be told), along its course.
    public var rerouteLeadSeconds = 1.0
    public var rerouteLoopSeconds = 120.0
    /// Suggested lighting: day above this sun elevation (degrees), night below `nightBelowDegrees`,
    /// twilight between; a change needs the sun this much past the boundary (no flicker).
    public var dayAboveDegrees = 0.0
    public var nightBelowDegrees = -6.0
    public var lightingHysteresisDegrees = 0.5
    /// Seconds from deciding to speak to the end of the audio start-up (measured per device); the
    /// prompt plan speaks that much earlier.
    public var speechLatencySeconds = 0.3
    /// Speaking time per character of prompt text; nil: the locale's estimate.
    public var speechSecondsPerCharacter: Double?
    /// Seconds between the end of a "now" prompt and the maneuver, at the least.
    public var promptMarginSeconds = 1.5
    /// How far over the limit counts as speeding (`speeding` events and the spoken warning).
    public var speedingMargin = SpeedingMargin.percent(10)
    public init() {}
}
