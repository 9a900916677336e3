import Foundation
import Geo
import GPSInput
import Positioning
import TestSupport
import Testing

@Suite struct PositionFilterTests {
    /// A car driving east at 15 m/s, fixes with 5 m noise: the filter's error is well below the fixes'.
    @Test func filteredErrorIsLowerThanRaw() {
        var f = PositionFilter()
        var rng = SystemRandomNumberGenerator()
        let start = Coordinate(latitude: 49.4, longitude: 8.7)
        var raw = 0.0, filtered = 0.0, n = 0.0
        for i in 0..<300 {
            let truth = start.moved(meters: Double(i) * 15, bearingDegrees: 90)
            let noisy = truth.moved(meters: abs(gauss(&rng)) * 5, bearingDegrees: Double.random(in: 0..<360, using: &rng))
            let fix = GPSFix(time: 1_718_452_800 + Double(i), coordinate: noisy, mode: .threeD, speedMetersPerSecond: 15,
                             courseDegrees: 90, horizontalErrorMeters: 12)
            guard case .success(let p) = f.accept(fix), i > 10 else { continue }
            raw += pow(noisy.distance(to: truth), 2); filtered += pow(p.coordinate.distance(to: truth), 2); n += 1
        }
        let rawRMS = (raw / n).squareRoot(), filteredRMS = (filtered / n).squareRoot()
        #expect(filteredRMS < rawRMS * 0.65, "raw \(rawRMS) m, filtered \(filteredRMS) m")
    }

    /// A single 50 m outlier does not drag the track; three in a row are believed (a new track).
    @Test func outliersAreGatedButAPersistentJumpIsBelieved() throws {
        var f = PositionFilter()
        let start = Coordinate(latitude: 49.4, longitude: 8.7)
        func fix(_ i: Int, _ c: Coordinate) -> GPSFix {
            GPSFix(time: 1_718_452_800 + Double(i), coordinate: c, mode: .threeD, speedMetersPerSecond: 10, courseDegrees: 0, horizontalErrorMeters: 8)
        }
        for i in 0..<20 { _ = f.accept(fix(i, start.moved(meters: Double(i) * 10, bearingDegrees: 0))) }
        let truth20 = start.moved(meters: 200, bearingDegrees: 0)
        guard case .success(let p) = f.accept(fix(20, truth20.moved(meters: 50, bearingDegrees: 90))) else { Issue.record("rejected"); return }
        #expect(p.coordinate.distance(to: truth20) < 8)
        #expect(f.outliers == 1)
        var last: FilteredPosition?
        for i in 21..<24 {
            if case .success(let q) = f.accept(fix(i, start.moved(meters: Double(i) * 10, bearingDegrees: 0).moved(meters: 200, bearingDegrees: 90))) { last = q }
        }
        let jumped = start.moved(meters: 230, bearingDegrees: 0).moved(meters: 200, bearingDegrees: 90)
        let l = try #require(last)
        #expect(l.coordinate.distance(to: jumped) < 10)
    }

    /// Without fixes the estimate keeps moving at the last velocity, flagged estimated, for a while.
    @Test func deadReckoningThroughAnOutage() throws {
        var f = PositionFilter()
        let start = Coordinate(latitude: 49.4, longitude: 8.7)
        for i in 0..<15 {
            _ = f.accept(GPSFix(time: Double(i), coordinate: start.moved(meters: Double(i) * 15, bearingDegrees: 45), mode: .threeD,
                                speedMetersPerSecond: 15, courseDegrees: 45, horizontalErrorMeters: 6))
        }
        let predicted = f.predict(to: 24)
        let p = try #require(predicted)
        #expect(p.estimated)
        #expect(p.coordinate.distance(to: start.moved(meters: 24 * 15, bearingDegrees: 45)) < 15)
        let tooLong = f.predict(to: 24 + 200)
        #expect(tooLong == nil)  // too long: no guess
    }

    @Test func gateReasons() {
        var g = FixGate()
        let c = Coordinate(latitude: 49.4, longitude: 8.7)
        #expect(g.accept(GPSFix(time: 10, coordinate: c, mode: .noFix)) == .failure(.init(.noFix)))
        #expect(g.accept(GPSFix(time: 10, coordinate: Coordinate(latitude: .nan, longitude: 1), mode: .threeD)) == .failure(.init(.invalidValue)))
        #expect(g.accept(GPSFix(time: 10, coordinate: c, mode: .threeD, horizontalErrorMeters: 500)) == .failure(.init(.inaccurate)))
        _ = g.accept(GPSFix(time: 10, coordinate: c, mode: .threeD))
        #expect(g.accept(GPSFix(time: 10, coordinate: c, mode: .threeD)) == .failure(.init(.repeatedEpoch)))
        #expect(g.accept(GPSFix(time: 9, coordinate: c, mode: .threeD)) == .failure(.init(.timeWentBackwards)))
        #expect(g.accept(GPSFix(time: 11, coordinate: c.moved(meters: 500, bearingDegrees: 0), mode: .threeD)) == .failure(.init(.impossibleSpeed)))
    }

    /// gpsd's logs of moving receivers (car, boat, RTK, a wandering phone modem) through the gate
    /// and filter: no trap, no NaN, every output finite.
    @Test(.enabled(if: SharedData.isAvailable, Comment(rawValue: SharedData.missingMessage)), arguments: ["bt451.log", "nl2008u.log", "bundg_zeus_9.log", "humminbird-M37.log", "rst39.log", "garmin15x.log",
                      "haicom-305N.log", "nmea-rtk.log", "nmea-fuzzy-cases.log", "tomtom-mkII.log", "ublox-lea-4h.log", "quectel-eg25-g.log"])
    func receiverLogsStayFinite(log: String) throws {
        var f = PositionFilter()
        var outputs = 0
        for e in try NMEAFile.epochs(path: SharedData.path("gpsd/\(log)")).epochs {
            let out: FilteredPosition?
            if e.mode >= .twoD, case .success(let p) = f.accept(e) { out = p } else { out = f.predict(to: e.time) }
            guard let p = out else { continue }
            outputs += 1
            #expect(p.coordinate.isValid, "\(log): invalid position at \(e.time)")
            #expect(p.accuracyMeters.isFinite && p.accuracyMeters > 0)
            if let s = p.speedMetersPerSecond { #expect(s.isFinite && s >= 0) }
            if let c = p.courseDegrees { #expect(c.isFinite) }
        }
        #expect(outputs > 0, "\(log) gave no position")
    }
}

func gauss(_ rng: inout SystemRandomNumberGenerator) -> Double {
    let u1 = max(Double.random(in: 0..<1, using: &rng), 1e-12), u2 = Double.random(in: 0..<1, using: &rng)
    return (-2 * log(u1)).squareRoot() * cos(2 * .pi * u2)
}
