import FoundationEssentials
import Glibc
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
    /// Which side of the route the point lies: 1 right (of the route's direction), -1 left.
    var side = 1.0

    /// The distance beside the route, positive to its right.
    var signedMeters: Double { side * distanceMeters }
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
        // the course as a unit vector (east, north), to compare with the segments' directions by
        // a dot product: an angle of more than 100° has a cosine below cos 100°
        let courseVector = courseDegrees.map { (sin($0 * .pi / 180), cos($0 * .pi / 180)) }
        let cos100 = -0.17364817766693033
        func scan(_ range: Range<Int>) -> LegPosition? {
            var candidates = [(score: Double, segment: Int, fraction: Double, distance: Double)]()
            candidates.reserveCapacity(range.count)
            for i in range where i + 1 < shape.count {
                var p = ruler.project(c, onto: shape[i], shape[i + 1])
                if i == 0, p.fraction == 0,
                   let lateral = approachingStart(c, shape[0], bearing: ruler.bearing(shape[0], shape[1]), courseDegrees: courseDegrees, ruler) {
                    p.distanceMeters = lateral
                }
                var score = p.distanceMeters
                if let (ce, cn) = courseVector, shape[i] != shape[i + 1] {
                    // prefer the pass in the driving direction where the route doubles back
                    let dx = Angle.normalizedLongitude(shape[i + 1].longitude - shape[i].longitude) * ruler.kx
                    let dy = (shape[i + 1].latitude - shape[i].latitude) * ruler.ky
                    let length = (dx * dx + dy * dy).squareRoot()
                    score += length > 0 && (dx * ce + dy * cn) < cos100 * length ? 15 : 0
                }
                // a little preference for staying near the hint, against jumps far ahead
                score += Double(max(0, i - hint)) * 0.01
                if let f = from, reach.isFinite {
                    let at = leg.cumulativeMeters[i] + (leg.cumulativeMeters[i + 1] - leg.cumulativeMeters[i]) * p.fraction
                    score += max(0, at - f - reach) * 0.5 + max(0, f - 30 - at) * 0.5
                }
                candidates.append((score, i, p.fraction, p.distanceMeters))
            }
            // The course and reach preferences choose between passes near the car, never a pass
            // far from it over one it is on: where a route uses a street twice and the car is
            // on the later pass sooner than the reach allows (fixes dropped, a slow estimate),
            // the earlier pass 65 m away was taken and a false "off route" followed (issue #24).
            guard let nearest = candidates.lazy.map(\.distance).min() else { return nil }
            let near = max(nearest + RouteTracker.passMarginMeters, RouteTracker.onRouteMeters)
            var best: (score: Double, segment: Int, fraction: Double, distance: Double)?
            for k in candidates where k.distance <= near && k.score < best?.score ?? .infinity { best = k }
            guard let b = best else { return nil }
            let i = b.segment
            // past the segment's end, the route's direction there is the next segment's
            var ahead = ruler.bearing(shape[i], shape[i + 1])
            if b.fraction > 0.999, i + 2 < shape.count, shape[i + 1] != shape[i + 2] { ahead = ruler.bearing(shape[i + 1], shape[i + 2]) }
            return LegPosition(segment: i, alongMeters: leg.cumulativeMeters[i] + (leg.cumulativeMeters[i + 1] - leg.cumulativeMeters[i]) * b.fraction,
                               distanceMeters: b.distance, bearingDegrees: ahead, side: side(of: c, shape[i], shape[i + 1], ruler))
        }
        let lo = max(0, hint - 3), hi = min(shape.count - 1, hint + 80)
        if let near = scan(lo..<hi), near.distanceMeters < onRouteMeters { return near }
        let all = scan(0..<(shape.count - 1))!
        return all
    }

    /// Whether `c` lies right (1) or left (-1) of the line a→b.
    static func side(of c: Coordinate, _ a: Coordinate, _ b: Coordinate, _ ruler: CheapRuler) -> Double {
        let dx = Angle.normalizedLongitude(b.longitude - a.longitude) * ruler.kx, dy = (b.latitude - a.latitude) * ruler.ky
        let px = Angle.normalizedLongitude(c.longitude - a.longitude) * ruler.kx, py = (c.latitude - a.latitude) * ruler.ky
        return dx * py - dy * px > 0 ? -1 : 1
    }

    /// A car short of the leg's start, driving towards it along the line of the first segment (a
    /// waypoint taken as reached a few seconds early, a route starting just ahead of the car): its
    /// distance from that line, within `approachMeters` of the start and 45° of its direction.
    /// Measured to the start point itself, a car 30 m short of a waypoint on a street the next
    /// leg comes back along was placed on the way back, 2 m away, and seen driving the wrong way
    /// (issue #24's road drive set).
    static func approachingStart(_ c: Coordinate, _ start: Coordinate, bearing: Double, courseDegrees: Double?, _ ruler: CheapRuler) -> Double? {
        guard let course = courseDegrees, abs(Angle.difference(from: bearing, to: course)) <= 45 else { return nil }
        let d = ruler.distance(c, start)
        guard d > 0, d <= approachMeters else { return nil }
        let off = Angle.difference(from: bearing, to: ruler.bearing(c, start)) * .pi / 180
        guard cos(off) > 0 else { return nil }
        return d * abs(sin(off))
    }

    /// How far short of a leg's start a car driving towards it is taken to be on the way in.
    static let approachMeters = 60.0

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

/// The shape of the leg the car is on, measured near the car's place along it (the off-route
/// evidence: where the car's own movement puts it, and how its last course compares with the
/// route's way there).
struct LegShape {
    let leg: RouteLeg

    /// The distance from `c` to the part of the leg within `spanMeters` either side of
    /// `nearMeters` along it: where the car may be, not a pass of the route elsewhere.
    func distance(from c: Coordinate, nearMeters: Double, spanMeters: Double = 250) -> Double {
        let shape = leg.shape, cumulative = leg.cumulativeMeters
        guard shape.count >= 2 else { return shape.first.map { c.distance(to: $0) } ?? .infinity }
        let ruler = CheapRuler(latitude: c.latitude)
        var best = Double.infinity
        var i = leg.position(atMeters: nearMeters - spanMeters).segment
        while i + 1 < shape.count, cumulative[i] <= nearMeters + spanMeters {
            best = min(best, ruler.project(c, onto: shape[i], shape[i + 1]).distanceMeters)
            i += 1
        }
        return best
    }

    /// The smallest angle, degrees, between `courseDegrees` and the leg's way anywhere within
    /// `spanMeters` either side of `nearMeters` along it.
    func smallestAngle(to courseDegrees: Double, nearMeters: Double, spanMeters: Double) -> Double {
        let shape = leg.shape, cumulative = leg.cumulativeMeters
        guard shape.count >= 2 else { return 0 }
        var i = leg.position(atMeters: nearMeters - spanMeters).segment
        var best: Double?
        while i + 1 < shape.count, cumulative[i] <= nearMeters + spanMeters {
            if shape[i] != shape[i + 1] {
                best = min(best ?? 180, abs(Angle.difference(from: shape[i].bearing(to: shape[i + 1]), to: courseDegrees)))
            }
            i += 1
        }
        return best ?? 0  // (no way to compare with: not off it)
    }
}
