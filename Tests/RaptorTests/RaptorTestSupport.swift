import FeedNetwork
import Foundation
import GTFS
import Geo
import Raptor
import Testing
import Timetable
import TransitModel
import TransitTesting

// The router's feature tests (A01…A15): a network built in code (`NetworkBuilder`, in
// TransitTesting), a `RaptorRequest` built here, `RaptorRouter.route`, and each journey as
// one compact line (`CompactJourney`: `Walk 0:05:06-0:10 ~ A ~ R1 0:10-0:25 ~ D ~ …`).
//
// No planner: an end given as a stop is a 0 s walk to that stop; an end given as a point
// gets the walks docs/routing-model.md defines (every boardable stop whose walkMeters =
// beeline × walkDetourFactor ≤ maxAccessWalk, walkSeconds = ceil(walkMeters / walkSpeed));
// the time is a UTC instant and the days are D − 1, D and D + 1 of the query's date D.
// What the planner adds (places, local times and time zones, the walk-only journey,
// NO_STOP_NEARBY, its order) is tested in Tests/PlannerTests/PlannerRulesTests.swift.
// The router lists its Pareto set by ascending rides (a range: by departure).

/// The one service date every test network runs on: Monday 2020-04-20.
let testDate = NetworkBuilder.testDate

/// Where the test networks start: an arbitrary point on land (52° N, 13° E).
let testOrigin = NetworkBuilder.testOrigin

/// "H:MM" or "H:MM:SS" (hours may exceed 23) as seconds.
func clock(_ text: String) -> Int32 { NetworkBuilder.clock(text) }

/// UTC seconds since 1970 of wall-clock `time` on `date` in UTC (the default zone).
func utc(_ time: String, on date: ServiceDate = testDate) -> Int64 {
    Int64(date.daysSinceEpoch) * 86_400 + Int64(clock(time))
}

/// A point `north` and then `east` meters (geodesic) from `c`; negative goes south/west.
func offset(_ c: Coordinate, north: Double = 0, east: Double = 0) -> Coordinate {
    NetworkBuilder.offset(c, north: north, east: east)
}

extension NetworkBuilder {
    func build() throws -> TestNetwork { try TestNetwork(network: network()) }
}

/// One end of a search: a stop by id (`"A"`: a 0 s walk to it) or a point (walks to the
/// stops near it, as the model says).
enum End: ExpressibleByStringLiteral {
    case stop(String)
    case point(Coordinate)
    init(stringLiteral id: String) { self = .stop(id) }
}

/// A built network: the timetable (and what is beside it: names, stop grids), the router
/// over the timetable, and ways to ask it.
struct TestNetwork {
    let network: TransitNetwork
    var timetable: Timetable { network.timetable }
    let router: RaptorRouter

    init(network: TransitNetwork) {
        self.network = network
        router = RaptorRouter(timetable: network.timetable)
    }

    func stop(_ id: String) -> StopIndex {
        StopIndex(network.snapshot.stops.firstIndex { $0.stopId == id }!)
    }

    /// The model's walks between `point` and the boardable stops within maxAccessWalk of it.
    func walks(_ point: Coordinate, _ p: RoutingParameters) -> [StopWalk] {
        network.stopsNear(point, beelineMeters: p.maxAccessWalk / p.walkDetourFactor + 1).compactMap { s in
            let meters = p.walkMeters(beeline: s.meters)
            return meters <= p.maxAccessWalk ? StopWalk(stop: s.stop, seconds: p.walkSeconds(beeline: s.meters), meters: meters) : nil
        }
    }

    func walks(_ end: End, _ p: RoutingParameters) -> [StopWalk] {
        switch end {
        case .stop(let id): return [StopWalk(stop: stop(id), seconds: 0, meters: 0)]
        case .point(let c): return walks(c, p)
        }
    }

    /// The request for a search at UTC instant `time`, riding the trips of days D − 1, D,
    /// D + 1 where D is `day` (by default the UTC date of `time`).
    func request(_ from: End, _ to: End, at time: Int64, day: ServiceDate? = nil, arriveBy: Bool = false,
                 window: Int64? = nil, _ parameters: RoutingParameters = RoutingParameters()) throws -> RaptorRequest {
        let date = day ?? ServiceDate(daysSinceEpoch: Int32((time - ((time % 86_400) + 86_400) % 86_400) / 86_400))
        let d = Int(date.daysSinceEpoch - timetable.firstDay.daysSinceEpoch)
        return try RaptorRequest(arriveBy: arriveBy, time: time, access: walks(from, parameters),
                                 egress: walks(to, parameters), days: [d - 1, d, d + 1], parameters: parameters,
                                 window: window, timetable: timetable)
    }

    /// The router's journeys (its Pareto set, ascending rides).
    func search(_ from: End, _ to: End, at time: Int64, day: ServiceDate? = nil, arriveBy: Bool = false,
                window: Int64? = nil, _ parameters: RoutingParameters = RoutingParameters()) throws -> [RaptorJourney] {
        router.route(try request(from, to, at: time, day: day, arriveBy: arriveBy, window: window, parameters))
    }

    /// The router's journeys as compact strings: wall-clock `time` (UTC) on `date`, days
    /// D − 1, D, D + 1 of `date`; printed in UTC from midnight of `reference`.
    func route(_ from: End, _ to: End, at time: String, on date: ServiceDate = testDate, arriveBy: Bool = false,
               reference: ServiceDate = testDate, _ parameters: RoutingParameters = RoutingParameters()) throws -> [String] {
        try route(from, to, at: utc(time, on: date), day: date, arriveBy: arriveBy, reference: reference, parameters)
    }

    /// The same at UTC instant `time`, printed in `zone` (the agency's, for a network not in UTC).
    func route(_ from: End, _ to: End, at time: Int64, day: ServiceDate? = nil, arriveBy: Bool = false,
               window: Int64? = nil, zone: String = "UTC", reference: ServiceDate = testDate,
               _ parameters: RoutingParameters = RoutingParameters()) throws -> [String] {
        try search(from, to, at: time, day: day, arriveBy: arriveBy, window: window, parameters)
            .map { format($0, zone: zone, reference: reference) }
    }

    func format(_ j: RaptorJourney, zone: String = "UTC", reference: ServiceDate = testDate) -> String {
        CompactJourney.format(rides: j.rides, departure: j.departure, arrival: j.arrival, legs: j.legs,
                              network: network, zone: zone, reference: reference)
    }
}

/// Routing parameters with some changed: `params { $0.transferSlack = 60 }`.
func params(_ change: (inout RoutingParameters) -> Void) -> RoutingParameters {
    var p = RoutingParameters()
    change(&p)
    return p
}

/// A real feed's timetable (bundled in Data/, or from the shared data) and its busiest
/// service day (days since `firstDay`, with a day either side), for the tests of the
/// router's own tables.
func feedTimetable(_ feed: String, bundled: Bool) throws -> (timetable: Timetable, busiest: Int) {
    let path = bundled ? try FeedFixtures.bundledFeed(feed) : try FeedFixtures.sharedFeed(feed)
    let (snapshot, _) = try SnapshotSink.load(path: path, feedId: feed)
    let tt = try TimetableBuilder.build(snapshot).timetable
    let busiest = (1..<(tt.dayCount - 1)).max { a, b in
        (0..<tt.routeCount).filter { tt.serviceRuns(tt.routeService[$0], day: a) }.count
            < (0..<tt.routeCount).filter { tt.serviceRuns(tt.routeService[$0], day: b) }.count
    }!
    return (tt, busiest)
}
