import FoundationEssentials
import Glibc
import Platform

/// Each maneuver's road against the one the maneuver before named (Tern's own rule, for the
/// spoken text): an exit ramp tagged with the motorway's own ref or name is not where it leads
/// ("take exit 38 towards Schwetzingen", not "onto A 5" for a car leaving the A 5); a continue
/// stays on the road by its name, or by its ref where the road taken has none ("turn left to
/// stay on B").
enum Signposts {
    static func apply(_ steps: inout [Maneuver]) {
        // (the road an exit ramp left, while the car is still on the ramp's forks)
        var left: (ref: String, street: String)?
        for i in steps.indices.dropFirst() {
            // (fields read in place: a Maneuver copy retains a dozen strings)
            let type = steps[i].type
            if type == .offRamp { left = (steps[i - 1].ref, steps[i - 1].street) } else if type != .fork { left = nil }
            switch type {
            case .offRamp where (!steps[i].ref.isEmpty && sameRefs(steps[i - 1].ref, steps[i].ref))
                || (!steps[i].street.isEmpty && steps[i].street == steps[i - 1].street):
                steps[i].street = ""
                steps[i].ref = ""
            case .fork where left.map { r in (!steps[i].ref.isEmpty && sameRefs(r.ref, steps[i].ref)) || (!steps[i].street.isEmpty && steps[i].street == r.street) } ?? false:
                // a fork on the ramp tagged with the motorway's ref too: "keep left towards B 535"
                steps[i].street = ""
                steps[i].ref = ""
            case .continue:
                let a = steps[i - 1].street, b = steps[i].street
                steps[i].staysOnRoad = b.isEmpty ? !steps[i].ref.isEmpty && sameRefs(steps[i - 1].ref, steps[i].ref)
                    : !a.isEmpty && !NameRules.requiresAnnouncement(from: RoadName(name: a, ref: ""), to: RoadName(name: b, ref: ""))
            default: break
            }
        }
    }

    /// Refs of one road: equal, or one list of refs within the other ("US 50" and "US 50; I 66").
    static func sameRefs(_ a: String, _ b: String) -> Bool {
        if a == b { return true }
        if a.isEmpty || b.isEmpty { return false }
        // (most refs are single: no lists to compare)
        let semicolon = UInt8(ascii: ";")
        if !a.utf8.contains(semicolon) && !b.utf8.contains(semicolon) { return NameRules.trimmedSpaces(a) == NameRules.trimmedSpaces(b) }
        let split = { (s: String) in Set(s.split(separator: ";").map { $0.trimmed() }.filter { !$0.isEmpty }) }
        let x = split(a), y = split(b)
        return !x.isEmpty && !y.isEmpty && (x.isSubset(of: y) || y.isSubset(of: x))
    }
}
