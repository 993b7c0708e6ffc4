import Foundation
import GTFS
import PlanJSON
import Planner
import Testing
import TransitModel
import TransitTesting

/// What the rider's filter adds to the API's JSON (docs/routing-model.md, "What a rider is
/// shown"), on a real feed: `modelFirst` beside `recommended`, and per itinerary
/// `inModelAnswer`, `modelFirst` and `riderCost` with its parts; the old fields are kept.
@Suite struct RiderFilterJSONTests {
    @Test("modelFirst, inModelAnswer and riderCost say what the answer holds; read back as the same document")
    func riderFields() throws {
        // Sacramento downtown to the university at noon: a change arrives first, a direct bus is recommended.
        let (snapshot, _) = try SnapshotSink.load(path: FeedFixtures.feed("sacramento-sacrt-2024.zip"), feedId: "sacramento-sacrt-2024")
        let planner = try PlannerAssembly.assemble(snapshot).planner
        let query = PlanQuery(from: Place.parse("38.5802,-121.4936")!, to: Place.parse("38.5550,-121.4200")!,
                              time: QueryTime.parse("2024-06-18T12:00:00")!)
        var q = query
        q.modes = try ModeFilter.parse("BUS")
        let answer = try planner.answer(q).get()
        #expect(answer.recommended != answer.modelFirst, "the golden case: the direct bus is recommended, not the first arrival")
        let bytes = PlanAnswerJSON.answerBytes(answer)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any])
        #expect(json["recommended"] as? Int == answer.recommended)
        #expect(json["modelFirst"] as? Int == answer.modelFirst)
        let itineraries = try #require(json["itineraries"] as? [[String: Any]])
        #expect(itineraries.count == answer.options.count)
        for (i, (it, o)) in zip(itineraries, answer.options).enumerated() {
            #expect(it["recommended"] as? Bool == (i == answer.recommended))
            #expect(it["modelFirst"] as? Bool == (i == answer.modelFirst))
            #expect(it["inModelAnswer"] as? Bool == o.inModelAnswer)
            #expect(it["labels"] as? [String] == o.labels)
            let cost = try #require(it["riderCost"] as? [String: Any])
            #expect(cost["seconds"] as? Int == Int(o.riderCost.seconds))
            let parts = [cost["aboardSeconds"], cost["outsideSeconds"], cost["changes"], cost["gapSeconds"]].compactMap { $0 as? Int }
            #expect(parts == [Int(o.riderCost.aboardSeconds), Int(o.riderCost.outsideSeconds), o.riderCost.changes,
                              Int(o.riderCost.gapSeconds)])
            #expect(Int(o.riderCost.aboardSeconds) + Int(o.riderCost.outsideSeconds) == it["durationSeconds"] as? Int)
        }
        let doc = try AnswerDocument.read(bytes)
        #expect(doc == AnswerDocument(answer) && doc.modelFirst == answer.modelFirst)

        // --batch's view: the model's first is recommended, nothing dropped for its cost.
        let model = try planner.answer(q, riderFilter: false).get()
        #expect(model.recommended == model.modelFirst)
        #expect(answer.options.allSatisfy { o in model.options.contains { $0.journey == o.journey } })
    }
}
