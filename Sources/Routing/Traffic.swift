import FoundationEssentials
import Glibc
import Platform
import Geo
import MapData

/// Traffic as the driver or a feed gives it: a speed (km/h) or a closure per OSM way. Routes are
/// then searched on the original road graph with those speeds (the hierarchy's shortcuts assume
/// free flow), and their times are the times under traffic.
public struct TrafficConditions: Sendable, Equatable {
    public var speedKmh: [Int64: Double] = [:]
    public var closed: Set<Int64> = []
    public init() {}
    public var isEmpty: Bool { speedKmh.isEmpty && closed.isEmpty }

    /// Reads lines `WAY_ID closed` or `WAY_ID KMH` (`#` comments, blank lines); a bad line is an
    /// error naming the file and line.
    public static func parse(_ text: String, source: String) throws -> TrafficConditions {
        var t = TrafficConditions()
        for (n, line) in text.statementLines() { try t.apply(line, place: "\(source):\(n)") }
        return t
    }

    /// Applies one `WAY_ID closed|open|KMH` statement; throws naming `place`.
    public mutating func apply(_ statement: String, place: String) throws {
        let words = statement.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
        guard words.count == 2, let way = Int64(words[0]), way > 0 else {
            throw TrafficError("\(place): expected `WAY_ID closed`, `WAY_ID open` or `WAY_ID KMH`, got `\(statement)`")
        }
        switch words[1].lowercased() {
        case "closed":
            closed.insert(way)
            speedKmh[way] = nil
        case "open", "clear":
            closed.remove(way)
            speedKmh[way] = nil
        default:
            guard let v = Double(words[1]), v >= 1, v <= 300 else {  // (1e-300 km/h made a cost no integer holds)
                throw TrafficError("\(place): `\(words[1])` is not a speed in km/h (1–300), `closed` or `open`")
            }
            speedKmh[way] = v
            closed.remove(way)
        }
    }
}

public struct TrafficError: Error, CustomStringConvertible, Equatable {
    public let message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

extension Router {
    /// The turn arc into routing node `v` under traffic: nil when its way is closed, else with
    /// the time the slower (or faster) speed adds to its road edge.
    func underTraffic(_ arc: HierarchyArc, into v: UInt32, _ traffic: TrafficConditions) -> HierarchyArc? {
        let d = map.directedEdge(ofRoutingNode: v)
        let way = map.wayID(map.edge(d.edge).wayIndex)
        if traffic.closed.contains(way) { return nil }
        guard let kmh = traffic.speedKmh[way] else { return arc }
        let free = map.speedKmh(of: d)
        guard free > 0 else { return arc }
        let length = map.lengthMeters(ofEdge: d.edge)
        let delayMs = (length / (kmh / 3.6) - length / (free / 3.6)) * 1000
        var out = arc
        out.weight = UInt32(max(1, min(Double(UInt32.max - 2), Double(arc.weight) + delayMs)))
        out.duration = UInt32(max(1, min(Double(UInt32.max - 2), Double(arc.duration) + delayMs)))
        return out
    }

    /// Start or end points on closed ways dropped (unless all are: the car is in the closure and
    /// leaves it the shortest way), the part of their edge driven costed at the traffic's speed.
    func underTraffic(_ terminals: [Terminal]) -> [Terminal] {
        var out = [Terminal]()
        for var t in terminals {
            let d = map.directedEdge(ofRoutingNode: t.node)
            let way = map.wayID(map.edge(d.edge).wayIndex)
            if traffic.closed.contains(way) { continue }
            if let kmh = traffic.speedKmh[way] {
                let free = map.speedKmh(of: d)
                if free > 0 { t.cost = Int64((Double(t.cost) * free / kmh).rounded()) }
            }
            out.append(t)
        }
        if !out.isEmpty { return out }
        // all on closed ways (the car is in the closure): leave it the shortest way
        guard let least = terminals.map({ abs($0.cost) }).min() else { return terminals }
        return terminals.filter { abs($0.cost) == least }
    }

    /// The time (s) of driving these directed edges (from their start) under traffic, and at
    /// free flow; nil where a way is closed.
    public func seconds(along edges: [DirectedEdge], traffic: TrafficConditions) -> (traffic: Double, free: Double)? {
        var t = 0.0, f = 0.0
        for d in edges {
            let length = map.lengthMeters(ofEdge: d.edge)
            let free = map.speedKmh(of: d)
            guard free > 0 else { continue }
            let freeSeconds = length / (free / 3.6)
            f += freeSeconds
            let way = map.wayID(map.edge(d.edge).wayIndex)
            if traffic.closed.contains(way) { return nil }
            t += traffic.speedKmh[way].map { length / ($0 / 3.6) } ?? freeSeconds
        }
        return (t, f)
    }
}
