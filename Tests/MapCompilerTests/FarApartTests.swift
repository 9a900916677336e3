import Foundation
import MapCompiler
import MapData
import Geo
import Platform
import TestSupport
import Testing

/// Issue #29: the spatial grid followed the bounding box. Two roads 1000 km apart made a 542 MB
/// map that would not open, and a road from pole to pole aborted the import allocating 129.6 GB.
/// The grid now has at most `MapWriter.maxGridCells` cells and lists the cells a road crosses.
@Suite struct FarApartTests {
    /// An OSM file of residential ways, each a list of (lat, lon).
    static func osm(_ ways: [[(Double, Double)]]) -> String {
        var nodes = "", wayText = "", id = 0
        for (w, points) in ways.enumerated() {
            var refs = ""
            for (lat, lon) in points {
                id += 1
                nodes += "<node id='\(id)' lat='\(lat)' lon='\(lon)'/>"
                refs += "<nd ref='\(id)'/>"
            }
            wayText += "<way id='\(w + 1)'>\(refs)<tag k='highway' v='residential'/><tag k='name' v='Road \(w + 1)'/></way>"
        }
        return "<?xml version='1.0'?><osm version='0.6'>\(nodes)\(wayText)</osm>"
    }

    @Test func twoIslandsFarApartCostNoMoreThanTwoIslands() throws {
        let dir = TempDir()
        defer { dir.remove() }
        let input = dir.file("islands.osm")
        try Self.osm([[(10.0, 10.0), (10.001, 10.0), (10.002, 10.001)], [(19.0, 17.0), (19.001, 17.0), (19.002, 17.001)]])
            .write(toFile: input, atomically: true, encoding: .utf8)
        let out = dir.file("islands.tmap")
        try MapCompiler.compile(input: input, output: out)
        let size = try #require(Paths.fileSize(out))
        #expect(size < 2_000_000, "\(size) bytes for six nodes")
        let map = try RoadMap(path: out)
        #expect(!map.nearestEdges(to: Coordinate(latitude: 10.001, longitude: 10.0), radiusMeters: 100).isEmpty)
        #expect(!map.nearestEdges(to: Coordinate(latitude: 19.001, longitude: 17.0), radiusMeters: 100).isEmpty)
    }

    @Test func aRoadFromPoleToPoleImports() throws {
        let dir = TempDir()
        defer { dir.remove() }
        let input = dir.file("meridian.osm")
        try Self.osm([[(-85.0, 0.0), (0.0, 0.0), (85.0, 0.0)], [(0.0, -179.0), (0.0, 179.0)]])
            .write(toFile: input, atomically: true, encoding: .utf8)
        let out = dir.file("meridian.tmap")
        try MapCompiler.compile(input: input, output: out)
        #expect(try #require(Paths.fileSize(out)) < 2_000_000)
        let map = try RoadMap(path: out)
        // the long road is found where it runs, and not where it does not
        #expect(!map.nearestEdges(to: Coordinate(latitude: 42.0, longitude: 0.0001), radiusMeters: 100).isEmpty)
        #expect(map.nearestEdges(to: Coordinate(latitude: 42.0, longitude: 90.0), radiusMeters: 100).isEmpty)
    }
}
