import FeedNetwork
import Foundation
import Timetable
import TransitModel

/// One vehicle leaving a stop: a row of `GET /v1/stops/{id}`.
public struct Departure: Sendable, Equatable {
    /// The stop (platform) it leaves from: index into `network.snapshot.stops`. For a
    /// station, one of its platforms.
    public var stop: StopIndex
    public var platformCode: String?
    /// The timetable route (trip pattern) and its source route (index into `snapshot.routes`).
    public var route: RouteIndex
    public var sourceRoute: SourceRouteIndex
    public var routeId: String
    public var routeShortName: String?
    public var routeLongName: String?
    public var routeColor: String?
    public var routeTextColor: String?
    public var mode: LegMode
    /// trip_headsign, or when the trip has none the name of its last stop (its station's
    /// name when it has one: a platform's name often says more than a rider needs).
    public var headsign: String?
    public var tripId: String
    /// The service date the trip belongs to: the day before the departure's calendar date
    /// for times past 24:00.
    public var serviceDate: ServiceDate
    /// UTC seconds since 1970.
    public var time: Int64
    /// The time zone `time` is shown in: the stop's feed's.
    public var timeZone: TimeZone
    /// False only when asked for (`includeNonBoarding`): the trip stops but takes no
    /// passengers here (pickup_type 1, or its last stop).
    public var boardingAllowed: Bool
}

extension JourneyPlanner {
    /// The next departures from `stop` (index into `snapshot.stops`) at or after `time` and
    /// at most `withinSeconds` later, by time, then route; at most `limit`.
    ///
    /// A station (location_type 1) lists its platforms' departures; an entrance or a node
    /// its station's, a boarding area its platform's. Only stop times where boarding is
    /// allowed, unless `includeNonBoarding` (then those have `boardingAllowed` false).
    /// A local `time` is read in the time zone of the stop's feed (its first agency's),
    /// and times are given with that zone's offset. Frequency-based trips count each run
    /// (the timetable holds them expanded). Nothing for an unknown stop index or an
    /// impossible date or time.
    public func departures(stop: StopIndex, after time: QueryTime, limit: Int = 10, withinSeconds: Int = 4 * 3600,
                           includeNonBoarding: Bool = false) -> [Departure] {
        let tt = timetable, stops = network.snapshot.stops
        guard stop.raw >= 0 && stop.index < stops.count, limit > 0, withinSeconds >= 0 else { return [] }
        let zone = self.zone(feedTimeZone(stops[stop.index].feed))
        let t: Int64
        switch time {
        case .instant(let u): t = u
        case .local(let y, let mo, let d, let h, let mi, let s):
            guard let date = ServiceDate(year: y, month: mo, day: d), (0..<24).contains(h), (0..<60).contains(mi),
                  (0..<61).contains(s) else { return [] }
            t = JourneyPlanner.instant(localSeconds: Int64(date.daysSinceEpoch) * 86_400 + Int64(h * 3600 + mi * 60 + s), zone: zone)
        }
        // Instants centuries away and windows longer than the timetable find nothing more:
        // bounded, they cannot overflow.
        guard t > -(1 << 40) && t < 1 << 40 else { return [] }
        let end = t + Int64(min(withinSeconds, (tt.dayCount + 4) * 86_400))

        // Where vehicles stop: the stop itself, or a station's boardable children.
        var at = stop.index
        if !tt.stopBoardable[at] && stops[at].locationType != 1 && stops[at].parent >= 0 { at = Int(stops[at].parent) }
        let platforms: [Int] = stops[at].locationType == 1
            ? network.stationChildren[StopIndex(at)].map(\.index).filter { tt.stopBoardable[$0] }
            : (tt.stopBoardable[at] ? [at] : [])

        // Candidates as (time, route, position in the route, trip within the route, day);
        // at most `limit` per route, position and day, since those come in time order.
        var found: [(time: Int64, route: RouteIndex, stop: StopIndex, position: RoutePosition, trip: Int32, day: Int32)] = []
        for p in platforms {
            for k in Int(tt.stopRouteOffsets[p])..<Int(tt.stopRouteOffsets[p + 1]) {
                let r = tt.stopRouteRoute[k].index, position = tt.stopRoutePosition[k].index
                let firstStop = Int(tt.routeStopOffsets[r]), stopCount = Int(tt.routeStopOffsets[r + 1]) - firstStop
                // The last stop: the trip ends here, whatever pickup_type says.
                let boards = tt.routeCanBoard[firstStop + position] && position < stopCount - 1
                if !boards && !includeNonBoarding { continue }
                let tripCount = Int(tt.routeTripOffsets[r + 1] - tt.routeTripOffsets[r])
                guard tripCount > 0 else { continue }
                let first = Int(tt.routeTripOffsets[r])
                // Trips keep their order at every stop: the first and last are the extremes.
                let earliest = Int64(tt.runTime(first, position)), latest = Int64(tt.runTime(first + tripCount - 1, position))
                let zoneDays = Int(tt.routeTimeZone[r]) * tt.dayCount
                // Service days whose trips can leave in [t, end]: day d starts at day0 +
                // 86,400 d give or take a daylight saving shift, hence a day's margin.
                let day0 = tt.dayBase[zoneDays]
                let firstDay = max(0, Int(floorDiv(t - latest - day0, 86_400)) - 1)
                let lastDay = min(tt.dayCount - 1, Int(floorDiv(end - earliest - day0, 86_400)) + 1)
                guard firstDay <= lastDay else { continue }
                for day in firstDay...lastDay where tt.serviceRuns(tt.routeService[r], day: day) {
                    let base = tt.dayBase[zoneDays + day]
                    // First trip leaving at or after t on this day (binary search).
                    var lo = 0, hi = tripCount
                    while lo < hi {
                        let mid = (lo + hi) / 2
                        if base + Int64(tt.runTime(first + mid, position)) < t { lo = mid + 1 } else { hi = mid }
                    }
                    var j = lo
                    while j < tripCount && j - lo < limit {
                        let when = base + Int64(tt.runTime(first + j, position))
                        if when > end { break }
                        found.append((when, RouteIndex(r), StopIndex(p), RoutePosition(position), Int32(j), Int32(day)))
                        j += 1
                    }
                }
            }
        }
        found.sort { a, b in
            if a.time != b.time { return a.time < b.time }
            let sa = tt.routeSourceRoute[a.route.index], sb = tt.routeSourceRoute[b.route.index]
            if sa != sb { return sa < sb }
            return (a.route, a.stop, a.position, a.trip) < (b.route, b.stop, b.position, b.trip)
        }
        return found.prefix(limit).map { f in
            let r = f.route.index
            let trip = tt.trip(Int(f.trip), ofRoute: f.route)
            let sourceTrip = network.snapshot.trips[tt.tripSource[trip.index].index]
            let sourceRoute = tt.routeSourceRoute[r]
            let route = network.snapshot.routes[sourceRoute.index]
            let firstStop = Int(tt.routeStopOffsets[r]), stopCount = Int(tt.routeStopOffsets[r + 1]) - firstStop
            let boards = tt.routeCanBoard[firstStop + f.position.index] && f.position.index < stopCount - 1
            var headsign = sourceTrip.headsign.flatMap { $0.isEmpty ? nil : $0 }
            if headsign == nil {
                let terminus = stops[tt.routeStops[firstStop + stopCount - 1].index]
                headsign = terminus.parent >= 0 ? stops[Int(terminus.parent)].name : terminus.name
            }
            return Departure(stop: f.stop, platformCode: stops[f.stop.index].platformCode, route: f.route,
                             sourceRoute: sourceRoute, routeId: route.routeId, routeShortName: route.shortName,
                             routeLongName: route.longName, routeColor: route.color, routeTextColor: route.textColor,
                             mode: routeMode[r], headsign: headsign, tripId: sourceTrip.tripId,
                             serviceDate: tt.firstDay.adding(days: Int(f.day)), time: f.time,
                             timeZone: zone, boardingAllowed: boards)
        }
    }

    /// The time zone of a feed: its first agency's (as a query near its stops is read in).
    public func feedTimeZone(_ feed: Int32) -> String {
        network.snapshot.agencies.first { $0.feed == feed }?.timezone ?? network.snapshot.agencies.first?.timezone ?? "UTC"
    }
}

private func floorDiv(_ a: Int64, _ b: Int64) -> Int64 { a >= 0 ? a / b : -((-a + b - 1) / b) }
