import FoundationEssentials
import Glibc
import Platform

/// The car profile's readings of tag values: surface, track type and smoothness speed caps,
/// numbers with units (metres, durations, speed limits) and the implicit limit table (OSRM's
/// car.lua and profiles/lib/measure.lua formats). The rules that use them are in CarProfile.swift.
extension CarProfile {
    static func surfaceCap(_ s: String?) -> Double? {
        guard let s else { return nil }
        switch s {
        case "cement", "compacted", "fine_gravel": return 80
        case "paving_stones", "metal", "bricks": return 60
        case "grass", "wood", "sett", "grass_paver", "gravel", "unpaved", "ground", "dirt", "pebblestone", "tartan": return 40
        case "cobblestone", "clay", "snow": return 30
        case "earth", "stone", "rocky", "sand", "ice": return 20
        case "laterite": return 15
        case "mud": return 10
        default: return nil
        }
    }

    static func tracktypeCap(_ s: String?) -> Double? {
        switch s {
        case "grade1": return 60
        case "grade2": return 40
        case "grade3": return 30
        case "grade4": return 25
        case "grade5": return 20
        default: return nil
        }
    }

    static func smoothnessCap(_ s: String?) -> Double? {
        switch s {
        case "intermediate": return 80
        case "bad": return 40
        case "very_bad": return 20
        case "horrible": return 10
        case "very_horrible": return 5
        default: return nil
        }
    }

    static func leadingInteger(_ s: String) -> Int? {
        let digits = s.prefix { $0.isNumber }
        return digits.isEmpty ? nil : Int(digits)
    }


    /// Seconds from "HH:MM:SS", "HH:MM" or ISO 8601 "PT1H2M3S".
    static func parseDuration(_ raw: String) -> Double? {
        let s = raw.trimmed()
        if s.hasPrefix("PT") || s.hasPrefix("P") {
            var total = 0.0, number = ""
            var inTime = false
            for ch in s.dropFirst() {
                if ch == "T" { inTime = true; continue }
                if ch.isNumber || ch == "." { number.append(ch); continue }
                let v = Double(number) ?? 0
                number = ""
                switch ch {
                case "H": total += v * 3600
                case "M": total += inTime ? v * 60 : v * 2_592_000
                case "S": total += v
                case "D": total += v * 86400
                default: return nil
                }
            }
            return max(1, total)
        }
        let parts = s.split(separator: ":").map { Double($0) }
        guard !parts.isEmpty, parts.allSatisfy({ $0 != nil }) else { return nil }
        let v = parts.map { $0! }
        switch v.count {
        case 3: return max(1, v[0] * 3600 + v[1] * 60 + v[2])
        case 2: return max(1, v[0] * 3600 + v[1] * 60)
        case 1: return max(1, v[0] * 60)
        default: return nil
        }
    }

    /// Parses a maxspeed value in km/h: "50", "30 mph", "DE:urban", "none" (no limit), "walk".
    /// Returns .infinity for no limit, nil when unknown.
    public static func parseMaxspeed(_ raw: String) -> Double? {
        let value = raw.trimmed().lowercased()
        if value.isEmpty { return nil }
        if value == "none" || value == "unlimited" { return .infinity }
        if value == "walk" { return 7 }
        if value.contains(";") {
            return value.split(separator: ";").compactMap { parseMaxspeed(String($0)) }.min()
        }
        if let implicit = implicitMaxspeeds[value] { return implicit == 0 ? nil : implicit }
        if let colon = value.firstIndex(of: ":"), value.first?.isLetter == true {
            // "xx:zone" not in the table: the generic zone defaults
            switch value[value.index(after: colon)...] {
            case "urban": return 50
            case "rural": return 90
            case "trunk": return 110
            case "motorway": return 130
            default: return nil
            }
        }
        var digits = ""
        var rest = Substring(value)
        while let ch = rest.first, ch.isNumber || ch == "." { digits.append(ch); rest = rest.dropFirst() }
        guard let number = Double(digits), number > 0 else { return nil }
        let unit = rest.trimmed()
        if unit.contains("mph") || unit.contains("mp/h") { return number * 1.609 }
        if unit == "knots" || unit == "kn" { return number * 1.852 }
        return number
    }

    /// Country zone limits (OSRM car.lua's table and the OSM wiki), km/h; 0 means "no number".
    static let implicitMaxspeeds: [String: Double] = [
        "at:rural": 100, "at:trunk": 100, "be:motorway": 120, "be-vlg:rural": 70, "by:urban": 60, "by:motorway": 110,
        "ch:rural": 80, "ch:trunk": 100, "ch:motorway": 120, "cz:trunk": 0, "cz:motorway": 0, "de:living_street": 7,
        "de:rural": 100, "de:motorway": 0, "dk:rural": 80, "fr:rural": 80, "gb:nsl_single": 96.54, "gb:nsl_dual": 112.63,
        "gb:motorway": 112.63, "nl:rural": 80, "nl:trunk": 100, "no:rural": 80, "no:motorway": 110, "pl:rural": 100,
        "pl:trunk": 120, "pl:motorway": 140, "ro:trunk": 100, "ru:living_street": 20, "ru:urban": 60, "ru:motorway": 110,
        "uk:nsl_single": 96.54, "uk:nsl_dual": 112.63, "uk:motorway": 112.63, "za:urban": 60, "za:rural": 100,
        "lv:living_street": 20, "de:zone30": 30, "de:zone:30": 30, "de:zone20": 20, "de:bicycle_road": 30,
    ]
}
