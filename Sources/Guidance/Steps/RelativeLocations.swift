import Geo

/// Which side of the road the destination lies on (OSRM's assignRelativeLocations,
/// post_processing.cpp): from the end of the road to the point asked for, when it lies between
/// 5 and 300 m from where the route ends.
enum RelativeLocations {
    static let minimal = 5.0, maximal = 300.0

    static func side(destination: Coordinate, leg shape: [Coordinate]) -> Side? {
        guard shape.count >= 2 else { return nil }
        let end = shape[shape.count - 1]
        let d = destination.distance(to: end)
        guard d >= minimal && d <= maximal else { return nil }
        // (the point before the end that is not the end itself)
        var i = shape.count - 2
        while i > 0 && shape[i] == end { i -= 1 }
        let angle = GeometryMath.computeAngle(shape[i], end, destination)
        if angle < 135 { return .right }
        if angle <= 225 { return nil }
        return .left
    }
}
