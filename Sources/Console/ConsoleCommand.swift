import Geo
import Guidance
import Speech

/// A command typed on the serial console or sent with `tern ctl`.
public enum ConsoleCommand: Sendable, Equatable {
    /// Navigate to the destination through the vias.
    case go(destination: Coordinate, vias: [Coordinate])
    case via(Coordinate)
    case cancel
    case repeatPrompt
    case mute(Bool)
    /// Voice: `volume 0-100`, `louder`, `quieter`, `rate WPM`, `voice NAME|default`,
    /// `verbosity all|essential|off`.
    case volume(Int)
    case louder
    case quieter
    case rate(Int)
    case voice(String?)
    case verbosity(Verbosity)
    case status
    case continueGuidance
    /// Reroute now (the driver asks, or automatic rerouting is off).
    case reroute
    /// Traffic on one OSM way (`WAY_ID closed|open|KMH`), or `clear` for none.
    case traffic(String)
    case help
    /// Destination search: `find TEXT` lists results; `go N` picks one of the last list; `go TEXT`
    /// goes to the top result when it is clear; `near CATEGORY` lists the nearest ones.
    case find(String)
    case goResult(Int)
    case goText(String)
    case near(String)
    /// `save NAME [N]`: the active destination, result N of the last list, or where the car is.
    case save(name: String, result: Int?)
    case home
    /// `fav` lists the favourites; `fav NAME` goes to one.
    case favourite(String?)
    case recent

    /// Parses one line: `go LAT,LON [via LAT,LON]...`, `via LAT,LON`, `cancel`, `repeat`, `mute on|off`,
    /// `volume 0-100`, `louder`, `quieter`, `rate WPM`, `voice NAME`, `verbosity LEVEL`, `status`, `continue`, `reroute`, `help`. Throws a message naming what is wrong.
    public static func parse(_ line: String) throws -> ConsoleCommand {
        // control characters (a terminal's escapes, a stray bell) are spaces, never part of a word
        let clean = String(String.UnicodeScalarView(line.unicodeScalars.map {
            $0.properties.generalCategory == .control ? " " : $0
        }))
        let words = clean.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
        guard let verb = words.first?.lowercased() else { throw ConsoleError("empty command; try `help`") }
        let args = Array(words.dropFirst())
        func coordinate(_ s: String) throws -> Coordinate {
            guard let c = Coordinate(parsing: s) else { throw ConsoleError("`\(s)` is not a position; write LAT,LON like 49.4093,8.6937") }
            return c
        }
        func noArgs() throws { if !args.isEmpty { throw ConsoleError("`\(verb)` takes no arguments") } }
        switch verb {
        case "go":
            guard let first = args.first else { throw ConsoleError("`go` needs a destination: go LAT,LON [via LAT,LON]..., go N or go TEXT") }
            if args.count == 1, let n = Int(first) {
                guard (1...99).contains(n) else { throw ConsoleError("`go \(n)`: results are numbered from 1") }
                return .goResult(n)
            }
            // "95,0" is a position out of range, not a place to search for
            let looksLikePosition = first.split(separator: ",").count == 2 && first.split(separator: ",").allSatisfy { Double($0) != nil }
            if !looksLikePosition { return .goText(args.joined(separator: " ")) }
            let dest = try coordinate(first)
            var vias = [Coordinate]()
            var i = 1
            while i < args.count {
                guard args[i].lowercased() == "via", i + 1 < args.count else { throw ConsoleError("expected `via LAT,LON` after the destination") }
                vias.append(try coordinate(args[i + 1]))
                i += 2
            }
            return .go(destination: dest, vias: vias)
        case "via":
            guard args.count == 1 else { throw ConsoleError("`via` needs one position: via LAT,LON") }
            return .via(try coordinate(args[0]))
        case "cancel": try noArgs(); return .cancel
        case "repeat": try noArgs(); return .repeatPrompt
        case "status": try noArgs(); return .status
        case "continue": try noArgs(); return .continueGuidance
        case "reroute": try noArgs(); return .reroute
        case "traffic":
            if args.count == 1, args[0].lowercased() == "clear" { return .traffic("clear") }
            guard args.count == 2 else { throw ConsoleError("`traffic` takes WAY_ID closed|open|KMH, or clear") }
            return .traffic(args.joined(separator: " "))
        case "help", "?": return .help
        case "find":
            guard !args.isEmpty else { throw ConsoleError("`find` needs words: find hauptstr 12 heidelberg") }
            return .find(args.joined(separator: " "))
        case "near":
            guard !args.isEmpty else { throw ConsoleError("`near` needs a kind of place: near fuel, near parking, near pharmacy") }
            return .near(args.joined(separator: " "))
        case "save":
            guard let name = args.first else { throw ConsoleError("`save` needs a name: save home, save work, save NAME N") }
            guard args.count <= 2 else { throw ConsoleError("`save` takes a name of one word and an optional result number") }
            let n = try args.dropFirst().first.map { s -> Int in
                guard let n = Int(s), n >= 1 else { throw ConsoleError("`save \(name) \(s)`: expected a result number") }
                return n
            }
            return .save(name: name.lowercased(), result: n)
        case "home": try noArgs(); return .home
        case "fav", "favourites", "favorites":
            guard args.count <= 1 else { throw ConsoleError("`fav` takes one name") }
            return .favourite(args.first?.lowercased())
        case "recent": try noArgs(); return .recent
        case "mute":
            guard args.count <= 1 else { throw ConsoleError("`mute` takes on or off") }
            switch args.first?.lowercased() ?? "on" {
            case "on": return .mute(true)
            case "off": return .mute(false)
            default: throw ConsoleError("`mute` takes on or off")
            }
        case "volume":
            guard args.count == 1, let v = VoiceSettings.volume(args[0]) else { throw ConsoleError("`volume` takes a number from 0 to 100") }
            return .volume(v)
        case "louder": try noArgs(); return .louder
        case "quieter", "softer": try noArgs(); return .quieter
        case "rate":
            let r = VoiceSettings.rates
            guard args.count == 1, let v = VoiceSettings.rate(args[0]) else {
                throw ConsoleError("`rate` takes words a minute from \(r.lowerBound) to \(r.upperBound) (\(VoiceSettings.defaultRate) is usual)")
            }
            return .rate(v)
        case "voice":
            guard args.count == 1 else { throw ConsoleError("`voice` takes one espeak-ng voice (en-gb, de+m3) or default") }
            return .voice(args[0].lowercased() == "default" ? nil : args[0])
        case "verbosity":
            guard args.count == 1 else { throw ConsoleError("`verbosity` takes all, essential or off") }
            do { return .verbosity(try Verbosity.parse(args[0])) } catch { throw ConsoleError("\(error)") }
        default:
            throw ConsoleError("unknown command `\(verb)`; try `help`")
        }
    }

    public static let helpText = "commands: find TEXT | go N | go TEXT | go LAT,LON [via LAT,LON]... | near CATEGORY | home | save NAME [N] | fav [NAME] | recent | via LAT,LON | cancel | continue | reroute | traffic WAY_ID closed|open|KMH | repeat | mute on|off | volume N | louder | quieter | rate WPM | voice NAME | verbosity all|essential|off | status"
}

/// A console command that could not be understood (the message is sent back to the console).
public struct ConsoleError: Error, CustomStringConvertible, Equatable {
    public let message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
