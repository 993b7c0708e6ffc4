import Testing
@testable import Geo

@Suite struct GeodesicTests {
    static let jfk = Coordinate(latitude: 40.64, longitude: -73.78)
    static let sin = Coordinate(latitude: 1.36, longitude: 103.99)

    /// Reference values from PROJ 9.1.1's `geod` CLI:
    /// `echo "40.64 -73.78 1.36 103.99" | geod +ellps=WGS84 -I -f %.10f -F %.6f +units=m`
    /// → `3.3057734780  -2.5121597918  15347512.940513` (the second azimuth printed
    /// by `geod` is the *back* azimuth, i.e. azimuth2 − 180).
    @Test func jfkToSingapore() {
        let r = Geodesic.inverse(Self.jfk, Self.sin)
        #expect(abs(r.meters - 15_347_512.940513) < 1e-3)
        #expect(abs(Geodesic.distance(Self.jfk, Self.sin) - 15_347_512.940513) < 1e-3)
        #expect(abs(r.azimuth1 - 3.3057734780) < 1e-9)
        #expect(abs(r.azimuth2 - (180 - 2.5121597918)) < 1e-9)
    }

    @Test func symmetricAndZero() {
        #expect(Geodesic.distance(Self.jfk, Self.jfk) == 0)
        #expect(abs(Geodesic.distance(Self.sin, Self.jfk) - Geodesic.distance(Self.jfk, Self.sin)) < 1e-6)
        // One degree of longitude on the equator = a·π/180.
        let d = Geodesic.distance(Coordinate(latitude: 0, longitude: 0), Coordinate(latitude: 0, longitude: 1))
        #expect(abs(d - Geodesic.semiMajorAxis * .pi / 180) < 1e-6)
    }

    /// ~100 m in Berlin; `geod` gives 98.644 m (printed to the mm).
    @Test func shortDistance() {
        let a = Coordinate(latitude: 52.5200, longitude: 13.4050)
        let b = Coordinate(latitude: 52.5205, longitude: 13.4062)
        #expect(abs(Geodesic.distance(a, b) - 98.644) < 5e-4)
    }

    /// `echo "40.64 -73.78 45 10000000" | geod +ellps=WGS84 -f %.10f -F %.6f +units=m`
    /// → `32.6211004637  49.0524870930  -39.5940141232`.
    @Test func destination() {
        let p = Geodesic.destination(from: Self.jfk, azimuthDegrees: 45, meters: 10_000_000)
        #expect(abs(p.latitude - 32.6211004637) < 1e-9)
        #expect(abs(p.longitude - 49.0524870930) < 1e-9)
        let back = Geodesic.inverse(Self.jfk, p)
        #expect(abs(back.meters - 10_000_000) < 1e-6)
        #expect(abs(back.azimuth1 - 45) < 1e-9)
    }

    @Test func invalidLatitudeGivesNaN() {
        #expect(Geodesic.distance(Coordinate(latitude: 91, longitude: 0), Self.jfk).isNaN)
        #expect(Geodesic.distance(Coordinate(latitude: .nan, longitude: 0), Self.jfk).isNaN)
    }
}
