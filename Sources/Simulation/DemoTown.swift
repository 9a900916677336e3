import FoundationEssentials
import Glibc
import Platform
import Geo
import MapCompiler

/// The demo town built into `tern demo`: about 1 × 0.4 km of named streets with a roundabout,
/// a one-way street, traffic signals, a stop sign and speed limits, drawn as a scenario map
/// (each character 20 m) and imported through the same code as a real extract.
///
/// ```
///  a---------b-------------------c-------------------d     Harbour Road (primary, 50)
///  |         |                   |                   |
///  e---------f-------------------g-------------------h     Mill Lane (30); signals at f and g
///  |         |                   |                   |
///  |         v (Church St, one-way south)  r         |     Market Street c-g-r (50)
///  j---------v-----------------u   s-----------------k     Park Avenue; Market Circle r-u-t-s
///  |         |                   t                   |     (roundabout, anticlockwise)
///  m---------n-------------------o-------------------p     Canal Street (30); stop at n
/// ```
public enum DemoTown {
    public static let origin = Coordinate(latitude: 49.41, longitude: 8.69)
    public static let gridMeters = 20.0

    public static let ascii = """
        a         b                   c                   d





        e         f                   g                   h



                                      r

        j         v                 u   s                 k

                                      t



        m         n                   o                   p
        """

    /// The town as a scenario map.
    public static func map() -> ScenarioMap {
        var m = ScenarioMap(ascii: ascii, gridMeters: gridMeters, origin: origin)
        m.ways = [
            .init("abcd", [("highway", "primary"), ("name", "Harbour Road"), ("maxspeed", "50"),
                           ("turn:lanes:forward", "through|right")]),
            .init("aejm", [("highway", "secondary"), ("name", "Station Street"), ("maxspeed", "50")]),
            .init("bfvn", [("highway", "residential"), ("name", "Church Street"), ("oneway", "yes"), ("maxspeed", "30")]),
            .init("efgh", [("highway", "unclassified"), ("name", "Mill Lane"), ("maxspeed", "30")]),
            .init("cgr", [("highway", "tertiary"), ("name", "Market Street"), ("maxspeed", "50")]),
            .init("rutsr", [("highway", "tertiary"), ("name", "Market Circle"), ("junction", "roundabout"), ("maxspeed", "30")]),
            .init("jvu", [("highway", "residential"), ("name", "Park Avenue"), ("maxspeed", "30")]),
            .init("sk", [("highway", "tertiary"), ("name", "Park Avenue"), ("maxspeed", "50")]),
            .init("to", [("highway", "residential"), ("name", "South Street"), ("maxspeed", "30")]),
            .init("dhkp", [("highway", "tertiary"), ("name", "Ring Road"), ("maxspeed", "50")]),
            .init("mnop", [("highway", "residential"), ("name", "Canal Street"), ("maxspeed", "30")]),
        ]
        m.nodeTags = [
            "f": [("highway", "traffic_signals")],
            "g": [("highway", "traffic_signals")],
            "n": [("highway", "stop")],
        ]
        return m
    }

    /// Where the demo drive starts (on Harbour Road, between a and b) and ends (on Park Avenue,
    /// east of the roundabout): through the signals on Market Street and round Market Circle.
    public static var start: Coordinate { point(col: 4, row: 0) }
    public static var destination: Coordinate { point(col: 41, row: 12.3) }

    static func point(col: Double, row: Double) -> Coordinate {
        LocalProjection(origin: origin).unproject(LocalPoint(x: col * gridMeters, y: -row * gridMeters))
    }

    /// Writes the town as OSM XML and imports it to `mapPath`.
    @discardableResult
    public static func build(mapPath: String, workDirectory: String) throws -> ImportSummary {
        let osm = Paths.join(workDirectory, "demo-town.osm")
        try map().write(to: osm)
        return try MapCompiler.compile(input: osm, output: mapPath)
    }
}
