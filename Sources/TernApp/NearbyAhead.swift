import Geo
import Search

/// `near CATEGORY`: the nearest POIs of a kind. With a route, those along the road still ahead
/// (within 500 m of it), in the order the car reaches them, as a driver looking for fuel wants;
/// without one, those around the car, nearest first.
enum NearbyAhead {
    static let radiusMeters = 30_000.0
    /// How far off the route a POI may lie and still count as "on the way".
    static let offRouteMeters = 500.0

    static func places(_ category: SearchCategory, from here: Coordinate, route: [Coordinate]?, remainingMeters: Double?,
                       geocoder: Geocoder, limit: Int = 5) -> [SavedPlace] {
        let around = geocoder.nearest(category, to: here, radiusMeters: radiusMeters, limit: 200)
        guard let shape = route, shape.count >= 2, let remaining = remainingMeters else {
            return around.prefix(limit).map { SavedPlace(label: $0.label, coordinate: $0.coordinate) }
        }
        let ruler = CheapRuler(latitude: here.latitude)
        let travelled = max(0, shape.lengthMeters - remaining)
        var ahead = [(along: Double, place: SavedPlace)]()
        for r in around {
            // the nearest point of the route to the POI, and how far along the route it lies
            var best = (distance: Double.infinity, along: 0.0), along = 0.0
            for k in 1..<shape.count {
                let p = ruler.project(r.coordinate, onto: shape[k - 1], shape[k])
                let length = ruler.distance(shape[k - 1], shape[k])
                if p.distanceMeters < best.distance { best = (p.distanceMeters, along + p.fraction * length) }
                along += length
            }
            if best.distance <= offRouteMeters, best.along >= travelled {
                ahead.append((best.along - travelled, SavedPlace(label: r.label, coordinate: r.coordinate)))
            }
        }
        return ahead.sorted { $0.along < $1.along }.prefix(limit).map(\.place)
    }
}
