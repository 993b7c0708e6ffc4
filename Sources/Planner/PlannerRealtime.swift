import Foundation
import GTFSRealtime
import Raptor
import Realtime
import Synchronization
import Timetable
import TransitModel

/// A ride's realtime facts (docs/routing-model.md, "Realtime", "In the answers"): present
/// on a ride leg when an applied TripUpdate names its trip and service date (a delay of 0
/// included). Times are POSIX seconds; delays are expected − scheduled, in seconds.
public struct RideRealtime: Sendable, Equatable {
    public var scheduledDeparture: Int64
    public var expectedDeparture: Int64
    public var scheduledArrival: Int64
    public var expectedArrival: Int64
    public var departureDelaySeconds: Int64 { expectedDeparture - scheduledDeparture }
    public var arrivalDelaySeconds: Int64 { expectedArrival - scheduledArrival }
    /// Stops between boarding and alighting that the trip skips that day (SKIPPED): it
    /// passes them without stopping.
    public var skippedStops: [StopIndex]
    /// Their `stop_id`s (filled when the itinerary is made).
    public var skippedStopIds: [String] = []
    /// Expected arrival and departure at each stop between boarding and alighting, in order
    /// (the times the itinerary's intermediate stops show).
    public var passedArrivals: [Int64]
    public var passedDepartures: [Int64]
    /// The TripUpdate's entity id and its feed.
    public var entityId: String
    public var feedId: String
}

/// What the planner keeps per realtime state: its router (with its own derived tables) and
/// the ride filters' flags for the routes and trips the overlay added.
final class RealtimeRouting: Sendable {
    let state: RealtimeState
    let router: RaptorRouter

    init(state: RealtimeState) {
        self.state = state
        router = RaptorRouter(timetable: state.timetable)
    }

    var timetable: Timetable { state.timetable }

    /// A filter of the static timetable made for the overlay's: a new route or trip is
    /// allowed when its static one is.
    func extend(_ f: RideFilter) -> RideFilter {
        let tt = state.timetable, st = state.staticTimetable
        guard tt !== st else { return f }
        var out = f
        if let routes = f.routes {
            var r = routes
            r.reserveCapacity(tt.routeCount)
            for x in st.routeCount..<tt.routeCount { r.append(routes[state.staticRoute(of: RouteIndex(x)).index]) }
            out.routes = r
        }
        if let trips = f.trips {
            var t = trips
            t.reserveCapacity(tt.tripCount)
            for x in st.tripCount..<tt.tripCount { t.append(trips[state.staticTrip(of: TripIndex(x)).index]) }
            out.trips = t
        }
        return out
    }

    /// A journey found on the overlay, with its rides on the static routes and trips they
    /// stand for (names, shapes and steps come from them; the times stay the expected ones)
    /// and each ride's realtime facts.
    func journey(_ j: RaptorJourney) -> Journey {
        var out = Journey(j)
        var facts: [RideRealtime?] = []
        var any = false
        let st = state.staticTimetable, tt = state.timetable
        out.legs = j.legs.map { leg in
            guard case .ride(let route, let trip, let day, let from, let to, let dep, let arr) = leg else { facts.append(nil); return leg }
            let staticTrip = state.staticTrip(of: trip), staticRoute = state.staticRoute(of: route)
            if let u = state.update(ofStaticTrip: staticTrip, day: day) {
                let r = staticRoute.index
                let k = staticTrip.index - Int(st.routeTripOffsets[r])
                let base = st.dayBase[Int(st.routeTimeZone[r]) * st.dayCount + day]
                let rr = route.index
                let k2 = trip.index - Int(tt.routeTripOffsets[rr])
                var passedA: [Int64] = [], passedD: [Int64] = []
                if to.index > from.index + 1 {
                    for p in (from.index + 1)..<to.index {
                        passedA.append(base + Int64(tt.arrival(route: rr, position: p, run: k2)))
                        passedD.append(base + Int64(tt.departure(route: rr, position: p, run: k2)))
                    }
                }
                let skipped = u.skipped.filter { $0 > from && $0 < to }.map { st.stop(onRoute: staticRoute, at: $0) }
                facts.append(RideRealtime(scheduledDeparture: base + Int64(st.departure(route: r, position: from.index, run: k)),
                                          expectedDeparture: dep,
                                          scheduledArrival: base + Int64(st.arrival(route: r, position: to.index, run: k)),
                                          expectedArrival: arr, skippedStops: skipped, passedArrivals: passedA,
                                          passedDepartures: passedD, entityId: u.entityId, feedId: u.feedId))
                any = true
            } else {
                facts.append(nil)
            }
            return .ride(route: staticRoute, trip: staticTrip, day: day, from: from, to: to, departure: dep, arrival: arr)
        }
        if any { out.legRealtime = facts }
        return out
    }
}

/// The planner's last realtime state's routing (a new state replaces it).
final class RealtimeRoutingCache: Sendable {
    private let last = Mutex<RealtimeRouting?>(nil)

    func routing(_ state: RealtimeState) -> RealtimeRouting {
        if let hit = last.withLock({ $0?.state === state ? $0 : nil }) { return hit }
        let made = RealtimeRouting(state: state)
        last.withLock { $0 = made }
        return made
    }
}

extension JourneyPlanner {
    /// Puts on every ride of `answer` the alerts of `state`'s messages that concern it.
    func attachAlerts(_ answer: inout PlanAnswer, _ state: RealtimeState) {
        guard state.messages.values.contains(where: { !$0.alerts.isEmpty }) else { return }
        let s = network.snapshot
        for o in answer.options.indices {
            for l in answer.options[o].itinerary.legs.indices {
                let leg = answer.options[o].itinerary.legs[l]
                guard let ride = leg.ride, let feedName = leg.from.feed ?? leg.to.feed,
                      let feed = s.feedIds.firstIndex(of: feedName) else { continue }
                let route = s.routes.first { Int($0.feed) == feed && $0.routeId == ride.routeId }
                let agency = route.flatMap { r in r.agency >= 0 && Int(r.agency) < s.agencies.count ? s.agencies[Int(r.agency)].agencyId : nil }
                let (y, m, d) = ride.serviceDate.components
                let target = AlertTarget(feedId: feedName, agencyId: agency, routeId: ride.routeId, routeType: route.map { Int($0.type) },
                                         directionId: nil, tripId: ride.tripId,
                                         startDate: String(format: "%04d%02d%02d", y, m, d),
                                         stopIds: [leg.from.stopId, leg.to.stopId].compactMap { $0 },
                                         from: leg.departure, to: leg.arrival)
                answer.options[o].itinerary.legs[l].alerts = RealtimeAlerts.matching(target, in: state.messages)
            }
        }
    }

    /// Puts on every ride of `answer` the vehicle of `state` that runs its trip that day.
    func attachVehicles(_ answer: inout PlanAnswer, _ state: RealtimeState) {
        guard !state.vehicles.isEmpty else { return }
        for o in answer.options.indices {
            for l in answer.options[o].itinerary.legs.indices {
                let leg = answer.options[o].itinerary.legs[l]
                guard let ride = leg.ride, let feed = leg.from.feed ?? leg.to.feed else { continue }
                let (y, m, d) = ride.serviceDate.components
                answer.options[o].itinerary.legs[l].vehicle = RealtimeVehicles.running(
                    tripId: ride.tripId, feedId: feed, startDate: String(format: "%04d%02d%02d", y, m, d), in: state.vehicles)
            }
        }
    }
}
