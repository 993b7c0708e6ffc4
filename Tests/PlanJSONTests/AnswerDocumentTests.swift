import Foundation
import GTFS
import Geo
import PlanJSON
import Planner
import Testing
import Timetable
import TransitModel
import TransitTesting

/// The document `transit plan` renders its text from is made in two ways: straight from
/// the planner's answer (in process) and by reading a server's JSON (`--server`). They must
/// be equal, or the two would print different text.
@Suite struct AnswerDocumentTests {
    static let feeds: [(file: String, date: (Int, Int, Int))] = [
        ("bart-2018.zip", (2018, 6, 5)),
        ("wmata-rail-2026.zip", (2026, 5, 5)),         // stations and platforms
        ("sacramento-sacrt-2024.zip", (2024, 6, 18)),  // shapes, bus and light rail
    ]

    @Test("made in process = read back from the API's JSON, on random plans", arguments: feeds.map(\.file))
    func sameDocument(_ file: String) throws {
        let date = Self.feeds.first { $0.file == file }!.date
        let (snapshot, _) = try SnapshotSink.load(path: FeedFixtures.feed(file), feedId: String(file.dropLast(4)))
        let assembly = try PlannerAssembly.assemble(snapshot)
        let tt = assembly.timetable
        let stops = (0..<tt.stopCount).filter { tt.stopBoardable[$0] && tt.stopRouteOffsets[$0 + 1] > tt.stopRouteOffsets[$0] }
        try #require(!stops.isEmpty)
        var rng = SeededRandom(seed: 77)
        func place() -> Place {
            let s = stops[Int.random(in: 0..<stops.count, using: &rng)]
            if Bool.random(using: &rng) { return .stop(feed: nil, id: snapshot.stops[s].stopId) }
            return .coordinate(Geodesic.destination(from: assembly.network.coordinate(ofStop: StopIndex(s))!,
                                                    azimuthDegrees: Double.random(in: 0..<360, using: &rng),
                                                    meters: Double.random(in: 0..<700, using: &rng)))
        }
        var answers = 0, legs = 0, errors = 0
        for q in 0..<40 {
            let seconds = Int.random(in: 5 * 3600..<24 * 3600, using: &rng)
            let query = PlanQuery(from: place(), to: place(),
                                  time: .local(year: date.0, month: date.1, day: date.2, hour: seconds / 3600,
                                               minute: seconds / 60 % 60, second: seconds % 60),
                                  arriveBy: q % 4 == 3, window: [nil, 1800, 0][q % 3])
            switch assembly.planner.answer(query, numItineraries: 1 + q % 6) {
            case .itineraries(let answer):
                let doc = AnswerDocument(answer)
                #expect(try AnswerDocument.read(PlanAnswerJSON.answerBytes(answer)) == doc, "query \(q): \(query.from) → \(query.to)")
                answers += 1
                legs += doc.itineraries.reduce(0) { $0 + $1.legs.count }
            case .noItinerary(let error):
                // No itinerary: the server's JSON error reads back as the same reason.
                let bytes = Array(PlanAnswerJSON.encode(PlanAnswerJSON.apiError(error)).utf8)
                #expect(throws: AnswerDocument.ReadError(error)) { try AnswerDocument.read(bytes) }
                errors += 1
            }
        }
        #expect(answers >= 20, "only \(answers) of 40 random plans had itineraries (\(errors) reasons)")
        #expect(legs > answers)
    }
}
