import FeedNetwork
import Foundation
import GTFSRealtime
import Timetable
import TransitModel

/// One trip on one service date as an applied TripUpdate left it (docs/routing-model.md,
/// "Realtime"): what the planner tells a rider about a ride on it.
public struct RealtimeTrip: Sendable, Equatable {
    /// The trip in the static timetable (its scheduled times, names and shape).
    public let staticTrip: TripIndex
    /// The service day (days since `Timetable.firstDay`).
    public let day: Int
    /// The trip that runs that day in `RealtimeState.timetable`: the static trip when the
    /// update changed nothing, a trip of a route of its own when it did; nil: cancelled.
    public internal(set) var trip: TripIndex?
    /// Route positions (of the static trip's route) where it neither boards nor alights.
    public let skipped: [RoutePosition]
    /// The entity id of the update and its feed.
    public let entityId: String
    public let feedId: String
    public var cancelled: Bool { trip == nil }
}

/// Matches a feed's TripUpdates to timetable trips and dates and works out their times;
/// `finish` replaces each static route's day that an applied update changes (a trip's
/// times, a skipped stop, a cancellation) by routes of their own: every trip of that route
/// and day, updated or as scheduled, cancelled ones left out, skipped stops flagged per
/// run, split so that no trip overtakes another, on a service running that date only. The
/// static route is taken off that day (`Timetable.routeRemovedDays`, which the router
/// bakes into its per-days route lists: its loops pay nothing).
struct OverlayBuilder {
    let network: TransitNetwork
    let tt: Timetable
    let snapshot: FeedSnapshot
    /// Timetable trip -> its route.
    let tripRoute: [Int32]
    /// Snapshot trip -> its first timetable trip (`-1`: none, e.g. fewer than two stops).
    let firstRun: [Int32]
    /// Snapshot trips made from frequencies.txt.
    let frequencyTrips: Set<Int32>
    var zones: [String: TimeZone] = [:]

    var records: [RealtimeTrip] = []
    var recordIndex: [TripDay: Int] = [:]
    /// (trip, day) pairs an update named so far.
    var seen: Set<TripDay> = []
    /// Static (route, day) pairs an applied update changes.
    var affected: Set<RouteDay> = []
    struct RouteDay: Hashable { var route: Int32; var day: Int32 }
    /// (trip, day) -> its updated times and skipped positions; cancelled ones.
    var changed: [TripDay: (arr: [Int32], dep: [Int32], skipped: [Bool])] = [:]
    var cancelled: Set<TripDay> = []
    /// A run of a replaced route-day: its trip, times and (nil: none) skipped positions.
    struct Run { var trip: Int32; var arr: [Int32]; var dep: [Int32]; var skipped: [Bool]? }
    var reports: [RealtimeFeedReport] = []

    struct TripDay: Hashable { var trip: Int32; var day: Int32 }

    init(network: TransitNetwork) {
        self.network = network
        tt = network.timetable
        snapshot = network.snapshot
        var tripRoute = [Int32](repeating: 0, count: tt.tripCount)
        for r in 0..<tt.routeCount {
            for t in Int(tt.routeTripOffsets[r])..<Int(tt.routeTripOffsets[r + 1]) { tripRoute[t] = Int32(r) }
        }
        self.tripRoute = tripRoute
        var first = [Int32](repeating: -1, count: snapshot.trips.count)
        for t in 0..<tt.tripCount where first[tt.tripSource[t].index] < 0 { first[tt.tripSource[t].index] = Int32(t) }
        firstRun = first
        frequencyTrips = Set(snapshot.frequencies.map(\.trip))
    }

    /// Why an update is not applied: a reason code of the routing model and a detail.
    struct Refusal: Error { var code: String; var detail: String }

    mutating func zone(_ name: String) -> TimeZone {
        if let z = zones[name] { return z }
        let z = TimeZone(identifier: name) ?? TimeZone(identifier: "UTC")!
        zones[name] = z
        return z
    }

    static func parseDate(_ text: String) -> ServiceDate? {
        let b = Array(text.utf8)
        guard b.count == 8, b.allSatisfy({ $0 >= 48 && $0 <= 57 }) else { return nil }
        let n = b.map { Int($0) - 48 }
        return ServiceDate(year: n[0] * 1000 + n[1] * 100 + n[2] * 10 + n[3], month: n[4] * 10 + n[5], day: n[6] * 10 + n[7])
    }

    /// "H:MM:SS" or "HH:MM:SS" (hours past 23 allowed) as seconds.
    static func parseTime(_ text: String) -> Int32? {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 3, (1...3).contains(parts[0].count), parts[1].count == 2, parts[2].count == 2,
              let h = Int32(parts[0]), let m = Int32(parts[1]), let s = Int32(parts[2]), h >= 0, m < 60, s < 60, m >= 0, s >= 0
        else { return nil }
        return h * 3600 + m * 60 + s
    }

    /// Applies one feed's message.
    mutating func apply(feedId: String, _ message: RealtimeMessage) {
        var report = RealtimeFeedReport(feedId: feedId, messageTime: message.timestamp, tripUpdates: message.tripUpdates.count)
        func refuse(_ u: RealtimeMessage.TripUpdate, _ r: Refusal) {
            report.rejected[r.code, default: 0] += 1
            if report.samples.count < 10 { report.samples.append("\(u.entityId): \(r.code): \(r.detail)") }
        }
        guard let feed = snapshot.feedIds.firstIndex(of: feedId) else {
            for u in message.tripUpdates { refuse(u, Refusal(code: "unknown-feed", detail: "no feed \(feedId) is loaded")) }
            reports.append(report); return
        }
        guard message.incrementality == .fullDataset else {
            for u in message.tripUpdates { refuse(u, Refusal(code: "differential", detail: "a DIFFERENTIAL message is not applied")) }
            reports.append(report); return
        }
        var context = FeedContext(feed: Int32(feed), network: network, needsTrips: message.tripUpdates.contains { $0.trip.tripId != nil })
        for u in message.tripUpdates {
            do {
                try apply(u, feedId: feedId, message: message, context: &context)
                report.applied += 1
            } catch let r as Refusal {
                refuse(u, r)
            } catch {
                refuse(u, Refusal(code: "internal", detail: "\(error)"))
            }
        }
        reports.append(report)
    }

    /// One feed's ids, looked up by the updates.
    struct FeedContext {
        let feed: Int32
        /// trip_id -> snapshot trip.
        var tripById: [String: Int32] = [:]
        /// route_id -> snapshot route (made on first use).
        var routeById: [String: Int32]? = nil
        /// Snapshot route -> its timetable routes (made on first use).
        var routesOfSource: [Int32: [Int32]]? = nil
        init(feed: Int32, network: TransitNetwork, needsTrips: Bool) {
            self.feed = feed
            if needsTrips { tripById = network.tripIndex(feed: Int(feed)) }
        }
    }

    private mutating func apply(_ u: RealtimeMessage.TripUpdate, feedId: String, message: RealtimeMessage,
                                context: inout FeedContext) throws {
        switch u.trip.scheduleRelationship {
        case .scheduled, .canceled, .deleted: break
        case .added: throw Refusal(code: "added-trip", detail: "ADDED trips are not applied")
        case .new: throw Refusal(code: "new-trip", detail: "NEW trips are not applied")
        case .replacement: throw Refusal(code: "replacement-trip", detail: "REPLACEMENT trips are not applied")
        case .duplicated: throw Refusal(code: "duplicated-trip", detail: "DUPLICATED trips are not applied")
        case .unscheduled: throw Refusal(code: "unscheduled-trip", detail: "UNSCHEDULED trips are not applied")
        }
        let (sourceTrip, day) = try match(u.trip, message: message, context: &context)
        let t = Int(firstRun[Int(sourceTrip)])
        let key = TripDay(trip: Int32(t), day: Int32(day))
        // The first update of a trip and date counts, applied or not.
        guard seen.insert(key).inserted else {
            throw Refusal(code: "duplicate-update", detail: "a second update for trip \(snapshot.trips[Int(sourceTrip)].tripId) on that date")
        }
        let r = Int(tripRoute[t])
        if u.trip.scheduleRelationship == .canceled || u.trip.scheduleRelationship == .deleted {
            recordIndex[key] = records.count
            records.append(RealtimeTrip(staticTrip: TripIndex(t), day: day, trip: nil, skipped: [], entityId: u.entityId, feedId: feedId))
            cancelled.insert(key)
            affected.insert(RouteDay(route: Int32(r), day: Int32(day)))
            return
        }
        // The trip's scheduled times (seconds from its day's base), by route position.
        let stopsStart = Int(tt.routeStopOffsets[r]), length = Int(tt.routeStopOffsets[r + 1]) - stopsStart
        let j = t - Int(tt.routeTripOffsets[r])
        let base = tt.dayBase[Int(tt.routeTimeZone[r]) * tt.dayCount + day]
        var arr = [Int32](repeating: 0, count: length), dep = [Int32](repeating: 0, count: length)
        for p in 0..<length { arr[p] = tt.arrival(route: r, position: p, run: j); dep[p] = tt.departure(route: r, position: p, run: j) }

        // Which stop time each stop time update names.
        var at = [Int](repeating: -1, count: length)
        var previous = -1
        for (i, s) in u.stopTimeUpdates.enumerated() {
            let p: Int
            if let seq = s.stopSequence {
                // The feed's own stop_sequence (kept by the network), then the route position
                // of that stop time. The model names the stop time by stop_sequence when there
                // is one: a stop_id beside it is not checked.
                guard let q = network.position(ofStopSequence: Int32(clamping: seq), inSourceTrip: Int(sourceTrip)) else {
                    throw Refusal(code: "unknown-stop", detail: "no stop_sequence \(seq) in the trip")
                }
                guard let onRoute = network.stopSequences.routePosition(ofSourceTrip: Int(sourceTrip), position: q) else {
                    throw Refusal(code: "unknown-stop", detail: "stop_sequence \(seq) is at a stop the timetable leaves out (not boardable)")
                }
                p = onRoute
                guard p > previous else { throw Refusal(code: "unordered-stops", detail: "stop_sequence \(seq) is not after the stop before") }
            } else if let id = s.stopId {
                var found = -1
                for q in (previous + 1)..<max(previous + 1, length) where snapshot.stops[tt.routeStops[stopsStart + q].index].stopId == id {
                    found = q; break
                }
                if found < 0 {
                    let earlier = (0..<max(0, previous + 1)).contains { snapshot.stops[tt.routeStops[stopsStart + $0].index].stopId == id }
                    throw earlier ? Refusal(code: "unordered-stops", detail: "stop \(id) is not after the stop before")
                        : Refusal(code: "unknown-stop", detail: "the trip does not stop at \(id)")
                }
                p = found
            } else {
                throw Refusal(code: "unknown-stop", detail: "a stop time update names neither stop_sequence nor stop_id")
            }
            at[p] = i; previous = p
        }

        // Delays by position: updated, propagated, or none.
        var arrDelay = [Int64](repeating: 0, count: length), depDelay = [Int64](repeating: 0, count: length)
        var skipped = [Bool](repeating: false, count: length)
        if u.stopTimeUpdates.isEmpty {
            if let d = u.delay { for p in 0..<length { arrDelay[p] = Int64(d); depDelay[p] = Int64(d) } }
        } else {
            func delay(_ e: RealtimeMessage.StopTimeEvent?, _ scheduled: Int32) -> Int64? {
                guard let e else { return nil }
                if let time = e.time { return time - (base + Int64(scheduled)) }
                return e.delay.map(Int64.init)
            }
            var carried: Int64? = nil
            for p in 0..<length {
                var a = carried ?? 0, d = carried ?? 0
                if at[p] >= 0 {
                    let s = u.stopTimeUpdates[at[p]]
                    switch s.scheduleRelationship {
                    case .noData:
                        a = 0; d = 0; carried = nil
                    case .skipped:
                        skipped[p] = true
                    case .scheduled, .unscheduled:
                        let ad = delay(s.arrival, arr[p]), dd = delay(s.departure, dep[p])
                        if ad != nil || dd != nil {
                            a = ad ?? dd!; d = dd ?? ad!; carried = d
                        }
                    }
                }
                arrDelay[p] = a; depDelay[p] = d
            }
        }
        var newArr = arr, newDep = dep
        var isChanged = false
        for p in 0..<length {
            let a = Int64(arr[p]) + arrDelay[p], d = Int64(dep[p]) + depDelay[p]
            guard abs(a) < 1 << 30 && abs(d) < 1 << 30 else { throw Refusal(code: "bad-date", detail: "a time out of range") }
            newArr[p] = Int32(a); newDep[p] = Int32(d)
            if arrDelay[p] != 0 || depDelay[p] != 0 || skipped[p] { isChanged = true }
        }
        for p in 0..<length {
            if newArr[p] > newDep[p] || (p + 1 < length && newDep[p] > newArr[p + 1]) {
                let stop = snapshot.stops[tt.routeStops[stopsStart + p].index].stopId
                throw Refusal(code: "times-backwards", detail: "the times go backwards at stop \(stop) (position \(p + 1))")
            }
        }
        let skippedPositions = (0..<length).filter { skipped[$0] }.map(RoutePosition.init)
        recordIndex[key] = records.count
        // The trip's index in the overlay is set by `finish` when its route-day is replaced.
        records.append(RealtimeTrip(staticTrip: TripIndex(t), day: day, trip: TripIndex(t), skipped: skippedPositions,
                                    entityId: u.entityId, feedId: feedId))
        guard isChanged else { return }
        changed[key] = (newArr, newDep, skipped)
        affected.insert(RouteDay(route: Int32(r), day: Int32(day)))
    }

    /// The snapshot trip and service day an update names, or why none.
    private mutating func match(_ d: RealtimeMessage.TripDescriptor, message: RealtimeMessage, context: inout FeedContext)
        throws -> (trip: Int32, day: Int) {
        func dayOf(_ date: ServiceDate) -> Int { Int(date.daysSinceEpoch - tt.firstDay.daysSinceEpoch) }
        func runs(_ sourceTrip: Int32, _ day: Int) -> Bool {
            let t = firstRun[Int(sourceTrip)]
            return t >= 0 && tt.serviceRuns(tt.tripService[Int(t)], day: day)
        }
        if let id = d.tripId {
            guard let s = context.tripById[id], firstRun[Int(s)] >= 0 else { throw Refusal(code: "unknown-trip", detail: "no trip \(id)") }
            if frequencyTrips.contains(s) { throw Refusal(code: "frequency-trip", detail: "trip \(id) is made from frequencies.txt") }
            let date: ServiceDate
            if let text = d.startDate {
                guard let x = Self.parseDate(text) else { throw Refusal(code: "bad-date", detail: "start_date \(text)") }
                date = x
            } else {
                guard let time = message.timestamp else { throw Refusal(code: "no-date", detail: "no start_date and no message time") }
                let agency = snapshot.routes[Int(snapshot.trips[Int(s)].route)].agency
                let zone = zone(snapshot.agencies.isEmpty ? "UTC" : snapshot.agencies[Int(agency)].timezone)
                let seconds = time + Int64(zone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(time))))
                date = ServiceDate(daysSinceEpoch: Int32(floor(Double(seconds) / 86_400)))
            }
            guard runs(s, dayOf(date)) else { throw Refusal(code: "not-running", detail: "trip \(id) does not run on \(date.iso8601)") }
            return (s, dayOf(date))
        }
        // No trip_id: route, direction, start time and date.
        guard let routeId = d.routeId, d.directionId != nil, let startTime = d.startTime, let startDate = d.startDate else {
            throw Refusal(code: "unknown-trip", detail: "no trip_id, and not all of route_id, direction_id, start_time, start_date")
        }
        guard let date = Self.parseDate(startDate) else { throw Refusal(code: "bad-date", detail: "start_date \(startDate)") }
        guard let start = Self.parseTime(startTime) else { throw Refusal(code: "bad-date", detail: "start_time \(startTime)") }
        if context.routeById == nil {
            var byId: [String: Int32] = [:]
            for (i, r) in snapshot.routes.enumerated() where r.feed == context.feed { byId[r.routeId] = Int32(i) }
            context.routeById = byId
            var of: [Int32: [Int32]] = [:]
            for r in 0..<tt.routeCount { of[tt.routeSourceRoute[r].raw, default: []].append(Int32(r)) }
            context.routesOfSource = of
        }
        guard let source = context.routeById![routeId] else { throw Refusal(code: "unknown-trip", detail: "no route \(routeId)") }
        let day = dayOf(date)
        var found: [Int32] = []
        for r in context.routesOfSource![source] ?? [] {
            let rr = Int(r)
            guard tt.serviceRuns(tt.routeService[rr], day: day) else { continue }
            let nt = Int(tt.routeTripOffsets[rr + 1] - tt.routeTripOffsets[rr])
            for j in 0..<nt where tt.departure(route: rr, position: 0, run: j) == start {
                let s = tt.tripSource[Int(tt.routeTripOffsets[rr]) + j].raw
                guard let direction = snapshot.trips[Int(s)].directionId, Int(direction) == d.directionId else { continue }
                if !found.contains(s) { found.append(s) }
            }
        }
        guard !found.isEmpty else { throw Refusal(code: "unknown-trip", detail: "no trip of route \(routeId) leaves at \(startTime) on \(startDate)") }
        guard found.count == 1 else { throw Refusal(code: "ambiguous-trip", detail: "\(found.count) trips of route \(routeId) leave at \(startTime)") }
        if frequencyTrips.contains(found[0]) { throw Refusal(code: "frequency-trip", detail: "the trip is made from frequencies.txt") }
        return (found[0], day)
    }

    /// The overlay timetable and what became of every update.
    mutating func finish(messages: [String: RealtimeMessage], vehicles: [RealtimeVehicle] = []) -> RealtimeState {
        var extra = TimetableRoutes()
        var extraServiceDays: [UInt64] = []
        let serviceBase = tt.serviceWords == 0 ? 0 : tt.serviceDays.count / tt.serviceWords
        var dayService: [Int32: ServiceIndex] = [:]
        var newTripStatic: [TripIndex] = [], newRouteStatic: [RouteIndex] = []
        var removed: [(route: RouteIndex, day: Int32)] = []
        for routeDay in affected.sorted(by: { ($0.day, $0.route) < ($1.day, $1.route) }) {
            let r = Int(routeDay.route), day = routeDay.day
            removed.append((RouteIndex(r), day))
            let service: ServiceIndex
            if let s = dayService[day] { service = s } else {
                service = ServiceIndex(serviceBase + dayService.count)
                dayService[day] = service
                var words = [UInt64](repeating: 0, count: tt.serviceWords)
                words[Int(day) >> 6] |= 1 << UInt64(day & 63)
                extraServiceDays += words
            }
            // Every trip of the route that day: updated, as scheduled, or (cancelled) none.
            let stopsStart = Int(tt.routeStopOffsets[r]), stopsEnd = Int(tt.routeStopOffsets[r + 1]), length = stopsEnd - stopsStart
            let tripStart = Int(tt.routeTripOffsets[r]), nt = Int(tt.routeTripOffsets[r + 1]) - tripStart
            var runs: [Run] = []
            for j in 0..<nt {
                let t = tripStart + j, key = TripDay(trip: Int32(t), day: day)
                if cancelled.contains(key) { continue }
                if let c = changed[key] {
                    runs.append(Run(trip: Int32(t), arr: c.arr, dep: c.dep, skipped: c.skipped.contains(true) ? c.skipped : nil))
                } else {
                    var arr = [Int32](repeating: 0, count: length), dep = arr
                    for p in 0..<length { arr[p] = tt.arrival(route: r, position: p, run: j); dep[p] = tt.departure(route: r, position: p, run: j) }
                    runs.append(Run(trip: Int32(t), arr: arr, dep: dep, skipped: nil))
                }
            }
            // In departure order (updated trips may have moved), split so that no trip
            // overtakes another, as the static routes are. Runs that skip stops stay among
            // the others, their skipped stops flagged (`Timetable.tripStopSkipped`).
            for chain in TimetableBuilder.fifoChains(runs, trip: \.trip, departures: \.dep, arrivals: \.arr) {
                extra.routeStops += tt.routeStops[stopsStart..<stopsEnd]
                extra.routeCanBoard += tt.routeCanBoard[stopsStart..<stopsEnd]
                extra.routeCanAlight += tt.routeCanAlight[stopsStart..<stopsEnd]
                extra.routeStopShapeDistance += tt.routeStopShapeDistance[stopsStart..<stopsEnd]
                extra.routeStopOffsets.append(Int32(extra.routeStops.count))
                for p in 0..<length {
                    for run in chain { extra.departures.append(run.dep[p]); extra.arrivals.append(run.arr[p]) }
                }
                extra.routeTimeOffsets.append(Int32(extra.departures.count))
                if chain.contains(where: { $0.skipped != nil }) {
                    for run in chain { extra.tripStopSkipped += run.skipped ?? [Bool](repeating: false, count: length) }
                }
                extra.routeSkipOffsets.append(Int32(extra.tripStopSkipped.count))
                for run in chain {
                    if let i = recordIndex[TripDay(trip: run.trip, day: day)] {
                        records[i].trip = TripIndex(tt.tripCount + extra.tripService.count)
                    }
                    extra.tripService.append(service)
                    extra.tripSource.append(tt.tripSource[Int(run.trip)])
                    extra.tripShape.append(tt.tripShape[Int(run.trip)])
                    newTripStatic.append(TripIndex(Int(run.trip)))
                }
                extra.routeTripOffsets.append(Int32(extra.tripService.count))
                extra.routeTimeZone.append(tt.routeTimeZone[r])
                extra.routeSourceRoute.append(tt.routeSourceRoute[r])
                extra.routeService.append(service)
                newRouteStatic.append(RouteIndex(r))
            }
        }
        let timetable = removed.isEmpty ? tt
            : Timetable(overlaying: tt, extra: extra, extraServiceDays: extraServiceDays, removed: removed)
        var trips: [RealtimeState.TripDay: RealtimeTrip] = [:]
        trips.reserveCapacity(records.count)
        for record in records { trips[RealtimeState.TripDay(trip: record.staticTrip, day: Int32(record.day))] = record }
        return RealtimeState(timetable: timetable, reports: reports, messages: messages, staticTimetable: tt, trips: trips,
                             newTripStatic: newTripStatic, newRouteStatic: newRouteStatic, vehicles: vehicles)
    }
}
