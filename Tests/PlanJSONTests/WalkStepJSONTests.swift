import Foundation
import GTFS
import Geo
import PlanJSON
import Planner
import Streets
import Testing
import TransitModel
import TransitTesting

/// A plan answer whose walks were found along streets says so in its JSON: `walkModel`
/// and `walkSteps` on each walk leg, as the OpenAPI document describes them; an answer
/// without walk data writes nothing new.
@Suite struct WalkStepJSONTests {
    /// Oakland downtown to the Mission (bart-2018): a walk at each end. The first walk made
    /// a street walk by hand (three steps along an L-shaped path), the last a beeline.
    static func answer() throws -> (plain: PlanAnswer, walked: PlanAnswer) {
        let (snapshot, _) = try SnapshotSink.load(path: FeedFixtures.feed("bart-2018.zip"), feedId: "bart-2018")
        let planner = try PlannerAssembly.assemble(snapshot).planner
        let query = PlanQuery(from: .coordinate(Coordinate(latitude: 37.8044, longitude: -122.2712)),
                              to: .coordinate(Coordinate(latitude: 37.7700, longitude: -122.4180)),
                              time: .local(year: 2018, month: 6, day: 5, hour: 8, minute: 30, second: 0), arriveBy: false)
        guard case .itineraries(var plain) = planner.answer(query) else { throw Failure("no itinerary") }
        var walked = plain
        // `plain`: an answer without walk data (as from a planner that does not say how it walked).
        for o in plain.options.indices {
            for l in plain.options[o].itinerary.legs.indices { plain.options[o].itinerary.legs[l].walk = nil }
        }
        var legs = walked.options[0].itinerary.legs
        let first = try #require(legs.firstIndex { $0.mode == .walk }), last = try #require(legs.lastIndex { $0.mode == .walk })
        try #require(first != last)
        legs[first].walk = streetWalk(legs[first].from.coordinate, legs[first].to.coordinate)
        legs[first].geometry = legs[first].walk!.geometry
        legs[last].walk = WalkRoute(model: .beeline, meters: legs[last].distanceMeters, walkMeters: legs[last].distanceMeters,
                                    geometry: legs[last].geometry, steps: [])
        walked.options[0].itinerary.legs = legs
        return (plain, walked)
    }

    struct Failure: Error { var text: String; init(_ t: String) { text = t } }

    /// A -> corner (east-west on 14th Street) -> across the plaza -> a few steps of footpath -> B.
    static func streetWalk(_ a: Coordinate, _ b: Coordinate) -> WalkRoute {
        let corner = Coordinate(latitude: a.latitude, longitude: b.longitude)
        let plaza = Coordinate(latitude: (a.latitude + b.latitude) / 2, longitude: b.longitude)
        let path = Coordinate(latitude: b.latitude + 0.00004, longitude: b.longitude)
        let g = [a, corner, plaza, path, b]
        func m(_ i: Int) -> Double { Geodesic.distance(g[i], g[i + 1]) }
        let steps = [
            WalkStep(action: .depart, street: "14th Street", kind: .road, meters: m(0), heading: a.longitude < b.longitude ? "east" : "west", pointIndex: 0),
            WalkStep(action: .crossArea, street: "Frank H. Ogawa Plaza", kind: .area, meters: m(1), pointIndex: 1),
            WalkStep(action: .slightRight, street: nil, kind: .footway, meters: m(2) + m(3), pointIndex: 2),
        ]
        let meters = (0..<4).map(m).reduce(0, +)
        return WalkRoute(model: .streets, meters: meters, walkMeters: meters, geometry: g, steps: steps)
    }

    static func object(_ bytes: [UInt8]) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any])
    }

    @Test("walk legs carry walkModel and walkSteps (instruction, point at the step's start)")
    func walkFields() throws {
        let (_, walked) = try Self.answer()
        let json = try Self.object(PlanAnswerJSON.answerBytes(walked))
        let itinerary = try #require((json["itineraries"] as? [[String: Any]])?.first)
        let legs = try #require(itinerary["legs"] as? [[String: Any]])
        let source = walked.options[0].itinerary.legs
        let streets = try #require(source.firstIndex { $0.walk?.model == .streets })
        let beeline = try #require(source.firstIndex { $0.walk?.model == .beeline })
        #expect(legs[streets]["walkModel"] as? String == "streets")
        #expect(legs[beeline]["walkModel"] as? String == "beeline")
        #expect((legs[beeline]["walkSteps"] as? [Any])?.isEmpty == true)
        for (i, leg) in legs.enumerated() where source[i].mode != .walk {
            #expect(leg["walkModel"] == nil && leg["walkSteps"] == nil)
        }
        let steps = try #require(legs[streets]["walkSteps"] as? [[String: Any]])
        let walk = source[streets].walk!
        #expect(steps.count == 3)
        #expect(steps.map { $0["action"] as? String } == ["depart", "cross-area", "slight-right"])
        #expect(steps.map { $0["kind"] as? String } == ["road", "area", "footway"])
        #expect(steps[0]["street"] as? String == "14th Street" && steps[1]["street"] as? String == "Frank H. Ogawa Plaza")
        #expect(steps[2].keys.contains("street") && steps[2]["street"] is NSNull)
        #expect(steps[0]["heading"] as? String != nil && steps[1]["heading"] == nil && steps[2]["heading"] == nil)
        #expect(steps.map { $0["instruction"] as? String } == walk.steps.map(\.english))
        #expect((steps[1]["instruction"] as? String)?.hasPrefix("Cross Frank H. Ogawa Plaza, ") == true)
        for (k, step) in steps.enumerated() {
            let point = try #require(step["point"] as? [Double])
            let at = walk.geometry[walk.steps[k].pointIndex]
            #expect(abs(point[0] - at.longitude) < 1e-6 && abs(point[1] - at.latitude) < 1e-6)
            #expect(abs((step["meters"] as? Double ?? -1) - walk.steps[k].meters) <= 0.05)
        }
        // The map draws the street walk's path.
        let features = try #require((itinerary["map"] as? [String: Any])?["features"] as? [[String: Any]])
        let line = try #require(features.first { ($0["properties"] as? [String: Any])?["legIndex"] as? Int == streets })
        #expect(((line["geometry"] as? [String: Any])?["coordinates"] as? [[Double]])?.count == walk.geometry.count)
        // The document read back equals the one made in process.
        let doc = AnswerDocument(walked)
        #expect(try AnswerDocument.read(PlanAnswerJSON.answerBytes(walked)) == doc)
        #expect(doc.itineraries[0].legs[streets].walkSteps?.map(\.instruction) == walk.steps.map(\.english))
        #expect(doc.itineraries[0].legs[beeline].walkModel == "beeline")
    }

    @Test("without walk data the answer writes nothing new")
    func noWalkData() throws {
        let (plain, walked) = try Self.answer()
        let text = PlanAnswerJSON.answer(plain)
        #expect(!text.contains("walkModel") && !text.contains("walkSteps"))
        // The same answer with its walks said writes them, and only them.
        let said = PlanAnswerJSON.answer(walked)
        #expect(said.contains("\"walkModel\":\"streets\"") && said.contains("\"walkModel\":\"beeline\""))
        #expect(AnswerDocument(plain).itineraries.allSatisfy { $0.legs.allSatisfy { $0.walkModel == nil && $0.walkSteps == nil } })
    }

    @Test("the JSON with street walks conforms to the OpenAPI document")
    func conforms() throws {
        let path = FeedFixtures.repositoryRoot().appendingPathComponent("Sources/Server/Resources/openapi.json")
        let validator = try OpenAPIValidator(document: Data(contentsOf: path))
        let (_, walked) = try Self.answer()
        let bytes = PlanAnswerJSON.answerBytes(walked, feeds: [("bart-2018", 1)])
        let problems = validator.validateResponse(method: "GET", path: "/v1/plan", status: 200, contentType: "application/json", body: Data(bytes))
        #expect(problems.isEmpty, "\(problems)")
        // The schema does check the steps: a step without its instruction is refused.
        var json = try Self.object(bytes)
        var itineraries = json["itineraries"] as! [[String: Any]]
        var legs = itineraries[0]["legs"] as! [[String: Any]]
        let i = try #require(legs.firstIndex { $0["walkModel"] as? String == "streets" })
        var steps = legs[i]["walkSteps"] as! [[String: Any]]
        steps[0]["instruction"] = nil
        steps[1]["kind"] = "lane"
        legs[i]["walkSteps"] = steps
        itineraries[0]["legs"] = legs
        json["itineraries"] = itineraries
        let broken = try JSONSerialization.data(withJSONObject: json)
        let refused = validator.validateResponse(method: "GET", path: "/v1/plan", status: 200, contentType: "application/json", body: broken)
        #expect(refused.contains { $0.contains("instruction") } && refused.contains { $0.contains("lane") }, "\(refused)")
    }
}
