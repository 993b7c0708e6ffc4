import Foundation
import Geo
import TransitModel

// The tests' reference router: an independent implementation of the default routing model
// (`docs/routing-model.md`) that the production RAPTOR router is checked against.
// It shares nothing with the production code but `FeedSnapshot` and the spec, and it uses a
// different algorithm: a Connection Scan (Dibbelt, Pajor, Strasser, Wagner, "Connection Scan
// Algorithm", 2013/2018) with one label per number of rides, run forward for depart-at and on
// the time-reversed timetable for arrive-by. See `ReferenceConnectionScan.swift`.
//
// Files: ReferenceRouter.swift (API and the two queries), ReferenceTimetable.swift (what is
// derived from the snapshot once: stops, changes, normalised stop times, runs, sorted hops),
// ReferenceConnectionScan.swift (the scan).

/// The parameters of the default routing model (the spec's table), with its defaults.
public struct ReferenceParameters: Sendable {
    /// Meters per second.
    public var walkSpeed = 1.33
    /// Ratio of walked to beeline distance.
    public var walkDetourFactor = 1.3
    /// Largest `walkMeters` from the origin to a first stop and from a last stop to the destination.
    public var maxAccessWalk = 1000.0
    /// Largest `walkMeters` of a footpath between two distinct stops (transfers.txt may add longer ones).
    public var maxTransferWalk = 500.0
    /// Largest `walkMeters` for which a walk-only journey is offered.
    public var maxDirectWalk = 2000.0
    /// Seconds added to every change between two vehicles.
    public var transferSlack = 120
    /// Most changes between vehicles in one journey (so at most `maxTransfers + 1` rides).
    public var maxTransfers = 6
    /// With streets: how far the timetable looks for a street walk for a transfers.txt row
    /// (its footpath radius, 1,000 m by default, × 1.3); beyond, the row walks the beeline.
    public var footpathStreetMeters = 1300.0
    public init() {}
}

/// An end of a query.
public enum ReferencePlace: Sendable {
    /// Degrees, WGS84.
    case coordinate(latitude: Double, longitude: Double)
    /// Index in `snapshot.stops`: stands for that stop's coordinates (its parent station's when
    /// it has none). A stop with no coordinates at all makes the query answer `[]`.
    case stop(Int32)
}

/// One member of an answer: how many rides, when it leaves the origin and reaches the destination.
public struct ReferenceJourney: Sendable, Equatable, CustomStringConvertible {
    /// Number of vehicles ridden; 0 for the walk-only journey.
    public var rides: Int
    /// UTC seconds since 1970 at which the journey leaves the origin.
    public var departure: Int64
    /// UTC seconds since 1970 at which the journey reaches the destination.
    public var arrival: Int64
    public init(rides: Int, departure: Int64, arrival: Int64) {
        self.rides = rides; self.departure = departure; self.arrival = arrival
    }
    public var description: String { "(rides \(rides), \(departure) → \(arrival))" }
}

/// The reference router. Immutable after `init`; queries may run concurrently.
///
/// What a query considers (the model's rules, in the words of this implementation):
/// - the trips of service dates D−1, D and D+1, D being the local date of the query instant in
///   the time zone of the first agency of the feed whose stop is nearest the origin; each trip's
///   times are "noon of its service date minus 12 h" in its own agency's zone plus the stop time;
/// - frequency-based trips as one run per distinct start, the template not running by itself;
/// - a journey = access walk (≤ `maxAccessWalk`) · ride · (change · ride)* · egress walk
///   (≤ `maxAccessWalk`) from the last alighting stop, where a change is the same stop or one
///   footpath, and costs its change time (see `ReferenceTimetable`); or the walk-only journey.
public final class ReferenceRouter: @unchecked Sendable {
    /// The parameters this router was built for.
    public let parameters: ReferenceParameters
    let timetable: ReferenceTimetable

    /// Derives the routing data from `snapshot` for `parameters` (footpaths depend on them).
    /// With `streets`, walks follow them per the routing model's "Streets" (both ends snapped),
    /// else every walk is the beeline.
    public init(snapshot: FeedSnapshot, parameters: ReferenceParameters = .init(), streets: ReferenceStreets? = nil) {
        self.parameters = parameters
        self.timetable = ReferenceTimetable(snapshot: snapshot, parameters: parameters, streets: streets)
    }

    /// Trips (indexes in `snapshot.trips`) left out because their first or last stop time has no
    /// time: the model's "warning".
    public var tripsLeftOut: [Int32] { timetable.tripsLeftOut }

    /// Depart-at query at UTC instant `time` (seconds since 1970).
    ///
    /// For each `k` in `1...maxTransfers + 1`, the earliest arrival with at most `k` rides leaving
    /// the origin at or after `time`; kept only when strictly earlier than with fewer rides; its
    /// `departure` is the latest departure among journeys with that arrival and `k` rides. Plus the
    /// walk-only journey (rides 0, leaving at `time`) when `walkMeters ≤ maxDirectWalk`. Ascending
    /// rides; `[]` when there is nothing.
    public func departAt(from: ReferencePlace, to: ReferencePlace, time: Int64) -> [ReferenceJourney] {
        guard let origin = timetable.coordinate(of: from), let destination = timetable.coordinate(of: to) else { return [] }
        var journeys: [ReferenceJourney] = []
        if let walk = timetable.directWalkSeconds(origin, destination) {
            journeys.append(ReferenceJourney(rides: 0, departure: time, arrival: time + Int64(walk)))
        }
        let maxRides = parameters.maxTransfers + 1
        let access = timetable.walkSecondsToStops(from: origin, maxWalkMeters: parameters.maxAccessWalk)
        let egress = timetable.walkSecondsToStops(from: destination, maxWalkMeters: parameters.maxAccessWalk)
        guard maxRides >= 1, access.contains(where: { $0 >= 0 }), egress.contains(where: { $0 >= 0 }) else { return journeys }
        let window = timetable.serviceWindow(origin: origin, time: time)

        let arrivals = timetable.earliestArrivals(window, direction: .forward, access: access, egress: egress,
                                                  start: time, maxRides: maxRides, targetRides: 1, bound: ReferenceTimetable.never)
        var previous = ReferenceTimetable.never
        for k in 1...maxRides where arrivals[k] < previous {
            previous = arrivals[k]
            // No needless waiting: the latest departure among journeys with at most k rides that
            // arrive by arrivals[k] (they all arrive exactly then, with exactly k rides) is the
            // arrive-by answer at arrivals[k], i.e. the scan of the time-reversed timetable.
            let reversed = timetable.earliestArrivals(window, direction: .backward, access: egress, egress: access,
                                                      start: -arrivals[k], maxRides: k, targetRides: k, bound: -time)
            let departure = -reversed[k]
            assert(departure >= time && departure <= arrivals[k], "the tie-break scan must find the journey again")
            journeys.append(ReferenceJourney(rides: k, departure: departure, arrival: arrivals[k]))
        }
        return journeys
    }

    /// Arrive-by query at UTC instant `time`: for each `k`, the latest departure from the origin
    /// with at most `k` rides reaching the destination at or before `time`; kept only when strictly
    /// later than with fewer rides; its `arrival` is the earliest arrival among journeys with that
    /// departure and `k` rides. Plus the walk-only journey (leaving at `time − walkSeconds`,
    /// arriving at `time`). Ascending rides; `[]` when there is nothing.
    public func arriveBy(from: ReferencePlace, to: ReferencePlace, time: Int64) -> [ReferenceJourney] {
        guard let origin = timetable.coordinate(of: from), let destination = timetable.coordinate(of: to) else { return [] }
        var journeys: [ReferenceJourney] = []
        if let walk = timetable.directWalkSeconds(origin, destination) {
            journeys.append(ReferenceJourney(rides: 0, departure: time - Int64(walk), arrival: time))
        }
        let maxRides = parameters.maxTransfers + 1
        let access = timetable.walkSecondsToStops(from: origin, maxWalkMeters: parameters.maxAccessWalk)
        let egress = timetable.walkSecondsToStops(from: destination, maxWalkMeters: parameters.maxAccessWalk)
        guard maxRides >= 1, access.contains(where: { $0 >= 0 }), egress.contains(where: { $0 >= 0 }) else { return journeys }
        let window = timetable.serviceWindow(origin: origin, time: time)

        // Reversed time: the earliest "arrival" at the origin at -time is minus the latest departure.
        let reversed = timetable.earliestArrivals(window, direction: .backward, access: egress, egress: access,
                                                  start: -time, maxRides: maxRides, targetRides: 1, bound: ReferenceTimetable.never)
        var previous = ReferenceTimetable.never
        for k in 1...maxRides where reversed[k] < previous {
            previous = reversed[k]
            let departure = -reversed[k]
            // The earliest arrival among journeys with at most k rides leaving at or after departure.
            let arrivals = timetable.earliestArrivals(window, direction: .forward, access: access, egress: egress,
                                                      start: departure, maxRides: k, targetRides: k, bound: time)
            assert(arrivals[k] <= time && arrivals[k] >= departure, "the tie-break scan must find the journey again")
            journeys.append(ReferenceJourney(rides: k, departure: departure, arrival: arrivals[k]))
        }
        return journeys
    }

    /// The service date D a query at `time` from `from` uses (local date of `time` in the query
    /// zone), and that zone's identifier: for tests that want to see the model's choice.
    public func queryServiceDate(from: ReferencePlace, time: Int64) -> (date: ServiceDate, timeZone: String)? {
        guard let origin = timetable.coordinate(of: from) else { return nil }
        let window = timetable.serviceWindow(origin: origin, time: time)
        return (window.date, window.zoneIdentifier)
    }
}
