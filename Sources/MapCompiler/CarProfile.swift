import FoundationEssentials
import Glibc
import Platform
import MapData

/// Access of a way or node for cars, from the access tags.
public enum AccessClass: Sendable, Equatable {
    case open, restricted, blocked
}

/// What the car profile decides for one OSM way.
public struct WayAttributes: Sendable, Equatable {
    public var roadClass: RoadClass
    public var forward: Bool
    public var backward: Bool
    /// Driving speed in km/h per direction (durations).
    public var speedForwardKmh: Double
    public var speedBackwardKmh: Double
    /// Weight factor per direction in (0, 1]: the rate is speed × factor (OSRM's routability).
    public var rateFactorForward = 1.0
    public var rateFactorBackward = 1.0
    /// Destination-only (private, delivery...) per direction: no through traffic.
    public var restrictedForward = false
    public var restrictedBackward = false
    /// Posted limits in km/h per direction; nil unknown, .infinity no limit.
    public var maxspeedForwardKmh: Double?
    public var maxspeedBackwardKmh: Double?
    public var flags: EdgeFlags
    public var name: String
    public var ref: String
    /// Seconds for the whole way when tagged (ferries, movable bridges), spread over its segments.
    public var durationSeconds: Double?
    /// False where a route may not start or end (ferries, private service roads).
    public var startpoint = true
    /// What the signs say the way leads to, per direction ("A 5, Frankfurt"; "" for none).
    public var destinationForward = ""
    public var destinationBackward = ""
    /// Turn lanes per direction as the way reaches its end, left to right ("left|straight|straight;right",
    /// see `CarProfile.turnLanes`; "" for none).
    public var turnLanesForward = ""
    public var turnLanesBackward = ""
    /// Lanes of the road (`lanes`, else `lanes:forward` + `lanes:backward`, as OSRM's guidance
    /// reads them; 0 unknown): guidance measures junctions with them.
    public var lanes: UInt8 = 0
}

/// Node properties for cars: flags, and penalties when driving through.
public struct NodeAttributes: Sendable, Equatable {
    public var flags: NodeFlags = []
    /// Seconds added when passing the node (a gate without access tags).
    public var passPenaltySeconds = 0.0
    /// Traffic signals, stop and give-way signs: which travel direction along the way they face.
    public enum Facing: Sendable, Equatable { case both, forward, backward }
    public var signalFacing: Facing = .both
    public var stopPenaltySeconds = 0.0
    public var stopFacing: Facing = .both
    /// The exit number of a motorway junction (`highway=motorway_junction` + `ref`).
    public var exitRef = ""
}

/// The car profile: which OSM ways and nodes a car may use and how fast, from their tags,
/// following OSRM's car.lua (speeds, access hierarchy, oneway, maxspeed, barriers, penalties).
public enum CarProfile {
    /// Speeds in km/h of the highway types cars use by default.
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
        case .unclassified, .residential: return 25
        case .livingStreet: return 10
        case .service: return 15
        case .road, .track, .other: return 10
        case .ferry: return 5
        }
    }

    static let highwaySpeeds: [String: Double] = [
        "motorway": 90, "motorway_link": 45, "trunk": 85, "trunk_link": 40, "primary": 65, "primary_link": 30,
        "secondary": 55, "secondary_link": 25, "tertiary": 40, "tertiary_link": 20, "unclassified": 25,
        "residential": 25, "living_street": 10, "service": 15, "winter_road": 20, "ice_road": 15,
    ]
    /// The highway types the car profile routes on, in car.lua's order of speed.
    public static var routableHighways: [String] { highwaySpeeds.sorted { $0.value > $1.value || ($0.value == $1.value && $0.key < $1.key) }.map(\.key) }
    /// Highways where private/destination access means "destination only" rather than "closed".
    static let restrictedHighways: Set<String> = [
        "motorway", "motorway_link", "trunk", "trunk_link", "primary", "primary_link", "secondary", "secondary_link",
        "tertiary", "tertiary_link", "residential", "living_street", "unclassified", "service", "winter_road", "ice_road",
    ]
    static let accessWhitelist: Set<String> = ["yes", "permissive", "designated", "motorcar", "motor_vehicle", "vehicle", "hov"]
    static let accessRestricted: Set<String> = ["private", "delivery", "destination", "customers", "permit", "residents", "unknown"]
    static let accessBlacklist: Set<String> = ["no", "agricultural", "forestry", "emergency", "psv", "taxi", "share_taxi", "minibus",
                                                "bus", "foot", "restricted", "military", "official", "emergency_vehicle"]
    static let accessKeys = ["motorcar", "motor_vehicle", "vehicle", "access"]
    static let defaultSpeedKmh = 10.0
    static let speedReduction = 0.8

    /// Keys a way must have one of to be considered (the reader filters on them).
    public static let wayKeys = ["highway", "route", "bridge"]

    /// Classifies an access value (a `;` list is open if any part is, else restricted if any is).
    public static func classify(_ value: String) -> AccessClass {
        let parts = value.split(separator: ";").map { $0.trimmed().lowercased() }
        if parts.contains(where: { accessWhitelist.contains($0) }) { return .open }
        if parts.contains(where: { accessRestricted.contains($0) }) { return .restricted }
        if !parts.isEmpty && parts.allSatisfy({ accessBlacklist.contains($0) }) { return .blocked }
        return .open
    }

    /// The access value for a direction: the most specific key with a value wins, its
    /// `:forward`/`:backward` form first.
    static func accessValue(_ tags: OSMTags, suffix: String?) -> String? {
        for key in accessKeys {
            if let s = suffix, let v = tags["\(key):\(s)"], !v.isEmpty { return v }
            if let v = tags[key], !v.isEmpty { return v }
        }
        return nil
    }

    /// Decides a way; nil when cars may not use it at all.
    public static func attributes(of tags: OSMTags, options: ProfileOptions = ProfileOptions()) -> WayAttributes? {
        let highway = tags["highway"]
        var flags: EdgeFlags = []
        // ways never routable
        if tags["area"] == "yes" || tags["impassable"] == "yes" || tags["status"] == "impassable" { return nil }
        if highway == "steps" || highway == "construction" || highway == "proposed" || tags["railway"] == "construction" { return nil }
        // construction=yes marks works that close the road; a road class as value ("primary")
        // is how mappers note an upgrade of an open road, and blocking it would detour drivers
        // round a whole valley (andorra's CG-2): only "yes" closes (OSRM closes every value).
        if tags["construction"] == "yes" { return nil }
        if tags["smoothness"] == "impassable" || tags["service"] == "emergency_access" { return nil }
        if PhysicalLimits.excludes(tags) { return nil }
        if let hw = highway, options.avoidHighways.contains(hw) { return nil }
        let highwaySpeeds = options.highwaySpeedsKmh ?? CarProfile.highwaySpeeds

        let accessForward = accessValue(tags, suffix: "forward").map(classify)
        let accessBackward = accessValue(tags, suffix: "backward").map(classify)
        var roadClass: RoadClass
        var baseSpeed: Double
        var durationSeconds: Double?
        var startpoint = true
        if let route = tags["route"], route == "ferry" || route == "shuttle_train" {
            roadClass = .ferry
            flags.insert(.ferry)
            baseSpeed = route == "ferry" ? 5 : 10
            durationSeconds = tags["duration"].flatMap(parseDuration)
            startpoint = false
        } else if tags["bridge"] == "movable" && highway != nil {
            roadClass = highway.flatMap(RoadClass.init(highway:)) ?? .other
            baseSpeed = 5
            durationSeconds = tags["duration"].flatMap(parseDuration)
        } else if let hw = highway, let s = highwaySpeeds[hw] {
            roadClass = RoadClass(highway: hw) ?? .other
            baseSpeed = s
        } else if highway != nil, let a = accessForward ?? accessBackward, a == .open,
                  accessValue(tags, suffix: nil) != nil || accessValue(tags, suffix: "forward") != nil || accessValue(tags, suffix: "backward") != nil {
            // another highway type made drivable by an explicit access tag
            roadClass = highway.flatMap(RoadClass.init(highway:)) ?? .other
            if roadClass != .road && roadClass != .track { roadClass = .other }
            baseSpeed = defaultSpeedKmh
        } else {
            return nil
        }

        // access per direction
        let restrictedAllowed = highway.map(restrictedHighways.contains) ?? (roadClass == .ferry)
        func allowed(_ a: AccessClass?) -> (Bool, Bool) {
            switch a {
            case nil, .open?: return (true, false)
            case .restricted?: return restrictedAllowed ? (true, true) : (false, false)
            case .blocked?: return (false, false)
            }
        }
        var (forward, restrictedForward) = allowed(accessForward)
        var (backward, restrictedBackward) = allowed(accessBackward)
        // an unknown highway opened in one direction only stays closed the other way
        if highwaySpeeds[highway ?? ""] == nil && roadClass != .ferry && tags["bridge"] != "movable" {
            if accessValue(tags, suffix: "forward") == nil && accessValue(tags, suffix: nil) == nil { forward = false }
            if accessValue(tags, suffix: "backward") == nil && accessValue(tags, suffix: nil) == nil { backward = false }
        }
        if roadClass == .service, accessValue(tags, suffix: "forward").map(classify) == .restricted,
           accessValue(tags, suffix: "forward")?.lowercased() == "private" {
            startpoint = false
        }

        // direction
        let junction = tags["junction"]
        if junction == "roundabout" { flags.insert(.roundabout) }
        if junction == "circular" { flags.insert(.circular) }
        let oneway = tags["oneway:motorcar"] ?? tags["oneway:motor_vehicle"] ?? tags["oneway:vehicle"] ?? tags["oneway"] ?? ""
        var rateFactor = 1.0
        switch oneway {
        case "yes", "true", "1": backward = false
        case "-1", "reverse": forward = false
        case "reversible": return nil
        case "alternating": rateFactor = min(rateFactor, 0.4)
        case "no", "false", "0": break
        default:
            if highway == "motorway" || junction == "roundabout" || junction == "circular" { backward = false }
        }
        guard forward || backward else { return nil }

        // speeds: the highway's, capped by the surface, replaced by a posted limit × 0.8
        var speed = baseSpeed
        for cap in [surfaceCap(tags["surface"]), tracktypeCap(tags["tracktype"]), smoothnessCap(tags["smoothness"])] {
            if let c = cap { speed = min(speed, c) }
        }
        func limit(_ suffix: String) -> Double? {
            for key in ["maxspeed:advisory", "maxspeed"] {
                if let v = tags["\(key):\(suffix)"] ?? tags[key], let kmh = parseMaxspeed(v) { return kmh }
            }
            return tags["source:maxspeed"].flatMap(parseMaxspeed)
        }
        let postedF = limit("forward"), postedB = limit("backward")
        func travelSpeed(_ posted: Double?) -> Double {
            var s = speed
            if roadClass != .ferry, tags["bridge"] != "movable", let p = posted, p > 0 {
                s = (p.isInfinite ? 140 : p) * speedReduction
            }
            if let cap = options.vehicleMaxSpeedKmh { s = min(s, cap) }
            return s
        }

        // rate penalties (OSRM routability): the smallest applies
        let bidirectional = forward && backward
        if let s = tags["service"], ["alley", "parking", "parking_aisle", "driveway", "drive-through", "drive-thru"].contains(s) {
            rateFactor = min(rateFactor, 0.5)
        }
        if let w = tags["width"].flatMap(PhysicalLimits.meters), w <= 3 { rateFactor = min(rateFactor, 0.5) }
        if bidirectional, let l = tags["lanes"].flatMap(leadingInteger), l <= 1, l >= 0 { rateFactor = min(rateFactor, 0.5) }
        if let s = tags["side_road"], s == "yes" || s == "rotary" { rateFactor = min(rateFactor, 0.8) }
        if bidirectional, tags["lane_markings"] == "no" { rateFactor = min(rateFactor, 0.75) }
        var rateF = rateFactor, rateB = rateFactor
        if tags["priority"] == "forward" { rateB *= 0.7 }
        if tags["priority"] == "backward" { rateF *= 0.7 }

        if roadClass.isLink { flags.insert(.link) }
        if tags["toll"] == "yes" { flags.insert(.toll) }
        if let t = tags["tunnel"], t != "no" { flags.insert(.tunnel) }
        if let b = tags["bridge"], b != "no" { flags.insert(.bridge) }
        if restrictedForward || restrictedBackward { flags.insert(.destinationOnly) }
        if tags["hov"] == "designated" { restrictedForward = true; restrictedBackward = true; flags.insert(.destinationOnly) }
        var a = WayAttributes(
            roadClass: roadClass, forward: forward, backward: backward,
            speedForwardKmh: forward ? travelSpeed(postedF) : 0, speedBackwardKmh: backward ? travelSpeed(postedB) : 0,
            maxspeedForwardKmh: postedF, maxspeedBackwardKmh: postedB, flags: flags,
            name: spokenLabel(tags["name"]), ref: spokenLabel(tags["ref"]))
        a.rateFactorForward = rateF
        a.rateFactorBackward = rateB
        a.restrictedForward = restrictedForward && forward
        a.restrictedBackward = restrictedBackward && backward
        a.durationSeconds = durationSeconds
        a.startpoint = startpoint
        a.destinationForward = forward ? destination(tags, forward: true, oneWay: !backward) : ""
        a.destinationBackward = backward ? destination(tags, forward: false, oneWay: !forward) : ""
        a.turnLanesForward = forward ? turnLanes(tags, forward: true, oneWay: !backward) : ""
        a.turnLanesBackward = backward ? turnLanes(tags, forward: false, oneWay: !forward) : ""
        a.lanes = laneCount(tags)
        return a
    }

    /// A road cars may drive that the profile does not route on: `highway=road` (a road of
    /// unknown kind, as OSRM's car profile leaves it out) open to cars by the same access keys
    /// and values as any way.
    public static func isUnroutedRoad(_ tags: OSMTags) -> Bool {
        tags["highway"] == "road" && (accessValue(tags, suffix: nil).map(classify) ?? .open) == .open
    }

    /// A name or ref as it may be spoken: trimmed, and empty where a mapper left a placeholder
    /// ("FIXME", "unknown", "?": Andorra has `ref=FIXME` on a secondary road, and a driver must not
    /// hear "take the second exit onto FIXME").
    public static func spokenLabel(_ raw: String?) -> String {
        guard let raw else { return "" }
        let v = raw.trimmed()
        let folded = v.lowercased()
        if folded.contains("fixme") || placeholderLabels.contains(folded) || v.allSatisfy({ $0 == "?" }) { return "" }
        return v
    }

    static let placeholderLabels: Set<String> = ["todo", "unknown", "noname", "no name", "none", "name", "unnamed"]

    /// Node properties that matter to cars and to guidance.
    public static func nodeAttributes(of tags: OSMTags, options: ProfileOptions = ProfileOptions()) -> NodeAttributes {
        var a = NodeAttributes()
        func facing(_ key: String...) -> NodeAttributes.Facing {
            for k in key { if let v = tags[k] { return v == "forward" ? .forward : (v == "backward" ? .backward : .both) } }
            return .both
        }
        switch tags["highway"] {
        case "traffic_signals":
            a.flags.insert(.trafficSignals)
            a.signalFacing = facing("traffic_signals:direction", "direction")
        case "stop":
            a.flags.insert(.stop)
            a.stopPenaltySeconds = 2
            a.stopFacing = facing("direction")
        case "give_way":
            a.flags.insert(.giveWay)
            a.stopPenaltySeconds = 1
            a.stopFacing = facing("direction")
        case "mini_roundabout": a.flags.insert([.miniRoundabout, .turningCircle])
        case "turning_circle", "turning_loop": a.flags.insert(.turningCircle)
        case "crossing": a.flags.insert(.crossing)
        default: break
        }
        if tags["crossing"] == "traffic_signals" { a.flags.insert(.crossing) }
        if tags["highway"] == "motorway_junction" { a.exitRef = spokenLabel(tags["ref"]?.split(separator: ";").first.map(String.init)) }
        // access on the node decides; otherwise the barrier type
        let access = accessKeys.lazy.compactMap { tags[$0] }.first
        if let v = access {
            if classify(v) == .blocked { a.flags.insert(.barrier) }
        } else if let b = tags["barrier"] {
            if isBlocking(barrier: b, tags: tags) {
                a.flags.insert(.barrier)
            } else if b == "gate" || b == "lift_gate" {
                a.passPenaltySeconds = options.gatePenaltySeconds
            }
        }
        return a
    }

    /// Node flags alone (tests and callers that need no penalties).
    public static func nodeFlags(of tags: OSMTags) -> NodeFlags { nodeAttributes(of: tags).flags }

    static let passableBarriers: Set<String> = [
        "cattle_grid", "border_control", "toll_booth", "sally_port", "gate", "lift_gate", "no", "entrance", "height_restrictor",
    ]

    static func isBlocking(barrier: String, tags: OSMTags) -> Bool {
        switch barrier {
        case "height_restrictor":
            return PhysicalLimits.restrictorBlocks(tags)
        case "bollard": return tags["bollard"] != "rising"
        case "kerb": return !(tags["highway"] == "crossing" || tags["kerb"] == "lowered" || tags["kerb"] == "flush")
        case "fence": return !(tags["sensory"] == "audible" || tags["sensory"] == "audio")
        default: return !passableBarriers.contains(barrier)
        }
    }
}

extension CarProfile {
    /// OSRM car.lua's turn cost: a sigmoid of the turn angle (positive is right), cheaper for
    /// right turns in right-hand traffic, applied where more than two roads meet, on a change of
    /// mode, or a u-turn (plus its penalty). Seconds, before truncation.
    public static func turnPenaltySeconds(angleDegrees angle: Double, isUTurn: Bool, roads: Int, modeChange: Bool = false,
                                          options: ProfileOptions = ProfileOptions()) -> Double {
        let bias = options.leftHandDriving ? 1 / options.turnBias : options.turnBias
        var s = 0.0
        if roads > 2 || isUTurn || modeChange {
            if angle >= 0 {
                s += options.turnPenaltySeconds / (1 + exp(-((13 / bias) * angle / 180 - 6.5 * bias)))
            } else {
                s += options.turnPenaltySeconds / (1 + exp(-((13 * bias) * -angle / 180 - 6.5 / bias)))
            }
            if isUTurn { s += options.uTurnPenaltySeconds }
        }
        return s
    }
}
