import Coverage
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

/// Honest edges (issue 19), as a rider reads them, on real shared feeds, compared with
/// `Tests/Golden/edges.txt` (docs/routing-model.md, "Coverage regions"): the places a feed
/// only reaches, listed apart from its region, and a trip to one saying so first; a place
/// far from every stop (in the Bay, in the Potomac) refused with how far the nearest stop
/// is; `wheelchair` where nothing is marked; `modes` naming a mode the region does not
/// have, and the common names of modes. To change the text on purpose, run with
/// `TRANSIT_RECORD_GOLDEN=1` and review the diff.
@Suite struct EdgesGoldenTests {
    struct Trip: Sendable {
        let from: String
        let to: String
        let at: String
        var modes: String? = nil
        var wheelchair = false
        /// Why this trip is here (printed above it).
        var why: String
    }

    /// Per feed: whether its coverage report's "also reached" lines are shown, and its trips.
    static let feeds: [(name: String, alsoReached: Bool, trips: [Trip])] = [
        ("caltrain", true, [
            Trip(from: "stop:Gilroy Caltrain", to: "stop:Morgan Hill Caltrain", at: "2009-03-03T05:30:00",
                 why: "Between two outlying stations (Caltrain reaches Gilroy and Morgan Hill with a few peak trains): "
                    + "answered, saying first that local transit there is not covered."),
            Trip(from: "37.7764,-122.3943", to: "stop:Gilroy Caltrain", at: "2009-03-03T16:30:00",
                 why: "From San Francisco to Gilroy: the destination is only reached."),
            Trip(from: "37.7764,-122.3943", to: "37.4434,-122.1651", at: "2009-03-03T07:00:00", modes: "metro",
                 why: "No metro on the Peninsula."),
            Trip(from: "37.7764,-122.3943", to: "37.4434,-122.1651", at: "2009-03-03T07:00:00", wheelchair: true,
                 why: "Wheelchair on a feed that marks no stop and no trip: said first, in one sentence."),
        ]),
        ("bart-2018", false, [
            Trip(from: "37.7600,-122.3300", to: "stop:12TH", at: "2018-06-05T08:30:00",
                 why: "An origin in the middle of San Francisco Bay: refused, with how far the nearest stop is."),
            Trip(from: "stop:12TH", to: "stop:SFIA", at: "2018-06-05T08:30:00", wheelchair: true,
                 why: "Wheelchair where every stop and trip is marked: planned."),
            Trip(from: "stop:12TH", to: "stop:SFIA", at: "2018-06-05T08:30:00", modes: "TRAM",
                 why: "A mode the region does not have."),
            Trip(from: "stop:12TH", to: "stop:SFIA", at: "2018-06-05T08:30:00", modes: "underground",
                 why: "A common name: underground is the metro."),
        ]),
        ("wmata-rail-2026", false, [
            Trip(from: "38.7900,-77.0300", to: "38.8977,-77.0063", at: "2026-05-05T08:15:00",
                 why: "An origin in the Potomac, south of Alexandria."),
            Trip(from: "38.9595,-77.3580", to: "38.8480,-77.0420", at: "2026-05-05T09:00:00",
                 why: "Just beyond walking distance of Wiehle-Reston East: the nearest stop is named."),
            Trip(from: "38.8977,-77.0063", to: "38.8690,-77.0537", at: "2026-05-05T08:15:00", wheelchair: true,
                 why: "Wheelchair where stops are marked but no trip: refused in one sentence, not \"no connection\"."),
            Trip(from: "38.8977,-77.0063", to: "38.8690,-77.0537", at: "2026-05-05T08:15:00", modes: "light-rail,streetcar,ferry",
                 why: "Several modes, none in the region."),
        ]),
        ("sacramento-sacrt-2024", false, [
            Trip(from: "38.5802,-121.4936", to: "38.6780,-121.1760", at: "2024-06-18T08:00:00", modes: "light-rail",
                 why: "light-rail is the tram: Sacramento's light rail only."),
            Trip(from: "38.5802,-121.4936", to: "38.6780,-121.1760", at: "2024-06-18T08:00:00", modes: "hovercraft",
                 why: "A name that is no mode: the accepted ones are listed."),
            Trip(from: "38.5802,-121.4936", to: "38.6780,-121.1760", at: "2024-06-18T08:00:00", modes: "-bus,-light_rail",
                 why: "Every mode the region has excluded."),
        ]),
    ]


    /// One feed's section of the golden text.
    static func section(_ name: String, alsoReached: Bool, trips: [Trip]) throws -> String {
        let (snapshot, _) = try SnapshotSink.load(path: FeedFixtures.feed(name), feedId: name)
        let network = try TimetableBuilder.build(snapshot)
        let planner = JourneyPlanner(network: network)
        var text = "== \(name)\n\n"
        if alsoReached {
            let regions = try CoverageBuilder.regions(network, levels: planner.serviceLevels)
            let report = CoverageReport.make(regions, timetable: network, today: ServiceDate(year: 2020, month: 1, day: 1)!)
            text += "$ transit coverage (its \"also reached\" lines)\n"
            for line in report.text().split(separator: "\n") where line.contains("also reached") || line.contains("more places") {
                text += line + "\n"
            }
            text += "\n"
        }
        for trip in trips {
            var query = PlanQuery(from: Place.parse(trip.from)!, to: Place.parse(trip.to)!, time: QueryTime.parse(trip.at)!)
            query.wheelchair = trip.wheelchair
            text += "# \(trip.why)\n$ transit plan \(trip.from) \(trip.to) --at \(trip.at)"
                + (trip.modes.map { " --modes \($0)" } ?? "") + (trip.wheelchair ? " --wheelchair" : "") + "\n"
            let outcome: PlanOutcome
            do throws(PlanError) {
                if let m = trip.modes { query.modes = try ModeFilter.parse(m) }
                outcome = planner.answer(query)
            } catch {
                outcome = .noItinerary(error)
            }
            text += try GoldenText.text(outcome, from: trip.from, to: trip.to, planner: planner)
            text += "\n"
        }
        return text
    }

    @Test("honest edges read as recorded in Tests/Golden/edges.txt")
    func golden() throws {
        var text = ""
        for feed in Self.feeds { text += try Self.section(feed.name, alsoReached: feed.alsoReached, trips: feed.trips) }
        try GoldenText.check(text, "edges.txt")
    }
}
