import Geo
import JSONLines

/// What the navigator tells the world (DESIGN.md's event table). Each becomes one line of
/// `events.jsonl`: `{"t": ISO time, "event": name, ...fields}`.
public struct NavigationEvent: Sendable, Equatable {
    /// Fix time of the position that caused it (seconds since the Unix epoch, UTC).
    public var time: Double
    public var kind: Kind
    /// Where it happened by address ("Hauptstraße 12, Altstadt"), where the appliance adds it
    /// (a stop or the destination reached, with a map that has a search index); written last.
    public var address: String?

    public init(time: Double, _ kind: Kind, address: String? = nil) {
        self.time = time
        self.kind = kind
        self.address = address
    }

    public enum Kind: Sendable, Equatable {
        /// The filtered position; `snapped`: where the matcher put it on its road (nil: not
        /// matched); `limitKmh`: that road's posted limit (nil: none mapped).
        case position(lat: Double, lon: Double, speedMps: Double?, courseDeg: Double?, road: String?, snapped: Coordinate?, estimated: Bool,
                      limitKmh: Double? = nil)
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
        var w = JSONWriter()
        write(to: &w)
        return w.text
    }

    /// A position's place (to `placeDigits` decimals), speed and course, as its event and the
    /// drive log's track point both write them.
    public static func writeMotion(lat: Double, lon: Double, speed: Double?, course: Double?, placeDigits: Int,
                                   to w: inout JSONWriter) {
        w.key("lat"); w.number(lat, digits: placeDigits)
        w.key("lon"); w.number(lon, digits: placeDigits)
        w.key("speed_mps"); w.number(speed, digits: 2)
        w.key("course_deg"); w.number(course, digits: 1)
    }

    /// Whether the position was matched to a road, where on it (`snap_lat`, `snap_lon`), and
    /// the road's limit (`limit_kmh`, where mapped).
    public static func writeSnapped(_ snapped: Coordinate?, limitKmh: Double?, placeDigits: Int, to w: inout JSONWriter) {
        w.key("matched"); w.bool(snapped != nil)
        if let s = snapped {
            w.key("snap_lat"); w.number(s.latitude, digits: placeDigits)
            w.key("snap_lon"); w.number(s.longitude, digits: placeDigits)
        }
        if let l = limitKmh { w.key("limit_kmh"); w.number(l, digits: 0) }
    }

    /// Writes the event's JSON object (no newline) through `w`.
    public func write(to w: inout JSONWriter) {
        w.beginObject()
        w.key("t"); w.string(FixTime.iso8601(time))
        w.key("event"); w.string(name)
        switch kind {
        case let .position(lat, lon, speed, course, road, snapped, estimated, limit):
            Self.writeMotion(lat: lat, lon: lon, speed: speed, course: course, placeDigits: 6, to: &w)
            w.key("road"); w.string(road)
            Self.writeSnapped(snapped, limitKmh: limit, placeDigits: 6, to: &w)
            w.key("estimated"); w.bool(estimated)
        case let .discarded(reason):
            w.key("reason"); w.string(reason)
        case let .routeComputed(reason, d, t, resembles, shape):
            w.key("reason"); w.string(reason)
            w.key("distance_m"); w.number(d, digits: 1)
            w.key("duration_s"); w.number(t, digits: 1)
            w.key("resembles_previous"); if let resembles { w.bool(resembles) } else { w.null() }
            w.key("shape"); w.string(shape)
        case let .progress(p):
            p.writeFields(to: &w)
        case let .offRoute(d, reason):
            w.key("distance_m"); w.number(d, digits: 1)
            w.key("reason"); w.string(reason)
        case let .rerouteStarted(from):
            w.key("from"); w.beginArray(); w.number(from.latitude, digits: 6); w.number(from.longitude, digits: 6); w.endArray()
        case let .rerouted(d, t):
            w.key("distance_m"); w.number(d, digits: 1)
            w.key("duration_s"); w.number(t, digits: 1)
        case let .rerouteFailed(error):
            w.key("error"); w.string(error)
        case let .prompt(text, locale, kind, maneuver):
            w.key("text"); w.string(text)
            w.key("locale"); w.string(locale)
            w.key("kind"); w.string(kind)
            w.key("maneuver"); w.string(maneuver)
        case let .waypointArrived(index, name, continues):
            w.key("index"); w.int(index)
            w.key("name"); w.string(name)
            w.key("continues"); w.bool(continues)
        case let .arrived(index, name):
            w.key("index"); w.int(index)
            w.key("name"); w.string(name)
        case let .speeding(percent, limit):
            w.key("percent_over"); w.number(percent, digits: 1)
            w.key("limit_kmh"); w.number(limit, digits: 0)
        case let .roadName(name):
            w.key("name"); w.string(name)
        case let .gpsLost(since), let .gpsRecovered(since):
            w.key("since"); w.string(FixTime.iso8601(since))
        case let .lighting(mode):
            w.key("mode"); w.string(mode)
        case let .delayCategory(category, delay):
            w.key("category"); w.string(category)
            w.key("delay_s"); w.number(delay, digits: 0)
        case let .trafficReroute(saved, previous, duration, resembles, alternatives):
            w.key("saved_s"); w.number(saved, digits: 0)
            w.key("previous_s"); w.number(previous, digits: 0)
            w.key("duration_s"); w.number(duration, digits: 0)
            w.key("resembles_previous"); if let resembles { w.bool(resembles) } else { w.null() }
            w.key("alternatives")
            w.beginArray()
            for a in alternatives {
                w.beginObject()
                w.key("duration_s"); w.number(a.durationSeconds, digits: 0)
                w.key("distance_m"); w.number(a.distanceMeters, digits: 0)
                w.key("resembles_previous"); w.bool(a.resemblesPrevious)
                w.endObject()
            }
            w.endArray()
        }
        if let address { w.key("address"); w.string(address) }
        w.endObject()
    }
}
