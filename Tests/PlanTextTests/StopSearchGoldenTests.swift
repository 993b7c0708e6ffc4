import FeedNetwork
import Foundation
import GTFS
import Planner
import PlanText
import Testing
import Timetable
import TransitModel
import TransitTesting

/// What a rider finds by typing a place name, on real feeds, compared with
/// `Tests/Golden/stop-search.txt`: per query, the stop search's rows as `/v1/stops` gives
/// them (best first, with the trips calling on the typical day, how each was found and what
/// tells rows of one name apart), then what `transit plan` makes of it (the place, or the
/// choice it offers). A difference fails; to change the text on purpose, run with
/// `TRANSIT_RECORD_GOLDEN=1` and review the diff.
@Suite struct StopSearchGoldenTests {
    static let feeds: [(files: [String], queries: [String])] = [
        (["bart-2018.zip"], [
            // Codes and ids, initials, the airport by a plain word, words in any order.
            "SFIA", "POWL", "sfia", "ccup", "SF airport", "airport", "Airport San Francisco", "San Francisco Intl Airport",
            // "City, Station" and "Name station".
            "Oakland, 12th St", "Powell station", "San Francisco, Powell",
            // Stops of one name: what tells them apart.
            "MacArthur", "19th St",
            // Airports by IATA code (a stop named for an airport within 3 km of it).
            "SFO", "OAK", "sfo",
        ]),
        (["caltrain.zip"], [
            "South San Francisco", "California Avenue", "San Jose, Caltrain", "Millbrae station", "San Jose Diridon",
        ]),
        (["bart-2018.zip", "caltrain.zip"], ["Millbrae", "San Bruno", "So San Francisco"]),
        (["bydgoszcz-2020.zip"], [
            // The main station first (Dworzec Główny: its other word says "main"), though Dworzec Wschód is busier.
            "Dworzec", "Dworzec Wschód", "Bydgoszcz, Dworzec Główny", "2033", "Rondo", "Rondo Jagiellonów",
            // A place of two stops, both listed; the airport by its code.
            "Dworzec Bielawy", "BZG",
        ]),
        (["wmata-rail-2026.zip"], ["Gallery Place", "Metro Center station", "airport", "national airport", "Pentagon", "DCA"]),
        // Two places of one name and one route, just over 500 m apart: where each lies.
        (["vilnius-2015.zip"], ["Stotis", "Žirmūnų žiedas", "Oro uostas", "Gariūnų st.", "VNO"]),
    ]


    @Test("what people type finds the stop; lists lead with the busiest; rows of one name told apart")
    func golden() throws {
        var text = ""
        for (files, queries) in Self.feeds {
            let snapshots = try files.map { try SnapshotSink.load(path: FeedFixtures.feed($0), feedId: String($0.dropLast(4).split(separator: "-")[0])).0 }
            let network = try TimetableBuilder.build(snapshots.count == 1 ? snapshots[0] : FeedSnapshot.merging(snapshots))
            let search = StopSearch(network: network)
            text += "== " + files.joined(separator: " + ") + "\n"
            for q in queries { text += Self.render(q, search, network) + "\n" }
        }
        try GoldenText.check(text, "stop-search.txt")
    }

    /// One query: the search's first eight rows, then `transit plan`'s reading of it.
    static func render(_ query: String, _ search: StopSearch, _ network: TransitNetwork) -> String {
        let snapshot = network.snapshot
        var text = "$ stops \"\(query)\"\n"
        let rows = search.search(query, limit: 8)
        if rows.isEmpty { text += "  (nothing)\n" }
        for (i, (m, d)) in zip(rows, search.distinctions(rows.map(\.stop))).enumerated() {
            let st = snapshot.stops[m.stop.index]
            text += "  \(i + 1). \(st.name)" + (d.map { " [\($0)]" } ?? "")
                + " — \(snapshot.feedIds[Int(st.feed)]) \(st.stopId), score \(String(format: "%g", (m.score * 1000).rounded() / 1000)), "
                + "\(search.calls(m.stop)) calls a day (\(search.placeCalls(m.stop)) at its place)" + (m.foundBy.map { ", by \($0)" } ?? "") + "\n"
        }
        text += "$ transit plan \"\(query)\" …\n"
        switch PlaceFinder.decide(PlaceFinder.group(PlaceFinder.candidates(search.search(query, limit: PlaceFinder.searchLimit), network))) {
        case .found(let place):
            text += "  from \(place.name) (\(place.detail))\n"
        case .ambiguous(let places):
            text += "  Which \"\(query)\" do you mean?\n"
            for (i, p) in places.enumerated() { text += "    \(i + 1). \(p.name) (\(p.detail))\n" }
        case .notFound:
            text += "  no stop is called \"\(query)\"\n"
        }
        return text
    }
}
