import Foundation
import GTFS
import GTFSRealtime
import TransitModel

// The tests' reference for realtime: GTFS-Realtime TripUpdates applied to a COPY of a
// snapshot's trips, stop times and services, following docs/routing-model.md "Realtime"
// and nothing else (it shares no code with the overlay in Sources/Realtime). The reference
// router then routes on the copy, and the randomized comparison checks that the planner
// with the realtime overlay answers exactly as it does.
//
// An applied update of trip T on service date D:
// - T's service is replaced, for T alone, by a copy that does not run on D;
// - unless the update cancels T, a new trip "T@YYYY-MM-DD" (same route, shape, headsign,
//   accessibility) runs on D only (a service "@YYYY-MM-DD" of its feed), with the updated
//   times and pickup_type = drop_off_type = 1 at the skipped stops.
// Every stop time of a new trip has its time (the static trip's untimed stop times are
// interpolated first, as the routing model does, and then shifted).

/// What a GTFS-Realtime update may name a trip or a stop time by that `FeedSnapshot` does
/// not keep: `stop_sequence` of each stop time and `direction_id` of each trip, read from
/// the feed's own files (`read`) or made up by a test (`init`).
public struct RealtimeTripKeys: Sendable {
    /// Stop time -> its `stop_sequence`, indexed like the snapshot's stop times; -1 when not
    /// known (a trip whose rows in stop_times.txt do not line up with the snapshot's).
    public var stopSequence: [Int32]
    /// Trip -> `direction_id` (0 or 1), or -1 when the feed gives none.
    public var direction: [Int8]

    public init(stopSequence: [Int32], direction: [Int8]) {
        self.stopSequence = stopSequence; self.direction = direction
    }

    /// Stop sequences 1, 2, 3… along each trip (what a feed written in order has), and no
    /// directions: for networks built in code.
    public static func positional(_ snapshot: FeedSnapshot) -> RealtimeTripKeys {
        var sequence = [Int32](repeating: -1, count: snapshot.stopTimeCount)
        for t in snapshot.trips.indices {
            for (k, i) in snapshot.stopTimes(ofTrip: t).enumerated() { sequence[i] = Int32(k + 1) }
        }
        return RealtimeTripKeys(stopSequence: sequence, direction: [Int8](repeating: -1, count: snapshot.trips.count))
    }

    /// Reads `stop_sequence` and `direction_id` from each feed's GTFS files (feed id -> path
    /// of its `.zip` or folder), for the snapshot loaded from them: a trip's sequences,
    /// sorted, are its stop times' (the snapshot orders them by `stop_sequence`).
    public static func read(_ snapshot: FeedSnapshot, feeds: [String: String]) throws -> RealtimeTripKeys {
        var keys = RealtimeTripKeys(stopSequence: [Int32](repeating: -1, count: snapshot.stopTimeCount),
                                    direction: [Int8](repeating: -1, count: snapshot.trips.count))
        for (feedId, path) in feeds {
            guard let f = snapshot.feedIds.firstIndex(of: feedId) else { continue }
            var tripIndex: [String: Int] = [:]
            for (t, trip) in snapshot.trips.enumerated() where trip.feed == Int32(f) { tripIndex[trip.tripId] = t }
            let source = try openFeed(at: path)
            var sequences: [Int: [Int32]] = [:]
            try readCSV(source, "stop_times.txt") { column, record in
                guard let t = tripIndex[column("trip_id", record)], let s = Int32(column("stop_sequence", record)) else { return }
                sequences[t, default: []].append(s)
            }
            for (t, list) in sequences {
                let range = snapshot.stopTimes(ofTrip: t)
                guard list.count == range.count else { continue }
                for (i, s) in zip(range, list.sorted()) { keys.stopSequence[i] = s }
            }
            try readCSV(source, "trips.txt") { column, record in
                guard let t = tripIndex[column("trip_id", record)], let d = Int8(column("direction_id", record)) else { return }
                keys.direction[t] = d
            }
        }
        return keys
    }

    /// Calls `row` for each record of `file` with a lookup of a column by its header name.
    private static func readCSV(_ source: any GTFSFeedSource, _ file: String,
                                _ row: ((String, CSVParser.Record) -> String, CSVParser.Record) throws -> Void) throws {
        let parser = CSVParser()
        var header: [String: Int]?
        func handle(_ record: CSVParser.Record) throws {
            guard let columns = header else {
                var h: [String: Int] = [:]
                for i in 0..<record.count {
                    var name = record.string(i).trimmingCharacters(in: .whitespaces)
                    if name.hasPrefix("\u{FEFF}") { name.removeFirst() }
                    h[name] = i
                }
                header = h
                return
            }
            try row({ name, r in columns[name].map { r.string($0).trimmingCharacters(in: .whitespaces) } ?? "" }, record)
        }
        try source.read(file) { chunk in try parser.feed(chunk, handle) }
        try parser.finish(handle)
    }
}

/// GTFS-Realtime TripUpdates applied to a copy of a snapshot, per the routing model.
public enum ReferenceRealtime {
    /// What became of one TripUpdate entity.
    public struct Outcome: Sendable, Equatable, CustomStringConvertible {
        public var feedId: String
        public var entityId: String
        /// `applied`, or the reason it was not (`unknown-trip`, `times-backwards`, …).
        public var reason: String
        public var description: String { "\(feedId)/\(entityId): \(reason)" }
    }

    /// The copy, the number of updates applied, the others counted by reason, and each
    /// entity's outcome in message order (feeds in id order).
    public struct Result: Sendable {
        public var snapshot: FeedSnapshot
        public var applied: Int
        public var notApplied: [String: Int]
        public var outcomes: [Outcome]
    }

    /// Applies each feed's message (feed id -> message) to a copy of `snapshot`.
    /// Without `keys`, updates that name a stop time by `stop_sequence` name none
    /// (`unknown-stop`) and trips cannot be found by route and direction (`unknown-trip`):
    /// `FeedSnapshot` keeps neither; pass `RealtimeTripKeys.read` for real feeds.
    public static func apply(_ messages: [String: RealtimeMessage], to snapshot: FeedSnapshot, keys: RealtimeTripKeys? = nil)
        -> (snapshot: FeedSnapshot, applied: Int, notApplied: [String: Int]) {
        let r = applyDetailed(messages, to: snapshot, keys: keys)
        return (r.snapshot, r.applied, r.notApplied)
    }

    /// `apply`, with each entity's outcome.
    public static func applyDetailed(_ messages: [String: RealtimeMessage], to snapshot: FeedSnapshot,
                                     keys: RealtimeTripKeys? = nil) -> Result {
        var work = Work(snapshot, keys)
        var outcomes: [Outcome] = []
        for feedId in messages.keys.sorted() {
            let message = messages[feedId]!
            let feed = snapshot.feedIds.firstIndex(of: feedId)
            for update in message.tripUpdates {
                let reason: String
                if feed == nil {
                    reason = "unknown-feed"
                } else if message.incrementality != .fullDataset {
                    reason = "differential"
                } else {
                    reason = work.apply(update, feed: feed!, messageTime: message.timestamp)
                }
                outcomes.append(Outcome(feedId: feedId, entityId: update.entityId, reason: reason))
            }
        }
        var notApplied: [String: Int] = [:]
        for o in outcomes where o.reason != "applied" { notApplied[o.reason, default: 0] += 1 }
        return Result(snapshot: work.finish(), applied: outcomes.filter { $0.reason == "applied" }.count,
                      notApplied: notApplied, outcomes: outcomes)
    }

    /// The state of one application: the snapshot read, and what the applied updates change.
    struct Work {
        let snapshot: FeedSnapshot
        let keys: RealtimeTripKeys?
        // Stop time -> arrival and departure as the model routes on them (untimed ones interpolated).
        let arrival: [Int32]
        let departure: [Int32]
        // Trip -> not routed at all (an untimed first or last stop time, or fewer than two stop times).
        var leftOut: [Bool]
        // Trip -> has frequencies.txt rows.
        var frequency: [Bool]
        // Feed -> trip id -> trip.
        var tripsById: [[String: Int]]
        // Agency -> its time zone.
        let agencyZone: [TimeZone]
        // (trip, date) pairs an update named (the first one counts).
        var seen: Set<Int64> = []
        // Trip -> the dates it no longer runs on as scheduled.
        var removed: [Int: Set<ServiceDate>] = [:]
        // New trips: the trip copied, its date, its stop times' (arrival, departure, skipped).
        var added: [(trip: Int, date: ServiceDate, arrival: [Int32], departure: [Int32], skipped: [Bool])] = []

        init(_ snapshot: FeedSnapshot, _ keys: RealtimeTripKeys?) {
            self.snapshot = snapshot
            self.keys = keys
            var latitude = [Double](repeating: .nan, count: snapshot.stops.count), longitude = latitude
            for (i, stop) in snapshot.stops.enumerated() {
                if let lat = stop.latitude, let lon = stop.longitude {
                    latitude[i] = lat; longitude[i] = lon
                } else if stop.parent >= 0, let lat = snapshot.stops[Int(stop.parent)].latitude,
                          let lon = snapshot.stops[Int(stop.parent)].longitude {
                    latitude[i] = lat; longitude[i] = lon
                }
            }
            let (arrival, departure, out) = ReferenceTimetable.normalisedTimes(snapshot, latitude, longitude)
            self.arrival = arrival
            self.departure = departure
            leftOut = snapshot.trips.indices.map { snapshot.stopTimes(ofTrip: $0).count < 2 }
            for t in out { leftOut[Int(t)] = true }
            frequency = [Bool](repeating: false, count: snapshot.trips.count)
            for f in snapshot.frequencies { frequency[Int(f.trip)] = true }
            tripsById = snapshot.feedIds.map { _ in [:] }
            for (t, trip) in snapshot.trips.enumerated() where Int(trip.feed) < tripsById.count {
                if tripsById[Int(trip.feed)][trip.tripId] == nil { tripsById[Int(trip.feed)][trip.tripId] = t }
            }
            agencyZone = snapshot.agencies.map { TimeZone(identifier: $0.timezone) ?? TimeZone(identifier: "UTC")! }
        }

        /// The time zone of trip `t`'s agency.
        func zone(ofTrip t: Int) -> TimeZone {
            let route = snapshot.routes[Int(snapshot.trips[t].route)]
            if route.agency >= 0 && Int(route.agency) < agencyZone.count { return agencyZone[Int(route.agency)] }
            let feed = snapshot.trips[t].feed
            return snapshot.agencies.firstIndex { $0.feed == feed }.map { agencyZone[$0] } ?? TimeZone(identifier: "UTC")!
        }

        /// The local date of POSIX instant `time` in `zone`.
        static func localDate(_ time: Int64, _ zone: TimeZone) -> ServiceDate? {
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = zone
            let c = calendar.dateComponents([.year, .month, .day], from: Date(timeIntervalSince1970: TimeInterval(time)))
            return ServiceDate(year: c.year ?? 0, month: c.month ?? 0, day: c.day ?? 0)
        }

        /// Applies one TripUpdate of feed `feed`; returns `applied` or the reason it is not.
        mutating func apply(_ update: RealtimeMessage.TripUpdate, feed: Int, messageTime: Int64?) -> String {
            let descriptor = update.trip
            switch descriptor.scheduleRelationship {
            case .added: return "added-trip"
            case .new: return "new-trip"
            case .replacement: return "replacement-trip"
            case .duplicated: return "duplicated-trip"
            case .unscheduled: return "unscheduled-trip"
            case .scheduled, .canceled, .deleted: break
            }
            // The date and the start time as written, when given.
            var startDate: ServiceDate?
            if let text = descriptor.startDate {
                guard text.utf8.count == 8, text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
                      let d = ServiceDate.parse(text) else { return "bad-date" }
                startDate = d
            }
            var startTime: Int32?
            if let text = descriptor.startTime {
                var copy = text
                guard let s = copy.withUTF8({ ServiceTime.parse($0) }) else { return "bad-date" }
                startTime = s.seconds
            }
            // The trip and its date.
            let trip: Int, date: ServiceDate
            if let tripId = descriptor.tripId {
                guard let t = tripsById[feed][tripId] else { return "unknown-trip" }
                trip = t
                if let startDate {
                    date = startDate
                } else {
                    guard let time = messageTime else { return "no-date" }
                    guard let d = Self.localDate(time, zone(ofTrip: t)) else { return "bad-date" }
                    date = d
                }
            } else {
                guard let routeId = descriptor.routeId, let direction = descriptor.directionId, let startTime,
                      let startDate, let keys else { return "unknown-trip" }
                var found: [Int] = []
                for (t, candidate) in snapshot.trips.enumerated() where candidate.feed == Int32(feed) {
                    guard snapshot.routes[Int(candidate.route)].routeId == routeId, Int(keys.direction[t]) == direction,
                          !leftOut[t], departure[snapshot.stopTimes(ofTrip: t).lowerBound] == startTime,
                          ReferenceTimetable.runs(snapshot.services[Int(candidate.service)], on: startDate) else { continue }
                    found.append(t)
                }
                if found.isEmpty { return "unknown-trip" }
                if found.count > 1 { return "ambiguous-trip" }
                trip = found[0]
                date = startDate
            }
            if frequency[trip] { return "frequency-trip" }
            if leftOut[trip] || !ReferenceTimetable.runs(snapshot.services[Int(snapshot.trips[trip].service)], on: date) {
                return "not-running"
            }
            let key = Int64(trip) << 32 | Int64(UInt32(bitPattern: date.daysSinceEpoch))
            if seen.contains(key) { return "duplicate-update" }
            seen.insert(key)

            if descriptor.scheduleRelationship == .canceled || descriptor.scheduleRelationship == .deleted {
                removed[trip, default: []].insert(date)
                return "applied"
            }
            switch updatedTimes(update, trip: trip, date: date) {
            case .failure(let reason): return reason.code
            case .success(let times):
                removed[trip, default: []].insert(date)
                added.append((trip, date, times.arrival, times.departure, times.skipped))
                return "applied"
            }
        }

        struct Rejection: Error { var code: String }

        /// The trip's stop times on `date` after `update` (a SCHEDULED trip), or why not.
        func updatedTimes(_ update: RealtimeMessage.TripUpdate, trip: Int, date: ServiceDate)
            -> Swift.Result<(arrival: [Int32], departure: [Int32], skipped: [Bool]), Rejection> {
            let range = snapshot.stopTimes(ofTrip: trip)
            let n = range.count
            let scheduledArrival = Array(arrival[range]), scheduledDeparture = Array(departure[range])
            // Which stop time each stop time update names (at most one update a stop time).
            var updateAt = [RealtimeMessage.StopTimeUpdate?](repeating: nil, count: n)
            var previous = -1
            for u in update.stopTimeUpdates {
                let index: Int?
                if let sequence = u.stopSequence {
                    index = keys.flatMap { keys in range.firstIndex { Int(keys.stopSequence[$0]) == sequence } }.map { $0 - range.lowerBound }
                    if let i = index, i <= previous { return .failure(Rejection(code: "unordered-stops")) }
                } else if let stopId = u.stopId {
                    func at(_ k: Int) -> Bool { snapshot.stops[Int(snapshot.stopTimeStop[range.lowerBound + k])].stopId == stopId }
                    index = (previous + 1..<n).first(where: at)
                    // A stop the trip calls at only before the stop time named before.
                    if index == nil && (0..<max(0, previous + 1)).contains(where: at) { return .failure(Rejection(code: "unordered-stops")) }
                } else {
                    index = nil
                }
                guard let i = index else { return .failure(Rejection(code: "unknown-stop")) }
                updateAt[i] = u
                previous = i
            }

            let base = ReferenceTimetable.noonMinus12Hours(date, zone(ofTrip: trip))
            func delay(_ event: RealtimeMessage.StopTimeEvent?, scheduled: Int32) -> Int64? {
                guard let event else { return nil }
                if let time = event.time { return time - (base + Int64(scheduled)) }
                return event.delay.map { Int64($0) }
            }
            var newArrival = [Int64](repeating: 0, count: n), newDeparture = newArrival
            var skipped = [Bool](repeating: false, count: n)
            // The delay carried to the stop times after the last update (nil: none, scheduled times).
            var carried: Int64? = update.stopTimeUpdates.isEmpty ? update.delay.map { Int64($0) } : nil
            for i in 0..<n {
                var a = carried, d = carried
                if let u = updateAt[i] {
                    switch u.scheduleRelationship {
                    case .noData:
                        carried = nil; a = nil; d = nil
                    case .skipped:
                        skipped[i] = true
                    case .scheduled, .unscheduled:
                        let arrivalDelay = delay(u.arrival, scheduled: scheduledArrival[i])
                        let departureDelay = delay(u.departure, scheduled: scheduledDeparture[i])
                        if arrivalDelay != nil || departureDelay != nil {
                            a = arrivalDelay ?? departureDelay
                            d = departureDelay ?? arrivalDelay
                            carried = d
                        }
                    }
                }
                newArrival[i] = Int64(scheduledArrival[i]) + (a ?? 0)
                newDeparture[i] = Int64(scheduledDeparture[i]) + (d ?? 0)
            }
            // Times a service day can hold (far from `FeedSnapshot.untimed`).
            let limit: Int64 = 100_000_000
            guard (newArrival + newDeparture).allSatisfy({ abs($0) < limit }) else { return .failure(Rejection(code: "bad-date")) }
            for i in 0..<n {
                if newArrival[i] > newDeparture[i] || (i + 1 < n && newDeparture[i] > newArrival[i + 1]) {
                    return .failure(Rejection(code: "times-backwards"))
                }
            }
            return .success((newArrival.map { Int32($0) }, newDeparture.map { Int32($0) }, skipped))
        }

        /// The copy of the snapshot with every applied update.
        func finish() -> FeedSnapshot {
            var s = snapshot
            // Trips that no longer run as scheduled on some dates: a service of their own.
            for trip in removed.keys.sorted() {
                let dates = removed[trip]!
                var service = s.services[Int(s.trips[trip].service)]
                service.serviceId += "@-" + dates.sorted().map(\.iso8601).joined(separator: ",")
                service.added.removeAll { dates.contains($0) }
                service.removed.append(contentsOf: dates.sorted())
                s.trips[trip].service = Int32(s.services.count)
                s.services.append(service)
            }
            // The updated trips, each on its date's service.
            var dateService: [Int64: Int32] = [:]
            for new in added {
                let original = snapshot.trips[new.trip]
                let key = Int64(original.feed) << 32 | Int64(UInt32(bitPattern: new.date.daysSinceEpoch))
                if dateService[key] == nil {
                    dateService[key] = Int32(s.services.count)
                    s.services.append(FeedSnapshot.Service(feed: original.feed, serviceId: "@" + new.date.iso8601, added: [new.date]))
                }
                var trip = original
                trip.tripId = original.tripId + "@" + new.date.iso8601
                trip.service = dateService[key]!
                s.trips.append(trip)
                for (k, i) in snapshot.stopTimes(ofTrip: new.trip).enumerated() {
                    s.stopTimeStop.append(snapshot.stopTimeStop[i])
                    s.stopTimeArrival.append(new.arrival[k])
                    s.stopTimeDeparture.append(new.departure[k])
                    s.stopTimePickup.append(new.skipped[k] ? 1 : snapshot.stopTimePickup[i])
                    s.stopTimeDropOff.append(new.skipped[k] ? 1 : snapshot.stopTimeDropOff[i])
                    s.stopTimeShapeDistance.append(snapshot.stopTimeShapeDistance[i])
                }
                s.tripStopTimes.append(Int32(s.stopTimeStop.count))
            }
            return s
        }
    }
}
