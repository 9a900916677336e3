import Geo
import MapData
import Navigation
import Routing

/// Receives the engine's events and prompts: the Swift API of the engine, as the SDKs'
/// delegates (Mapbox's NavigationServiceDelegate, Google's listeners). Every event of
/// `events.jsonl` arrives here, in the same order, before the next input is handled.
public protocol NavigationListener: AnyObject {
    func navigation(didEmit event: NavigationEvent)
    /// A prompt to speak now (the session does not speak: its owner does).
    func navigation(shouldSpeak prompt: Prompt)
    /// Stop the prompt being spoken and drop queued ones: they were for a route the car has left.
    func navigationShouldStopSpeaking()
    /// The status line's content, once a second of drive time.
    func navigation(didUpdate status: DriveStatus)
}

extension NavigationListener {
    public func navigation(shouldSpeak prompt: Prompt) {}
    public func navigationShouldStopSpeaking() {}
    public func navigation(didUpdate status: DriveStatus) {}
}

/// The drive engine with its routes computed at once on this thread: what a Swift program
/// embeds. Receiver epochs and commands go in (`handle`), events, prompts and status go to the
/// listeners, route requests are answered by the `RouteService` (the real router and
/// maneuvers). Listeners are held weakly: a listener that is gone is skipped and dropped.
public final class NavigationSession {
    public private(set) var engine: DriveEngine
    public let routes: RouteService
    private var listeners: [Weak] = []

    private struct Weak {
        weak var listener: NavigationListener?
    }

    public init(map: RoadMap, config: NavigatorConfig = NavigatorConfig()) {
        routes = RouteService(map: map)
        engine = DriveEngine(map: map, config: config)
    }

    public var navigator: Navigator { engine.navigator }

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
        handle(.navigator(.trafficChanged(time: time)))
    }

    /// One input through the engine; its effects carried out before returning.
    public func handle(_ input: DriveInput) {
        for effect in engine.handle(input, routes: routes) {
            for box in listeners {
                guard let l = box.listener else { continue }
                switch effect {
                case .event(let e): l.navigation(didEmit: e)
                case .speak(let p): l.navigation(shouldSpeak: p)
                case .silence: l.navigationShouldStopSpeaking()
                case .status(let s): l.navigation(didUpdate: s)
                case .requestRoute: break  // answered in the call
                }
            }
        }
        if listeners.contains(where: { $0.listener == nil }) { listeners.removeAll { $0.listener == nil } }
    }
}
