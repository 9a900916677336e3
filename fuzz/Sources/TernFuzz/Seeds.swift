import FoundationEssentials
import Geo
import Glibc
import GPSInput
import MapData
import Platform
import Routing
import Simulation

/// The first inputs of each harness, made from the demo town (the checked-in corpus in
/// fuzz/corpus adds the hostile cases issue #29 found).
enum Seeds {
    static func write(_ h: Harness, to dir: String, townMap: String) {
        var seeds = [(String, [UInt8])]()
        switch h {
        case .nmea:
            if let map = Harness.townMap ?? (try? RoadMap(path: townMap)),
               let route = try? Router(map: map).route([DemoTown.start, DemoTown.destination]) {
                let lines = DriveSimulator.nmea(DriveSimulator(map: map).drive(route)).split(separator: "\n")
                seeds.append(("town-drive", Array(lines.prefix(40).joined(separator: "\r\n").utf8)))
            }
        case .tmap:
            if let bytes = try? RegularFile.read(townMap) { seeds.append(("demo-town", bytes)) }
        case .config:
            seeds.append(("tern.conf", Array("map = /var/lib/tern/maps/default.tmap\ngpsd = 127.0.0.1:2947\nlocale = de\nvolume = 80\ntraffic = \n".utf8)))
        case .command:
            seeds.append(("commands", Array("go 49.41,8.69\r\nvia 49.40,8.68\ncancel\nvolume 40\nsearch Hauptstraße 12\n".utf8)))
        case .search:
            seeds.append(("street", Array("Hauptstraße 12".utf8)))
        }
        for (name, bytes) in seeds {
            do { try AtomicFile.write(bytes, to: Paths.join(dir, name)) } catch { say("tern-fuzz: \(error)") }
        }
    }
}
