/// An off-route policy: whether one position is off the route, given the evidence gathered so far
/// (backtracking is judged before any policy, the same for all: OffRouteEvidence).
protocol OffRouteRule: Sendable {
    /// `reach`: whether the car can have moved this far from the route's line
    /// (`OffRouteEvidence.Reach`); `recentDistances`: the last five distances from the line,
    /// newest last.
    func judge(_ s: OffRouteSituation, reach: OffRouteEvidence.Reach, recentDistances r: [Double]) -> OffRouteJudgement?
}

extension OffRoutePolicy {
    /// `distanceFixes`: `NavigatorConfig.offRouteFixes`, Tern's count for the distance anchor.
    func rule(distanceFixes: Int) -> any OffRouteRule {
        switch self {
        case .tern: TernOffRouteRule(distanceFixes: distanceFixes)
        case .mapbox: MapboxOffRouteRule()
        case .osmand: OsmAndOffRouteRule()
        }
    }
}

/// Tern's anchors (DESIGN.md, docs/architecture.md):
/// - farther than max(50 m, 2 × accuracy), halved within 100 m of a maneuver where a wrong turn
///   starts (when the car's own movement takes it there), on 3 fixes (2 near a maneuver or with the course over 60° off), where the car has
///   driven that far since it was on the route's line;
/// - beyond max(12 m, accuracy) with the course more than 60° off the route's, at a speed where
///   the course is trusted (2.5 m/s: a wrong turn taken at walking pace), on 2 fixes; or
///   standing beyond max(10 m, accuracy) on another road, having last driven more than 60° off
///   the route's way, on 2 fixes;
/// (distances with the receiver's estimated bias taken out, `OffRouteSituation.besideMeters`,
/// but for the course anchor's)
/// - on a road the route does not take (the matcher's) beyond max(10 m, accuracy), or (without the
///   route's prior) beyond max(7 m, accuracy), on 3 fixes, where distance (over 12 m, or rising)
///   or course (20° off) confirms it and the car could be there;
/// - drifting away from the route beyond max(12 m, accuracy), farther on each of 4 fixes in a row
///   and 8 m in all.
struct TernOffRouteRule: OffRouteRule {
    var distanceFixes = 3

    func judge(_ s: OffRouteSituation, reach: OffRouteEvidence.Reach, recentDistances r: [Double]) -> OffRouteJudgement? {
        let d = s.besideMeters, acc = s.accuracyMeters, limit = s.limitMeters
        let nearManeuver = s.nearManeuver(100)
        let couldBeThere = reach.acrossLine
        // (beyond the limit, multipath is rare, but not at a crawl: a standing car is not judged
        // by it, nor one that has not driven as far as the position lies from the line)
        // (halved near a maneuver for a wrong turn there, which the car's own movement shows:
        // a multipath burst of 25–35 m through a loop or a bend, while the Doppler course
        // followed the route, is not one; the road drive set: heidelberg-46, monaco-39)
        let wrongTurnThere = nearManeuver && reach.acrossLine
        if d > max(wrongTurnThere ? limit / 2 : limit, 2 * acc), s.speed >= 0.5, reach.alongPath {
            return OffRouteJudgement(reason: .distance, needed: nearManeuver || (s.moving && s.courseOff > 60) ? 2 : distanceFixes)
        }
        // (the course is the car's own: the distance only tells a bend's course noise from a car
        // heading off, so it is taken as measured, the bias left in: a car turning the wrong
        // way at a junction, on the side the bias lies, was seen a fix later)
        if s.speed > OffRouteEvidence.trustedCourseSpeed, s.courseOff > 60, s.distanceMeters > max(12, acc) { return OffRouteJudgement(reason: .course, needed: 2) }
        // ... or it has stopped there, on another road by both matchers, having last driven more
        // than 60° off the route's way (OffRouteEvidence.note)
        if reach.stoppedAfterTurningOff, d > max(10, acc), s.matchedOnRoute == false, s.unbiasedOnRoute == false {
            return OffRouteJudgement(reason: .course, needed: 2)
        }
        // the matcher has the car on a road the route does not take, clear of the route's line:
        // a fork whose branches part slowly, a parallel road (the route prior keeps the matcher
        // on the route while the car may be on it). Only where distance or course confirm it
        // (issue #24): a receiver's bias of 8 m is slow and steady, and a matcher that took the
        // road beside for the car gave false off-routes on the planned road; a road parting from
        // the route moves the car away from the line, fix after fix, or along another course.
        let rising = (r.count >= 3 && r[r.count - 1] - r[r.count - 3] >= 2) || (r.count == 5 && r[4] - r[0] >= 4)
        let confirmed = d > 12 || (s.moving && s.courseOff > 20) || rising
        if confirmed, couldBeThere, s.matchedOnRoute == false, d > max(10, acc) {
            return OffRouteJudgement(reason: .road, needed: 3)
        }
        // ... or, without the route's prior, on another road 7 m clear of the route's line
        if confirmed, couldBeThere, s.moving, s.unbiasedOnRoute == false, d > max(7, acc) {
            return OffRouteJudgement(reason: .road, needed: 3)
        }
        // drifting away from the route fix after fix (a road parting slowly from the route's,
        // which the matcher's route prior still holds on the route): 4 rises in a row, 8 m in
        // all, beyond max(12 m, accuracy). A car that moves away from the line heads away from
        // it: 8 m in 4 s is at least 5° off the route's course at any speed over 20 km/h (a
        // multipath burst drags the position off while the Doppler course stays on the road)
        if s.moving, couldBeThere, s.courseOff >= 5, r.count == 5, d > max(12, acc),
           zip(r, r.dropFirst()).allSatisfy({ $1 > $0 }), r[4] - r[0] >= 8 {
            return OffRouteJudgement(reason: .drift, needed: 1)
        }
        return nil
    }
}

/// Mapbox's anchors: beyond max(50 m, accuracy), halved within 40 m of a maneuver, on one fix;
/// or the course more than 60° off the route's on 4 fixes in a row.
struct MapboxOffRouteRule: OffRouteRule {
    func judge(_ s: OffRouteSituation, reach: OffRouteEvidence.Reach, recentDistances r: [Double]) -> OffRouteJudgement? {
        if s.distanceMeters > max(s.nearManeuver(40) ? s.limitMeters / 2 : s.limitMeters, s.accuracyMeters) {
            return OffRouteJudgement(reason: .distance, needed: 1)
        }
        if s.moving, s.courseOff > 60 { return OffRouteJudgement(reason: .course, needed: 4) }
        return nil
    }
}

/// OsmAnd's anchors: beyond 2 × (30 m + accuracy) on one fix; or beyond 30 m + accuracy moving
/// more than 90° against the route.
struct OsmAndOffRouteRule: OffRouteRule {
    func judge(_ s: OffRouteSituation, reach: OffRouteEvidence.Reach, recentDistances r: [Double]) -> OffRouteJudgement? {
        if s.distanceMeters > 2 * (30 + s.accuracyMeters) { return OffRouteJudgement(reason: .distance, needed: 1) }
        if s.moving, s.courseOff > 90, s.distanceMeters > 30 + s.accuracyMeters { return OffRouteJudgement(reason: .course, needed: 1) }
        return nil
    }
}
