import FoundationEssentials
import Glibc

/// The receiver's slowly wandering error (bias), estimated from how far its fixes lie beside the
/// route while the car is known to be on it, so that the off-route rules judge the distance the
/// car itself is from the route, not the receiver's error.
///
/// Why: a real receiver's bias is metres large and wanders over minutes (multipath in a street
/// canyon, an atmosphere model off). Issue #24's road drive set (a bias of 2–5 m per axis with a
/// correlation time of 1–5 min, as gpsd logs of consumer receivers show) put fixes 9–12 m beside
/// the planned road for tens of seconds; where a road ran beside it, the matchers took that road
/// and the rules saw the car leave. The bias is the same in every direction the car drives, so it
/// shows as a different distance beside the route as the route turns: each fix on the route
/// measures the bias across the route's direction there, and the turns of the route show both
/// of its components (a 2-state Kalman filter with one measurement per fix).
///
/// The bias is a first-order Gauss–Markov process (as `tern simulate`'s receiver and the usual
/// models of GNSS error): it decays towards zero with `correlationSeconds`, with a standard
/// deviation of `sigmaMeters` per axis. A fix whose distance beside the route disagrees with the
/// estimate by more than 3 standard deviations (a multipath burst, an outlier, the car leaving)
/// is not used. The estimate is a property of the receiver, not of a route: it is kept through
/// reroutes.
struct ReceiverBias: Sendable {
    /// Per axis (east, north), metres, and how long it takes to change.
    static let sigmaMeters = 5.0
    static let correlationSeconds = 120.0
    /// The scatter of a fix about the bias: white noise and the route's line not being the
    /// car's (lane, road width).
    static let fixSigmaMeters = 3.5
    /// No estimate is trusted beyond this, whatever the fixes say: a car beside the route by
    /// more than this is beside it.
    static let largestMeters = 12.0
    /// How many standard deviations of the estimate are left out of it as doubt.
    static let doubtSD = 0.5

    /// The estimate (east, north), metres, its covariance, and the time it holds for.
    private(set) var east = 0.0, north = 0.0
    private var pee = sigmaMeters * sigmaMeters, pnn = sigmaMeters * sigmaMeters, pen = 0.0
    private var time: Double?

    /// The unit vector to the right of a route direction (degrees clockwise from north), east and
    /// north components.
    private static func right(of bearingDegrees: Double) -> (Double, Double) {
        let r = bearingDegrees * .pi / 180
        return (cos(r), -sin(r))
    }

    /// Lets the estimate age to `t`: it decays and grows less certain.
    mutating func advance(to t: Double) {
        guard let last = time else {
            time = t
            return
        }
        let dt = max(0, t - last)
        time = t
        guard dt > 0 else { return }
        let phi = exp(-dt / Self.correlationSeconds)
        let q = Self.sigmaMeters * Self.sigmaMeters * (1 - phi * phi)
        east *= phi; north *= phi
        pee = phi * phi * pee + q; pnn = phi * phi * pnn + q; pen = phi * phi * pen
    }

    /// The estimated bias across a route of this direction, metres to its right, less one
    /// standard deviation of the estimate: only what the fixes have shown beyond doubt. (A
    /// receiver with a small bias gets an estimate about as large as its noise, ±2 m, and taking
    /// that out unshrunk moved the car's distance from the route by as much either way: a car
    /// turning the wrong way was seen a fix later.)
    func across(bearingDegrees: Double) -> Double {
        let (nx, ny) = Self.right(of: bearingDegrees)
        let b = nx * east + ny * north
        let sd = (nx * nx * pee + 2 * nx * ny * pen + ny * ny * pnn).squareRoot()
        let shown = max(0, abs(b) - Self.doubtSD * sd)
        return min(Self.largestMeters, shown) * (b < 0 ? -1 : 1)
    }

    /// The distance of a fix from the route with the bias taken out: `signedMeters` is the fix's
    /// distance beside the route, positive to the right of `bearingDegrees`.
    func corrected(signedMeters: Double, bearingDegrees: Double) -> Double {
        abs(signedMeters - across(bearingDegrees: bearingDegrees))
    }

    /// A fix on the route (the caller knows the car is on it) `signedMeters` to the right of the
    /// route of direction `bearingDegrees`, at the time last advanced to. Returns whether it was
    /// used (false: too far from the estimate to be the bias).
    @discardableResult
    mutating func observe(signedMeters z: Double, bearingDegrees: Double) -> Bool {
        let (nx, ny) = Self.right(of: bearingDegrees)
        let predicted = nx * east + ny * north
        // S = n P nᵀ + R
        let pn = (pee * nx + pen * ny, pen * nx + pnn * ny)
        let s = nx * pn.0 + ny * pn.1 + Self.fixSigmaMeters * Self.fixSigmaMeters
        let innovation = z - predicted
        guard innovation * innovation <= 9 * s else { return false }
        let k = (pn.0 / s, pn.1 / s)
        east += k.0 * innovation
        north += k.1 * innovation
        // P = (I - K n) P
        let (e, en, n) = (pee, pen, pnn)
        pee = e - k.0 * pn.0
        pen = en - k.0 * pn.1
        pnn = n - k.1 * pn.1
        return true
    }
}
