import Foundation
@testable import Navigation
import Testing

/// The receiver's bias learnt from fixes on the route (ReceiverBias).
@Suite struct ReceiverBiasTests {
    /// Fixes 6 m east and 4 m north of a route that heads north, then east, then north-east:
    /// each direction shows the bias across it, and together they show all of it.
    @Test func turnsOfTheRouteShowTheWholeBias() {
        var b = ReceiverBias()
        let east = 6.0, north = 4.0
        func beside(_ bearing: Double) -> Double {
            // the offset to the right of the route's direction
            let r = bearing * .pi / 180
            return cos(r) * east - sin(r) * north
        }
        var t = 0.0
        for bearing in [0.0, 90, 45] {
            for i in 0..<20 {
                t += 1
                b.advance(to: t)
                let wobble = Double(i % 5 - 2) * 0.8  // the fixes' own scatter
                let used = b.observe(signedMeters: beside(bearing) + wobble, bearingDegrees: bearing)
                #expect(used)
            }
        }
        #expect(abs(b.east - east) < 1.5 && abs(b.north - north) < 1.5, "estimated \(b.east) E, \(b.north) N")
        // a fix on a route heading south-east, never driven that way, is judged without most of
        // the bias (7 m across it; what was learnt of it a minute ago is held with some doubt)
        #expect(b.corrected(signedMeters: beside(135), bearingDegrees: 135) < abs(beside(135)) / 2)
        // a car 20 m beside the route is not the bias: not learnt, and still 20 m away, less the bias
        b.advance(to: t + 1)
        let used = b.observe(signedMeters: beside(45) + 20, bearingDegrees: 45)
        #expect(!used)
        #expect(b.corrected(signedMeters: beside(45) + 20, bearingDegrees: 45) > 18)
    }

    /// The estimate fades as it ages (the bias wanders over minutes): after ten minutes without
    /// a fix on the route nothing is taken out.
    @Test func anOldEstimateFades() {
        var b = ReceiverBias()
        for t in 1...60 {
            b.advance(to: Double(t))
            b.observe(signedMeters: 8, bearingDegrees: 0)
        }
        #expect(b.corrected(signedMeters: 8, bearingDegrees: 0) < 2)
        b.advance(to: 660)
        #expect(b.corrected(signedMeters: 8, bearingDegrees: 0) > 7.5)
    }
}
