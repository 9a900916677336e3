import Geo

/// Ways drawn over the same stretch of road: one segment per direction of travel is kept.
///
/// OSRM's extractor (`ExtractionContainers::PrepareEdges`) sorts the segments between two OSM
/// nodes by source, target and name, and of those joining the same two nodes in the same drawn
/// order keeps, per direction, the one with the smallest (weight, duration); a tie goes to the
/// name first in byte order, a named road before an unnamed one. The others lose that
/// direction. So where a destination-only way is drawn over an open one (`cde` over `icde`),
/// the road is destination-only if its name sorts first, and a route names the stretch by the
/// way that was kept (OSRM's destination.feature).
extension GraphBuilder {
    private struct SegmentKey: Hashable { let from: Int64; let to: Int64 }
    private struct Place: Hashable { let way: Int; let segment: Int }

    /// `shared`: whether a node may be on two ways (an overlap's nodes all are), so that only
    /// those segments are looked at.
    static func withoutOverlaps(_ ways: [KeptWay], weightByDistance: Bool, shared: (Int64) -> Bool) -> [KeptWay] {
        // the first way seen on each segment; overlaps collected as they appear
        var first = [SegmentKey: Place]()
        var overlaps = [SegmentKey: [Place]]()
        for (w, way) in ways.enumerated() {
            for k in 1..<way.nodeIDs.count where shared(way.nodeIDs[k - 1]) && shared(way.nodeIDs[k]) {
                let key = SegmentKey(from: way.nodeIDs[k - 1], to: way.nodeIDs[k])
                if let p = first[key] {
                    if p.way != w { overlaps[key, default: [p]].append(Place(way: w, segment: k)) }
                } else {
                    first[key] = Place(way: w, segment: k)
                }
            }
        }
        guard !overlaps.isEmpty else { return ways }

        // per losing segment: which directions it loses (forward: as drawn)
        var lost = [Place: (forward: Bool, backward: Bool)]()
        for places in overlaps.values {
            for forward in [true, false] {
                func cost(_ p: Place) -> (Double, Double)? {
                    let way = ways[p.way], a = way.attributes
                    guard forward ? a.forward : a.backward else { return nil }
                    let meters = CheapRuler(latitude: way.coordinates[p.segment].latitude)
                        .distance(way.coordinates[p.segment - 1], way.coordinates[p.segment])
                    let c = segmentCost(meters: meters, kmh: forward ? a.speedForwardKmh : a.speedBackwardKmh,
                                        rate: forward ? a.rateFactorForward : a.rateFactorBackward, attributes: a,
                                        segments: way.nodeIDs.count - 1, weightByDistance: weightByDistance)
                    return (c.weight, c.duration)
                }
                let driven = places.compactMap { p in cost(p).map { (place: p, cost: $0) } }
                guard driven.count > 1 else { continue }
                let kept = driven.min { x, y in
                    if x.cost != y.cost { return x.cost < y.cost }
                    let nx = ways[x.place.way].attributes.name, ny = ways[y.place.way].attributes.name
                    if nx != ny { return ny.isEmpty || (!nx.isEmpty && Array(nx.utf8).lexicographicallyPrecedes(Array(ny.utf8))) }
                    return x.place.way < y.place.way
                }!.place
                for d in driven where d.place != kept {
                    var l = lost[d.place] ?? (false, false)
                    if forward { l.forward = true } else { l.backward = true }
                    lost[d.place] = l
                }
            }
        }

        // a way that lost a direction somewhere is cut there: the pieces that lost both are
        // dropped, the others keep the directions they still have
        var losers = [Int: [Int: (forward: Bool, backward: Bool)]]()
        for (p, l) in lost { losers[p.way, default: [:]][p.segment] = l }
        var out = [KeptWay]()
        out.reserveCapacity(ways.count + losers.count)
        for (w, way) in ways.enumerated() {
            guard let segmentLoss = losers[w] else { out.append(way); continue }
            let total = way.nodeIDs.count - 1
            var start = 1
            while start <= total {
                let loss = segmentLoss[start] ?? (false, false)
                var end = start
                while end < total, let next = Optional(segmentLoss[end + 1] ?? (false, false)),
                      next.forward == loss.forward, next.backward == loss.backward { end += 1 }
                var a = way.attributes
                if loss.forward { a.forward = false; a.restrictedForward = false }
                if loss.backward { a.backward = false; a.restrictedBackward = false }
                if let d = a.durationSeconds { a.durationSeconds = d * Double(end - start + 1) / Double(total) }
                if a.forward || a.backward {
                    out.append(KeptWay(id: way.id, attributes: a, nodeIDs: Array(way.nodeIDs[(start - 1)...end]),
                                       coordinates: Array(way.coordinates[(start - 1)...end])))
                }
                start = end + 1
            }
        }
        return out
    }
}
