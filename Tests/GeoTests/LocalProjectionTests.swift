import Testing
import TransitTesting
@testable import Geo

@Suite struct LocalProjectionTests {
    static let center = Coordinate(latitude: 52.52, longitude: 13.405)

    /// Random coordinates within roughly `km` kilometres of `center`.
    static func randomAround(_ center: Coordinate, km: Double, count: Int, seed: UInt64) -> [Coordinate] {
        var rng = SeededRandom(seed: seed)
        return (0..<count).map { _ in
            Geodesic.destination(from: center,
                                 azimuthDegrees: .random(in: -180..<180, using: &rng),
                                 meters: .random(in: 0...(km * 1000), using: &rng))
        }
    }

    @Test func centreAndAxes() throws {
        let p = try LocalProjection(center: Self.center)
        let o = p.project(Self.center)
        #expect(abs(o.x) < 1e-9 && abs(o.y) < 1e-9)
        // aeqd preserves distance and azimuth from the centre: 1 km north → (0, 1000).
        for (az, ex, ey) in [(0.0, 0.0, 1000.0), (90, 1000, 0), (180, 0, -1000), (-90, -1000, 0)] {
            let q = p.project(Geodesic.destination(from: Self.center, azimuthDegrees: az, meters: 1000))
            #expect(abs(q.x - ex) < 1e-6 && abs(q.y - ey) < 1e-6, "azimuth \(az): \(q)")
        }
    }

    @Test func distanceFromCentreIsGeodesic() throws {
        let p = try LocalProjection(center: Self.center)
        for c in Self.randomAround(Self.center, km: 500, count: 200, seed: 7) {
            let q = p.project(c)
            let geo = Geodesic.distance(Self.center, c)
            #expect(abs((q.x * q.x + q.y * q.y).squareRoot() - geo) < 1e-6)
        }
    }

    /// Pairs ~100 m apart, up to 20 km from the centre: planar ≈ geodesic within 0.1 %.
    @Test func shortDistancesAgreeWithGeodesic() throws {
        let p = try LocalProjection(center: Self.center)
        var rng = SeededRandom(seed: 11)
        var worst = 0.0
        for a in Self.randomAround(Self.center, km: 20, count: 500, seed: 3) {
            let b = Geodesic.destination(from: a, azimuthDegrees: .random(in: -180..<180, using: &rng),
                                         meters: .random(in: 80...120, using: &rng))
            let pa = p.project(a), pb = p.project(b)
            let planar = ((pa.x - pb.x) * (pa.x - pb.x) + (pa.y - pb.y) * (pa.y - pb.y)).squareRoot()
            let geo = Geodesic.distance(a, b)
            worst = max(worst, abs(planar - geo) / geo)
        }
        #expect(worst < 1e-3)
    }

    @Test func roundTrip() throws {
        for (center, km) in [(Self.center, 50.0), (Self.center, 2000), (Coordinate(latitude: -33.87, longitude: 151.21), 100),
                             (Coordinate(latitude: 0.5, longitude: 179.9), 100), (Coordinate(latitude: 89.9, longitude: 0), 50)] {
            let p = try LocalProjection(center: center)
            for c in Self.randomAround(center, km: km, count: 300, seed: 5) {
                let q = p.project(c)
                let back = p.unproject(x: q.x, y: q.y)
                #expect(abs(back.latitude - c.latitude) < 1e-7)
                var dLon = abs(back.longitude - c.longitude)
                if dLon > 180 { dLon = 360 - dLon }  // antimeridian
                #expect(dLon < 1e-7, "\(c) -> \(q) -> \(back)")
                #expect((-180.0...180.0).contains(back.longitude))
            }
        }
    }

    @Test func batchEqualsSingle() throws {
        let p = try LocalProjection(center: Self.center)
        let cs = Self.randomAround(Self.center, km: 30, count: 1000, seed: 9)
            + [Coordinate(latitude: 95, longitude: 0)]
        let batch = p.project(cs)
        #expect(batch.count == cs.count)
        for (c, b) in zip(cs, batch) {
            let s = p.project(c)
            #expect(s.x == b.x && s.y == b.y)
        }
        #expect(p.project([Coordinate]()).isEmpty)
    }

    @Test func invalidInputs() throws {
        let p = try LocalProjection(center: Self.center)
        let bad = p.project(Coordinate(latitude: 95, longitude: 0))
        #expect(!bad.x.isFinite && !bad.y.isFinite)
        #expect(throws: GeoError.self) { try LocalProjection(center: Coordinate(latitude: 91, longitude: 0)) }
        #expect(throws: GeoError.self) { try LocalProjection(center: Coordinate(latitude: .nan, longitude: 0)) }
        do {
            _ = try LocalProjection(center: Coordinate(latitude: 0, longitude: 200))
            Issue.record("expected GeoError")
        } catch let error as GeoError {
            #expect(error.code != 0)
            #expect(!error.projMessage.isEmpty)
        }
    }

    @Test func tinyCentreValuesFormatWithoutExponent() throws {
        let p = try LocalProjection(center: Coordinate(latitude: -1e-5, longitude: 3e-7))
        #expect(p.definition.contains("+lat_0=-0.000010000000 "))
        #expect(p.definition.contains("+lon_0=0.000000300000 "))
        let o = p.project(p.center)
        #expect(abs(o.x) < 1e-6 && abs(o.y) < 1e-6)
    }

    /// One instance shared by concurrent tasks (serialised internally) gives the
    /// same results as sequential use.
    @Test func sharedAcrossTasks() async throws {
        let p = try LocalProjection(center: Self.center)
        let cs = Self.randomAround(Self.center, km: 30, count: 2000, seed: 21)
        let expected = p.project(cs)
        let ok = await withTaskGroup(of: Bool.self) { group in
            for t in 0..<8 {
                group.addTask {
                    for (i, c) in cs.enumerated() where i % 8 == t {
                        let q = p.project(c)
                        if q.x != expected[i].x || q.y != expected[i].y { return false }
                        let back = p.unproject(x: q.x, y: q.y)
                        if abs(back.latitude - c.latitude) > 1e-7 { return false }
                    }
                    return true
                }
            }
            return await group.allSatisfy { $0 }
        }
        #expect(ok)
    }
}
