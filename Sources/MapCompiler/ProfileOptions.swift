import FoundationEssentials
import Glibc

/// Options of the car profile (the defaults are OSRM car.lua's; scenario files override some).
public struct ProfileOptions: Sendable, Equatable {
    /// Caps every speed, km/h (nil: no cap).
    public var vehicleMaxSpeedKmh: Double?
    public var leftHandDriving = false
    public var trafficSignalPenaltySeconds = 2.0
    public var turnPenaltySeconds = 7.5
    public var turnBias = 1.075
    public var uTurnPenaltySeconds = 20.0
    /// Seconds of weight for entering a destination-only road from an open one (no through traffic).
    public var restrictedEntryPenaltySeconds = 3276.7
    public var gatePenaltySeconds = 60.0
    /// When set, conditional turn restrictions (`restriction:conditional = no_left_turn @ (Mo-Fr 07:00-10:30)`)
    /// are applied as they stand at this moment (seconds since the epoch, UTC), in local time
    /// `utcOffsetSeconds` ahead of UTC. Unset: conditional restrictions are not applied.
    public var conditionalRestrictionsAt: Double?
    public var utcOffsetSeconds: Double = 0
    /// Highway types the import leaves out, beyond those never routable (OSRM's `profile.avoid`;
    /// a unit that must never take motorways is built with them here).
    public var avoidHighways: Set<String> = []
    /// The highway types cars use and their speeds, km/h, in place of car.lua's table (OSRM's
    /// `profile.speeds`): a type not listed is not routable. nil: car.lua's table.
    public var highwaySpeedsKmh: [String: Double]?
    /// Routes by the shortest distance rather than the fastest time (OSRM's `weight_name =
    /// 'distance'`): a segment weighs its metres, a turn nothing; times stay the driving times.
    public var weightByDistance = false
    /// Refs carry the cardinal direction their route relations give ("I 80 $west"; OSRM's
    /// `cardinal_directions`, off by default as in car.lua). See RouteRelations.
    public var cardinalDirections = false
    public init() {}
}

extension ProfileOptions {
    /// The import options a user can set (`tern import`), as build information (META) where
    /// they differ from the defaults, so that `tern map-info` says how a map was made.
    var buildInfo: [(String, String)] {
        var out = [(String, String)]()
        if leftHandDriving { out.append(("driving_side", "\"left\"")) }
        if !avoidHighways.isEmpty { out.append(("avoid", "[" + avoidHighways.sorted().map(MapCompiler.quoteJSON).joined(separator: ",") + "]")) }
        if weightByDistance { out.append(("weight", "\"distance\"")) }
        if cardinalDirections { out.append(("cardinal_directions", "true")) }
        return out
    }
}
