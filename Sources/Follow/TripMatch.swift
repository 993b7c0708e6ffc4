import FeedNetwork
import Planner
import Raptor
import Realtime
import Timetable
import TransitModel

/// A followed ride found in a timetable: its static trip on its day, the route positions
/// where it is boarded and left, and what a sentence names it by.
public struct MatchedRide: Sendable, Equatable {
    public var route: RouteIndex
    public var trip: TripIndex
    public var day: Int
    public var board: RoutePosition
    public var alight: RoutePosition
    /// "tram 8", "train Yellow Line": the mode's noun and the route's name.
    public var line: String
    public var headsign: String?
    public var boardName: String
    public var alightName: String
    public var feed: String
    public var routeId: String
    public var agencyId: String?
    public var routeType: Int
    /// The route's time zone (IANA name): the clock times of sentences.
    public var zone: String
}

/// Why a token's trip cannot be followed on the timetable served now.
public struct TripMatchError: Error, Equatable, Sendable, CustomStringConvertible {
    public var feed: String
    public var tokenVersion: String
    public var servedVersion: String?
    /// What is missing, in words ("no trip 1234 on 2020-05-04").
    public var missing: String
    public var description: String {
        let served = servedVersion.map { "version \($0) is served now" } ?? "that feed is not served now"
        return "This trip was planned on feed \(feed) version \(tokenVersion) and \(served): \(missing). Please plan the trip again."
    }
}

/// Follows and makes followed trips on one network (a served timetable): trip ids to
/// trips, stop_sequences to route positions. Made once per network and shared.
public final class TripMatcher: Sendable {
    public let network: TransitNetwork
    /// Feed id -> version, as tokens name them.
    public let versions: [String: String]
    // Source trip -> its timetable trips (one, or one per run of a frequencies.txt trip):
    // runs[runOffsets[s] ..< runOffsets[s + 1]].
    private let runOffsets: [Int32]
    private let runs: [Int32]
    // Timetable trip -> its route.
    private let tripRoute: [Int32]

    public init(network: TransitNetwork, versions: [String: String]) {
        self.network = network
        self.versions = versions
        let tt = network.timetable
        var counts = [Int32](repeating: 0, count: network.snapshot.trips.count + 1)
        for t in 0..<tt.tripCount { counts[tt.tripSource[t].index + 1] += 1 }
        for i in 1..<counts.count { counts[i] += counts[i - 1] }
        var fill = counts, runs = [Int32](repeating: 0, count: tt.tripCount)
        for t in 0..<tt.tripCount {
            let s = tt.tripSource[t].index
            runs[Int(fill[s])] = Int32(t); fill[s] += 1
        }
        var tripRoute = [Int32](repeating: 0, count: tt.tripCount)
        for r in 0..<tt.routeCount {
            for t in Int(tt.routeTripOffsets[r])..<Int(tt.routeTripOffsets[r + 1]) { tripRoute[t] = Int32(r) }
        }
        runOffsets = counts; self.runs = runs; self.tripRoute = tripRoute
    }

    var timetable: Timetable { network.timetable }

    /// A trip's time at a route position (UTC seconds): its departure, or its arrival.
    static func time(_ tt: Timetable, route r: RouteIndex, trip t: TripIndex, day: Int, at p: RoutePosition, departure: Bool) -> Int64 {
        let ri = r.index
        let k = t.index - Int(tt.routeTripOffsets[ri])
        let base = tt.dayBase[Int(tt.routeTimeZone[ri]) * tt.dayCount + day]
        return base + Int64(departure ? tt.departure(route: ri, position: p.index, run: k) : tt.arrival(route: ri, position: p.index, run: k))
    }

    /// The route of a trip of `tt` (a realtime overlay's trips too): its trips are grouped
    /// by route, so a binary search of the route offsets finds it.
    static func route(of t: TripIndex, in tt: Timetable) -> RouteIndex {
        var lo = 0, hi = tt.routeCount - 1
        while lo < hi {
            let mid = (lo + hi + 1) / 2
            if Int(tt.routeTripOffsets[mid]) <= t.index { lo = mid } else { hi = mid - 1 }
        }
        return RouteIndex(lo)
    }

    /// The source-trip position (stop_sequence order) of route position `p` of source trip `s`.
    func sourcePosition(_ s: Int, routePosition p: Int) -> Int? {
        if network.stopSequences.routePosition(ofSourceTrip: s, position: p) == p { return p }
        for q in 0..<network.stopSequences.stopTimeCount(ofSourceTrip: s)
        where network.stopSequences.routePosition(ofSourceTrip: s, position: q) == p { return q }
        return nil
    }

    func names(route r: RouteIndex, trip t: TripIndex, board: RoutePosition, alight: RoutePosition) -> (line: String, headsign: String?, board: String, alight: String, feed: String, routeId: String, agency: String?, type: Int) {
        let s = network.snapshot, tt = timetable
        let trip = s.trips[tt.tripSource[t.index].index]
        let route = s.routes[Int(trip.route)]
        let mode = LegMode(routeType: Int(route.type))
        let name = route.shortName.flatMap { $0.isEmpty ? nil : $0 } ?? route.longName ?? route.routeId
        func stopName(_ p: RoutePosition) -> String {
            let st = s.stops[tt.stop(onRoute: r, at: p).index]
            if !st.name.isEmpty { return st.name }
            return st.parent >= 0 ? s.stops[Int(st.parent)].name : st.stopId
        }
        let agency = route.agency >= 0 && Int(route.agency) < s.agencies.count ? s.agencies[Int(route.agency)].agencyId : nil
        return ("\(mode.noun) \(name)", trip.headsign.flatMap { $0.isEmpty ? nil : $0 }, stopName(board), stopName(alight),
                s.feedIds[Int(trip.feed)], route.routeId, agency, Int(route.type))
    }

    func matched(route: RouteIndex, trip: TripIndex, day: Int, board: RoutePosition, alight: RoutePosition) -> MatchedRide {
        let n = names(route: route, trip: trip, board: board, alight: alight)
        return MatchedRide(route: route, trip: trip, day: day, board: board, alight: alight, line: n.line, headsign: n.headsign,
                           boardName: n.board, alightName: n.alight, feed: n.feed, routeId: n.routeId, agencyId: n.agency,
                           routeType: n.type, zone: timetable.timeZoneNames[Int(timetable.routeTimeZone[route.index])])
    }

    /// The followed trip of a plan option (nil: the walk-only journey, or a ride this
    /// network cannot name). Its rides are the journey's, on the static trips they stand
    /// for; planned times are the answer's, scheduled ones the static timetable's.
    public func followedTrip(_ journey: Journey) -> FollowedTrip? {
        let tt = timetable, s = network.snapshot
        var rides: [FollowedTrip.Ride] = [], changes: [Int32] = []
        var access: Int32 = 0, egress: Int32 = 0
        for leg in journey.legs {
            switch leg {
            case .access(_, let dep, let arr, _): access = Int32(clamping: arr - dep)
            case .egress(_, let dep, let arr, _): egress = Int32(clamping: arr - dep)
            case .transfer(_, _, let dep, let ready, _):
                // The change after the last ride (one footpath at most lies between two rides).
                guard !rides.isEmpty, changes.count == rides.count - 1 else { continue }
                changes.append(Int32(clamping: ready - dep))
            case .ride(let route, let trip, let day, let from, let to, let dep, let arr):
                // Two rides in a row with no change between them: a stay at the stop.
                if rides.count > changes.count + 1 { changes.append(0) }
                let source = tt.tripSource[trip.index].index
                guard let a = sourcePosition(source, routePosition: from.index),
                      let b = sourcePosition(source, routePosition: to.index) else { return nil }
                let st = s.trips[source]
                rides.append(.init(feed: s.feedIds[Int(st.feed)], tripId: st.tripId,
                                   serviceDate: ServiceDate(daysSinceEpoch: tt.firstDay.daysSinceEpoch + Int32(day)),
                                   boardStopId: s.stops[tt.stop(onRoute: route, at: from).index].stopId,
                                   boardSequence: network.stopSequence(ofSourceTrip: source, position: a),
                                   alightStopId: s.stops[tt.stop(onRoute: route, at: to).index].stopId,
                                   alightSequence: network.stopSequence(ofSourceTrip: source, position: b),
                                   scheduledDeparture: Self.time(tt, route: route, trip: trip, day: day, at: from, departure: true),
                                   scheduledArrival: Self.time(tt, route: route, trip: trip, day: day, at: to, departure: false),
                                   plannedDeparture: dep, plannedArrival: arr))
            }
        }
        while changes.count < rides.count - 1 { changes.append(0) }
        guard !rides.isEmpty else { return nil }
        let feeds = Set(rides.map(\.feed)).sorted().map { FollowedTrip.Feed(id: $0, version: versions[$0] ?? "") }
        return FollowedTrip(feeds: feeds, rides: rides, accessSeconds: access, changeSeconds: changes, egressSeconds: egress)
    }

    /// The rides of a followed trip on this network: the same trip id, service date and
    /// stop_sequences, at stops of the same ids, with the same scheduled times. A token of
    /// an older feed version is taken when its trip is still there unchanged (re-matched).
    public func match(_ trip: FollowedTrip) throws(TripMatchError) -> [MatchedRide] {
        let tt = timetable, s = network.snapshot
        var out: [MatchedRide] = []
        for ride in trip.rides {
            let tokenVersion = trip.feeds.first { $0.id == ride.feed }?.version ?? ""
            func fail(_ missing: String) -> TripMatchError {
                TripMatchError(feed: ride.feed, tokenVersion: tokenVersion, servedVersion: versions[ride.feed], missing: missing)
            }
            guard let feed = s.feedIds.firstIndex(of: ride.feed) else { throw fail("the feed is not loaded") }
            guard let source = network.tripIndex(feed: feed)[ride.tripId].map(Int.init) else { throw fail("it has no trip \(ride.tripId)") }
            let day = Int(ride.serviceDate.daysSinceEpoch - tt.firstDay.daysSinceEpoch)
            guard day >= 0, day < tt.dayCount else { throw fail("its service period does not include \(ride.serviceDate)") }
            guard let a = network.position(ofStopSequence: ride.boardSequence, inSourceTrip: source),
                  let b = network.position(ofStopSequence: ride.alightSequence, inSourceTrip: source),
                  let from = network.stopSequences.routePosition(ofSourceTrip: source, position: a),
                  let to = network.stopSequences.routePosition(ofSourceTrip: source, position: b), from < to
            else { throw fail("trip \(ride.tripId) no longer has stop_sequence \(ride.boardSequence) and \(ride.alightSequence)") }
            var found: MatchedRide?
            for k in Int(runOffsets[source])..<Int(runOffsets[source + 1]) {
                let t = TripIndex(Int(runs[k])), r = RouteIndex(Int(tripRoute[t.index]))
                let f = RoutePosition(from), g = RoutePosition(to)
                guard s.stops[tt.stop(onRoute: r, at: f).index].stopId == ride.boardStopId,
                      s.stops[tt.stop(onRoute: r, at: g).index].stopId == ride.alightStopId else { continue }
                guard Self.time(tt, route: r, trip: t, day: day, at: f, departure: true) == ride.scheduledDeparture,
                      Self.time(tt, route: r, trip: t, day: day, at: g, departure: false) == ride.scheduledArrival else { continue }
                found = matched(route: r, trip: t, day: day, board: f, alight: g)
                break
            }
            guard let found else { throw fail("trip \(ride.tripId) no longer runs between \(ride.boardStopId) and \(ride.alightStopId) at the times planned") }
            out.append(found)
        }
        return out
    }
}

/// A ride's state on a realtime state (the routing model's "Expected times").
public enum RideStanding: Sendable, Equatable {
    case runs(departure: Int64, arrival: Int64)
    case cancelled
    /// The trip no longer stops where the rider boards (`boarding`) or gets off.
    case skipped(boarding: Bool)
}

extension MatchedRide {
    /// Where the ride stands on `state` (nil: no realtime state; its planned times hold).
    func standing(on state: RealtimeState?, planned: FollowedTrip.Ride) -> RideStanding {
        guard let state, let u = state.update(ofStaticTrip: trip, day: day) else {
            return .runs(departure: planned.plannedDeparture, arrival: planned.plannedArrival)
        }
        guard let running = u.trip else { return .cancelled }
        if u.skipped.contains(board) { return .skipped(boarding: true) }
        if u.skipped.contains(alight) { return .skipped(boarding: false) }
        let tt = state.timetable, r = TripMatcher.route(of: running, in: tt)
        return .runs(departure: TripMatcher.time(tt, route: r, trip: running, day: day, at: board, departure: true),
                     arrival: TripMatcher.time(tt, route: r, trip: running, day: day, at: alight, departure: false))
    }
}
