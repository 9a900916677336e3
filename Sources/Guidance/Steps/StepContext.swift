import Geo
import MapData
import Routing

/// What the engine's passes read while they work on one leg's steps: the map and the leg. Names
/// are compared as the map stores them, with no String made and nothing kept between steps.
struct StepContext {
    let map: RoadMap
    let leg: RouteLeg

    init(map: RoadMap, leg: RouteLeg) {
        self.map = map
        self.leg = leg
    }

    /// How many lanes a lane text has ("left|straight" has two).
    func laneCount(_ id: UInt32) -> Int { map.laneCount(ofLaneText: id) }

    /// A name or ref of the map as a String ("" for id 0).
    func text(_ id: UInt32) -> String { id == 0 ? "" : map.name(id) }

    /// Whether the road of step `b` is news after the road of step `a`, by OSRM's engine rule (no
    /// suffix table: only exact, contained and ref rules).
    func requiresAnnouncement(_ a: RouteStep, _ b: RouteStep) -> Bool {
        if a.nameID == b.nameID && a.refID == b.refID { return false }
        return NameRules.requiresAnnouncement(from: (NameBytes(bytes: map.nameBytes(a.nameID)), NameBytes(bytes: map.nameBytes(a.refID))),
                                              to: (NameBytes(bytes: map.nameBytes(b.nameID)), NameBytes(bytes: map.nameBytes(b.refID))))
    }

    /// One road by name (haveSameName): both named, and no announcement between them.
    func haveSameName(_ a: RouteStep, _ b: RouteStep) -> Bool {
        if (a.nameID == 0 && a.refID == 0) || (b.nameID == 0 && b.refID == 0) { return false }
        if a.nameID == b.nameID && a.refID == b.refID { return true }
        return !requiresAnnouncement(a, b)
    }

    /// Both steps in the same mode, neither emptied (OSRM compares travel modes; an emptied step
    /// has none).
    func sameMode(_ a: RouteStep, _ b: RouteStep) -> Bool { !a.invalidated && !b.invalidated && a.onFerry == b.onFerry }
}
