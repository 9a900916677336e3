import MapData

/// How important a road is for guidance, as OSRM's car profile classifies it
/// (include/extractor/road_classification.hpp; the mapping from highway values is
/// profiles/lib/guidance.lua's `highway_classes`, `motorway_types`, `link_types`, `road_types`).
public struct RoadClassification: Sendable, Hashable {
    /// OSRM's RoadPriorityClass: lower is more important.
    public enum Priority: UInt8, Sendable, Comparable {
        case motorway = 0, motorwayLink, trunk, trunkLink, primary, primaryLink, secondary, secondaryLink
        case tertiary, tertiaryLink, mainResidential, sideResidential, alley, parking, linkRoad, unclassified
        case bikePath = 16, footPath = 18, connectivity = 31
        public static func < (a: Priority, b: Priority) -> Bool { a.rawValue < b.rawValue }
    }

    /// Motorway or trunk, or one of their links.
    public var isMotorway: Bool
    public var isLink: Bool
    /// A road a driver does not count as a junction's road (service, track...: not one of
    /// road_types).
    public var mayBeIgnored: Bool
    public var priority: Priority
    /// From `lanes`, else `lanes:forward` + `lanes:backward`, else the turn lanes; 0 unknown.
    public var lanes: UInt8

    public init(isMotorway: Bool, isLink: Bool, mayBeIgnored: Bool, priority: Priority, lanes: UInt8) {
        self.isMotorway = isMotorway
        self.isLink = isLink
        self.mayBeIgnored = mayBeIgnored
        self.priority = priority
        self.lanes = lanes
    }

    /// The classification of a Tern road class (the car profile's highway value).
    public init(_ c: RoadClass, lanes: UInt8 = 0) {
        self.lanes = lanes
        isMotorway = [.motorway, .motorwayLink, .trunk, .trunkLink].contains(c)
        isLink = c.isLink
        mayBeIgnored = ![.motorway, .motorwayLink, .trunk, .trunkLink, .primary, .primaryLink, .secondary, .secondaryLink,
                         .tertiary, .tertiaryLink, .unclassified, .residential, .livingStreet].contains(c)
        switch c {
        case .motorway: priority = .motorway
        case .motorwayLink: priority = .motorwayLink
        case .trunk: priority = .trunk
        case .trunkLink: priority = .trunkLink
        case .primary: priority = .primary
        case .primaryLink: priority = .primaryLink
        case .secondary: priority = .secondary
        case .secondaryLink: priority = .secondaryLink
        case .tertiary: priority = .tertiary
        case .tertiaryLink: priority = .tertiaryLink
        case .unclassified: priority = .unclassified
        case .residential: priority = .mainResidential
        case .livingStreet: priority = .sideResidential
        case .service: priority = .alley
        case .track: priority = .bikePath
        case .road, .ferry, .other: priority = .connectivity
        }
    }

    /// A motorway or trunk itself, not a ramp (IsMotorwayClass).
    public var isMotorwayClass: Bool { isMotorway && !isLink }
    /// A motorway or trunk link (IsRampClass).
    public var isRampClass: Bool { isMotorway && isLink }
    public var isLowPriority: Bool { mayBeIgnored }

    /// OSRM's equality ignores the number of lanes.
    public func sameClass(_ o: RoadClassification) -> Bool {
        isMotorway == o.isMotorway && isLink == o.isLink && mayBeIgnored == o.mayBeIgnored && priority == o.priority
    }

    /// Road groups of about the same standing (getRoadGroup): motorway, trunk, main roads,
    /// streets, links and unclassified roads, bike paths, foot paths, the rest.
    public var group: Int {
        switch priority.rawValue {
        case 0...1: return 0
        case 2...3: return 1
        case 4...9: return 2
        case 10...13: return 3
        case 14...15: return 4
        case 16: return 5
        case 18: return 6
        default: return 7
        }
    }

    /// Two roads whose priorities differ by at most one may be the two branches of a fork.
    public static func canBeSeenAsFork(_ a: RoadClassification, _ b: RoadClassification) -> Bool {
        abs(Int(a.priority.rawValue) - Int(b.priority.rawValue)) <= 1
    }

    /// `a` is a lower category than `b` (strictlyLess): low priority below the rest, then by group.
    public static func strictlyLess(_ a: RoadClassification, _ b: RoadClassification) -> Bool {
        if !a.isLowPriority && b.isLowPriority { return false }
        if a.isLowPriority && !b.isLowPriority { return true }
        return a.group > b.group
    }

    /// `link` is a link of `road`'s own class (a primary_link of a primary road: isLinkTo).
    public static func isLinkTo(_ link: RoadClassification, _ road: RoadClassification) -> Bool {
        guard link.isLink, !road.isLink else { return false }
        switch (link.priority, road.priority) {
        case (.motorwayLink, .motorway), (.trunkLink, .trunk), (.primaryLink, .primary), (.secondaryLink, .secondary),
             (.tertiaryLink, .tertiary):
            return true
        default: return false
        }
    }

    /// OSRM's PRIORITY_DISTINCTION_FACTOR: a road is obvious over another whose priority number
    /// is more than this many times its own.
    static let priorityDistinctionFactor = 1.75

    /// Whether `candidate` is the obvious way on over `compare` by class alone
    /// (obviousByRoadClass): far more important and of the class the car is on, or a real road
    /// where the other is one to ignore.
    public static func obviousByRoadClass(in i: RoadClassification, candidate c: RoadClassification,
                                          compare o: RoadClassification) -> Bool {
        if priorityDistinctionFactor * Double(c.priority.rawValue) < Double(o.priority.rawValue) && i.sameClass(c) { return true }
        return !c.isLowPriority && !i.isLowPriority && o.isLowPriority
    }
}
