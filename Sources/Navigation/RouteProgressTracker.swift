import Geo
import Guidance
import MapData
import Positioning
import Routing

/// Where the car is on the route it follows: the route → leg → step tree, the place along the
/// current leg (on the right pass where the route uses a road twice), and the progress reported
/// (Google's distance and time update thresholds).
struct RouteProgressTracker: Sendable {
    let route: NavigationRoute
    private(set) var legIndex = 0
    /// The shape segment of the current leg the car is on, and metres along the leg.
    private(set) var segment = 0
    private(set) var alongMeters = 0.0
    /// Time of the last position tracked on this leg.
    private var lastTrackTime: Double?
    /// When the car was at this leg's start (the route was planned from its place, or it arrived
    /// at the waypoint the leg starts from), for the first position on the leg; nil: not known.
    private var startedAt: Double?
    /// The first position on a leg is placed near its start unless the car is on another pass of
    /// the leg (within `onPassMeters` of it) and the start lies this much farther.
    static let startPreferenceMeters = 15.0
    static let onPassMeters = 3.0
    /// The last progress reported: when, the remaining metres, and the step.
    private var lastReported: (time: Double, remaining: Double, step: Int)?
    private(set) var progress: RouteProgress?
    /// The roads (undirected edge ids) of each leg, to tell a matched road off the route.
    let legRoads: [Set<UInt32>]
    /// All the route's directed edges in order, and as a set of raw values (the matcher's prior,
    /// dead reckoning along the route): built once per route, not per fix.
    let edges: [DirectedEdge]
    let edgeKeys: Set<UInt32>

    /// `plannedAt`: the time of the request the route answers, made from the car's place (a
    /// reroute's start lies a second's driving ahead of it). The car was at or just behind the
    /// route's start then, so its first place is looked for near the start, as far along as it
    /// can have driven since, not on a later pass that comes back near it (a road up a hairpin
    /// bend, a loop round a block: on the road drive set, the first fix after a reroute was put
    /// 915 m along, 1 m from a pass that came back, and a false "distance" off-route followed).
    /// Unless the car is on another pass and the start lies well away (a start snapped to the
    /// other carriageway): then it is on that pass. (Not any pass nearer than the start: a car
    /// arrives at a via up to 60 m before it, and stood 8 m from the pass coming back on the other
    /// carriageway.) nil: anywhere along the leg.
    init(route: NavigationRoute, plannedAt: Double?) {
        self.route = route
        startedAt = plannedAt
        legRoads = route.route.legs.map { Set($0.edges.map(\.edge)) }
        edges = route.route.legs.flatMap(\.edges)
        edgeKeys = Set(edges.map(\.raw))
    }

    var leg: RouteLeg { route.route.legs[legIndex] }
    var maneuvers: [Maneuver] { route.maneuvers[legIndex] }
    var isLastLeg: Bool { legIndex == route.route.legs.count - 1 }

    /// On to the next leg, from its start. `at`: the time the car was there (it arrived at the
    /// waypoint the leg starts from), so that its place is looked for near the start, as for a new
    /// route (`init`); a leg that comes back past the waypoint later (out and back along a
    /// street, the other carriageway) had the car placed on that later pass, 8 m off, and a false
    /// 'backtracking' off-route followed as it drove on (monaco-23 of the road drive set). nil:
    /// anywhere along the leg (the car may have moved since, as after `continue`).
    mutating func startNextLeg(at time: Double?) {
        legIndex += 1
        segment = 0
        alongMeters = 0
        lastTrackTime = nil
        startedAt = time
        lastReported = nil
    }

    /// Places a position on the current leg, and returns where it lies and the seconds since the
    /// last position tracked (infinite after `resync` or on a new leg). The search reaches as far
    /// along as the car can have driven since; after `resync` (the first real fix after a tunnel)
    /// the car is looked for anywhere along the leg and may be put back. The place along the leg
    /// never goes back on noise: a real turn-around shows as off the route (beyond
    /// `offRouteMeters`).
    mutating func locate(_ p: FilteredPosition, resync: Bool, offRouteMeters: Double) -> (position: LegPosition, seconds: Double) {
        if resync { lastTrackTime = nil; startedAt = nil }
        let dt = lastTrackTime.map { max(0, p.time - $0) } ?? .infinity
        func reach(_ seconds: Double) -> Double { max(40, (p.speedMetersPerSecond ?? 15) * seconds * 1.5 + 25) }
        var pos = RouteTracker.locate(p.coordinate, on: leg, hint: segment, courseDegrees: p.courseDegrees,
                                      from: lastTrackTime == nil ? nil : alongMeters, reach: dt.isFinite ? reach(dt) : .infinity)
        // the first position on a leg the car started at: near the start (see `init`)
        if lastTrackTime == nil, let t0 = startedAt {
            let nearStart = RouteTracker.locate(p.coordinate, on: leg, hint: 0, courseDegrees: p.courseDegrees,
                                                from: 0, reach: reach(max(0, p.time - t0)))
            let onOtherPass = pos.distanceMeters <= Self.onPassMeters && nearStart.distanceMeters > pos.distanceMeters + Self.startPreferenceMeters
            if !onOtherPass { pos = nearStart }
        }
        startedAt = nil
        lastTrackTime = p.time
        if resync, pos.distanceMeters <= offRouteMeters {
            segment = pos.segment
            alongMeters = pos.alongMeters
        }
        if pos.alongMeters >= alongMeters - 30 || pos.distanceMeters > offRouteMeters {
            segment = pos.segment
            alongMeters = max(pos.alongMeters, alongMeters - 30)
        }
        return (pos, dt)
    }

    /// A car seen driving back along the route where the leg comes back the same way later (out
    /// along a street and back, a dead end, the street beyond a waypoint): it has turned round
    /// sooner than the route does, and is on the later pass, in its direction. That pass — the
    /// nearest to the car within `withinMeters`, at least `RouteTracker.onRouteMeters` farther
    /// along and within 45° of the course — becomes the car's place, and nil is returned where
    /// there is none. The rest of the leg from there is still the way to its end, so this is
    /// not a departure to reroute from (issue #24: "backtracking" off-routes on the road drive
    /// set where the car was on the route). Only this leg's passes count: a waypoint on the part
    /// skipped would be skipped too.
    mutating func moveToLaterPass(_ p: FilteredPosition, withinMeters: Double) -> LegPosition? {
        guard let course = p.courseDegrees else { return nil }
        let shape = leg.shape, cumulative = leg.cumulativeMeters
        let ruler = CheapRuler(latitude: p.coordinate.latitude)
        var best: LegPosition?
        for i in 0..<(shape.count - 1) where cumulative[i + 1] > alongMeters + RouteTracker.onRouteMeters && shape[i] != shape[i + 1] {
            let bearing = ruler.bearing(shape[i], shape[i + 1])
            guard abs(Angle.difference(from: bearing, to: course)) <= 45 else { continue }
            let q = ruler.project(p.coordinate, onto: shape[i], shape[i + 1])
            let along = cumulative[i] + (cumulative[i + 1] - cumulative[i]) * q.fraction
            guard q.distanceMeters <= withinMeters, along > alongMeters + RouteTracker.onRouteMeters,
                  q.distanceMeters < best?.distanceMeters ?? .infinity else { continue }
            best = LegPosition(segment: i, alongMeters: along, distanceMeters: q.distanceMeters, bearingDegrees: bearing,
                               side: RouteTracker.side(of: p.coordinate, shape[i], shape[i + 1], ruler))
        }
        if let b = best {
            segment = b.segment
            alongMeters = b.alongMeters
            lastTrackTime = p.time
        }
        return best
    }

    /// Metres still to drive on this leg.
    var legLeftMeters: Double { leg.distanceMeters - alongMeters }

    /// The index of the next maneuver on this leg (the arrival when none is left).
    var nextManeuverIndex: Int {
        let list = maneuvers
        return list.firstIndex { $0.distanceFromStartMeters > alongMeters + 1 } ?? (list.count - 1)
    }

    /// The progress at the current place: `correctionSeconds` is what traffic adds to this leg's
    /// time, `instruction` the next maneuver's listed text, `distanceFromRoute` the car's distance
    /// from the line. Kept as `progress`.
    mutating func update(correctionSeconds: Double, instruction: String, distanceFromRoute: Double) -> RouteProgress {
        let leg = leg, list = maneuvers
        let legLeft = legLeftMeters
        let legSecondsDone = RouteTracker.seconds(at: alongMeters, on: leg, segment: segment)
        var laterMeters = 0.0, laterSeconds = 0.0
        for l in route.route.legs[(legIndex + 1)...] { laterMeters += l.distanceMeters; laterSeconds += l.durationSeconds }
        let nextIndex = nextManeuverIndex
        let next = list[nextIndex]
        let toNext = max(0, next.distanceFromStartMeters - alongMeters)
        let legSecondsLeft = max(0, leg.durationSeconds - legSecondsDone + correctionSeconds)
        let p = RouteProgress(
            legIndex: legIndex, stepIndex: max(0, nextIndex - 1), legDistanceTraveledMeters: alongMeters,
            legRemainingMeters: max(0, legLeft), legRemainingSeconds: legSecondsLeft,
            stepRemainingMeters: toNext,
            stepRemainingSeconds: max(0, RouteTracker.seconds(at: next.distanceFromStartMeters, on: leg, segment: next.shapeIndex) - legSecondsDone),
            remainingMeters: max(0, legLeft) + laterMeters, remainingSeconds: legSecondsLeft + laterSeconds,
            nextManeuver: next, nextInstruction: instruction, distanceToNextMeters: toNext,
            distanceFromRouteMeters: distanceFromRoute)
        progress = p
        return p
    }

    /// Whether the progress is to be reported at `time`: at every new step, when the remaining
    /// distance changed by `distanceThreshold` metres, or `timeThreshold` seconds after the last
    /// report (Google's distanceUpdateThreshold / timeUpdateThreshold). A report counts as made.
    mutating func reportDue(_ p: RouteProgress, time: Double, distanceThreshold: Double, timeThreshold: Double) -> Bool {
        if let last = lastReported, last.step == p.stepIndex, abs(last.remaining - p.remainingMeters) < distanceThreshold,
           time - last.time < timeThreshold {
            return false
        }
        lastReported = (time, p.remainingMeters, p.stepIndex)
        return true
    }

    /// The route's edges from the car's place on, over the legs still ahead.
    var edgesAhead: [DirectedEdge] {
        let legs = route.route.legs
        guard legIndex < legs.count else { return [] }
        let leg = legs[legIndex]
        let from = min(max(0, leg.edgeIndex(atShapeIndex: segment)), max(0, leg.edges.count - 1))
        return Array(leg.edges[from...]) + legs[(legIndex + 1)...].flatMap(\.edges)
    }

    /// Seconds still to drive from the car's place (the route's own times).
    var remainingSeconds: Double {
        RouteTracker.remainingSeconds(route.route, legIndex: legIndex, alongMeters: alongMeters, segment: segment)
    }
}
