import Geo
import Routing

/// Where a point lies along a leg's shape.
struct LegPosition: Sendable, Equatable {
    /// Index of the shape segment (its first point).
    var segment: Int
    /// Metres from the leg's start.
    var alongMeters: Double
    /// Distance from the point to the shape, metres.
    var distanceMeters: Double
    /// Bearing of that segment, degrees.
    var bearingDegrees: Double
}

/// Projects positions onto a leg, searching forward from the last position first so that a
/// route passing the same place twice is followed in order.
enum RouteTracker {
    /// A pass of the route this near the car is a candidate whatever its distance along.
    static let onRouteMeters = 30.0
    /// ... and so is one this much farther than the nearest pass.
    static let passMarginMeters = 20.0

    /// `from` is the last position's distance along the leg and `reach` how far the car can have
    /// driven since: where the route passes near itself (a junction, a road driven out and back),
    /// a place much farther along than that is not taken for the car's.
    static func locate(_ c: Coordinate, on leg: RouteLeg, hint: Int, courseDegrees: Double?,
                       from: Double? = nil, reach: Double = .infinity) -> LegPosition {
        let shape = leg.shape
        guard shape.count >= 2 else {
            return LegPosition(segment: 0, alongMeters: 0, distanceMeters: c.distance(to: shape.first ?? c), bearingDegrees: 0)
        }
        let ruler = CheapRuler(latitude: c.latitude)
        func scan(_ range: Range<Int>) -> LegPosition? {
            var candidates = [(score: Double, pos: LegPosition)]()
            candidates.reserveCapacity(range.count)
            for i in range where i + 1 < shape.count {
                let p = ruler.project(c, onto: shape[i], shape[i + 1])
                let bearing = ruler.bearing(shape[i], shape[i + 1])
                var score = p.distanceMeters
                if let course = courseDegrees, shape[i] != shape[i + 1] {
                    // prefer the pass in the driving direction where the route doubles back
                    score += abs(Angle.difference(from: bearing, to: course)) > 100 ? 15 : 0
                }
                // a little preference for staying near the hint, against jumps far ahead
                score += Double(max(0, i - hint)) * 0.01
                let segLen = leg.cumulativeMeters[i + 1] - leg.cumulativeMeters[i]
                if let f = from, reach.isFinite {
                    let at = leg.cumulativeMeters[i] + segLen * p.fraction
                    score += max(0, at - f - reach) * 0.5 + max(0, f - 30 - at) * 0.5
                }
                // past the segment's end, the route's direction there is the next segment's
                var ahead = bearing
                if p.fraction > 0.999, i + 2 < shape.count, shape[i + 1] != shape[i + 2] { ahead = ruler.bearing(shape[i + 1], shape[i + 2]) }
                let pos = LegPosition(segment: i, alongMeters: leg.cumulativeMeters[i] + segLen * p.fraction,
                                      distanceMeters: p.distanceMeters, bearingDegrees: ahead)
                candidates.append((score, pos))
            }
            // The course and reach preferences choose between passes near the car, never a pass
            // far from it over one it is on: where a route uses a street twice and the car is
            // on the later pass sooner than the reach allows (fixes dropped, a slow estimate),
            // the earlier pass 65 m away was taken and a false "off route" followed (issue #24).
            guard let nearest = candidates.map(\.pos.distanceMeters).min() else { return nil }
            let near = max(nearest + RouteTracker.passMarginMeters, RouteTracker.onRouteMeters)
            return candidates.filter { $0.pos.distanceMeters <= near }.min { $0.score < $1.score }?.pos
        }
        let lo = max(0, hint - 3), hi = min(shape.count - 1, hint + 80)
        if let near = scan(lo..<hi), near.distanceMeters < onRouteMeters { return near }
        let all = scan(0..<(shape.count - 1))!
        return all
    }

    /// Seconds from the leg's start at `along` metres (interpolated).
    /// Seconds still to drive on a route from a place on one of its legs (free flow, or the
    /// traffic the route was computed with).
    static func remainingSeconds(_ route: Route, legIndex: Int, alongMeters: Double, segment: Int) -> Double {
        guard legIndex < route.legs.count else { return 0 }
        let leg = route.legs[legIndex]
        let later = route.legs[(legIndex + 1)...].reduce(0.0) { $0 + $1.durationSeconds }
        return max(0, leg.durationSeconds - seconds(at: alongMeters, on: leg, segment: segment)) + later
    }

    static func seconds(at along: Double, on leg: RouteLeg, segment: Int) -> Double {
        let i = min(max(0, segment), leg.shape.count - 2)
        let m0 = leg.cumulativeMeters[i], m1 = leg.cumulativeMeters[i + 1]
        let s0 = leg.cumulativeSeconds[i], s1 = leg.cumulativeSeconds[i + 1]
        let f = m1 > m0 ? min(1, max(0, (along - m0) / (m1 - m0))) : 0
        return s0 + (s1 - s0) * f
    }
}
