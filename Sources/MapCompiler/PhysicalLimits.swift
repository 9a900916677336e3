import FoundationEssentials
import Glibc

/// Ways and barriers too low, narrow, short or weak for the car (OSRM's car profile:
/// profiles/lib/way_handlers.lua handle_height, handle_width, handle_length, handle_weight;
/// profiles/lib/measure.lua for the number formats). The car is OSRM's: a large family car or
/// SUV. A way over the limit is closed both ways (OSRM makes both modes inaccessible).
public enum PhysicalLimits {
    /// Slightly above the biggest SUVs.
    public static let vehicleHeightMeters = 2.0
    /// `narrow` ways are taken as narrower than 2.2 m, so a car this wide still fits.
    public static let vehicleWidthMeters = 1.9
    public static let vehicleLengthMeters = 4.8
    public static let vehicleWeightKilograms = 2000.0

    /// Whether the way's signed or physical limits keep the car out. The first key present
    /// decides, as in OSRM's key sequences (a physical limit before the signed one).
    public static func excludes(_ tags: OSMTags) -> Bool {
        if let h = first(tags, ["maxheight:physical", "maxheight"]).flatMap(meters), h < vehicleHeightMeters { return true }
        // (OSRM: "narrow" or narrow=yes closes only vehicles wider than 2.2 m, so not this car)
        if let w = first(tags, ["maxwidth:physical", "maxwidth", "width", "est_width"]), w != "narrow",
           let m = meters(w), m <= vehicleWidthMeters { return true }
        if let l = tags["maxlength"].flatMap(meters), l < vehicleLengthMeters { return true }
        if let kg = first(tags, ["maxweightrating", "maxweight"]).flatMap(kilograms), kg < vehicleWeightKilograms { return true }
        return false
    }

    /// Whether a height restrictor's sign stops the car (OSRM's node handler: lower than the car).
    public static func restrictorBlocks(_ tags: OSMTags) -> Bool {
        guard let h = tags["maxheight"].flatMap(meters) else { return false }
        return h < vehicleHeightMeters
    }

    static func first(_ tags: OSMTags, _ keys: [String]) -> String? {
        for k in keys { if let v = tags[k] { return v } }
        return nil
    }

    /// Metres from "3", "3.5", "3,5 m", "2.2m" or feet and inches ("6'", "6'2\""): the first
    /// number in the text; with a "'" that number is feet and the next one inches. nil where
    /// there is no number ("default", "none", "unsigned").
    static func meters(_ raw: String) -> Double? {
        let s = raw.replacing(",", with: ".")
        guard let (n, rest) = leadingNumber(in: Substring(s), decimals: true) else { return nil }
        guard let feet = rest.firstIndex(of: "'") else { return n }
        let inches = leadingNumber(in: rest[rest.index(after: feet)...], decimals: false)?.value ?? 0
        return (n * 12 + inches) * 0.0254
    }

    /// Kilograms from "35000 kg", "3.5" or "8.9t" (tonnes): a number followed by "kg" is
    /// kilograms, otherwise the first whole number is tonnes (OSRM reads "3.5" as 3 t).
    static func kilograms(_ raw: String) -> Double? {
        if let m = raw.firstMatch(of: /(\d+) ?kg/), let v = Double(m.1) { return v }
        guard let (n, _) = leadingNumber(in: Substring(raw), decimals: false) else { return nil }
        return n * 1000
    }

    /// The first run of digits in `s` (with one decimal point when `decimals`), and what follows.
    static func leadingNumber(in s: Substring, decimals: Bool) -> (value: Double, rest: Substring)? {
        guard let start = s.firstIndex(where: { $0.isASCII && $0.isNumber }) else { return nil }
        var end = start, dot = false
        while end < s.endIndex, s[end].isASCII, s[end].isNumber || (decimals && !dot && s[end] == ".") {
            if s[end] == "." { dot = true }
            end = s.index(after: end)
        }
        guard let v = Double(s[start..<end].hasSuffix(".") ? String(s[start..<end].dropLast()) : String(s[start..<end])) else { return nil }
        return (v, s[end...])
    }
}
