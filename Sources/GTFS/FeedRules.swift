import Foundation
import TransitModel

/// The canonical rules that need more than one row: what the loader hands over as rows are
/// accepted (small values per stop, route, trip and shape; a trip's stops as its run is
/// checked), and the notices they make once the whole feed is read. Warnings and infos:
/// nothing here changes what is loaded.
///
/// Memory: a few bytes per stop, route, trip and shape, names as strings only where a
/// rule compares them (stop names, headsigns, route names).
final class FeedRules {
    private(set) var issues: [GTFSIssue] = []

    // Names compared without regard to case: each distinct lowercased name once, as a number.
    private var nameKeys: [String: Int32] = [:]
    private func nameKey(_ name: String) -> Int32 {
        let lower = name.lowercased()
        if let k = nameKeys[lower] { return k }
        let k = Int32(nameKeys.count)
        nameKeys[lower] = k
        return k
    }

    // Stops, by the loader's stop index (`stops` IdTable).
    private var stopName: [String?] = []
    private var stopNameKey: [Int32] = []
    /// cos(latitude), for distances in a plane (`distance`).
    private var stopCosLat: [Double] = []
    /// Degrees; NaN without coordinates of its own.
    private var stopLat: [Double] = [], stopLon: [Double] = []
    private var stopType: [Int8] = []
    private var stopLine: [Int32] = []
    private var stopId: [String] = []
    /// Station index -> whether some location names it as its parent.
    private var isParent: [Bool] = []
    /// The location it names as its parent_station (-1: none); whether it has a level_id.
    private var stopParent: [Int32] = [], stopHasLevel: [Bool] = []

    // Routes: (agency, type, short name, long name) -> the first route with them.
    private var routeNames: [String: (id: String, line: Int)] = [:]
    /// Routes in file order: line, id, whether a trip runs on it.
    private var routeLine: [Int32] = [], routeId: [String] = [], routeUsed: [Bool] = []
    /// Stops, by stop index: whether a stop time is there.
    private var stopServed: [Bool] = []

    // Trips, by trip index: headsign (an index into `headsigns`, -1: none).
    private var tripHeadsign: [Int32] = []
    /// Distinct headsigns (thousands of trips share a few dozen), with their lowercased
    /// name's key and whether they are in one case.
    private var headsigns = IdTable(capacity: 256)
    private var headsignKey: [Int32] = [], headsignOneCase: [String?] = []
    private var tripLine: [Int32] = []
    private var tripShape: [Int32] = []
    private var tripRouteType: [Int16] = []
    /// Block (an index into `blocks`, -1: none) and service of each trip.
    private var tripBlock: [Int32] = [], tripService: [Int32] = []
    private var blocks = IdTable(capacity: 256)
    /// For trips in a block: the first and last stop time's sequence and times (-1: none).
    private var spanFirst: [(sequence: Int32, arrival: Int32, departure: Int32)] = []
    private var spanLast: [(sequence: Int32, arrival: Int32, departure: Int32)] = []
    /// Each trip's stops as one of the distinct sequences of stops (`patterns`); -1 before its
    /// stop times. A trip whose rows come in several runs keeps the later runs' stops aside.
    private var patternIndex: [[Int32]: Int32] = [:], patterns: [[Int32]] = []
    private var tripPattern: [Int32] = []
    private var tripMoreStops: [Int32: Set<Int32>] = [:]
    /// Trips whose shape_dist_traveled already passed their shape's end (said once).
    private var pastShapeEnd = Set<Int32>()

    /// agency_url and agency_lang of each agency; stop_url of stops that have one (for the
    /// routes' URLs, read after the stops); route_url of each route that has one.
    private var agencyURLs = Set<String>(), agencyLangs: [(lang: String, line: Int)] = []
    private var stopURLs: [(url: String, line: Int32, stop: Int32)] = []
    private var routeURLs = Set<String>()

    /// Pathways: (from, to, both ways); elevator ends already said to lack a level.
    private var pathwayEnds: [(from: Int32, to: Int32, twoWay: Bool)] = []
    private var levelSaid = Set<Int32>()

    // Shape points in shape_pt_sequence order: shape -> pointOffsets[s] ..< pointOffsets[s + 1]
    // (shapes without points: an empty range).
    private var shapeFirstPoint: [Int32] = [], shapePointCount: [Int32] = []
    private var pointLat: [Double] = [], pointLon: [Double] = []
    /// Each point's shape_dist_traveled (NaN: none); per shape, the largest (NaN: none).
    private var pointDist: [Double] = []
    private var shapeMaxDist: [Double] = []
    /// Trips already placed on their shape (a hash of shape, stops and distances); each
    /// shape's matcher; (shape, stop) pairs said to be far from the shape (`matchShape`).
    private var matchedTrips = Set<Int>()
    private var shapeMatchers: [Int: ShapeMatch] = [:]
    private var reportedFar = Set<UInt64>()

    // Shapes, by shape index: the first line of each; used by a trip.
    private var shapeLine: [Int32] = []
    private var shapeUsed: [Bool] = []

    private func grow<T>(_ a: inout [T], to n: Int, _ fill: T) { if a.count < n { a += Array(repeating: fill, count: n - a.count) } }

    // MARK: - Rows

    /// An agency loaded: its URL (a stop's or a route's should be its own) and language (all
    /// agencies should share one).
    func agency(line: Int, url: String?, lang: String?) {
        if let url { agencyURLs.insert(url) }
        guard let lang else { return }
        if let first = agencyLangs.first, first.lang.lowercased() != lang.lowercased() {
            issues.append(GTFSIssue(.warning, "AGENCY_LANGUAGES_DIFFER", canonical: "inconsistent_agency_lang", file: "agency.txt", line: line,
                                    field: "agency_lang", value: lang, "not the first agency's language (\(first.lang), line \(first.line)): a feed's agencies should share one"))
        }
        agencyLangs.append((lang, line))
    }

    /// feed_info.txt's feed_lang against the agencies' languages (unless it is "mul").
    func feedInfo(line: Int, lang: String?) {
        guard let lang, lang.lowercased() != "mul" else { return }
        for a in agencyLangs where a.lang.lowercased() != lang.lowercased() {
            issues.append(GTFSIssue(.warning, "FEED_LANGUAGE_DIFFERS", canonical: "feed_info_lang_and_agency_lang_mismatch", file: "feed_info.txt", line: line,
                                    field: "feed_lang", value: lang, "agency.txt line \(a.line) says the agency's language is \(a.lang)"))
        }
    }

    /// A value with spaces or tabs around it (trimmed when loaded; an id and a reference to
    /// it could differ by them).
    func whitespace(file: String, line: Int, field: String, value: String) {
        issues.append(GTFSIssue(.warning, "SPACES_AROUND_VALUE", canonical: "leading_or_trailing_whitespaces", file: file, line: line,
                                field: field, value: value, "spaces or tabs before or after the value; loaded without them"))
    }

    func stop(_ index: Int32, id: String, line: Int, name: String?, description: String?, type: Int, parent: Int32?, lat: Double?, lon: Double?,
              level: Bool = false, url: String? = nil, platformCode: Bool = false) {
        let i = Int(index)
        if let url {
            stopURLs.append((url, Int32(line), index))
            if agencyURLs.contains(url) {
                issues.append(GTFSIssue(.warning, "SAME_URL", canonical: "same_stop_and_agency_url", file: "stops.txt", line: line, field: "stop_url", value: url,
                                        "the agency's own web address: a stop's page should be about the stop"))
            }
        }
        if type == 0 && platformCode && parent == nil {
            issues.append(GTFSIssue(.note, "PLATFORM_WITHOUT_STATION", canonical: "platform_without_parent_station", file: "stops.txt", line: line,
                                    field: "parent_station", value: nil, "a platform (it has a platform_code) in no station: riders cannot tell which station it belongs to"))
        }
        grow(&stopName, to: i + 1, nil); grow(&stopType, to: i + 1, -1); grow(&stopLine, to: i + 1, 0)
        grow(&stopParent, to: i + 1, -1); grow(&stopHasLevel, to: i + 1, false)
        stopParent[i] = parent ?? -1; stopHasLevel[i] = level
        grow(&stopId, to: i + 1, ""); grow(&isParent, to: i + 1, false)
        grow(&stopLat, to: i + 1, .nan); grow(&stopLon, to: i + 1, .nan); grow(&stopNameKey, to: i + 1, -1); grow(&stopCosLat, to: i + 1, 1)
        stopName[i] = name; stopType[i] = Int8(type); stopLine[i] = Int32(line); stopId[i] = id
        if let name { stopNameKey[i] = nameKey(name) }
        if let lat, let lon { stopLat[i] = lat; stopLon[i] = lon; stopCosLat[i] = cos(lat * .pi / 180) }
        if let parent { grow(&isParent, to: Int(parent) + 1, false); isParent[Int(parent)] = true }
        if let name, let description, !name.isEmpty, name.count == description.count, name.lowercased() == description.lowercased() {
            issues.append(GTFSIssue(.warning, "DESCRIPTION_IS_NAME", canonical: "same_name_and_description_for_stop", file: "stops.txt", line: line,
                                    field: "stop_desc", value: description, "stop_desc only repeats stop_name: say what the name does not (where the stop is, which side)"))
        }
        if let name { mixedCase("stops.txt", line, "stop_name", name) }
    }

    func route(_ index: Int32, id: String, line: Int, agency: String?, agencyGiven: Bool, type: Int, shortName: String?, longName: String?, description: String?,
               url: String? = nil, color: String? = nil, textColor: String? = nil) {
        grow(&routeLine, to: Int(index) + 1, 0); grow(&routeId, to: Int(index) + 1, ""); grow(&routeUsed, to: Int(index) + 1, false)
        routeLine[Int(index)] = Int32(line); routeId[Int(index)] = id
        if let url {
            routeURLs.insert(url)
            if agencyURLs.contains(url) {
                issues.append(GTFSIssue(.warning, "SAME_URL", canonical: "same_route_and_agency_url", file: "routes.txt", line: line, field: "route_url", value: url,
                                        "the agency's own web address: a route's page should be about the route"))
            }
        }
        if let color, let textColor, let a = Self.luma(color), let b = Self.luma(textColor), abs(a - b) < 72 {
            issues.append(GTFSIssue(.warning, "COLOURS_TOO_CLOSE", canonical: "route_color_contrast", file: "routes.txt", line: line, field: "route_text_color",
                                    value: textColor, "on route_color \(color) the text is hard to read (brightness \(Int(a.rounded())) against \(Int(b.rounded())); 72 apart at least)"))
        }
        if let shortName, let longName, Self.startsWithWord(longName, shortName) {
            issues.append(GTFSIssue(.warning, "LONG_NAME_HAS_SHORT", canonical: "route_long_name_contains_short_name", file: "routes.txt", line: line,
                                    field: "route_long_name", value: longName, "begins with route_short_name (\(shortName)): screens show both, so riders read it twice"))
        }
        if let shortName, shortName.count > 12 {
            issues.append(GTFSIssue(.warning, "LONG_SHORT_NAME", canonical: "route_short_name_too_long", file: "routes.txt", line: line,
                                    field: "route_short_name", value: shortName, "\(shortName.count) characters: a short name fits a sign (12 at most)"))
        }
        if let description, [shortName, longName].contains(where: { $0.map { $0.count == description.count && $0.lowercased() == description.lowercased() } ?? false }) {
            issues.append(GTFSIssue(.warning, "DESCRIPTION_IS_NAME", canonical: "same_name_and_description_for_route", file: "routes.txt", line: line,
                                    field: "route_desc", value: description, "route_desc only repeats the route's name: say what the name does not"))
        }
        if !agencyGiven {
            issues.append(GTFSIssue(.warning, "RECOMMENDED_VALUE_MISSING", canonical: "missing_recommended_field", file: "routes.txt", line: line,
                                    field: "agency_id", "agency_id is empty: fine with one agency, but the route breaks once a second one is added"))
        }
        if let longName { mixedCase("routes.txt", line, "route_long_name", longName) }
        if let description { mixedCase("routes.txt", line, "route_desc", description) }
        guard shortName != nil || longName != nil else { return }
        let key = "\(agency ?? "")\u{1}\(type)\u{1}\(shortName ?? "")\u{1}\(longName ?? "")"
        if let first = routeNames[key] {
            issues.append(GTFSIssue(.warning, "SAME_ROUTE_NAME", canonical: "duplicate_route_name", file: "routes.txt", line: line, field: "route_id", value: id,
                                    "the same agency, route_type and names as route \(first.id) (line \(first.line)): riders cannot tell them apart"))
        } else {
            routeNames[key] = (id, line)
        }
    }

    func trip(_ index: Int32, line: Int, headsign: UnsafeBufferPointer<UInt8>?, shape: Int32?, routeType: Int, route: Int32,
              block: UnsafeBufferPointer<UInt8>? = nil, service: Int32 = -1, bikesAllowed: Bool = true, id: @autoclosure () -> String = "") {
        let i = Int(index)
        if routeType == 4 && !bikesAllowed {
            issues.append(GTFSIssue(.warning, "FERRY_WITHOUT_BIKES", canonical: "missing_bike_allowance", file: "trips.txt", line: line, field: "bikes_allowed",
                                    value: nil, "trip \(id()) is a ferry: say whether bicycles may board (bikes_allowed 1 or 2)"))
        }
        grow(&tripBlock, to: i + 1, -1); grow(&tripService, to: i + 1, -1)
        tripService[i] = service
        if let block {
            tripBlock[i] = blocks.insert(block).index
            grow(&spanFirst, to: i + 1, (Int32.max, -1, -1)); grow(&spanLast, to: i + 1, (Int32.min, -1, -1))
        }
        grow(&routeUsed, to: Int(route) + 1, false); routeUsed[Int(route)] = true
        grow(&tripHeadsign, to: i + 1, -1); grow(&tripLine, to: i + 1, 0); grow(&tripShape, to: i + 1, -1); grow(&tripRouteType, to: i + 1, -1)
        tripLine[i] = Int32(line); tripShape[i] = shape ?? -1; tripRouteType[i] = Int16(clamping: routeType)
        if let shape { grow(&shapeUsed, to: Int(shape) + 1, false); shapeUsed[Int(shape)] = true }
        guard let headsign else { return }
        let (h, new) = headsigns.insert(headsign)
        tripHeadsign[i] = h
        if new {
            let text = String(decoding: headsign, as: UTF8.self)
            headsignKey.append(nameKey(text))
            headsignOneCase.append(Self.oneCase(text))
        }
        if let which = headsignOneCase[Int(h)] { oneCaseNotice("trips.txt", line, "trip_headsign", headsigns.key(h), which) }
    }

    func shapeRow(_ index: Int32, line: Int) {
        let i = Int(index)
        if shapeLine.count <= i { grow(&shapeLine, to: i + 1, 0) }
        if shapeLine[i] == 0 { shapeLine[i] = Int32(line) }
    }

    /// One run of a shape's rows, in shape_pt_sequence order. A shape whose rows come in
    /// several runs (rare) is put together in `shapesRead`.
    func shapePoints(_ index: Int32, sequence: [Int], lat: [Double], lon: [Double], distance: [Double?]) {
        let i = Int(index)
        grow(&shapeFirstPoint, to: i + 1, 0); grow(&shapePointCount, to: i + 1, 0)
        guard shapePointCount[i] == 0 else {
            if splitShapes[index] == nil {
                let first = Int(shapeFirstPoint[i]), n = Int(shapePointCount[i])
                splitShapes[index] = (first..<first + n).map { (firstRunSequence[index]?[$0 - first] ?? 0, pointLat[$0], pointLon[$0], pointDist[$0]) }
            }
            splitShapes[index]! += (0..<lat.count).map { (sequence[$0], lat[$0], lon[$0], distance[$0] ?? .nan) }
            return
        }
        shapeFirstPoint[i] = Int32(pointLat.count); shapePointCount[i] = Int32(lat.count)
        pointLat += lat; pointLon += lon; pointDist += distance.map { $0 ?? .nan }
        firstRunSequence[index] = sequence
    }
    /// Shapes seen in more than one run: all their points so far.
    private var splitShapes: [Int32: [(sequence: Int, lat: Double, lon: Double, distance: Double)]] = [:]
    /// Each shape's first run's sequence numbers (kept for shapes split later).
    private var firstRunSequence: [Int32: [Int]] = [:]

    /// shapes.txt is read: a shape split in runs gets its points in one block, in order.
    func shapesRead() {
        for (shape, points) in splitShapes {
            let sorted = points.sorted { $0.sequence < $1.sequence }
            shapeFirstPoint[Int(shape)] = Int32(pointLat.count); shapePointCount[Int(shape)] = Int32(sorted.count)
            pointLat += sorted.map(\.lat); pointLon += sorted.map(\.lon); pointDist += sorted.map(\.distance)
        }
        splitShapes = [:]; firstRunSequence = [:]
        shapeMaxDist = Array(repeating: .nan, count: shapePointCount.count)
        for s in shapePointCount.indices where shapePointCount[s] > 0 {
            let points = Int(shapeFirstPoint[s])..<Int(shapeFirstPoint[s] + shapePointCount[s])
            var most = -Double.infinity
            for p in points where !pointDist[p].isNaN { most = max(most, pointDist[p]) }
            if most > -Double.infinity { shapeMaxDist[s] = most }
        }
    }

    /// A trip's stop times in stop_sequence order (one run of its rows).
    /// A stop time was loaded: its stop is used (its trip's use is the loader's count of them).
    @inline(__always) func served(stop: Int32) {
        if Int(stop) >= stopServed.count { grow(&stopServed, to: max(Int(stop) + 1, stopName.count), false) }
        stopServed[Int(stop)] = true
    }

    typealias StopTimeRow = (stop: Int32, arrival: Int?, departure: Int?, line: Int, sequence: Int, distance: Double?)

    func tripStops(_ trip: Int32, id: () -> String, rows: [StopTimeRow]) {
        let stops = rows.map(\.stop)
        keepPattern(trip, stops)
        keepSpan(trip, rows)
        pastShapeEnd(trip, id: id, rows)
        guard rows.count > 1 else { return }
        matchShape(trip, id: id, rows)
        fastTravel(trip, id: id, rows)
        headsignOfPassedStop(trip, id: id(), stops: stops)
    }

    private func keepPattern(_ trip: Int32, _ stops: [Int32]) {
        let t = Int(trip)
        grow(&tripPattern, to: t + 1, -1)
        guard tripPattern[t] < 0 else { tripMoreStops[trip, default: []].formUnion(stops); return }
        if let p = patternIndex[stops] { tripPattern[t] = p; return }
        tripPattern[t] = Int32(patterns.count)
        patternIndex[stops] = Int32(patterns.count)
        patterns.append(stops)
    }

    /// Whether the trip stops at `stop`, or at a location whose parent is `stop` (a station);
    /// nil when none of its stop times was handed over (none, or the trip left out).
    func trip(_ trip: Int32, serves stop: Int32) -> Bool? {
        guard let stops = stops(of: trip) else { return nil }
        return stops.contains { isAt($0, stop) } || (tripMoreStops[trip]?.contains { isAt($0, stop) } ?? false)
    }

    /// The trip's stops (its first run of rows), or nil before any was handed over.
    private func stops(of trip: Int32) -> [Int32]? {
        guard Int(trip) < tripPattern.count, tripPattern[Int(trip)] >= 0 else { return nil }
        return patterns[Int(tripPattern[Int(trip)])]
    }

    /// Whether location `s` is `stop`, or in it (its parent_station is `stop`).
    private func isAt(_ s: Int32, _ stop: Int32) -> Bool { s == stop || (Int(s) < stopParent.count && stopParent[Int(s)] == stop) }

    /// A location's coordinates, or its parent station's when it has none of its own.
    private func coordinates(_ s: Int32) -> (Double, Double)? {
        let i = Int(s)
        if i < stopLat.count, !stopLat[i].isNaN { return (stopLat[i], stopLon[i]) }
        let p = i < stopParent.count ? Int(stopParent[i]) : -1
        return p >= 0 && p < stopLat.count && !stopLat[p].isNaN ? (stopLat[p], stopLon[p]) : nil
    }

    /// A trip of a block: its first and last stop time (by stop_sequence, over all its runs).
    private func keepSpan(_ trip: Int32, _ rows: [StopTimeRow]) {
        let t = Int(trip)
        guard t < tripBlock.count, tripBlock[t] >= 0, let first = rows.first, let last = rows.last else { return }
        if first.sequence < spanFirst[t].sequence {
            spanFirst[t] = (Int32(first.sequence), Int32(first.arrival ?? -1), Int32(first.departure ?? -1))
        }
        if last.sequence > spanLast[t].sequence {
            spanLast[t] = (Int32(last.sequence), Int32(last.arrival ?? -1), Int32(last.departure ?? -1))
        }
    }

    /// A trip whose shape_dist_traveled goes past its shape's last one: an error when its last
    /// stop is 11.1 m or more from the shape's last point, else a warning (canonical
    /// thresholds). Kept: stops past the end are drawn at the shape's end.
    private func pastShapeEnd(_ trip: Int32, id: () -> String, _ rows: [StopTimeRow]) {
        let t = Int(trip)
        guard t < tripShape.count, tripShape[t] >= 0, Int(tripShape[t]) < shapeMaxDist.count else { return }
        let shape = Int(tripShape[t]), shapeMost = shapeMaxDist[shape]
        guard !shapeMost.isNaN, let row = rows.last(where: { $0.distance != nil }), row.distance! > shapeMost,
              !pastShapeEnd.contains(trip) else { return }
        pastShapeEnd.insert(trip)
        let last = rows.last!, s = Int(last.stop), p = Int(shapeFirstPoint[shape] + shapePointCount[shape] - 1)
        let meters = s < stopLat.count && !stopLat[s].isNaN ? Self.metersBetween(stopLat[s], stopLon[s], pointLat[p], pointLon[p]) : .infinity
        let error = meters >= 11.1
        issues.append(GTFSIssue(.warning, "PAST_SHAPE_END",
                                canonical: error ? "trip_distance_exceeds_shape_distance" : "trip_distance_exceeds_shape_distance_below_threshold",
                                file: "stop_times.txt", line: row.line, field: "shape_dist_traveled", value: GTFSFeedLoader.shownNumber(row.distance!),
                                "trip \(id()) goes past the end of its shape (shape_dist_traveled \(GTFSFeedLoader.shownNumber(shapeMost)))"
                                + (meters.isFinite ? String(format: "; its last stop is %.1f m from the shape's last point", meters) : "")))
    }

    /// Meters between two points, in a plane (see `distance`).
    static func metersBetween(_ lat1: Double, _ lon1: Double, _ lat2: Double, _ lon2: Double) -> Double {
        let k = 6_371_008.8 * Double.pi / 180
        let dy = (lat2 - lat1) * k, dx = (lon2 - lon1) * k * cos((lat1 + lat2) / 2 * .pi / 180)
        return (dx * dx + dy * dy).squareRoot()
    }

    /// The stops of each distinct trip (stops and distances) on its shape, placed along it
    /// (`ShapeMatch`): stops too far from the shape, by geometry or at their
    /// shape_dist_traveled (each stop once per shape, as the canonical rules report them), and
    /// stops that match the shape out of order.
    private func matchShape(_ trip: Int32, id: () -> String, _ rows: [StopTimeRow]) {
        guard Int(trip) < tripShape.count, tripShape[Int(trip)] >= 0 else { return }
        let shape = Int(tripShape[Int(trip)])
        guard shape < shapePointCount.count, shapePointCount[shape] > 0 else { return }
        var h = Hasher()
        h.combine(shape)
        for r in rows { h.combine(r.stop); h.combine(r.distance?.bitPattern ?? UInt64.max) }
        guard matchedTrips.insert(h.finalize()).inserted else { return }
        var stops: [(lat: Double, lon: Double, distance: Double, large: Bool)] = []
        let rail = Int(trip) < tripRouteType.count && tripRouteType[Int(trip)] == 2
        for (k, r) in rows.enumerated() {
            guard let (la, lo) = coordinates(r.stop) else { return }
            stops.append((la, lo, r.distance ?? 0, rail && (k == 0 || k == rows.count - 1)))
        }
        let matcher: ShapeMatch
        if let m = shapeMatchers[shape] { matcher = m } else {
            let first = Int(shapeFirstPoint[shape]), range = first..<(first + Int(shapePointCount[shape]))
            matcher = ShapeMatch(lat: pointLat[range], lon: pointLon[range], distance: pointDist[range])
            shapeMatchers[shape] = matcher
        }
        let (geo, user) = matcher.problems(stops)
        for (problem, byDistance) in geo.map({ ($0, false) }) + user.map({ ($0, true) }) {
            switch problem {
            case .far(let k, let meters, let limit):
                let r = rows[k]
                guard reportedFar.insert(UInt64(shape) << 32 | UInt64(UInt32(bitPattern: r.stop))).inserted else { continue }
                if byDistance {
                    issues.append(GTFSIssue(.warning, "STOP_FAR_FROM_SHAPE", canonical: "stop_too_far_from_shape_using_user_distance", file: "stop_times.txt",
                                            line: r.line, field: "shape_dist_traveled", value: r.distance.map(GTFSFeedLoader.shownNumber),
                                            String(format: "stop %@ is %.1f m from the point of its shape at this shape_dist_traveled (more than %.0f m): the stop, the shape or the distance is wrong",
                                                   stopId[Int(r.stop)], meters, limit)))
                } else {
                    issues.append(GTFSIssue(.warning, "STOP_FAR_FROM_SHAPE", canonical: "stop_too_far_from_shape", file: "stop_times.txt", line: r.line,
                                            field: "stop_id", value: stopId[Int(r.stop)],
                                            String(format: "%.1f m from the shape its trip follows (more than %.0f m): the stop or the shape is in the wrong place", meters, limit)))
                }
            case .tooManyMatches(let k, let n):
                let r = rows[k]
                issues.append(GTFSIssue(.warning, "STOP_NEAR_SHAPE_OFTEN", canonical: "stop_has_too_many_matches_for_shape", file: "stop_times.txt",
                                        line: r.line, field: "stop_id", value: stopId[Int(r.stop)],
                                        "trip \(id()): its shape passes within 100 m of this stop \(n) times (more than 20): where the trip stops along it is unclear"))
            case .outOfOrder(let k, let previous, let along, let previousAlong):
                let r = rows[k], p = rows[previous]
                issues.append(GTFSIssue(.warning, "STOPS_OUT_OF_ORDER_ON_SHAPE", canonical: "stops_match_shape_out_of_order", file: "stop_times.txt",
                                        line: r.line, field: byDistance ? "shape_dist_traveled" : "stop_id",
                                        value: byDistance ? r.distance.map(GTFSFeedLoader.shownNumber) : stopId[Int(r.stop)],
                                        String(format: "trip %@: this stop is nearest the shape %.0f m along it, before the stop before it (%@, line %d, %.0f m along)%@",
                                               id(), along, stopId[Int(p.stop)], p.line, previousAlong,
                                               byDistance ? ", placed by shape_dist_traveled" : ": the shape or the stops are in the wrong order")))
            }
        }
    }

    /// Meters between two stops with coordinates, in a plane (under 0.1% off the great
    /// circle below 100 km; a sine and a cosine per pair cost a tenth of the import).
    @inline(__always) private func distance(_ a: Int, _ b: Int) -> Double {
        let k = 6_371_008.8 * Double.pi / 180
        let dy = (stopLat[b] - stopLat[a]) * k, dx = (stopLon[b] - stopLon[a]) * k * 0.5 * (stopCosLat[a] + stopCosLat[b])
        return (dx * dx + dy * dy).squareRoot()
    }

    /// Faster than a vehicle of the route's type can go (km/h), between consecutive timed
    /// stops, or over the first 10 km from a stop ("far stops"); once per trip each.
    private func fastTravel(_ trip: Int32, id: () -> String, _ rows: [StopTimeRow]) {
        guard Int(trip) < tripRouteType.count else { return }
        let limit: Double = switch Int(tripRouteType[Int(trip)]) {
        case 0: 100; case 1: 150; case 2: 500; case 3: 150; case 4: 80; case 5: 30; case 6, 7: 50; case 11, 12: 150; default: 200 }
        // Distance from the first stop along the stops (straight lines between consecutive ones).
        var along = [Double](repeating: 0, count: rows.count)
        for i in 1..<rows.count {
            let a = Int(rows[i - 1].stop), b = Int(rows[i].stop)
            guard a < stopLat.count, b < stopLat.count, !stopLat[a].isNaN, !stopLat[b].isNaN else { return }
            along[i] = along[i - 1] + distance(a, b)
        }
        // Times in whole minutes may each be up to a minute off: a minute more is allowed
        // (1.9 km in "1 min" between two rounded times is not 113 km/h).
        func kmh(_ meters: Double, _ seconds: Int) -> Double {
            meters / 1000 / (Double(seconds % 60 == 0 ? max(0, seconds) + 60 : max(60, seconds)) / 3600)
        }
        func say(_ code: String, _ canonical: String, _ i: Int, _ j: Int, _ speed: Double) {
            issues.append(GTFSIssue(.warning, code, canonical: canonical, file: "stop_times.txt", line: rows[j].line, field: "stop_id",
                                    value: stopId[Int(rows[j].stop)],
                                    String(format: "trip %@ covers %.1f km from %@ (line %d) in %d min: %.0f km/h, more than %.0f km/h", id(),
                                           (along[j] - along[i]) / 1000, stopId[Int(rows[i].stop)], rows[i].line,
                                           max(1, ((rows[j].arrival ?? rows[j].departure!) - (rows[i].departure ?? rows[i].arrival!)) / 60), speed, limit)))
        }
        // Consecutive timed stops (untimed ones between them are skipped over).
        var previous: Int?
        for j in rows.indices where rows[j].arrival != nil || rows[j].departure != nil {
            if let i = previous {
                let seconds = (rows[j].arrival ?? rows[j].departure!) - (rows[i].departure ?? rows[i].arrival!)
                let d = along[j] - along[i], v = kmh(d, seconds)
                if d < 10_000 && v > limit { say("TOO_FAST", "fast_travel_between_consecutive_stops", i, j, v); break }
            }
            previous = j
        }
        // Far stops: from each timed stop, the first timed stop 10 km or more along.
        var j = 0
        for i in rows.indices where rows[i].arrival != nil || rows[i].departure != nil {
            j = max(j, i + 1)
            while j < rows.count && (along[j] - along[i] < 10_000 || rows[j].arrival == nil && rows[j].departure == nil) { j += 1 }
            guard j < rows.count else { break }
            let seconds = (rows[j].arrival ?? rows[j].departure!) - (rows[i].departure ?? rows[i].arrival!)
            let v = kmh(along[j] - along[i], seconds)
            if v > limit { say("TOO_FAST", "fast_travel_between_far_stops", i, j, v); break }
        }
    }

    /// A headsign that names a stop the trip passes before its last one (not when the last
    /// stop has that name too: a loop, or a platform of the same station).
    private func headsignOfPassedStop(_ trip: Int32, id: @autoclosure () -> String, stops: [Int32]) {
        guard Int(trip) < tripHeadsign.count, tripHeadsign[Int(trip)] >= 0, stops.count > 1 else { return }
        let h = tripHeadsign[Int(trip)], key = headsignKey[Int(h)]
        guard Int(stops.last!) < stopNameKey.count, stopNameKey[Int(stops.last!)] != key else { return }
        for s in stops.dropLast() where Int(s) < stopNameKey.count && stopNameKey[Int(s)] == key {
            issues.append(GTFSIssue(.note, "HEADSIGN_IS_PASSED_STOP", canonical: "trip_headsign_matches_intermediate_stop", file: "trips.txt",
                                    line: Int(tripLine[Int(trip)]), field: "trip_headsign", value: headsigns.key(h),
                                    "trip \(id()) passes \(stopName[Int(s)] ?? "") (\(stopId[Int(s)])) before its last stop: riders after it read a place already behind them"))
            return
        }
    }

    /// Text riders read written all in capitals or all in small letters (canonical: mixed
    /// case). Our reading: a value with cased letters all of one case, and more than one
    /// word (all capitals) or more than one letter (all small) — a single word in capitals
    /// is often a code or an acronym ("UCD", "BART").
    private func mixedCase(_ file: String, _ line: Int, _ field: String, _ value: String) {
        if let which = Self.oneCase(value) { oneCaseNotice(file, line, field, value, which) }
    }

    private func oneCaseNotice(_ file: String, _ line: Int, _ field: String, _ value: String, _ which: String) {
        issues.append(GTFSIssue(.warning, "ONE_CASE_TEXT", canonical: "mixed_case_recommended_field", file: file, line: line, field: field, value: value,
                                "all in \(which): riders read mixed case more easily"))
    }

    /// "capitals" or "small letters" when the text is in one case (see `mixedCase`), else nil.
    static func oneCase(_ value: String) -> String? {
        var upper = 0, lower = 0, words = 0, inWord = false
        for c in value.unicodeScalars {
            let letter: Bool
            if c.isASCII {
                let b = UInt8(c.value)
                if b >= 0x41 && b <= 0x5A { upper += 1; letter = true } else if b >= 0x61 && b <= 0x7A { lower += 1; letter = true } else { letter = false }
                if letter && !inWord { words += 1 }
                inWord = letter || (b >= 0x30 && b <= 0x39)
            } else {
                let p = c.properties
                if p.isUppercase { upper += 1 } else if p.isLowercase { lower += 1 }
                letter = p.isAlphabetic
                if letter && !inWord { words += 1 }
                inWord = letter || p.numericType != nil
            }
        }
        guard upper + lower > 1, upper == 0 || lower == 0, words > 1 || lower > 0 else { return nil }
        return upper > 0 ? "capitals" : "small letters"
    }

    /// A colour's brightness (ITU-R BT.601 luma, 0–255) from six hex digits.
    static func luma(_ hex: String) -> Double? {
        guard hex.utf8.count == 6, let v = Int(hex, radix: 16) else { return nil }
        return (299 * Double(v >> 16 & 0xFF) + 587 * Double(v >> 8 & 0xFF) + 114 * Double(v & 0xFF)) / 1000
    }

    /// Whether `text` begins with `word` (ignoring case) and the word ends there.
    static func startsWithWord(_ text: String, _ word: String) -> Bool {
        let t = text.lowercased(), w = word.lowercased()
        guard t.hasPrefix(w) else { return false }
        let rest = t.dropFirst(w.count)
        return rest.first.map { !($0.isLetter || $0.isNumber) } ?? true
    }

    // MARK: - Transfers

    /// A transfers.txt row loaded: stops more than 2 km (info) or 10 km (warning) apart; an
    /// in-seat transfer (transfer_type 4) must be at the first trip's last stop and the
    /// second's first, between trips of one mode.
    func transfer(line: Int, from: Int32?, to: Int32?, fromTrip: Int32?, toTrip: Int32?, type: Int?, tripId: (Int32) -> String) {
        if let from, let to, let a = coordinates(from), let b = coordinates(to) {
            let km = GTFSFeedLoader.haversineMeters(a.0, a.1, b.0, b.1) / 1000
            if km > 2 {
                issues.append(GTFSIssue(km > 10 ? .warning : .note, "TRANSFER_FAR", canonical: km > 10 ? "transfer_distance_too_large" : "transfer_distance_above_2_km",
                                        file: "transfers.txt", line: line, field: "to_stop_id", value: stopId[Int(to)],
                                        String(format: "%.1f km from %@: more than %@ to walk between two vehicles", km, stopId[Int(from)], km > 10 ? "10 km" : "2 km")))
            }
        }
        guard type == 4 else { return }
        if let fromTrip, let from, let last = stops(of: fromTrip)?.last, !isAt(last, from) {
            issues.append(GTFSIssue(.warning, "IN_SEAT_MID_TRIP", canonical: "transfer_with_suspicious_mid_trip_in_seat", file: "transfers.txt", line: line,
                                    field: "from_trip_id", value: tripId(fromTrip), "an in-seat transfer, but \(stopId[Int(from)]) is not the trip's last stop"))
        }
        if let toTrip, let to, let first = stops(of: toTrip)?.first, !isAt(first, to) {
            issues.append(GTFSIssue(.warning, "IN_SEAT_MID_TRIP", canonical: "transfer_with_suspicious_mid_trip_in_seat", file: "transfers.txt", line: line,
                                    field: "to_trip_id", value: tripId(toTrip), "an in-seat transfer, but \(stopId[Int(to)]) is not the trip's first stop"))
        }
        if let fromTrip, let toTrip, Int(fromTrip) < tripRouteType.count, Int(toTrip) < tripRouteType.count,
           tripRouteType[Int(fromTrip)] != tripRouteType[Int(toTrip)] {
            issues.append(GTFSIssue(.warning, "IN_SEAT_OTHER_MODE", canonical: "inconsistent_route_type_for_in_seat_transfer", file: "transfers.txt", line: line,
                                    field: "to_trip_id", value: tripId(toTrip),
                                    "an in-seat transfer between route types \(tripRouteType[Int(fromTrip)]) and \(tripRouteType[Int(toTrip)]): one vehicle is of one mode"))
        }
    }

    // MARK: - Pathways

    /// A pathway loaded: kept for `unreachableLocations`; an elevator's ends need a level_id.
    func pathway(from: Int32, to: Int32, mode: Int, twoWay: Bool, line: Int) {
        pathwayEnds.append((from, to, twoWay))
        guard mode == 5 else { return }
        for s in [from, to] where Int(s) < stopHasLevel.count && !stopHasLevel[Int(s)] && levelSaid.insert(s).inserted {
            // Canonical ERROR; kept: the location is still on the graph, on no known level.
            issues.append(GTFSIssue(.warning, "ELEVATOR_WITHOUT_LEVEL", canonical: "missing_level_id", file: "stops.txt", line: Int(stopLine[Int(s)]),
                                    field: "level_id", value: stopId[Int(s)],
                                    "an elevator (pathways.txt line \(line)) stops here, but the location has no level_id: which floor is unknown"))
        }
    }

    /// The station a location is in (a boarding area's through its platform), or -1.
    private func station(of s: Int32) -> Int32 {
        var s = s
        for _ in 0..<3 {
            guard Int(s) < stopType.count else { return -1 }
            if stopType[Int(s)] == 1 { return s }
            s = stopParent[Int(s)]
            if s < 0 { return -1 }
        }
        return -1
    }

    /// Platforms, generic nodes and boarding areas of stations with pathways that no entrance
    /// leads to, or that lead to no exit (canonical: walked from and to every entrance of the
    /// feed, pathways followed in their direction or both ways; a platform with boarding
    /// areas is judged by them). Canonical ERROR; kept: the rest of the station still works.
    private func unreachableLocations(stopLoaded: [Bool]) {
        guard !pathwayEnds.isEmpty else { return }
        let n = stopType.count
        var forward = [[Int32]](repeating: [], count: n), backward = [[Int32]](repeating: [], count: n)
        var stations = Set<Int32>()
        for e in pathwayEnds where Int(e.from) < n && Int(e.to) < n {
            forward[Int(e.from)].append(e.to); backward[Int(e.to)].append(e.from)
            if e.twoWay { forward[Int(e.to)].append(e.from); backward[Int(e.from)].append(e.to) }
            for s in [e.from, e.to] { let st = station(of: s); if st >= 0 { stations.insert(st) } }
        }
        func walk(_ edges: [[Int32]]) -> [Bool] {
            var seen = [Bool](repeating: false, count: n)
            var queue: [Int32] = []
            for i in 0..<n where stopType[i] == 2 && i < stopLoaded.count && stopLoaded[i] { seen[i] = true; queue.append(Int32(i)) }
            var head = 0
            while head < queue.count {
                let s = queue[head]; head += 1
                for t in edges[Int(s)] where !seen[Int(t)] { seen[Int(t)] = true; queue.append(t) }
            }
            return seen
        }
        let fromEntrance = walk(forward), toExit = walk(backward)
        var hasBoardingAreas = [Bool](repeating: false, count: n)
        for i in 0..<n where stopType[i] == 4 && stopParent[i] >= 0 && Int(stopParent[i]) < n { hasBoardingAreas[Int(stopParent[i])] = true }
        for i in 0..<n where i < stopLoaded.count && stopLoaded[i] && !(fromEntrance[i] && toExit[i]) {
            let type = stopType[i]
            guard type == 3 || type == 4 || (type == 0 && stopParent[i] >= 0 && !hasBoardingAreas[i]), stations.contains(station(of: Int32(i))) else { continue }
            let why = !fromEntrance[i] && !toExit[i] ? "no entrance leads here and no exit can be reached from here"
                : !fromEntrance[i] ? "no entrance leads here along the pathways" : "no exit can be reached from here along the pathways"
            issues.append(GTFSIssue(.warning, "LOCATION_UNREACHABLE", canonical: "pathway_unreachable_location", file: "stops.txt", line: Int(stopLine[i]),
                                    field: "stop_id", value: stopId[i], why + " (a station with pathways must connect each of its places)"))
        }
    }

    /// Generic nodes with a single neighbour on the pathways: a corridor that leads nowhere.
    private func danglingNodes() {
        var neighbours: [Int32: Set<Int32>] = [:]
        for e in pathwayEnds where e.from != e.to {
            neighbours[e.from, default: []].insert(e.to); neighbours[e.to, default: []].insert(e.from)
        }
        for (s, n) in neighbours.sorted(by: { $0.key < $1.key }) where n.count == 1 && Int(s) < stopType.count && stopType[Int(s)] == 3 {
            issues.append(GTFSIssue(.warning, "NODE_DEAD_END", canonical: "pathway_dangling_generic_node", file: "stops.txt", line: Int(stopLine[Int(s)]),
                                    field: "stop_id", value: stopId[Int(s)], "a generic node joined to one place only (\(stopId[Int(n.first!)])): a corridor leading nowhere"))
        }
    }

    /// Blocks whose trips run on routes of different route types (one vehicle is of one mode).
    private func blockModes() {
        var first: [Int32: Int32] = [:]   // block -> its first trip
        var said = Set<Int32>()
        for t in tripBlock.indices where tripBlock[t] >= 0 && t < tripRouteType.count {
            let b = tripBlock[t]
            guard let f = first[b] else { first[b] = Int32(t); continue }
            if tripRouteType[Int(f)] != tripRouteType[t] && said.insert(b).inserted {
                issues.append(GTFSIssue(.warning, "BLOCK_MIXES_MODES", canonical: "inconsistent_route_type_for_block_id", file: "trips.txt", line: Int(tripLine[t]),
                                        field: "block_id", value: blocks.key(b),
                                        "this trip's route type (\(tripRouteType[t])) is not the block's first trip's (\(tripRouteType[Int(f)]), line \(tripLine[Int(f)]))"))
            }
        }
    }

    // MARK: - Blocks

    /// Trips of one block that run at the same time on a day both run (canonical: a trip's
    /// span is from its first stop time's arrival to its last one's; one trip may start where
    /// the one before ends, at the same time). Canonical ERROR; kept: each trip's times are
    /// its own, only the vehicle's plan is wrong.
    private func overlappingBlocks(serviceDays: [Int32: [Int32]], tripId: (Int32) -> String, leftOut: Set<Int32>) {
        guard blocks.count > 0 else { return }
        var byBlock = [[Int32]](repeating: [], count: blocks.count)
        for t in tripBlock.indices where tripBlock[t] >= 0 && !leftOut.contains(Int32(t)) && t < spanFirst.count && spanFirst[t].arrival >= 0 && spanFirst[t].departure >= 0
            && spanLast[t].arrival >= 0 && spanLast[t].departure >= 0 {
            byBlock[Int(tripBlock[t])].append(Int32(t))
        }
        var common: [UInt64: Int32] = [:]   // (service, service) -> first day both run, or Int32.min
        func firstCommonDay(_ a: Int32, _ b: Int32) -> Int32? {
            let key = UInt64(UInt32(bitPattern: min(a, b))) << 32 | UInt64(UInt32(bitPattern: max(a, b)))
            if let d = common[key] { return d == Int32.min ? nil : d }
            var day = Int32.min
            if let x = serviceDays[a], let y = serviceDays[b] {
                var i = 0, j = 0
                while i < x.count && j < y.count { if x[i] == y[j] { day = x[i]; break } else if x[i] < y[j] { i += 1 } else { j += 1 } }
            }
            common[key] = day
            return day == Int32.min ? nil : day
        }
        for var trips in byBlock where trips.count > 1 {
            trips.sort { (spanFirst[Int($0)].arrival, spanLast[Int($0)].departure, $0) < (spanFirst[Int($1)].arrival, spanLast[Int($1)].departure, $1) }
            for (k, a) in trips.enumerated() {
                for b in trips[(k + 1)...] {
                    guard spanFirst[Int(b)].arrival < spanLast[Int(a)].arrival else { break }
                    guard let day = firstCommonDay(tripService[Int(a)], tripService[Int(b)]) else { continue }
                    issues.append(GTFSIssue(.warning, "BLOCK_TRIPS_OVERLAP", canonical: "block_trips_with_overlapping_stop_times", file: "trips.txt",
                                            line: Int(tripLine[Int(b)]), field: "block_id", value: blocks.key(tripBlock[Int(a)]),
                                            "trip \(tripId(b)) starts at \(GTFSFeedLoader.clock(Int(spanFirst[Int(b)].arrival))) before trip \(tripId(a)) of the same block "
                                            + "ends (\(GTFSFeedLoader.clock(Int(spanLast[Int(a)].arrival)))) on \(ServiceDate(daysSinceEpoch: day).iso8601): one vehicle cannot run both"))
                }
            }
        }
    }

    // MARK: - The whole feed

    /// The notices that need every row: stations no location names as its parent, shapes no
    /// trip uses.
    /// `tripStopTimes`: per trip, the stop times loaded for it (the loader's count).
    func finish(stopLoaded: [Bool], shapeCount: Int, shapeId: (Int32) -> String, tripId: (Int32) -> String, tripStopTimes: [Int32],
                leftOut: Set<Int32>, serviceDays: [Int32: [Int32]] = [:]) {
        unreachableLocations(stopLoaded: stopLoaded)
        danglingNodes()
        overlappingBlocks(serviceDays: serviceDays, tripId: tripId, leftOut: leftOut)
        blockModes()
        for s in stopURLs where routeURLs.contains(s.url) {
            issues.append(GTFSIssue(.warning, "SAME_URL", canonical: "same_stop_and_route_url", file: "stops.txt", line: Int(s.line), field: "stop_url", value: s.url,
                                    "a route's web address: a stop's page should be about the stop"))
        }
        grow(&routeUsed, to: routeLine.count, false)
        for i in routeLine.indices where !routeUsed[i] {
            issues.append(GTFSIssue(.warning, "ROUTE_NOT_USED", canonical: "unused_route", file: "routes.txt", line: Int(routeLine[i]),
                                    field: "route_id", value: routeId[i], "no trip runs on this route"))
        }
        for i in tripLine.indices where (i >= tripStopTimes.count || tripStopTimes[i] == 0) && !leftOut.contains(Int32(i)) {
            issues.append(GTFSIssue(.warning, "TRIP_WITHOUT_STOP_TIMES", canonical: "unused_trip", file: "trips.txt", line: Int(tripLine[i]),
                                    field: "trip_id", value: tripId(Int32(i)), "no stop time in stop_times.txt: the trip goes nowhere"))
        }
        grow(&stopServed, to: stopType.count, false)
        for i in stopType.indices where stopType[i] == 0 && i < stopLoaded.count && stopLoaded[i] && !stopServed[i] && !(i < isParent.count && isParent[i]) {
            issues.append(GTFSIssue(.warning, "STOP_NOT_SERVED", canonical: "stop_without_stop_time", file: "stops.txt", line: Int(stopLine[i]),
                                    field: "stop_id", value: stopId[i], "no trip stops here"))
        }
        for i in 0..<min(shapeCount, shapePointCount.count) where shapePointCount[i] == 1 {
            issues.append(GTFSIssue(.warning, "ONE_SHAPE_POINT", canonical: "single_shape_point", file: "shapes.txt", line: Int(shapeLine[i]),
                                    field: "shape_id", value: shapeId(Int32(i)), "a shape of one point draws nothing"))
        }
        for i in stopType.indices where stopType[i] == 1 && i < stopLoaded.count && stopLoaded[i] && !(i < isParent.count && isParent[i]) {
            issues.append(GTFSIssue(.note, "STATION_WITHOUT_STOPS", canonical: "unused_station", file: "stops.txt", line: Int(stopLine[i]),
                                    field: "stop_id", value: stopId[i], "a station no stop, entrance or node names as its parent_station"))
        }
        grow(&shapeUsed, to: shapeCount, false)
        for i in 0..<min(shapeCount, shapeLine.count) where !shapeUsed[i] {
            issues.append(GTFSIssue(.warning, "SHAPE_NOT_USED", canonical: "unused_shape", file: "shapes.txt", line: Int(shapeLine[i]),
                                    field: "shape_id", value: shapeId(Int32(i)), "no trip follows this shape"))
        }
    }
}
