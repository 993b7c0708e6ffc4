import FeedNetwork
import Foundation
import Geo
import GTFS
import PlanJSON
import Planner
import PlanText
import Streets
import Testing
import TransitModel
import TransitTesting

/// Walks on Milan's streets (milan-atm-2014 with milan-small.osm.pbf imported through
/// `transit import-osm`'s importer): the terminal's text with the walking steps under each
/// walk, the API's map drawing the very path walked, and a barrier the beeline ignored.
@Suite(.serialized) struct StreetsGoldenTests {
    struct Trip {
        let why: String, from: String, to: String, at: String
        var option: Int? = nil
        var streets = true
    }

    static let trips = [
        Trip(why: "across Piazza del Duomo to Castello Sforzesco on foot: 1.2 km over the square (1.4 km round its edge)",
             from: "45.46420,9.19040", to: "45.46990,9.17990", at: "2014-10-28T10:00:00", option: 0),
        Trip(why: "the same by tram: each walk is one step, its turns under it, named by the streets",
             from: "45.46420,9.19040", to: "45.46990,9.17990", at: "2014-10-28T10:00:00"),
        Trip(why: "the Passante railway between Via Monte Velino and Largo Rodari (1.1 km apart): the beeline walked across it",
             from: "45.45305,9.22895", to: "45.46201,9.23615", at: "2014-10-27T10:00:00", streets: false),
        Trip(why: "the streets go round by a bridge (2.1 km, beyond the 2 km of a walk-only trip): the tram is first now",
             from: "45.45305,9.22895", to: "45.46201,9.23615", at: "2014-10-27T10:00:00"),
    ]

    static let planner: Result<JourneyPlanner, Error> = Result {
        let streets = try StreetFixtures.imported("milan").tables
        let (snapshot, _) = try SnapshotSink.load(path: FeedFixtures.sharedFeed("milan-atm-2014"), feedId: "milan-atm-2014")
        return JourneyPlanner(network: try TimetableBuilder.build(snapshot, streets: streets))
    }

    static func query(_ trip: Trip) -> PlanQuery {
        var q = PlanQuery(from: Place.parse(trip.from)!, to: Place.parse(trip.to)!, time: QueryTime.parse(trip.at)!)
        q.streets = trip.streets
        return q
    }

    @Test("the terminal's steps carry the walking steps with street names (Tests/Golden/streets.txt)")
    func golden() throws {
        let planner = try Self.planner.get()
        var text = ""
        for trip in Self.trips {
            text += "# \(trip.why)\n$ transit plan \(trip.from) \(trip.to) --at \(trip.at)" + (trip.streets ? "" : " --no-streets")
                + (trip.option.map { " --option \($0 + 1)" } ?? "") + "   (milan-atm-2014 + milan-small)\n"
            text += try GoldenText.text(planner.answer(Self.query(trip)), from: trip.from, to: trip.to, option: trip.option,
                                        planner: planner)
            text += "\n"
        }
        try GoldenText.check(text, "streets.txt")
    }

    @Test("the square is crossed: the walk is about 1.2 km, shorter than round its edge")
    func duomo() throws {
        let planner = try Self.planner.get()
        let result = try planner.plan(Self.query(Self.trips[0]))
        let walk = try #require(result.journeys.first { $0.rides == 0 })
        let meters = try #require(walk.walkMeters)
        #expect(meters > 1_100 && meters < 1_300, "\(meters) m")
        let itinerary = planner.itinerary(walk, in: result)
        let route = try #require(itinerary.legs.first?.walk)
        #expect(route.model == .streets)
        #expect(route.steps.contains { $0.kind == .area && $0.street == "Piazza del Duomo" })
    }

    @Test("a barrier: the walk goes round, longer than beeline × 1.3, and the router takes the metro where it walked")
    func barrier() throws {
        let planner = try Self.planner.get()
        let beeline = try planner.plan(Self.query(Self.trips[2]))
        let streets = try planner.plan(Self.query(Self.trips[3]))
        let from = Coordinate(latitude: 45.45305, longitude: 9.22895), to = Coordinate(latitude: 45.46201, longitude: 9.23615)
        let straight = Geodesic.distance(from, to)
        #expect(beeline.journeys.first?.rides == 0, "the beeline model walked")
        #expect(streets.journeys.first.map { $0.rides > 0 } == true, "the street model rides")
        // The walk along streets is beyond maxDirectWalk (2 km): no walk-only journey at all.
        #expect(!streets.journeys.contains { $0.rides == 0 })
        let graph = try #require(planner.network.streets)
        let a = try #require(graph.snap(from)), b = try #require(graph.snap(to))
        let around = try #require(graph.walkMeters(from: a, to: [b], limit: 10_000)[0])
        #expect(around > straight * 1.3 * 1.3, "\(around) m round against \(straight) m straight")
    }

    @Test("the API's map draws the path walked: from the origin to the first stop along edges of the graph")
    func mapFollowsStreets() throws {
        let planner = try Self.planner.get()
        let tables = try StreetFixtures.imported("milan").tables
        let answer = try planner.answer(Self.query(Self.trips[1]))
        guard case .itineraries(let a) = answer else { Issue.record("no itinerary"); return }
        let doc = try AnswerDocument.read(PlanAnswerJSON.answerBytes(a))
        let itinerary = try #require(doc.itineraries.first { $0.summary.rides > 0 })
        let legIndex = try #require(itinerary.legs.firstIndex { $0.mode == "WALK" })
        let leg = itinerary.legs[legIndex]
        #expect(leg.walkModel == "streets")
        let line = try #require(itinerary.map.features.first { $0.properties.legIndex == legIndex && $0.geometry.type == "LineString" })
        let points = line.geometry.positions.map { Coordinate(latitude: $0[1], longitude: $0[0]) }
        try #require(points.count >= 4)
        #expect(Geodesic.distance(points.first!, Coordinate(latitude: 45.46420, longitude: 9.19040)) < 0.5, "starts at the origin")
        #expect(Geodesic.distance(points.last!, Coordinate(latitude: leg.to.lat, longitude: leg.to.lon)) < 0.5,
                "ends at the first stop \(leg.to.name)")
        // Every piece between the two snapped points lies on one edge of the graph.
        var polylines: [[Coordinate]] = []
        for e in 0..<tables.edgeCount {
            var p = [Coordinate(latitude: tables.nodeLatitude[Int(tables.edgeSource[e])], longitude: tables.nodeLongitude[Int(tables.edgeSource[e])])]
            for i in Int(tables.innerOffsets[e])..<Int(tables.innerOffsets[e + 1]) {
                p.append(Coordinate(latitude: tables.innerLatitude[i], longitude: tables.innerLongitude[i]))
            }
            p.append(Coordinate(latitude: tables.nodeLatitude[Int(tables.edgeTarget[e])], longitude: tables.nodeLongitude[Int(tables.edgeTarget[e])]))
            polylines.append(p)
        }
        func onEdge(_ a: Coordinate, _ b: Coordinate) -> Bool {
            let mid = Coordinate(latitude: (a.latitude + b.latitude) / 2, longitude: (a.longitude + b.longitude) / 2)
            return polylines.contains { p in
                [a, b, mid].allSatisfy { x in zip(p, p.dropFirst()).contains { Self.distance(x, $0.0, $0.1) < 0.5 } }
            }
        }
        for i in 1..<(points.count - 2) {
            #expect(onEdge(points[i], points[i + 1]), "piece \(i) of the walk (\(points[i]) → \(points[i + 1])) is on no edge")
        }
    }

    /// Meters from `x` to the segment a–b (flat at this scale).
    static func distance(_ x: Coordinate, _ a: Coordinate, _ b: Coordinate) -> Double {
        let k = cos(x.latitude * .pi / 180), m = 111_195.0
        let ax = (a.longitude - x.longitude) * k * m, ay = (a.latitude - x.latitude) * m
        let bx = (b.longitude - x.longitude) * k * m, by = (b.latitude - x.latitude) * m
        let dx = bx - ax, dy = by - ay, len = dx * dx + dy * dy
        let t = len == 0 ? 0 : max(0, min(1, -(ax * dx + ay * dy) / len))
        let px = ax + t * dx, py = ay + t * dy
        return (px * px + py * py).squareRoot()
    }
}
