import FoundationEssentials
import Glibc
import Geo

/// A constant-velocity Kalman filter for a car in a local east/north frame (metres): state
/// [x, y, vx, vy]. Position and velocity measurements are applied separately, each with its own
/// noise from the receiver's error estimates; a position whose innovation is improbable
/// (Mahalanobis distance beyond the 99.9% χ² bound) is not applied, so a single outlier does not
/// drag the track. A value type: no clock, time comes with each call.
public struct KalmanFilter: Sendable {
    /// Standard deviation of the car's acceleration (process noise), m/s².
    public var accelerationSigma = 2.5
    /// χ² bound with 2 degrees of freedom at 99.9%.
    public var gate = 13.8

    public private(set) var time: Double
    public private(set) var projection: LocalProjection
    /// State and covariance (row-major 4×4), in SIMD storage: no heap traffic per fix.
    private var x: SIMD4<Double>
    private var p: SIMD16<Double>

    /// Starts at a first position with its standard deviation (m) and optional velocity (m/s east, north).
    public init(time: Double, position: Coordinate, sigma: Double, velocity: (Double, Double)?, velocitySigma: Double) {
        self.time = time
        projection = LocalProjection(origin: position)
        x = [0, 0, velocity?.0 ?? 0, velocity?.1 ?? 0]
        let pv = velocity == nil ? 100.0 : velocitySigma * velocitySigma
        p = [sigma * sigma, 0, 0, 0,
             0, sigma * sigma, 0, 0,
             0, 0, pv, 0,
             0, 0, 0, pv]
    }

    public var position: Coordinate { projection.unproject(LocalPoint(x: x[0], y: x[1])) }
    public var velocity: (east: Double, north: Double) { (x[2], x[3]) }
    public var speed: Double { (x[2] * x[2] + x[3] * x[3]).squareRoot() }
    /// Course over ground from the velocity, degrees.
    public var course: Double { Angle.normalized(atan2(x[2], x[3]) * 180 / .pi) }
    /// One-sigma horizontal position uncertainty (root of the mean of the variances), metres.
    public var positionSigma: Double { ((p[0] + p[5]) / 2).squareRoot() }

    /// Advances to `t` (no measurement).
    public mutating func predict(to t: Double) {
        let dt = t - time
        guard dt > 0 else { return }
        time = t
        x[0] += x[2] * dt
        x[1] += x[3] * dt
        // P = F P Fᵀ + Q with F = [[I, dt·I], [0, I]]
        var n = p
        for r in 0..<2 {
            for c in 0..<4 {
                n[r * 4 + c] = p[r * 4 + c] + dt * p[(r + 2) * 4 + c]
            }
        }
        var m = n
        for r in 0..<4 {
            for c in 0..<2 {
                m[r * 4 + c] = n[r * 4 + c] + dt * n[r * 4 + c + 2]
            }
        }
        let q = accelerationSigma * accelerationSigma
        let dt2 = dt * dt, dt3 = dt2 * dt, dt4 = dt2 * dt2
        for axis in 0..<2 {
            m[axis * 4 + axis] += q * dt4 / 4
            m[axis * 4 + axis + 2] += q * dt3 / 2
            m[(axis + 2) * 4 + axis] += q * dt3 / 2
            m[(axis + 2) * 4 + axis + 2] += q * dt2
        }
        p = m
        recenterIfFar()
    }

    /// Applies a position measurement with standard deviation `sigma` (m). Returns false (and
    /// changes nothing) when the innovation fails the gate.
    @discardableResult
    public mutating func updatePosition(_ c: Coordinate, sigma: Double, force: Bool = false) -> Bool {
        let z = projection.project(c)
        return update(offset: 0, z: (z.x, z.y), r: sigma * sigma, force: force)
    }

    /// Applies a velocity measurement (m/s east, north) with standard deviation `sigma`.
    public mutating func updateVelocity(east: Double, north: Double, sigma: Double) {
        _ = update(offset: 2, z: (east, north), r: sigma * sigma, force: true)
    }

    /// Mahalanobis distance² of a position from the prediction.
    public func innovation(_ c: Coordinate, sigma: Double) -> Double {
        let z = projection.project(c)
        let y0 = z.x - x[0], y1 = z.y - x[1]
        let s00 = p[0] + sigma * sigma, s01 = p[1], s10 = p[4], s11 = p[5] + sigma * sigma
        let det = s00 * s11 - s01 * s10
        guard det > 0 else { return 0 }
        return (y0 * (s11 * y0 - s01 * y1) + y1 * (-s10 * y0 + s00 * y1)) / det
    }

    /// A 2-D update of the state components offset..offset+1 (position 0, velocity 2).
    private mutating func update(offset o: Int, z: (Double, Double), r: Double, force: Bool) -> Bool {
        let y0 = z.0 - x[o], y1 = z.1 - x[o + 1]
        let s00 = p[o * 4 + o] + r, s01 = p[o * 4 + o + 1], s10 = p[(o + 1) * 4 + o], s11 = p[(o + 1) * 4 + o + 1] + r
        let det = s00 * s11 - s01 * s10
        guard det > 1e-12 else { return false }
        let i00 = s11 / det, i01 = -s01 / det, i10 = -s10 / det, i11 = s00 / det
        if !force {
            let d2 = y0 * (i00 * y0 + i01 * y1) + y1 * (i10 * y0 + i11 * y1)
            if d2 > gate { return false }
        }
        // K = P Hᵀ S⁻¹ (4×2): column j of P at the measured components
        var k = SIMD8<Double>()
        for row in 0..<4 {
            let a = p[row * 4 + o], b = p[row * 4 + o + 1]
            k[row * 2] = a * i00 + b * i10
            k[row * 2 + 1] = a * i01 + b * i11
        }
        for row in 0..<4 { x[row] += k[row * 2] * y0 + k[row * 2 + 1] * y1 }
        // P = (I - K H) P
        var n = p
        for row in 0..<4 {
            for c in 0..<4 {
                n[row * 4 + c] = p[row * 4 + c] - (k[row * 2] * p[o * 4 + c] + k[row * 2 + 1] * p[(o + 1) * 4 + c])
            }
        }
        // keep it symmetric against rounding
        for row in 0..<4 { for c in (row + 1)..<4 { let v = (n[row * 4 + c] + n[c * 4 + row]) / 2; n[row * 4 + c] = v; n[c * 4 + row] = v } }
        p = n
        return true
    }

    /// Moves the state to a position on a road (dead reckoning along it), keeping the speed and
    /// turning the velocity to the road's direction.
    public mutating func constrain(to c: Coordinate, courseDegrees: Double, sigma: Double) {
        let z = projection.project(c)
        x[0] = z.x
        x[1] = z.y
        let v = speed, rad = courseDegrees * .pi / 180
        x[2] = v * sin(rad)
        x[3] = v * cos(rad)
        let s2 = sigma * sigma
        if p[0] < s2 { p[0] = s2 }
        if p[5] < s2 { p[5] = s2 }
    }

    /// The local frame stays near the car (the equirectangular projection is exact only nearby).
    private mutating func recenterIfFar() {
        guard abs(x[0]) > 20_000 || abs(x[1]) > 20_000 else { return }
        let here = position
        projection = LocalProjection(origin: here)
        x[0] = 0
        x[1] = 0
    }
}
