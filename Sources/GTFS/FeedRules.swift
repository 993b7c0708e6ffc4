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

    // Shape points in shape_pt_sequence order: shape -> pointOffsets[s] ..< pointOffsets[s + 1]
    // (shapes without points: an empty range).
    private var shapeFirstPoint: [Int32] = [], shapePointCount: [Int32] = []
    private var pointLat: [Double] = [], pointLon: [Double] = []
    /// (shape, stop) pairs already measured (`stopTooFarFromShape`).
    private var measured = Set<UInt64>()

    // Shapes, by shape index: the first line of each; used by a trip.
    private var shapeLine: [Int32] = []
    private var shapeUsed: [Bool] = []

    private func grow<T>(_ a: inout [T], to n: Int, _ fill: T) { if a.count < n { a += Array(repeating: fill, count: n - a.count) } }

    // MARK: - Rows

    /// A value with spaces or tabs around it (trimmed when loaded; an id and a reference to
    /// it could differ by them).
    func whitespace(file: String, line: Int, field: String, value: String) {
        issues.append(GTFSIssue(.warning, "SPACES_AROUND_VALUE", canonical: "leading_or_trailing_whitespaces", file: file, line: line,
                                field: field, value: value, "spaces or tabs before or after the value; loaded without them"))
    }

    func stop(_ index: Int32, id: String, line: Int, name: String?, description: String?, type: Int, parent: Int32?, lat: Double?, lon: Double?) {
        let i = Int(index)
        grow(&stopName, to: i + 1, nil); grow(&stopType, to: i + 1, -1); grow(&stopLine, to: i + 1, 0)
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

    func route(_ index: Int32, id: String, line: Int, agency: String?, agencyGiven: Bool, type: Int, shortName: String?, longName: String?, description: String?) {
        grow(&routeLine, to: Int(index) + 1, 0); grow(&routeId, to: Int(index) + 1, ""); grow(&routeUsed, to: Int(index) + 1, false)
        routeLine[Int(index)] = Int32(line); routeId[Int(index)] = id
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

    func trip(_ index: Int32, line: Int, headsign: UnsafeBufferPointer<UInt8>?, shape: Int32?, routeType: Int, route: Int32) {
        let i = Int(index)
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
    func shapePoints(_ index: Int32, sequence: [Int], lat: [Double], lon: [Double]) {
        let i = Int(index)
        grow(&shapeFirstPoint, to: i + 1, 0); grow(&shapePointCount, to: i + 1, 0)
        guard shapePointCount[i] == 0 else {
            if splitShapes[index] == nil {
                let first = Int(shapeFirstPoint[i]), n = Int(shapePointCount[i])
                splitShapes[index] = (first..<first + n).map { (firstRunSequence[index]?[$0 - first] ?? 0, pointLat[$0], pointLon[$0]) }
            }
            splitShapes[index]! += (0..<lat.count).map { (sequence[$0], lat[$0], lon[$0]) }
            return
        }
        shapeFirstPoint[i] = Int32(pointLat.count); shapePointCount[i] = Int32(lat.count)
        pointLat += lat; pointLon += lon
        firstRunSequence[index] = sequence
    }
    /// Shapes seen in more than one run: all their points so far.
    private var splitShapes: [Int32: [(sequence: Int, lat: Double, lon: Double)]] = [:]
    /// Each shape's first run's sequence numbers (kept for shapes split later).
    private var firstRunSequence: [Int32: [Int]] = [:]

    /// shapes.txt is read: a shape split in runs gets its points in one block, in order.
    func shapesRead() {
        for (shape, points) in splitShapes {
            let sorted = points.sorted { $0.sequence < $1.sequence }
            shapeFirstPoint[Int(shape)] = Int32(pointLat.count); shapePointCount[Int(shape)] = Int32(sorted.count)
            pointLat += sorted.map(\.lat); pointLon += sorted.map(\.lon)
        }
        splitShapes = [:]; firstRunSequence = [:]
    }

    /// A trip's stop times in stop_sequence order (one run of its rows).
    /// A stop time was loaded: its stop is used (its trip's use is the loader's count of them).
    @inline(__always) func served(stop: Int32) {
        if Int(stop) >= stopServed.count { grow(&stopServed, to: max(Int(stop) + 1, stopName.count), false) }
        stopServed[Int(stop)] = true
    }

    func tripStops(_ trip: Int32, id: () -> String, rows: [(stop: Int32, arrival: Int?, departure: Int?, line: Int)]) {
        guard rows.count > 1 else { return }
        stopsFarFromShape(trip, rows)
        fastTravel(trip, id: id, rows)
        headsignOfPassedStop(trip, id: id(), stops: rows.map(\.stop))
    }

    /// Stops more than 100 m from the shape their trip follows (each stop and shape once).
    private func stopsFarFromShape(_ trip: Int32, _ rows: [(stop: Int32, arrival: Int?, departure: Int?, line: Int)]) {
        guard Int(trip) < tripShape.count, tripShape[Int(trip)] >= 0 else { return }
        let shape = Int(tripShape[Int(trip)])
        guard shape < shapePointCount.count, shapePointCount[shape] > 0 else { return }
        let first = Int(shapeFirstPoint[shape]), count = Int(shapePointCount[shape])
        for r in rows {
            let s = Int(r.stop)
            guard s < stopLat.count, !stopLat[s].isNaN, measured.insert(UInt64(shape) << 32 | UInt64(s)).inserted else { continue }
            let meters = Self.distanceToLine(lat: stopLat[s], lon: stopLon[s], pointLat, pointLon, first, count)
            if meters > 100 {
                issues.append(GTFSIssue(.warning, "STOP_FAR_FROM_SHAPE", canonical: "stop_too_far_from_shape", file: "stop_times.txt", line: r.line,
                                        field: "stop_id", value: stopId[s],
                                        String(format: "%.1f m from the shape its trip follows (more than 100 m): the stop or the shape is in the wrong place", meters)))
            }
        }
    }

    /// Meters from a point to a polyline, in a plane tangent at the point (exact enough
    /// within a city: the error at 10 km is a few meters).
    static func distanceToLine(lat: Double, lon: Double, _ lats: [Double], _ lons: [Double], _ first: Int, _ count: Int) -> Double {
        let rad = Double.pi / 180, r = 6_371_008.8
        let kx = cos(lat * rad) * rad * r, ky = rad * r
        var best = Double.infinity
        var px = (lons[first] - lon) * kx, py = (lats[first] - lat) * ky
        if count == 1 { return (px * px + py * py).squareRoot() }
        for i in (first + 1)..<(first + count) {
            let qx = (lons[i] - lon) * kx, qy = (lats[i] - lat) * ky
            let dx = qx - px, dy = qy - py, len2 = dx * dx + dy * dy
            let t = len2 > 0 ? max(0, min(1, -(px * dx + py * dy) / len2)) : 0
            let x = px + t * dx, y = py + t * dy
            best = min(best, x * x + y * y)
            px = qx; py = qy
        }
        return best.squareRoot()
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
    private func fastTravel(_ trip: Int32, id: () -> String, _ rows: [(stop: Int32, arrival: Int?, departure: Int?, line: Int)]) {
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

    // MARK: - The whole feed

    /// The notices that need every row: stations no location names as its parent, shapes no
    /// trip uses.
    /// `tripStopTimes`: per trip, the stop times loaded for it (the loader's count).
    func finish(stopLoaded: [Bool], shapeCount: Int, shapeId: (Int32) -> String, tripId: (Int32) -> String, tripStopTimes: [Int32],
                leftOut: Set<Int32>) {
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
