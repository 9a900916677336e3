import COsmium
import FoundationEssentials
import Glibc

/// Tags of one OSM object, as read.
public typealias OSMTags = [String: String]

/// A way as delivered by the reader: node ids with their locations (NaN where missing).
public struct OSMWay: Sendable {
    public var id: Int64
    public var tags: OSMTags
    public var nodeIDs: [Int64]
    public var latitudes: [Double]
    public var longitudes: [Double]
}

public struct OSMNode: Sendable {
    public var id: Int64
    public var latitude: Double
    public var longitude: Double
    public var tags: OSMTags
}

public struct OSMRelation: Sendable {
    public struct Member: Sendable {
        public var type: Character  // "n", "w" or "r"
        public var ref: Int64
        public var role: String
    }
    public var id: Int64
    public var tags: OSMTags
    public var members: [Member]
}

/// What went wrong while reading OSM input.
public enum ImportError: Error, CustomStringConvertible {
    case read(path: String, message: String)
    case noRoads(path: String)
    case write(String)

    public var description: String {
        switch self {
        case let .read(path, message): return "\(path): cannot read OSM data: \(message)"
        case let .noRoads(path): return "\(path): no roads a car may use were found"
        case let .write(message): return message
        }
    }
}

/// Streams an OSM file (.osm.pbf, .osm, .osm.gz, .osm.bz2) through libosmium.
public final class OSMReader {
    public struct Handlers {
        public var node: ((OSMNode) -> Void)?
        public var way: ((OSMWay) -> Void)?
        public var wayKeys: [String]?
        /// Ways delivered whatever their tags (members of relations a relations-only pass found).
        public var wayIDs: [Int64] = []
        /// Read the relations only (a quick first pass: no node locations, no nodes or ways).
        public var relationsOnly = false
        public var relation: ((OSMRelation) -> Void)?
        public var relationKeys: [String]?
        public var progress: ((_ fraction: Double) -> Void)?
        public init() {}
    }

    public struct Stats: Sendable {
        public var nodes: UInt64, ways: UInt64, relations: UInt64, missingLocations: UInt64
    }

    private let handlers: Handlers

    private init(handlers: Handlers) { self.handlers = handlers }

    /// Reads the whole file, calling the handlers; throws ImportError.read with libosmium's message.
    @discardableResult
    public static func read(path: String, handlers: Handlers) throws -> Stats {
        let box = OSMReader(handlers: handlers)
        let ctx = Unmanaged.passUnretained(box).toOpaque()
        var c = tern_osm_handlers()
        c.ctx = ctx
        if handlers.node != nil {
            c.node = { n, ctx in
                let r = Unmanaged<OSMReader>.fromOpaque(ctx!).takeUnretainedValue()
                let p = n!.pointee
                r.handlers.node?(OSMNode(id: p.id, latitude: p.lat, longitude: p.lon, tags: OSMReader.tags(p.tags)))
                return 0
            }
        }
        if handlers.way != nil {
            c.way = { w, ctx in
                let r = Unmanaged<OSMReader>.fromOpaque(ctx!).takeUnretainedValue()
                let p = w!.pointee
                let n = p.node_count
                r.handlers.way?(OSMWay(
                    id: p.id, tags: OSMReader.tags(p.tags),
                    nodeIDs: Array(UnsafeBufferPointer(start: p.node_ids, count: n)),
                    latitudes: Array(UnsafeBufferPointer(start: p.lats, count: n)),
                    longitudes: Array(UnsafeBufferPointer(start: p.lons, count: n))))
                return 0
            }
        }
        if handlers.relation != nil {
            c.relation = { rel, ctx in
                let r = Unmanaged<OSMReader>.fromOpaque(ctx!).takeUnretainedValue()
                let p = rel!.pointee
                var members = [OSMRelation.Member]()
                members.reserveCapacity(p.member_count)
                for i in 0..<p.member_count {
                    let t = Character(UnicodeScalar(UInt8(bitPattern: p.member_types![i])))
                    members.append(.init(type: t, ref: p.member_refs![i], role: String(cString: p.member_roles![i]!)))
                }
                r.handlers.relation?(OSMRelation(id: p.id, tags: OSMReader.tags(p.tags), members: members))
                return 0
            }
        }
        if handlers.progress != nil {
            c.progress = { offset, size, ctx in
                let r = Unmanaged<OSMReader>.fromOpaque(ctx!).takeUnretainedValue()
                if size > 0 { r.handlers.progress?(min(1, Double(offset) / Double(size))) }
            }
        }
        var stats = tern_osm_stats()
        var err = [CChar](repeating: 0, count: 512)
        c.relations_only = handlers.relationsOnly ? 1 : 0
        let ids = handlers.wayIDs.sorted()
        let rc: Int32 = ids.withUnsafeBufferPointer { idBuffer in
            withCStringArray(handlers.wayKeys) { wayKeys in
                withCStringArray(handlers.relationKeys) { relKeys in
                    c.way_keys = wayKeys
                    c.relation_keys = relKeys
                    c.way_ids = idBuffer.baseAddress
                    c.way_id_count = idBuffer.count
                    return tern_osm_read(path, &c, &stats, &err, err.count)
                }
            }
        }
        withExtendedLifetime(box) {}
        if rc < 0 { throw ImportError.read(path: path, message: err.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }) }
        return Stats(nodes: stats.nodes, ways: stats.ways, relations: stats.relations, missingLocations: stats.missing_locations)
    }

    static func tags(_ t: tern_osm_tags) -> OSMTags {
        var out = OSMTags(minimumCapacity: t.count)
        for i in 0..<t.count {
            out[String(cString: t.keys![i]!)] = String(cString: t.values![i]!)
        }
        return out
    }
}

/// Calls body with a NULL-terminated C array of the strings (or NULL for nil).
private func withCStringArray<R>(_ strings: [String]?, _ body: (UnsafePointer<UnsafePointer<CChar>?>?) -> R) -> R {
    guard let strings else { return body(nil) }
    let dup = strings.map { strdup($0) }
    defer { dup.forEach { free($0) } }
    var ptrs: [UnsafePointer<CChar>?] = dup.map { UnsafePointer($0) }
    ptrs.append(nil)
    return ptrs.withUnsafeBufferPointer { body($0.baseAddress) }
}
