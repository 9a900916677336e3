import Foundation
import Geo

/// Distance units for spoken and written instructions.
public enum UnitSystem: String, Sendable {
    case metric, imperial
}

/// English instruction text (issue #5 adds the other locales behind the same calls).
public struct Instructions: Sendable {
    public var units: UnitSystem
    public init(units: UnitSystem = .metric) { self.units = units }

    /// "onto Main Street", "onto B 37", or "" for an unnamed road.
    func onto(_ m: Maneuver) -> String {
        if !m.street.isEmpty && !m.ref.isEmpty && m.street != m.ref { return " onto \(m.street) (\(m.ref))" }
        if !m.street.isEmpty { return " onto \(m.street)" }
        if !m.ref.isEmpty { return " onto \(m.ref)" }
        return ""
    }

    static func ordinal(_ n: Int) -> String {
        let words = ["first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth"]
        if n >= 1 && n <= words.count { return words[n - 1] }
        let suffix: String
        switch (n % 10, n % 100) {
        case (1, let h) where h != 11: suffix = "st"
        case (2, let h) where h != 12: suffix = "nd"
        case (3, let h) where h != 13: suffix = "rd"
        default: suffix = "th"
        }
        return "\(n)\(suffix)"
    }

    static func compass(_ bearing: Double) -> String {
        let names = ["north", "northeast", "east", "southeast", "south", "southwest", "west", "northwest"]
        return names[Int((Angle.normalized(bearing) + 22.5) / 45) % 8]
    }

    static func direction(_ m: ManeuverModifier?) -> String {
        switch m {
        case .uturn?: return "make a U-turn"
        case .sharpRight?: return "turn sharp right"
        case .right?: return "turn right"
        case .slightRight?: return "bear right"
        case .straight?, nil: return "go straight"
        case .slightLeft?: return "bear left"
        case .left?: return "turn left"
        case .sharpLeft?: return "turn sharp left"
        }
    }

    /// The instruction for a maneuver, as shown and spoken ("Turn left onto Hauptstraße").
    public func text(_ m: Maneuver) -> String {
        var s: String
        switch m.type {
        case .depart:
            s = "Head \(Instructions.compass(m.bearingAfter))"
            if !m.street.isEmpty { s += " on \(m.street)" } else if !m.ref.isEmpty { s += " on \(m.ref)" }
        case .arrive:
            s = "You have arrived at your destination"
            if let side = m.side { s += ", on the \(side.rawValue)" }
        case .roundabout, .rotary:
            let noun = m.type == .rotary ? "traffic circle" : "roundabout"
            if let exit = m.exit {
                s = "At the \(noun), take the \(Instructions.ordinal(exit)) exit" + onto(m)
            } else {
                s = "Enter the \(noun)"
            }
        case .newName:
            if let mod = m.modifier, mod != .straight {
                s = Instructions.direction(mod).capitalizedFirst + onto(m)  // a corner: "Turn right onto ..."
            } else {
                s = "Continue" + onto(m)
            }
        case .continue:
            if m.modifier == .straight || m.modifier == nil { s = "Continue straight" + onto(m) } else {
                s = "Keep \(m.modifier!.isLeft ? "left" : "right")" + onto(m)
            }
        case .merge:
            s = "Merge" + onto(m)
        case .onRamp:
            s = "Take the ramp on the \(m.modifier?.isLeft == true ? "left" : "right")" + onto(m)
        case .offRamp:
            s = "Take the exit on the \(m.modifier?.isLeft == true ? "left" : "right")" + onto(m)
        case .fork:
            s = "Keep \(m.modifier?.isLeft == true ? "left" : "right") at the fork" + onto(m)
        case .endOfRoad:
            s = "At the end of the road, " + Instructions.direction(m.modifier) + onto(m)
        default:
            s = Instructions.direction(m.modifier).capitalizedFirst + onto(m)
        }
        if m.type != .depart && m.type != .arrive, let lm = m.landmark, m.type != .roundabout {
            switch lm {
            case .trafficSignals: s += " at the traffic lights"
            case .stopSign: s += " at the stop sign"
            }
        }
        return s.capitalizedFirst
    }

    /// "In 300 metres, turn left onto X" — the prompt before a maneuver.
    public func spokenDistance(_ meters: Double) -> String {
        switch units {
        case .metric:
            if meters >= 950 {
                let km = (meters / 1000 * 2).rounded() / 2
                return km == 1 ? "1 kilometre" : "\(Instructions.trim(km)) kilometres"
            }
            return "\(Instructions.roundedMeters(meters)) metres"
        case .imperial:
            let miles = meters / 1609.344
            if miles >= 0.2 {
                let q = (miles * 4).rounded() / 4
                if q == 0.25 { return "a quarter of a mile" }
                if q == 0.5 { return "half a mile" }
                if q == 0.75 { return "three quarters of a mile" }
                return q == 1 ? "1 mile" : "\(Instructions.trim(q)) miles"
            }
            let feet = meters / 0.3048
            let r = feet >= 500 ? (feet / 100).rounded() * 100 : max(50, (feet / 50).rounded() * 50)
            return "\(Int(r)) feet"
        }
    }

    /// Distances as drivers say them: 50 m steps up to 500, then 100 m steps.
    static func roundedMeters(_ m: Double) -> Int {
        if m < 100 { return max(10, Int((m / 10).rounded()) * 10) }
        if m < 500 { return Int((m / 50).rounded()) * 50 }
        return Int((m / 100).rounded()) * 100
    }

    static func trim(_ v: Double) -> String {
        v == v.rounded() ? String(Int(v)) : String(format: "%.1f", v)
    }

    /// Short written distance for the status line: "250 m", "1.2 km", "0.3 mi".
    public func shortDistance(_ meters: Double) -> String {
        switch units {
        case .metric:
            if meters < 1000 { return "\(Int((meters / 10).rounded()) * 10) m" }
            return String(format: meters < 10_000 ? "%.1f km" : "%.0f km", meters / 1000)
        case .imperial:
            let miles = meters / 1609.344
            if miles < 0.1 { return "\(Int((meters / 0.3048 / 10).rounded()) * 10) ft" }
            return String(format: miles < 10 ? "%.1f mi" : "%.0f mi", miles)
        }
    }
}

extension String {
    var capitalizedFirst: String {
        guard let f = first else { return self }
        return f.uppercased() + dropFirst()
    }
}

/// When a prompt is spoken, relative to its maneuver.
public enum PromptKind: String, Sendable {
    /// Well ahead on fast roads ("In 2 kilometres, ...").
    case prepare
    /// The usual announcement ("In 300 metres, turn left").
    case turnIn
    /// At the maneuver ("Turn left now").
    case now
    /// Arrival at a waypoint or the destination.
    case arrive
}

extension Instructions {
    /// The spoken prompt for a maneuver `distanceMeters` ahead; `then` is the maneuver right after
    /// it when it follows within seconds.
    public func prompt(_ m: Maneuver, kind: PromptKind, distanceMeters: Double, then next: Maneuver? = nil) -> String {
        var text: String
        let instruction = self.text(m)
        switch kind {
        case .prepare, .turnIn:
            if m.type == .arrive {
                text = "In \(spokenDistance(distanceMeters)), you will reach your destination"
                if let side = m.side { text += ", on the \(side.rawValue)" }
            } else {
                text = "In \(spokenDistance(distanceMeters)), " + instruction.lowercasedFirst
            }
        case .now:
            text = instruction
        case .arrive:
            text = instruction
        }
        if let n = next, kind == .now, n.type != .depart {
            text += ", then " + (n.type == .arrive ? "you will reach your destination" : self.text(n).lowercasedFirst)
        }
        return text + "."
    }
}

extension String {
    var lowercasedFirst: String {
        guard let f = first else { return self }
        // keep "U-turn", street names and the like intact: only the first word's capital goes
        return f.lowercased() + dropFirst()
    }
}
