import Console
import FoundationEssentials
import Glibc
import Platform
import MapData

/// The `tern` command line: options → a command's `run`. Wiring only; the work is in the stages.
public enum TernCLI {
    static let usage = """
        usage: tern COMMAND [OPTIONS]        (tern --version: the version, its commit and the map format it reads)

          import IN.osm.pbf -o OUT.tmap                 build a map (car profile) from OpenStreetMap data
           [--driving-side left|right] [--avoid motorway,...] [--shortest] [--cardinal-directions]
          map-info MAP [--json] [--verify]              what a map holds; --verify checks it
          search --map MAP TEXT [--near LAT,LON] [--limit N] [--json]
                                                        find an address, street, place or POI ("hauptstr 12 heid")
          search --map MAP --queries Q.json             batch search for benchmarks, one JSON document
          route --map MAP --from LAT,LON --to LAT,LON [--via LAT,LON]... [--lang L] [--units metric|imperial|imperial-uk] [--json]
          route --map MAP --queries Q.json --json       batch routing (../shared/data/bench/*-queries.json)
          match --map MAP --trace T.(gpx|nmea|json) [--json] [--sigma M]
                                                        match a recorded track to the roads
          simulate --map MAP --from LAT,LON --to LAT,LON [--via LAT,LON]... [--seed N] [--noise M]
           [--outage SECONDS@START]... [--wrong-turn K] [--model bench|road] [--truth T.jsonl] -o D.nmea
          replay D.nmea --map MAP --to LAT,LON [--via LAT,LON]... [--rate X] [--log-dir DIR] [--direct]
                 [--device PCM | --wav FILE | --mute] [--console DEV [--baud N]] [--quiet]
                 [--lang L] [--units U] [--off-route tern|mapbox|osmand]
          demo [--rate X] [--log-dir DIR] [--device PCM | --wav FILE | --mute]
                                                        the built-in town, a simulated drive, gpsfake → gpsd → tern
          run [--config FILE]                           the appliance: gpsd, serial console, speech, drive log,
                                                        control socket; each setting of tern.conf also as --KEY VALUE:
           [--map MAP] [--gpsd HOST:PORT] [--console DEV|none] [--baud N] [--speech PCM...|none] [--log-dir DIR]
           [--log-sync SECONDS] [--log-keep-days N|none] [--log-max-mb N|none] [--state-dir DIR|none] [--control PATH|none] [--locale L] [--units U]
           [--timezone ZONE] [--destination LAT,LON] [--waypoints continue|stay] [--traffic FILE]
           [--off-route tern|mapbox|osmand] [--progress-meters M] [--progress-seconds S]
           [--volume 0-100] [--rate WPM] [--voice V|default] [--verbosity all|essential|off] [--speeding-margin 10%|5km/h]
          ctl [--socket PATH] COMMAND...                talk to a running tern: find, go, near, home, save, fav,
                                                        recent, via, cancel, continue, reroute, traffic, repeat, mute,
                                                        volume, louder, quieter, rate, voice, verbosity, status, help;
                                                        watch [--seconds N] streams events
          say TEXT [--file PROMPTS.txt] [--lang L] [--voice V|PACK_DIR] [--volume 0-100] [--rate WPM] [--device PCM | --wav FILE]
          gpx DRIVE_DIR [-o F.gpx]                      a logged drive as GPX 1.1: receiver, filtered and matched
                                                        tracks; prompts, off-routes, reroutes and arrival as waypoints
          report DRIVE_DIR -o report.html               a logged drive as one HTML page: map, speed and accuracy plots
          check-features FILE_OR_DIR... [--json] [--verbose] [--lanes]
                                                        OSRM scenario files; NAME: passed/total per file
          bench-match --map MAP --queries Q.json [--noise M] [--model bench|road] [--follow] [--drives N]
                      [--export DIR] [--free] [--json]
                                                        the drive engine's matching accuracy and cost on simulated
                                                        drives, guided to their ends (--free: no destination)
          bench --map MAP --queries Q.json [--passes N] [--json]
                                                        routing figures (build with -c release)
        """

    /// This release of Tern (the commit comes from Plugins/BuildInfo at build time).
    static let version = "0.26.0"

    /// `tern --version`: what a maintainer needs to tell which build is on a unit and whether a
    /// map will open in it.
    static var versionText: String {
        "tern \(version) (commit \(BuildInfo.commit)); reads maps of format \(MapFormat.version) (tern map-info MAP says a map's)"
    }

    /// The usage lines of one command (`tern CMD --help`): its lines of `usage` and the lines
    /// indented under them; nil for a command the usage does not list.
    static func usage(of command: String) -> String? {
        var out = [String]()
        var inCommand = false
        for line in usage.split(separator: "\n", omittingEmptySubsequences: false) {
            let indent = line.prefix { $0 == " " }.count
            if indent == 2 {
                inCommand = line.dropFirst(2).hasPrefix(command + " ") || line.dropFirst(2) == command
            } else if indent < 2 {
                inCommand = false
            }
            if inCommand { out.append(String(line)) }
        }
        return out.isEmpty ? nil : "usage:\n" + out.joined(separator: "\n")
    }

    /// Runs one command (its errors are the caller's to print).
    static func dispatch(_ command: String, _ rest: [String]) async throws -> Int32 {
        switch command {
        case "import": return try MapCommands.importMap(rest)
        case "map-info": return try MapCommands.mapInfo(rest)
        case "search": return try SearchCommand.run(rest)
        case "route": return try MapCommands.route(rest)
        case "simulate": return try DriveCommands.simulate(rest)
        case "replay": return try await DriveCommands.replay(rest)
        case "demo": return try await DriveCommands.demo(rest)
        case "run": return try await RunCommand.run(rest)
        case "ctl": return try CtlCommand.run(rest)
        case "say": return try SayCommand.run(rest)
        case "gpx": return try GPXCommand.run(rest)
        case "report": return try ReportCommand.run(rest)
        case "bench": return try BenchCommand.run(rest)
        case "match": return try MatchCommand.run(rest)
        case "bench-match": return try BenchMatchCommand.run(rest)
        case "check-features": return try CheckFeaturesCommand.run(rest)
        case "-h", "--help", "help":
            printOut(usage)
            return 0
        case "--version", "version":
            printOut(versionText)
            return 0
        default:
            throw UsageError("unknown command `\(command)`")
        }
    }

    /// Checks a command line against the command's own option parser without running it (the
    /// test that keeps README.md, docs/ and the usage in step with the code): nil when it
    /// parses, else why not. For `ctl`, the words sent are checked as a console command too.
    static func check(_ args: [String]) async -> String? {
        guard let command = args.first else { return "no command" }
        let rest = Array(args.dropFirst())
        if ["-h", "--help", "help", "--version", "version"].contains(command) { return nil }
        if rest.contains("--help") || rest.contains("-h") { return usage(of: command) == nil ? "no usage for `\(command)`" : nil }
        do {
            _ = try await Arguments.$checkingOnly.withValue(true) { try await dispatch(command, rest) }
            return "`\(command)` ran without parsing its arguments first"
        } catch let parsed as Arguments.Checked {
            if command == "ctl", let first = parsed.positional.first, first != "watch" {
                do { _ = try ConsoleCommand.parse(parsed.positional.joined(separator: " ")) } catch { return "ctl: \(error)" }
            }
            return nil
        } catch {
            return "\(error)"
        }
    }

    /// Runs the command line; returns the exit status.
    public static func main(_ args: [String]) async -> Int32 {
        guard let command = args.first else {
            printError(usage)
            return 2
        }
        let rest = Array(args.dropFirst())
        if rest.contains("--help") || rest.contains("-h"), let lines = usage(of: command) {
            printOut(lines)
            return 0
        }
        do {
            return try await dispatch(command, rest)
        } catch let e as UsageError {
            // one line of usage, not the whole list: the command's own first line
            let line = usage(of: command)?.split(separator: "\n").dropFirst().first.map {
                "usage: tern " + $0.trimmed().replacing(/\s{2,}.*$/, with: "")
            }
            printError("tern \(command): \(e.description)\n" + (line.map { $0 + "\n(tern \(command) --help for the rest)" } ?? "(tern --help lists the commands)"))
            return 2
        } catch let e as CommandError {
            printError("tern \(command): \(e.description)")
            return 1
        } catch {
            printError("tern \(command): \(error)")
            return 1
        }
    }
}
