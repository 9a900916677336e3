import Geo
import Positioning
import Platform

/// How far over the limit counts as speeding: a share of the limit (`10%`) or a speed above it
/// (`5 km/h`, `3 mph`), as `speeding-margin` in tern.conf.
public enum SpeedingMargin: Sendable, Equatable {
    case percent(Double)
    case kmh(Double)

    /// The speed (km/h) from which a limit counts as exceeded.
    public func threshold(limitKmh: Double) -> Double {
        switch self {
        case .percent(let p): return limitKmh * (1 + p / 100)
        case .kmh(let k): return limitKmh + k
        }
    }

    /// Parses "10%", "5 km/h", "5kmh", "3 mph"; nil when it is none of these (0 to 50).
    public static func parse(_ text: String) -> SpeedingMargin? {
        let t = text.lowercased().replacing(" ", with: "")
        func number(_ suffix: String) -> Double? {
            guard t.hasSuffix(suffix), let v = Double(t.dropLast(suffix.count)), v.isFinite, (0...50).contains(v) else { return nil }
            return v
        }
        if let v = number("%") { return .percent(v) }
        if let v = number("km/h") ?? number("kmh") { return .kmh(v) }
        if let v = number("mph") { return .kmh(v * 1.609_344) }
        return nil
    }
}

/// Speeding on the matched road's limit: `speeding` events when it begins, when the limit changes
/// while it lasts and when it ends (not on every position: a display holds the state between),
/// and one spoken warning when it has lasted `warnAfterSeconds`, not again until the car has kept
/// under the limit for `rearmAfterSeconds` (a speed hovering at the margin is warned once), as
/// users of OsmAnd ask (#3855, #8108). No warning on a road whose limit is not mapped.
struct SpeedingMonitor: Sendable {
    var margin = SpeedingMargin.percent(10)
    static let warnAfterSeconds = 3.0
    static let rearmAfterSeconds = 30.0
    /// The limit being exceeded, nil while the car keeps to it.
    private var exceeding: Double?
    /// Since when the car has been over the limit (on a road with a known limit), whether it was
    /// told, and since when it has kept under.
    private var overSince: Double?
    private var warned = false
    private var underSince: Double?

    init(margin: SpeedingMargin = .percent(10)) { self.margin = margin }

    mutating func update(_ p: FilteredPosition, limitKmh: Double?) -> NavigationEvent? {
        guard let limit = limitKmh, let v = p.speedMetersPerSecond else {
            overSince = nil  // (no limit known here: nothing to warn about)
            return nil
        }
        let kmh = v * 3.6
        let over = (kmh / limit - 1) * 100
        let now = kmh >= margin.threshold(limitKmh: limit) ? limit : nil
        if now == nil {
            overSince = nil
            if kmh <= limit {
                if underSince == nil { underSince = p.time }
                if let u = underSince, p.time - u >= SpeedingMonitor.rearmAfterSeconds { warned = false }
            } else {
                underSince = nil
            }
        } else {
            underSince = nil
            if overSince == nil { overSince = p.time }
        }
        guard now != exceeding else { return nil }
        exceeding = now
        return NavigationEvent(time: p.time, .speeding(percentOver: over, limitKmh: limit))
    }

    /// The limit to warn about now: once per episode, when speeding has lasted long enough and
    /// the speaker is free (the warning waits for a prompt to end, not its turn lost).
    mutating func warningDue(time: Double, speakerFree: Bool) -> Double? {
        guard let limit = exceeding, let since = overSince, !warned, speakerFree,
              time - since >= SpeedingMonitor.warnAfterSeconds else { return nil }
        warned = true
        return limit
    }
}

/// A lower limit ahead on the route, told before it begins ("Speed limit 50"), at the distance
/// a "turn in" prompt is given at that speed, once per place on a route (kept with the route).
struct LimitAhead: Sendable {
    /// The places told on this route (leg, metres along it).
    private var told = Set<Place>()
    struct Place: Hashable, Sendable {
        var leg: Int
        var meters: Double
    }

    /// The limit to announce now, if any: the next change on the leg (after `traveled` metres) to
    /// a limit lower than the one in force, within `announceMeters(limit)`, not told yet.
    func due(_ changes: [SpeedLimitChange], leg: Int, traveled: Double, announceMeters: (Double) -> Double) -> (limitKmh: Double, place: Place)? {
        guard !changes.isEmpty else { return nil }
        // the limit in force: the last change at or before the car
        var i = 0
        while i + 1 < changes.count, changes[i + 1].startMeters <= traveled { i += 1 }
        guard changes[i].startMeters <= traveled, let current = changes[i].limitKmh, i + 1 < changes.count else { return nil }
        let next = changes[i + 1]
        guard let lower = next.limitKmh, lower < current else { return nil }
        let place = Place(leg: leg, meters: next.startMeters)
        guard !told.contains(place), next.startMeters - traveled <= announceMeters(lower) else { return nil }
        return (lower, place)
    }

    mutating func said(_ place: Place) { told.insert(place) }
}
