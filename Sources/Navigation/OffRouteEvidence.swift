import Foundation
import Geo

/// What one position shows about the route, as the off-route policies read it.
struct OffRouteSituation {
    /// Distance from the route's line, metres, as measured and with the receiver's estimated bias
    /// taken out (`ReceiverBias`), and the receiver's accuracy. Tern's rules judge the car by
    /// the second; Mapbox's and OsmAnd's, as those SDKs do, by the first.
    var distanceMeters: Double
    var besideMeters: Double
    var accuracyMeters: Double
    /// Receiver speed (0 unknown) and the angle of its course to the route's, degrees (0 unknown).
    var speed: Double
    var courseKnown: Bool
    var courseOff: Double
    /// The same angle with its side: positive when the course is clockwise of the route's.
    var courseOffSigned: Double
    /// Metres along the leg from the car to the nearest maneuver after the depart.
    var nearestManeuverMeters: Double
    /// Where the matcher (with the route's prior) and a matcher without it put the car: on a road
    /// of the route's leg, on another road, or nowhere (nil).
    var matchedOnRoute: Bool?
    var unbiasedOnRoute: Bool?
    var time: Double
    /// `NavigatorConfig.offRouteDistanceMeters`.
    var limitMeters: Double

    /// Faster than 4 m/s: the course counts.
    var moving: Bool { speed > 4 }
    func nearManeuver(_ meters: Double) -> Bool { nearestManeuverMeters < meters }
}

/// A position judged off the route: why, and on how many consecutive fixes that must hold.
struct OffRouteJudgement: Equatable {
    var reason: OffRouteReason
    var needed: Int
}

/// What the position history shows, kept from fix to fix and shared by every policy: driving
/// back along the route, the last distances from its line, and how far the car can have moved
/// away from the line since it was last on it.
struct OffRouteEvidence {
    /// Driving back along the route: where it started (metres along the leg) and for how many fixes.
    private var backtrack: (from: Double, fixes: Int)?
    /// The last distances from the route line (newest last), for a steady drift away.
    private(set) var recentDistances: [Double] = []
    /// Metres the car has moved across the route's line (by the receiver's speed and course),
    /// to the right positive, since it was last on it, and when that was last counted; infinite
    /// when not known (a new route, after a tunnel). A car cannot be farther from the route than
    /// it has moved away.
    private var travelSinceOnLine = Double.infinity
    private var travelCountedAt: Double?
    /// The distance from the line when the car was last on it.
    private var distanceWhenOnLine = 0.0
    /// Metres driven (the receiver's speed, whatever the course) since the car was last on the
    /// line; infinite when not known.
    private var pathSinceOnLine = Double.infinity

    /// Whether the car can be as far from the route's line as the position is: by how far it has
    /// moved across the line (`acrossLine`), and by how far it has driven at all (`alongPath`:
    /// no car is farther from the line than it has driven since it was on it; the course does
    /// not count, so a crawl's wandering course cannot make room for a multipath burst).
    struct Reach {
        var acrossLine: Bool
        var alongPath: Bool
    }

    /// Backtracking, judged the same way whatever the policy: the course more than 135° off the
    /// route's at over 3 m/s, the place along the route going back 15 m or more over
    /// `fixes` fixes. The car turned round on the route's own road, where no distance anchor
    /// sees it.
    mutating func backtracking(_ s: OffRouteSituation, alongMeters: Double, fixes: Int) -> Bool {
        guard s.courseOff > 135, s.speed > 3 else {
            backtrack = nil
            return false
        }
        if backtrack == nil { backtrack = (alongMeters, 0) }
        backtrack!.fixes += 1
        return backtrack!.fixes >= fixes && backtrack!.from - alongMeters >= 15
    }

    /// Records the position's distance from the line, and whether the car could be that far from
    /// it by how far it has moved across the line since it was last on it (within 8 m, or on a
    /// road of the route within 12 m: a receiver's bias alone may hold it 10 m off): the
    /// receiver's speed times the sine of its course's angle to the line, summed with its side.
    /// Speed and course come from Doppler, which multipath and a wandering bias hardly touch. A
    /// position whose distance from the line grew by more than that is the receiver's error, not
    /// the car, and a standing car has not left the route (issue #24: multipath bursts of
    /// 15–25 m while slowing for lights, crawling in a queue or driving straight on gave 'road',
    /// 'drift' and 'distance' off-routes). The side counts because the course of a car crawling
    /// at 1–2 m/s wanders tens of degrees either way: summed without it, 12 s of crawling along
    /// the route "moved" the car 6 m across the line and a burst of 13 m passed for a turn into
    /// the street beside (the road drive set). A car that leaves moves away on one side. (A
    /// course unknown counts the whole speed.)
    ///
    /// The same for the whole distance driven (`Reach.alongPath`): at a crawl of 1.2 m/s, a
    /// burst put the car 29 m off the route 4 s after it was on it, and the distance anchor
    /// took it for a departure (andorra-12 of the road drive set).
    mutating func note(_ s: OffRouteSituation) -> (reach: Reach, distances: [Double]) {
        let d = s.besideMeters
        recentDistances.append(d)
        if recentDistances.count > 5 { recentDistances.removeFirst() }
        if let last = travelCountedAt {
            let dt = max(0, s.time - last)
            pathSinceOnLine += s.speed * dt
            if s.courseKnown {
                travelSinceOnLine += s.speed * sin(s.courseOffSigned * .pi / 180) * dt
            } else {
                travelSinceOnLine = abs(travelSinceOnLine) + s.speed * dt
            }
        }
        travelCountedAt = s.time
        if d <= 8 || (s.matchedOnRoute == true && d <= 12) {
            travelSinceOnLine = 0
            pathSinceOnLine = 0
            distanceWhenOnLine = d
        }
        let grown = d - distanceWhenOnLine
        return (Reach(acrossLine: s.speed >= 0.5 && grown <= abs(travelSinceOnLine) + 3, alongPath: grown <= pathSinceOnLine + 10),
                recentDistances)
    }
}

/// The off-route judgement of one route: the policy, the evidence, the count of consecutive fixes
/// judged off, and the grace after a tunnel.
struct OffRouteMonitor {
    private let rule: any OffRouteRule
    private let backtrackFixes: Int
    private var evidence = OffRouteEvidence()
    /// Consecutive fixes judged off the route (a moving car judged on it resets it).
    var count = 0
    /// Fixes still to go after a tunnel before course and drift count for off route.
    private var graceFixes = 0

    init(config: NavigatorConfig) {
        rule = config.offRoutePolicy.rule(distanceFixes: config.offRouteFixes)
        backtrackFixes = config.backtrackFixes
    }

    /// The first real fix after estimated ones: the filter has just restarted on it and its course
    /// settles over a few fixes; the evidence gathered on the estimate is dropped.
    mutating func resync() {
        graceFixes = 5
        count = 0
        evidence = OffRouteEvidence()
    }

    /// Judges a position (`judging` false: an estimated one, not judged) and counts it.
    mutating func update(_ s: OffRouteSituation, alongMeters: Double, judging: Bool) -> OffRouteJudgement? {
        var judged: OffRouteJudgement?
        if judging {
            if evidence.backtracking(s, alongMeters: alongMeters, fixes: backtrackFixes) {
                judged = OffRouteJudgement(reason: .backtracking, needed: 1)
            } else {
                let (reach, distances) = evidence.note(s)
                judged = rule.judge(s, reach: reach, recentDistances: distances)
            }
        }
        if graceFixes > 0 {
            // just out of a tunnel: the restarted filter's course is not yet to be trusted, so
            // only the place counts (distance, the matcher's road)
            graceFixes -= 1
            if let r = judged?.reason, !r.isByPlace { judged = nil }
        }
        if judged != nil {
            count += 1
        } else if s.speed >= 0.5 {
            count = 0
        }
        return judged
    }
}
