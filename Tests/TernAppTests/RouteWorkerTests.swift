import Foundation
import Geo
import Navigation
import Simulation
@testable import TernApp
import TestSupport
import Testing

/// The appliance computes routes on a worker: a reroute overtaken by a newer one before it
/// starts is not computed (a storm of requests costs one route), and answers come back with
/// their ids for the navigator to match.
@Suite struct RouteWorkerTests {
    final class Answers: @unchecked Sendable {
        let lock = NSLock()
        var ids: [Int] = []
        func add(_ input: NavigatorInput) {
            guard case .routeComputed(let id, _, _) = input else { return }
            lock.withLock { ids.append(id) }
        }
    }

    @Test func anOvertakenRequestIsNotComputed() throws {
        let m = try TestMaps.demoTown()
        let worker = RouteWorker(map: m)
        func request(_ id: Int, _ reason: RouteReason = .reroute) -> RouteRequest {
            RouteRequest(id: id, reason: reason, origin: DemoTown.start, headingDegrees: nil, waypoints: [DemoTown.destination], time: 0)
        }
        let answers = Answers()
        let hold = DispatchSemaphore(value: 0)
        // a traffic check (never skipped) holds the worker until the two reroutes are in
        worker.submit(request(1, .traffic)) { _ in hold.wait() }
        worker.submit(request(2)) { answers.add($0) }
        worker.submit(request(3)) { answers.add($0) }
        hold.signal()
        worker.drain()
        #expect(answers.ids == [3])
    }
}
