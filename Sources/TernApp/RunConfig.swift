import Console
import DriveLog
import FoundationEssentials
import Glibc
import Platform
import Geo
import Guidance
import Navigation
import Routing
import Speech

/// `tern run`'s settings: tern.conf's `key = value` lines, then the command line's `--key value`
/// (the same names), each checked with the line or option named in the error.
extension RunCommand {
    struct Config {
        var map = "/var/lib/tern/maps/default.tmap"
        var gpsdHost = "localhost"
        var gpsdPort = "2947"
        var console: String?
        var baud = 115_200
        /// ALSA PCMs for prompts, in order of preference ("usbspeaker jack": the first that opens),
        /// or ["none"].
        var speech = ["default"]
        /// Volume, rate and voice (changed on the console while driving).
        var voice = VoiceSettings()
        var verbosity = Verbosity.all
        /// Over the limit by this much is speeding (events and the spoken warning).
        var speedingMargin = SpeedingMargin.percent(10)
        var logDirectory = "/var/lib/tern/drives"
        var locale = "en-GB"
        var localeChosen = false
        /// nil: the chosen locale's own units (metric when no locale was chosen).
        var units: UnitSystem?
        var destination: Coordinate?
        /// At an intermediate stop: go on at once, or stay until `continue` on the console.
        var continueAtWaypoints = true
        /// Whose anchors decide off route: tern, mapbox or osmand.
        var offRoutePolicy = OffRoutePolicy.tern
        /// Progress events when the remaining distance changed this much or this much time passed
        /// (Google's distanceUpdateThreshold / timeUpdateThreshold).
        var progressMeters = NavigatorConfig().distanceUpdateThresholdMeters
        var progressSeconds = NavigatorConfig().timeUpdateThresholdSeconds
        /// Speeds and closures per OSM way (`WAY_ID closed|KMH` lines), from `traffic = FILE`.
        var traffic = TrafficConditions()
        /// The control socket (`tern ctl`); nil: none.
        var control: String? = "/run/tern/control"
        /// How much of a drive's log a power cut may lose, seconds (how often it is fsync'd).
        var logSyncSeconds = 2.0
        /// Drives older than this many days, or beyond this many megabytes together, are removed
        /// when a drive begins ("none": no limit).
        var retention = DriveRetention(maxAgeDays: 90, maxBytes: 1024 << 20)
        /// The zone arrival times are told in; nil: the system's (/etc/localtime, or TZ).
        var timeZone: String?
        /// Where favourites, recent destinations and the trip under way are kept; nil: nowhere.
        var stateDirectory: String? = "/var/lib/tern/state"

        /// Every setting, as a tern.conf key and as a `tern run --KEY VALUE` option.
        static let keys = ["map", "gpsd", "console", "baud", "speech", "log-dir", "locale", "units", "destination", "waypoints", "control", "traffic", "off-route", "progress-meters", "progress-seconds", "state-dir", "timezone", "log-sync", "volume", "rate", "voice", "verbosity", "speeding-margin", "log-keep-days", "log-max-mb"]

        /// Reads `key = value` lines (`#` comments; LF or CR LF, a byte-order mark or none). Every
        /// unknown key and bad value is an error naming its file and line, all of them at once: a
        /// maintainer at the car fixes the file in one go.
        mutating func load(_ path: String) throws {
            let text: String
            do { text = try RegularFile.readText(path) } catch {
                throw CommandError("\(path): cannot read the configuration: \(error)")
            }
            try apply(text: text, path: path)
        }

        /// The settings of a configuration file's text; throws naming every bad line of `path`.
        mutating func apply(text: String, path: String) throws {
            var problems = [String]()
            for (n, line) in text.statementLines() {
                let parts = line.split(separator: "=", maxSplits: 1).map { $0.trimmed() }
                do {
                    guard parts.count == 2 else { throw CommandError("\(path):\(n): expected key = value, got `\(line)`") }
                    try set(parts[0], parts[1], at: "\(path):\(n)")
                } catch {
                    problems.append("\(error)")
                }
            }
            if !problems.isEmpty { throw CommandError(problems.joined(separator: "\n")) }
        }

        mutating func set(_ key: String, _ value: String, at place: String) throws {
            switch key {
            case "map": map = value
            case "gpsd":
                let hp = value.split(separator: ":")
                gpsdHost = hp.first.map(String.init) ?? "localhost"
                if hp.count > 1 { gpsdPort = String(hp[1]) }
            case "console": console = value.isEmpty || value == "none" ? nil : value
            case "baud":
                guard let b = Int(value), SerialConsole.supportedBaudRates[b] != nil else { throw CommandError("\(place): baud \(value) is not supported") }
                baud = b
            case "speech":
                let names = value.split(separator: " ").map(String.init)
                guard !names.isEmpty else { throw CommandError("\(place): speech needs an ALSA PCM name, a list of them, or none") }
                speech = names
            case "volume":
                guard let v = VoiceSettings.volume(value) else { throw CommandError("\(place): volume must be 0 to 100") }
                voice.volume = v
            case "rate":
                guard let v = VoiceSettings.rate(value) else {
                    throw CommandError("\(place): rate must be \(VoiceSettings.rates.lowerBound) to \(VoiceSettings.rates.upperBound) words a minute")
                }
                voice.rate = v
            case "voice":
                if value.isEmpty || value == "default" { voice.voice = nil; break }
                if let problem = SpeechEngine.voiceProblem(value) { throw CommandError("\(place): \(problem)") }
                voice.voice = value
            case "speeding-margin":
                guard let m = SpeedingMargin.parse(value) else { throw CommandError("\(place): speeding-margin is a share like 10% or a speed like 5 km/h or 3 mph") }
                speedingMargin = m
            case "verbosity":
                do { verbosity = try Verbosity.parse(value) } catch { throw CommandError("\(place): \(error)") }
            case "log-dir": logDirectory = value
            case "locale":
                do { locale = try GuidanceLocale.parse(value, setting: "locale").code } catch { throw CommandError("\(place): \(error)") }
                localeChosen = true
            case "units":
                do { units = try UnitSystem.parse(value, setting: "units") } catch { throw CommandError("\(place): \(error)") }
            case "control": control = value.isEmpty || value == "none" ? nil : value
            case "state-dir": stateDirectory = value.isEmpty || value == "none" ? nil : value
            case "log-sync":
                guard let v = Double(value), v.isFinite, v >= 0, v <= 3600 else {
                    throw CommandError("\(place): log-sync must be seconds from 0 to 3600")
                }
                logSyncSeconds = v
            case "log-keep-days", "log-max-mb":
                var limit: Double?
                if value != "none" {
                    guard let v = Double(value), v.isFinite, v > 0, v < 1e7 else { throw CommandError("\(place): \(key) must be a positive number or none") }
                    limit = v
                }
                if key == "log-keep-days" { retention.maxAgeDays = limit } else { retention.maxBytes = limit.map { Int($0 * 1_048_576) } }
            case "timezone":
                guard LocalTime.isKnown(value) else {
                    throw CommandError("\(place): timezone \(value) is not a zone name like Europe/Berlin (see /usr/share/zoneinfo)")
                }
                timeZone = value
            case "traffic":
                let text: String
                do { text = try RegularFile.readText(value) } catch { throw CommandError("\(place): cannot read traffic file \(value): \(error)") }
                do { traffic = try TrafficConditions.parse(text, source: value) } catch { throw CommandError("\(error)") }
            case "waypoints":
                switch value {
                case "continue": continueAtWaypoints = true
                case "stay": continueAtWaypoints = false
                default: throw CommandError("\(place): waypoints must be continue or stay")
                }
            case "progress-meters", "progress-seconds":
                guard let v = Double(value), v.isFinite, v > 0, v <= 100_000 else {
                    throw CommandError("\(place): \(key) must be a positive number")
                }
                if key == "progress-meters" { progressMeters = v } else { progressSeconds = v }
            case "off-route":
                guard let policy = OffRoutePolicy(rawValue: value) else {
                    throw CommandError("\(place): off-route must be \(OffRoutePolicy.allCases.map(\.rawValue).joined(separator: ", "))")
                }
                offRoutePolicy = policy
            case "destination":
                guard let c = Coordinate(parsing: value) else { throw CommandError("\(place): destination must be LAT,LON") }
                destination = c
            default: throw CommandError("\(place): unknown setting `\(key)`")
            }
        }
    }
}

/// tern.conf's rules for a tool that checks a configuration without running it (the fuzzing
/// harness in fuzz/): the same reader `tern run` uses.
public enum ConfigurationCheck {
    /// The problems of a configuration's text, one line each; empty when every line is good.
    public static func problems(in text: String, source: String) -> [String] {
        var config = RunCommand.Config()
        do { try config.apply(text: text, path: source) } catch { return "\(error)".split(separator: "\n").map(String.init) }
        return []
    }
}
