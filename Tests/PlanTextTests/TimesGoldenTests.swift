import FeedNetwork
import Foundation
import GTFS
import PlanJSON
import Planner
import PlanText
import Testing
import Timetable
import TransitModel
import TransitTesting

/// The times a rider reads (docs/routing-model.md, "Times as shown"), one golden trip per
/// point, on real feeds, compared with `Tests/Golden/times.txt` (rendered as `transit plan`
/// prints it, from the answer's document). To change the text on purpose, run with
/// `TRANSIT_RECORD_GOLDEN=1` and review the diff.
@Suite struct TimesGoldenTests {
    struct Trip: Sendable {
        /// Which point of "Times as shown" it shows.
        let why: String
        let from: String
        let to: String
        let at: String
        var arriveBy = false
        var option: Int?
        var maxTransfers: Int?
    }

    static let feeds: [(file: String, trips: [Trip])] = [
        ("caltrain.zip", [
            Trip(why: "the first train is the next morning: said before the table, and every time carries its day",
                 from: "37.3297,-121.9030", to: "37.7764,-122.3943", at: "2009-03-03T23:50:00", maxTransfers: 0),
            Trip(why: "arrive-by before the first train: the last arrival is the evening before",
                 from: "37.3297,-121.9030", to: "37.7764,-122.3943", at: "2009-03-04T05:30:00", arriveBy: true),
            Trip(why: "a few steps from the stop at both ends (under 10 m): no walk step, no walking, times that add up",
                 from: "37.77645,-122.39430", to: "37.44307,-122.16485", at: "2009-03-03T07:00:00"),
            Trip(why: "a walk at each end: each step lasts the minutes it says, the summary sums them",
                 from: "37.7764,-122.3943", to: "37.4434,-122.1651", at: "2009-03-03T07:00:00"),
        ]),
        ("bart-2018.zip", [
            Trip(why: "a change: its walk and wait add up to the time between the trains",
                 from: "stop:DBRK", to: "stop:DUBL", at: "2018-06-05T10:00:00"),
            Trip(why: "late at night: the last trains, then the morning's, each with its day",
                 from: "stop:DUBL", to: "stop:RICH", at: "2018-06-05T23:55:00"),
        ]),
        ("sacramento-sacrt-2024.zip", [
            // (BART's night case of this kind, the 00:44 train with a 3 h wait at Bay Fair, is
            // no longer shown: the rider's filter drops it.)
            Trip(why: "the model's first waits all night at a change (a direct bus is recommended): the waits read in hours, and add up",
                 from: "stop:3079", to: "stop:453", at: "2024-06-18T22:40:00", option: 0),
        ]),
        ("wmata-rail-2026.zip", [
            Trip(why: "a change with a walk between platforms: walk and wait fill the time between the trains",
                 from: "38.8977,-77.0063", to: "38.8690,-77.0537", at: "2026-05-05T08:15:00"),
        ]),
        ("bydgoszcz-2020.zip", [
            Trip(why: "the night clocks go back (Europe/Warsaw, 2020-10-25 03:00 → 02:00): which 02:xx",
                 from: "53.13475,17.99300", to: "53.12360,18.00700", at: "2020-10-25T02:35:00"),
            Trip(why: "arrive-by in the second 02:xx (an instant with its offset)",
                 from: "53.13475,17.99300", to: "53.12360,18.00700", at: "2020-10-25T02:50:00+01:00", arriveBy: true),
        ]),
    ]


    /// The text of `trips` on one feed, as `transit plan` prints it.
    static func text(_ file: String, _ trips: [Trip]) throws -> String {
        let feedId = String(file.dropLast(4))
        let (snapshot, _) = try SnapshotSink.load(path: FeedFixtures.feed(file), feedId: feedId)
        let planner = JourneyPlanner(network: try TimetableBuilder.build(snapshot))
        var text = ""
        for trip in trips {
            var query = PlanQuery(from: Place.parse(trip.from)!, to: Place.parse(trip.to)!, time: QueryTime.parse(trip.at)!,
                                  arriveBy: trip.arriveBy)
            if let m = trip.maxTransfers { query.parameters.maxTransfers = m }
            text += "# \(trip.why)\n$ transit plan \(trip.from) \(trip.to) \(trip.arriveBy ? "--arrive-by" : "--at") \(trip.at)"
                + (trip.maxTransfers.map { " --max-transfers \($0)" } ?? "") + (trip.option.map { " --option \($0 + 1)" } ?? "")
                + "   (\(feedId))\n"
            text += try GoldenText.text(planner.answer(query), from: trip.from, to: trip.to, option: trip.option, planner: planner)
            text += "\n"
        }
        return text
    }

    @Test("times carry their day, durations add up as printed, walks and waits follow one rule")
    func golden() throws {
        var text = ""
        for (file, trips) in Self.feeds { text += try Self.text(file, trips) }
        try GoldenText.check(text, "times.txt")
    }
}
