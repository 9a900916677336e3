import Foundation

/// Each maneuver's road against the one the maneuver before named (Tern's own rule, for the
/// spoken text): an exit ramp tagged with the motorway's own ref or name is not where it leads
/// ("take exit 38 towards Schwetzingen", not "onto A 5" for a car leaving the A 5); a continue
/// stays on the road by its name, or by its ref where the road taken has none ("turn left to
/// stay on B").
enum Signposts {
    static func apply(_ steps: inout [Maneuver]) {
        // (the road an exit ramp left, while the car is still on the ramp's forks)
        var left: Maneuver?
        for i in steps.indices.dropFirst() {
            let a = steps[i - 1], b = steps[i]
            let sameRef = !b.ref.isEmpty && sameRefs(a.ref, b.ref)
            if b.type == .offRamp { left = a } else if b.type != .fork { left = nil }
            switch b.type {
            case .offRamp where sameRef || (!b.street.isEmpty && b.street == a.street):
                steps[i].street = ""
                steps[i].ref = ""
            case .fork where left.map { r in (!b.ref.isEmpty && sameRefs(r.ref, b.ref)) || (!b.street.isEmpty && b.street == r.street) } ?? false:
                // a fork on the ramp tagged with the motorway's ref too: "keep left towards B 535"
                steps[i].street = ""
                steps[i].ref = ""
            case .continue:
                steps[i].staysOnRoad = b.street.isEmpty ? sameRef
                    : !a.street.isEmpty && !NameRules.requiresAnnouncement(from: RoadName(name: a.street, ref: ""), to: RoadName(name: b.street, ref: ""))
            default: break
            }
        }
    }

    /// Refs of one road: equal, or one list of refs within the other ("US 50" and "US 50; I 66").
    static func sameRefs(_ a: String, _ b: String) -> Bool {
        if a == b { return true }
        if a.isEmpty || b.isEmpty { return false }
        // (most refs are single: no lists to compare)
        if !a.contains(";") && !b.contains(";") { return NameRules.trimmedSpaces(a) == NameRules.trimmedSpaces(b) }
        let split = { (s: String) in Set(s.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }) }
        let x = split(a), y = split(b)
        return !x.isEmpty && !y.isEmpty && (x.isSubset(of: y) || y.isSubset(of: x))
    }
}
