import Console
import Foundation
import Geo
import GPSInput
import Navigation
import Platform
import Simulation
@testable import TernApp
import TestSupport
import Testing

/// The arrival time on the status line is the driver's clock, not UTC.
@Suite struct LocalTimeTests {
    final class Lines: StatusSink, @unchecked Sendable {
        private let lock = NSLock()
        private var lines: [String] = []
        func write(_ line: StatusLine) { lock.withLock { lines.append(line.text) } }
        func close() {}
        var last: String? { lock.withLock { lines.last { $0.contains("ETA ") } } }
    }

    func etaMinutes(zone: String) throws -> Int {
        let map = try TestMaps.demoTown()
        let sink = Lines()
        let pipeline = DrivePipeline(map: map, config: NavigatorConfig(), speech: nil, status: sink, recorder: nil)
        pipeline.timeZone = try #require(LocalTime(identifier: zone))
        let t0 = 1_765_000_000.0  // 2025-12-06, winter: Berlin is UTC+1
        pipeline.go(to: [DemoTown.destination], time: t0)
        for k in 0..<4 {
            pipeline.handle(.fix(GPSFix(time: t0 + Double(k), coordinate: DemoTown.start, mode: .threeD, speedMetersPerSecond: 0,
                                        horizontalErrorMeters: 3)))
        }
        let line = try #require(sink.last, "no status line with an arrival time")
        let clock = try #require(line.range(of: "ETA ").map { line[$0.upperBound...].prefix(5) })
        let parts = clock.split(separator: ":").compactMap { Int($0) }
        try #require(parts.count == 2, "\(line)")
        return parts[0] * 60 + parts[1]
    }

    @Test func arrivalTimeIsToldInTheZone() throws {
        let utc = try etaMinutes(zone: "UTC"), berlin = try etaMinutes(zone: "Europe/Berlin"), ny = try etaMinutes(zone: "America/New_York")
        #expect((berlin - utc + 1440) % 1440 == 60)
        #expect((ny - utc + 1440) % 1440 == 1440 - 300)
    }
}
