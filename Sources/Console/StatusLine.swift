import Drive
import FoundationEssentials
import Glibc
import Platform
import Geo
import Guidance
import Navigation

/// The one-line summary written to the serial console once a second (the engine's status effect):
/// `[GUIDING] Turn left onto Hauptstraße in 250 m | 3.2 km 6 min ETA 12:34 | 48 km/h limit 50 | 3D`.
public struct StatusLine: Sendable, Equatable {
    public var text: String

    public init(state: NavigatorState, progress: RouteProgress?, speedMetersPerSecond: Double?, fixMode: FixMode?,
                time: Double?, road: String? = nil, place: String? = nil, units: UnitSystem = .metric, timeZoneOffsetSeconds: Int = 0,
                speedLimitKmh: Double? = nil) {
        let words = Instructions(units: units)
        var parts = [String]()
        let label: String
        switch state {
        case .idle: label = "IDLE"
        case .freeDrive: label = "FREE DRIVE"
        case .guiding(.tracking): label = "GUIDING"
        case .guiding(.offRoute): label = "OFF ROUTE"
        case .guiding(.rerouting): label = "REROUTING"
        case .arrived: label = "ARRIVED"
        case .guiding(.atWaypoint): label = "AT STOP (continue to go on)"
        case .guiding(.uncertain): label = "NO GPS, ESTIMATED"
        }
        if let p = progress, case .guiding(let sub) = state, sub != .atWaypoint {
            if let m = p.nextManeuver, m.type == .arrive {
                let side = m.side.map { " on the \($0.rawValue)" } ?? ""
                parts.append("[\(label)] Destination\(side) in \(words.shortDistance(p.distanceToNextMeters))")
            } else {
                let lanes = p.nextManeuver.flatMap { StatusLine.lanePicture($0.lanes) }.map { " lanes " + $0 } ?? ""
                parts.append("[\(label)] \(p.nextInstruction) in \(words.shortDistance(p.distanceToNextMeters))\(lanes)")
            }
            var remaining = "\(words.shortDistance(p.remainingMeters)) \(StatusLine.duration(p.remainingSeconds))"
            if let t = time { remaining += " ETA " + FixTime.clock(t + p.remainingSeconds + Double(timeZoneOffsetSeconds)) }
            parts.append(remaining)
        } else if state == .arrived {
            parts.append("[\(label)] You have arrived")
        } else if let place {
            parts.append("[\(label)] near \(place)")
        } else {
            parts.append("[\(label)]" + (road.map { $0.isEmpty ? "" : " \($0)" } ?? ""))
        }
        // the road's limit beside the speed, as the sign shows it ("52 km/h limit 50")
        let limit = speedLimitKmh.map { " limit \(words.signedLimit($0))" } ?? ""
        if let v = speedMetersPerSecond {
            parts.append((units == .metric ? "\(Int((v * 3.6).rounded())) km/h" : "\(Int((v * 2.236_936).rounded())) mph") + limit)
        } else {
            parts.append("-- km/h" + limit)
        }
        parts.append(fixMode.map(\.label) ?? "NO FIX")
        text = parts.joined(separator: " | ")
    }

    /// The lanes at the next maneuver, left to right, those to take in brackets: "[L] [L] S S+R"
    /// (L left, SL slight left, HL sharp left, S straight, R, SR, HR likewise, U U-turn, - unmarked);
    /// nil where there is no choice of lanes to show.
    public static func lanePicture(_ lanes: [Lane]) -> String? {
        guard LaneAdvice(lanes) != nil else { return nil }
        let short = ["left": "L", "slight left": "SL", "sharp left": "HL", "straight": "S", "right": "R", "slight right": "SR",
                     "sharp right": "HR", "uturn": "U", "merge to left": "S", "merge to right": "S"]
        return lanes.map { lane in
            let arrows = lane.indications.map { short[$0] ?? "-" }.joined(separator: "+")
            return lane.valid ? "[\(arrows)]" : arrows
        }.joined(separator: " ")
    }

    /// The engine's status as a line; without a receiver (gpsd gone) and with no route to
    /// estimate along, the line says why. `place` is where the car is by address ("Hauptstraße
    /// 12, Altstadt"), shown when there is no route to describe.
    public init(_ s: DriveStatus, place: String? = nil, timeZoneOffsetSeconds: Int = 0) {
        if let why = s.receiverProblem, !s.state.hasRoute {
            self = .waiting(why)
            return
        }
        self.init(state: s.state, progress: s.progress, speedMetersPerSecond: s.speedMetersPerSecond, fixMode: s.fixMode, time: s.time,
                  road: s.road, place: place, units: s.units, timeZoneOffsetSeconds: timeZoneOffsetSeconds, speedLimitKmh: s.speedLimitKmh)
    }

    /// A line saying GPS is missing.
    public static func waiting(_ why: String) -> StatusLine { StatusLine(text: "[NO FIX] \(why)") }

    public init(text: String) { self.text = text }

    /// "1 h 05 min", "12 min", "<1 min".
    static func duration(_ s: Double) -> String {
        let minutes = Int((s / 60).rounded())
        if minutes < 1 { return "<1 min" }
        if minutes < 60 { return "\(minutes) min" }
        return String(printf: "%d h %02d min", minutes / 60, minutes % 60)
    }
}
