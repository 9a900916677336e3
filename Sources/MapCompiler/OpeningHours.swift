import FoundationEssentials
import Glibc
import Platform

/// The subset of OSM's opening_hours syntax used in conditional restrictions:
/// `Mo-Fr 07:00-10:30,16:00-18:30; Sa 08:00-12:00`. Days default to every day.
struct OpeningHours: Sendable {
    struct Rule: Sendable { var days: Set<Int>; var spans: [(Int, Int)] }  // days 0 = Monday; minutes of the day
    var rules: [Rule] = []

    init?(_ text: String) {
        let days = ["mo", "tu", "we", "th", "fr", "sa", "su"]
        for part in text.split(separator: ";") {
            var words = part.trimmed().split(separator: " ").map(String.init)
            guard !words.isEmpty else { continue }
            var daySet = Set(0..<7)
            if let first = words.first, first.first?.isLetter == true {
                daySet = []
                for item in first.lowercased().split(separator: ",") {
                    let ends = item.split(separator: "-").map(String.init)
                    guard let a = days.firstIndex(of: ends[0]) else { return nil }
                    let b = ends.count > 1 ? days.firstIndex(of: ends[1]) : a
                    guard let b else { return nil }
                    var d = a
                    while true { daySet.insert(d); if d == b { break }; d = (d + 1) % 7 }
                }
                words.removeFirst()
            }
            var spans = [(Int, Int)]()
            for span in words.joined().split(separator: ",") {
                let ends = span.split(separator: "-")
                guard ends.count == 2, let s = OpeningHours.minutes(ends[0]), let e = OpeningHours.minutes(ends[1]) else { return nil }
                spans.append((s, e))
            }
            if spans.isEmpty { spans = [(0, 24 * 60)] }
            rules.append(Rule(days: daySet, spans: spans))
        }
        if rules.isEmpty { return nil }
    }

    static func minutes(_ s: Substring) -> Int? {
        let p = s.split(separator: ":")
        guard p.count == 2, let h = Int(p[0]), let m = Int(p[1]), (0...24).contains(h), (0..<60).contains(m) else { return nil }
        return h * 60 + m
    }

    /// Whether the hours include a local time (seconds since the epoch plus the UTC offset).
    func contains(localSeconds: Double) -> Bool {
        let day = Int(floor(localSeconds / 86400))
        let weekday = ((day + 3) % 7 + 7) % 7  // 1970-01-01 was a Thursday
        let minute = Int((localSeconds - Double(day) * 86400) / 60)
        return rules.contains { r in
            r.days.contains(weekday) && r.spans.contains { s, e in s <= e ? (minute >= s && minute < e) : (minute >= s || minute < e) }
        }
    }
}
