/// What kind of place a POI is, for "near fuel" and "find pharmacy": one OSM tag rule and the
/// words drivers use for it, in English and the languages of the maps Tern ships with.
public enum SearchCategory: UInt8, CaseIterable, Sendable {
    case none = 0
    case fuel, charging, parking, hospital, pharmacy, police, supermarket, restaurant, cafe, fastFood, hotel
    case toilets, carRepair, carWash, atm, bank, postOffice, doctor, school, museum, attraction, bakery, bar
    case campsite, station, townHall, library, cinema, theatre, placeOfWorship, shop

    /// The category of an OSM object from its tags (nil: not a place a driver searches for).
    public init?(tags: [String: String]) {
        let amenity = tags["amenity"], shop = tags["shop"], tourism = tags["tourism"]
        if let a = amenity, let c = SearchCategory.byAmenity[a] { self = c; return }
        if let s = shop {
            self = SearchCategory.byShop[s] ?? .shop
            return
        }
        if let t = tourism, let c = SearchCategory.byTourism[t] { self = c; return }
        if tags["railway"] == "station" || tags["public_transport"] == "station" { self = .station; return }
        if tags["healthcare"] == "hospital" { self = .hospital; return }
        if tags["healthcare"] == "pharmacy" { self = .pharmacy; return }
        return nil
    }

    static let byAmenity: [String: SearchCategory] = [
        "fuel": .fuel, "charging_station": .charging, "parking": .parking, "hospital": .hospital, "clinic": .hospital,
        "pharmacy": .pharmacy, "police": .police, "restaurant": .restaurant, "cafe": .cafe, "fast_food": .fastFood,
        "toilets": .toilets, "car_wash": .carWash, "atm": .atm, "bank": .bank, "post_office": .postOffice,
        "doctors": .doctor, "school": .school, "bar": .bar, "pub": .bar, "townhall": .townHall, "library": .library,
        "cinema": .cinema, "theatre": .theatre, "place_of_worship": .placeOfWorship,
    ]
    static let byShop: [String: SearchCategory] = [
        "supermarket": .supermarket, "convenience": .supermarket, "car_repair": .carRepair, "tyres": .carRepair,
        "bakery": .bakery,
    ]
    static let byTourism: [String: SearchCategory] = [
        "hotel": .hotel, "motel": .hotel, "guest_house": .hotel, "hostel": .hotel, "museum": .museum,
        "attraction": .attraction, "viewpoint": .attraction, "camp_site": .campsite, "caravan_site": .campsite,
    ]

    /// The English word, as the results and `near` print it.
    public var word: String { words[0] }

    /// What drivers call it: English first, then German, French, Catalan, Spanish, Italian, Dutch
    /// (phrases allowed: the query matcher compares term sequences).
    public var words: [String] {
        switch self {
        case .none: return ["place"]
        case .fuel: return ["fuel", "petrol", "gas station", "petrol station", "tankstelle", "station service", "carburant", "benzinera", "gasolinera", "distributore", "benzinestation", "tankstation"]
        case .charging: return ["charging station", "charger", "ev charging", "ladestation", "ladesaule", "borne de recharge", "punt de recarrega", "punto de recarga", "colonnina", "laadpaal"]
        case .parking: return ["parking", "car park", "parkplatz", "parkhaus", "tiefgarage", "aparcament", "aparcamiento", "parcheggio", "parkeerplaats"]
        case .hospital: return ["hospital", "clinic", "krankenhaus", "klinik", "hopital", "clinique", "hospital", "ospedale", "ziekenhuis"]
        case .pharmacy: return ["pharmacy", "chemist", "apotheke", "pharmacie", "farmacia", "apotheek"]
        case .police: return ["police", "polizei", "gendarmerie", "policia", "polizia", "politie"]
        case .supermarket: return ["supermarket", "grocery", "supermarkt", "lebensmittel", "supermarche", "supermercat", "supermercado", "supermercato"]
        case .restaurant: return ["restaurant", "gaststatte", "ristorante", "restaurante"]
        case .cafe: return ["cafe", "coffee", "kaffee", "cafeteria"]
        case .fastFood: return ["fast food", "imbiss", "snack"]
        case .hotel: return ["hotel", "motel", "guest house", "hostel", "pension", "gasthof", "hostal", "albergo"]
        case .toilets: return ["toilets", "toilet", "wc", "restroom", "toilette", "toiletten", "lavabos", "servicios", "bagno"]
        case .carRepair: return ["car repair", "garage", "mechanic", "tyres", "werkstatt", "autowerkstatt", "reifen", "taller", "officina", "garagiste"]
        case .carWash: return ["car wash", "waschanlage", "autowasche", "lavage", "rentat", "autolavado", "autolavaggio"]
        case .atm: return ["atm", "cash", "cash machine", "geldautomat", "bankomat", "distributeur", "caixer", "cajero", "bancomat"]
        case .bank: return ["bank", "banque", "banc", "banco", "banca"]
        case .postOffice: return ["post office", "post", "postamt", "poste", "correus", "correos", "posta"]
        case .doctor: return ["doctor", "doctors", "arzt", "medecin", "metge", "medico"]
        case .school: return ["school", "schule", "ecole", "escola", "escuela", "scuola"]
        case .museum: return ["museum", "musee", "museu", "museo"]
        case .attraction: return ["attraction", "sight", "viewpoint", "sehenswurdigkeit", "aussichtspunkt"]
        case .bakery: return ["bakery", "backerei", "boulangerie", "forn", "panaderia", "panetteria"]
        case .bar: return ["bar", "pub", "kneipe"]
        case .campsite: return ["campsite", "camping", "campingplatz", "caravan site"]
        case .station: return ["station", "railway station", "train station", "bahnhof", "gare", "estacio", "estacion", "stazione"]
        case .townHall: return ["town hall", "city hall", "rathaus", "mairie", "hotel de ville", "ajuntament", "comu", "ayuntamiento", "municipio"]
        case .library: return ["library", "bibliothek", "bibliotheque", "biblioteca"]
        case .cinema: return ["cinema", "movies", "kino", "cine"]
        case .theatre: return ["theatre", "theater", "teatre", "teatro"]
        case .placeOfWorship: return ["church", "place of worship", "kirche", "eglise", "esglesia", "iglesia", "chiesa", "mosque", "moschee", "synagogue"]
        case .shop: return ["shop", "store", "geschaft", "laden", "magasin", "botiga", "tienda", "negozio"]
        }
    }

    /// The term the index lists a POI of this category under (not a word anyone types: "@" never
    /// survives folding).
    public var indexTerm: String { "@\(rawValue)" }

    /// Every category word as folded terms, longest phrase first, with its category.
    public static let phrases: [([String], SearchCategory)] = {
        var out = [([String], SearchCategory)]()
        for c in allCases where c != .none {
            for w in c.words { out.append((SearchText.terms(w), c)) }
        }
        return out.sorted { $0.0.count > $1.0.count }
    }()

    /// The category a whole query names ("tankstelle", "gas station"), if it is only that.
    public static func named(by terms: [String]) -> SearchCategory? {
        phrases.first { $0.0 == terms }?.1
    }
}
