import Timetable
import TransitModel

/// How busy each stop is: the trips calling there on its feed's typical day, what puts a
/// busy station before a halt of a similar name in a list of stops found by name.
///
/// A feed's typical day is the day on which the most of its trips run (a weekday, for
/// most feeds: one fixed day, so counts compare within a feed). A call is a trip
/// stopping where boarding or alighting is allowed: a terminus counts the trips that
/// end there as well as those that leave (departures alone would halve every terminus).
/// Counted once, when the search is built.
struct StopImportance: Sendable {
    /// Feed -> its typical day (days since `Timetable.firstDay`), or -1 when nothing runs.
    let typicalDay: [Int]
    // Stop -> calls on its feed's typical day (stations: 0; the search adds their platforms').
    let calls: [Int32]

    init(_ tt: Timetable, _ snapshot: FeedSnapshot) {
        let feedCount = max(1, snapshot.feedIds.count)
        func feed(_ r: Int) -> Int { Int(snapshot.routes[tt.routeSourceRoute[r].index].feed) }
        func trips(_ r: Int) -> Int { Int(tt.routeTripOffsets[r + 1] - tt.routeTripOffsets[r]) }
        // Trips run per feed and day.
        var perDay = [[Int]](repeating: [Int](repeating: 0, count: tt.dayCount), count: feedCount)
        for r in 0..<tt.routeCount where trips(r) > 0 {
            let f = feed(r), service = tt.routeService[r]
            for d in 0..<tt.dayCount where tt.serviceRuns(service, day: d) { perDay[f][d] += trips(r) }
        }
        typicalDay = perDay.map { days in
            guard let top = days.max(), top > 0 else { return -1 }
            return days.firstIndex(of: top)!
        }
        var calls = [Int32](repeating: 0, count: tt.stopCount)
        for r in 0..<tt.routeCount where trips(r) > 0 {
            let day = typicalDay[feed(r)]
            guard day >= 0, tt.serviceRuns(tt.routeService[r], day: day) else { continue }
            for i in Int(tt.routeStopOffsets[r])..<Int(tt.routeStopOffsets[r + 1]) where tt.routeCanBoard[i] || tt.routeCanAlight[i] {
                calls[tt.routeStops[i].index] += Int32(trips(r))
            }
        }
        self.calls = calls
    }

    /// Where the trips leaving `stops` on the typical day go: the last stop most of them
    /// end at (its index), or nil when none leaves there.
    func mainDestination(_ stops: [Int], _ tt: Timetable, _ snapshot: FeedSnapshot) -> Int? {
        var count: [Int: Int] = [:]
        for s in stops {
            for k in Int(tt.stopRouteOffsets[s])..<Int(tt.stopRouteOffsets[s + 1]) {
                let r = tt.stopRouteRoute[k].index
                let first = Int(tt.routeStopOffsets[r]), last = Int(tt.routeStopOffsets[r + 1]) - 1
                let i = first + tt.stopRoutePosition[k].index
                let day = typicalDay[Int(snapshot.routes[tt.routeSourceRoute[r].index].feed)]
                guard i < last, tt.routeCanBoard[i], day >= 0, tt.serviceRuns(tt.routeService[r], day: day) else { continue }
                count[tt.routeStops[last].index, default: 0] += Int(tt.routeTripOffsets[r + 1] - tt.routeTripOffsets[r])
            }
        }
        // Most trips; among equals the lower stop index (the same answer every time).
        return count.max { ($0.value, -$0.key) < ($1.value, -$1.key) }?.key
    }
}
