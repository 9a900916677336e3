import Geo
import MapData
import Routing

/// What the engine's passes read while they work on one leg's steps: the map, the leg, and the
/// name comparisons made so far (kept for this leg only).
final class StepContext {
    let map: RoadMap
    let leg: RouteLeg
    private struct Pair: Hashable { var a: UInt32, b: UInt32, c: UInt32, d: UInt32 }
    private var announce: [Pair: Bool] = [:]
    private var texts: [UInt32: String] = [:]

    init(map: RoadMap, leg: RouteLeg) {
        self.map = map
        self.leg = leg
    }

    /// How many lanes a lane text has ("left|straight" has two).
    func laneCount(_ id: UInt32) -> Int { map.laneCount(ofLaneText: id) }

    private var laneDescriptions: [UInt32: [[String]]] = [:]

    /// A lane text's lanes left to right, each its arrows ("left|straight;right" is
    /// [["left"], ["straight", "right"]]); parsed once per leg, as a junction's lanes are read at
    /// every step that passes it.
    func laneDescription(_ id: UInt32) -> [[String]] {
        if let d = laneDescriptions[id] { return d }
        // (split on the bytes: "|" and ";" are ASCII, and Character-wise splitting cost more than
        // the rest of the maneuver)
        let d = text(id).utf8.split(separator: UInt8(ascii: "|"), omittingEmptySubsequences: false).map { lane in
            lane.split(separator: UInt8(ascii: ";")).map { String(decoding: $0, as: UTF8.self) }
        }
        laneDescriptions[id] = d
        return d
    }

    func text(_ id: UInt32) -> String {
        if id == 0 { return "" }
        if let t = texts[id] { return t }
        let t = map.name(id)
        texts[id] = t
        return t
    }

    /// Whether the road of step `b` is news after the road of step `a`, by OSRM's engine rule (no
    /// suffix table: only exact, contained and ref rules).
    func requiresAnnouncement(_ a: RouteStep, _ b: RouteStep) -> Bool {
        if a.nameID == b.nameID && a.refID == b.refID { return false }
        let key = Pair(a: a.nameID, b: a.refID, c: b.nameID, d: b.refID)
        if let known = announce[key] { return known }
        let v = NameRules.requiresAnnouncement(from: RoadName(name: text(a.nameID), ref: text(a.refID)),
                                               to: RoadName(name: text(b.nameID), ref: text(b.refID)), suffixes: false)
        announce[key] = v
        return v
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
