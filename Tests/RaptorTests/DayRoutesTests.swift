import FeedNetwork
import Foundation
import GTFS
@testable import Raptor
import Testing
import Timetable
import TransitModel
import TransitTesting

/// `DayRoutes`' hop bounds (the shortest ride of each hop, hour by hour, that
/// `RaptorRouter.lowerBounds` prunes with), checked against a count made here run by run
/// over every stop event of the days: the table skips the runs of routes that keep one
/// pace, so it must come out the same as looking at each of them.
@Suite struct DayRoutesTests {
    @Test("hop hours = each run's ride, hour by hour", arguments: [
        ("bart-2018", true), ("caltrain", false), ("sacramento-sacrt-2024", false), ("wmata-rail-2026", false),
    ])
    func hopHours(_ feed: String, bundled: Bool) throws {
        let (tt, busiest) = try feedTimetable(feed, bundled: bundled)
        // The feed's busiest day with the days around it, as a query asks for them.
        let days = [busiest - 1, busiest, busiest + 1]
        let running = DayRoutes(timetable: tt, days: days)
        // (hop, hour) -> the shortest ride, from every run of every entry on its days.
        var expected: [[Int32: UInt16]] = Array(repeating: [:], count: running.predecessor.count)
        var onePace = 0, runs = 0
        for s in 0..<tt.stopCount {
            let hops = Int(running.predecessorOffsets[s])..<Int(running.predecessorOffsets[s + 1])
            for i in Int(running.stopOffsets[s])..<Int(running.stopOffsets[s + 1]) where running.entries[i].position.raw > 0 {
                let r = running.entries[i].route.index, pos = running.entries[i].position.index
                let before = tt.routeStops[Int(tt.routeStopOffsets[r]) + pos - 1]
                let h = try #require(hops.first { running.predecessor[$0] == before })
                let trips = Int(tt.routeTripOffsets[r])..<Int(tt.routeTripOffsets[r + 1])
                if Set(trips.map { tt.runTimes[$0].row }).count == 1 { onePace += 1 }
                for (k, day) in days.enumerated() where running.entries[i].days & (1 << UInt8(k)) != 0 {
                    let base = tt.dayBase[Int(tt.routeTimeZone[r]) * tt.dayCount + day] - running.origin
                    for j in 0..<trips.count {
                        runs += 1
                        let leave = tt.departure(route: r, position: pos - 1, run: j)
                        let hour = Int32((base + Int64(leave)) / 3600)
                        let ride = UInt16(max(0, min(tt.arrival(route: r, position: pos, run: j) - leave, Int32(DayRoutes.noRide) - 1)))
                        expected[h][hour] = min(expected[h][hour] ?? DayRoutes.noRide, ride)
                    }
                }
            }
        }
        #expect(runs > 1000 && onePace > 0, "\(feed): a busy day with routes of one pace")
        for h in 0..<expected.count {
            let first = running.hopFirstHour[h], offset = Int(running.hopHourOffsets[h])
            let count = Int(running.hopHourOffsets[h + 1]) - offset
            var got: [Int32: UInt16] = [:]
            for b in 0..<count where running.hopHourSeconds[offset + b] != DayRoutes.noRide {
                got[first + Int32(b)] = running.hopHourSeconds[offset + b]
            }
            #expect(got == expected[h], "\(feed): hop \(h)")
            if let lo = expected[h].keys.min(), let hi = expected[h].keys.max() {
                #expect(first == lo && count == Int(hi - lo) + 1, "\(feed): hop \(h)'s hours")
            }
        }
        // Narrowed to a set of hours (what a range search's bounds read), asked for twice
        // (the second from the windows kept), and past the windows kept and back.
        let hours = expected.flatMap(\.keys)
        let (low, high) = (hours.min() ?? 0, hours.max() ?? 0)
        let windows = stride(from: low - 1, through: high + 1, by: 3).map { $0...($0 + 4) } + [high...(high + 8), (low - 5)...(low - 1)]
        for _ in 0..<2 {
            for w in windows + windows.reversed() + stride(from: low, through: low + Int32(DayRoutes.keptWindows) + 2, by: 1).map({ $0...$0 }) {
                let got = running.hopSeconds(hours: w)
                let want = expected.map { e in e.filter { w.contains($0.key) }.values.min() ?? DayRoutes.noRide }
                #expect(got == want, "\(feed): hours \(w)")
            }
        }
    }

    /// Feeds joined by footpaths are one region (BART and Caltrain meet at Millbrae and
    /// San Bruno), a feed 130 km away is another (Sacramento), and the routes running on a
    /// request's days are made only for its ends' regions: BART's request gets BART's and
    /// Caltrain's routes and none of Sacramento's, with the same entries at their stops as
    /// the table of every feed.
    @Test("regions: feeds joined by footpaths, and the tables made for them")
    func regions() throws {
        let feeds = [("bart-2018", try FeedFixtures.bundledFeed("bart-2018")), ("caltrain", try FeedFixtures.sharedFeed("caltrain")),
                     ("sacramento-sacrt-2024", try FeedFixtures.sharedFeed("sacramento-sacrt-2024"))]
        let snapshot = FeedSnapshot.merging(try feeds.map { try SnapshotSink.load(path: $0.1, feedId: $0.0).0 })
        let tt = try TimetableBuilder.build(snapshot).timetable
        let regions = FeedRegions(tt)
        #expect(regions.region.count == 3)
        #expect(regions.region[0] == regions.region[1], "BART and Caltrain are one region")
        #expect(regions.region[2] != regions.region[0], "Sacramento is another")
        let bay = regions.feeds(in: [regions.region[0]])
        #expect(bay == [true, true, false])
        // A day each region runs (BART's feed and Sacramento's are six years apart).
        var seen = [false, false]
        for date in [ServiceDate(year: 2018, month: 6, day: 5)!, ServiceDate(year: 2024, month: 6, day: 18)!] {
            let d = Int(date.daysSinceEpoch - tt.firstDay.daysSinceEpoch)
            let all = DayRoutes(timetable: tt, days: [d - 1, d, d + 1]), some = DayRoutes(timetable: tt, days: [d - 1, d, d + 1], feeds: bay)
            for s in 0..<tt.stopCount {
                let mine = Int(some.stopOffsets[s])..<Int(some.stopOffsets[s + 1]), every = Int(all.stopOffsets[s])..<Int(all.stopOffsets[s + 1])
                if bay[tt.stopFeed[s].index] {
                    #expect(mine.map { some.entries[$0] } == every.map { all.entries[$0] })
                    if !mine.isEmpty { seen[0] = true }
                } else {
                    #expect(mine.isEmpty)
                    if !every.isEmpty { seen[1] = true }
                }
            }
        }
        #expect(seen == [true, true], "both regions run on one of the days")
    }
}
