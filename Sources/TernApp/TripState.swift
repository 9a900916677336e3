import FoundationEssentials
import Glibc
import Platform
import Geo
import JSONLines
import Search

/// A place a driver goes to: what it is called and where.
struct SavedPlace: Equatable, Sendable {
    var label: String
    var coordinate: Coordinate
}

extension SavedPlace {
    /// A search result as a place to go.
    init(_ r: SearchResult) { self.init(label: r.label, coordinate: r.coordinate) }
}

/// What must survive a power cut (the power goes off at every stop in a car): favourites (home is
/// one of them), recent destinations, and the trip under way with how far along its stops the car
/// got. Written whole by `StateFile` at each change.
struct TripState: Equatable, Sendable {
    struct Trip: Equatable, Sendable {
        /// The stops, then the destination, as the driver gave them.
        var waypoints: [SavedPlace]
        /// The first stop not reached yet.
        var next: Int
        var destination: SavedPlace { waypoints[waypoints.count - 1] }
        var remaining: [SavedPlace] { Array(waypoints[min(next, waypoints.count - 1)...]) }
    }

    var favourites: [String: SavedPlace] = [:]
    /// Newest first.
    var recent: [SavedPlace] = []
    var trip: Trip?
    static let maxRecent = 10
    static let formatVersion = 1

    mutating func start(_ waypoints: [SavedPlace]) {
        guard let destination = waypoints.last else { return }
        trip = Trip(waypoints: waypoints, next: 0)
        recent.removeAll { $0.coordinate.distance(to: destination.coordinate) < 30 }
        recent.insert(destination, at: 0)
        if recent.count > Self.maxRecent { recent.removeLast(recent.count - Self.maxRecent) }
    }

    // MARK: the file's JSON

    var json: String {
        func place(_ p: SavedPlace) -> JSONValue {
            .object([("label", .string(p.label)), ("lat", .num(p.coordinate.latitude, 7)), ("lon", .num(p.coordinate.longitude, 7))])
        }
        var fields: [(String, JSONValue)] = [
            ("version", .int(Self.formatVersion)),
            ("favourites", .object(favourites.sorted { $0.key < $1.key }.map { ($0.key, place($0.value)) })),
            ("recent", .array(recent.map(place))),
        ]
        if let t = trip { fields.append(("trip", .object([("waypoints", .array(t.waypoints.map(place))), ("next", .int(t.next))]))) }
        return JSONValue.object(fields).serialized() + "\n"
    }

    /// Reads the file's JSON; throws a message naming the field that is wrong.
    static func parse(_ data: Data) throws -> TripState {
        guard let root = try? JSONValue.parse(data) as? [String: Any] else { throw StateError("not a JSON object") }
        guard root["version"] as? Int == formatVersion else { throw StateError("version: expected \(formatVersion)") }
        func place(_ any: Any?, _ field: String) throws -> SavedPlace {
            guard let d = any as? [String: Any], let label = d["label"] as? String,
                  let lat = JSONValue.double(d["lat"]), let lon = JSONValue.double(d["lon"]),
                  Coordinate(latitude: lat, longitude: lon).isValid else { throw StateError("\(field): expected {label, lat, lon}") }
            return SavedPlace(label: label, coordinate: Coordinate(latitude: lat, longitude: lon))
        }
        var s = TripState()
        for (name, p) in root["favourites"] as? [String: Any] ?? [:] { s.favourites[name] = try place(p, "favourites.\(name)") }
        s.recent = try (root["recent"] as? [Any] ?? []).enumerated().map { try place($1, "recent[\($0)]") }
        if let t = root["trip"] {
            guard let d = t as? [String: Any], let list = d["waypoints"] as? [Any], !list.isEmpty, let next = d["next"] as? Int,
                  (0..<list.count).contains(next) else { throw StateError("trip: expected {waypoints: [...], next}") }
            s.trip = Trip(waypoints: try list.enumerated().map { try place($1, "trip.waypoints[\($0)]") }, next: next)
        }
        return s
    }
}

struct StateError: Error, CustomStringConvertible {
    let description: String
    init(_ d: String) { description = d }
}

/// The state on disk, replaced atomically: written to a temporary file, flushed to the disk
/// (fsync), renamed over the old one, and the folder flushed, so that after a power cut at any
/// moment the file holds the old state or the new one, never a mix (the rename is atomic; the
/// fsyncs make it durable in that order).
struct StateFile {
    let path: String

    /// The saved state: empty when there is none; a damaged file is set aside (`.bad`) with a
    /// warning rather than lost or trusted.
    func load() -> (TripState, warning: String?) {
        do {
            return (try loadStrict(), nil)
        } catch {
            let aside = path + ".bad"
            guard rename(path, aside) == 0 else {
                return (TripState(), "\(path): \(error); starting without saved places (and the file could not be set aside: "
                        + "\(String(cString: strerror(errno))))")
            }
            return (TripState(), "\(path): \(error); starting without saved places (the file is kept as \(aside))")
        }
    }

    /// The saved state, or why the file is not a whole one or cannot be read (only a missing
    /// file is an empty state: one that cannot be read now must not be replaced by the next save).
    func loadStrict() throws -> TripState {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        if fd < 0 {
            if errno == ENOENT { return TripState() }
            throw StateError("cannot read: \(String(cString: strerror(errno)))")
        }
        defer { close(fd) }
        var data = Data()
        var buf = [UInt8](repeating: 0, count: 16_384)
        while true {
            let n = read(fd, &buf, buf.count)
            if n < 0 && errno == EINTR { continue }
            if n < 0 { throw StateError("cannot read: \(String(cString: strerror(errno)))") }
            if n == 0 { break }
            data.append(contentsOf: buf[0..<n])
        }
        return try TripState.parse(data)
    }

    func save(_ state: TripState) throws {
        let folder = Paths.directory(path)
        try FileManager.default.createDirectory(atPath: folder.isEmpty ? "." : folder, withIntermediateDirectories: true)
        do { try AtomicFile.write(state.json, to: path) } catch { throw StateError("\(error)") }
    }
}
