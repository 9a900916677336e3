import Geo
import Search

/// `near CATEGORY`: the nearest POIs of a kind. With a route, those along the road still ahead
/// (within 500 m of it, up to 30 km on), in the order the car reaches them, as a driver looking
/// for fuel wants; without one, those around the car, nearest first.
enum NearbyAhead {
    static let radiusMeters = 30_000.0
    /// How far off the route a POI may lie and still count as "on the way".
    static let offRouteMeters = 500.0

    static func places(_ category: SearchCategory, from here: Coordinate, route: [Coordinate]?, remainingMeters: Double?,
                       geocoder: Geocoder, limit: Int = 5) -> [SavedPlace] {
        guard let shape = route, shape.count >= 2, let remaining = remainingMeters else {
            return geocoder.nearest(category, to: here, radiusMeters: radiusMeters, limit: limit).map(SavedPlace.init)
        }
        let ruler = CheapRuler(latitude: here.latitude)
        let travelled = max(0, shape.lengthMeters - remaining)
        // the corridor: POIs near points every kilometre along the road ahead (the nearest few
        // hundred around the car alone could all lie beside or behind it in a town)
        var corridor = [SearchResult]()
        var seen = Set<String>()
        var step = travelled
        while step <= min(shape.lengthMeters, travelled + radiusMeters) {
            for r in geocoder.nearest(category, to: shape.point(atMeters: step).coordinate, radiusMeters: 1000 + offRouteMeters, limit: 50)
            where seen.insert("\(r.label)|\(r.coordinate)").inserted {
                corridor.append(r)
            }
            step += 1000
        }
        var ahead = [(along: Double, place: SavedPlace)]()
        for r in corridor {
            // the nearest point of the route to the POI, and how far along the route it lies
            var best = (distance: Double.infinity, along: 0.0), along = 0.0
            for k in 1..<shape.count {
                let p = ruler.project(r.coordinate, onto: shape[k - 1], shape[k])
                let length = ruler.distance(shape[k - 1], shape[k])
                if p.distanceMeters < best.distance { best = (p.distanceMeters, along + p.fraction * length) }
                along += length
            }
            if best.distance <= offRouteMeters, best.along >= travelled {
                ahead.append((best.along - travelled, SavedPlace(r)))
            }
        }
        return ahead.sorted { $0.along < $1.along }.prefix(limit).map(\.place)
    }
}
