import GTFS
@testable import Raptor
import Testing
import Timetable
import TransitModel
import TransitTesting
import FeedNetwork

/// The lower bounds a range search prunes with (`TargetBounds`), settled only as far as the
/// search needs, on random stop-to-stop queries over a real feed.
@Suite struct TargetBoundsTests {
    /// Seeded random stop-to-stop requests between 06:00 and 20:00 of `day` (UTC-based day
    /// start of the feed's first zone).
    static func requests(_ tt: Timetable, day: Int, count: Int, arriveBy: Bool, seed: UInt64) throws -> [RaptorRequest] {
        var g = SeededRandom(seed: seed)
        return try (0..<count).map { _ in
            let a = Int.random(in: 0..<tt.stopCount, using: &g), b = Int.random(in: 0..<tt.stopCount, using: &g)
            let time = tt.dayBase[day] + Int64.random(in: 6 * 3600...20 * 3600, using: &g)
            return try RaptorRequest(arriveBy: arriveBy, time: time, access: [StopWalk(stop: StopIndex(a), seconds: 0, meters: 0)],
                                     egress: [StopWalk(stop: StopIndex(b), seconds: 0, meters: 0)], days: [day - 1, day, day + 1],
                                     parameters: RoutingParameters(), timetable: tt)
        }
    }

    /// A range search settles the bounds only below (the destination's best - its start):
    /// every stop closer than that has its exact bound, every other one a bound no higher
    /// than its own and at least that far, so the search prunes exactly the labels the
    /// whole table would prune.
    @Test("bounds settled part of the way bound what the whole table does")
    func partlySettled() throws {
        let (tt, day) = try feedTimetable("bydgoszcz-2020", bundled: false)
        let router = RaptorRouter(timetable: tt)
        for request in try Self.requests(tt, day: day, count: 40, arriveBy: false, seed: 3) {
            let t = router.tables(request)
            let boarding = request.time..<(request.time + 3 * 3600)
            let make = { router.lowerBounds(request, t, boarding: boarding) }
            let whole = make().all()
            for radius: Int64 in [0, 600, 1800, 3600] {
                var part = make()
                part.settle(below: radius)
                for s in 0..<tt.stopCount {
                    // Never above the true bound, and exact below the radius.
                    #expect(part.at(s) <= whole[s])
                    if whole[s] < radius { #expect(part.at(s) == whole[s]) } else { #expect(part.at(s) >= radius || part.at(s) == whole[s]) }
                }
            }
        }
    }

    /// The bounds' heap (four children a node) gives back every entry, smallest value first,
    /// with pushes and pops interleaved as the Dijkstra search makes them, duplicates and
    /// all: checked against a sorted list of what it holds.
    @Test("the bounds' heap pops its entries smallest first")
    func heapOrder() {
        var g = SeededRandom(seed: 7)
        for round in 0..<200 {
            var heap = MinHeap(), held: [Int64] = []
            #expect(heap.pop() == nil && heap.min == nil)
            for _ in 0..<Int.random(in: 1...300, using: &g) {
                if held.isEmpty || Int.random(in: 0..<3, using: &g) > 0 {
                    // Small ranges repeat values; large ones spread them over the heap's levels.
                    let v = Int64.random(in: 0...(round % 2 == 0 ? 20 : 1 << 31), using: &g)
                    heap.push(v, StopIndex(Int(v % 1_000)))
                    held.append(v)
                } else {
                    let smallest = held.min()!
                    #expect(heap.min == smallest)
                    let (v, stop) = heap.pop()!
                    #expect(v == smallest && stop == StopIndex(Int(v % 1_000)))
                    held.remove(at: held.firstIndex(of: smallest)!)
                }
            }
            for expected in held.sorted() { #expect(heap.pop()?.0 == expected) }
            #expect(heap.pop() == nil)
        }
    }
}
