import Dispatch
import FoundationEssentials
import Glibc
import Platform
import Geo
import JSONLines
import MapData
import Navigation
import Routing

/// `tern bench --map MAP --queries Q.json [--passes N] [--json]`: routing figures in this process
/// (build with -c release): map open to first route, per-query time (median, p95, p99) split into
/// snapping, search + unpacking, and guidance, and peak RSS.
enum BenchCommand {
    static func run(_ args: [String]) throws -> Int32 {
        let a = try Arguments(args, valued: ["map", "queries", "passes"], switches: ["json"])
        let mapPath = try a.require("map"), queryPath = try a.require("queries")
        let passes = try a.int("passes", default: 5, range: 1...100)
        let queries = try MapCommands.loadQueries(queryPath)
        let rssBefore = peakRSSKilobytes()

        // map open to first route, as after ignition
        let t0 = DispatchTime.now().uptimeNanoseconds
        let map: RoadMap
        do { map = try RoadMap(path: mapPath) } catch { throw CommandError("\(error)") }
        let t1 = DispatchTime.now().uptimeNanoseconds
        let service = RouteService(map: map)
        _ = try? service.navigationRoute(queries[0].1)
        let t2 = DispatchTime.now().uptimeNanoseconds

        var total = [[Double]](repeating: [], count: queries.count)
        var snap = total, search = total, guidance = total
        var failures = 0
        for pass in 0...passes {  // pass 0 warms the caches and is not counted
            for (i, q) in queries.enumerated() {
                let a = DispatchTime.now().uptimeNanoseconds
                for p in q.1 { _ = service.router.snapper.snap(p) }
                let b = DispatchTime.now().uptimeNanoseconds
                let route = try? service.router.route(q.1)
                let c = DispatchTime.now().uptimeNanoseconds
                // the guidance of the route just found, timed on its own (not as the difference
                // of two routings: that doubled the noise)
                let full = route.map { service.navigationRoute($0, waypoints: q.1) }
                let d = DispatchTime.now().uptimeNanoseconds
                if pass == 0 { if full == nil || route == nil { failures += 1 }; continue }
                snap[i].append(Double(b - a) / 1000)
                search[i].append(max(0, Double(c - b) - Double(b - a)) / 1000)
                total[i].append(Double(d - b) / 1000)
                guidance[i].append(Double(d - c) / 1000)
            }
        }
        func perQuery(_ x: [[Double]]) -> [Double] { x.map { median($0) }.sorted() }
        let tot = perQuery(total), sn = perQuery(snap), se = perQuery(search), gu = perQuery(guidance)
        let rss = peakRSSKilobytes()
        let openMs = Double(t1 - t0) / 1e6, firstMs = Double(t2 - t0) / 1e6
        if a.has("json") {
            func stats(_ v: [Double]) -> JSONValue {
                .object([("median", .num(median(v), 1)), ("p95", .num(percentile(v, 95), 1)), ("p99", .num(percentile(v, 99), 1)),
                         ("max", .num(v.last ?? 0, 1))])
            }
            printOut(JSONValue.object([
                ("map", .string(mapPath)), ("queries", .int(queries.count)), ("failed", .int(failures)), ("passes", .int(passes)),
                ("map_bytes", .int(map.fileSizeBytes)), ("open_ms", .num(openMs, 2)), ("open_to_first_route_ms", .num(firstMs, 2)),
                ("route_us", stats(tot)), ("snap_us", stats(sn)), ("search_us", stats(se)), ("guidance_us", stats(gu)),
                ("peak_rss_kb", .int(rss)), ("rss_before_map_kb", .int(rssBefore)),
            ]).serialized())
        } else {
            printOut(String(printf: "map %@: %.1f MB, open %.2f ms, open to first route %.2f ms", mapPath, Double(map.fileSizeBytes) / 1e6, openMs, firstMs))
            printOut("\(queries.count) queries, \(failures) failed, median of \(passes) passes per query (µs):")
            printOut("                 median      p95      p99      max")
            for (name, v) in [("route (total)", tot), ("  snapping", sn), ("  search+unpack", se), ("  guidance", gu)] {
                printOut(String(printf: "%-15@ %8.1f %8.1f %8.1f %8.1f", name, median(v), percentile(v, 95), percentile(v, 99), v.last ?? 0))
            }
            printOut(String(printf: "peak RSS %.1f MB (%.1f MB before the map was opened)", Double(rss) / 1024, Double(rssBefore) / 1024))
        }
        return failures == 0 ? 0 : 1
    }

    static func median(_ v: [Double]) -> Double {
        guard !v.isEmpty else { return 0 }
        let s = v.sorted()
        return s.count % 2 == 1 ? s[s.count / 2] : (s[s.count / 2 - 1] + s[s.count / 2]) / 2
    }

    /// Nearest-rank percentile of sorted values.
    static func percentile(_ sorted: [Double], _ p: Double) -> Double {
        guard !sorted.isEmpty else { return 0 }
        let rank = Int((p / 100 * Double(sorted.count)).rounded(.up)) - 1
        return sorted[min(sorted.count - 1, max(0, rank))]
    }

    static func peakRSSKilobytes() -> Int {
        var u = rusage()
        getrusage(RUSAGE_SELF.rawValue, &u)
        return Int(u.ru_maxrss)
    }
}
