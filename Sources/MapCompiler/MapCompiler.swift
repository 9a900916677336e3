import FoundationEssentials
import Glibc
import Platform
import Geo
import Guidance
import MapData

/// What an import kept, for the summary line and the map's META section.
public struct ImportSummary: Sendable {
    public var roadWays = 0
    public var graphNodes = 0
    public var edges = 0
    public var shapePoints = 0
    public var names = 0
    public var signals = 0
    public var barriers = 0
    public var restrictions = 0
    /// Edges in small pieces of the network cut off from the rest.
    public var isolatedEdges = 0
    public var restrictionsApplied = 0
    /// Maneuver overrides (type=maneuver relations) read and kept.
    public var maneuverOverrides = 0
    public var maneuverOverridesApplied = 0
    /// Named places kept as landmarks.
    public var places = 0
    /// Streets, places and POIs a search can find, and house numbers on the streets.
    public var searchObjects = 0
    public var searchAddresses = 0
    /// Arcs added by the contraction hierarchy.
    public var shortcuts = 0
    /// Turns whose instruction guidance decided at import.
    public var turnsAnalysed = 0
    public var skippedLocations = 0
    public var seconds = 0.0
    public var fileBytes = 0

    public var line: String {
        "kept \(roadWays) roads as \(edges) edges between \(graphNodes) nodes (\(shapePoints) shape points, \(names) names), "
            + "\(signals) traffic signals, \(barriers) barriers, \(restrictionsApplied) of \(restrictions) turn restrictions applied, "
            + (maneuverOverrides > 0 ? "\(maneuverOverridesApplied) of \(maneuverOverrides) maneuver overrides kept, " : "")
            + "\(isolatedEdges) edges in small disconnected pieces, \(places) named places, "
            + "\(searchObjects) streets, places and POIs and \(searchAddresses) house numbers to search; "
            + String(printf: "%.2f s, %.1f MB", seconds, Double(fileBytes) / 1e6)
    }
}

/// OSM → .tmap: reads with libosmium, applies the car profile, builds the graph and writes it.
public enum MapCompiler {
    public static let formatName = "tern-car-1"

    /// Builds the in-memory graph from an OSM file.
    public static func buildGraph(input: String, options: ProfileOptions = ProfileOptions(),
                                  progress: ((String) -> Void)? = nil) throws -> (RoadGraph, ImportSummary) {
        let start = Date()
        var builder = GraphBuilder()
        builder.weightByDistance = options.weightByDistance
        var summary = ImportSummary()
        var handlers = OSMReader.Handlers()
        var lastPercent = -1
        var rawPlaces = [(Coordinate, String, PlaceKind)]()
        var search = SearchCollector(boundaries: try AdminBoundaries.read(input))
        handlers.node = { node in
            search.add(nodeID: node.id, at: Coordinate(latitude: node.latitude, longitude: node.longitude), tags: node.tags)
            let a = CarProfile.nodeAttributes(of: node.tags, options: options)
            if a != NodeAttributes() { builder.nodeAttributes[node.id] = a }
            // named places are landmarks for guidance ("turn right after the Shell station")
            let name = CarProfile.spokenLabel(node.tags["name"])
            if !name.isEmpty, let kind = PlaceKind(tags: node.tags) {
                let c = Coordinate(latitude: node.latitude, longitude: node.longitude)
                if c.isValid { rawPlaces.append((c, name, kind)) }
            }
        }
        handlers.wayKeys = CarProfile.wayKeys + SearchCollector.wayKeys
        handlers.wayIDs = search.boundaries.memberWays
        var unroutedRoadNodes = Set<Int64>()
        handlers.way = { way in
            search.add(way: way)
            if let a = CarProfile.attributes(of: way.tags, options: options) {
                builder.add(way: way, attributes: a)
            } else if CarProfile.isUnroutedRoad(way.tags) {
                unroutedRoadNodes.formUnion(way.nodeIDs)
            }
        }
        var restrictions = [RawRestriction]()
        var overrides = [RawManeuverOverride]()
        var overridesSkipped = [String: Int]()
        handlers.relationKeys = ["type", "maneuver", "manoeuvre"]
        var routeRelations = RouteRelations()
        handlers.relation = { rel in
            if options.cardinalDirections { routeRelations.add(rel) }
            if let t = rel.tags["type"], t == "restriction" || t.hasPrefix("restriction:") { summary.restrictions += 1 }
            if let r = RawRestriction(rel, options: options) { restrictions.append(r) }
            if RawManeuverOverride.isOverride(rel) {
                summary.maneuverOverrides += 1
                var why = ""
                if let o = RawManeuverOverride(rel, why: &why) { overrides.append(o) } else { overridesSkipped[why, default: 0] += 1 }
            }
        }
        handlers.progress = { fraction in
            let p = Int(fraction * 100)
            if p / 10 != lastPercent / 10 { lastPercent = p; progress?("reading \(p)%") }
        }
        let stats = try OSMReader.read(path: input, handlers: handlers)
        // libosmium's offset comes from its reading thread, which may lag on a slow core (seen
        // under qemu: no step reached 10%): the end of the reading is always told
        if lastPercent < 100 { lastPercent = 100; progress?("reading 100%") }
        guard builder.wayCount > 0 else { throw ImportError.noRoads(path: input) }
        builder.applyCardinalDirections(routeRelations)
        progress?("building the graph from \(builder.wayCount) roads")
        builder.markRingExits(onto: unroutedRoadNodes)
        let meta: [(String, String)] = [
            ("format", "\"\(formatName)\""),
            ("source", quoteJSON(Paths.fileName(input))),
            ("profile", "\"car\""),
            ("osm_nodes", String(stats.nodes)), ("osm_ways", String(stats.ways)), ("osm_relations", String(stats.relations)),
        ] + options.buildInfo
        var index = GraphBuilder.Index()
        var graph = builder.build(meta: meta, index: &index)
        summary.isolatedEdges = Components.markIsolated(&graph)
        var placeNames = [String: UInt32]()
        for (i, n) in graph.names.enumerated() { placeNames[n] = UInt32(i) }
        for (c, name, kind) in rawPlaces {
            let id: UInt32
            if let known = placeNames[name] { id = known } else {
                id = UInt32(graph.names.count)
                graph.names.append(name)
                placeNames[name] = id
            }
            graph.places.append(Place(coordinate: c, nameID: id, kind: kind))
        }
        summary.places = graph.places.count
        progress?("indexing addresses, streets, places and POIs for search")
        search.interpolate()
        graph.search = SearchIndexBuilder.build(search, names: &graph.names)
        summary.searchObjects = graph.search.objects.count
        summary.searchAddresses = graph.search.addresses.count
        graph.maneuverOverrides = ManeuverOverride.resolve(overrides, graph: graph, index: index, skipped: &overridesSkipped)
        summary.maneuverOverridesApplied = summary.maneuverOverrides - overridesSkipped.values.reduce(0, +)
        if !overridesSkipped.isEmpty {
            progress?("maneuver overrides not kept: " + overridesSkipped.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }.joined(separator: ", "))
        }
        let resolved = ResolvedRestrictions.resolve(restrictions, graph: graph, index: index)
        summary.restrictionsApplied = resolved.applied
        let reasons = resolved.skipReasons.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }.joined(separator: ", ")
        progress?("building the turn graph (\(resolved.applied) restrictions applied\(reasons.isEmpty ? "" : "; not applied: " + reasons))")
        let turns = TurnGraph.build(graph, index: index, restrictions: resolved, options: options)
        graph.forbiddenTurns = turns.forbiddenNodeTurns
        progress?("deciding what is said at each turn")
        let guidance = GuidanceAnnotator.annotate(&graph, restrictions: resolved.nodeRestrictions, viaNodes: resolved.viaNodes(graph),
                                                  leftHandDriving: options.leftHandDriving)
        summary.turnsAnalysed = guidance.turns
        progress?("contracting \(turns.nodeCount) turn-graph nodes, \(turns.arcCount) turns")
        graph.routing = RoutingTables(turns, contracting: progress)
        summary.shortcuts = graph.routing.up.count + graph.routing.down.count - turns.arcCount
        summary.roadWays = builder.wayCount
        summary.graphNodes = graph.nodes.count
        summary.edges = graph.edges.count
        summary.shapePoints = graph.geometry.count
        summary.names = graph.names.count - 1
        summary.signals = graph.nodeFlags.filter { $0.contains(.trafficSignals) }.count
        summary.barriers = graph.nodeFlags.filter { $0.contains(.barrier) }.count
        summary.skippedLocations = builder.skippedNodes + Int(stats.missingLocations)
        graph.meta += [
            ("roads", String(summary.roadWays)), ("nodes", String(summary.graphNodes)), ("edges", String(summary.edges)),
            ("traffic_signals", String(summary.signals)), ("barriers", String(summary.barriers)),
            ("restrictions_read", String(summary.restrictions)), ("restrictions_applied", String(summary.restrictionsApplied)),
            ("maneuver_overrides_read", String(summary.maneuverOverrides)), ("maneuver_overrides_kept", String(summary.maneuverOverridesApplied)),
            ("search_objects", String(summary.searchObjects)), ("search_addresses", String(summary.searchAddresses)),
            ("routing_nodes", String(graph.routing.nodeCount)), ("hierarchy_arcs", String(graph.routing.up.count + graph.routing.down.count)),
        ]
        summary.seconds = Date().timeIntervalSince(start)
        return (graph, summary)
    }

    /// Imports `input` and writes the map to `output`.
    @discardableResult
    public static func compile(input: String, output: String, options: ProfileOptions = ProfileOptions(),
                               progress: ((String) -> Void)? = nil) throws -> ImportSummary {
        let start = Date()
        var (graph, summary) = try buildGraph(input: input, options: options, progress: progress)
        progress?("writing \(output)")
        do {
            try MapWriter.write(graph, to: output)
        } catch let e as MapError {
            throw ImportError.write(e.description)
        }
        graph = RoadGraph()
        summary.fileBytes = Paths.fileSize(output) ?? 0
        summary.seconds = Date().timeIntervalSince(start)
        return summary
    }

    /// `s` as a JSON string literal (the summary's fields; the scenario dump's rows).
    public static func quoteJSON(_ s: String) -> String {
        var out = "\""
        for u in s.unicodeScalars {
            switch u {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            default: if u.value < 0x20 { out += String(printf: "\\u%04x", u.value) } else { out.unicodeScalars.append(u) }
            }
        }
        return out + "\""
    }
}
