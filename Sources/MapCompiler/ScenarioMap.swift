import Foundation
import Geo

/// A small map described the way OSRM's `.feature` files do: an ASCII grid where each letter or
/// digit is a node `grid` metres apart, ways as strings of node names with tags, node tags, and
/// relations. Written out as OSM XML, it goes through the same import as a real extract (the
/// demo town, the feature runner and scenario tests all use it).
public struct ScenarioMap: Sendable {
    public struct Way: Sendable {
        public var nodes: String
        public var tags: [(String, String)]
        public init(_ nodes: String, _ tags: [(String, String)] = []) {
            self.nodes = nodes
            self.tags = tags
        }
    }

    public struct Relation: Sendable {
        public var members: [(type: String, ref: String, role: String)]
        public var tags: [(String, String)]
        public init(members: [(type: String, ref: String, role: String)], tags: [(String, String)]) {
            self.members = members
            self.tags = tags
        }
    }

    /// Node name → position.
    public private(set) var nodes: [Character: Coordinate] = [:]
    /// Order of first appearance (ids are given in this order).
    public private(set) var nodeOrder: [Character] = []
    public var nodeTags: [Character: [(String, String)]] = [:]
    public var ways: [Way] = []
    public var relations: [Relation] = []

    /// Builds the nodes of an ASCII map: character at column c, row r lies c × grid metres east
    /// and r × grid metres south of `origin` (OSRM's cheap-ruler conversion at the origin).
    public init(ascii: String, gridMeters: Double = 100, origin: Coordinate = Coordinate(latitude: 1, longitude: 1)) {
        let projection = LocalProjection(origin: origin)
        let lines = ascii.split(separator: "\n", omittingEmptySubsequences: false)
        for (row, line) in lines.enumerated() {
            for (col, ch) in line.enumerated() where ch.isLetter || ch.isNumber {
                if nodes[ch] == nil { nodeOrder.append(ch) }
                nodes[ch] = projection.unproject(LocalPoint(x: Double(col) * gridMeters, y: -Double(row) * gridMeters))
            }
        }
    }

    /// Adds or moves a node to an explicit position.
    public mutating func setNode(_ name: Character, _ c: Coordinate) {
        if nodes[name] == nil { nodeOrder.append(name) }
        nodes[name] = c
    }

    /// OSM id of a node name (1-based in order of appearance).
    public func nodeID(_ name: Character) -> Int? { nodeOrder.firstIndex(of: name).map { $0 + 1 } }

    /// The map as OSM XML (version 0.6).
    public func osmXML() throws -> String {
        var out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<osm version=\"0.6\" generator=\"tern\">\n"
        for (i, name) in nodeOrder.enumerated() {
            let c = nodes[name]!
            let tags = nodeTags[name] ?? []
            let head = String(format: "  <node id=\"%d\" version=\"1\" lat=\"%.8f\" lon=\"%.8f\"", i + 1, c.latitude, c.longitude)
            if tags.isEmpty { out += head + "/>\n" } else {
                out += head + ">\n" + tags.map { "    <tag k=\"\(xml($0.0))\" v=\"\(xml($0.1))\"/>\n" }.joined() + "  </node>\n"
            }
        }
        for (i, w) in ways.enumerated() {
            out += "  <way id=\"\(i + 1)\" version=\"1\">\n"
            for ch in w.nodes {
                guard let id = nodeID(ch) else { throw ScenarioError("way \"\(w.nodes)\" uses node \(ch), which is not on the map") }
                out += "    <nd ref=\"\(id)\"/>\n"
            }
            for (k, v) in w.tags { out += "    <tag k=\"\(xml(k))\" v=\"\(xml(v))\"/>\n" }
            out += "  </way>\n"
        }
        for (i, r) in relations.enumerated() {
            out += "  <relation id=\"\(i + 1)\" version=\"1\">\n"
            for m in r.members {
                let ref: Int
                if m.type == "node", let ch = m.ref.first, let id = nodeID(ch) { ref = id } else if m.type == "way", let id = wayIndex(m.ref) {
                    ref = id
                } else { throw ScenarioError("relation member \(m.type) \(m.ref) is not on the map") }
                out += "    <member type=\"\(m.type)\" ref=\"\(ref)\" role=\"\(xml(m.role))\"/>\n"
            }
            for (k, v) in r.tags { out += "    <tag k=\"\(xml(k))\" v=\"\(xml(v))\"/>\n" }
            out += "  </relation>\n"
        }
        return out + "</osm>\n"
    }

    /// A way is referred to by its node string or its name tag.
    func wayIndex(_ ref: String) -> Int? {
        if let i = ways.firstIndex(where: { $0.nodes == ref }) { return i + 1 }
        if let i = ways.firstIndex(where: { $0.tags.contains { $0.0 == "name" && $0.1 == ref } }) { return i + 1 }
        return nil
    }

    /// Writes the XML to `path`.
    public func write(to path: String) throws {
        try osmXML().write(toFile: path, atomically: true, encoding: .utf8)
    }

    private func xml(_ s: String) -> String {
        s.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "\"", with: "&quot;")
            .replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: ">", with: "&gt;")
    }
}

public struct ScenarioError: Error, CustomStringConvertible {
    public let description: String
    public init(_ d: String) { description = d }
}
