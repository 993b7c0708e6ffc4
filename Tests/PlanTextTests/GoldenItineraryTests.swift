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

/// The text a rider reads, for a handful of fixed trips per real feed (alternatives,
/// steps, summary), compared with `Tests/Golden/<feed>.txt`. A difference fails; to
/// change the text on purpose, run with `TRANSIT_RECORD_GOLDEN=1` and review the diff.
@Suite struct GoldenItineraryTests {
    struct Trip: Sendable { let from: String; let to: String; let at: String; var arriveBy = false; var extra = "" }

    static let feeds: [(file: String, trips: [Trip])] = [
        ("bart-2018.zip", [
            Trip(from: "stop:12TH", to: "stop:SFIA", at: "2018-06-05T08:30:00"),
            // Oakland downtown to the Mission: walks at both ends.
            Trip(from: "37.8044,-122.2712", to: "37.7700,-122.4180", at: "2018-06-05T08:30:00"),
            Trip(from: "37.8044,-122.2712", to: "37.7700,-122.4180", at: "2018-06-05T18:00:00", arriveBy: true),
            // A change: Berkeley to Fremont.
            Trip(from: "stop:DBRK", to: "stop:DUBL", at: "2018-06-05T10:00:00"),
            // Two stations 800 m apart: the walk, and the train where faster.
            Trip(from: "stop:POWL", to: "stop:CIVC", at: "2018-06-05T17:10:00"),
        ]),
        ("caltrain.zip", [
            Trip(from: "37.7764,-122.3943", to: "37.4434,-122.1651", at: "2009-03-03T07:00:00"),
            Trip(from: "37.3297,-121.9030", to: "37.7764,-122.3943", at: "2009-03-03T17:30:00", arriveBy: true),
            // Late at night: nothing runs until the morning, past the window.
            Trip(from: "37.3297,-121.9030", to: "37.7764,-122.3943", at: "2009-03-03T23:50:00", extra: "maxTransfers=0"),
            // Caltrain runs no buses.
            Trip(from: "37.3297,-121.9030", to: "37.7764,-122.3943", at: "2009-03-03T08:00:00", extra: "modes=BUS"),
        ]),
        ("sacramento-sacrt-2024.zip", [
            // Downtown to Folsom: light rail, maybe a bus.
            Trip(from: "38.5802,-121.4936", to: "38.6780,-121.1760", at: "2024-06-18T08:00:00"),
            // Only buses.
            Trip(from: "38.5802,-121.4936", to: "38.5550,-121.4200", at: "2024-06-18T12:00:00", extra: "modes=BUS"),
        ]),
        ("wmata-rail-2026.zip", [
            // Union Station to the Pentagon: stations, platforms, a change.
            Trip(from: "38.8977,-77.0063", to: "38.8690,-77.0537", at: "2026-05-05T08:15:00"),
            Trip(from: "38.9477,-77.3403", to: "38.8480,-77.0420", at: "2026-05-05T09:00:00", arriveBy: true),
            // Too far from any station: the answer says how far.
            Trip(from: "38.9595,-77.3580", to: "38.8480,-77.0420", at: "2026-05-05T09:00:00"),
            // After the feed's last day of service.
            Trip(from: "38.8977,-77.0063", to: "38.8690,-77.0537", at: "2031-01-07T08:15:00"),
        ]),
    ]


    @Test("instructions and summaries match the recorded text", arguments: feeds.map(\.file))
    func golden(_ file: String) throws {
        let trips = Self.feeds.first { $0.file == file }!.trips
        let feedId = String(file.dropLast(4))
        let (snapshot, _) = try SnapshotSink.load(path: FeedFixtures.feed(file), feedId: feedId)
        let planner = JourneyPlanner(network: try TimetableBuilder.build(snapshot))
        var text = ""
        for trip in trips {
            var query = PlanQuery(from: Place.parse(trip.from)!, to: Place.parse(trip.to)!, time: QueryTime.parse(trip.at)!,
                                  arriveBy: trip.arriveBy)
            if trip.extra.hasPrefix("modes=") { query.modes = try ModeFilter.parse(String(trip.extra.dropFirst(6))) }
            if trip.extra.hasPrefix("maxTransfers=") { query.parameters.maxTransfers = Int(trip.extra.dropFirst(13))! }
            text += "$ transit plan \(trip.from) \(trip.to) \(trip.arriveBy ? "--arrive-by" : "--at") \(trip.at)"
                + (trip.extra.isEmpty ? "" : " --\(trip.extra)") + "\n"
            text += try GoldenText.text(planner.answer(query), from: trip.from, to: trip.to, planner: planner)
            text += "\n"
        }
        try GoldenText.check(text, feedId + ".txt")
    }
}
