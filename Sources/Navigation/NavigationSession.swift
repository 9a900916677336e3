import Geo
import MapData
import Routing

/// Receives the navigator's events and prompts: the Swift API of the engine, as the SDKs'
/// delegates (Mapbox's NavigationServiceDelegate, Google's listeners). Every event of
/// `events.jsonl` arrives here, in the same order, before the next input is handled.
public protocol NavigationListener: AnyObject {
    func navigation(didEmit event: NavigationEvent)
    /// A prompt to speak now (the session does not speak: its owner does).
    func navigation(shouldSpeak prompt: Prompt)
    /// Stop the prompt being spoken and drop queued ones: they were for a route the car has left.
    func navigationShouldStopSpeaking()
}

extension NavigationListener {
    public func navigation(shouldSpeak prompt: Prompt) {}
    public func navigationShouldStopSpeaking() {}
}

/// The navigator with its routes computed at once on this thread: what a Swift program embeds.
/// Inputs go in (`handle`), events and prompts go to the listeners, route requests are answered
/// by the `RouteService` (the real router and maneuvers). Listeners are held weakly: a listener
/// that is gone is skipped and dropped.
public final class NavigationSession {
    public private(set) var navigator: Navigator
    public let routes: RouteService
    private var listeners: [Weak] = []

    private struct Weak {
        weak var listener: NavigationListener?
    }

    public init(map: RoadMap, config: NavigatorConfig = NavigatorConfig()) {
        routes = RouteService(map: map)
        navigator = Navigator(config: config)
    }

    public func addListener(_ listener: NavigationListener) {
        listeners.removeAll { $0.listener == nil || $0.listener === listener }
        listeners.append(Weak(listener: listener))
    }

    public func removeListener(_ listener: NavigationListener) {
        listeners.removeAll { $0.listener == nil || $0.listener === listener }
    }

    /// Speeds and closures routes are searched with; the navigator checks its route at once.
    public func setTraffic(_ traffic: TrafficConditions, time: Double) {
        routes.router.traffic = traffic
        handle(.trafficChanged(time: time))
    }

    /// One input through the navigator; its effects carried out before returning.
    public func handle(_ input: NavigatorInput) {
        var queue = navigator.handle(input)
        while !queue.isEmpty {
            switch queue.removeFirst() {
            case .emit(let e):
                for box in listeners { box.listener?.navigation(didEmit: e) }
            case .requestRoute(let req):
                queue += navigator.handle(routes.answer(req))
            case .speak(let p):
                for box in listeners { box.listener?.navigation(shouldSpeak: p) }
            case .silence:
                for box in listeners { box.listener?.navigationShouldStopSpeaking() }
            }
        }
        if listeners.contains(where: { $0.listener == nil }) { listeners.removeAll { $0.listener == nil } }
    }
}
