#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import Geo
import Streets
import Timetable
import TransitModel

/// The built network as one binary file (an "image"), written after a build and mapped into
/// memory on the next start instead of reading the feeds from PostgreSQL and building again,
/// as nigiri does with its dumps.
///
/// What is in it: the timetable's arrays as the builder made them (street footpaths
/// included), the feeds' names and ids (the snapshot without its stop times), the shapes,
/// the stop sequences, the build's warnings. What is made again on reading, because it is
/// quick and holds handles rather than data: the stop grids (a PROJ projection per group of
/// feeds and a grid of the stops), the station children, and with streets, each stop's snap
/// to the walk graph (the graph itself is read from PostgreSQL as before).
///
/// The file: a header (a magic line, the format's version, the key, the payload's length
/// and checksum), then the payload. Every array is its count and its bytes, 8-aligned, so
/// that reading one is a bounds check and one copy out of the mapping (`memcpy`), never a
/// parse; strings are their UTF-8. The key says what the image was built from (the database,
/// each feed's version and import, the streets' versions, the build's options, the places
/// declared): an image whose key, format or checksum differs is not used (`ImageError`) and
/// the caller builds from the database again and writes a new one.
public enum NetworkImage {
    /// Raised whenever the layout below changes: an older image is then stale.
    public static let formatVersion: UInt32 = 3
    static let magic = Array("transit network image\n".utf8)
    /// Where the format's version is in the file (after the magic line).
    public static var magicLength: Int { magic.count }

    public struct ImageError: Error, CustomStringConvertible, Sendable {
        public let description: String
        init(_ d: String) { description = d }
    }

    /// The file name for `key` in an image folder: the key's hash, so that images of other
    /// feed versions (or databases) live side by side.
    public static func fileName(key: String) -> String {
        String(format: "network-%016llx.image", checksum(Array(key.utf8)))
    }

    // MARK: Writing

    /// Writes `network` under `key` to `path`: to a temporary file beside it, then renamed
    /// over it, so that a reader (another replica starting) never sees half an image.
    public static func write(_ network: TransitNetwork, key: String, to path: String) throws {
        var measure = ImageWriter(measuring: true)
        measure.network(network)
        var payload = ImageWriter(capacity: measure.size)
        payload.network(network)
        var header = ImageWriter()
        magic.withUnsafeBytes { header.bytesAppend($0) }
        header.pod(formatVersion)
        header.pod(UInt64(payload.bytes.count))
        header.pod(checksum(payload.bytes))
        header.string(key)
        header.align()
        let temporary = path + ".\(getpid()).partial"
        // Header and payload written as they are (no joined copy: the payload of all shared
        // feeds is 81 MB).
        guard let file = fopen(temporary, "wb") else { throw ImageError("cannot write \(temporary): \(String(cString: strerror(errno)))") }
        let written = header.bytes.withUnsafeBytes { fwrite($0.baseAddress, 1, $0.count, file) } == header.bytes.count
            && payload.bytes.withUnsafeBytes { fwrite($0.baseAddress, 1, $0.count, file) } == payload.bytes.count
        let closed = fclose(file) == 0
        guard written && closed else {
            unlink(temporary)
            throw ImageError("cannot write \(temporary): \(String(cString: strerror(errno)))")
        }
        guard rename(temporary, path) == 0 else {
            unlink(temporary)
            throw ImageError("cannot rename \(temporary) to \(path): \(String(cString: strerror(errno)))")
        }
    }

    // MARK: Reading

    /// The network in the image at `path` if its key is `key`; nil when there is no file.
    /// Throws `ImageError` when the file is not a whole image of this format and key (a
    /// stale or corrupt image: the caller builds anew). `graph`: the walk graph when streets
    /// are loaded (the image was built with them; its key says which versions).
    public static func read(_ path: String, key: String, graph: WalkGraph? = nil) throws -> TransitNetwork? {
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else {
            if errno == ENOENT { return nil }
            throw ImageError("cannot open \(path): \(String(cString: strerror(errno)))")
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw ImageError("cannot stat \(path)") }
        let size = Int(info.st_size)
        guard size >= magic.count + 24 else { throw ImageError("\(path) is too short to be an image (\(size) bytes)") }
        guard let base = mmap(nil, size, PROT_READ, MAP_PRIVATE, fd, 0), base != MAP_FAILED else {
            throw ImageError("cannot map \(path): \(String(cString: strerror(errno)))")
        }
        defer { munmap(base, size) }
        // Read ahead: the whole file is copied out below.
        _ = madvise(base, size, MADV_SEQUENTIAL | MADV_WILLNEED)
        let bytes = UnsafeRawBufferPointer(start: base, count: size)
        var r = ImageReader(bytes)
        guard Array(bytes[0..<magic.count]) == magic else { throw ImageError("\(path) is not a network image") }
        r.offset = magic.count
        let format: UInt32 = try r.pod()
        guard format == formatVersion else { throw ImageError("\(path) is of format \(format), not \(formatVersion)") }
        let length: UInt64 = try r.pod(), sum: UInt64 = try r.pod()
        let stored = try r.string()
        guard stored == key else { throw ImageError("\(path) was built from other feeds or versions") }
        r.align()
        guard r.offset + Int(length) == size else { throw ImageError("\(path) is cut short or too long (\(size) bytes, expected \(r.offset + Int(length)))") }
        let payload = UnsafeRawBufferPointer(rebasing: bytes[r.offset...])
        guard checksum(payload) == sum else { throw ImageError("\(path) is corrupt (its checksum differs)") }
        var p = ImageReader(payload)
        return try p.network(graph: graph)
    }

    // MARK: Checksum

    /// A 64-bit checksum of the bytes, a word at a time (about 8 GB/s here: 6 ms for the 50
    /// MB of all shared feeds): it finds a file cut short or changed by accident, not one
    /// changed on purpose.
    static func checksum(_ bytes: [UInt8]) -> UInt64 { bytes.withUnsafeBytes { checksum($0) } }

    static func checksum(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
        var h: UInt64 = 0x9E37_79B9_7F4A_7C15 ^ UInt64(bytes.count)
        let words = bytes.count / 8
        var i = 0
        while i < words {
            let w = bytes.loadUnaligned(fromByteOffset: i * 8, as: UInt64.self)
            h = (h ^ w) &* 0x100_0000_01B3 &+ 0x9E37_79B9_7F4A_7C15
            h ^= h >> 29
            i += 1
        }
        for j in (words * 8)..<bytes.count { h = (h ^ UInt64(bytes[j])) &* 0x100_0000_01B3 }
        return h
    }
}

/// Appends values to an image: plain values as their bytes, arrays as their count then
/// their elements' bytes (8-aligned), strings as their UTF-8.
///
/// A measuring writer (`measuring`) only counts: `NetworkImage.write` measures first, so
/// that the payload is one allocation of its exact size, given back whole when freed (grown
/// by doubling, its freed steps stayed in the heap: +22 MB of resident memory for all
/// shared feeds after a build that wrote its image).
struct ImageWriter {
    var bytes: [UInt8] = []
    let measuring: Bool
    private(set) var size = 0

    init(measuring: Bool = false, capacity: Int = 0) {
        self.measuring = measuring
        bytes.reserveCapacity(capacity)
    }

    private mutating func put(_ b: UnsafeRawBufferPointer) {
        size += b.count
        if !measuring { bytes.append(contentsOf: b) }
    }
    private mutating func put(_ b: UnsafeBufferPointer<UInt8>) { put(UnsafeRawBufferPointer(b)) }
    mutating func bytesAppend(_ b: UnsafeRawBufferPointer) { put(b) }

    mutating func align() {
        let zeros: UInt64 = 0
        if size % 8 != 0 { withUnsafeBytes(of: zeros) { put(UnsafeRawBufferPointer(rebasing: $0[0..<(8 - size % 8)])) } }
    }
    mutating func pod<T: BitwiseCopyable>(_ v: T) { withUnsafeBytes(of: v) { put($0) } }
    mutating func int(_ v: Int) { pod(Int64(v)) }
    mutating func bool(_ v: Bool) { pod(UInt8(v ? 1 : 0)) }
    mutating func array<T: BitwiseCopyable>(_ a: [T]) {
        int(a.count)
        align()
        a.withUnsafeBytes { put($0) }
        align()
    }
    mutating func string(_ s: String) {
        var s = s
        s.withUTF8 { u in int(u.count); put(u) }
    }
    mutating func string(_ s: String?) {
        bool(s != nil)
        if let s { string(s) }
    }
    /// Many strings: their UTF-8 one after the other and the offsets (one allocation each
    /// on reading, no per-string header).
    mutating func strings(_ list: [String]) {
        var offsets: [Int32] = [0], utf8: [UInt8] = []
        for var s in list {
            s.withUTF8 { utf8.append(contentsOf: $0) }
            offsets.append(Int32(utf8.count))
        }
        array(offsets); array(utf8)
    }
    /// Optional strings: as `strings`, with a flag per string.
    mutating func strings(_ list: [String?]) {
        array(list.map { $0 == nil ? UInt8(0) : 1 })
        strings(list.map { $0 ?? "" })
    }
}

/// Reads what `ImageWriter` wrote, checking every length against the bytes there are.
struct ImageReader {
    let bytes: UnsafeRawBufferPointer
    var offset = 0
    init(_ b: UnsafeRawBufferPointer) { bytes = b }

    mutating func align() { offset = (offset + 7) & ~7 }
    private func need(_ n: Int) throws {
        guard n >= 0, offset <= bytes.count - n else { throw NetworkImage.ImageError("the image ends early (\(n) bytes wanted at \(offset) of \(bytes.count))") }
    }
    mutating func pod<T: BitwiseCopyable>() throws -> T {
        try need(MemoryLayout<T>.size)
        defer { offset += MemoryLayout<T>.size }
        return bytes.loadUnaligned(fromByteOffset: offset, as: T.self)
    }
    mutating func int() throws -> Int { Int(try pod() as Int64) }
    mutating func bool() throws -> Bool { try pod() as UInt8 != 0 }
    mutating func array<T: BitwiseCopyable>(_: T.Type = T.self) throws -> [T] {
        let n = try int()
        align()
        guard n >= 0, n <= bytes.count / max(1, MemoryLayout<T>.stride) else { throw NetworkImage.ImageError("an array of \(n) elements at \(offset)") }
        let size = n * MemoryLayout<T>.stride
        try need(size)
        let from = bytes.baseAddress! + offset
        let a = [T](unsafeUninitializedCapacity: n) { buffer, count in
            if n > 0 { UnsafeMutableRawPointer(buffer.baseAddress!).copyMemory(from: from, byteCount: size) }
            count = n
        }
        offset += size
        align()
        return a
    }
    mutating func string() throws -> String {
        let n = try int()
        try need(n)
        defer { offset += n }
        return String(decoding: UnsafeRawBufferPointer(rebasing: bytes[offset..<(offset + n)]), as: UTF8.self)
    }
    mutating func optionalString() throws -> String? { try bool() ? try string() : nil }
    mutating func strings() throws -> [String] {
        let offsets = try array(Int32.self), utf8 = try array(UInt8.self)
        guard let last = offsets.last, Int(last) == utf8.count, offsets.first == 0 else { throw NetworkImage.ImageError("string offsets that do not fit") }
        return utf8.withUnsafeBufferPointer { u in
            (0..<(offsets.count - 1)).map { i in
                String(decoding: UnsafeBufferPointer(rebasing: u[Int(offsets[i])..<Int(offsets[i + 1])]), as: UTF8.self)
            }
        }
    }
    mutating func optionalStrings() throws -> [String?] {
        let present = try array(UInt8.self), values = try strings()
        guard present.count == values.count else { throw NetworkImage.ImageError("optional strings that do not fit") }
        return zip(present, values).map { $0 == 0 ? nil : $1 }
    }
}

// MARK: The network's parts

extension ImageWriter {
    mutating func network(_ n: TransitNetwork) {
        snapshot(n.snapshot)
        timetable(n.timetable)
        array(n.shapes.offsets); array(n.shapes.latitude); array(n.shapes.longitude); array(n.shapes.distance)
        let q = n.stopSequences
        array(q.stopTimeCounts); array(q.feedFirst); array(q.shiftedTrips); array(q.shiftedFirst); array(q.valueOffsets)
        array(q.values); array(q.passedTrips); array(q.passedOffsets); array(q.routePositions)
        strings(n.warnings)
    }

    /// The snapshot as the network keeps it (`TimetableBuilder.metadata`: no stop times, no
    /// shape points), column by column.
    mutating func snapshot(_ s: FeedSnapshot) {
        strings(s.feedIds)
        strings(s.feedInfo.map(\.publisherName)); strings(s.feedInfo.map(\.publisherURL))
        strings(s.feedInfo.map(\.version)); strings(s.feedInfo.map(\.place))
        array(s.agencies.map(\.feed)); strings(s.agencies.map(\.agencyId)); strings(s.agencies.map(\.name)); strings(s.agencies.map(\.timezone))
        let stops = s.stops
        array(stops.map(\.feed)); strings(stops.map(\.stopId)); strings(stops.map(\.name))
        array(stops.map { $0.latitude ?? .nan }); array(stops.map { $0.latitude == nil ? UInt8(0) : 1 })
        array(stops.map { $0.longitude ?? .nan }); array(stops.map { $0.longitude == nil ? UInt8(0) : 1 })
        array(stops.map(\.locationType)); array(stops.map(\.parent)); strings(stops.map(\.platformCode))
        array(stops.map(\.wheelchairBoarding)); strings(stops.map(\.stopCode))
        let routes = s.routes
        array(routes.map(\.feed)); strings(routes.map(\.routeId)); array(routes.map(\.agency)); strings(routes.map(\.shortName))
        strings(routes.map(\.longName)); array(routes.map(\.type)); strings(routes.map(\.color)); strings(routes.map(\.textColor))
        let services = s.services
        array(services.map(\.feed)); strings(services.map(\.serviceId)); array(services.map(\.weekdays))
        array(services.map { $0.start?.daysSinceEpoch ?? Int32.min }); array(services.map { $0.end?.daysSinceEpoch ?? Int32.min })
        var dateOffsets: [Int32] = [0], dates: [Int32] = []
        for v in services {
            dates.append(contentsOf: v.added.map(\.daysSinceEpoch)); dateOffsets.append(Int32(dates.count))
            dates.append(contentsOf: v.removed.map(\.daysSinceEpoch)); dateOffsets.append(Int32(dates.count))
        }
        array(dateOffsets); array(dates)
        let trips = s.trips
        array(trips.map(\.feed)); strings(trips.map(\.tripId)); array(trips.map(\.route)); array(trips.map(\.service))
        strings(trips.map(\.headsign)); strings(trips.map(\.shapeId)); array(trips.map(\.shape)); array(trips.map(\.wheelchairAccessible))
        array(trips.map { $0.directionId ?? Int8.min })
        let f = s.frequencies
        array(f.map(\.trip)); array(f.map(\.startTime)); array(f.map(\.endTime)); array(f.map(\.headwaySeconds))
        let t = s.transfers
        array(t.map(\.fromStop)); array(t.map(\.toStop)); array(t.map(\.type)); array(t.map { $0.minTransferTime ?? Int32.min }); array(t.map(\.line))
        strings(s.shapeIds); array(s.shapeFeed)
    }

    /// The timetable's arrays as its public initialiser takes them (what it works out
    /// itself, such as the incoming footpaths, it works out again).
    mutating func timetable(_ t: Timetable) {
        precondition(t.routeRemovedDays.isEmpty && t.tripStopSkipped.isEmpty, "a static timetable (no realtime overlay)")
        int(t.stopCount); array(t.stopLatitude); array(t.stopLongitude); array(t.stopBoardable); array(t.stopFeed)
        array(t.stopRouteOffsets); array(t.stopRouteRoute); array(t.stopRoutePosition)
        array(t.routeStopOffsets); array(t.routeStops); array(t.routeCanBoard); array(t.routeCanAlight)
        array(t.routeTripOffsets); array(t.runTimes); array(t.profiles); array(t.routeArrivalShift)
        array(t.routeTimeZone); array(t.routeSourceRoute); array(t.routeService); array(t.routeStopShapeDistance)
        array(t.tripService); array(t.tripShape); array(t.tripSource)
        pod(t.firstDay.daysSinceEpoch); int(t.dayCount); int(t.serviceWords); array(t.serviceDays)
        strings(t.timeZoneNames); array(t.dayBase); pod(t.footpathBeelineMeters)
        array(t.footOffsets); array(t.footTarget); array(t.footBeeline); array(t.footRule); array(t.footMinTime)
        array(t.sameStopRule); array(t.sameStopMinTime); array(t.footStreet); array(t.footStreetStepFree)
    }
}

extension ImageReader {
    mutating func network(graph: WalkGraph?) throws -> TransitNetwork {
        let snapshot = try self.snapshot()
        let tt = try timetable()
        let shapes = ShapeStore(offsets: try array(), latitude: try array(), longitude: try array(), distance: try array())
        let sequences = StopSequences(stopTimeCounts: try array(), feedFirst: try array(), shiftedTrips: try array(),
                                      shiftedFirst: try array(), valueOffsets: try array(), values: try array(),
                                      passedTrips: try array(), passedOffsets: try array(), routePositions: try array())
        let warnings = try strings()
        guard offset == bytes.count else { throw NetworkImage.ImageError("\(bytes.count - offset) bytes left over after the network") }
        guard tt.stopCount == snapshot.stops.count, graph == nil || tt.footStreet.count == tt.footTarget.count else {
            throw NetworkImage.ImageError("a timetable that does not fit its feeds")
        }
        let grids = try TimetableBuilder.stopGrids(lat: tt.stopLatitude, lon: tt.stopLongitude, boardable: tt.stopBoardable,
                                                   stopFeed: tt.stopFeed.map(\.raw), feedCount: snapshot.feedIds.count,
                                                   radius: tt.footpathBeelineMeters)
        var snaps: [StreetSnap?] = [], stepFreeSnaps: [StreetSnap?] = []
        if let graph { (snaps, stepFreeSnaps) = TimetableBuilder.snaps(graph, lat: tt.stopLatitude, lon: tt.stopLongitude, boardable: tt.stopBoardable) }
        return TransitNetwork(timetable: tt, snapshot: snapshot, shapes: shapes, stationChildren: StationChildren(snapshot.stops),
                              stopGrids: grids, warnings: warnings, streets: graph, stopSnaps: snaps, stepFreeStopSnaps: stepFreeSnaps,
                              stopSequences: sequences)
    }

    private func check(_ counts: [Int], _ what: String) throws {
        guard Set(counts).count <= 1 else { throw NetworkImage.ImageError("the columns of \(what) differ in length: \(counts)") }
    }

    mutating func snapshot() throws -> FeedSnapshot {
        var s = FeedSnapshot()
        s.feedIds = try strings()
        let (pn, pu, v, pl) = (try optionalStrings(), try optionalStrings(), try optionalStrings(), try optionalStrings())
        try check([pn.count, pu.count, v.count, pl.count], "feed_info")
        s.feedInfo = pn.indices.map { FeedSnapshot.FeedInfo(publisherName: pn[$0], publisherURL: pu[$0], version: v[$0], place: pl[$0]) }
        let (af, aid, an, az) = (try array(Int32.self), try strings(), try strings(), try strings())
        try check([af.count, aid.count, an.count, az.count], "agencies")
        s.agencies = af.indices.map { FeedSnapshot.Agency(feed: af[$0], agencyId: aid[$0], name: an[$0], timezone: az[$0]) }
        let (sf, sid, sn) = (try array(Int32.self), try strings(), try strings())
        let (lat, hasLat, lon, hasLon) = (try array(Double.self), try array(UInt8.self), try array(Double.self), try array(UInt8.self))
        let (lt, parent, platform, wheel, code) = (try array(Int8.self), try array(Int32.self), try optionalStrings(), try array(UInt8.self), try optionalStrings())
        try check([sf.count, sid.count, sn.count, lat.count, hasLat.count, lon.count, hasLon.count, lt.count, parent.count,
                   platform.count, wheel.count, code.count], "stops")
        s.stops = sf.indices.map { i in
            FeedSnapshot.Stop(feed: sf[i], stopId: sid[i], name: sn[i], latitude: hasLat[i] == 0 ? nil : lat[i],
                              longitude: hasLon[i] == 0 ? nil : lon[i], locationType: lt[i], parent: parent[i],
                              platformCode: platform[i], wheelchairBoarding: wheel[i], stopCode: code[i])
        }
        let (rf, rid, ra, rs) = (try array(Int32.self), try strings(), try array(Int32.self), try optionalStrings())
        let (rl, rt, rc, rtc) = (try optionalStrings(), try array(Int32.self), try optionalStrings(), try optionalStrings())
        try check([rf.count, rid.count, ra.count, rs.count, rl.count, rt.count, rc.count, rtc.count], "routes")
        s.routes = rf.indices.map { i in
            FeedSnapshot.Route(feed: rf[i], routeId: rid[i], agency: ra[i], shortName: rs[i], longName: rl[i], type: rt[i],
                               color: rc[i], textColor: rtc[i])
        }
        let (vf, vid, vw, vs, ve) = (try array(Int32.self), try strings(), try array(UInt8.self), try array(Int32.self), try array(Int32.self))
        let (dateOffsets, dates) = (try array(Int32.self), try array(Int32.self))
        try check([vf.count, vid.count, vw.count, vs.count, ve.count, (dateOffsets.count - 1) / 2], "services")
        guard dateOffsets.count == 2 * vf.count + 1, dateOffsets.last.map(Int.init) == dates.count else {
            throw NetworkImage.ImageError("service dates that do not fit")
        }
        func day(_ d: Int32) -> ServiceDate? { d == Int32.min ? nil : ServiceDate(daysSinceEpoch: d) }
        func dateList(_ k: Int) -> [ServiceDate] {
            dates[Int(dateOffsets[k])..<Int(dateOffsets[k + 1])].map { ServiceDate(daysSinceEpoch: $0) }
        }
        s.services = vf.indices.map { i in
            FeedSnapshot.Service(feed: vf[i], serviceId: vid[i], weekdays: vw[i], start: day(vs[i]), end: day(ve[i]),
                                 added: dateList(2 * i), removed: dateList(2 * i + 1))
        }
        let (tf, tid, tr, tsv) = (try array(Int32.self), try strings(), try array(Int32.self), try array(Int32.self))
        let (th, tshid, tsh, tw, td) = (try optionalStrings(), try optionalStrings(), try array(Int32.self), try array(UInt8.self), try array(Int8.self))
        try check([tf.count, tid.count, tr.count, tsv.count, th.count, tshid.count, tsh.count, tw.count, td.count], "trips")
        s.trips = tf.indices.map { i in
            FeedSnapshot.Trip(feed: tf[i], tripId: tid[i], route: tr[i], service: tsv[i], headsign: th[i], shapeId: tshid[i],
                              shape: tsh[i], wheelchairAccessible: tw[i], directionId: td[i] == Int8.min ? nil : td[i])
        }
        let (ft, fs, fe, fh) = (try array(Int32.self), try array(Int32.self), try array(Int32.self), try array(Int32.self))
        try check([ft.count, fs.count, fe.count, fh.count], "frequencies")
        s.frequencies = ft.indices.map { FeedSnapshot.Frequency(trip: ft[$0], startTime: fs[$0], endTime: fe[$0], headwaySeconds: fh[$0]) }
        let (xf, xt, xy, xm, xl) = (try array(Int32.self), try array(Int32.self), try array(Int8.self), try array(Int32.self), try array(Int32.self))
        try check([xf.count, xt.count, xy.count, xm.count, xl.count], "transfers")
        s.transfers = xf.indices.map { i in
            FeedSnapshot.Transfer(fromStop: xf[i], toStop: xt[i], type: xy[i], minTransferTime: xm[i] == Int32.min ? nil : xm[i], line: xl[i])
        }
        s.shapeIds = try strings(); s.shapeFeed = try array()
        // As `TimetableBuilder.metadata` leaves them.
        s.tripStopTimes = []
        return s
    }

    mutating func timetable() throws -> Timetable {
        let stopCount = try int()
        let (lat, lon, boardable, feed) = (try array(Double.self), try array(Double.self), try array(Bool.self), try array(FeedIndex.self))
        let (sro, srr, srp) = (try array(Int32.self), try array(RouteIndex.self), try array(RoutePosition.self))
        let (rso, rs, cb, ca) = (try array(Int32.self), try array(StopIndex.self), try array(Bool.self), try array(Bool.self))
        let (rto, runTimes, profiles, ras) = (try array(Int32.self), try array(RunTimes.self), try array(Int32.self), try array(Int32.self))
        let (rtz, rsr, rsv, rsd) = (try array(Int32.self), try array(SourceRouteIndex.self), try array(ServiceIndex.self), try array(Float.self))
        let (ts, tsh, tso) = (try array(ServiceIndex.self), try array(ShapeIndex.self), try array(SourceTripIndex.self))
        let firstDay: Int32 = try pod()
        let (dayCount, words, serviceDays) = (try int(), try int(), try array(UInt64.self))
        let (zones, dayBase, radius) = (try strings(), try array(Int64.self), try pod() as Double)
        let (fo, ft, fb, fr, fm) = (try array(Int32.self), try array(StopIndex.self), try array(Double.self), try array(UInt8.self), try array(Int32.self))
        let (ssr, ssm, street, stepFree) = (try array(UInt8.self), try array(Int32.self), try array(Double.self), try array(Double.self))
        // What the initialiser and the router take for granted, checked: a damaged image
        // that passed the checksum must not crash the server.
        let routes = rso.count - 1
        guard stopCount >= 0, [lat.count, lon.count, boardable.count, feed.count, ssr.count, ssm.count].allSatisfy({ $0 == stopCount }),
              sro.count == stopCount + 1, srr.count == srp.count, sro.last.map(Int.init) == srr.count,
              routes >= 0, rto.count == routes + 1, ras.count == routes, runTimes.count == ts.count, [rtz.count, rsr.count, rsv.count].allSatisfy({ $0 == routes }),
              rs.count == cb.count, rs.count == ca.count, rso.last.map(Int.init) == rs.count, rsd.count == rs.count,
              ts.count == tsh.count, ts.count == tso.count, rto.last.map(Int.init) == ts.count,
              fo.count == stopCount + 1, fo.last.map(Int.init) == ft.count, [fb.count, fr.count, fm.count].allSatisfy({ $0 == ft.count }),
              street.count == stepFree.count, street.isEmpty || street.count == ft.count,
              dayCount >= 0, dayBase.count == zones.count * dayCount, words >= (dayCount + 63) / 64,
              words == 0 ? serviceDays.isEmpty : serviceDays.count % words == 0,
              (rsv + ts).allSatisfy({ $0.index >= 0 && ($0.index + 1) * words <= serviceDays.count }),
              rs.allSatisfy({ (0..<stopCount).contains($0.index) }), ft.allSatisfy({ (0..<stopCount).contains($0.index) }),
              srr.allSatisfy({ (0..<routes).contains($0.index) }), rtz.allSatisfy({ (0..<zones.count).contains(Int($0)) })
        else { throw NetworkImage.ImageError("a timetable whose arrays do not fit together") }
        for r in 0..<routes {
            let stops = Int(rso[r + 1] - rso[r]), trips = Int(rto[r + 1] - rto[r])
            guard stops >= 0, trips >= 0, ras[r] == 0 || Int(ras[r]) == stops,
                  runTimes[Int(rto[r])..<Int(rto[r + 1])].allSatisfy({ $0.row >= 0 && Int($0.row) + stops + Int(ras[r]) <= profiles.count }) else {
                throw NetworkImage.ImageError("route \(r)'s times lie outside the timetable's")
            }
        }
        return Timetable(stopCount: stopCount, stopLatitude: lat, stopLongitude: lon, stopBoardable: boardable, stopFeed: feed,
                         stopRouteOffsets: sro, stopRouteRoute: srr, stopRoutePosition: srp, routeStopOffsets: rso, routeStops: rs,
                         routeCanBoard: cb, routeCanAlight: ca, routeTripOffsets: rto,
                         runTimes: runTimes, profiles: profiles, routeArrivalShift: ras, routeTimeZone: rtz, routeSourceRoute: rsr, routeService: rsv, routeStopShapeDistance: rsd,
                         tripService: ts, tripShape: tsh, tripSource: tso, firstDay: ServiceDate(daysSinceEpoch: firstDay),
                         dayCount: dayCount, serviceWords: words, serviceDays: serviceDays, timeZoneNames: zones, dayBase: dayBase,
                         footpathBeelineMeters: radius, footOffsets: fo, footTarget: ft, footBeeline: fb, footRule: fr, footMinTime: fm,
                         sameStopRule: ssr, sameStopMinTime: ssm, footStreet: street, footStreetStepFree: stepFree)
    }
}

extension ShapeStore {
    init(offsets: [Int32], latitude: [Int32], longitude: [Int32], distance: [Float]) {
        self.offsets = offsets; self.latitude = latitude; self.longitude = longitude; self.distance = distance
    }
}

extension StopSequences {
    init(stopTimeCounts: [Int32], feedFirst: [Int32], shiftedTrips: [Int32], shiftedFirst: [Int32], valueOffsets: [Int32],
         values: [Int32], passedTrips: [Int32], passedOffsets: [Int32], routePositions: [Int32]) {
        self.stopTimeCounts = stopTimeCounts; self.feedFirst = feedFirst; self.shiftedTrips = shiftedTrips
        self.shiftedFirst = shiftedFirst; self.valueOffsets = valueOffsets; self.values = values
        self.passedTrips = passedTrips; self.passedOffsets = passedOffsets; self.routePositions = routePositions
    }
}
