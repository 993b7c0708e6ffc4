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

/// The rider's filter (docs/routing-model.md, "What a rider is shown") on the cases a rider
/// saw, on real feeds: the text a rider reads, then each shown option's cost and the
/// model's journeys that are not shown, with their cost and the limit they are over;
/// compared with `Tests/Golden/rider-filter.txt`. A difference fails; to change it on
/// purpose, run with `TRANSIT_RECORD_GOLDEN=1` and review the diff.
@Suite(.serialized) struct RiderFilterGoldenTests {
    struct Trip: Sendable {
        let file: String
        let from: String
        let to: String
        let at: String
        var arriveBy = false
        /// The case it shows.
        let why: String
    }

    static let trips: [Trip] = RiderFilterCases.trips

    @Test("the seen cases: what is shown, recommended and labelled matches the recorded text")
    func golden() throws {
        var planners: [String: JourneyPlanner] = [:]
        var text = ""
        for trip in Self.trips {
            if planners[trip.file] == nil {
                let (snapshot, _) = try SnapshotSink.load(path: FeedFixtures.feed(trip.file), feedId: String(trip.file.dropLast(4)))
                planners[trip.file] = JourneyPlanner(network: try TimetableBuilder.build(snapshot))
            }
            let planner = planners[trip.file]!
            text += "# \(trip.why)\n"
            text += "$ transit plan --gtfs \(trip.file) \(trip.from) \(trip.to) \(trip.arriveBy ? "--arrive-by" : "--at") \(trip.at)\n"
            let query = PlanQuery(from: Place.parse(trip.from)!, to: Place.parse(trip.to)!, time: QueryTime.parse(trip.at)!,
                                  arriveBy: trip.arriveBy)
            let outcome = planner.answer(query)
            text += try GoldenText.text(outcome, from: trip.from, to: trip.to, planner: planner)
            if case .itineraries(let answer) = outcome { text += Self.costs(answer) }
            text += "\n"
        }
        try GoldenText.check(text, "rider-filter.txt")
    }

    /// Each shown option's rider's cost, which is recommended and which is the model's
    /// first, then the model's journeys not shown with their cost against the limit.
    static func costs(_ a: PlanAnswer) -> String {
        let zone = TimeZone(identifier: a.result.timeZone)!
        func clock(_ t: Int64) -> String { ItineraryText.clock(t, zone) }
        var out = "Rider's cost:"
        for (i, o) in a.options.enumerated() {
            var marks: [String] = []
            if i == a.recommended { marks.append("recommended") }
            if i == a.modelFirst { marks.append("model's first") }
            out += " \(i + 1): \(Words.duration(o.riderCost.seconds))" + (marks.isEmpty ? "" : " (\(marks.joined(separator: ", ")))")
            out += i == a.options.count - 1 ? "\n" : ";"
        }
        let limit = RiderCost.limit(best: a.options.map(\.riderCost.seconds).min()!)
        for j in a.result.journeys where !a.options.contains(where: { $0.journey == j }) {
            let cost = RiderCost(j, time: a.result.time, arriveBy: a.arriveBy, window: a.window)
            out += "Not shown: \(clock(j.departure)) → \(clock(j.arrival)), \(j.rides) ride\(j.rides == 1 ? "" : "s"), "
                + "cost \(Words.duration(cost.seconds))"
                + (cost.limitedSeconds > limit ? " over the limit of \(Words.duration(limit))\n" : ", not faster than walking\n")
        }
        return out
    }
}
