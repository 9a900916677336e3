import Platform

/// Cardinal directions from road route relations (OSRM car.lua's `cardinal_directions`, its
/// lib/relations.lua): "I 80" on a way of the westbound relation of Interstate 80 becomes
/// "I 80 $west" (guidance says the placeholder in the driver's language).
///
/// A relation gives a way a direction by the way's role (`north`, `south`, `east`, `west`, on a
/// `route=road` relation), else by its `direction` tag; a role and a tag that disagree give none.
/// A relation without a direction takes the one its parent route relation gives it (by role or
/// tag), unless two parents give one, and a parent that disagrees with the relation's own cancels
/// it. A `forward` or `backward` role limits the direction to that way of driving the way. The
/// direction goes to the way's ref (of a `;` list) that best matches the relation's name and ref
/// by words: 2 for a shared number, 1 for another shared word.
public struct RouteRelations {
    private struct Relation {
        var name: String?
        var ref: String?
        var direction: String?
        var isRoad: Bool
        var members: [(type: Character, ref: Int64, role: String)]
    }

    private var relations: [Int64: Relation] = [:]
    /// Route relations a way or relation is a member of (way ids and relation ids apart).
    private var ofWay: [Int64: [Int64]] = [:]
    private var ofRelation: [Int64: [Int64]] = [:]

    var isEmpty: Bool { relations.isEmpty }

    mutating func add(_ rel: OSMRelation) {
        guard rel.tags["type"] == "route" else { return }
        let direction = rel.tags["direction"]?.lowercased()
        relations[rel.id] = Relation(name: rel.tags["name"], ref: rel.tags["ref"],
                                     direction: direction.flatMap { RouteRelations.isDirection($0) ? $0 : nil },
                                     isRoad: rel.tags["route"] == "road",
                                     members: rel.members.map { ($0.type, $0.ref, $0.role) })
        for m in rel.members {
            if m.type == "w" { ofWay[m.ref, default: []].append(rel.id) }
            if m.type == "r" { ofRelation[m.ref, default: []].append(rel.id) }
        }
    }

    static func isDirection(_ s: String) -> Bool { s == "north" || s == "south" || s == "east" || s == "west" }

    /// The refs of a `;` list ("I 80;CO 93"), trimmed, empty ones left out (OSRM's
    /// string_list_tokens); `joined` writes them back as OSRM does, "I 80; CO 93".
    public static func refList(_ ref: String) -> [String] {
        ref.split(separator: ";").map { $0.trimmed() }.filter { !$0.isEmpty }
    }
    public static func joined(_ refs: [String]) -> String { refs.joined(separator: "; ") }

    /// The way's refs with their directions, forward and backward ("I 80 $east; CO 93 $east"),
    /// joined by "; " as OSRM writes them; nil when no relation gives the way a direction.
    func refs(ofWay way: Int64, ref: String) -> (forward: String, backward: String)? {
        guard let ids = ofWay[way], !ref.isEmpty else { return nil }
        let refs = RouteRelations.refList(ref)
        var forward = [String?](repeating: nil, count: refs.count), backward = forward
        var any = false
        for id in ids {
            guard let rel = relations[id], let (direction, only) = direction(of: way, in: id, rel) else { continue }
            guard let best = RouteRelations.bestRef(refs, name: rel.name, ref: rel.ref) else { continue }
            if only != false { forward[best] = direction }
            if only != true { backward[best] = direction }
            any = true
        }
        guard any else { return nil }
        func text(_ dirs: [String?]) -> String {
            RouteRelations.joined(zip(refs, dirs).map { r, d in d.map { "\(r) $\($0)" } ?? r })
        }
        return (text(forward), text(backward))
    }

    /// The direction relation `id` gives the way, and whether only forward (true), only
    /// backward (false) or both (nil).
    private func direction(of way: Int64, in id: Int64, _ rel: Relation) -> (String, Bool?)? {
        let role = rel.members.first { $0.type == "w" && $0.ref == way }?.role ?? ""
        let byRole = rel.isRoad && RouteRelations.isDirection(role) ? role : nil
        var direction = byRole ?? rel.direction
        if let r = byRole, let t = rel.direction, r != t { direction = nil }
        let parent = parentDirection(of: id)
        if let d = direction, let p = parent, d != p { direction = nil } else if direction == nil { direction = parent }
        guard let d = direction else { return nil }
        return (d, role == "forward" ? true : (role == "backward" ? false : nil))
    }

    /// The direction a parent route relation gives relation `id` (by role, else by its tag);
    /// nil when none does or two do.
    private func parentDirection(of id: Int64) -> String? {
        var found: String?, count = 0
        for p in ofRelation[id] ?? [] {
            guard let parent = relations[p] else { continue }
            let role = parent.members.first { $0.type == "r" && $0.ref == id }?.role ?? ""
            guard let d = RouteRelations.isDirection(role) ? role : parent.direction else { continue }
            found = d
            count += 1
        }
        return count == 1 ? found : nil
    }

    /// Which of the way's refs a relation's name and ref match best (words in common: a number
    /// 2, another word 1); the first of equals.
    static func bestRef(_ refs: [String], name: String?, ref: String?) -> Int? {
        var best: (index: Int, score: Int)?
        for text in [name, ref].compactMap({ $0 }) {
            let words = Set(text.split(whereSeparator: \.isWhitespace).map(String.init))
            for (i, r) in refs.enumerated() {
                let score = r.split(whereSeparator: \.isWhitespace).reduce(0) { s, w in
                    words.contains(String(w)) ? s + (Double(w) != nil ? 2 : 1) : s
                }
                if best == nil || score > best!.score { best = (i, score) }
            }
        }
        return best?.index
    }
}

extension GraphBuilder {
    /// Gives each way's ref the cardinal directions its route relations give it. The map keeps
    /// one ref per road: on a two-way road whose directions differ ("US 50 $east" one way,
    /// "US 50 $west" the other) the ref is kept without them.
    mutating func applyCardinalDirections(_ relations: RouteRelations) {
        guard !relations.isEmpty else { return }
        for i in ways.indices {
            let a = ways[i].attributes
            guard let r = relations.refs(ofWay: ways[i].id, ref: a.ref) else { continue }
            let ref: String
            if a.forward && a.backward && r.forward != r.backward {
                ref = RouteRelations.joined(RouteRelations.refList(a.ref))
            } else {
                ref = a.forward ? r.forward : r.backward
            }
            ways[i].attributes.ref = ref
        }
    }
}
