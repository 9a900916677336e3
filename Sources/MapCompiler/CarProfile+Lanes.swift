import FoundationEssentials
import Glibc
import Platform
import MapData

/// What a way's tags say of its lanes and signposts, as OSRM's guidance reads them.
extension CarProfile {
    /// The number of lanes as OSRM's profile reads it (profiles/lib/guidance.lua): `lanes`, else
    /// `lanes:forward` plus `lanes:backward`; 0 when neither is a number.
    static func laneCount(_ tags: OSMTags) -> UInt8 {
        if let v = tags["lanes"] { return Double(v.trimmed()).map { UInt8(clamping: Int(max(0, min(255, $0)))) } ?? 0 }
        let f = tags["lanes:forward"].flatMap { Double($0.trimmed()) } ?? 0
        let b = tags["lanes:backward"].flatMap { Double($0.trimmed()) } ?? 0
        return UInt8(clamping: Int(max(0, min(255, f + b))))
    }

    /// The most lanes a road keeps turn lanes for; a longer list is taken for a tagging error.
    public static let maxTurnLanes = MapFormat.maxTurnLanes

    /// The turn lanes of a way in one direction, left to right as the driver sees them, in OSRM's
    /// words: lanes joined by "|", a lane's arrows by ";" ("left|straight|straight;right"). Plain
    /// `turn:lanes` is the way's own direction, or the only one of a one-way drawn against it (as
    /// `destination`). A lane no car may use (`vehicle:lanes`/`motor_vehicle:lanes` "no", a bus or
    /// taxi lane: `bus:lanes`/`psv:lanes` "designated") is left out when those lists have as many
    /// lanes. "" when the way has no turn lanes, when every lane is unmarked ("none|none"), or
    /// when the list is longer than `maxTurnLanes`.
    public static func turnLanes(_ tags: OSMTags, forward: Bool, oneWay: Bool = false) -> String {
        let dir = forward ? "forward" : "backward"
        func value(_ key: String) -> String? { tags["\(key):\(dir)"] ?? (forward || oneWay ? tags[key] : nil) }
        guard let raw = value("turn:lanes") else { return "" }
        var lanes = raw.split(separator: "|", omittingEmptySubsequences: false).map { lane -> String in
            var arrows = [String]()
            for part in lane.split(separator: ";") {
                let a = laneArrow(part.trimmed().lowercased())
                if !arrows.contains(a) { arrows.append(a) }
            }
            // "none" beside a real arrow says nothing more; arrows in OSRM's order
            if arrows.count > 1 { arrows.removeAll { $0 == "none" } }
            arrows.sort { (arrowOrder.firstIndex(of: $0) ?? 0) < (arrowOrder.firstIndex(of: $1) ?? 0) }
            return arrows.isEmpty ? "none" : arrows.joined(separator: ";")
        }
        guard lanes.count <= maxTurnLanes else { return "" }
        var keep = [Bool](repeating: true, count: lanes.count)
        var busLanesListed = false
        for (key, closed) in [("vehicle:lanes", "no"), ("motor_vehicle:lanes", "no"), ("bus:lanes", "designated"), ("psv:lanes", "designated")] {
            guard let v = value(key) else { continue }
            let parts = v.split(separator: "|", omittingEmptySubsequences: false)
            guard parts.count == lanes.count else { continue }
            for (i, p) in parts.enumerated() where p.trimmed() == closed {
                keep[i] = false
                if key == "bus:lanes" || key == "psv:lanes" { busLanesListed = true }
            }
        }
        // where no list says which lanes are for buses, a count of them (`lanes:psv=1`; the larger
        // of `lanes:psv` and `lanes:bus`, which often name the same lane) takes that many unmarked
        // lanes from the right edge (or else the left) of the list
        let counts = ["lanes:psv", "lanes:bus"].compactMap { value($0).flatMap { Int($0.trimmed()) } }
        if !busLanesListed, var n = counts.max(), n > 0 {
            let open = keep.indices.filter { keep[$0] }
            let fromRight = open.last.map { lanes[$0] == "none" } ?? false
            for i in (fromRight ? open.reversed() : open) where n > 0 {
                guard lanes[i] == "none" else { break }
                keep[i] = false
                n -= 1
            }
        }
        lanes = zip(lanes, keep).filter { $0.1 }.map { $0.0 }
        guard lanes.contains(where: { $0 != "none" }) else { return "" }
        return lanes.joined(separator: "|")
    }

    /// The order OSRM lists a lane's arrows in.
    static let arrowOrder = ["none", "straight", "sharp left", "left", "slight left", "slight right", "right", "sharp right", "uturn",
                             "merge to left", "merge to right"]

    /// One arrow of `turn:lanes` in OSRM's words; an unknown or empty value is "none".
    static func laneArrow(_ v: String) -> String {
        switch v {
        case "through": return "straight"
        case "left": return "left"
        case "right": return "right"
        case "slight_left": return "slight left"
        case "slight_right": return "slight right"
        case "sharp_left": return "sharp left"
        case "sharp_right": return "sharp right"
        case "reverse": return "uturn"
        // a lane that ends: the car goes on straight and moves over
        case "merge_to_left": return "merge to left"
        case "merge_to_right": return "merge to right"
        default: return "none"
        }
    }

    /// What the signs say a way leads to in one direction, as a driver hears it: the first of its
    /// `destination:ref` and the first of its `destination` ("A 5, Frankfurt"; a sign lists more,
    /// the first is the one to look for). Plain `destination` is the way's own direction (OSM
    /// tags the other as `destination:backward`), or the only one of a one-way drawn against it.
    public static func destination(_ tags: OSMTags, forward: Bool, oneWay: Bool = false) -> String {
        let dir = forward ? "forward" : "backward"
        func first(_ key: String) -> String {
            let v = tags["\(key):\(dir)"] ?? (forward || oneWay ? tags[key] : nil)
            return spokenLabel(v?.split(separator: ";").first.map(String.init))
        }
        return [first("destination:ref"), first("destination")].filter { !$0.isEmpty }.joined(separator: ", ")
    }
}
