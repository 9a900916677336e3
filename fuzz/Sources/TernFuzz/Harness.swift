import Console
import FoundationEssentials
import Geo
import Glibc
import GPSInput
import MapData
import Platform
import Routing
import Search
import Simulation
import TernApp

/// libFuzzer's entry points for Tern's input surfaces (issue #29). One binary, the harness
/// chosen by $TERN_FUZZ (scripts/fuzz.sh sets it):
/// - `nmea`: a receiver log, through the reader every replay and match uses;
/// - `tmap`: a map file, its checksums recomputed after libFuzzer's mutation so that the
///   semantic checks are what is tested, then opened, routed on, searched and snapped to;
/// - `config`: tern.conf's text;
/// - `command`: a console or control-socket line;
/// - `search`: a search text, against the demo town's map.
/// A crash, a trap or a hang (libFuzzer's -timeout) is a finding: libFuzzer writes the input.
enum Harness: String {
    case nmea, tmap, config, command, search

    nonisolated(unsafe) static var chosen = Harness.nmea
    /// The demo town's map (seed of `tmap`, the map `search` searches), built at start.
    nonisolated(unsafe) static var townMap: RoadMap?
    nonisolated(unsafe) static var geocoder: Geocoder?
    nonisolated(unsafe) static var scratch = ""
}

@_cdecl("LLVMFuzzerInitialize")
public func fuzzInitialize(_ argc: UnsafeMutablePointer<Int32>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>) -> Int32 {
    let env = { (name: String) in getenv(name).map { String(cString: $0) } }
    guard let name = env("TERN_FUZZ"), let h = Harness(rawValue: name) else {
        say("tern-fuzz: set TERN_FUZZ to nmea, tmap, config, command or search")
        exit(2)
    }
    Harness.chosen = h
    let work = env("TERN_FUZZ_WORK") ?? "/tmp"
    Harness.scratch = Paths.join(work, "tern-fuzz-\(getpid()).tmap")
    let town = Paths.join(work, "demo-town.tmap")
    if h == .tmap || h == .search || h == .nmea {  // (the nmea seed is a drive across it)
        do {
            if Paths.fileSize(town) == nil { _ = try DemoTown.build(mapPath: town, workDirectory: work) }
            let map = try RoadMap(path: town)
            Harness.townMap = map
            if h == .search { Harness.geocoder = try Geocoder(map: map) }
        } catch {
            say("tern-fuzz: the demo town: \(error)")
            exit(2)
        }
    }
    // `TERN_FUZZ_SEEDS=DIR`: write the harness's first seeds there and stop (scripts/fuzz.sh)
    if let dir = env("TERN_FUZZ_SEEDS") {
        Seeds.write(h, to: dir, townMap: town)
        exit(0)
    }
    return 0
}

/// A line on standard error (the C `stderr` global is not concurrency-safe in Swift 6).
func say(_ s: String) {
    let line = Array((s + "\n").utf8)
    _ = line.withUnsafeBufferPointer { write(2, $0.baseAddress, $0.count) }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = UnsafeBufferPointer(start: data, count: size)
    switch Harness.chosen {
    case .nmea: Surfaces.nmea(bytes)
    case .tmap: Surfaces.tmap(bytes)
    case .config: Surfaces.config(bytes)
    case .command: Surfaces.command(bytes)
    case .search: Surfaces.search(bytes)
    }
    return 0
}
