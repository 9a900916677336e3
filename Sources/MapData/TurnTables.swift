/// What guidance decided at import for every turn of the edge-based graph, as OSRM's extractor
/// stores it (include/guidance/turn_data_container.hpp, the bearing and entry classes of
/// turn_classification.cpp): a route reads these records and only post-processes them.
/// Layouts in MapFormat.swift (sections TURNIDX … SEGREG).
public struct TurnTables: Sendable, Equatable {
    /// Per directed edge (DirectedEdge.raw) + 1: the first record of the turns from that edge.
    /// The turns from edge d are one per edge leaving its target, in the order of the OUT
    /// adjacency list; an edge reaching a node the road only passes through has none.
    public var index: [UInt32] = []
    /// One per turn: TurnRecord.packed.
    public var records: [UInt32] = []
    /// Per directed edge: which roads of its target's bearing class the car may take from it
    /// (bit i for bearing i), 0 where the edge reaches no junction.
    public var entry: [UInt32] = []
    /// The lane text a directed edge's turn lanes refer to (a name id), where its turns have lanes.
    public var laneTexts: [DirectedEdge: UInt32] = [:]
    /// Per node + 1: the first of its bearings (the roads at a junction, degrees, clockwise from
    /// north, as OSRM's bearing class: multiples of 15 where they fall in distinct 15° bins).
    public var bearingIndex: [UInt32] = []
    public var bearings: [UInt16] = []
    /// One bit per directed edge: the edge lies inside a divided road's junction (OSRM's
    /// segregated edges), a piece the engine folds into the turn before it.
    public var segregated: [UInt8] = []

    public init() {}
}

/// One turn's record: OSRM's TurnInstruction byte, the lanes it takes, and the bearings before
/// (of the road back, seen from the junction) and after, in 1.40625° steps (OSRM's TurnBearing).
public struct TurnRecord: Sendable, Equatable {
    public var instruction: UInt8
    /// Lanes in the turn (high four bits) and the first of them counted from the right (low four
    /// bits); 0 where the turn has no lanes.
    public var lanes: UInt8
    public var preBearing: UInt8
    public var postBearing: UInt8

    public init(instruction: UInt8, lanes: UInt8, preBearing: UInt8, postBearing: UInt8) {
        self.instruction = instruction
        self.lanes = lanes
        self.preBearing = preBearing
        self.postBearing = postBearing
    }

    public init(packed v: UInt32) {
        instruction = UInt8(v & 0xff)
        lanes = UInt8((v >> 8) & 0xff)
        preBearing = UInt8((v >> 16) & 0xff)
        postBearing = UInt8(v >> 24)
    }

    public var packed: UInt32 {
        UInt32(instruction) | UInt32(lanes) << 8 | UInt32(preBearing) << 16 | UInt32(postBearing) << 24
    }

    /// A bearing in degrees [0, 360) as a byte, truncated as OSRM stores it.
    public static func bearingByte(_ degrees: Double) -> UInt8 {
        let d = degrees.isFinite ? min(max(degrees, 0), 359.999) : 0
        return UInt8(d / (360.0 / 256.0))
    }

    public static func degrees(_ b: UInt8) -> Double { Double(b) * 360.0 / 256.0 }
}

extension RoadMap {
    /// The record of the turn from `from` onto `to` at the node between them; nil where `from`
    /// reaches a node the road only passes through (nothing decided there).
    public func turnRecord(from: DirectedEdge, to: DirectedEdge) -> TurnRecord? {
        guard let r = turnRecordIndex(from: from, to: to) else { return nil }
        return TurnRecord(packed: u32(section(.turns) + r * 4))
    }

    func turnRecordIndex(from: DirectedEdge, to: DirectedEdge) -> Int? {
        guard turnIndexCount > Int(from.raw) + 1 else { return nil }
        let idx = section(.turnIndex) + Int(from.raw) * 4
        let lo = Int(u32(idx)), hi = Int(u32(idx + 4))
        guard lo < hi else { return nil }
        let range = outgoingRange(target(of: from))
        guard range.count == hi - lo else { return nil }
        for (i, k) in range.enumerated() where outgoingEdge(at: k) == to { return lo + i }
        return nil
    }

    /// Which roads of the junction `from` reaches the car may take (bit per bearing).
    public func entryMask(from: DirectedEdge) -> UInt32 {
        guard sectionRange(.turnEntry).count >= (Int(from.raw) + 1) * 4 else { return 0 }
        return u32(section(.turnEntry) + Int(from.raw) * 4)
    }

    /// The lane text the lanes of the turns from `from` refer to, "" where they have none.
    public func turnLaneText(from: DirectedEdge) -> String { name(turnLaneTextID(from: from)) }

    /// The same as a name id (0 where none).
    public func turnLaneTextID(from: DirectedEdge) -> UInt32 { signpost(.turnLaneTexts, turnLaneTextCount, from.raw) }

    /// How many lanes a lane text has ("left|through;right" has two; 0 for id 0), counted in the
    /// stored bytes: guidance asks at every junction with lanes, and a String per ask cost more
    /// than the rest of the junction.
    public func laneCount(ofLaneText id: UInt32) -> Int {
        guard id != 0, id < nameCount else { return 0 }
        var n = 1
        for b in nameBytes(id) where b == UInt8(ascii: "|") { n += 1 }
        return n
    }

    /// The bearings of the roads at a junction (degrees; empty where the node is no junction).
    public func bearings(atNode n: UInt32) -> [Double] {
        guard bearingIndexCount > Int(n) + 1 else { return [] }
        let idx = section(.bearingIndex) + Int(n) * 4
        let lo = Int(u32(idx)), hi = Int(u32(idx + 4))
        let b = section(.bearings)
        return (lo..<hi).map { Double(base16(b + $0 * 2)) }
    }

    /// A node's bearings read in place, without an array (guidance reads them at every turn of
    /// every route); none where the node is no junction.
    public func storedBearings(atNode n: UInt32) -> StoredBearings {
        guard bearingIndexCount > Int(n) + 1 else { return StoredBearings(bytes: UnsafeRawBufferPointer(start: nil, count: 0)) }
        let idx = section(.bearingIndex) + Int(n) * 4
        let lo = Int(u32(idx)), hi = Int(u32(idx + 4))
        return StoredBearings(bytes: bytes(at: section(.bearings) + lo * 2, count: (hi - lo) * 2))
    }

    /// Whether a directed edge lies inside a divided road's junction.
    public func isSegregated(_ d: DirectedEdge) -> Bool {
        let byte = Int(d.raw >> 3)
        guard byte < sectionRange(.segregated).count else { return false }
        return u8(section(.segregated) + byte) & (1 << (d.raw & 7)) != 0
    }

    @inline(__always) func base16(_ offset: Int) -> UInt16 { UInt16(u8(offset)) | UInt16(u8(offset + 1)) << 8 }
}

/// The bearings of the roads at a junction as the map stores them (u16 degrees each, BEARINGS),
/// valid while the map lives.
public struct StoredBearings {
    @usableFromInline let bytes: UnsafeRawBufferPointer
    init(bytes: UnsafeRawBufferPointer) { self.bytes = bytes }
    @inlinable public var count: Int { bytes.count / 2 }
    @inlinable public var isEmpty: Bool { bytes.count < 2 }
    @inlinable public subscript(i: Int) -> Double {
        Double(UInt16(littleEndian: bytes.loadUnaligned(fromByteOffset: i * 2, as: UInt16.self)))
    }
}
