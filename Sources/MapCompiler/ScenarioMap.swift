import FoundationEssentials
import Glibc
import Platform
import Geo

/// A small map described the way OSRM's `.feature` files do: an ASCII grid where each letter or
/// digit is a node, ways as sequences of node names with tags, node tags, and relations. Written
/// out as OSM XML, it goes through the same import as a real extract (the demo town, the
/// feature runner and scenario tests all use it).
public struct ScenarioMap: Sendable {
    public struct Way: Sendable {
        /// Node names in order.
        public var nodes: [String]
        public var tags: [(String, String)]
        /// A way from a string of one-character node names ("abc").
        public init(_ nodes: String, _ tags: [(String, String)] = []) {
            self.nodes = nodes.map { String($0) }
            self.tags = tags
        }
        public init(nodes: [String], tags: [(String, String)]) {
            self.nodes = nodes
            self.tags = tags
        }
        /// The name feature files use for it: its node names joined.
        public var key: String { nodes.joined() }
    }

    public struct Relation: Sendable {
        public var members: [(type: String, ref: String, role: String)]
        public var tags: [(String, String)]
        public init(members: [(type: String, ref: String, role: String)], tags: [(String, String)]) {
            self.members = members
            self.tags = tags
        }
    }

    public let origin: Coordinate
    /// Node name → position.
    public private(set) var nodes: [String: Coordinate] = [:]
    /// Order of first appearance (OSM ids follow it).
    public private(set) var nodeOrder: [String] = []
    /// Names that are only locations, not OSM nodes (digits in feature files).
    public var locationsOnly = Set<String>()
    func isOSMNode(_ name: String) -> Bool { !locationsOnly.contains(name) }
    public var nodeTags: [String: [(String, String)]] = [:]
    public var ways: [Way] = []
    public var relations: [Relation] = []

    /// Nodes of an ASCII map: the character at column c, row r lies c × columnMeters east and
    /// r × rowMeters south of `origin` (OSRM's features: columns are half a grid apart).
    public init(ascii: String, columnMeters: Double, rowMeters: Double, origin: Coordinate = Coordinate(latitude: 1, longitude: 1)) {
        self.origin = origin
        let projection = LocalProjection(origin: origin)
        let lines = ascii.split(separator: "\n", omittingEmptySubsequences: false)
        for (row, line) in lines.enumerated() {
            for (col, ch) in line.enumerated() where ch.isLetter || ch.isNumber {
                setNode(String(ch), projection.unproject(LocalPoint(x: Double(col) * columnMeters, y: -Double(row) * rowMeters)))
            }
        }
    }

    /// An ASCII map with square cells of `gridMeters`.
    public init(ascii: String, gridMeters: Double = 100, origin: Coordinate = Coordinate(latitude: 1, longitude: 1)) {
        self.init(ascii: ascii, columnMeters: gridMeters, rowMeters: gridMeters, origin: origin)
    }

    /// Adds or moves a node to an explicit position.
    public mutating func setNode(_ name: String, _ c: Coordinate) {
        if nodes[name] == nil { nodeOrder.append(name) }
        nodes[name] = c
    }

    public subscript(_ name: Character) -> Coordinate? { nodes[String(name)] }

    /// OSM id of a node name (1-based in order of appearance).
    public func nodeID(_ name: String) -> Int? { nodeOrder.firstIndex(of: name).map { $0 + 1 } }

    /// The map as OSM XML (version 0.6).
    public func osmXML() throws -> String {
        var out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<osm version=\"0.6\" generator=\"tern\">\n"
        for (i, name) in nodeOrder.enumerated() where isOSMNode(name) {
            let c = nodes[name]!
            let tags = nodeTags[name] ?? []
            let head = String(printf: "  <node id=\"%d\" version=\"1\" lat=\"%.8f\" lon=\"%.8f\"", i + 1, c.latitude, c.longitude)
            if tags.isEmpty { out += head + "/>\n" } else {
                out += head + ">\n" + tags.map { "    <tag k=\"\(xml($0.0))\" v=\"\(xml($0.1))\"/>\n" }.joined() + "  </node>\n"
            }
        }
        for (i, w) in ways.enumerated() {
            out += "  <way id=\"\(i + 1)\" version=\"1\">\n"
            for name in w.nodes {
                guard let id = nodeID(name), isOSMNode(name) else {
                    throw ScenarioError("way \"\(w.key)\" uses node \(name), which is not on the map")
                }
                out += "    <nd ref=\"\(id)\"/>\n"
            }
            for (k, v) in w.tags { out += "    <tag k=\"\(xml(k))\" v=\"\(xml(v))\"/>\n" }
            out += "  </way>\n"
        }
        for (i, r) in relations.enumerated() {
            out += "  <relation id=\"\(i + 1)\" version=\"1\">\n"
            for m in r.members {
                let ref: Int
                if m.type == "node", let id = nodeID(m.ref) { ref = id } else if m.type == "way", let id = wayIndex(m.ref) {
                    ref = id
                } else if m.type == "relation", let k = relations.firstIndex(where: { $0.tags.contains { $0 == ("name", m.ref) } }) {
                    ref = k + 1  // a relation member is named by the other relation's `name` tag (OSRM's tests)
                } else { throw ScenarioError("relation member \(m.type) \(m.ref) is not on the map") }
                out += "    <member type=\"\(m.type)\" ref=\"\(ref)\" role=\"\(xml(m.role))\"/>\n"
            }
            for (k, v) in r.tags { out += "    <tag k=\"\(xml(k))\" v=\"\(xml(v))\"/>\n" }
            out += "  </relation>\n"
        }
        return out + "</osm>\n"
    }

    /// A way is referred to by its node string (either direction) or its name tag.
    public func wayIndex(_ ref: String) -> Int? {
        if let i = ways.firstIndex(where: { $0.key == ref }) { return i + 1 }
        if let i = ways.firstIndex(where: { String($0.key.reversed()) == ref }) { return i + 1 }
        if let i = ways.firstIndex(where: { $0.tags.contains { $0.0 == "name" && $0.1 == ref } }) { return i + 1 }
        return nil
    }

    /// Writes the XML to `path`.
    public func write(to path: String) throws {
        try AtomicFile.write(osmXML(), to: path)
    }

    private func xml(_ s: String) -> String {
        s.replacing("&", with: "&amp;").replacing("\"", with: "&quot;")
            .replacing("<", with: "&lt;").replacing(">", with: "&gt;")
    }
}

public struct ScenarioError: Error, CustomStringConvertible {
    public let description: String
    public init(_ d: String) { description = d }
}
