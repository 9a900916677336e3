import Foundation
@testable import TernApp
import Testing

/// GPX read without an XML library: points in any attribute order and quoting, times, comments
/// and CDATA skipped, and a file whose tags do not nest is refused with the line.
@Suite struct GPXReaderTests {
    @Test func pointsAndTimes() throws {
        let text = """
            <?xml version="1.0" encoding="UTF-8"?>
            <!-- a comment with <trkpt lat="1" lon="2"> in it -->
            <gpx version="1.1" xmlns="http://www.topografix.com/GPX/1/1"><metadata><name><![CDATA[a <b> drive]]></name></metadata>
            <trk><trkseg>
              <trkpt lat="49.4" lon="8.69"><ele>110</ele><time>2024-06-15T10:00:00Z</time></trkpt>
              <trkpt lon='8.691' lat='49.401'><time>2024-06-15T10:00:01.500Z</time></trkpt>
              <gpx:trkpt lat="49.402" lon="8.692"/>
            </trkseg></trk>
            <wpt lat="49.5" lon="8.7"><name>Home</name></wpt>
            </gpx>
            """
        let r = try GPXReader(Data(text.utf8))
        let track = r.points["trkpt"] ?? []
        #expect(track.count == 3)
        #expect(track[1].coordinate.latitude == 49.401 && track[1].coordinate.longitude == 8.691)
        #expect(track[0].time == 1_718_445_600)
        #expect(track[1].time == 1_718_445_601.5)
        #expect(track[2].time == nil)
        #expect(r.points["wpt"]?.count == 1)
    }

    @Test(arguments: [
        ("<gpx><trk><trkseg><trkpt lat=\"1\" lon=\"2\"></trkseg></trk></gpx>", "line 1: </trkseg> closes <trkpt>"),
        ("<gpx>\n<trk>\n<trkseg>\n<trkpt lat=\"north\" lon=\"2\"/>\n</trkseg></trk></gpx>", "line 4: <trkpt> without lat and lon on the globe"),
        ("<gpx><trk>", "<trk> is never closed"),
        ("<gpx><!-- open", "<!-- is never closed"),
    ])
    func malformedIsRefusedWithTheLine(text: String, reason: String) {
        do {
            _ = try GPXReader(Data(text.utf8))
            Issue.record("accepted \(text)")
        } catch {
            #expect("\(error)".contains(reason), "\(error)")
        }
    }
}
