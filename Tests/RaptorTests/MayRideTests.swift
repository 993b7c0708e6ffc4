import FeedNetwork
import GTFS
@testable import Raptor
import Testing
import Timetable
import TransitModel
import TransitTesting

/// The check before a request's searches (`RaptorRouter.mayRide`): when no run leaves an
/// access stop, or none arrives at an egress stop, on the request's side of its time, the
/// searches are not run. It must only ever skip searches that would have found nothing.
@Suite struct MayRideTests {
    /// Wherever the check says no ride, the searches themselves (the model's and a 60-minute
    /// range) find no journey. On seeded random requests of three days (D - 1, D, D + 1, as
    /// the planner makes them: tomorrow's runs mostly leave something to search); on the
    /// same with two days only, at the end of the service (depart-at from 20:00 on, days D - 1
    /// and D) or at its start (arrive-by until 08:00, days D and D + 1), where the check's
    /// times decide; and on the same moved to where every run has ended (depart-at two
    /// days on) or none has begun (arrive-by two days back), which the check must catch.
    func check(_ feed: String, bundled: Bool, count: Int) throws {
        let (tt, day) = try feedTimetable(feed, bundled: bundled)
        let router = RaptorRouter(timetable: tt)
        var skipped = 0, searched = 0, edgeSkipped = 0, edgeSearched = 0
        for arriveBy in [false, true] {
            let random = try CorridorTests.requests(tt, day: day, count: count, arriveBy: arriveBy, seed: arriveBy ? 23 : 19)
            func moved(_ r: RaptorRequest, time: Int64, days: [Int]) throws -> RaptorRequest {
                try RaptorRequest(arriveBy: arriveBy, time: time, access: r.access, egress: r.egress, days: days,
                                  parameters: r.parameters, filter: r.filter, timetable: tt)
            }
            let edge = try random.enumerated().map { i, r in
                // Minutes spread over six hours: 20:00-26:00 (depart-at), 02:00-08:00 (arrive-by).
                let minutes = Int64(i * 37 % 360)
                return arriveBy ? try moved(r, time: tt.dayBase[day] + 2 * 3600 + minutes * 60, days: [day, day + 1])
                                : try moved(r, time: tt.dayBase[day] + 20 * 3600 + minutes * 60, days: [day - 1, day])
            }
            let outside = try random.prefix(count / 3).map { try moved($0, time: $0.time + (arriveBy ? -2 : 2) * 86_400, days: $0.days) }
            for (i, request) in (random + edge + outside).enumerated() {
                let t = router.tables(request)
                let isEdge = i >= random.count && i < random.count + edge.count
                if router.mayRide(request, t) {
                    searched += 1; if isEdge { edgeSearched += 1 }
                    continue
                }
                skipped += 1; if isEdge { edgeSkipped += 1 }
                #expect(router.modelSearch(request, t).isEmpty, "\(feed) #\(i): the model's search finds a journey the check ruled out")
                if !arriveBy {
                    #expect(router.range(request, window: 3600, t).isEmpty, "\(feed) #\(i): the range finds a journey the check ruled out")
                }
            }
            // Every request moved outside the service is caught.
            for request in outside { #expect(!router.mayRide(request, router.tables(request))) }
        }
        // The check both skipped and let through requests at the service's ends: the
        // comparison there is not empty either way.
        #expect(skipped >= 2 * (count / 3) && searched > count, "\(feed): skipped \(skipped), searched \(searched)")
        #expect(edgeSkipped > 0 && edgeSearched > 0, "\(feed): at the ends, skipped \(edgeSkipped), searched \(edgeSearched)")
    }

    @Test("bydgoszcz-2020: requests the check rules out find nothing when searched")
    func bydgoszcz() throws { try check("bydgoszcz-2020", bundled: false, count: 150) }

    @Test("caltrain: requests the check rules out find nothing when searched")
    func caltrain() throws { try check("caltrain", bundled: true, count: 150) }

    /// The case that made the check: bydgoszcz-2020's line 40 runs only at weekends, and
    /// its stop Ostromecko (13025) is only ever its first stop. On a weekday no ride ends
    /// there (Sunday's runs, the day before, only leave it), and none leaves it after
    /// Sunday evening: both ways, the answer is no journey, without a search, and a search
    /// agrees.
    @Test("bydgoszcz-2020: to and from a stop only a weekend line's first stop, on a weekday, nothing without a search")
    func weekendTerminus() throws {
        let path = try FeedFixtures.sharedFeed("bydgoszcz-2020")
        let (snapshot, _) = try SnapshotSink.load(path: path, feedId: "bydgoszcz-2020")
        let tt = try TimetableBuilder.build(snapshot).timetable
        #expect(tt.stopCount == snapshot.stops.count)
        let ostromecko = try #require(snapshot.stops.firstIndex { $0.stopId == "13025" })
        let center = try #require(snapshot.stops.firstIndex { $0.stopId == "4001" })
        // Monday 2020-05-04: Sunday, Monday and Tuesday.
        let monday = try #require(ServiceDate(year: 2020, month: 5, day: 4))
        let day = Int(monday.daysSinceEpoch - tt.firstDay.daysSinceEpoch)
        try #require(day >= 2 && day + 1 < tt.dayCount)
        let router = RaptorRouter(timetable: tt)
        for (from, to) in [(center, ostromecko), (ostromecko, center)] {
            for hour in [6, 9, 13, 18] {
                let request = try RaptorRequest(arriveBy: false, time: tt.dayBase[day] + Int64(hour * 3600),
                                                access: [StopWalk(stop: StopIndex(from), seconds: 0, meters: 0)],
                                                egress: [StopWalk(stop: StopIndex(to), seconds: 0, meters: 0)],
                                                days: [day - 1, day, day + 1], parameters: RoutingParameters(), timetable: tt)
                let t = router.tables(request)
                #expect(!router.mayRide(request, t), "from \(from) to \(to) at \(hour):00")
                #expect(router.route(request).isEmpty)
                #expect(router.modelSearch(request, t).isEmpty)
            }
        }
        // The same stop is reached on a Sunday afternoon (from it: it is the line's first stop).
        let sunday = day - 1
        let request = try RaptorRequest(arriveBy: false, time: tt.dayBase[sunday] + 11 * 3600,
                                        access: [StopWalk(stop: StopIndex(ostromecko), seconds: 0, meters: 0)],
                                        egress: [StopWalk(stop: StopIndex(center), seconds: 0, meters: 0)],
                                        days: [sunday - 1, sunday, sunday + 1], parameters: RoutingParameters(), timetable: tt)
        #expect(router.mayRide(request, router.tables(request)))
        #expect(!router.route(request).isEmpty)
    }
}
