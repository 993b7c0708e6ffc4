import FeedNetwork
import Foundation
import Geo
import Raptor
import Timetable
import TransitModel

// Tiny networks built in code, for the router's feature tests (Tests/RaptorTests/A01…)
// and the planner's rules around it (Tests/PlannerTests/PlannerRulesTests): a one-feed
// `FeedSnapshot` made stop by stop and trip by trip, and the compact journey strings both
// layers' tests compare.
//
// Conventions:
// - One feed "test", one agency "AG" (time zone "UTC" unless a test says otherwise).
// - Service "S" runs on `NetworkBuilder.testDate` only (Monday 2020-04-20).
// - Stops made with `line` lie on a meridian, `spacing` meters apart (2 km by default:
//   walkMeters 2600 > maxAccessWalk 1000 and > maxDirectWalk 2000, and beyond the
//   timetable's 1000 m footpath radius, so no stray walk can short-cut a test).

/// Builds a one-feed `FeedSnapshot` in code.
public struct NetworkBuilder {
    /// The one service date every test network runs on by default: Monday 2020-04-20.
    public static let testDate = ServiceDate(year: 2020, month: 4, day: 20)!

    /// Where the test networks start: an arbitrary point on land (52° N, 13° E).
    public static let testOrigin = Coordinate(latitude: 52.0, longitude: 13.0)

    /// "H:MM" or "H:MM:SS" (hours may exceed 23) as seconds.
    public static func clock(_ text: String) -> Int32 {
        let parts = text.split(separator: ":").map { Int32($0)! }
        precondition(parts.count == 2 || parts.count == 3, "bad clock \(text)")
        return parts[0] * 3600 + parts[1] * 60 + (parts.count == 3 ? parts[2] : 0)
    }

    /// A point `north` and then `east` meters (geodesic) from `c`; negative goes south/west.
    public static func offset(_ c: Coordinate, north: Double = 0, east: Double = 0) -> Coordinate {
        var p = c
        if north != 0 { p = Geodesic.destination(from: p, azimuthDegrees: north > 0 ? 0 : 180, meters: abs(north)) }
        if east != 0 { p = Geodesic.destination(from: p, azimuthDegrees: east > 0 ? 90 : -90, meters: abs(east)) }
        return p
    }

    public private(set) var snapshot = FeedSnapshot()
    private var stopIndex: [String: Int32] = [:]
    private var routeIndex: [String: Int32] = [:]
    private var serviceIndex: [String: Int32] = [:]
    private var tripIndex: [String: Int32] = [:]

    /// A feed "test" with one agency in `timezone`, and service "S" running on `serviceDate`.
    public init(timezone: String = "UTC", serviceDate: ServiceDate = NetworkBuilder.testDate) {
        snapshot.feedIds = ["test"]
        snapshot.agencies = [FeedSnapshot.Agency(feed: 0, agencyId: "AG", name: "Test agency", timezone: timezone)]
        service("S", from: serviceDate, to: serviceDate)
    }

    // MARK: Stops

    /// A stop (`type` 0), station (1), entrance (2)…; `parent` names a station.
    public mutating func stop(_ id: String, at c: Coordinate?, type: Int8 = 0, parent: String? = nil) {
        precondition(stopIndex[id] == nil, "stop \(id) twice")
        stopIndex[id] = Int32(snapshot.stops.count)
        snapshot.stops.append(FeedSnapshot.Stop(feed: 0, stopId: id, name: "Stop \(id)", latitude: c?.latitude,
                                                longitude: c?.longitude, locationType: type,
                                                parent: parent.map { stopIndex[$0]! } ?? -1, platformCode: nil))
    }

    /// A stop `north`/`east` meters from stop `other`.
    public mutating func stop(_ id: String, near other: String, north: Double = 0, east: Double = 0, parent: String? = nil) {
        stop(id, at: Self.offset(coordinate(other), north: north, east: east), parent: parent)
    }

    /// Stops on a meridian, going north from `start`, `spacing` meters apart.
    public mutating func line(_ ids: String..., spacing: Double = 2000, start: Coordinate = NetworkBuilder.testOrigin) {
        for (i, id) in ids.enumerated() { stop(id, at: Self.offset(start, north: Double(i) * spacing)) }
    }

    public func coordinate(_ id: String) -> Coordinate {
        let s = snapshot.stops[Int(stopIndex[id]!)]
        return Coordinate(latitude: s.latitude!, longitude: s.longitude!)
    }

    // MARK: Services, routes, trips

    /// A calendar.txt row (bit 0 Monday … bit 6 Sunday) plus calendar_dates.txt exceptions.
    public mutating func service(_ id: String, weekdays: UInt8 = 0x7F, from: ServiceDate? = nil, to: ServiceDate? = nil,
                                 added: [ServiceDate] = [], removed: [ServiceDate] = []) {
        serviceIndex[id] = Int32(snapshot.services.count)
        snapshot.services.append(FeedSnapshot.Service(feed: 0, serviceId: id, weekdays: from == nil ? 0 : weekdays,
                                                      start: from, end: to, added: added, removed: removed))
    }

    /// Another agency of the feed (the first, "AG", is made by `init`).
    public mutating func agency(_ id: String, timezone: String) {
        snapshot.agencies.append(FeedSnapshot.Agency(feed: 0, agencyId: id, name: "Agency \(id)", timezone: timezone))
    }

    /// Declares route `id` of agency `agency`; trips declare their routes of agency "AG" by themselves.
    @discardableResult
    public mutating func route(_ id: String, agency: String = "AG") -> Int32 {
        if let r = routeIndex[id] { return r }
        routeIndex[id] = Int32(snapshot.routes.count)
        let a = Int32(snapshot.agencies.firstIndex { $0.agencyId == agency }!)
        snapshot.routes.append(FeedSnapshot.Route(feed: 0, routeId: id, agency: a, shortName: id, longName: nil,
                                                  type: 3, color: nil, textColor: nil))
        return routeIndex[id]!
    }

    /// A trip of `route`. `schedule` lists stop times separated by commas, each
    /// `STOP TIME [flags]`, where TIME is `H:MM[:SS]` (arrival = departure), `ARR/DEP`,
    /// or `-` for untimed (either side of `/` may be `-`), and flags are `no-board`
    /// (pickup_type 1), `no-alight` (drop_off_type 1), `pickup=N`, `dropoff=N`, `dist=M`
    /// (shape_dist_traveled), `seq=N` (stop_sequence; by default 1 for the first stop time,
    /// else one more than the previous). `direction` is the trip's direction_id.
    /// Example: `"A 0:01, B -, C 0:05/0:06 no-board, D 0:10"`.
    public mutating func trip(_ id: String, route routeId: String, service: String = "S", direction: Int8? = nil,
                              _ schedule: String) {
        let r = route(routeId)
        tripIndex[id] = Int32(snapshot.trips.count)
        snapshot.trips.append(FeedSnapshot.Trip(feed: 0, tripId: id, route: r, service: serviceIndex[service]!,
                                                headsign: nil, shapeId: nil, directionId: direction))
        var sequence: Int32 = 0
        func time(_ t: Substring) -> Int32 { t == "-" ? FeedSnapshot.untimed : Self.clock(String(t)) }
        for entry in schedule.split(separator: ",") {
            let words = entry.split(separator: " ")
            precondition(words.count >= 2, "bad stop time \(entry)")
            guard let stop = stopIndex[String(words[0])] else { preconditionFailure("unknown stop \(words[0])") }
            let times = words[1].split(separator: "/", omittingEmptySubsequences: false)
            var pickup: UInt8 = 0, dropOff: UInt8 = 0, dist = Double.nan
            sequence += 1
            for flag in words.dropFirst(2) {
                if flag == "no-board" { pickup = 1 }
                else if flag == "no-alight" { dropOff = 1 }
                else if flag.hasPrefix("pickup=") { pickup = UInt8(flag.dropFirst(7))! }
                else if flag.hasPrefix("dropoff=") { dropOff = UInt8(flag.dropFirst(8))! }
                else if flag.hasPrefix("dist=") { dist = Double(flag.dropFirst(5))! }
                else if flag.hasPrefix("seq=") { sequence = Int32(flag.dropFirst(4))! }
                else { preconditionFailure("unknown flag \(flag)") }
            }
            snapshot.stopTimeStop.append(stop)
            snapshot.stopTimeSequence.append(sequence)
            snapshot.stopTimeArrival.append(time(times[0]))
            snapshot.stopTimeDeparture.append(time(times.count > 1 ? times[1] : times[0]))
            snapshot.stopTimePickup.append(pickup)
            snapshot.stopTimeDropOff.append(dropOff)
            snapshot.stopTimeShapeDistance.append(dist)
        }
        snapshot.tripStopTimes.append(Int32(snapshot.stopTimeStop.count))
    }

    /// A frequencies.txt row for `trip`.
    public mutating func frequency(_ trip: String, start: String, end: String, headwaySeconds: Int32) {
        snapshot.frequencies.append(FeedSnapshot.Frequency(trip: tripIndex[trip]!, startTime: Self.clock(start),
                                                           endTime: Self.clock(end), headwaySeconds: headwaySeconds))
    }

    /// A transfers.txt row naming two stops (or stations); rows keep the order of the calls.
    public mutating func transfer(_ from: String, _ to: String, type: Int8, minTransferTime: Int32? = nil) {
        let line = Int32(snapshot.transfers.count + 2)  // line 1 is the header
        snapshot.transfers.append(FeedSnapshot.Transfer(fromStop: stopIndex[from]!, toStop: stopIndex[to]!, type: type,
                                                        minTransferTime: minTransferTime, line: line))
    }

    /// The built network: its timetable and what is kept beside it.
    public func network() throws -> TransitNetwork {
        try TimetableBuilder.build(snapshot)
    }
}

/// A journey as one compact line, the same for the router's and the planner's tests:
/// `Walk 0:05:06-0:10 ~ A ~ R1 0:10-0:25 ~ D ~ Change 2m ~ D ~ R2 …`
/// - times are local wall-clock times in `zone`, hours counted from midnight of the
///   reference date (so the next day's 00:30 prints `24:30`), written `H:MM`, or
///   `H:MM:SS` when the seconds are not 0;
/// - `Walk a-b` is the access or egress walk (left out when it takes 0 s, e.g. when the
///   origin is given as a stop);
/// - `R1 a-b` is a ride on route R1 (its short name), departure to arrival;
/// - `Change d` is a change, from the stop before it to the stop after it: d is the time
///   from alighting until the next vehicle may be boarded (walk + slack, or the
///   transfers.txt rule), as `2m`, `6m54s`, `59s`, `0s`;
/// - a walk-only journey (no rides) prints as `Walk a-b`.
public enum CompactJourney {
    public static func format(rides: Int, departure: Int64, arrival: Int64, legs: [RaptorLeg], network: TransitNetwork,
                              zone zoneName: String, reference: ServiceDate) -> String {
        let zone = TimeZone(identifier: zoneName)!
        func time(_ instant: Int64) -> String {
            let local = instant + Int64(zone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(instant))))
            let t = local - Int64(reference.daysSinceEpoch) * 86_400
            let sign = t < 0 ? "-" : "", a = abs(t)
            let (h, m, s) = (a / 3600, (a / 60) % 60, a % 60)
            return "\(sign)\(h):\(m < 10 ? "0" : "")\(m)" + (s == 0 ? "" : ":\(s < 10 ? "0" : "")\(s)")
        }
        func span(_ a: Int64, _ b: Int64) -> String { "\(time(a))-\(time(b))" }
        let timetable = network.timetable
        func id(_ stop: StopIndex) -> String { network.snapshot.stops[stop.index].stopId }

        if rides == 0 { return "Walk \(span(departure, arrival))" }
        var parts: [String] = []
        for leg in legs {
            switch leg {
            case .access(let stop, let departure, let arrival, _):
                if arrival != departure { parts.append("Walk \(span(departure, arrival))") }
                parts.append(id(stop))
            case .ride(let route, _, _, let from, let to, let departure, let arrival):
                let board = id(timetable.stop(onRoute: route, at: from))
                // The boarding stop is the one printed before; say so when it is not.
                if parts.last != board { parts.append("[board at \(board)]") }
                let name = network.snapshot.routes[timetable.routeSourceRoute[route.index].index]
                parts.append("\(name.shortName ?? name.routeId) \(span(departure, arrival))")
                parts.append(id(timetable.stop(onRoute: route, at: to)))
            case .transfer(_, let to, let departure, let ready, _):
                parts.append("Change \(duration(ready - departure))")
                parts.append(id(to))
            case .egress(_, let departure, let arrival, _):
                if arrival != departure { parts.append("Walk \(span(departure, arrival))") }
            }
        }
        return parts.joined(separator: " ~ ")
    }

    /// `2m`, `6m54s`, `59s`, `0s`, `1h2m3s`.
    public static func duration(_ seconds: Int64) -> String {
        if seconds == 0 { return "0s" }
        let (h, m, s) = (seconds / 3600, (seconds / 60) % 60, seconds % 60)
        return (h > 0 ? "\(h)h" : "") + (m > 0 ? "\(m)m" : "") + (s > 0 ? "\(s)s" : "")
    }
}
