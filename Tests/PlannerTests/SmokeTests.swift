import FeedNetwork
import Foundation
import GTFS
import Planner
import Raptor
import Testing
import Timetable
import TransitModel
import TransitTesting

/// The bundled BART feed end to end (loader, timetable builder, planner) on one trip whose
/// answer is known: 12th St. Oakland City Center → San Francisco International Airport on
/// Tuesday 2018-06-05, leaving at or arriving by 08:30. The journeys are written out in
/// full (times as bart-2018.zip's stop_times.txt has them; see each test) and must also be
/// what the reference router (`TransitTesting.ReferenceRouter`) finds.
@Suite struct SmokeTests {
    static let date = ServiceDate(year: 2018, month: 6, day: 5)!

    static func network() throws -> (PlannerNetwork, FeedSnapshot) {
        let (snapshot, _) = try SnapshotSink.load(path: FeedFixtures.bundledFeed("bart-2018"), feedId: "bart")
        return (PlannerNetwork(planner: JourneyPlanner(network: try TimetableBuilder.build(snapshot))), snapshot)
    }

    /// The planner's (rides, departure, arrival) for each journey with rides, next to the reference's.
    static func expectSameAsReference(_ n: PlannerNetwork, _ snapshot: FeedSnapshot, arriveBy: Bool,
                                      sourceLocation: SourceLocation = #_sourceLocation) throws {
        let result = try n.plan("12TH", "SFIA", at: "8:30", on: date, arriveBy: arriveBy)
        let reference = ReferenceRouter(snapshot: snapshot)
        let from = ReferencePlace.stop(n.stop("12TH").raw), to = ReferencePlace.stop(n.stop("SFIA").raw)
        let theirs = (arriveBy ? reference.arriveBy(from: from, to: to, time: result.time)
                               : reference.departAt(from: from, to: to, time: result.time)).filter { $0.rides > 0 }
        let mine = result.journeys.filter { $0.rides > 0 }
            .map { ReferenceJourney(rides: $0.rides, departure: $0.departure, arrival: $0.arrival) }
        #expect(mine.sorted { $0.rides < $1.rides } == theirs.sorted { $0.rides < $1.rides }, sourceLocation: sourceLocation)
    }

    /// Depart at 08:30. stop_times.txt: trip 3650748WKDY of route 01 (Antioch – SFIA,
    /// short name empty, so its id prints) leaves 12TH at 08:30:00 and reaches SFIA at
    /// 09:14:00 without a change; nothing with a change arrives earlier.
    @Test("12TH → SFIA leaving at 08:30: the exact journeys, as the reference finds them")
    func departAt() throws {
        let (n, snapshot) = try Self.network()
        #expect(try n.journeys("12TH", "SFIA", at: "8:30", on: Self.date, reference: Self.date) == [
            "12TH ~ 01 8:30-9:14 ~ SFIA",
        ])
        try Self.expectSameAsReference(n, snapshot, arriveBy: false)
    }

    /// Arrive by 08:30: trip 3850703WKDY of route 01, 12TH 07:45:00 → SFIA 08:29:00, the
    /// latest departure that arrives in time (the 08:00 one arrives at 08:44).
    @Test("12TH → SFIA arriving by 08:30: the exact journeys, as the reference finds them")
    func arriveBy() throws {
        let (n, snapshot) = try Self.network()
        #expect(try n.journeys("12TH", "SFIA", at: "8:30", on: Self.date, arriveBy: true, reference: Self.date) == [
            "12TH ~ 01 7:45-8:29 ~ SFIA",
        ])
        try Self.expectSameAsReference(n, snapshot, arriveBy: true)
    }
}
