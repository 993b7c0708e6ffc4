import FeedNetwork
import Foundation
import Geo
import Planner
import Raptor
import Timetable
import TransitModel
import TransitTesting

// The planner's rules around the router (PlannerRulesTests): the same tiny networks as
// the router's A01…A15 (`NetworkBuilder`, in TransitTesting), asked through
// `JourneyPlanner` with places and local times, journeys printed as the same compact
// strings (`CompactJourney`), in the planner's order.

enum Rules {
    /// The one service date every test network runs on: Monday 2020-04-20.
    static let testDate = NetworkBuilder.testDate
    /// Where the test networks start (52° N, 13° E).
    static let testOrigin = NetworkBuilder.testOrigin

    /// UTC seconds since 1970 of wall-clock `time` on `date` in UTC.
    static func utc(_ time: String, on date: ServiceDate = testDate) -> Int64 {
        Int64(date.daysSinceEpoch) * 86_400 + Int64(NetworkBuilder.clock(time))
    }

    static func offset(_ c: Coordinate, north: Double = 0, east: Double = 0) -> Coordinate {
        NetworkBuilder.offset(c, north: north, east: east)
    }

    /// Routing parameters with some changed: `params { $0.transferSlack = 60 }`.
    static func params(_ change: (inout RoutingParameters) -> Void) -> RoutingParameters {
        var p = RoutingParameters()
        change(&p)
        return p
    }

    /// A local wall-clock query time: `time` (`H:MM[:SS]`, 24:00 and later roll into the
    /// following days) on `date`.
    static func localTime(_ time: String, on date: ServiceDate) -> QueryTime {
        let seconds = Int(NetworkBuilder.clock(time))
        let (y, m, d) = date.adding(days: seconds / 86_400).components
        let s = seconds % 86_400
        return .local(year: y, month: m, day: d, hour: s / 3600, minute: (s / 60) % 60, second: s % 60)
    }
}

extension NetworkBuilder {
    func planner() throws -> PlannerNetwork { PlannerNetwork(planner: JourneyPlanner(network: try network())) }
}

/// A built network and the planner over it.
struct PlannerNetwork {
    let planner: JourneyPlanner
    var timetable: Timetable { planner.timetable }

    func stop(_ id: String) -> StopIndex {
        StopIndex(planner.network.snapshot.stops.firstIndex { $0.stopId == id }!)
    }

    /// Plans from `from` to `to` (stop ids) at local `time` on `date`.
    func plan(_ from: String, _ to: String, at time: String, on date: ServiceDate = Rules.testDate, arriveBy: Bool = false,
              _ parameters: RoutingParameters = RoutingParameters()) throws -> PlanResult {
        try plan(.stop(feed: nil, id: from), .stop(feed: nil, id: to), at: time, on: date, arriveBy: arriveBy, parameters)
    }

    func plan(_ from: Place, _ to: Place, at time: String, on date: ServiceDate = Rules.testDate, arriveBy: Bool = false,
              _ parameters: RoutingParameters = RoutingParameters()) throws -> PlanResult {
        try planner.plan(PlanQuery(from: from, to: to, time: Rules.localTime(time, on: date), arriveBy: arriveBy,
                                   parameters: parameters))
    }

    /// The planner's journeys, in its order, as compact strings (times from midnight of `reference`).
    func journeys(_ from: String, _ to: String, at time: String, on date: ServiceDate = Rules.testDate, arriveBy: Bool = false,
                  reference: ServiceDate = Rules.testDate, _ parameters: RoutingParameters = RoutingParameters()) throws -> [String] {
        let result = try plan(from, to, at: time, on: date, arriveBy: arriveBy, parameters)
        return result.journeys.map { format($0, zone: result.timeZone, reference: reference) }
    }

    func journeys(_ from: Place, _ to: Place, at time: String, on date: ServiceDate = Rules.testDate, arriveBy: Bool = false,
                  reference: ServiceDate = Rules.testDate, _ parameters: RoutingParameters = RoutingParameters()) throws -> [String] {
        let result = try plan(from, to, at: time, on: date, arriveBy: arriveBy, parameters)
        return result.journeys.map { format($0, zone: result.timeZone, reference: reference) }
    }

    func format(_ journey: Journey, zone: String, reference: ServiceDate = Rules.testDate) -> String {
        CompactJourney.format(rides: journey.rides, departure: journey.departure, arrival: journey.arrival, legs: journey.legs,
                              network: planner.network, zone: zone, reference: reference)
    }
}
