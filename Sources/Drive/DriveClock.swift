/// Drive time for the appliance's clock ticks. The engine's times are the receiver's (UTC from
/// the fixes); a Pi without a real-time clock may boot with its wall clock days off. So a tick
/// is dated from the last receiver epoch plus the monotonic time since it, and only before the
/// first epoch from the wall clock.
public struct DriveClock: Sendable {
    private var anchor: (drive: Double, monotonic: Double)?

    public init() {}

    /// A receiver epoch at `driveTime` arrived at `monotonic` seconds.
    public mutating func observe(driveTime: Double, monotonic: Double) {
        anchor = (driveTime, monotonic)
    }

    /// The drive time at `monotonic`; `wall` until the receiver has dated anything.
    public func driveTime(monotonic: Double, wall: Double) -> Double {
        guard let a = anchor else { return wall }
        return a.drive + max(0, monotonic - a.monotonic)
    }
}
