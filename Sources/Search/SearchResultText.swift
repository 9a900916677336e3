import Geo
import Platform

/// A result as one line of the console and `tern search`: "1 Hauptstraße 12, Altstadt, Heidelberg 2.3 km NE".
public enum SearchResultText {
    public static func line(_ number: Int, _ r: SearchResult, from: Coordinate?) -> String {
        line(number, r.label, at: r.coordinate, from: from)
    }

    public static func line(_ number: Int, _ label: String, at c: Coordinate, from: Coordinate?) -> String {
        // a name is the map's text: a line break in it would break the console's list framing
        let oneLine = String(String.UnicodeScalarView(label.unicodeScalars.map { $0.properties.generalCategory == .control ? " " : $0 }))
        var s = "\(number) \(oneLine)"
        if let from {
            let d = from.distance(to: c)
            s += " " + distance(d)
            if d >= 20 { s += " " + compass(from.bearing(to: c)) }
        }
        return s
    }

    /// "350 m", "2.3 km", "41 km".
    public static func distance(_ m: Double) -> String {
        if m < 995 { return "\(Int((m / 10).rounded()) * 10) m" }
        if m < 9950 { return String(printf: "%.1f km", m / 1000) }
        return "\(Int((m / 1000).rounded())) km"
    }

    /// The eight-point compass direction of a bearing.
    public static func compass(_ degrees: Double) -> String {
        let names = ["N", "NE", "E", "SE", "S", "SW", "W", "NW"]
        let b = (degrees.truncatingRemainder(dividingBy: 360) + 360).truncatingRemainder(dividingBy: 360)
        return names[Int((b + 22.5) / 45) % 8]
    }
}
