import FoundationEssentials
import Glibc

/// Whether a change of road name is news to the driver, as OSRM decides it
/// (include/util/guidance/name_announcements.hpp, src/extractor/intersection/have_identical_names.cpp).
/// A road's identity is its name and its ref (OSRM's name id holds both, with the pronunciation
/// and exit numbers, which Tern's map does not keep).
public struct RoadName: Hashable, Sendable {
    public var name: String
    public var ref: String
    public init(name: String, ref: String) {
        self.name = name
        self.ref = ref
    }
    /// OSRM's EMPTY_NAMEID: neither a name nor a ref.
    public var isEmpty: Bool { name.isEmpty && ref.isEmpty }
}

public enum NameRules {
    /// The car profile's suffix_list, lower-cased: words that may be added to or dropped from a
    /// name without making it another road ("Main Street North", "Main Street").
    static let suffixes: Set<String> = ["n", "ne", "e", "se", "s", "sw", "w", "nw", "north", "south", "west", "east",
                                        "nor", "sou", "we", "ea"]

    /// Whether going from road `a` onto road `b` needs the new name said (requiresNameAnnounced).
    /// `suffixes` false is the engine's variant, which knows no suffix words.
    public static func requiresAnnouncement(from a: RoadName, to b: RoadName, suffixes useSuffixes: Bool = true) -> Bool {
        if a == b { return false }
        return requiresAnnouncement(a.name, a.ref, b.name, b.ref, suffixChange: isSuffixChange(a.name, b.name, useSuffixes: useSuffixes))
    }

    /// The engine's variant on the names as the map stores them (no suffix words; OSRM compares
    /// the bytes too): asked at every step of every route, so no String is made.
    static func requiresAnnouncement(from a: (name: NameBytes, ref: NameBytes), to b: (name: NameBytes, ref: NameBytes)) -> Bool {
        if a.name == b.name && a.ref == b.ref { return false }
        return requiresAnnouncement(a.name, a.ref, b.name, b.ref, suffixChange: a.name.trimmedSpaces == b.name.trimmedSpaces)
    }

    /// The rule itself, on either form of a name (`suffixChange`: the names differ by suffix
    /// words or end spaces only).
    static func requiresAnnouncement<T: NameText>(_ aName: T, _ aRef: T, _ bName: T, _ bRef: T, suffixChange: Bool) -> Bool {
        // from nothing to something
        if aName.isEmpty && aRef.isEmpty && !(bName.isEmpty && bRef.isEmpty) { return true }
        let namesEmpty = aName.isEmpty && bName.isEmpty
        // (the empty name is the start of every name)
        let nameContained = aName.startsWith(bName) || bName.startsWith(aName)
        let namesEqual = aName == bName || nameContained || suffixChange
        let nameRemoved = !aName.isEmpty && bName.isEmpty
        let refsEmpty = aRef.isEmpty && bRef.isEmpty
        let refContained = aRef.isEmpty || bRef.isEmpty || aRef.includes(bRef) || bRef.includes(aRef)
        let refRemoved = !aRef.isEmpty && bRef.isEmpty
        let obvious = (namesEmpty && refsEmpty) || (namesEqual && refContained) || (namesEqual && refsEmpty)
            || (refContained && nameRemoved) || (namesEqual && refRemoved) || suffixChange
        let mustAnnounce = (aName.isEmpty && !aRef.isEmpty && !bName.isEmpty && bRef.isEmpty)
            || (!aName.isEmpty && aRef.isEmpty && bName.isEmpty && !bRef.isEmpty)
            || (namesEmpty && !refContained)
        return !obvious || mustAnnounce
    }

    /// Both names are there and neither change needs saying (HaveIdenticalNames).
    public static func identical(_ a: RoadName, _ b: RoadName) -> Bool {
        !a.isEmpty && !b.isEmpty && !requiresAnnouncement(from: a, to: b) && !requiresAnnouncement(from: b, to: a)
    }

    /// The names differ only by words of the suffix table around what they have in common: split
    /// both round their longest common substring, and every part left is a suffix word or empty.
    static func isSuffixChange(_ a: String, _ b: String, useSuffixes: Bool) -> Bool {
        if a == b { return true }
        if !useSuffixes {
            // (without suffix words the parts round the common run must be spaces: the names
            // are the same but for spaces at their ends; the engine asks this on every step)
            return trimmedSpaces(a) == trimmedSpaces(b)
        }
        let x = Array(a), y = Array(b)
        let (start, length, startY) = longestCommonSubstring(x, y)
        let parts: [String]
        if length == 0 {
            parts = [a, b, "", ""]
        } else {
            parts = [String(x[..<start]), String(x[(start + length)...]), String(y[..<startY]), String(y[(startY + length)...])]
        }
        return parts.allSatisfy { p in
            let t = p.lowercased().filter { $0 != " " }
            return t.isEmpty || (useSuffixes && suffixes.contains(t))
        }
    }

    /// The text without spaces at its ends (cheaper than Foundation's trimming, asked per step).
    static func trimmedSpaces(_ s: String) -> Substring {
        var t = s[...]
        while t.first == " " { t = t.dropFirst() }
        while t.last == " " { t = t.dropLast() }
        return t
    }

    /// The first longest common run of characters: its start in `x`, its length, its start in `y`.
    static func longestCommonSubstring(_ x: [Character], _ y: [Character]) -> (Int, Int, Int) {
        guard !x.isEmpty, !y.isEmpty else { return (0, 0, 0) }
        var best = (0, 0, 0)
        var previous = [Int](repeating: 0, count: y.count + 1)
        var current = previous
        for i in 1...x.count {
            for j in 1...y.count {
                if x[i - 1] == y[j - 1] {
                    current[j] = previous[j - 1] + 1
                    if current[j] > best.1 { best = (i - current[j], current[j], j - current[j]) }
                } else {
                    current[j] = 0
                }
            }
            swap(&previous, &current)
        }
        // (the first occurrence in each name, as OSRM searches for the common part again)
        let common = Array(x[best.0..<(best.0 + best.1)])
        let inX = firstIndex(of: common, in: x) ?? best.0, inY = firstIndex(of: common, in: y) ?? best.2
        return (inX, best.1, inY)
    }

    static func firstIndex(of needle: [Character], in hay: [Character]) -> Int? {
        guard needle.count <= hay.count else { return nil }
        for i in 0...(hay.count - needle.count) where Array(hay[i..<(i + needle.count)]) == needle { return i }
        return nil
    }
}

/// What the name rule reads of a name or a ref: a String at import, the stored bytes at query
/// time.
protocol NameText: Equatable {
    var isEmpty: Bool { get }
    func startsWith(_ other: Self) -> Bool
    func includes(_ other: Self) -> Bool
}

extension String: NameText {
    func startsWith(_ other: String) -> Bool { hasPrefix(other) }
    func includes(_ other: String) -> Bool { contains(other) }
}

/// A name as the map stores it, UTF-8 (RoadMap.nameBytes): compared byte by byte.
struct NameBytes: NameText {
    let bytes: UnsafeRawBufferPointer

    var isEmpty: Bool { bytes.isEmpty }

    static func == (a: NameBytes, b: NameBytes) -> Bool { a.bytes.count == b.bytes.count && a.startsWith(b) }

    func startsWith(_ other: NameBytes) -> Bool { matches(other, at: 0) }

    func includes(_ other: NameBytes) -> Bool {
        guard other.bytes.count <= bytes.count else { return false }
        for i in 0...(bytes.count - other.bytes.count) where matches(other, at: i) { return true }
        return false
    }

    /// The bytes without spaces at their ends.
    var trimmedSpaces: NameBytes {
        var lo = 0, hi = bytes.count
        while lo < hi && bytes[lo] == UInt8(ascii: " ") { lo += 1 }
        while hi > lo && bytes[hi - 1] == UInt8(ascii: " ") { hi -= 1 }
        return NameBytes(bytes: UnsafeRawBufferPointer(rebasing: bytes[lo..<hi]))
    }

    /// `other` occurs at byte `i`.
    private func matches(_ other: NameBytes, at i: Int) -> Bool {
        let n = other.bytes.count
        guard i + n <= bytes.count else { return false }
        guard n > 0 else { return true }
        return memcmp(bytes.baseAddress! + i, other.bytes.baseAddress!, n) == 0
    }
}
