import Foundation
import GTFS
import TransitModel

/// Reads feeds from the database into one `FeedSnapshot`: how the router's timetable is
/// built at server start.
///
/// The result is the snapshot `SnapshotSink` builds from the same feeds' zips, merged with
/// `FeedSnapshot.merging` in the order of `feedIds`, except for the order of entities
/// within a feed, which SQL does not keep. Here it is defined as:
///
/// - agencies, stops, routes, services and trips: by id, byte order (ids are `COLLATE
///   "C"`); an agency without `agency_id` (stored as NULL, `""` in the snapshot) first;
///   services are the union of calendar's and calendar_dates' `service_id`s;
/// - a service's `added` and `removed` dates: ascending;
/// - stop times: grouped by trip (trip order), by `stop_sequence` within a trip;
/// - frequencies: by trip, then `start_time`;
/// - transfers: by `line_number` (only rows with both stops and no route or trip ids, as
///   `SnapshotSink` keeps them);
/// - shapes: by shape_id, byte order (as `SnapshotSink` orders them too), points by
///   `shape_pt_sequence`.
///
/// Every table is read with one `COPY (SELECT …) TO STDOUT` (text) per feed, parsed from
/// the raw bytes (ids interned with `IdTable`, numbers parsed in place), in one read-only
/// REPEATABLE READ transaction, so an import committing meanwhile is either wholly seen or
/// not at all. stop_times and shapes, nearly all the bytes, are read without `ORDER BY` (a
/// server-side sort of millions of rows costs more than the whole load) and grouped here
/// with a counting sort (by trip, by shape); with several feeds, other connections in the
/// same snapshot (`pg_export_snapshot`) read and parse whole feeds' shapes and stop_times
/// side by side (see `connections`): the server's text output is the slowest part.
public struct SnapshotLoader {
    private let db: PGConnection

    /// How many connections read shapes and stop_times side by side, `db` included: each
    /// other one is opened with `db`'s parameters, reads whole feeds' shapes and
    /// stop_times in the same database snapshot (`pg_export_snapshot`) and parses them on
    /// a thread of its own. 1 reads everything on `db`. Default: the processor count, at
    /// most 4. Only loads of several feeds use more than one; when another connection
    /// cannot be opened, fewer are used.
    public var connections: Int

    public init(db: PGConnection) {
        self.db = db
        connections = min(4, max(1, ProcessInfo.processInfo.activeProcessorCount))
    }

    /// Loads `feeds` (feed ids, in that order; each once), or every loaded feed ordered by
    /// feed id (byte order) when nil. Feed index `i` of the result is `feeds[i]`.
    /// Throws `StoreError.feedNotFound` for an id that is not loaded, `.badFeedId` for an
    /// id listed twice. Runs a transaction of its own on `db`: call it outside one.
    public func load(feeds: [String]? = nil) throws -> FeedSnapshot {
        try db.execute("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")
        do {
            try db.execute(SnapshotLoader.sessionSettings)
            let snapshot = try loadInTransaction(feeds)
            try db.execute("COMMIT")
            return snapshot
        } catch {
            try? db.execute("ROLLBACK")
            throw error
        }
    }

    /// UTF-8 text, and doubles printed exactly (PostgreSQL 12+: any value > 0 gives the
    /// shortest text that reads back as the same double).
    static let sessionSettings = "SET LOCAL client_encoding = 'UTF8'; SET LOCAL extra_float_digits = 3"

    private func loadInTransaction(_ requested: [String]?) throws -> FeedSnapshot {
        var snapshot = FeedSnapshot()
        guard try db.scalar("SELECT to_regclass('gtfs.feeds') IS NOT NULL") == "t" else {
            if let first = requested?.first {
                throw StoreError(.feedNotFound, "no feed with id \"\(first)\" is loaded (no feeds are loaded)")
            }
            return snapshot
        }
        let rows = try db.query("""
            SELECT feed_id, coalesce((row_counts->>'stop_times')::bigint, 0), coalesce((row_counts->>'shapes')::bigint, 0)
            FROM gtfs.feeds ORDER BY feed_id COLLATE "C"
            """)
        let loaded = rows.map { $0[0]! }
        let stopTimeCounts = Dictionary(uniqueKeysWithValues: rows.map { ($0[0]!, Int($0[1] ?? "0") ?? 0) })
        let shapePointCounts = Dictionary(uniqueKeysWithValues: rows.map { ($0[0]!, Int($0[2] ?? "0") ?? 0) })
        let feedIds: [String]
        if let requested {
            var seen = Set<String>()
            for id in requested {
                guard stopTimeCounts[id] != nil else {
                    throw StoreError(.feedNotFound, "no feed with id \"\(id)\" is loaded"
                                     + (loaded.isEmpty ? " (no feeds are loaded)" : "; loaded feeds: \(loaded.joined(separator: ", "))"))
                }
                guard seen.insert(id).inserted else {
                    throw StoreError(.badFeedId, "the feed id \"\(id)\" is listed twice")
                }
            }
            feedIds = requested
        } else {
            feedIds = loaded
        }
        let total = feedIds.reduce(0) { $0 + (stopTimeCounts[$1] ?? 0) }
        snapshot.stopTimeStop.reserveCapacity(total)
        snapshot.stopTimeSequence.reserveCapacity(total)
        snapshot.stopTimeArrival.reserveCapacity(total)
        snapshot.stopTimeDeparture.reserveCapacity(total)
        snapshot.stopTimePickup.reserveCapacity(total)
        snapshot.stopTimeDropOff.reserveCapacity(total)
        snapshot.stopTimeShapeDistance.reserveCapacity(total)
        let points = feedIds.reduce(0) { $0 + (shapePointCounts[$1] ?? 0) }
        snapshot.shapeLatitude.reserveCapacity(points)
        snapshot.shapeLongitude.reserveCapacity(points)
        snapshot.shapeDistance.reserveCapacity(points)

        // Other connections for stop_times and shapes, in this transaction's snapshot.
        let queue = StopTimeQueue(count: feedIds.count)
        let wanted = min(max(1, connections), feedIds.count) - 1
        if wanted > 0 {
            let name = try db.scalar("SELECT pg_export_snapshot()")!
            for _ in 0..<wanted {
                guard let other = try? db.duplicate() else { break }
                queue.startHelper(OwnedConnection(other), snapshotName: name)
            }
        }
        defer { queue.cancelAndWaitForHelpers() }

        // Small tables feed by feed on this connection; each feed's shapes and stop_times
        // become a job as soon as its trips are known. Then this thread takes jobs too.
        var scratch = StopTimeScratch()
        var appended = 0
        func appendReady(wait: Bool) throws {
            while appended < feedIds.count, let part = try queue.result(appended, wait: wait) {
                part.append(to: &snapshot)
                appended += 1
            }
        }
        for feedId in feedIds {
            let job = try FeedReader(db: db, feedId: feedId, feed: Int32(snapshot.feedIds.count))
                .read(into: &snapshot, stopTimeHint: stopTimeCounts[feedId] ?? 0, shapeHint: shapePointCounts[feedId] ?? 0)
            if queue.hasHelpers {
                queue.add(job)
            } else {
                queue.finish(job.index, try readFeedJob(db, job, scratch: &scratch))
                try appendReady(wait: false)
            }
        }
        queue.closeAdding()
        while let job = try queue.take() {
            queue.finish(job.index, try readFeedJob(db, job, scratch: &scratch))
            try appendReady(wait: false)
        }
        try appendReady(wait: true)
        return snapshot
    }
}

/// A connection handed to one helper thread, which alone uses it from then on.
private final class OwnedConnection: @unchecked Sendable {
    let db: PGConnection
    init(_ db: PGConnection) { self.db = db }
}

/// What a stop_times and shapes reader needs to know about one feed.
private struct StopTimeJob: Sendable {
    /// The feed's index in the snapshot.
    let index: Int
    let feedId: String
    /// The feed's trips and stops, interned in snapshot order (index within the feed).
    let trips: IdTable
    let stops: IdTable
    /// Index in the snapshot of the feed's first stop.
    let stopBase: Int32
    /// Index in the snapshot of the feed's first trip, and each trip's shape_id.
    let tripBase: Int32
    let tripShapeIds: [String?]
    /// Rows expected (gtfs.feeds.row_counts), to size the arrays.
    let hint: Int
    let shapeHint: Int
}

/// One feed's stop times, grouped by trip and in stop_sequence order within a trip, and
/// its shapes.
private struct StopTimesPart: Sendable {
    /// Trip (within the feed) -> first stop time (within the feed); trips + 1 entries.
    var offsets: [Int32] = [0]
    var stop: [Int32] = [], sequence: [Int32] = [], arrival: [Int32] = [], departure: [Int32] = []
    var pickup: [UInt8] = [], dropOff: [UInt8] = [], distance: [Double] = []
    var feed: Int32 = 0
    var shapes = ShapeCollector.Result()
    /// Index in the snapshot of the feed's first trip; trip (within the feed) -> shape
    /// (within the feed) or -1.
    var tripBase: Int32 = 0
    var tripShape: [Int32] = []

    func append(to s: inout FeedSnapshot) {
        let shapeBase = Int32(s.shapeIds.count)
        shapes.append(to: &s, feed: feed)
        for (i, shape) in tripShape.enumerated() where shape >= 0 { s.trips[Int(tripBase) + i].shape = shapeBase + shape }

        let base = Int32(s.stopTimeStop.count)
        s.tripStopTimes.reserveCapacity(s.tripStopTimes.count + offsets.count - 1)
        for o in offsets.dropFirst() { s.tripStopTimes.append(base + o) }
        s.stopTimeStop.append(contentsOf: stop)
        s.stopTimeSequence.append(contentsOf: sequence)
        s.stopTimeArrival.append(contentsOf: arrival)
        s.stopTimeDeparture.append(contentsOf: departure)
        s.stopTimePickup.append(contentsOf: pickup)
        s.stopTimeDropOff.append(contentsOf: dropOff)
        s.stopTimeShapeDistance.append(contentsOf: distance)
    }
}

/// stop_times jobs shared by the loading thread and the helper threads, and their results.
private final class StopTimeQueue: @unchecked Sendable {
    private let condition = NSCondition()
    private var pending: [StopTimeJob] = []
    private var results: [StopTimesPart?]
    private var addingClosed = false
    private var cancelled = false
    private var failure: Error?
    private var helpers = 0
    private var running = 0

    init(count: Int) { results = Array(repeating: nil, count: count) }

    var hasHelpers: Bool { condition.lock(); defer { condition.unlock() }; return helpers > 0 }

    /// Starts a thread that reads jobs on `connection` in the snapshot `snapshotName`.
    func startHelper(_ connection: OwnedConnection, snapshotName: String) {
        condition.lock()
        helpers += 1
        running += 1
        condition.unlock()
        let thread = Thread { [self] in
            let db = connection.db
            do {
                try db.execute("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")
                try db.execute("SET TRANSACTION SNAPSHOT \(db.literal(snapshotName))")
                try db.execute(SnapshotLoader.sessionSettings)
            } catch {
                // This helper cannot see the same data: it takes no job (the others and the
                // loading thread do them).
                try? db.execute("ROLLBACK")
                helperEnded()
                return
            }
            do {
                var scratch = StopTimeScratch()
                while let job = try take() {
                    finish(job.index, try readFeedJob(db, job, scratch: &scratch))
                }
                try db.execute("COMMIT")
            } catch {
                try? db.execute("ROLLBACK")
                fail(error)
            }
            helperEnded()
        }
        thread.name = "snapshot-stop-times"
        thread.start()
    }

    private func helperEnded() {
        condition.lock()
        running -= 1
        condition.broadcast()
        condition.unlock()
    }

    func add(_ job: StopTimeJob) {
        condition.lock()
        pending.append(job)
        condition.broadcast()
        condition.unlock()
    }

    func closeAdding() {
        condition.lock()
        addingClosed = true
        condition.broadcast()
        condition.unlock()
    }

    /// The first waiting job, in feed order (so that results come in about the order
    /// they are appended, and few wait in memory); nil once every job is taken (or the
    /// load failed).
    func take() throws -> StopTimeJob? {
        condition.lock()
        defer { condition.unlock() }
        while pending.isEmpty && !addingClosed && !cancelled && failure == nil { condition.wait() }
        if let failure { throw failure }
        if cancelled || pending.isEmpty { return nil }
        return pending.removeFirst()
    }

    func finish(_ index: Int, _ part: StopTimesPart) {
        condition.lock()
        results[index] = part
        condition.broadcast()
        condition.unlock()
    }

    func fail(_ error: Error) {
        condition.lock()
        if failure == nil { failure = error }
        condition.broadcast()
        condition.unlock()
    }

    /// Feed `index`'s stop times (handed over once), waiting for them when `wait`.
    func result(_ index: Int, wait: Bool) throws -> StopTimesPart? {
        condition.lock()
        defer { condition.unlock() }
        while wait && results[index] == nil && failure == nil {
            // Every job taken, no helper left to finish this one: it can never come.
            if running == 0 && pending.isEmpty && addingClosed { break }
            condition.wait()
        }
        if let failure { throw failure }
        let part = results[index]
        results[index] = nil
        if wait && part == nil { throw StoreError(.queryFailed, "stop_times of feed \(index) were never read") }
        return part
    }

    /// Stops handing out jobs and waits until every helper thread has ended.
    func cancelAndWaitForHelpers() {
        condition.lock()
        cancelled = true
        condition.broadcast()
        while running > 0 { condition.wait() }
        condition.unlock()
    }
}

/// Stop times of one feed as they come from the server (any order), reused across feeds.
private struct StopTimeScratch {
    var trip: [Int32] = [], sequence: [Int32] = [], stop: [Int32] = []
    var arrival: [Int32] = [], departure: [Int32] = []
    var pickup: [UInt8] = [], dropOff: [UInt8] = [], distance: [Double] = []

    mutating func reset(capacity: Int) {
        trip.removeAll(keepingCapacity: true); sequence.removeAll(keepingCapacity: true)
        stop.removeAll(keepingCapacity: true); arrival.removeAll(keepingCapacity: true)
        departure.removeAll(keepingCapacity: true); pickup.removeAll(keepingCapacity: true)
        dropOff.removeAll(keepingCapacity: true); distance.removeAll(keepingCapacity: true)
        trip.reserveCapacity(capacity); sequence.reserveCapacity(capacity); stop.reserveCapacity(capacity)
        arrival.reserveCapacity(capacity); departure.reserveCapacity(capacity); pickup.reserveCapacity(capacity)
        dropOff.reserveCapacity(capacity); distance.reserveCapacity(capacity)
    }
}

/// Reads one feed's shapes, then its stop times.
private func readFeedJob(_ db: PGConnection, _ job: StopTimeJob, scratch: inout StopTimeScratch) throws -> StopTimesPart {
    let shapes = try readShapes(db, job)
    var part = try readStopTimes(db, job, scratch: &scratch)
    part.feed = Int32(job.index)
    part.tripBase = job.tripBase
    part.tripShape = job.tripShapeIds.map { id in id.flatMap { shapes.index(of: $0) } ?? -1 }
    part.shapes = shapes
    return part
}

/// Reads one feed's shapes in the server's order (no ORDER BY, as stop_times) and groups
/// them with `ShapeCollector`, as `SnapshotSink` does.
private func readShapes(_ db: PGConnection, _ job: StopTimeJob) throws -> ShapeCollector.Result {
    func bad(_ what: String) -> StoreError { StoreError(.queryFailed, "feed \"\(job.feedId)\": shapes \(what)") }
    var shapes = ShapeCollector(capacity: job.shapeHint)
    try db.copyOut("""
        COPY (SELECT shape_id, shape_pt_sequence, shape_pt_lat, shape_pt_lon, shape_dist_traveled
              FROM gtfs.shapes WHERE feed_id = \(db.literal(job.feedId))) TO STDOUT
        """) { bytes in
        var r = CopyRow(bytes)
        let id = r.next(), sequence = r.next(), lat = r.next(), lon = r.next(), distance = r.next()
        guard let seq = sequence.int(), let la = lat.double(), let lo = lon.double() else {
            throw bad("has a row with an empty shape_pt_sequence, shape_pt_lat or shape_pt_lon")
        }
        let dist = distance.double() ?? .nan
        guard id.withBytes({ shapes.add($0, sequence: Int32(truncatingIfNeeded: seq), latitude: la, longitude: lo, distance: dist) }) != nil else {
            throw bad("has an empty shape_id")
        }
    }
    return shapes.finish()
}

/// Reads one feed's stop_times in the server's order (no ORDER BY: a server-side sort of
/// millions of rows costs more than the whole load), then groups them by trip (counting
/// sort, stable) and sorts each trip's slice by stop_sequence, as `SnapshotSink` does.
private func readStopTimes(_ db: PGConnection, _ job: StopTimeJob, scratch st: inout StopTimeScratch) throws -> StopTimesPart {
    func bad(_ what: String) -> StoreError { StoreError(.queryFailed, "feed \"\(job.feedId)\": stop_times \(what)") }
    st.reset(capacity: job.hint)
    let trips = job.trips, stops = job.stops, stopBase = job.stopBase
    // Rows of one trip mostly come together: compare with the previous trip id first.
    var lastTrip: [UInt8] = [], lastTripIndex: Int32 = -1
    lastTrip.reserveCapacity(64)
    try db.copyOut("""
        COPY (SELECT trip_id, stop_sequence, stop_id, arrival_time, departure_time, pickup_type, drop_off_type,
                     shape_dist_traveled
              FROM gtfs.stop_times WHERE feed_id = \(db.literal(job.feedId))) TO STDOUT
        """) { bytes in
        var r = CopyRow(bytes)
        let tripField = r.next(), sequence = r.next(), stopField = r.next()
        let arrival = r.next(), departure = r.next(), pickup = r.next(), dropOff = r.next(), distance = r.next()
        guard let t = tripField.withBytes({ b -> Int32? in
            if CopyField.same(b, lastTrip) { return lastTripIndex }
            guard let t = trips.find(b) else { return nil }
            lastTrip.removeAll(keepingCapacity: true)
            lastTrip.append(contentsOf: b)
            lastTripIndex = t
            return t
        }) ?? nil else { throw bad("names a trip that is not in trips") }
        guard let stop = stopField.withBytes({ stops.find($0) }) ?? nil else { throw bad("names a stop that is not in stops") }
        guard let seq = sequence.int() else { throw bad("has an empty stop_sequence") }
        st.trip.append(t)
        st.sequence.append(Int32(truncatingIfNeeded: seq))
        st.stop.append(stopBase + stop)
        st.arrival.append(arrival.int().map { Int32(truncatingIfNeeded: $0) } ?? FeedSnapshot.untimed)
        st.departure.append(departure.int().map { Int32(truncatingIfNeeded: $0) } ?? FeedSnapshot.untimed)
        st.pickup.append(UInt8(truncatingIfNeeded: pickup.int() ?? 0))
        st.dropOff.append(UInt8(truncatingIfNeeded: dropOff.int() ?? 0))
        st.distance.append(distance.double() ?? .nan)
    }

    let tripCount = trips.count, count = st.trip.count
    var part = StopTimesPart()
    part.offsets = [Int32](repeating: 0, count: tripCount + 1)
    var order = [Int32](repeating: 0, count: count)
    part.offsets.withUnsafeMutableBufferPointer { off in
        st.trip.withUnsafeBufferPointer { tr in
            for t in tr { off[Int(t) + 1] += 1 }
            for i in 0..<tripCount { off[i + 1] += off[i] }
            var next = Array(off)
            next.withUnsafeMutableBufferPointer { nx in
                order.withUnsafeMutableBufferPointer { ord in
                    for i in 0..<count {
                        let t = Int(tr[i])
                        ord[Int(nx[t])] = Int32(i)
                        nx[t] += 1
                    }
                }
            }
        }
        st.sequence.withUnsafeBufferPointer { seq in
            order.withUnsafeMutableBufferPointer { ord in
                for t in 0..<tripCount {
                    let lo = Int(off[t]), hi = Int(off[t + 1])
                    guard hi - lo > 1 else { continue }
                    var sorted = true
                    for i in lo..<(hi - 1) where seq[Int(ord[i])] > seq[Int(ord[i + 1])] { sorted = false; break }
                    if !sorted {
                        var slice = UnsafeMutableBufferPointer(rebasing: ord[lo..<hi])
                        slice.sort { seq[Int($0)] < seq[Int($1)] }
                    }
                }
            }
        }
    }
    order.withUnsafeBufferPointer { ord in
        part.stop = gather(st.stop, ord)
        part.sequence = gather(st.sequence, ord)
        part.arrival = gather(st.arrival, ord)
        part.departure = gather(st.departure, ord)
        part.pickup = gather(st.pickup, ord)
        part.dropOff = gather(st.dropOff, ord)
        part.distance = gather(st.distance, ord)
    }
    return part
}

/// `source[order[i]]` for every i.
private func gather<T>(_ source: [T], _ order: UnsafeBufferPointer<Int32>) -> [T] {
    source.withUnsafeBufferPointer { src in
        [T](unsafeUninitializedCapacity: order.count) { out, n in
            for i in 0..<order.count { (out.baseAddress! + i).initialize(to: src[Int(order[i])]) }
            n = order.count
        }
    }
}

/// Reads the tables of one feed but stop_times and appends its entities to the snapshot
/// (indexes shifted by what earlier feeds added, as `FeedSnapshot.merging` does).
private struct FeedReader {
    let db: PGConnection
    let feedId: String
    let feed: Int32

    private func copy(_ select: String, _ row: (inout CopyRow) throws -> Void) throws {
        try db.copyOut("COPY (\(select)) TO STDOUT") { bytes in
            var r = CopyRow(bytes)
            try row(&r)
        }
    }

    private func bad(_ table: String, _ what: String) -> StoreError {
        StoreError(.queryFailed, "feed \"\(feedId)\": \(table) \(what)")
    }

    /// Appends everything but the stop times; returns the job that reads those.
    func read(into s: inout FeedSnapshot, stopTimeHint: Int, shapeHint: Int) throws -> StopTimeJob {
        let lit = db.literal(feedId)
        let agencyBase = Int32(s.agencies.count), stopBase = Int32(s.stops.count)
        let routeBase = Int32(s.routes.count), serviceBase = Int32(s.services.count)
        let tripBase = Int32(s.trips.count)
        s.feedIds.append(feedId)
        // What the feed says about itself (its first feed_info row, in file order) and the
        // place declared at import.
        let info = try db.query("""
            SELECT i.feed_publisher_name, i.feed_publisher_url, i.feed_version, f.place
            FROM gtfs.feeds f LEFT JOIN LATERAL (
                SELECT * FROM gtfs.feed_info i WHERE i.feed_id = f.feed_id ORDER BY i.ctid LIMIT 1) i ON true
            WHERE f.feed_id = $1
            """, [feedId]).first
        while s.feedInfo.count < Int(feed) { s.feedInfo.append(.init()) }
        s.feedInfo.append(.init(publisherName: info?[0], publisherURL: info?[1], version: info?[2], place: info?[3]))

        // Agencies. The empty id (NULL) is the key of a feed's only agency without agency_id.
        var agencies = IdTable(capacity: 16)
        try copy("SELECT agency_id, agency_name, agency_timezone FROM gtfs.agency WHERE feed_id = \(lit) ORDER BY agency_id NULLS FIRST") { r in
            let id = r.next(), name = r.next(), zone = r.next()
            let key = id.string() ?? ""
            agencies.insert(key)
            s.agencies.append(.init(feed: feed, agencyId: key, name: name.string() ?? "", timezone: zone.string() ?? "UTC"))
        }

        // Stops; parents are resolved once every stop id is known.
        var stops = IdTable(capacity: 4096)
        var parents: [(stop: Int, parent: String)] = []
        try copy("""
            SELECT stop_id, stop_name, stop_lat, stop_lon, location_type, parent_station, platform_code, wheelchair_boarding, stop_code
            FROM gtfs.stops WHERE feed_id = \(lit) ORDER BY stop_id
            """) { r in
            let id = r.next(), name = r.next(), lat = r.next(), lon = r.next()
            let type = r.next(), parent = r.next(), platform = r.next(), wheelchair = r.next(), code = r.next()
            guard let stopId = id.string(), id.withBytes({ stops.insert($0).inserted }) == true else {
                throw bad("stops", "has an empty or repeated stop_id")
            }
            if let p = parent.string() { parents.append((s.stops.count, p)) }
            s.stops.append(.init(feed: feed, stopId: stopId, name: name.string() ?? "",
                                 latitude: lat.double(), longitude: lon.double(), locationType: Int8(type.int() ?? 0),
                                 parent: -1, platformCode: platform.string(),
                                 wheelchairBoarding: UInt8(truncatingIfNeeded: wheelchair.int() ?? 0),
                                 stopCode: code.string()))
        }
        for (stop, parent) in parents {
            if let p = stops.find(parent) { s.stops[stop].parent = stopBase + p }
        }

        // Routes.
        var routes = IdTable(capacity: 1024)
        try copy("""
            SELECT route_id, agency_id, route_short_name, route_long_name, route_type, route_color, route_text_color
            FROM gtfs.routes WHERE feed_id = \(lit) ORDER BY route_id
            """) { r in
            let id = r.next(), agency = r.next(), short = r.next(), long = r.next()
            let type = r.next(), color = r.next(), textColor = r.next()
            guard let routeId = id.string(), id.withBytes({ routes.insert($0).inserted }) == true else {
                throw bad("routes", "has an empty or repeated route_id")
            }
            let a = agency.withBytes { agencies.find($0) } ?? nil
            s.routes.append(.init(feed: feed, routeId: routeId, agency: agencyBase + (a ?? 0),
                                  shortName: short.string(), longName: long.string(), type: Int32(type.int() ?? 0),
                                  color: color.string(), textColor: textColor.string()))
        }

        // Services: calendar's and calendar_dates' service ids, by id.
        var services = IdTable(capacity: 1024)
        try copy("""
            SELECT s.service_id, c.monday, c.tuesday, c.wednesday, c.thursday, c.friday, c.saturday, c.sunday,
                   c.start_date - DATE '1970-01-01', c.end_date - DATE '1970-01-01'
            FROM (SELECT service_id FROM gtfs.calendar WHERE feed_id = \(lit)
                  UNION SELECT service_id FROM gtfs.calendar_dates WHERE feed_id = \(lit)) s
            LEFT JOIN gtfs.calendar c ON c.feed_id = \(lit) AND c.service_id = s.service_id
            ORDER BY s.service_id
            """) { r in
            let id = r.next()
            guard let serviceId = id.string(), id.withBytes({ services.insert($0).inserted }) == true else {
                throw bad("calendar", "has an empty or repeated service_id")
            }
            var mask: UInt8 = 0
            for day in 0..<7 {
                if r.next().int() == 1 { mask |= 1 << UInt8(day) }
            }
            let start = r.next().int(), end = r.next().int()
            s.services.append(.init(feed: feed, serviceId: serviceId, weekdays: mask,
                                    start: start.map { ServiceDate(daysSinceEpoch: Int32($0)) },
                                    end: end.map { ServiceDate(daysSinceEpoch: Int32($0)) }))
        }
        try copy("""
            SELECT service_id, date - DATE '1970-01-01', exception_type FROM gtfs.calendar_dates
            WHERE feed_id = \(lit) ORDER BY date
            """) { r in
            let id = r.next(), day = r.next(), type = r.next()
            guard let found = id.withBytes({ services.find($0) }), let svc = found, let d = day.int() else {
                throw bad("calendar_dates", "names a service that is not there")
            }
            let date = ServiceDate(daysSinceEpoch: Int32(d))
            if type.int() == 1 { s.services[Int(serviceBase + svc)].added.append(date) }
            else { s.services[Int(serviceBase + svc)].removed.append(date) }
        }

        // Trips.
        var trips = IdTable(capacity: 16_384)
        try copy("""
            SELECT trip_id, route_id, service_id, trip_headsign, shape_id, wheelchair_accessible, direction_id
            FROM gtfs.trips WHERE feed_id = \(lit) ORDER BY trip_id
            """) { r in
            let id = r.next(), route = r.next(), service = r.next(), headsign = r.next(), shape = r.next()
            let wheelchair = r.next(), direction = r.next()
            guard let tripId = id.string(), id.withBytes({ trips.insert($0).inserted }) == true else {
                throw bad("trips", "has an empty or repeated trip_id")
            }
            guard let rt = route.withBytes({ routes.find($0) }) ?? nil else { throw bad("trips", "names an unknown route") }
            guard let sv = service.withBytes({ services.find($0) }) ?? nil else { throw bad("trips", "names an unknown service") }
            s.trips.append(.init(feed: feed, tripId: tripId, route: routeBase + rt, service: serviceBase + sv,
                                 headsign: headsign.string(), shapeId: shape.string(), shape: -1,
                                 wheelchairAccessible: UInt8(truncatingIfNeeded: wheelchair.int() ?? 0),
                                 directionId: direction.int().map { Int8(truncatingIfNeeded: $0) }))
        }

        // Frequencies.
        try copy("""
            SELECT trip_id, start_time, end_time, headway_secs FROM gtfs.frequencies
            WHERE feed_id = \(lit) ORDER BY trip_id, start_time
            """) { r in
            let id = r.next(), start = r.next(), end = r.next(), headway = r.next()
            guard let t = id.withBytes({ trips.find($0) }) ?? nil, let a = start.int(), let b = end.int(), let h = headway.int() else {
                throw bad("frequencies", "has a row with an unknown trip or an empty time")
            }
            s.frequencies.append(.init(trip: tripBase + t, startTime: Int32(a), endTime: Int32(b), headwaySeconds: Int32(h)))
        }

        // Transfers between two stops of the feed, naming no route or trip.
        try copy("""
            SELECT from_stop_id, to_stop_id, transfer_type, min_transfer_time, line_number FROM gtfs.transfers
            WHERE feed_id = \(lit) AND from_stop_id IS NOT NULL AND to_stop_id IS NOT NULL
              AND from_route_id IS NULL AND to_route_id IS NULL AND from_trip_id IS NULL AND to_trip_id IS NULL
            ORDER BY line_number
            """) { r in
            let from = r.next(), to = r.next(), type = r.next(), minTime = r.next(), line = r.next()
            guard let f = from.withBytes({ stops.find($0) }) ?? nil, let t = to.withBytes({ stops.find($0) }) ?? nil else {
                return  // a stop the feed does not have (a warning at import): not kept, as SnapshotSink does
            }
            s.transfers.append(.init(fromStop: stopBase + f, toStop: stopBase + t, type: Int8(type.int() ?? 0),
                                     minTransferTime: minTime.int().map(Int32.init), line: Int32(line.int() ?? 0)))
        }
        // Trips' shapes are resolved once the feed's shapes are read (with its stop times).
        return StopTimeJob(index: Int(feed), feedId: feedId, trips: trips, stops: stops, stopBase: stopBase,
                           tripBase: tripBase, tripShapeIds: s.trips[Int(tripBase)...].map(\.shapeId),
                           hint: stopTimeHint, shapeHint: shapeHint)
    }
}

// MARK: - COPY text format

/// One row of `COPY … TO STDOUT` text output, read field by field (tab-separated, `\N`
/// for NULL, backslash escapes). Bytes are valid only while the row is.
struct CopyRow {
    private let base: UnsafePointer<UInt8>?
    private let end: Int
    private var position = 0

    init(_ bytes: UnsafeBufferPointer<UInt8>) {
        base = bytes.baseAddress
        var n = bytes.count
        if n > 0 && bytes[n - 1] == 0x0A { n -= 1 }
        end = n
    }

    /// The next field (a NULL field past the end of the row).
    @inline(__always)
    mutating func next() -> CopyField {
        guard let base, position <= end else { return CopyField(start: nil, count: 0, escaped: true, isNull: true) }
        let start = position
        var escaped = false
        var i = position
        while i < end {
            let c = base[i]
            if c == 0x09 { break }
            if c == 0x5C { escaped = true }
            i += 1
        }
        position = i + 1
        let count = i - start
        let isNull = escaped && count == 2 && base[start] == 0x5C && base[start + 1] == 0x4E
        return CopyField(start: base + start, count: count, escaped: escaped, isNull: isNull)
    }
}

/// One field of a COPY text row: raw bytes, still escaped when `escaped`.
struct CopyField {
    let start: UnsafePointer<UInt8>?
    let count: Int
    /// True when the bytes hold a backslash (an escape, or `\N`).
    let escaped: Bool
    let isNull: Bool

    /// The bytes as the server escaped them.
    @inline(__always)
    var raw: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: start, count: count) }

    /// Calls `body` with the unescaped bytes; nil when NULL.
    @inline(__always)
    func withBytes<R>(_ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R? {
        if isNull { return nil }
        if !escaped { return try body(raw) }
        let bytes = unescaped()
        return try bytes.withUnsafeBufferPointer { try body($0) }
    }

    /// The text, unescaped; nil when NULL.
    func string() -> String? {
        if isNull { return nil }
        if !escaped { return String(decoding: raw, as: UTF8.self) }
        return String(decoding: unescaped(), as: UTF8.self)
    }

    /// COPY text escapes: `\\`, `\b`, `\f`, `\n`, `\r`, `\t`, `\v`, `\` + octal digits,
    /// `\x` + hex digits; any other escaped byte stands for itself.
    func unescaped() -> [UInt8] {
        let b = raw
        var out: [UInt8] = []
        out.reserveCapacity(b.count)
        var i = 0
        while i < b.count {
            let c = b[i]
            i += 1
            guard c == 0x5C, i < b.count else { out.append(c); continue }
            let e = b[i]
            i += 1
            switch e {
            case UInt8(ascii: "b"): out.append(0x08)
            case UInt8(ascii: "f"): out.append(0x0C)
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "r"): out.append(0x0D)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "v"): out.append(0x0B)
            case UInt8(ascii: "0")...UInt8(ascii: "7"):
                var v = Int(e - 0x30), digits = 1
                while digits < 3, i < b.count, b[i] >= 0x30 && b[i] <= 0x37 { v = v * 8 + Int(b[i] - 0x30); i += 1; digits += 1 }
                out.append(UInt8(truncatingIfNeeded: v))
            case UInt8(ascii: "x") where i < b.count && CopyField.hex(b[i]) != nil:
                var v = 0, digits = 0
                while digits < 2, i < b.count, let h = CopyField.hex(b[i]) { v = v * 16 + h; i += 1; digits += 1 }
                out.append(UInt8(v))
            default: out.append(e)
            }
        }
        return out
    }

    private static func hex(_ c: UInt8) -> Int? {
        switch c {
        case 0x30...0x39: return Int(c - 0x30)
        case 0x41...0x46: return Int(c - 0x41 + 10)
        case 0x61...0x66: return Int(c - 0x61 + 10)
        default: return nil
        }
    }

    /// An integer (as PostgreSQL prints integer and smallint columns); nil when NULL.
    @inline(__always)
    func int() -> Int? {
        guard !isNull, count > 0, let p = start else { return nil }
        var i = 0, negative = false
        if p[0] == 0x2D { negative = true; i = 1 }
        var v = 0
        while i < count {
            let d = Int(p[i]) &- 0x30
            guard d >= 0 && d <= 9 else { return nil }
            v = v &* 10 &+ d
            i += 1
        }
        return negative ? -v : v
    }

    /// A double as PostgreSQL prints it; nil when NULL.
    ///
    /// Fast path (Clinger): at most 15 significant digits and a decimal exponent within
    /// ±22 give an exact mantissa and an exact power of ten, so one multiplication or
    /// division rounds correctly. Anything else goes through `Double(String)`.
    @inline(__always)
    func double() -> Double? {
        guard !isNull, count > 0, let p = start else { return nil }
        var i = 0, negative = false
        if p[0] == 0x2D { negative = true; i = 1 }
        var mantissa: UInt64 = 0, digits = 0, exponent = 0, sawDigit = false, sawPoint = false
        while i < count {
            let c = p[i]
            if c >= 0x30 && c <= 0x39 {
                sawDigit = true
                if mantissa != 0 || c != 0x30 { digits += 1 }
                mantissa = mantissa &* 10 &+ UInt64(c - 0x30)
                if sawPoint { exponent -= 1 }
            } else if c == 0x2E && !sawPoint {
                sawPoint = true
            } else {
                return slowDouble()
            }
            i += 1
        }
        guard sawDigit, digits <= 15, exponent >= -22 else { return slowDouble() }
        var v = Double(mantissa)
        if exponent < 0 { v /= CopyField.powersOfTen[-exponent] }
        return negative ? -v : v
    }

    private static let powersOfTen: [Double] = (0...22).map { e in
        var v = 1.0
        for _ in 0..<e { v *= 10 }
        return v
    }

    private func slowDouble() -> Double? {
        string().flatMap { Double($0) }
    }

    /// Byte equality of a field and a saved id.
    @inline(__always)
    static func same(_ a: UnsafeBufferPointer<UInt8>, _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        if a.count == 0 { return true }
        return b.withUnsafeBufferPointer { memcmp(a.baseAddress!, $0.baseAddress!, a.count) == 0 }
    }
}
