import Dispatch
import FoundationEssentials
import Glibc
import Platform
import Geo
import Guidance
import JSONLines
import MapCompiler
import MapData
import Navigation
import Routing

/// `tern import`, `tern map-info`, `tern route`.
enum MapCommands {
    static func importMap(_ args: [String]) throws -> Int32 {
        let a = try Arguments(args, valued: ["o", "output", "driving-side", "avoid"], switches: ["quiet", "shortest", "cardinal-directions"])
        guard a.positional.count == 1 else { throw UsageError("import takes one input file") }
        guard let out = a.value("o") ?? a.value("output") else { throw UsageError("missing -o OUT.tmap") }
        let input = a.positional[0]
        guard FileManager.default.fileExists(atPath: input) else { throw CommandError("\(input): no such file") }
        let quiet = a.has("quiet")
        let options = try profileOptions(a)
        do {
            let summary = try MapCompiler.compile(input: input, output: out, options: options) { msg in if !quiet { printError("tern import: \(msg)") } }
            printError("tern import: \(out): \(summary.line)")
            return 0
        } catch let e as ImportError {
            throw CommandError(e.description)
        }
    }

    /// The car profile's import options: `--driving-side left` (the UK, Ireland, Malta, Cyprus:
    /// turn costs and roundabout exits the other way round), `--avoid motorway,motorway_link`
    /// (highway types left out of the map), `--shortest` (routes by distance, not time),
    /// `--cardinal-directions` ("I 80 west" from route relations).
    static func profileOptions(_ a: Arguments) throws -> ProfileOptions {
        var o = ProfileOptions()
        switch a.value("driving-side") {
        case nil, "right"?: break
        case "left"?: o.leftHandDriving = true
        case let v?: throw UsageError("--driving-side is left or right, not \(v)")
        }
        if let avoid = a.value("avoid") {
            let types = avoid.split(separator: ",").map { $0.trimmed() }
            let known = CarProfile.routableHighways
            guard !types.isEmpty else { throw UsageError("--avoid takes highway types apart by commas: \(known.joined(separator: ","))") }
            if let unknown = types.first(where: { !known.contains($0) }) {
                throw UsageError("--avoid: \(unknown) is not a highway type cars use here (\(known.joined(separator: ", ")))")
            }
            o.avoidHighways = Set(types)
        }
        o.weightByDistance = a.has("shortest")
        o.cardinalDirections = a.has("cardinal-directions")
        return o
    }

    static func mapInfo(_ args: [String]) throws -> Int32 {
        let a = try Arguments(args, valued: [], switches: ["json", "verify"])
        guard a.positional.count == 1 else { throw UsageError("map-info takes one map file") }
        let t0 = Date()
        let map: RoadMap
        do { map = try RoadMap(path: a.positional[0]) } catch { throw CommandError("\(error)") }
        let openMillis = Date().timeIntervalSince(t0) * 1000
        let (lo, hi) = map.bounds
        var verifyNote = ""
        if a.has("verify") {
            // opening checked every checksum and index; here the hierarchy's answers are also
            // compared with a plain Dijkstra over the whole graph on random pairs
            let (agreed, compared) = RouteCheckSample.verify(map: map, pairs: 200)
            guard agreed == compared else {
                throw CommandError("\(map.path): the routing hierarchy disagrees with a plain search on \(compared - agreed) of \(compared) random routes; re-import the map")
            }
            verifyNote = ", routing hierarchy agrees with a plain search on \(compared) random routes"
        }
        if a.has("json") {
            var sections = [(String, JSONValue)]()
            for tag in map.sectionTags { sections.append((tag, .int(map.sectionRange(MapFormat.Tag(rawValue: tag)!).count))) }
            let obj = JSONValue.object([
                ("file", .string(map.path)), ("format_version", .int(Int(MapFormat.version))), ("bytes", .int(map.fileSizeBytes)),
                ("nodes", .int(map.nodeCount)), ("edges", .int(map.edgeCount)), ("shape_points", .int(map.geometryCount)),
                ("names", .int(map.nameCount - 1)), ("ways", .int(map.wayCount)),
                ("bbox", .array([.num(lo.latitude, 6), .num(lo.longitude, 6), .num(hi.latitude, 6), .num(hi.longitude, 6)])),
                ("places", .int(map.placeCount)), ("routing_nodes", .int(map.routingNodeCount)),
                ("sections", .object(sections)), ("verified", .bool(true)), ("open_ms", .num(openMillis, 2)),
            ])
            printOut(obj.serialized().dropLast() + ",\"build\":\(map.metaJSON)}")
        } else {
            printOut("""
                \(map.path): Tern map, format version \(MapFormat.version), \(map.fileSizeBytes) bytes
                  nodes \(map.nodeCount), edges \(map.edgeCount), shape points \(map.geometryCount), names \(map.nameCount - 1), ways \(map.wayCount)
                  bbox \(lo) .. \(hi)
                  build \(map.metaJSON)
                  places \(map.placeCount), routing nodes \(map.routingNodeCount)
                  checksums and indices verified (\(String(printf: "%.1f", openMillis)) ms)\(verifyNote)
                """)
        }
        return 0
    }

    static func route(_ args: [String]) throws -> Int32 {
        let a = try Arguments(args, valued: ["map", "from", "to", "via", "lang", "units", "queries"], switches: ["json", "alternatives"])
        let mapPath = try a.require("map")
        // options first: a usage error is reported before any file is touched
        let from = try a.coordinate("from"), to = try a.coordinate("to"), vias = try a.coordinates("via")
        let text: Instructions
        do {
            let locale = try GuidanceLocale.parse(a.value("lang") ?? "en-GB", setting: "--lang")
            text = Instructions(locale: locale, units: try a.value("units").map { try UnitSystem.parse($0, setting: "--units") } ?? .metric)
        } catch { throw UsageError("\(error)") }
        if a.value("queries") == nil && (from == nil || to == nil) { throw UsageError("route needs --from and --to (or --queries)") }
        let map: RoadMap
        do { map = try RoadMap(path: mapPath) } catch { throw CommandError("\(error)") }
        let service = RouteService(map: map)
        if let q = a.value("queries") {
            let queries = try loadQueries(q)
            var items = [JSONValue]()
            for (id, locations) in queries {
                items.append(routeJSON(id: id, locations, service: service, text: text))
            }
            printOut(JSONValue.array(items).serialized())
            return 0
        }
        let points = [from!] + vias + [to!]
        if a.has("alternatives") {
            guard vias.isEmpty else { throw UsageError("--alternatives works on routes without --via") }
            let found: (best: Route, alternatives: [Route])
            do { found = try service.router.alternatives(from: from!, to: to!, count: 2) } catch { throw CommandError("\(error)") }
            for (i, r) in ([found.best] + found.alternatives).enumerated() {
                let similarity = RouteSimilarity.similarity(found.best, r)
                printOut(String(printf: "%@: %@, %@, %.0f%% of it on the fastest route", i == 0 ? "fastest" : "alternative \(i)",
                                text.shortDistance(r.distanceMeters), durationText(r.durationSeconds), similarity * 100))
            }
            if found.alternatives.isEmpty { printOut("no reasonable alternative (at most 25% slower, at most 80% shared)") }
            return 0
        }
        if a.has("json") {
            let obj = routeJSON(id: .null, points, service: service, text: text)
            printOut(obj.serialized())
            if case .object(let f) = obj, f.contains(where: { $0.0 == "ok" && $0.1 == .bool(false) }) { return 1 }
            return 0
        }
        let t0 = DispatchTime.now().uptimeNanoseconds
        let r: NavigationRouteResult
        do { r = try NavigationRouteResult(service.navigationRoute(points)) } catch { throw CommandError("\(error)") }
        let micros = Double(DispatchTime.now().uptimeNanoseconds - t0) / 1000
        printOut(String(printf: "%@, %@ (computed in %.0f µs)", text.shortDistance(r.route.route.distanceMeters),
                        durationText(r.route.route.durationSeconds), micros))
        for (i, leg) in r.route.maneuvers.enumerated() {
            if r.route.maneuvers.count > 1 { printOut("leg \(i + 1):") }
            for m in leg {
                let lanes = text.laneText(m).map { " — " + $0 } ?? ""
                printOut("  \(String(printf: "%-8@", text.shortDistance(m.distanceFromStartMeters))) \(text.text(m))\(lanes)")
            }
        }
        return 0
    }

    struct NavigationRouteResult {
        let route: Navigation.NavigationRoute
        init(_ r: Navigation.NavigationRoute) { route = r }
    }

    static func durationText(_ s: Double) -> String {
        let m = Int((s / 60).rounded())
        return m < 60 ? "\(m) min" : String(printf: "%d h %02d min", m / 60, m % 60)
    }

    /// One batch answer: `{"id","ok","micros","distance_m","duration_s","shape","maneuvers"}`.
    static func routeJSON(id: JSONValue, _ points: [Coordinate], service: RouteService, text: Instructions) -> JSONValue {
        let t0 = DispatchTime.now().uptimeNanoseconds
        do {
            let r = try service.navigationRoute(points)
            let micros = Double(DispatchTime.now().uptimeNanoseconds - t0) / 1000
            var maneuvers = [JSONValue]()
            for leg in r.maneuvers {
                for m in leg {
                    maneuvers.append(.object([
                        ("type", .string(m.type.rawValue)), ("modifier", m.modifier.map { .string($0.rawValue) } ?? .null),
                        ("instruction", .string(text.text(m))), ("street", .string(m.street)),
                        ("distance_m", .num(m.stepDistanceMeters, 1)), ("exit", m.exit.map { .int($0) } ?? .null),
                        ("lanes", Lane.json(m.lanes)),
                    ]))
                }
            }
            return .object([
                ("id", id), ("ok", .bool(true)), ("micros", .num(micros, 1)),
                ("distance_m", .num(r.route.distanceMeters, 1)), ("duration_s", .num(r.route.durationSeconds, 1)),
                ("shape", .array(r.route.shape.map { .array([.num($0.latitude, 6), .num($0.longitude, 6)]) })),
                ("maneuvers", .array(maneuvers)),
            ])
        } catch {
            let micros = Double(DispatchTime.now().uptimeNanoseconds - t0) / 1000
            return .object([("id", id), ("ok", .bool(false)), ("micros", .num(micros, 1)), ("error", .string("\(error)"))])
        }
    }

    /// Reads `{"queries": [{"id", "locations": [[lat, lon], ...]}]}` or a bare array of those.
    static func loadQueries(_ path: String) throws -> [(JSONValue, [Coordinate])] {
        guard let data = FileManager.default.contents(atPath: path) else { throw CommandError("\(path): cannot read") }
        let root: Any
        do { root = try JSONValue.parse(data) } catch { throw CommandError("\(path): not JSON: \(errorText(error))") }
        let list: [Any]
        if let d = root as? [String: Any], let q = d["queries"] as? [Any] { list = q } else if let a = root as? [Any] { list = a } else {
            throw CommandError("\(path): expected {\"queries\": [...]} or an array of queries")
        }
        var out = [(JSONValue, [Coordinate])]()
        for (i, item) in list.enumerated() {
            guard let q = item as? [String: Any], let locs = q["locations"] as? [[Any]] else {
                throw CommandError("\(path): query \(i): expected {\"id\", \"locations\": [[lat, lon], ...]}")
            }
            var coords = [Coordinate]()
            for (k, l) in locs.enumerated() {
                guard l.count >= 2, let lat = JSONValue.double(l[0]), let lon = JSONValue.double(l[1]),
                      Coordinate(latitude: lat, longitude: lon).isValid else {
                    throw CommandError("\(path): query \(i), location \(k): expected [lat, lon]")
                }
                coords.append(Coordinate(latitude: lat, longitude: lon))
            }
            guard coords.count >= 2 else { throw CommandError("\(path): query \(i): needs at least two locations") }
            let id: JSONValue
            if let s = q["id"] as? String { id = .string(s) } else if let n = q["id"] as? Int { id = .int(n) } else { id = .int(i) }
            out.append((id, coords))
        }
        return out
    }
}
