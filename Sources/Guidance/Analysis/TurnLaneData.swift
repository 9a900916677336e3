/// The arrows painted on one lane, as a bit set in OSRM's order (TurnLaneType::Mask,
/// include/extractor/turn_lane_types.hpp): bit 0 none … bit 10 merge to right. The order matters:
/// the API lists a lane's indications in bit order, and Tern's lane text lists them the same way.
struct TurnLaneType: OptionSet, Hashable, Sendable {
    let rawValue: UInt16
    init(rawValue: UInt16) { self.rawValue = rawValue }

    static let empty: TurnLaneType = []
    static let none = TurnLaneType(rawValue: 1)
    static let straight = TurnLaneType(rawValue: 2)
    static let sharpLeft = TurnLaneType(rawValue: 4)
    static let left = TurnLaneType(rawValue: 8)
    static let slightLeft = TurnLaneType(rawValue: 16)
    static let slightRight = TurnLaneType(rawValue: 32)
    static let right = TurnLaneType(rawValue: 64)
    static let sharpRight = TurnLaneType(rawValue: 128)
    static let uturn = TurnLaneType(rawValue: 256)
    static let mergeToLeft = TurnLaneType(rawValue: 512)
    static let mergeToRight = TurnLaneType(rawValue: 1024)

    /// OSRM's NUM_TYPES.
    static let typeCount = 11

    /// The words of a lane text (what CarProfile.laneArrow writes, OSRM's laneTypeToName), by bit.
    static let words = ["none", "straight", "sharp left", "left", "slight left", "slight right", "right", "sharp right", "uturn",
                        "merge to left", "merge to right"]

    /// The words as bytes, to read a stored lane text without making Strings.
    static let wordBytes: [[UInt8]] = words.map { Array($0.utf8) }

    /// One word of a stored lane text as a String: the vocabulary's own (no new String made), or
    /// the bytes as they are for a word OSRM does not know.
    static func word(_ bytes: Slice<UnsafeRawBufferPointer>) -> String {
        for (i, w) in wordBytes.enumerated() where w.elementsEqual(bytes) { return words[i] }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The single-bit mask of one word; nil for a word OSRM does not know.
    static func mask(ofWord w: Substring) -> TurnLaneType? {
        guard let bit = words.firstIndex(where: { $0 == w }) else { return nil }
        return TurnLaneType(rawValue: 1 << UInt16(bit))
    }

    /// The lane's arrows in words, in bit order, joined by ";".
    var text: String {
        (0..<TurnLaneType.typeCount).filter { rawValue & (1 << UInt16($0)) != 0 }.map { TurnLaneType.words[$0] }.joined(separator: ";")
    }

    /// A description (lanes left to right) as a lane text: lanes joined by "|".
    static func text(of description: [TurnLaneType]) -> String { description.map(\.text).joined(separator: "|") }

    /// A lane text as masks, left to right (extractor_callbacks.cpp, laneStringToDescription):
    /// lanes split on "|" keeping empty ones, arrows on ";" dropping empty ones; a lane without an
    /// arrow is `none`; one unknown word makes the whole description empty (OSRM then keeps the
    /// way's description valid but without lanes, so the handler reports INVALID for it).
    static func parse(_ text: String) -> [TurnLaneType] {
        guard !text.isEmpty else { return [] }
        var out = [TurnLaneType]()
        for lane in text.split(separator: "|", omittingEmptySubsequences: false) {
            let words = lane.split(separator: ";")
            if words.isEmpty {
                out.append(.none)
                continue
            }
            var m = TurnLaneType.empty
            for w in words {
                guard let bit = mask(ofWord: w) else { return [] }
                m.formUnion(bit)
            }
            out.append(m)
        }
        return out
    }
}

/// One arrow and the lanes it is painted on (OSRM's TurnLaneData, include/guidance/turn_lane_data.hpp):
/// `tag` is a single bit, the lanes `from...to` are counted from the right (0 is the rightmost).
/// Kept as Int so that OSRM's LaneID arithmetic (uint8) never traps here; it is cut to a byte
/// only where a LaneTuple is made.
struct TurnLaneData: Equatable, Sendable {
    var tag: TurnLaneType
    var from: Int
    var to: Int

    /// The order of arrows of one span, right to left (the tag_by_modifier list of
    /// TurnLaneData::operator<); other tags (none, merges) sort after all of them.
    static let sideOrder: [TurnLaneType] = [.sharpRight, .right, .slightRight, .straight, .slightLeft, .left, .sharpLeft, .uturn]

    /// OSRM's TurnLaneData::operator< (turn_lane_data.cpp): by `from`, then `to`; on equal spans a
    /// u-turn belongs at the edge it is drawn at (on lane 0 it is the rightmost, left-hand traffic;
    /// else the leftmost), the rest by `sideOrder`. Two u-turns (OSRM's comparator would call a
    /// u-turn on lane 0 less than itself) and two unranked tags (left unordered by OSRM's
    /// std::sort) fall back to the bit value, so that the sort is well defined and deterministic.
    static func precedes(_ a: TurnLaneData, _ b: TurnLaneData) -> Bool {
        if a.from != b.from { return a.from < b.from }
        if a.to != b.to { return a.to < b.to }
        if a.tag == .uturn && b.tag == .uturn { return false }
        if a.tag == .uturn { return a.from == 0 }
        if b.tag == .uturn { return b.from != 0 }
        let ra = sideOrder.firstIndex(of: a.tag) ?? sideOrder.count, rb = sideOrder.firstIndex(of: b.tag) ?? sideOrder.count
        if ra != rb { return ra < rb }
        return a.tag.rawValue < b.tag.rawValue
    }

    /// The arrows of a description as spans (laneDataFromDescription, turn_lane_data.cpp). Lanes
    /// are numbered from the right, so the leftmost lane of the text gets the highest number; an
    /// arrow's span runs from its rightmost to its leftmost lane (an arrow on lanes apart covers
    /// everything between: OSRM's TODO, kept). Sorted right to left, the order of the roads of an
    /// intersection. Empty when the spans overlap by more than one lane (the arrows would cross)
    /// or a u-turn arrow sits anywhere but at a side (`hasValidOverlaps`).
    static func laneDataFromDescription(_ description: [TurnLaneType]) -> [TurnLaneData] {
        guard !description.isEmpty else { return [] }
        var spans = [TurnLaneType: (from: Int, to: Int)]()
        var lane = description.count - 1
        for mask in description {
            for bit in 0..<TurnLaneType.typeCount {
                let tag = TurnLaneType(rawValue: 1 << UInt16(bit))
                guard mask.contains(tag) else { continue }
                if spans[tag] == nil {
                    spans[tag] = (lane, lane)
                } else {
                    // walking right: the span's right end moves down
                    spans[tag]!.from = lane
                }
            }
            lane -= 1
        }
        var data = spans.map { TurnLaneData(tag: $0.key, from: $0.value.from, to: $0.value.to) }
        data.sortByLane()
        for i in data.indices.dropFirst() {
            // a u-turn is only understood at a side
            if i + 1 < data.count && data[i].tag.contains(.uturn) { return [] }
            // neighbouring spans may share one lane, no more
            if data[i - 1].to > data[i].from { return [] }
        }
        return data
    }
}

extension Array where Element == TurnLaneData {
    /// Right to left, as OSRM's std::sort over TurnLaneData::operator<.
    mutating func sortByLane() { sort(by: TurnLaneData.precedes) }

    /// The first entry sharing a bit with `mask` (findTag, turn_lane_data.cpp).
    func findTag(_ mask: TurnLaneType) -> Int? { firstIndex { !$0.tag.isDisjoint(with: mask) } }

    /// Some entry shares a bit with `mask` (hasTag).
    func hasTag(_ mask: TurnLaneType) -> Bool { findTag(mask) != nil }
}

/// The lane texts the lane handler reads: those of the map (name ids, 0 = no lanes) and the
/// combined ones it makes for sliproads (OSRM adds them to its LaneDescriptionMap,
/// turn_lane_handler.cpp handleSliproadTurn). A new text gets an id from `names.count` upward,
/// so it never clashes with a name id; `extra[id - names.count]` is its text. Parsed
/// descriptions and their lane data are kept per id: the handler reads the same few texts at
/// every junction.
final class LaneTexts {
    /// The map's name texts (GuidanceGraph.map.names).
    let names: [String]
    /// Texts made during the analysis, with ids `names.count + i`.
    private(set) var extra: [String] = []
    private var extraIDs: [String: UInt32] = [:]
    private var masksByID: [UInt32: [TurnLaneType]] = [:]
    private var dataByID: [UInt32: [TurnLaneData]] = [:]

    init(names: [String]) { self.names = names }

    /// The text of a map name id or of an id `intern` gave; "" for an unknown id.
    func text(_ id: UInt32) -> String {
        let i = Int(id)
        if i < names.count { return names[i] }
        let k = i - names.count
        return k < extra.count ? extra[k] : ""
    }

    /// The id of a lane text made during the analysis (the same text, the same id).
    func intern(_ text: String) -> UInt32 {
        if let id = extraIDs[text] { return id }
        let id = UInt32(names.count + extra.count)
        extra.append(text)
        extraIDs[text] = id
        return id
    }

    /// The id of a description given as masks, left to right.
    func intern(_ description: [TurnLaneType]) -> UInt32 { intern(TurnLaneType.text(of: description)) }

    /// The description of an id as masks, left to right; empty for 0 (no lanes) and for a text
    /// with an unknown word.
    func masks(_ id: UInt32) -> [TurnLaneType] {
        guard id != 0 else { return [] }
        if let m = masksByID[id] { return m }
        let m = TurnLaneType.parse(text(id))
        masksByID[id] = m
        return m
    }

    /// The lane data of an id (laneDataFromDescription of its masks).
    func laneData(_ id: UInt32) -> [TurnLaneData] {
        guard id != 0 else { return [] }
        if let d = dataByID[id] { return d }
        let d = TurnLaneData.laneDataFromDescription(masks(id))
        dataByID[id] = d
        return d
    }

    /// Whether two ids are one description as OSRM's LaneDescriptionMap sees it: OSRM keys
    /// descriptions by their masks, so texts that parse alike (every text with an unknown word
    /// is OSRM's one empty description) are the same. 0 (no lanes) equals nothing.
    func sameDescription(_ a: UInt32, _ b: UInt32) -> Bool {
        guard a != 0, b != 0 else { return false }
        return a == b || masks(a) == masks(b)
    }
}
