import FoundationEssentials
import Glibc
import Geo
import MapData

/// One `LocalRoads` that several matchers of the same car look their candidates up in. The
/// copied roads are a cache, the same whoever asks, so sharing changes no answer; it halves what
/// the engine's two matchers hold (issue #27) and the second one's look-up is the first's.
/// Not for matchers on different threads.
public final class NearbyRoads {
    var local: LocalRoads
    public init(map: RoadMap) { local = LocalRoads(map: map) }
}

/// The roads around the car, copied out of the map one grid cell at a time into flat arrays in
/// a local metric frame, with a finer index: the shapes are cut into runs of at most 8
/// segments with a bounding box, listed under the 4 × 4 sub-cells (about 55 m) they touch. A
/// fix's candidate search looks only at the runs listed under the sub-cells its circle covers,
/// instead of walking the map's cells and scattered shape points on every fix. A cell is copied
/// when the car first comes near it; when too many are held, all are dropped and copied again
/// as needed; when the car is far from the frame's origin, it moves. Gives the same answers as `RoadMap.nearestEdges` (to rounding).
struct LocalRoads {
    let map: RoadMap
    /// Map cells held before starting afresh (each about 220 m square; a few kB each). 64 is
    /// about 10 minutes of driving through new cells; a fresh start re-copies the two to four
    /// cells around the car. It was 400, which filled over the first hour and held 0.7 MB
    /// (issue #27: memory flat over a day).
    var capacity = 64
    private let chunk = 8
    private let split = 4  // sub-cells per cell side

    /// The frame: metres east and north of `origin`; moved (everything dropped) when the car is
    /// far from it.
    private var origin: Coordinate?
    private var ruler = CheapRuler(latitude: 0)
    /// Per copied edge (an edge in two cells is copied twice, each time the part in the cell):
    /// id, stored length and the ruler length of its whole shape.
    private var edges: [UInt32] = []
    private var storedLength: [Double] = []
    private var shapeLength: [Double] = []
    /// Shape points in the frame: (x, y, 1 / squared length of the segment ending there or 0
    /// for a run's first point or a segment of no length, distance along the edge's shape).
    private var points: [SIMD4<Double>] = []
    /// Per shape point after a run's first: the bearing of the segment ending there, degrees.
    private var segmentBearing: [Double] = []
    /// Runs of at most `chunk` segments of one copied edge (points first...last), and their boxes.
    private var chunkEdge: [Int32] = [], chunkFirst: [Int32] = [], chunkLast: [Int32] = []
    private var chunkBox: [SIMD4<Double>] = []  // minX, minY, maxX, maxY
    /// Per copied cell (by its number in `cellSlot`): its box in the frame, and for each
    /// sub-cell the range of `subChunks` listing the runs that touch it.
    private var cellSlot: [Int: Int] = [:]
    private var cellBox: [SIMD4<Double>] = []
    private var subOffsets: [Int32] = []  // split² + 1 per cell
    private var subChunks: [Int32] = []

    /// The runs within `cachedReach` of `cachedCentre` (from the last full look-up): queries
    /// whose circle lies inside that one scan only these.
    private var cached: [Int32] = []
    private var cachedCentre = SIMD2<Double>(0, 0)
    private var cachedReach = -1.0
    /// The frame moves (and everything copied is dropped) when the car is this far from its
    /// origin. At 30 km the equirectangular frame is off by under 1% in scale: 0.2 m over the
    /// 25 m of a candidate search.
    var frameRadius = 30_000.0
    /// How much farther than asked a full look-up reaches, metres.
    var margin = 30.0
    private var wanted: [Int] = []
    private var found: [UInt32] = []
    private var tx: [Double] = [], ty: [Double] = [], ta: [Double] = []
    private var lists: [[Int32]] = []

    /// The closest point of an edge's run near a query, before the answer is made.
    private struct Hit {
        var distance: Double
        var edge: UInt32
        var slot: Int32
        var k: Int32
        var t, qx, qy: Double
    }
    private var hits: [Hit] = []

    init(map: RoadMap) { self.map = map }

    /// The nearest edges within `radius` of `c`, closest first, at most `limit`.
    mutating func nearest(to c: Coordinate, radius: Double, limit: Int) -> [Snap] {
        var out = [Snap]()
        nearest(to: c, radius: radius, limit: limit, into: &out)
        return out
    }

    /// The same, written into `out` (a buffer the caller keeps between fixes).
    mutating func nearest(to c: Coordinate, radius: Double, limit: Int, into out: inout [Snap]) {
        out.removeAll(keepingCapacity: true)
        guard c.latitude.isFinite, c.longitude.isFinite, radius.isFinite, radius > 0 else { return }
        if origin == nil || ruler.distance(c, origin!) > frameRadius {
            origin = c
            ruler = CheapRuler(latitude: c.latitude)
            dropAll()
        }
        let o = origin!
        let px = Angle.normalizedLongitude(c.longitude - o.longitude) * ruler.kx
        let py = (c.latitude - o.latitude) * ruler.ky
        let r2 = radius * radius
        let moved = ((px - cachedCentre.x) * (px - cachedCentre.x) + (py - cachedCentre.y) * (py - cachedCentre.y)).squareRoot()
        if cachedReach < 0 || moved + radius > cachedReach {
            // a full look-up, a little wider than asked, remembered for the next fixes
            let reach = radius + margin
            let dLat = reach / ruler.ky, dLon = reach / ruler.kx
            map.gridCells(nearLatitude: (c.latitude - dLat)...(c.latitude + dLat), longitude: (c.longitude - dLon)...(c.longitude + dLon),
                          into: &wanted)
            if cellSlot.count + wanted.count > capacity { dropAll() }
            cached.removeAll(keepingCapacity: true)
            for id in wanted {
                let slot: Int
                if let known = cellSlot[id] { slot = known } else { slot = copy(cell: id) }
                collect(cell: slot, px: px, py: py, reach: reach)
            }
            // a run listed under several sub-cells was collected more than once
            cached.sort()
            var w = 0
            for i in cached.indices where i == 0 || cached[i] != cached[i - 1] { cached[w] = cached[i]; w += 1 }
            cached.removeLast(cached.count - w)
            cachedCentre = SIMD2(px, py)
            cachedReach = reach
        }
        hits.removeAll(keepingCapacity: true)
        scan(px: px, py: py, r2: r2)
        // an edge met in several runs or cells: keep its closest point
        hits.sort { $0.distance < $1.distance || ($0.distance == $1.distance && $0.edge < $1.edge) }
        for h in hits where !out.contains(where: { $0.edge == h.edge }) {
            // offset and bearing only for what is returned
            let k = Int(h.k), slot = Int(h.slot)
            var offset = points[k - 1].w + h.t * (points[k].w - points[k - 1].w)
            let stored = storedLength[slot]
            if shapeLength[slot] > 0 { offset *= stored / shapeLength[slot] }
            let bearing = segmentBearing[k]
            let point = Coordinate(latitude: o.latitude + h.qy / ruler.ky, longitude: o.longitude + h.qx / ruler.kx)
            out.append(Snap(edge: h.edge, offsetMeters: offset, edgeLengthMeters: stored, point: point, distanceMeters: h.distance,
                            bearingDegrees: bearing))
            if out.count == limit { break }
        }
    }

    /// The closest point of each copied edge's runs in `cached` within √r2 of (px, py), into `hits`.
    private mutating func scan(px: Double, py: Double, r2: Double) {
        points.withUnsafeBufferPointer { pts in
            chunkBox.withUnsafeBufferPointer { boxes in
                for ch32 in cached {
                    let ch = Int(ch32)
                    let b = boxes[ch]
                    let dx = max(b.x - px, 0, px - b.z), dy = max(b.y - py, 0, py - b.w)
                    if dx * dx + dy * dy > r2 { continue }
                    var bestK = -1, bestD2 = r2, bestT = 0.0, bestQX = 0.0, bestQY = 0.0
                    var a = pts[Int(chunkFirst[ch])]
                    for k in Int(chunkFirst[ch] + 1)...Int(chunkLast[ch]) {
                        let e = pts[k]
                        let sx = e.x - a.x, sy = e.y - a.y
                        let t = min(1, max(0, ((px - a.x) * sx + (py - a.y) * sy) * e.z))
                        let qx = a.x + sx * t, qy = a.y + sy * t
                        let d2 = (px - qx) * (px - qx) + (py - qy) * (py - qy)
                        if d2 < bestD2 || (bestK < 0 && d2 <= bestD2) { bestK = k; bestD2 = d2; bestT = t; bestQX = qx; bestQY = qy }
                        a = e
                    }
                    if bestK > 0 {
                        let slot = chunkEdge[ch]
                        let hit = Hit(distance: bestD2.squareRoot(), edge: edges[Int(slot)], slot: slot, k: Int32(bestK), t: bestT,
                                      qx: bestQX, qy: bestQY)
                        // the runs of one copied edge come one after another: keep only its closest
                        if let last = hits.last, last.slot == slot {
                            if hit.distance < last.distance { hits[hits.count - 1] = hit }
                        } else {
                            hits.append(hit)
                        }
                    }
                }
            }
        }
    }

    /// Collects the runs listed under the sub-cells of one cell that a circle covers, whose box
    /// lies within its reach.
    private mutating func collect(cell: Int, px: Double, py: Double, reach: Double) {
        let box = cellBox[cell]
        let w = (box.z - box.x) / Double(split), h = (box.w - box.y) / Double(split)
        guard w > 0, h > 0 else { return }
        let c0 = max(0, Int(max(-1, ((px - reach - box.x) / w).rounded(.down)))), c1 = min(split - 1, Int(min(Double(split), ((px + reach - box.x) / w).rounded(.down))))
        let r0 = max(0, Int(max(-1, ((py - reach - box.y) / h).rounded(.down)))), r1 = min(split - 1, Int(min(Double(split), ((py + reach - box.y) / h).rounded(.down))))
        guard c0 <= c1, r0 <= r1 else { return }
        let base = cell * (split * split + 1)
        let reach2 = reach * reach
        for r in r0...r1 {
            for c in c0...c1 {
                let s = base + r * split + c
                for i in Int(subOffsets[s])..<Int(subOffsets[s + 1]) {
                    let b = chunkBox[Int(subChunks[i])]
                    let dx = max(b.x - px, 0, px - b.z), dy = max(b.y - py, 0, py - b.w)
                    if dx * dx + dy * dy <= reach2 { cached.append(subChunks[i]) }
                }
            }
        }
    }

    private mutating func dropAll() {
        edges.removeAll(keepingCapacity: true)
        storedLength.removeAll(keepingCapacity: true)
        shapeLength.removeAll(keepingCapacity: true)
        points.removeAll(keepingCapacity: true)
        segmentBearing.removeAll(keepingCapacity: true)
        chunkEdge.removeAll(keepingCapacity: true)
        chunkFirst.removeAll(keepingCapacity: true)
        chunkLast.removeAll(keepingCapacity: true)
        chunkBox.removeAll(keepingCapacity: true)
        cellSlot.removeAll(keepingCapacity: true)
        cellBox.removeAll(keepingCapacity: true)
        subOffsets.removeAll(keepingCapacity: true)
        subChunks.removeAll(keepingCapacity: true)
        cached.removeAll(keepingCapacity: true)
        cachedReach = -1
    }

    /// Copies the parts of the roads listed in one grid cell that lie in it (an edge crossing
    /// many cells is copied piecewise: only its segments whose box meets the cell), cuts them
    /// into runs and lists the runs under the sub-cells they touch. A segment near a query point
    /// lies, at least in part, in a cell the query covers, so nothing near is missed.
    private mutating func copy(cell id: Int) -> Int {
        let o = origin!
        let bounds = map.gridCellBounds(id)
        let minX = Angle.normalizedLongitude(bounds.min.longitude - o.longitude) * ruler.kx
        let maxX = Angle.normalizedLongitude(bounds.max.longitude - o.longitude) * ruler.kx
        let minY = (bounds.min.latitude - o.latitude) * ruler.ky
        let maxY = (bounds.max.latitude - o.latitude) * ruler.ky
        let pad = 1.0
        let firstChunk = chunkBox.count
        map.edges(inGridCell: id, into: &found)
        for e in found {
            tx.removeAll(keepingCapacity: true)
            ty.removeAll(keepingCapacity: true)
            ta.removeAll(keepingCapacity: true)
            var d = 0.0
            map.forEachShapePoint(ofEdge: e) { p in
                let x = Angle.normalizedLongitude(p.longitude - o.longitude) * ruler.kx, y = (p.latitude - o.latitude) * ruler.ky
                if let lx = tx.last, let ly = ty.last { d += ((x - lx) * (x - lx) + (y - ly) * (y - ly)).squareRoot() }
                tx.append(x); ty.append(y); ta.append(d)
            }
            let slot = Int32(edges.count)
            var used = false
            var k = 1
            while k < tx.count {
                // a run of consecutive segments meeting the cell
                var end = k
                while end < tx.count, min(tx[end - 1], tx[end]) <= maxX + pad, max(tx[end - 1], tx[end]) >= minX - pad,
                      min(ty[end - 1], ty[end]) <= maxY + pad, max(ty[end - 1], ty[end]) >= minY - pad { end += 1 }
                if end == k { k += 1; continue }
                used = true
                let base = points.count - (k - 1)
                for q in (k - 1)..<end {
                    if q == k - 1 {
                        segmentBearing.append(0)
                        points.append(SIMD4(tx[q], ty[q], 0, ta[q]))
                    } else {
                        let sx = tx[q] - tx[q - 1], sy = ty[q] - ty[q - 1], len2 = sx * sx + sy * sy
                        segmentBearing.append(Angle.normalized(atan2(sx, sy) * 180 / .pi))
                        points.append(SIMD4(tx[q], ty[q], len2 > 0 ? 1 / len2 : 0, ta[q]))
                    }
                }
                var a = k - 1
                while a < end - 1 {
                    let b = min(a + chunk, end - 1)
                    var box = SIMD4(Double.infinity, Double.infinity, -Double.infinity, -Double.infinity)
                    for q in a...b { box = SIMD4(min(box.x, tx[q]), min(box.y, ty[q]), max(box.z, tx[q]), max(box.w, ty[q])) }
                    chunkEdge.append(slot); chunkFirst.append(Int32(base + a)); chunkLast.append(Int32(base + b))
                    chunkBox.append(box)
                    a = b
                }
                k = end + 1
            }
            if used {
                edges.append(e)
                storedLength.append(map.lengthMeters(ofEdge: e))
                shapeLength.append(d)
            }
        }
        // list each run under the sub-cells its box touches
        let n = split * split
        if lists.count != n { lists = Array(repeating: [], count: n) }
        for i in lists.indices { lists[i].removeAll(keepingCapacity: true) }
        let w = (maxX - minX) / Double(split), h = (maxY - minY) / Double(split)
        for ch in firstChunk..<chunkBox.count {
            let b = chunkBox[ch]
            let c0 = max(0, min(split - 1, Int(((b.x - minX) / w).rounded(.down)))), c1 = max(0, min(split - 1, Int(((b.z - minX) / w).rounded(.down))))
            let r0 = max(0, min(split - 1, Int(((b.y - minY) / h).rounded(.down)))), r1 = max(0, min(split - 1, Int(((b.w - minY) / h).rounded(.down))))
            for r in r0...r1 { for c in c0...c1 { lists[r * split + c].append(Int32(ch)) } }
        }
        let slot = cellBox.count
        cellBox.append(SIMD4(minX, minY, maxX, maxY))
        for l in lists {
            subOffsets.append(Int32(subChunks.count))
            subChunks.append(contentsOf: l)
        }
        subOffsets.append(Int32(subChunks.count))
        cellSlot[id] = slot
        return slot
    }
}
