import FoundationEssentials
import Glibc
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
    var courseOff: Double
    /// Metres along the leg from the car to the nearest maneuver after the depart.
    var nearestManeuverMeters: Double
    /// Where the matcher (with the route's prior) and a matcher without it put the car: on a road
    /// of the route's leg, on another road, or nowhere (nil).
    var matchedOnRoute: Bool?
    var unbiasedOnRoute: Bool?
    var time: Double
    /// Where the position is, and the course the receiver reported (Doppler; nil unknown).
    var coordinate: Coordinate
    var receiverCourseDegrees: Double?
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
    /// The positions of the last `reachSeconds`, each with the sums, up to it, of how far the
    /// car has moved by Doppler (`Anchor`), oldest first. Empty when nothing is known yet (a new
    /// route, after a tunnel).
    private var anchors: [Anchor] = []
    private var sums = Anchor(time: 0, coordinate: Coordinate(latitude: 0, longitude: 0), beside: 0, east: 0, north: 0, unsided: 0, path: 0)
    private var countedAt: Double?
    private var lastVelocity: (speed: Double, vector: (Double, Double)?) = (0, nil)
    /// The receiver's course, and the car's place along the leg, the last time the car was fast
    /// enough for its course to count (`trustedCourseSpeed`).
    private var lastTrustedCourse: (degrees: Double, alongMeters: Double)?
    static let trustedCourseSpeed = 2.5
    /// How far back a position still counts as a place the car was (see `note`).
    static let reachSeconds = 15.0
    /// A longer step between two fixes is not bridged by their velocities.
    static let longestStepSeconds = 2.5
    /// The course's error, as a share of the distance driven: about 2°.
    static let courseError = 0.03

    /// A position, its distance from the line (bias taken out), and the running sums at its time
    /// of the car's movement by the receiver's speed and course: metres east and north, metres
    /// moved with no course known (they count in any direction), and metres driven whatever the
    /// course.
    private struct Anchor {
        var time: Double
        var coordinate: Coordinate
        var beside: Double
        var east: Double
        var north: Double
        var unsided: Double
        var path: Double
    }

    /// Whether the car can be as far from the route's line as the position is: by where its own
    /// movement puts it (`acrossLine`), and by how far it has driven at all (`alongPath`: no car
    /// is farther from the line than it has driven since it was nearer; the course does not
    /// count, so a crawl's wandering course cannot make room for a multipath burst).
    /// `stoppedAfterTurningOff`: the car stands, and the last time its course was trusted it was
    /// more than 60° off the route's way anywhere within 30 m along of its place then (through a
    /// turn the car's place on the route may be a segment early or late; see `note`).
    struct Reach {
        var acrossLine: Bool
        var alongPath: Bool
        var stoppedAfterTurningOff = false
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
    /// it: from each position of the last `reachSeconds`, moved as the car has moved since by
    /// Doppler, the route is no nearer than the position is, 3 m to spare (`Reach.acrossLine`;
    /// `distanceFromRoute` measures a point's distance from the route near the car); and the
    /// distance from the line has grown by no more than the car has driven at all
    /// (`Reach.alongPath`, 10 m to spare). Speed and course come from Doppler, which multipath
    /// and a wandering bias hardly touch: a position that moved away from where the car's own
    /// movement puts it is the receiver's error, not the car, and a standing car has not left the
    /// route (issue #24: multipath bursts of 15–25 m while slowing for lights, crawling in a
    /// queue or driving straight on gave 'road', 'drift' and 'distance' off-routes).
    ///
    /// Every position of the window is a place the car was, not only the last one near the line:
    /// measured from the last fix within 8 m of the line, a receiver error growing by 2–3 m a
    /// second while the car drove straight on passed, each fix up to 8 m moving the place the
    /// growth was counted from, and the matcher without the route's prior gave 'road' off-routes
    /// 10 m from a car on the route (the road drive set: heidelberg-47, liechtenstein-6). The
    /// movement is carried over the route's own shape, not across the direction of the route
    /// where the car is: through a turn that direction is a segment early or late, and the car
    /// turning with the route "moved" 10 m across it (heidelberg-36). The window is short because
    /// the course's error sums too (`courseError` of the distance driven is spared for it), and over
    /// it a receiver's bias moves by about the 3 m spared. (3 m was chosen on the road drive set:
    /// 4 m gave two more false off-routes; the median over the window instead of the most gave
    /// ten more.)
    ///
    /// A standing car keeps the course it last drove with: one that turned off into a side street
    /// slowly and stopped 12 m into it (a stop line, a queue) showed its course only below the
    /// speed the course anchor trusts (4 m/s) and its place only once stopped, and was not seen
    /// leaving until it drove on, 20–40 s later (the road drive set: heidelberg-17,
    /// liechtenstein-1). `Reach.stoppedAfterTurningOff` carries it.
    ///
    /// The whole distance driven: at a crawl of 1.2 m/s, a burst put the car 29 m off the route
    /// 4 s after it was on it, and the distance anchor took it for a departure (andorra-12).
    /// `shape` is the leg's, measured near `alongMeters`, the car's place along it.
    mutating func note(_ s: OffRouteSituation, alongMeters: Double, shape: LegShape) -> (reach: Reach, distances: [Double]) {
        let d = s.besideMeters
        recentDistances.append(d)
        if recentDistances.count > 5 { recentDistances.removeFirst() }
        // the velocity (east, north; nil with no course) of this fix, and the movement since the
        // last one by the mean of the two: through a turn the course at either end alone puts
        // the car metres off its path (5 m in 70 m through a wrong turn at a junction)
        let velocity = s.receiverCourseDegrees.map { (s.speed * sin($0 * .pi / 180), s.speed * cos($0 * .pi / 180)) }
        if let last = countedAt {
            let dt = max(0, s.time - last)
            let meanSpeed = (s.speed + lastVelocity.speed) / 2
            sums.path += meanSpeed * dt
            // half the step by each end's velocity; an end with no course, any way
            func halfStep(_ speed: Double, _ vector: (Double, Double)?) {
                if let v = vector {
                    sums.east += v.0 / 2 * dt
                    sums.north += v.1 / 2 * dt
                } else {
                    sums.unsided += speed / 2 * dt
                }
            }
            if dt <= Self.longestStepSeconds {
                halfStep(s.speed, velocity)
                halfStep(lastVelocity.speed, lastVelocity.vector)
            } else {
                // a gap (fixes dropped, a turn-round judged as backtracking): any way
                sums.unsided += meanSpeed * dt
            }
        }
        lastVelocity = (s.speed, velocity)
        countedAt = s.time
        anchors.removeAll { s.time - $0.time > Self.reachSeconds }
        var along = true
        // the most the position lies beyond where the car's movement from a place puts it
        var excess = -Double.infinity
        // (near the line no rule asks how the car got there; the measuring is spared)
        let judged = max(s.distanceMeters, d) > 6
        let ruler = CheapRuler(latitude: s.coordinate.latitude)
        // (the position measured as the moved places are, on the leg near the car: the tracker's
        // pass may be another, chosen by course and reach where the route passes near itself)
        let here = judged ? shape.distance(from: s.coordinate, nearMeters: alongMeters) : 0
        for a in anchors {
            if d - a.beside > sums.path - a.path + 10 { along = false }
            guard judged else { continue }
            let moved = Coordinate(latitude: a.coordinate.latitude + (sums.north - a.north) / ruler.ky,
                                   longitude: a.coordinate.longitude + (sums.east - a.east) / ruler.kx)
            excess = max(excess, here - shape.distance(from: moved, nearMeters: alongMeters) - (sums.unsided - a.unsided) - Self.courseError * (sums.path - a.path))
        }
        let across = s.speed >= 0.5 && excess <= 3
        sums.time = s.time
        sums.coordinate = s.coordinate
        sums.beside = d
        anchors.append(sums)
        if s.speed >= Self.trustedCourseSpeed, let c = s.receiverCourseDegrees { lastTrustedCourse = (c, alongMeters) }
        // (measured only when it may count: a standing car out beyond the line)
        let turnedOff = s.speed < 0.5 && judged && lastTrustedCourse.map {
            shape.smallestAngle(to: $0.degrees, nearMeters: $0.alongMeters, spanMeters: 30) > 60
        } == true
        return (Reach(acrossLine: across, alongPath: along, stoppedAfterTurningOff: turnedOff), recentDistances)
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

    /// A new leg: places along the leg the evidence holds (where backtracking began, where the
    /// course was last trusted) were along the last one.
    mutating func startNextLeg() {
        evidence = OffRouteEvidence()
        count = 0
    }

    /// Judges a position (`judging` false: an estimated one, not judged) and counts it.
    mutating func update(_ s: OffRouteSituation, alongMeters: Double, judging: Bool, shape: LegShape) -> OffRouteJudgement? {
        var judged: OffRouteJudgement?
        if judging {
            if evidence.backtracking(s, alongMeters: alongMeters, fixes: backtrackFixes) {
                judged = OffRouteJudgement(reason: .backtracking, needed: 1)
            } else {
                let (reach, distances) = evidence.note(s, alongMeters: alongMeters, shape: shape)
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
