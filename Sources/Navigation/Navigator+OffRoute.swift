import Foundation
import Geo
import Guidance
import MapData
import Positioning
import Routing

/// Off-route judgement: the policies' anchors, one position at a time.
extension Navigator {
    /// Whether this position is off the route, why, and on how many consecutive fixes that must
    /// hold (the policies' anchors: DESIGN.md, docs/architecture.md):
    /// - `tern`: farther than max(50 m, 2 × accuracy), halved within 100 m of a maneuver where a
    ///   wrong turn starts, on 3 fixes (2 near a maneuver); or beyond max(12 m, accuracy) with the
    ///   course more than 60° off the route's, on 2 fixes; or on a road the route does not take
    ///   (the matcher's) beyond max(10 m, accuracy), on 3 fixes, where distance (over 12 m, or
    ///   rising) or course (20° off) confirms it; or drifting away from the route
    ///   beyond max(12 m, accuracy), farther on each of 4 fixes in a row and 8 m in all.
    /// - `mapbox`: beyond max(50 m, accuracy), halved within 40 m of a maneuver, on one fix; or the
    ///   course more than 60° off the route's on 4 fixes in a row.
    /// - `osmand`: beyond 2 × (30 m + accuracy) on one fix; or beyond 30 m + accuracy moving more
    ///   than 90° against the route.
    /// With every policy, driving back along the route (course more than 135° off it, the place
    /// along the route going back 15 m or more over `backtrackFixes` fixes) is backtracking: the
    /// car turned round on the route's own road, where no distance anchor sees it.
    func judgeOffRoute(_ p: FilteredPosition, _ pos: LegPosition, _ g: inout Guidance,
                               maneuvers: [Maneuver]) -> (reason: OffRouteReason, needed: Int)? {
        let moving = (p.speedMetersPerSecond ?? 0) > 4
        let courseOff = p.courseDegrees.map { abs(Angle.difference(from: pos.bearingDegrees, to: $0)) } ?? 0
        func near(_ meters: Double) -> Bool {
            maneuvers.contains { $0.type != .depart && abs($0.distanceFromStartMeters - g.alongMeters) < meters }
        }
        // backtracking: on the line, but going back along it
        if courseOff > 135, (p.speedMetersPerSecond ?? 0) > 3 {
            if g.backtrack == nil { g.backtrack = (pos.alongMeters, 0) }
            g.backtrack!.fixes += 1
            if g.backtrack!.fixes >= config.backtrackFixes, g.backtrack!.from - pos.alongMeters >= 15 {
                return (.backtracking, 1)
            }
        } else {
            g.backtrack = nil
        }
        let d = pos.distanceMeters, acc = p.accuracyMeters, limit = config.offRouteDistanceMeters
        g.recentDistances.append(d)
        if g.recentDistances.count > 5 { g.recentDistances.removeFirst() }
        // How far the car has moved across the route's line since it was last on it (within
        // 8 m, or on a road of the route within 12 m: a receiver's bias alone may hold it 10 m
        // off): the receiver's speed times the sine of its course's angle to the line. Speed and
        // course come from Doppler, which multipath and a wandering bias hardly touch. A position
        // whose distance from the line grew by more than that is the receiver's error, not the
        // car, and a standing car has not left the route (issue #24: multipath bursts of 15–25 m
        // while slowing for lights, crawling in a queue or driving straight on gave 'road',
        // 'drift' and 'distance' off-routes): the matcher's road and the drift wait until the car
        // could be there. (A course unknown counts the whole speed.)
        let speed = p.speedMetersPerSecond ?? 0
        if let last = g.travelCountedAt {
            let across = p.courseDegrees == nil ? 1 : abs(sin(courseOff * .pi / 180))
            g.travelSinceOnLine += speed * across * max(0, p.time - last)
        }
        g.travelCountedAt = p.time
        let onRouteRoad = lastMatchedEdge.map { g.legRoads[g.legIndex].contains($0.edge) } ?? false
        if d <= 8 || (onRouteRoad && d <= 12) {
            g.travelSinceOnLine = 0
            g.distanceWhenOnLine = d
        }
        let couldBeThere = speed >= 0.5 && d - g.distanceWhenOnLine <= g.travelSinceOnLine + 3
        switch config.offRoutePolicy {
        case .tern:
            let nearManeuver = near(100)
            // (beyond the limit, multipath is rare: only a standing car is not judged by it)
            if d > max(nearManeuver ? limit / 2 : limit, 2 * acc), speed >= 0.5 {
                return (.distance, nearManeuver || (moving && courseOff > 60) ? 2 : config.offRouteFixes)
            }
            if moving, courseOff > 60, d > max(12, acc) { return (.course, 2) }
            // the matcher has the car on a road the route does not take, clear of the route's
            // line: a fork whose branches part slowly, a parallel road (the route prior keeps the
            // matcher on the route while the car may be on it)
            // Only where distance or course confirm it (issue #24): a receiver's bias of 8 m is
            // slow and steady, and a matcher that took the road beside for the car gave false
            // off-routes on the planned road; a road parting from the route moves the car away
            // from the line, fix after fix, or along another course.
            let r = g.recentDistances
            let rising = (r.count >= 3 && r[r.count - 1] - r[r.count - 3] >= 2) || (r.count == 5 && r[4] - r[0] >= 4)
            let confirmed = d > 12 || (moving && courseOff > 20) || rising
            if confirmed, couldBeThere, let e = lastMatchedEdge, !g.legRoads[g.legIndex].contains(e.edge), d > max(10, acc) {
                return (.road, 3)
            }
            // ... or, without the route's prior, on another road 7 m clear of the route's line
            if confirmed, couldBeThere, moving, let e = lastUnbiasedEdge, !g.legRoads[g.legIndex].contains(e.edge), d > max(7, acc) {
                return (.road, 3)
            }
            // drifting away from the route fix after fix (a road parting slowly from the route's,
            // which the matcher's route prior still holds on the route): 4 rises in a row, 8 m
            // in all, beyond max(12 m, accuracy). A car that moves away from the line heads away
            // from it: 8 m in 4 s is at least 5° off the route's course at any speed over 20 km/h
            // (a multipath burst drags the position off while the Doppler course stays on the road)
            if moving, couldBeThere, courseOff >= 5, r.count == 5, d > max(12, acc), zip(r, r.dropFirst()).allSatisfy({ $1 > $0 }), r[4] - r[0] >= 8 {
                return (.drift, 1)
            }
        case .mapbox:
            if d > max(near(40) ? limit / 2 : limit, acc) { return (.distance, 1) }
            if moving, courseOff > 60 { return (.course, 4) }
        case .osmand:
            if d > 2 * (30 + acc) { return (.distance, 1) }
            if moving, courseOff > 90, d > 30 + acc { return (.course, 1) }
        }
        return nil
    }
}
