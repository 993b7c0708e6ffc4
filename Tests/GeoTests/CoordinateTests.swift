import Testing
@testable import Geo

@Suite struct CoordinateTests {
    @Test func validAndPlausible() {
        let berlin = Coordinate(latitude: 52.52, longitude: 13.405)
        #expect(berlin.isValid && berlin.isPlausible)
        for c in [Coordinate(latitude: 90, longitude: 180), Coordinate(latitude: -90, longitude: -180)] {
            #expect(c.isValid && c.isPlausible)
        }
        // Null island is a valid position but not a plausible stop location.
        let zero = Coordinate(latitude: 0, longitude: 0)
        #expect(zero.isValid)
        #expect(!zero.isPlausible)
        #expect(Coordinate(latitude: 0, longitude: 1e-9).isPlausible)
        #expect(Coordinate(latitude: -0.0, longitude: 5).isPlausible)
    }

    @Test(arguments: [
        (90.000001, 0.0), (-91.0, 10.0), (10.0, 180.5), (10.0, -181.0),
        (Double.nan, 0.0), (0.0, Double.nan), (Double.infinity, 0.0), (0.0, -Double.infinity),
    ])
    func invalidFlagged(lat: Double, lon: Double) {
        let c = Coordinate(latitude: lat, longitude: lon)
        #expect(!c.isValid)
        #expect(!c.isPlausible)
    }
}
