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
}
