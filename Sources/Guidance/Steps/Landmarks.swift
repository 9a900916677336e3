import Geo
import MapData
import Routing

/// Landmarks a driver sees at a maneuver, where they are unambiguous (Tern's own, after
/// landmark routing): traffic lights at the junction or the one set passed just before it, else
/// a named place at the corner or passed just before it; never one the driver has yet to reach.
enum Landmarks {
    /// The longest name a place may have to be said as a landmark (about two seconds of speech).
    static let landmarkNameCharacters = 32
    /// A place this near the junction is at the corner, metres.
    static let cornerRadius = 35.0
    /// A place passed is looked for this far back along the road, within `passedRadius` of it.
    static let passedBack = 120.0
    static let passedRadius = 25.0

    /// Landmarks a driver sees, where they are unambiguous: traffic lights at the junction or
    /// the one set passed just before it ("turn left after the traffic lights"), else a named
    /// place at the corner or the one passed just before ("turn right after the Shell station"),
    /// as in landmark routing: at or after the place, never one the driver has yet to reach.
    static func apply(_ steps: inout [Maneuver], map: RoadMap, leg: RouteLeg) {
        func turning(_ t: ManeuverType) -> Bool {
            switch t {
            case .turn, .endOfRoad, .continue, .fork, .newName: return true
            default: return false
            }
        }
        for i in steps.indices.dropFirst() where turning(steps[i].type) && steps[i].landmark == nil
            && steps[i].modifier != .straight && steps[i].modifier != .uturn {
            let k = steps[i].edgeIndex
            guard k > 0, k < leg.edges.count else { continue }
            let at = steps[i].distanceFromStartMeters
            let previous = steps[i - 1].distanceFromStartMeters
            // signals on the way in, within 150 m and after the previous maneuver; a crossing's
            // signals (nodes a few metres apart) are one set
            var sets = [Double]()
            var e = k - 1
            while e > 0 {
                let node = map.source(of: leg.edges[e])
                let d = at - leg.cumulativeMeters[min(leg.edgeShapeStart[e], leg.cumulativeMeters.count - 1)]
                if d > 150 || at - d <= previous { break }
                if map.flags(ofNode: node).contains(.trafficSignals), d >= 15 {
                    if let last = sets.last, d - last < 30 { } else { sets.append(d) }
                }
                e -= 1
            }
            if sets.count == 1 {
                steps[i].landmark = .trafficSignalsBefore
                continue
            }
            if !sets.isEmpty { continue }
            // a named place at the corner, or the one passed on the last stretch before it; not
            // one named like a road here (a bus stop called after the street says nothing)
            let corner = steps[i].location
            // (the places looked for below lie within 35 m of the corner, or 25 m of a point at
            // most 120 m of road, so at most 120 m, back: none within 145 m, none to find)
            guard map.hasPlace(near: corner, radiusMeters: max(Landmarks.cornerRadius, Landmarks.passedBack + Landmarks.passedRadius))
            else { continue }
            let node = map.source(of: leg.edges[k])
            // (the road names are read only where a place is near: most junctions have none)
            var roadNamesMade: Set<String>? = nil
            func roadNames() -> Set<String> {
                if let r = roadNamesMade { return r }
                var r = Set((map.outgoing(node) + map.incoming(node)).map { map.name(map.edge($0.edge).nameID) })
                r.formUnion([steps[i - 1].street, steps[i].street])
                // (nor the place the maneuver before was said at: "turn left at Streetside 9", then
                // "turn left onto Schmedgass after Streetside 9" 46 m on says nothing new)
                if case .place(let name, _)? = steps[i - 1].landmark { r.insert(name) }
                roadNamesMade = r
                return r
            }
            // (a station or post office named after its town is no landmark: "after Èze")
            let recognisable = { (p: (place: Place, distanceMeters: Double)) -> Bool in p.place.kind.isLandmark(named: map.name(p.place.nameID)) }
            // (nor one whose name takes long to say: "at Section d'enseignement professionnel du
            // Lycée Technique et Hôtelier de Monaco" is over before the driver has found it)
            let usable = { (id: UInt32) -> Bool in
                let n = map.name(id)
                return id != 0 && !n.isEmpty && n.count <= Landmarks.landmarkNameCharacters && !roadNames().contains(n)
            }
            // (the distinct names: a handful at most, an array rather than a hashed set)
            func distinct(_ ids: [UInt32]) -> [UInt32] { ids.reduce(into: []) { if !$0.contains($1) { $0.append($1) } } }
            let atCorner = distinct(map.places(near: corner, radiusMeters: Landmarks.cornerRadius).filter(recognisable).map(\.place.nameID).filter(usable))
            if atCorner.count == 1, let id = atCorner.first {
                steps[i].landmark = .place(map.name(id), after: false)
                continue
            }
            if atCorner.count > 1 { continue }
            var passed = [UInt32]()
            var d = 40.0
            while d <= Landmarks.passedBack, at - d > previous {
                passed = distinct(passed + map.places(near: leg.position(atMeters: at - d).coordinate, radiusMeters: Landmarks.passedRadius)
                    .filter(recognisable).map(\.place.nameID).filter(usable))
                d += 20
            }
            if passed.count == 1, let id = passed.first { steps[i].landmark = .place(map.name(id), after: true) }
        }
    }


    /// The landmark at a junction node itself, when it has one.
    static func atNode(_ map: RoadMap, _ node: UInt32) -> Landmark? {
        let f = map.flags(ofNode: node)
        if f.contains(.trafficSignals) { return .trafficSignals }
        if f.contains(.stop) { return .stopSign }
        return nil
    }
}
