import Geo
import JSONLines

/// What the navigator tells the world (DESIGN.md's event table). Each becomes one line of
/// `events.jsonl`: `{"t": ISO time, "event": name, ...fields}`.
public struct NavigationEvent: Sendable, Equatable {
    /// Fix time of the position that caused it (seconds since the Unix epoch, UTC).
    public var time: Double
    public var kind: Kind

    public init(time: Double, _ kind: Kind) {
        self.time = time
        self.kind = kind
    }

    public enum Kind: Sendable, Equatable {
        case position(lat: Double, lon: Double, speedMps: Double?, courseDeg: Double?, road: String?, matched: Bool, estimated: Bool)
        case discarded(reason: String)
        case routeComputed(reason: String, distanceMeters: Double, durationSeconds: Double, resemblesPrevious: Bool?, shape: String)
        case progress(RouteProgress)
        case offRoute(distanceMeters: Double, reason: String)
        case rerouteStarted(from: Coordinate)
        case rerouted(distanceMeters: Double, durationSeconds: Double)
        case rerouteFailed(error: String)
        case prompt(text: String, locale: String, kind: String, maneuver: String)
        case waypointArrived(index: Int, name: String, continues: Bool)
        case arrived(index: Int, name: String)
        case speeding(percentOver: Double, limitKmh: Double)
        case roadName(name: String)
        case gpsLost(since: Double)
        case gpsRecovered(since: Double)
        case lighting(mode: String)
        case delayCategory(category: String, delaySeconds: Double)
        /// A faster route under traffic was taken: the time it saves against the old route's
        /// remaining time under the same traffic, whether it resembles the old route, and the
        /// other routes considered (Navmii's onReroutingByTrafficOccurred).
        case trafficReroute(savedSeconds: Double, previousSeconds: Double?, durationSeconds: Double, resemblesPrevious: Bool?,
                            alternatives: [RouteAlternative])
    }

    public var name: String {
        switch kind {
        case .position: return "position"
        case .discarded: return "discarded"
        case .routeComputed: return "routeComputed"
        case .progress: return "progress"
        case .offRoute: return "offRoute"
        case .rerouteStarted: return "rerouteStarted"
        case .rerouted: return "rerouted"
        case .rerouteFailed: return "rerouteFailed"
        case .prompt: return "prompt"
        case .waypointArrived: return "waypointArrived"
        case .arrived: return "arrived"
        case .speeding: return "speeding"
        case .roadName: return "roadName"
        case .gpsLost: return "gpsLost"
        case .gpsRecovered: return "gpsRecovered"
        case .lighting: return "lighting"
        case .delayCategory: return "delayCategory"
        case .trafficReroute: return "trafficReroute"
        }
    }

    /// The event as one JSON line (no newline), with a fixed key order and number precision so
    /// that replays are byte-identical.
    public func jsonLine() -> String {
        var fields: [(String, JSONValue)] = [("t", .string(FixTime.iso8601(time))), ("event", .string(name))]
        func opt(_ v: Double?, _ d: Int) -> JSONValue { v.map { .num($0, d) } ?? .null }
        switch kind {
        case let .position(lat, lon, speed, course, road, matched, estimated):
            fields += [("lat", .num(lat, 6)), ("lon", .num(lon, 6)), ("speed_mps", opt(speed, 2)),
                       ("course_deg", opt(course, 1)), ("road", road.map { .string($0) } ?? .null),
                       ("matched", .bool(matched)), ("estimated", .bool(estimated))]
        case let .discarded(reason):
            fields.append(("reason", .string(reason)))
        case let .routeComputed(reason, d, t, resembles, shape):
            fields += [("reason", .string(reason)), ("distance_m", .num(d, 1)), ("duration_s", .num(t, 1)),
                       ("resembles_previous", resembles.map { .bool($0) } ?? .null), ("shape", .string(shape))]
        case let .progress(p):
            fields += p.jsonFields
        case let .offRoute(d, reason):
            fields += [("distance_m", .num(d, 1)), ("reason", .string(reason))]
        case let .rerouteStarted(from):
            fields.append(("from", .array([.num(from.latitude, 6), .num(from.longitude, 6)])))
        case let .rerouted(d, t):
            fields += [("distance_m", .num(d, 1)), ("duration_s", .num(t, 1))]
        case let .rerouteFailed(error):
            fields.append(("error", .string(error)))
        case let .prompt(text, locale, kind, maneuver):
            fields += [("text", .string(text)), ("locale", .string(locale)), ("kind", .string(kind)), ("maneuver", .string(maneuver))]
        case let .waypointArrived(index, name, continues):
            fields += [("index", .int(index)), ("name", .string(name)), ("continues", .bool(continues))]
        case let .arrived(index, name):
            fields += [("index", .int(index)), ("name", .string(name))]
        case let .speeding(percent, limit):
            fields += [("percent_over", .num(percent, 1)), ("limit_kmh", .num(limit, 0))]
        case let .roadName(name):
            fields.append(("name", .string(name)))
        case let .gpsLost(since), let .gpsRecovered(since):
            fields.append(("since", .string(FixTime.iso8601(since))))
        case let .lighting(mode):
            fields.append(("mode", .string(mode)))
        case let .delayCategory(category, delay):
            fields += [("category", .string(category)), ("delay_s", .num(delay, 0))]
        case let .trafficReroute(saved, previous, duration, resembles, alternatives):
            fields += [("saved_s", .num(saved, 0)), ("previous_s", opt(previous, 0)), ("duration_s", .num(duration, 0)),
                       ("resembles_previous", resembles.map { .bool($0) } ?? .null),
                       ("alternatives", .array(alternatives.map {
                           .object([("duration_s", .num($0.durationSeconds, 0)), ("distance_m", .num($0.distanceMeters, 0)),
                                    ("resembles_previous", .bool($0.resemblesPrevious))])
                       }))]
        }
        return JSONValue.object(fields).serialized()
    }
}
