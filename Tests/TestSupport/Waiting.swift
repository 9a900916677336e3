import Foundation

/// How much longer than on this machine the tests' deadlines are: `TERN_TEST_TIME_SCALE`
/// (default 1). Under qemu a core is about 14 times slower (docs/arm64.md), and
/// scripts/arm64-check.sh sets it, so a deadline tests that something happens, not how fast.
/// What real time itself decides (gpsd pacing a log) is not scaled, and may differ there.
public enum TestTiming {
    public static let scale: Double = {
        guard let v = ProcessInfo.processInfo.environment["TERN_TEST_TIME_SCALE"], let x = Double(v), x >= 1 else { return 1 }
        return x
    }()
    /// A deadline of `s` seconds here, scaled.
    public static func seconds(_ s: Double) -> Double { s * scale }
    /// A test's time limit of `m` minutes here, scaled (for `.timeLimit(.minutes(...))`).
    public static func minutes(_ m: Int) -> Int { Int((Double(m) * scale).rounded(.up)) }
}

/// Polls `condition` until it holds or `seconds` (scaled by `TestTiming`) pass; returns whether it held.
public func waitUntil(seconds: Double, poll: Double = 0.02, _ condition: () -> Bool) -> Bool {
    let deadline = Date().addingTimeInterval(TestTiming.seconds(seconds))
    while Date() < deadline {
        if condition() { return true }
        usleep(UInt32(poll * 1_000_000))
    }
    return condition()
}

/// Polls `condition` without blocking a cooperative thread (other tests' tasks keep running).
public func waitUntilAsync(seconds: Double, poll: Double = 0.02, _ condition: () -> Bool) async -> Bool {
    let deadline = Date().addingTimeInterval(TestTiming.seconds(seconds))
    while Date() < deadline {
        if condition() { return true }
        try? await Task.sleep(for: .milliseconds(Int(poll * 1000)))
    }
    return condition()
}
