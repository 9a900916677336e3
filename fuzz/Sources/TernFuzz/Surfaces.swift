import Console
import FoundationEssentials
import Geo
import Glibc
import GPSInput
import Guidance
import MapData
import Routing
import Search
import TernApp

/// What each harness does with one input: what the appliance does with it, nothing more.
enum Surfaces {
    static func nmea(_ bytes: UnsafeBufferPointer<UInt8>) {
        let (fixes, _) = NMEAFile.parse(Data(bytes))
        // every fix that comes out is one the pipeline may take: measurements within reason
        for f in fixes where f.isUsable {
            precondition(f.speedMetersPerSecond.map { $0.isFinite && $0 >= 0 } ?? true, "speed \(f)")
            precondition(f.courseDegrees.map { $0 >= 0 && $0 < 360 } ?? true, "course \(f)")
            _ = FixTime.iso8601(f.time)
        }
    }

    /// The mutated map with every checksum made right again, written where `RoadMap` maps it.
    static func tmap(_ bytes: UnsafeBufferPointer<UInt8>) {
        var file = MapFile(bytes: Array(bytes))
        file.recomputeChecksums()
        let b = file.bytes
        // (a plain write: AtomicFile's fsyncs would cost more than the rest of an execution)
        let fd = open(Harness.scratch, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard fd >= 0 else { return }
        _ = b.withUnsafeBufferPointer { write(fd, $0.baseAddress, $0.count) }
        close(fd)
        // a map that opens must be one that can be used without a trap (issue #29)
        guard let map = try? RoadMap(path: Harness.scratch) else { return }
        let box = map.bounds
        let corners = [box.min, box.max, Coordinate(latitude: (box.min.latitude + box.max.latitude) / 2,
                                                    longitude: (box.min.longitude + box.max.longitude) / 2)]
        let router = Router(map: map)
        let guidance = ManeuverBuilder(map: map), words = Instructions(units: .metric)
        for (a, z) in [(0, 1), (1, 2), (2, 0)] where corners[a].isValid && corners[z].isValid {
            guard let r = try? router.route([corners[a], corners[z]]) else { continue }
            // and guided, as `tern route` and a drive do
            for leg in r.legs {
                for m in guidance.maneuvers(for: leg) { _ = words.text(m) }
            }
        }
        for c in corners where c.isValid {
            _ = map.nearestEdges(to: c, radiusMeters: 500)
            _ = map.places(near: c, radiusMeters: 2000)
            _ = map.nearestAddress(to: c, radiusMeters: 200)
        }
        if let g = try? Geocoder(map: map) { _ = try? g.search("Hauptstraße 1", near: corners[2]) }
    }

    static func config(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let text = String(validating: bytes, as: UTF8.self) else { return }
        _ = ConfigurationCheck.problems(in: text, source: "fuzz.conf")
    }

    /// A line as the console and the control socket cut it, then parsed as a command.
    static func command(_ bytes: UnsafeBufferPointer<UInt8>) {
        var framer = LineFramer(limit: 4096)
        for case .line(let l) in framer.feed(bytes) { _ = try? ConsoleCommand.parse(l) }
    }

    static func search(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let text = String(validating: bytes, as: UTF8.self), let g = Harness.geocoder else { return }
        _ = try? g.search(text, near: Harness.townMap?.bounds.min)
    }
}
