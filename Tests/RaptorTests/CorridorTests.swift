@testable import Raptor
import Testing
import Timetable
import TransitModel
import TransitTesting

/// The searches that find the other end of each journey (the model's latest departure for
/// an earliest arrival, or the reverse) prune with the first search's labels
/// (`Search.corridor`): the answers, legs included, are the same as without.
@Suite struct CorridorTests {
    /// Seeded random requests on `day` between 05:00 and 23:00: half stop to stop, half
    /// with several access and egress walks (the stops up to 12 positions on from a random
    /// one, with walks of 0 to 600 s), some with a ride filter that leaves routes out.
    static func requests(_ tt: Timetable, day: Int, count: Int, arriveBy: Bool, seed: UInt64) throws -> [RaptorRequest] {
        var g = SeededRandom(seed: seed)
        func walks() -> [StopWalk] {
            let first = Int.random(in: 0..<tt.stopCount, using: &g)
            let n = Bool.random(using: &g) ? 1 : Int.random(in: 2...12, using: &g)
            return (0..<n).map { i in
                let seconds = n == 1 ? 0 : Int64.random(in: 0...600, using: &g)
                return StopWalk(stop: StopIndex((first + i * 7) % tt.stopCount), seconds: seconds, meters: Double(seconds))
            }
        }
        return try (0..<count).map { _ in
            let access = walks(), egress = walks()
            let time = tt.dayBase[day] + Int64.random(in: 5 * 3600...23 * 3600, using: &g)
            var filter = RideFilter()
            if Int.random(in: 0..<4, using: &g) == 0 {
                filter.routes = (0..<tt.routeCount).map { _ in Int.random(in: 0..<5, using: &g) != 0 }
            }
            return try RaptorRequest(arriveBy: arriveBy, time: time, access: access, egress: egress, days: [day - 1, day, day + 1],
                                     parameters: RoutingParameters(), filter: filter, timetable: tt)
        }
    }

    func check(_ feed: String, bundled: Bool, count: Int) throws {
        let (tt, day) = try feedTimetable(feed, bundled: bundled)
        let router = RaptorRouter(timetable: tt)
        var journeys = 0, refined = 0
        for arriveBy in [false, true] {
            for request in try Self.requests(tt, day: day, count: count, arriveBy: arriveBy, seed: arriveBy ? 11 : 7) {
                let with = router.route(request)
                let without = router.modelSearch(request, router.tables(request), corridor: false)
                #expect(with == without, "\(feed) \(arriveBy ? "arrive-by" : "depart-at") at \(request.time)")
                journeys += with.count
                // Journeys whose other end the second search moved (a later departure, an
                // earlier arrival): the corridor had something to keep.
                let first = router.modelSearch(request, router.tables(request), corridor: false, refine: false)
                refined += zip(first, with).filter { $0.departure != $1.departure || $0.arrival != $1.arrival }.count
            }
        }
        // The queries find journeys, and some of them are refined: the comparison is not empty.
        #expect(journeys > count)
        #expect(refined > 0)
    }

    @Test("bydgoszcz-2020: the same journeys with and without the corridor")
    func bydgoszcz() throws { try check("bydgoszcz-2020", bundled: false, count: 150) }

    @Test("caltrain: the same journeys with and without the corridor")
    func caltrain() throws { try check("caltrain", bundled: true, count: 150) }
}
