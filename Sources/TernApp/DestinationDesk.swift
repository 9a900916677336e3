import Console
import FoundationEssentials
import Glibc
import Platform
import Geo
import Guidance
import MapData
import Navigation
import Search

/// Where to go, the way a driver says it on the console or through `tern ctl`: search (`find`,
/// `near`), results by number (`go N`), `go TEXT`, home and favourites, recent destinations; and
/// the trip under way. Every change is written to the state file at once, so a power cut loses
/// nothing, and a trip cut short by one resumes when the unit starts again.
final class DestinationDesk {
    let geocoder: Geocoder?
    private let file: StateFile?
    private(set) var state: TripState
    /// The last list shown (results, favourites, recent): what `go N` and `save NAME N` pick from.
    private var lastList: [SavedPlace] = []
    /// Stops of the saved trip already reached when the current route began (a resumed trip).
    private var reachedBefore = 0
    /// The destination to announce once the resumed trip has its route.
    private var resumeAnnouncement: String?
    private let locale: GuidanceLocale?
    /// Problems writing the state file are told here (standard error in the appliance).
    var onWarning: (String) -> Void = { _ in }
    /// What was wrong with the state file found at start (it was set aside), if anything.
    let loadWarning: String?

    /// `geocoder` nil: the map has no search index (`find` says to re-import it).
    init(geocoder: Geocoder?, stateFile: String?, locale: String) {
        self.geocoder = geocoder
        file = stateFile.map(StateFile.init)
        self.locale = GuidanceLocale.named(locale)
        (state, loadWarning) = file?.load() ?? (TripState(), nil)
    }

    // MARK: commands

    /// The reply lines to a destination command (go, cancel, find, near, save, home, fav, recent).
    func handle(_ command: ConsoleCommand, pipeline: DrivePipeline) -> [String] {
        let here = pipeline.lastFix?.coordinate
        switch command {
        case .find(let text):
            guard let geocoder else { return [noIndex] }
            do {
                let results = try geocoder.search(text, near: here)
                return list(results.map(SavedPlace.init), from: here, header: "found", empty: "nothing found for \"\(text)\"")
            } catch { return ["error: \(error)"] }
        case .goResult(let n):
            guard n <= lastList.count else { return ["error: there is no result \(n); `find` something first"] }
            return [go([lastList[n - 1]], pipeline: pipeline)]
        case .goText(let text):
            if let fav = state.favourites[text.lowercased()] { return [go([fav], pipeline: pipeline)] }
            guard let geocoder else { return [noIndex] }
            do {
                let results = try geocoder.search(text, near: here)
                guard let top = results.first else { return ["error: nothing found for \"\(text)\""] }
                // only a clear winner is driven to without asking: a better match, or as good a
                // match of a far more important kind (the town Vaduz, not the post office "Vaduz")
                let second = results.dropFirst().first
                if second.map({ top.score - $0.score >= Self.clearLead || top.importance - $0.importance >= Self.clearImportance }) ?? true {
                    return [go([SavedPlace(top)], pipeline: pipeline)]
                }
                return list(results.map(SavedPlace.init), from: here, header: "found; which one? go N", empty: "")
            } catch { return ["error: \(error)"] }
        case .go(let destination, let vias):
            let stops = (vias + [destination]).map { SavedPlace(label: describe($0), coordinate: $0) }
            return [go(stops, pipeline: pipeline)]
        case .near(let words):
            guard let geocoder else { return [noIndex] }
            guard let category = SearchCategory.named(by: SearchText.terms(words)) else {
                return ["error: no kind of place called \"\(words)\"; try fuel, charging, parking, pharmacy, hospital, supermarket, restaurant, hotel, toilets"]
            }
            guard let here else { return ["error: no position yet: `near` needs a GPS fix"] }
            let found = NearbyAhead.places(category, from: here, route: pipeline.navigator.route?.route.shape,
                                           remainingMeters: pipeline.navigator.progress?.remainingMeters, geocoder: geocoder)
            return list(found, from: here, header: "\(category.word) " + (pipeline.navigator.route == nil ? "around" : "ahead"),
                        empty: "no \(category.word) within \(Int(NearbyAhead.radiusMeters / 1000)) km")
        case let .save(name, result):
            let place: SavedPlace
            if let n = result {
                guard n <= lastList.count else { return ["error: there is no result \(n) to save"] }
                place = lastList[n - 1]
            } else if let trip = state.trip {
                place = trip.destination
            } else if let here {
                place = SavedPlace(label: describe(here), coordinate: here)
            } else {
                return ["error: nothing to save: no destination and no position yet"]
            }
            state.favourites[name] = place
            return ["ok: saved \(name): \(place.label)" + persist()]
        case .home:
            guard let home = state.favourites["home"] else {
                return ["error: no home saved; say `save home` there, or `save home N` after `find`"]
            }
            return [go([home], pipeline: pipeline)]
        case .favourite(let name?):
            guard let fav = state.favourites[name] else {
                return ["error: no favourite called \(name)" + (state.favourites.isEmpty ? "" : "; `fav` lists them")]
            }
            return [go([fav], pipeline: pipeline)]
        case .favourite(nil):
            let names = state.favourites.keys.sorted()
            return list(names.map { n in SavedPlace(label: "\(n): \(state.favourites[n]!.label)", coordinate: state.favourites[n]!.coordinate) },
                        from: here, header: "favourites", empty: "no favourites yet; `save NAME` keeps one", keep: names.map { state.favourites[$0]! })
        case .recent:
            return list(state.recent, from: here, header: "recent", empty: "no recent destinations")
        case .cancel:
            pipeline.cancel()
            state.trip = nil
            resumeAnnouncement = nil
            return ["ok: guidance cancelled" + persist()]
        case .via, .repeatPrompt, .mute, .volume, .louder, .quieter, .rate, .voice, .verbosity, .status, .traffic, .reroute, .continueGuidance, .help:
            return ["error: `\(command)` is not about where to go"]  // (RunCommand.handle answers these)
        }
    }

    static let clearLead = 0.15
    static let clearImportance = 50
    private var noIndex: String { "error: this map has no search index; import it again with `tern import` (go LAT,LON still works)" }

    /// "N label" lines after a header, and the list kept for `go N`.
    private func list(_ places: [SavedPlace], from here: Coordinate?, header: String, empty: String, keep: [SavedPlace]? = nil) -> [String] {
        lastList = keep ?? places
        guard !places.isEmpty else { return ["ok: \(empty)"] }
        var lines = ["ok: \(places.count) \(header):"]
        for (i, p) in places.enumerated() { lines.append(SearchResultText.line(i + 1, p.label, at: p.coordinate, from: here)) }
        return lines
    }

    private func go(_ stops: [SavedPlace], pipeline: DrivePipeline) -> String {
        pipeline.go(to: stops.map(\.coordinate), time: pipeline.now)
        state.start(stops)
        reachedBefore = 0
        resumeAnnouncement = nil
        return "ok: going to \(stops.last!.label)" + (stops.count > 1 ? " via \(stops.count - 1) stop(s)" : "") + persist()
    }

    private func describe(_ c: Coordinate) -> String {
        geocoder?.describe(c).map { "near \($0)" } ?? String(printf: "%.5f,%.5f", c.latitude, c.longitude)
    }

    /// Writes the state; the reply's tail when that failed (the change holds until power-off).
    private func persist() -> String {
        guard let file else { return "" }
        do {
            try file.save(state)
            return ""
        } catch {
            onWarning("cannot save the destinations: \(error)")
            return " (not saved: \(error); kept until the unit is switched off)"
        }
    }

    // MARK: the trip under way

    /// Starts the trip the state file holds, if the unit stopped during one: guidance resumes
    /// with the first fix, and says so once its route is found. Returns what to report.
    func resume(pipeline: DrivePipeline) -> String? {
        guard let trip = state.trip else { return nil }
        pipeline.go(to: trip.remaining.map(\.coordinate), time: pipeline.now)
        reachedBefore = trip.next
        resumeAnnouncement = trip.destination.label
        return "resuming guidance to \(trip.destination.label) (\(trip.remaining.count) stop(s) left)"
    }

    /// Follows the trip through the navigator's events: stops reached, arrival, the resumed route.
    func observe(_ event: NavigationEvent, pipeline: DrivePipeline) {
        switch event.kind {
        case .waypointArrived(let index, _, _):
            guard var trip = state.trip else { return }
            trip.next = min(trip.waypoints.count - 1, reachedBefore + index)
            state.trip = trip
            _ = persist()
        case .arrived:
            guard state.trip != nil else { return }
            state.trip = nil
            _ = persist()
        case .routeComputed:
            guard let label = resumeAnnouncement else { return }
            resumeAnnouncement = nil
            if let locale, locale.hasOwnPhrase("prompt.resuming") {
                pipeline.announce(locale.sentence("prompt.resuming", ["name": label]))
            }
        default:
            return
        }
    }
}
