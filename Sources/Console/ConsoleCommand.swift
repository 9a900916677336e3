import Geo

/// A command typed on the serial console or sent with `tern ctl`.
public enum ConsoleCommand: Sendable, Equatable {
    /// Navigate to the destination through the vias.
    case go(destination: Coordinate, vias: [Coordinate])
    case via(Coordinate)
    case cancel
    case repeatPrompt
    case mute(Bool)
    case volume(Int)
    case status
    case continueGuidance
    /// Reroute now (the driver asks, or automatic rerouting is off).
    case reroute
    /// Traffic on one OSM way (`WAY_ID closed|open|KMH`), or `clear` for none.
    case traffic(String)
    case help

    /// Parses one line: `go LAT,LON [via LAT,LON]...`, `via LAT,LON`, `cancel`, `repeat`, `mute on|off`,
    /// `volume 0-100`, `status`, `continue`, `reroute`, `help`. Throws a message naming what is wrong.
    public static func parse(_ line: String) throws -> ConsoleCommand {
        let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
        guard let verb = words.first?.lowercased() else { throw ConsoleError("empty command; try `help`") }
        let args = Array(words.dropFirst())
        func coordinate(_ s: String) throws -> Coordinate {
            guard let c = Coordinate(parsing: s) else { throw ConsoleError("`\(s)` is not a position; write LAT,LON like 49.4093,8.6937") }
            return c
        }
        func noArgs() throws { if !args.isEmpty { throw ConsoleError("`\(verb)` takes no arguments") } }
        switch verb {
        case "go":
            guard let first = args.first else { throw ConsoleError("`go` needs a destination: go LAT,LON [via LAT,LON]...") }
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
        case "mute":
            guard args.count <= 1 else { throw ConsoleError("`mute` takes on or off") }
            switch args.first?.lowercased() ?? "on" {
            case "on": return .mute(true)
            case "off": return .mute(false)
            default: throw ConsoleError("`mute` takes on or off")
            }
        case "volume":
            guard args.count == 1, let v = Int(args[0]), (0...100).contains(v) else { throw ConsoleError("`volume` takes a number from 0 to 100") }
            return .volume(v)
        default:
            throw ConsoleError("unknown command `\(verb)`; try `help`")
        }
    }

    public static let helpText = "commands: go LAT,LON [via LAT,LON]... | via LAT,LON | cancel | continue | reroute | traffic WAY_ID closed|open|KMH | repeat | mute on|off | volume N | status"
}

/// A console command that could not be understood (the message is sent back to the console).
public struct ConsoleError: Error, CustomStringConvertible, Equatable {
    public let message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
