import FeedNetwork
import Foundation
import GTFS
import Planner
import Testing
import TransitTesting

/// How long a stop search takes on bydgoszcz-2020 (a browser asks once per keystroke):
/// every stop name typed one letter at a time, each prefix of three letters or more a
/// query. Printed, not asserted: the machine may be shared.
@Suite struct StopSearchTimingTests {
    @Test("timing: bydgoszcz names typed letter by letter (median printed)")
    func keystrokes() throws {
        let (snapshot, _) = try SnapshotSink.load(path: FeedFixtures.sharedFeed("bydgoszcz-2020"), feedId: "bydgoszcz")
        let network = try TimetableBuilder.build(snapshot)
        let clock = ContinuousClock()
        var search: StopSearch?
        let built = clock.measure { search = StopSearch(network: network) }
        let s = try #require(search)
        var queries: [String] = []
        for name in Set(snapshot.stops.map(\.name)).sorted() {
            let chars = Array(name)
            if chars.count < 3 { queries.append(name); continue }
            for n in 3...chars.count { queries.append(String(chars.prefix(n))) }
        }
        // Each query's best of three runs.
        var best = [Duration](repeating: .seconds(1000), count: queries.count)
        var results = 0
        for pass in 0..<3 {
            for (i, q) in queries.enumerated() {
                let elapsed = clock.measure { let r = s.search(q); if pass == 0 { results += r.count } }
                best[i] = min(best[i], elapsed)
            }
        }
        func micro(_ d: Duration) -> String {
            String(format: "%.1f", (Double(d.components.seconds) * 1e18 + Double(d.components.attoseconds)) / 1e12)
        }
        let sorted = best.sorted()
        print("stop search timing, bydgoszcz-2020: index built in \(built); \(queries.count) keystroke queries, median "
              + "\(micro(sorted[sorted.count / 2])) µs, p90 \(micro(sorted[sorted.count * 9 / 10])) µs, p99 "
              + "\(micro(sorted[sorted.count * 99 / 100])) µs, max \(micro(sorted.last!)) µs; \(results) results")
        #expect(results > 0)
    }

    /// What the airports cost when the search is built (once, at assembly): reading the
    /// bundled table (once per process), and the search built with it and without any.
    /// Best of five builds each; printed, not asserted.
    @Test("timing: the search built with and without the airports (printed, not asserted)")
    func buildWithAirports() throws {
        let clock = ContinuousClock()
        func ms(_ d: Duration) -> String {
            String(format: "%.1f ms", (Double(d.components.seconds) * 1e18 + Double(d.components.attoseconds)) / 1e15)
        }
        var table: Airports?
        let read = clock.measure { table = Airports.bundled }
        let airports = try #require(table)
        #expect(airports.codes.count > 5000)
        for (file, id) in [("bart-2018", "bart"), ("bydgoszcz-2020", "bydgoszcz")] {
            let (snapshot, _) = try SnapshotSink.load(path: FeedFixtures.feed(file + ".zip"), feedId: id)
            let network = try TimetableBuilder.build(snapshot)
            var with = Duration.seconds(1000), without = Duration.seconds(1000)
            for _ in 0..<5 {
                with = min(with, clock.measure { _ = StopSearch(network: network, airports: airports) })
                without = min(without, clock.measure { _ = StopSearch(network: network, airports: Airports([])) })
            }
            print("stop search build, \(file): \(ms(with)) with the airports, \(ms(without)) without; "
                  + "the table read once per process in \(ms(read))")
        }
    }
}
