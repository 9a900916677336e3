import Foundation
import MapData

/// What the car profile decides for one OSM way.
public struct WayAttributes: Sendable, Equatable {
    public var roadClass: RoadClass
    public var forward: Bool
    public var backward: Bool
    /// Typical driving speed in km/h per direction.
    public var speedForwardKmh: Double
    public var speedBackwardKmh: Double
    /// Posted limits in km/h per direction; nil unknown, .infinity no limit.
    public var maxspeedForwardKmh: Double?
    public var maxspeedBackwardKmh: Double?
    public var flags: EdgeFlags
    public var name: String
    public var ref: String
}

/// The car profile: which OSM ways and nodes a car may use and how fast, from their tags.
/// Follows the conventions of OSRM's car.lua and the OSM wiki (access, oneway, maxspeed).
public enum CarProfile {
    /// Default speeds in km/h per class when no maxspeed is tagged (OSRM car.lua values).
    public static func defaultSpeedKmh(_ c: RoadClass) -> Double {
        switch c {
        case .motorway: return 90
        case .motorwayLink: return 45
        case .trunk: return 85
        case .trunkLink: return 40
        case .primary: return 65
        case .primaryLink: return 30
        case .secondary: return 55
        case .secondaryLink: return 25
        case .tertiary: return 40
        case .tertiaryLink: return 20
        case .unclassified, .residential, .road: return 25
        case .livingStreet: return 10
        case .service: return 15
        case .track: return 5
        case .ferry: return 5
        }
    }

    /// Keys a way must have one of to be considered (the reader filters on them).
    public static let wayKeys = ["highway", "route"]

    static let deniedAccess: Set<String> = ["no", "private", "agricultural", "forestry", "delivery", "emergency", "psv",
                                             "bus", "customers_only", "agricultural;forestry", "permit", "military"]
    static let destinationAccess: Set<String> = ["destination", "customers"]

    /// Decides a way; nil when cars may not use it at all.
    public static func attributes(of tags: OSMTags) -> WayAttributes? {
        var roadClass: RoadClass
        var flags: EdgeFlags = []
        if let hw = tags["highway"] {
            guard let c = RoadClass(highway: hw), c != .track else { return nil }
            roadClass = c
        } else if tags["route"] == "ferry" {
            let car = tags["motorcar"] ?? tags["motor_vehicle"]
            guard car == "yes" || car == "designated" else { return nil }
            roadClass = .ferry
            flags.insert(.ferry)
        } else {
            return nil
        }
        if tags["area"] == "yes" || tags["impassable"] == "yes" || tags["status"] == "impassable" { return nil }
        if let s = tags["service"], roadClass == .service, ["parking_aisle", "emergency_access"].contains(s) {
            if s == "emergency_access" { return nil }
        }
        // access: the most specific tag wins (motorcar over motor_vehicle over vehicle over access)
        let access = tags["motorcar"] ?? tags["motor_vehicle"] ?? tags["vehicle"] ?? tags["access"]
        if let a = access {
            if deniedAccess.contains(a) { return nil }
            if destinationAccess.contains(a) { flags.insert(.destinationOnly) }
        }

        // direction
        var forward = true, backward = true
        let junction = tags["junction"]
        if junction == "roundabout" { flags.insert(.roundabout) }
        if junction == "circular" { flags.insert(.circular) }
        let impliedOneway = junction == "roundabout" || junction == "circular" || roadClass == .motorway
            || (roadClass == .motorwayLink && tags["oneway"] == nil)
        switch tags["oneway"] ?? "" {
        case "yes", "true", "1": backward = false
        case "-1", "reverse": forward = false
        case "no", "false", "0": break
        case "reversible", "alternating": return nil
        default: if impliedOneway { backward = false }
        }
        if junction == "roundabout" || junction == "circular" { forward = true; backward = false }
        if let f = tags["oneway:motor_vehicle"] ?? tags["oneway:vehicle"] {
            if f == "yes" { backward = false } else if f == "-1" { forward = false } else if f == "no" { backward = true }
        }
        guard forward || backward else { return nil }

        // limits and speeds
        let maxAll = tags["maxspeed"].flatMap(parseMaxspeed)
        let maxF = tags["maxspeed:forward"].flatMap(parseMaxspeed) ?? maxAll
        let maxB = tags["maxspeed:backward"].flatMap(parseMaxspeed) ?? maxAll
        let base = defaultSpeedKmh(roadClass)
        func speed(_ limit: Double?) -> Double {
            guard let limit, limit.isFinite else { return base }
            // Drivers average below the posted limit (junctions, traffic); OSRM scales by 0.8.
            return max(5, limit * 0.8)
        }
        if roadClass.isLink { flags.insert(.link) }
        if tags["toll"] == "yes" { flags.insert(.toll) }
        if let t = tags["tunnel"], t != "no" { flags.insert(.tunnel) }
        if let b = tags["bridge"], b != "no" { flags.insert(.bridge) }
        return WayAttributes(
            roadClass: roadClass, forward: forward, backward: backward,
            speedForwardKmh: forward ? speed(maxF) : 0, speedBackwardKmh: backward ? speed(maxB) : 0,
            maxspeedForwardKmh: maxF, maxspeedBackwardKmh: maxB, flags: flags,
            name: tags["name"] ?? "", ref: tags["ref"] ?? "")
    }

    /// Parses a maxspeed value in km/h: "50", "30 mph", "10 knots", "DE:urban", "none", "walk".
    /// Returns .infinity for no limit, nil when unknown.
    public static func parseMaxspeed(_ raw: String) -> Double? {
        let value = raw.trimmingCharacters(in: .whitespaces).lowercased()
        if value.isEmpty { return nil }
        if value == "none" || value == "unlimited" { return .infinity }
        if value == "walk" { return 7 }
        if let implicit = implicitMaxspeeds[value] { return implicit }
        // several values ("50;30"): the lowest applies
        if value.contains(";") {
            let parts = value.split(separator: ";").compactMap { parseMaxspeed(String($0)) }
            return parts.min()
        }
        var digits = ""
        var rest = Substring(value)
        while let ch = rest.first, ch.isNumber || ch == "." { digits.append(ch); rest = rest.dropFirst() }
        guard let number = Double(digits), number > 0 else { return nil }
        let unit = rest.trimmingCharacters(in: .whitespaces)
        switch unit {
        case "", "km/h", "kmh", "kph": return number
        case "mph": return number * 1.609_344
        case "knots", "kn": return number * 1.852
        default: return nil
        }
    }

    /// Implicit limits by country and zone (OSM wiki "Default speed limits"), in km/h.
    static let implicitMaxspeeds: [String: Double] = {
        var t: [String: Double] = [:]
        let mph = 1.609_344
        let countries: [(String, Double, Double, Double?)] = [  // code, urban, rural, motorway (nil none)
            ("at", 50, 100, 130), ("be", 50, 70, 120), ("ch", 50, 80, 120), ("cz", 50, 90, 130), ("de", 50, 100, nil),
            ("dk", 50, 80, 130), ("es", 50, 90, 120), ("fi", 50, 80, 120), ("fr", 50, 80, 130), ("hu", 50, 90, 130),
            ("it", 50, 90, 130), ("li", 50, 80, 120), ("lt", 50, 90, 130), ("nl", 50, 80, 130), ("no", 50, 80, 110),
            ("pl", 50, 90, 140), ("pt", 50, 90, 120), ("ro", 50, 90, 130), ("ru", 60, 90, 110), ("se", 50, 70, 110),
            ("sk", 50, 90, 130), ("si", 50, 90, 130), ("ua", 50, 90, 130), ("ad", 50, 90, nil), ("mc", 50, 50, nil),
        ]
        for (c, urban, rural, motorway) in countries {
            t["\(c):urban"] = urban
            t["\(c):rural"] = rural
            t["\(c):motorway"] = motorway ?? .infinity
            t["\(c):living_street"] = 7
            t["\(c):trunk"] = rural
        }
        t["de:bicycle_road"] = 30
        t["de:zone30"] = 30
        t["de:zone:30"] = 30
        t["de:zone20"] = 20
        t["gb:nsl_single"] = 60 * mph
        t["gb:nsl_dual"] = 70 * mph
        t["gb:motorway"] = 70 * mph
        t["gb:urban"] = 30 * mph
        t["uk:nsl_single"] = 60 * mph
        t["uk:nsl_dual"] = 70 * mph
        t["uk:motorway"] = 70 * mph
        t["ie:urban"] = 50
        t["ie:rural"] = 80
        t["ie:motorway"] = 120
        return t
    }()

    /// Node properties that matter to cars and to guidance.
    public static func nodeFlags(of tags: OSMTags) -> NodeFlags {
        var f: NodeFlags = []
        switch tags["highway"] {
        case "traffic_signals": f.insert(.trafficSignals)
        case "stop": f.insert(.stop)
        case "give_way": f.insert(.giveWay)
        case "mini_roundabout": f.insert(.miniRoundabout)
        case "crossing": f.insert(.crossing)
        default: break
        }
        if tags["crossing"] == "traffic_signals" { f.insert(.crossing) }
        if let b = tags["barrier"], isBlocking(barrier: b, tags: tags) { f.insert(.barrier) }
        return f
    }

    /// Barriers a car cannot pass unless access tags on the node say it may (OSRM car.lua's list).
    static let passableBarriers: Set<String> = [
        "cattle_grid", "border_control", "toll_booth", "sally_port", "gate", "lift_gate", "no", "entrance",
        "height_restrictor", "arch", "swing_gate", "kissing_gate"  // kissing_gate is foot-only but rarely on car roads
    ]

    static func isBlocking(barrier: String, tags: OSMTags) -> Bool {
        let access = tags["motorcar"] ?? tags["motor_vehicle"] ?? tags["vehicle"] ?? tags["access"]
        if let a = access {
            if deniedAccess.contains(a) { return true }
            if ["yes", "permissive", "designated", "destination"].contains(a) { return false }
        }
        if barrier == "kissing_gate" { return true }
        return !passableBarriers.contains(barrier)
    }
}

extension CarProfile {
    /// OSRM car.lua's turn cost: a sigmoid of the turn angle (positive is right), cheaper for
    /// right turns in right-hand traffic, applied where more than two roads meet; plus the
    /// u-turn and traffic-signal penalties. Seconds.
    public static func turnPenaltySeconds(angleDegrees angle: Double, isUTurn: Bool, roads: Int, trafficSignal: Bool) -> Double {
        let turnPenalty = 7.5, bias = 1.075, uTurnPenalty = 20.0, signalPenalty = 2.0
        var s = 0.0
        if roads > 2 || isUTurn {
            if angle >= 0 {
                s += turnPenalty / (1 + exp(-((13 / bias) * angle / 180 - 6.5 * bias)))
            } else {
                s += turnPenalty / (1 + exp(-((13 * bias) * -angle / 180 - 6.5 / bias)))
            }
            if isUTurn { s += uTurnPenalty }
        }
        if trafficSignal { s += signalPenalty }
        return s
    }
}
