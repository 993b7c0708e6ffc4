import Foundation
import GTFS
import TransitModel

/// Compares `FeedSnapshot`s built different ways (a zip through `SnapshotSink`, the
/// database through `SnapshotLoader`, …) whose entity order may differ.
///
/// `canonical(_:)` puts a snapshot in one order: feeds by feed id, then agencies, stops,
/// routes, services and trips by (feed, id), ids compared byte by byte (UTF-8), every index
/// remapped; stop times follow their trip (their order within a trip is kept: both
/// builders sort it by `stop_sequence`); a service's added and removed dates ascending;
/// frequencies by (trip, start, end, headway); transfers by (feed, line, from, to, type,
/// minimum time); shapes by (feed, shape id), their points following them (order within a
/// shape kept: both builders sort it by `shape_pt_sequence`), trips' `shape` remapped.
/// `differences(_:_:)` compares two canonical forms field by field.
///
///     let diffs = SnapshotCanonical.differences(fromDatabase, fromZip)
///     #expect(diffs.isEmpty, "\(diffs.joined(separator: "\n"))")
public enum SnapshotCanonical {
    /// The snapshot in canonical order (see the type's description).
    public static func canonical(_ s: FeedSnapshot) -> FeedSnapshot {
        var out = FeedSnapshot()
        let feedOrder = sortedIndexes(s.feedIds.count) { byteLess(s.feedIds[$0], s.feedIds[$1]) }
        let feedMap = inverse(feedOrder)
        out.feedIds = feedOrder.map { s.feedIds[$0] }
        out.feedInfo = feedOrder.map { s.info(feed: $0) }
        func feed(_ f: Int32) -> Int32 { f >= 0 && Int(f) < feedMap.count ? feedMap[Int(f)] : f }
        func keyLess(_ fa: Int32, _ a: String, _ fb: Int32, _ b: String) -> Bool {
            let x = feed(fa), y = feed(fb)
            return x != y ? x < y : byteLess(a, b)
        }

        let agencyOrder = sortedIndexes(s.agencies.count) {
            keyLess(s.agencies[$0].feed, s.agencies[$0].agencyId, s.agencies[$1].feed, s.agencies[$1].agencyId)
        }
        let stopOrder = sortedIndexes(s.stops.count) {
            keyLess(s.stops[$0].feed, s.stops[$0].stopId, s.stops[$1].feed, s.stops[$1].stopId)
        }
        let routeOrder = sortedIndexes(s.routes.count) {
            keyLess(s.routes[$0].feed, s.routes[$0].routeId, s.routes[$1].feed, s.routes[$1].routeId)
        }
        let serviceOrder = sortedIndexes(s.services.count) {
            keyLess(s.services[$0].feed, s.services[$0].serviceId, s.services[$1].feed, s.services[$1].serviceId)
        }
        let tripOrder = sortedIndexes(s.trips.count) {
            keyLess(s.trips[$0].feed, s.trips[$0].tripId, s.trips[$1].feed, s.trips[$1].tripId)
        }
        let shapeCount = min(s.shapeIds.count, s.shapeFeed.count)
        let shapeOrder = sortedIndexes(shapeCount) {
            keyLess(s.shapeFeed[$0], s.shapeIds[$0], s.shapeFeed[$1], s.shapeIds[$1])
        }
        let agencyMap = inverse(agencyOrder), stopMap = inverse(stopOrder), routeMap = inverse(routeOrder)
        let serviceMap = inverse(serviceOrder), tripMap = inverse(tripOrder), shapeMap = inverse(shapeOrder)
        func remap(_ map: [Int32], _ i: Int32) -> Int32 { i >= 0 && Int(i) < map.count ? map[Int(i)] : i }

        out.agencies = agencyOrder.map { var a = s.agencies[$0]; a.feed = feed(a.feed); return a }
        out.stops = stopOrder.map {
            var x = s.stops[$0]; x.feed = feed(x.feed); x.parent = remap(stopMap, x.parent); return x
        }
        out.routes = routeOrder.map {
            var r = s.routes[$0]; r.feed = feed(r.feed); r.agency = remap(agencyMap, r.agency); return r
        }
        out.services = serviceOrder.map {
            var v = s.services[$0]; v.feed = feed(v.feed); v.added.sort(); v.removed.sort(); return v
        }
        out.trips = tripOrder.map {
            var t = s.trips[$0]
            t.feed = feed(t.feed); t.route = remap(routeMap, t.route); t.service = remap(serviceMap, t.service)
            t.shape = remap(shapeMap, t.shape)
            return t
        }

        out.shapeIds = shapeOrder.map { s.shapeIds[$0] }
        out.shapeFeed = shapeOrder.map { feed(s.shapeFeed[$0]) }
        out.shapePointOffsets = [0]
        out.shapePointOffsets.reserveCapacity(shapeCount + 1)
        for old in shapeOrder {
            let range = s.shapePointOffsets.count > old + 1 ? s.shapePoints(old) : 0..<0
            // Arrays shorter than the offsets say (a builder's bug, reported by
            // `differences`) read as NaN rather than trap.
            func value(_ a: [Double], _ i: Int) -> Double { i < a.count ? a[i] : .nan }
            for i in range {
                out.shapeLatitude.append(value(s.shapeLatitude, i))
                out.shapeLongitude.append(value(s.shapeLongitude, i))
                out.shapeDistance.append(value(s.shapeDistance, i))
            }
            out.shapePointOffsets.append(Int32(out.shapeLatitude.count))
        }

        out.tripStopTimes = [0]
        out.tripStopTimes.reserveCapacity(s.trips.count + 1)
        for old in tripOrder {
            let range = s.tripStopTimes.count > old + 1 ? s.stopTimes(ofTrip: old) : 0..<0
            for i in range {
                out.stopTimeStop.append(remap(stopMap, s.stopTimeStop[i]))
                out.stopTimeSequence.append(i < s.stopTimeSequence.count ? s.stopTimeSequence[i] : -1)
                out.stopTimeArrival.append(s.stopTimeArrival[i])
                out.stopTimeDeparture.append(s.stopTimeDeparture[i])
                out.stopTimePickup.append(s.stopTimePickup[i])
                out.stopTimeDropOff.append(s.stopTimeDropOff[i])
                out.stopTimeShapeDistance.append(s.stopTimeShapeDistance[i])
            }
            out.tripStopTimes.append(Int32(out.stopTimeStop.count))
        }

        out.frequencies = s.frequencies.map { var f = $0; f.trip = remap(tripMap, f.trip); return f }
            .sorted { ($0.trip, $0.startTime, $0.endTime, $0.headwaySeconds) < ($1.trip, $1.startTime, $1.endTime, $1.headwaySeconds) }
        let stopFeeds = out.stops.map(\.feed)
        func stopFeed(_ i: Int32) -> Int32 { i >= 0 && Int(i) < stopFeeds.count ? stopFeeds[Int(i)] : -1 }
        out.transfers = s.transfers.map {
            var x = $0; x.fromStop = remap(stopMap, x.fromStop); x.toStop = remap(stopMap, x.toStop); return x
        }.sorted { a, b in
            let fa = stopFeed(a.fromStop), fb = stopFeed(b.fromStop)
            if fa != fb { return fa < fb }
            if (a.line, a.fromStop, a.toStop, a.type) != (b.line, b.fromStop, b.toStop, b.type) {
                return (a.line, a.fromStop, a.toStop, a.type) < (b.line, b.fromStop, b.toStop, b.type)
            }
            return (a.minTransferTime ?? -1) < (b.minTransferTime ?? -1)
        }
        return out
    }

    /// The differences between two snapshots after canonicalising both, one line each
    /// (at most `limit`, then a count of the rest); empty when they are equal. Strings
    /// compare byte by byte (not by Unicode equivalence), doubles exactly (coordinates too;
    /// a mismatch says by how many ulps), NaN equal to NaN; added and removed dates as sets.
    public static func differences(_ a: FeedSnapshot, _ b: FeedSnapshot, limit: Int = 30) -> [String] {
        var report = Report(limit: limit)
        let x = canonical(a), y = canonical(b)
        report.check("feedIds", x.feedIds.map { Array($0.utf8) }, y.feedIds.map { Array($0.utf8) })
        for i in 0..<min(x.feedInfo.count, y.feedInfo.count) {
            let p = x.feedInfo[i], q = y.feedInfo[i], at = "feed \(i) (\(x.feedIds[i])) info"
            report.text("\(at) publisherName", p.publisherName ?? "<none>", q.publisherName ?? "<none>")
            report.text("\(at) publisherURL", p.publisherURL ?? "<none>", q.publisherURL ?? "<none>")
            report.text("\(at) version", p.version ?? "<none>", q.version ?? "<none>")
            report.text("\(at) place", p.place ?? "<none>", q.place ?? "<none>")
        }

        report.count("agencies", x.agencies.count, y.agencies.count)
        for i in 0..<min(x.agencies.count, y.agencies.count) {
            let p = x.agencies[i], q = y.agencies[i], at = "agency \(i) (\(p.agencyId))"
            report.check("\(at) feed", p.feed, q.feed)
            report.text("\(at) agencyId", p.agencyId, q.agencyId)
            report.text("\(at) name", p.name, q.name)
            report.text("\(at) timezone", p.timezone, q.timezone)
        }

        report.count("stops", x.stops.count, y.stops.count)
        for i in 0..<min(x.stops.count, y.stops.count) {
            let p = x.stops[i], q = y.stops[i], at = "stop \(i) (\(p.stopId))"
            report.check("\(at) feed", p.feed, q.feed)
            report.text("\(at) stopId", p.stopId, q.stopId)
            report.text("\(at) name", p.name, q.name)
            report.double("\(at) latitude", p.latitude, q.latitude)
            report.double("\(at) longitude", p.longitude, q.longitude)
            report.check("\(at) locationType", p.locationType, q.locationType)
            report.check("\(at) parent", p.parent, q.parent)
            report.text("\(at) platformCode", p.platformCode, q.platformCode)
            report.check("\(at) wheelchairBoarding", p.wheelchairBoarding, q.wheelchairBoarding)
            report.text("\(at) stopCode", p.stopCode, q.stopCode)
        }

        report.count("routes", x.routes.count, y.routes.count)
        for i in 0..<min(x.routes.count, y.routes.count) {
            let p = x.routes[i], q = y.routes[i], at = "route \(i) (\(p.routeId))"
            report.check("\(at) feed", p.feed, q.feed)
            report.text("\(at) routeId", p.routeId, q.routeId)
            report.check("\(at) agency", p.agency, q.agency)
            report.text("\(at) shortName", p.shortName, q.shortName)
            report.text("\(at) longName", p.longName, q.longName)
            report.check("\(at) type", p.type, q.type)
            report.text("\(at) color", p.color, q.color)
            report.text("\(at) textColor", p.textColor, q.textColor)
        }

        report.count("services", x.services.count, y.services.count)
        for i in 0..<min(x.services.count, y.services.count) {
            let p = x.services[i], q = y.services[i], at = "service \(i) (\(p.serviceId))"
            report.check("\(at) feed", p.feed, q.feed)
            report.text("\(at) serviceId", p.serviceId, q.serviceId)
            report.check("\(at) weekdays", p.weekdays, q.weekdays)
            report.check("\(at) start", p.start, q.start)
            report.check("\(at) end", p.end, q.end)
            report.check("\(at) added", Set(p.added), Set(q.added))
            report.check("\(at) removed", Set(p.removed), Set(q.removed))
        }

        report.count("trips", x.trips.count, y.trips.count)
        for i in 0..<min(x.trips.count, y.trips.count) {
            let p = x.trips[i], q = y.trips[i], at = "trip \(i) (\(p.tripId))"
            report.check("\(at) feed", p.feed, q.feed)
            report.text("\(at) tripId", p.tripId, q.tripId)
            report.check("\(at) route", p.route, q.route)
            report.check("\(at) service", p.service, q.service)
            report.text("\(at) headsign", p.headsign, q.headsign)
            report.text("\(at) shapeId", p.shapeId, q.shapeId)
            report.check("\(at) shape", p.shape, q.shape)
            report.text("\(at) shape's id", shapeId(x, p.shape), shapeId(y, q.shape))
            report.check("\(at) wheelchairAccessible", p.wheelchairAccessible, q.wheelchairAccessible)
            report.check("\(at) directionId", p.directionId, q.directionId)
        }

        report.check("tripStopTimes", x.tripStopTimes.count, y.tripStopTimes.count)
        report.count("stop times", x.stopTimeCount, y.stopTimeCount)
        if x.tripStopTimes == y.tripStopTimes {
            for t in 0..<(x.tripStopTimes.count - 1) {
                for i in x.stopTimes(ofTrip: t) {
                    let at = { "stop time \(i - Int(x.tripStopTimes[t])) of trip \(t) (\(x.trips[t].tripId))" }
                    report.check("\(at()) stop", x.stopTimeStop[i], y.stopTimeStop[i])
                    report.check("\(at()) stop_sequence", x.stopTimeSequence[i], y.stopTimeSequence[i])
                    report.check("\(at()) arrival", x.stopTimeArrival[i], y.stopTimeArrival[i])
                    report.check("\(at()) departure", x.stopTimeDeparture[i], y.stopTimeDeparture[i])
                    report.check("\(at()) pickup", x.stopTimePickup[i], y.stopTimePickup[i])
                    report.check("\(at()) dropOff", x.stopTimeDropOff[i], y.stopTimeDropOff[i])
                    report.double("\(at()) shapeDistance", x.stopTimeShapeDistance[i], y.stopTimeShapeDistance[i])
                }
            }
        } else if x.tripStopTimes.count == y.tripStopTimes.count {
            for t in 0..<(x.tripStopTimes.count - 1) where x.stopTimes(ofTrip: t).count != y.stopTimes(ofTrip: t).count {
                report.add("trip \(t) (\(x.trips[t].tripId)): \(x.stopTimes(ofTrip: t).count) stop times against \(y.stopTimes(ofTrip: t).count)")
            }
        }

        report.count("frequencies", x.frequencies.count, y.frequencies.count)
        for i in 0..<min(x.frequencies.count, y.frequencies.count) {
            report.check("frequency \(i)", x.frequencies[i], y.frequencies[i])
        }
        report.count("transfers", x.transfers.count, y.transfers.count)
        for i in 0..<min(x.transfers.count, y.transfers.count) {
            report.check("transfer \(i)", x.transfers[i], y.transfers[i])
        }

        // stop_sequence is parallel to the stop times in each snapshot as given.
        for (name, s) in [("first", a), ("second", b)] where s.stopTimeSequence.count != s.stopTimeStop.count {
            report.add("\(name) snapshot: \(s.stopTimeSequence.count) stop_sequence values for \(s.stopTimeStop.count) stop times")
        }
        // The shape arrays of each snapshot as given, before canonical order hides a gap.
        for (name, s) in [("first", a), ("second", b)] {
            let points = Int(s.shapePointOffsets.last ?? 0)
            if s.shapeFeed.count != s.shapeIds.count || s.shapePointOffsets.count != s.shapeIds.count + 1
                || s.shapePointOffsets.first != 0 || s.shapeLatitude.count != points
                || s.shapeLongitude.count != points || s.shapeDistance.count != points {
                report.add("\(name) snapshot: shape arrays do not agree: \(s.shapeIds.count) ids, \(s.shapeFeed.count) feeds, "
                           + "\(s.shapePointOffsets.count) offsets up to \(points), \(s.shapeLatitude.count) latitudes, "
                           + "\(s.shapeLongitude.count) longitudes, \(s.shapeDistance.count) distances")
            }
        }
        report.count("shapes", x.shapeIds.count, y.shapeIds.count)
        report.count("shape points", x.shapeLatitude.count, y.shapeLatitude.count)
        for i in 0..<min(x.shapeIds.count, y.shapeIds.count) {
            report.text("shape \(i) id", x.shapeIds[i], y.shapeIds[i])
            report.check("shape \(i) (\(x.shapeIds[i])) feed", x.shapeFeed[i], y.shapeFeed[i])
            let p = x.shapePoints(i), q = y.shapePoints(i)
            guard p.count == q.count else {
                report.add("shape \(i) (\(x.shapeIds[i])): \(p.count) points against \(q.count)")
                continue
            }
            for (j, k) in zip(p, q) {
                let at = { "point \(j - p.lowerBound) of shape \(i) (\(x.shapeIds[i]))" }
                report.double("\(at()) latitude", x.shapeLatitude[j], y.shapeLatitude[k])
                report.double("\(at()) longitude", x.shapeLongitude[j], y.shapeLongitude[k])
                report.double("\(at()) distance", x.shapeDistance[j], y.shapeDistance[k])
            }
        }
        return report.lines + (report.dropped > 0 ? ["… and \(report.dropped) more differences"] : [])
    }

    /// The id of shape `i` of `s`, nil for -1 (or an index out of range).
    private static func shapeId(_ s: FeedSnapshot, _ i: Int32) -> String? {
        i >= 0 && Int(i) < s.shapeIds.count ? s.shapeIds[Int(i)] : nil
    }

    /// The reference snapshot of feeds read from their files (zip or folder) with
    /// `SnapshotSink`, merged in the order given, as `FeedSnapshot.merging` lays them out.
    public static func reference(_ feeds: [(path: String, feedId: String)]) throws -> FeedSnapshot {
        FeedSnapshot.merging(try feeds.map { try SnapshotSink.load(path: $0.path, feedId: $0.feedId).0 })
    }

    /// Byte order of UTF-8 (the order of `COLLATE "C"`).
    public static func byteLess(_ a: String, _ b: String) -> Bool {
        a.utf8.lexicographicallyPrecedes(b.utf8)
    }

    /// The value `FeedSnapshot.untimed` (for tests that do not import TransitModel).
    public static var untimed: Int32 { FeedSnapshot.untimed }

    // MARK: - Helpers

    private static func sortedIndexes(_ n: Int, _ less: (Int, Int) -> Bool) -> [Int] {
        (0..<n).sorted { less($0, $1) || (!less($1, $0) && $0 < $1) }
    }

    /// old index -> new index, for `order` listing old indexes in their new order.
    private static func inverse(_ order: [Int]) -> [Int32] {
        var map = [Int32](repeating: -1, count: order.count)
        for (new, old) in order.enumerated() { map[old] = Int32(new) }
        return map
    }

    private struct Report {
        let limit: Int
        var lines: [String] = []
        var dropped = 0

        mutating func add(_ line: String) {
            if lines.count < limit { lines.append(line) } else { dropped += 1 }
        }
        mutating func count(_ what: String, _ a: Int, _ b: Int) {
            if a != b { add("\(what): \(a) against \(b)") }
        }
        mutating func check<T: Equatable>(_ what: @autoclosure () -> String, _ a: T, _ b: T) {
            if a != b { add("\(what()): \(a) against \(b)") }
        }
        /// Strings compare byte by byte (`==` on String is Unicode canonical equivalence:
        /// "é" precomposed equals "e" + combining acute, two different GTFS ids).
        mutating func text(_ what: @autoclosure () -> String, _ a: String?, _ b: String?) {
            if a.map({ Array($0.utf8) }) != b.map({ Array($0.utf8) }) {
                add("\(what()): \(a.map { "\"\($0)\"" } ?? "nil") against \(b.map { "\"\($0)\"" } ?? "nil")")
            }
        }
        mutating func double(_ what: @autoclosure () -> String, _ a: Double?, _ b: Double?) {
            switch (a, b) {
            case (nil, nil): return
            case let (x?, y?):
                if x == y || (x.isNaN && y.isNaN) { return }
                var note = ""
                if x.sign == y.sign && x.isFinite && y.isFinite {
                    let ulps = x.bitPattern > y.bitPattern ? x.bitPattern - y.bitPattern : y.bitPattern - x.bitPattern
                    note = " (\(ulps) ulp\(ulps == 1 ? "" : "s") apart)"
                }
                add("\(what()): \(x) against \(y)\(note)")
            default:
                add("\(what()): \(a.map { "\($0)" } ?? "nil") against \(b.map { "\($0)" } ?? "nil")")
            }
        }
    }
}
