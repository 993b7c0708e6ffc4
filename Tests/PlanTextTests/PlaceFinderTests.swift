import Geo
import PlanText
import Testing

/// `transit plan`'s choice of places: the order of the search kept among equal scores,
/// and places that would read the same (name and routes) told apart.
@Suite struct PlaceFinderTests {
    func stop(_ id: String, _ name: String, _ lat: Double, _ lon: Double = 18, feed: String = "f", score: Double = 3,
              routes: [(mode: String, name: String)] = [("bus", "52")]) -> StopCandidate {
        StopCandidate(feed: feed, id: id, name: name, coordinate: Coordinate(latitude: lat, longitude: lon), score: score, routes: routes)
    }

    @Test("equal scores keep the search's order (the busiest place first); a better score leads")
    func order() {
        let places = PlaceFinder.group([stop("1", "Dworzec Wschód", 53.0), stop("2", "Dworzec Główny", 53.1), stop("3", "Dworzec Wschód", 53.001),
                                        stop("4", "Dworzec Leśne", 53.2), stop("5", "Dworzec", 53.3, score: 4)])
        #expect(places.map(\.name) == ["Dworzec", "Dworzec Wschód", "Dworzec Główny", "Dworzec Leśne"])
        #expect(places[1].stops.map(\.id) == ["1", "3"])
    }

    @Test("places that would read the same say their feed, else where they lie, else their stop")
    func distinctions() {
        // Different routes: nothing added.
        let routes = PlaceFinder.group([stop("1", "Rondo", 53.0), stop("2", "Rondo", 53.1, routes: [("tram", "5")])])
        #expect(routes.map(\.detail) == ["1 stop; bus 52", "1 stop; tram 5"])
        // Two feeds: the feed.
        let feeds = PlaceFinder.group([stop("1", "Central", 53.0), stop("1", "Central", 53.0, feed: "g")])
        #expect(feeds.map(\.detail) == ["1 stop; bus 52; f", "1 stop; bus 52; g"])
        // One feed, 2 km apart: north and south of the middle of them.
        let apart = PlaceFinder.group([stop("1", "Gariūnų st.", 53.0), stop("2", "Gariūnų st.", 53.02)])
        #expect(apart.map(\.detail) == ["1 stop; bus 52; south", "1 stop; bus 52; north"])
        // Three in a row: the one in the middle has no direction, and that tells it apart.
        let three = PlaceFinder.group([stop("1", "Kolejowa", 53.0), stop("2", "Kolejowa", 53.01), stop("3", "Kolejowa", 53.02)])
        #expect(three.map(\.detail) == ["1 stop; bus 52; south", "1 stop; bus 52", "1 stop; bus 52; north"])
        // Two in one direction from the middle: the direction, then the stop.
        let row = PlaceFinder.group([stop("1", "Most", 53.0), stop("2", "Most", 53.02), stop("3", "Most", 53.03)])
        #expect(row.map(\.detail) == ["1 stop; bus 52; south, stop 1", "1 stop; bus 52; north, stop 2", "1 stop; bus 52; north, stop 3"])
    }
}
