import Foundation
import TransitModel

/// Collects the checked rows of one feed into a `FeedSnapshot` (the loader has already
/// skipped every row whose references are broken).
///
/// Entities are in file order, but shapes: those are by shape_id in byte order (as
/// `SnapshotLoader` orders them), their points by shape_pt_sequence (`ShapeCollector`).
/// A trip's `shape` is -1 when it names no shape or one shapes.txt lacks.
///
/// Use: `let sink = SnapshotSink(feedId: "bart")`, `GTFSFeedLoader(source:).load(into: sink)`,
/// then `sink.snapshot`.
public final class SnapshotSink: GTFSRowSink {
    public private(set) var snapshot = FeedSnapshot()

    // Ids compare byte by byte (IdTable), as the importer and the database compare them;
    // a [String: …] dictionary would merge Unicode-equivalent ids ("Ré" and "Re\u{301}").
    private var agencyIndex = IdTable(capacity: 16)
    private var stopIndex = IdTable(capacity: 4096)
    private var stopParentIds: [String?] = []
    private var routeIndex = IdTable(capacity: 256)
    private var serviceIndex = IdTable(capacity: 64)
    private var tripIndex = IdTable(capacity: 16_384)
    private var shapes = ShapeCollector()
    private var shapeIndex = ShapeCollector.Result()
    private var column: [String: Int] = [:]
    private var kind = ""
    private var sawFeedInfo = false

    // Stop times as they come (any order), grouped and sorted at the end of the file.
    private var stTrip: [Int32] = [], stSequence: [Int32] = [], stStop: [Int32] = []
    private var stArrival: [Int32] = [], stDeparture: [Int32] = []
    private var stPickup: [UInt8] = [], stDropOff: [UInt8] = [], stDistance: [Double] = []

    public init(feedId: String) {
        snapshot.feedIds = [feedId]
        snapshot.feedInfo = [FeedSnapshot.FeedInfo()]
    }

    public func beginFile(_ spec: GTFSFileSpec) throws {
        kind = spec.table
        column = Dictionary(uniqueKeysWithValues: spec.columns.enumerated().map { ($1.name, $0) })
    }

    private func text(_ v: UnsafeBufferPointer<GTFSValue>, _ name: String) -> String? {
        if case .raw(let b) = v[column[name]!] { return String(decoding: b, as: UTF8.self) }
        return nil
    }
    private func bytes(_ v: UnsafeBufferPointer<GTFSValue>, _ name: String) -> UnsafeBufferPointer<UInt8>? {
        if case .raw(let b) = v[column[name]!] { return b }
        return nil
    }
    private func int(_ v: UnsafeBufferPointer<GTFSValue>, _ name: String) -> Int? {
        if case .int(let i) = v[column[name]!] { return i }
        return nil
    }
    private func double(_ v: UnsafeBufferPointer<GTFSValue>, _ name: String) -> Double? {
        text(v, name).flatMap(Double.init)
    }
    private func date(_ v: UnsafeBufferPointer<GTFSValue>, _ name: String) -> ServiceDate? {
        if case .date(let d) = v[column[name]!] { return d }
        return nil
    }

    private func service(_ id: UnsafeBufferPointer<UInt8>) -> Int32 {
        let (s, inserted) = serviceIndex.insert(id)
        if inserted { snapshot.services.append(FeedSnapshot.Service(feed: 0, serviceId: String(decoding: id, as: UTF8.self))) }
        return s
    }

    public func row(_ v: UnsafeBufferPointer<GTFSValue>) throws {
        switch kind {
        case "feed_info":
            guard !sawFeedInfo else { return }
            sawFeedInfo = true
            snapshot.feedInfo[0] = .init(publisherName: text(v, "feed_publisher_name"), publisherURL: text(v, "feed_publisher_url"),
                                         version: text(v, "feed_version"))
        case "agency":
            let id = text(v, "agency_id") ?? ""
            agencyIndex.insert(bytes(v, "agency_id") ?? UnsafeBufferPointer(start: nil, count: 0))
            snapshot.agencies.append(.init(feed: 0, agencyId: id, name: text(v, "agency_name") ?? "",
                                           timezone: text(v, "agency_timezone") ?? "UTC"))
        case "stops":
            stopIndex.insert(bytes(v, "stop_id")!)
            stopParentIds.append(text(v, "parent_station"))
            snapshot.stops.append(.init(feed: 0, stopId: text(v, "stop_id")!, name: text(v, "stop_name") ?? "",
                                        latitude: double(v, "stop_lat"), longitude: double(v, "stop_lon"),
                                        locationType: Int8(int(v, "location_type") ?? 0), parent: -1,
                                        platformCode: text(v, "platform_code"),
                                        wheelchairBoarding: UInt8(int(v, "wheelchair_boarding") ?? 0),
                                        stopCode: text(v, "stop_code")))
        case "routes":
            let agency = bytes(v, "agency_id").flatMap { agencyIndex.find($0) } ?? 0
            routeIndex.insert(bytes(v, "route_id")!)
            snapshot.routes.append(.init(feed: 0, routeId: text(v, "route_id")!, agency: agency,
                                         shortName: text(v, "route_short_name"), longName: text(v, "route_long_name"),
                                         type: Int32(int(v, "route_type")!), color: text(v, "route_color"),
                                         textColor: text(v, "route_text_color")))
        case "calendar":
            let s = Int(service(bytes(v, "service_id")!))
            var mask: UInt8 = 0
            for (i, day) in ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"].enumerated()
                where int(v, day) == 1 { mask |= 1 << UInt8(i) }
            snapshot.services[s].weekdays = mask
            snapshot.services[s].start = date(v, "start_date")
            snapshot.services[s].end = date(v, "end_date")
        case "calendar_dates":
            let s = Int(service(bytes(v, "service_id")!))
            if int(v, "exception_type") == 1 { snapshot.services[s].added.append(date(v, "date")!) }
            else { snapshot.services[s].removed.append(date(v, "date")!) }
        case "shapes":
            guard let lat = double(v, "shape_pt_lat"), let lon = double(v, "shape_pt_lon") else { return }
            shapes.add(bytes(v, "shape_id")!, sequence: Int32(int(v, "shape_pt_sequence")!), latitude: lat, longitude: lon,
                       distance: double(v, "shape_dist_traveled") ?? .nan)
        case "trips":
            tripIndex.insert(bytes(v, "trip_id")!)
            snapshot.trips.append(.init(feed: 0, tripId: text(v, "trip_id")!, route: routeIndex.find(bytes(v, "route_id")!)!,
                                        service: serviceIndex.find(bytes(v, "service_id")!)!,
                                        headsign: text(v, "trip_headsign"), shapeId: text(v, "shape_id"),
                                        shape: bytes(v, "shape_id").flatMap { shapeIndex.index(of: $0) } ?? -1,
                                        wheelchairAccessible: UInt8(int(v, "wheelchair_accessible") ?? 0),
                                        directionId: int(v, "direction_id").map { Int8(truncatingIfNeeded: $0) }))
        case "stop_times":
            stTrip.append(tripIndex.find(bytes(v, "trip_id")!)!)
            stSequence.append(Int32(int(v, "stop_sequence")!))
            stStop.append(stopIndex.find(bytes(v, "stop_id")!)!)
            stArrival.append(int(v, "arrival_time").map(Int32.init) ?? FeedSnapshot.untimed)
            stDeparture.append(int(v, "departure_time").map(Int32.init) ?? FeedSnapshot.untimed)
            stPickup.append(UInt8(int(v, "pickup_type") ?? 0))
            stDropOff.append(UInt8(int(v, "drop_off_type") ?? 0))
            stDistance.append(double(v, "shape_dist_traveled") ?? .nan)
        case "frequencies":
            snapshot.frequencies.append(.init(trip: tripIndex.find(bytes(v, "trip_id")!)!,
                                              startTime: Int32(int(v, "start_time")!), endTime: Int32(int(v, "end_time")!),
                                              headwaySeconds: Int32(int(v, "headway_secs")!)))
        case "transfers":
            guard text(v, "from_route_id") == nil, text(v, "to_route_id") == nil,
                  text(v, "from_trip_id") == nil, text(v, "to_trip_id") == nil,
                  let from = bytes(v, "from_stop_id").flatMap({ stopIndex.find($0) }),
                  let to = bytes(v, "to_stop_id").flatMap({ stopIndex.find($0) }) else { return }
            snapshot.transfers.append(.init(fromStop: from, toStop: to, type: Int8(int(v, "transfer_type") ?? 0),
                                            minTransferTime: int(v, "min_transfer_time").map(Int32.init),
                                            line: Int32(int(v, "line_number")!)))
        default:
            break
        }
    }

    /// Drops the stop times of these trips (read so far; called before `endFile` of stop_times).
    public func leaveOut(trips: [String]) throws {
        let out = Set(trips.compactMap { id in Array(id.utf8).withUnsafeBufferPointer { tripIndex.find($0) } })
        var keep: [Int] = []
        for i in stTrip.indices where !out.contains(stTrip[i]) { keep.append(i) }
        stTrip = keep.map { stTrip[$0] }; stSequence = keep.map { stSequence[$0] }; stStop = keep.map { stStop[$0] }
        stArrival = keep.map { stArrival[$0] }; stDeparture = keep.map { stDeparture[$0] }
        stPickup = keep.map { stPickup[$0] }; stDropOff = keep.map { stDropOff[$0] }; stDistance = keep.map { stDistance[$0] }
    }

    public func endFile(_ spec: GTFSFileSpec) throws {
        switch spec.table {
        case "stops":
            for (i, parent) in stopParentIds.enumerated() {
                if let parent, let p = stopIndex.find(parent) { snapshot.stops[i].parent = p }
            }
        case "shapes":
            shapeIndex = shapes.finish()
            shapes = ShapeCollector()
            shapeIndex.append(to: &snapshot, feed: 0)
        case "stop_times":
            groupStopTimes()
        default:
            break
        }
    }

    /// Counting sort by trip, then by stop_sequence within each trip.
    private func groupStopTimes() {
        let tripCount = snapshot.trips.count
        var offsets = [Int32](repeating: 0, count: tripCount + 1)
        for t in stTrip { offsets[Int(t) + 1] += 1 }
        for i in 0..<tripCount { offsets[i + 1] += offsets[i] }
        var order = [Int32](repeating: 0, count: stTrip.count)
        var next = offsets
        for (i, t) in stTrip.enumerated() { order[Int(next[Int(t)])] = Int32(i); next[Int(t)] += 1 }
        for t in 0..<tripCount {
            let range = Int(offsets[t])..<Int(offsets[t + 1])
            if range.count > 1 { order[range].sort { stSequence[Int($0)] < stSequence[Int($1)] } }
        }
        snapshot.tripStopTimes = offsets
        snapshot.stopTimeStop = order.map { stStop[Int($0)] }
        snapshot.stopTimeSequence = order.map { stSequence[Int($0)] }
        snapshot.stopTimeArrival = order.map { stArrival[Int($0)] }
        snapshot.stopTimeDeparture = order.map { stDeparture[Int($0)] }
        snapshot.stopTimePickup = order.map { stPickup[Int($0)] }
        snapshot.stopTimeDropOff = order.map { stDropOff[Int($0)] }
        snapshot.stopTimeShapeDistance = order.map { stDistance[Int($0)] }
        stTrip = []; stSequence = []; stStop = []; stArrival = []; stDeparture = []
        stPickup = []; stDropOff = []; stDistance = []
    }

    /// Reads a feed (zip or folder) into a snapshot; problems as `GTFSFeedLoader` reports them.
    public static func load(path: String, feedId: String) throws -> (FeedSnapshot, GTFSLoadSummary) {
        let sink = SnapshotSink(feedId: feedId)
        let summary = try GTFSFeedLoader(source: openFeed(at: path)).load(into: sink)
        return (sink.snapshot, summary)
    }
}

extension FeedSnapshot {
    /// Several feeds side by side: indexes of the later ones are shifted.
    public static func merging(_ parts: [FeedSnapshot]) -> FeedSnapshot {
        var out = FeedSnapshot()
        for part in parts {
            let feed = Int32(out.feedIds.count), agency = Int32(out.agencies.count), stop = Int32(out.stops.count)
            let route = Int32(out.routes.count), service = Int32(out.services.count), trip = Int32(out.trips.count)
            let stopTime = Int32(out.stopTimeStop.count)
            let shape = Int32(out.shapeIds.count), shapePoint = Int32(out.shapeLatitude.count)
            out.feedIds += part.feedIds
            out.feedInfo += part.feedIds.indices.map { part.info(feed: $0) }
            out.agencies += part.agencies.map { var a = $0; a.feed += feed; return a }
            out.stops += part.stops.map { var s = $0; s.feed += feed; if s.parent >= 0 { s.parent += stop }; return s }
            out.routes += part.routes.map { var r = $0; r.feed += feed; r.agency += agency; return r }
            out.services += part.services.map { var s = $0; s.feed += feed; return s }
            out.trips += part.trips.map {
                var t = $0; t.feed += feed; t.route += route; t.service += service
                if t.shape >= 0 { t.shape += shape }
                return t
            }
            out.tripStopTimes += part.tripStopTimes.dropFirst().map { $0 + stopTime }
            out.stopTimeStop += part.stopTimeStop.map { $0 + stop }
            // A part without sequences (built by hand) gets 1, 2, 3… per trip, so that the
            // merged array stays parallel to `stopTimeStop`.
            if part.stopTimeSequence.count == part.stopTimeStop.count {
                out.stopTimeSequence += part.stopTimeSequence
            } else {
                for t in part.trips.indices { out.stopTimeSequence += part.stopTimes(ofTrip: t).map { part.stopSequence($0, trip: t) } }
            }
            out.stopTimeArrival += part.stopTimeArrival
            out.stopTimeDeparture += part.stopTimeDeparture
            out.stopTimePickup += part.stopTimePickup
            out.stopTimeDropOff += part.stopTimeDropOff
            out.stopTimeShapeDistance += part.stopTimeShapeDistance
            out.frequencies += part.frequencies.map { var f = $0; f.trip += trip; return f }
            out.transfers += part.transfers.map { var x = $0; x.fromStop += stop; x.toStop += stop; return x }
            out.shapeIds += part.shapeIds
            out.shapeFeed += part.shapeFeed.map { $0 + feed }
            out.shapePointOffsets += part.shapePointOffsets.dropFirst().map { $0 + shapePoint }
            out.shapeLatitude += part.shapeLatitude
            out.shapeLongitude += part.shapeLongitude
            out.shapeDistance += part.shapeDistance
        }
        return out
    }
}

/// Shape points of one feed as they come (any order), grouped the way `FeedSnapshot`
/// holds them: shapes by shape_id in byte order (the order of `COLLATE "C"`), each
/// shape's points by shape_pt_sequence. `SnapshotSink` and `SnapshotLoader` both use it,
/// so that both lay shapes out the same way.
public struct ShapeCollector: Sendable {
    /// Shape ids in order of first appearance.
    private var ids = IdTable(capacity: 1024)
    // Rows of one shape mostly come together: the previous row's shape first.
    private var lastId: [UInt8] = [], lastIndex: Int32 = -1
    private var shape: [Int32] = [], sequence: [Int32] = []
    private var latitude: [Double] = [], longitude: [Double] = [], distance: [Double] = []

    /// `capacity`: points expected.
    public init(capacity: Int = 0) {
        shape.reserveCapacity(capacity); sequence.reserveCapacity(capacity)
        latitude.reserveCapacity(capacity); longitude.reserveCapacity(capacity); distance.reserveCapacity(capacity)
    }

    /// Points added so far.
    public var count: Int { shape.count }

    /// One point (`distance` NaN when shape_dist_traveled is empty).
    public mutating func add(_ shapeId: UnsafeBufferPointer<UInt8>, sequence seq: Int32,
                             latitude lat: Double, longitude lon: Double, distance dist: Double) {
        let same = shapeId.count == lastId.count && lastIndex >= 0
            && lastId.withUnsafeBufferPointer { l in shapeId.count == 0 || memcmpBytes(l.baseAddress!, shapeId.baseAddress!, shapeId.count) }
        if !same {
            lastIndex = ids.insert(shapeId).index
            lastId.removeAll(keepingCapacity: true)
            lastId.append(contentsOf: shapeId)
        }
        shape.append(lastIndex); sequence.append(seq)
        latitude.append(lat); longitude.append(lon); distance.append(dist)
    }

    /// The shapes grouped: ids sorted byte by byte, points by shape then shape_pt_sequence
    /// (a counting sort by shape, then a sort of each shape's points unless already in order).
    public func finish() -> Result {
        let n = ids.count, count = shape.count
        let keys = (0..<n).map { ids.key(Int32($0)) }
        let sorted = (0..<n).sorted { keys[$0].utf8.lexicographicallyPrecedes(keys[$1].utf8) }
        var rank = [Int32](repeating: 0, count: n)
        for (new, old) in sorted.enumerated() { rank[old] = Int32(new) }
        var offsets = [Int32](repeating: 0, count: n + 1)
        for s in shape { offsets[Int(rank[Int(s)]) + 1] += 1 }
        for i in 0..<n { offsets[i + 1] += offsets[i] }
        var order = [Int32](repeating: 0, count: count)
        var next = offsets
        for i in 0..<count {
            let r = Int(rank[Int(shape[i])])
            order[Int(next[r])] = Int32(i)
            next[r] += 1
        }
        sequence.withUnsafeBufferPointer { seq in
            order.withUnsafeMutableBufferPointer { ord in
                for s in 0..<n {
                    let lo = Int(offsets[s]), hi = Int(offsets[s + 1])
                    guard hi - lo > 1 else { continue }
                    var inOrder = true
                    for i in lo..<(hi - 1) where seq[Int(ord[i])] > seq[Int(ord[i + 1])] { inOrder = false; break }
                    if !inOrder {
                        var slice = UnsafeMutableBufferPointer(rebasing: ord[lo..<hi])
                        slice.sort { seq[Int($0)] < seq[Int($1)] }
                    }
                }
            }
        }
        var result = Result()
        result.table = ids
        result.rank = rank
        result.ids = sorted.map { keys[$0] }
        result.offsets = offsets
        result.latitude = order.map { latitude[Int($0)] }
        result.longitude = order.map { longitude[Int($0)] }
        result.distance = order.map { distance[Int($0)] }
        return result
    }

    /// One feed's shapes, grouped (see `finish()`).
    public struct Result: Sendable {
        fileprivate var table = IdTable(capacity: 1)
        /// Id index in `table` -> shape index.
        fileprivate var rank: [Int32] = []
        /// Shape index -> shape id, byte order.
        public fileprivate(set) var ids: [String] = []
        /// Shape index -> first point; count + 1 entries.
        public fileprivate(set) var offsets: [Int32] = [0]
        public fileprivate(set) var latitude: [Double] = [], longitude: [Double] = [], distance: [Double] = []

        public init() {}

        /// The shape index (within the feed) of a shape id, or nil when there is no such shape.
        public func index(of shapeId: UnsafeBufferPointer<UInt8>) -> Int32? {
            table.find(shapeId).map { rank[Int($0)] }
        }

        public func index(of shapeId: String) -> Int32? {
            table.find(shapeId).map { rank[Int($0)] }
        }

        /// Appends the shapes to `s` as feed `feed`'s (shape indexes shifted by the shapes
        /// already there; the caller shifts its trips' `shape` the same way).
        public func append(to s: inout FeedSnapshot, feed: Int32) {
            let base = Int32(s.shapeLatitude.count)
            s.shapeIds.append(contentsOf: ids)
            s.shapeFeed.append(contentsOf: repeatElement(feed, count: ids.count))
            s.shapePointOffsets.reserveCapacity(s.shapePointOffsets.count + ids.count)
            for o in offsets.dropFirst() { s.shapePointOffsets.append(base + o) }
            s.shapeLatitude.append(contentsOf: latitude)
            s.shapeLongitude.append(contentsOf: longitude)
            s.shapeDistance.append(contentsOf: distance)
        }
    }
}
