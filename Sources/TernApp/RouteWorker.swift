import Dispatch
import FoundationEssentials
import Glibc
import Platform
import MapData
import Navigation
import Routing

/// Routes computed off the drive loop, one at a time, as the appliance does: a reroute takes
/// milliseconds on a Pi, and the status line shows REROUTING meanwhile. A request overtaken by a
/// newer one before it starts is not computed; an answer to an old request that does arrive is
/// dropped by the navigator (its id is no longer awaited).
final class RouteWorker: @unchecked Sendable {
    // @unchecked: `service` (and its router's traffic) is touched only on `queue`; `newest` only under `lock`.
    private let service: RouteService
    private let queue = DispatchQueue(label: "tern.routes", qos: .userInitiated)
    private let lock = Lock()
    private var newest = 0

    init(map: RoadMap) { service = RouteService(map: map) }

    /// Computes `request` on the worker and passes the navigator's input to `reply` there.
    func submit(_ request: RouteRequest, reply: @escaping @Sendable (NavigatorInput) -> Void) {
        lock.withLock { newest = max(newest, request.id) }
        queue.async { [self] in
            // a traffic check does not overtake a reroute; a reroute does not wait for a stale one
            let overtaken = lock.withLock { request.id < newest }
            if overtaken && request.reason != .traffic { return }
            reply(service.answer(request))
        }
    }

    /// The traffic later requests are searched with (in order with them: the queue is serial).
    func setTraffic(_ traffic: TrafficConditions) {
        queue.async { [self] in service.router.traffic = traffic }
    }

    /// Waits for the requests already submitted (shutdown, tests).
    func drain() { queue.sync {} }
}
