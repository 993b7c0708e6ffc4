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

    // Stops, by the loader's stop index (`stops` IdTable).
    private var stopName: [String?] = []
    private var stopType: [Int8] = []
    private var stopLine: [Int32] = []
    private var stopId: [String] = []
    /// Station index -> whether some location names it as its parent.
    private var isParent: [Bool] = []

    // Routes: (agency, type, short name, long name) -> the first route with them.
    private var routeNames: [String: (id: String, line: Int)] = [:]

    // Trips, by trip index: headsign (for the rule on intermediate stops).
    private var tripHeadsign: [String?] = []
    private var tripLine: [Int32] = []

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

    func stop(_ index: Int32, id: String, line: Int, name: String?, description: String?, type: Int, parent: Int32?) {
        let i = Int(index)
        grow(&stopName, to: i + 1, nil); grow(&stopType, to: i + 1, -1); grow(&stopLine, to: i + 1, 0)
        grow(&stopId, to: i + 1, ""); grow(&isParent, to: i + 1, false)
        stopName[i] = name; stopType[i] = Int8(type); stopLine[i] = Int32(line); stopId[i] = id
        if let parent { grow(&isParent, to: Int(parent) + 1, false); isParent[Int(parent)] = true }
        if let name, let description, !name.isEmpty, name == description {
            issues.append(GTFSIssue(.warning, "DESCRIPTION_IS_NAME", canonical: "same_name_and_description_for_stop", file: "stops.txt", line: line,
                                    field: "stop_desc", value: description, "stop_desc only repeats stop_name: say what the name does not (where the stop is, which side)"))
        }
        if let name { mixedCase("stops.txt", line, "stop_name", name) }
    }

    func route(id: String, line: Int, agency: String?, agencyGiven: Bool, type: Int, shortName: String?, longName: String?, description: String?) {
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

    func trip(_ index: Int32, line: Int, headsign: String?, shape: Int32?) {
        let i = Int(index)
        grow(&tripHeadsign, to: i + 1, nil); grow(&tripLine, to: i + 1, 0)
        tripHeadsign[i] = headsign; tripLine[i] = Int32(line)
        if let shape { grow(&shapeUsed, to: Int(shape) + 1, false); shapeUsed[Int(shape)] = true }
        if let headsign { mixedCase("trips.txt", line, "trip_headsign", headsign) }
    }

    func shapeRow(_ index: Int32, line: Int) {
        let i = Int(index)
        if shapeLine.count <= i { grow(&shapeLine, to: i + 1, 0) }
        if shapeLine[i] == 0 { shapeLine[i] = Int32(line) }
    }

    /// A trip's stops in stop_sequence order (one run of its rows): a headsign that names a
    /// stop the trip passes before its last one.
    func tripStops(_ trip: Int32, id: String, stops: [Int32]) {
        guard Int(trip) < tripHeadsign.count, let headsign = tripHeadsign[Int(trip)], stops.count > 1 else { return }
        let key = headsign.lowercased()
        for s in stops.dropLast() where Int(s) < stopName.count {
            if let name = stopName[Int(s)], name.lowercased() == key, stopName[Int(stops.last!)]?.lowercased() != key {
                issues.append(GTFSIssue(.note, "HEADSIGN_IS_PASSED_STOP", canonical: "trip_headsign_matches_intermediate_stop", file: "trips.txt",
                                        line: Int(tripLine[Int(trip)]), field: "trip_headsign", value: headsign,
                                        "trip \(id) passes \(name) (\(stopId[Int(s)])) before its last stop: riders after it read a place already behind them"))
                return
            }
        }
    }

    /// Text riders read written all in capitals or all in small letters (canonical: mixed
    /// case). Our reading: a value with cased letters all of one case, and more than one
    /// word (all capitals) or more than one letter (all small) — a single word in capitals
    /// is often a code or an acronym ("UCD", "BART").
    private func mixedCase(_ file: String, _ line: Int, _ field: String, _ value: String) {
        var upper = 0, lower = 0, words = 0, inWord = false
        for c in value.unicodeScalars {
            let p = c.properties
            if p.isUppercase { upper += 1 } else if p.isLowercase { lower += 1 }
            let letter = p.isAlphabetic
            if letter && !inWord { words += 1 }
            inWord = letter || c.properties.numericType != nil
        }
        guard upper + lower > 1, upper == 0 || lower == 0, words > 1 || lower > 0 else { return }
        issues.append(GTFSIssue(.warning, "ONE_CASE_TEXT", canonical: "mixed_case_recommended_field", file: file, line: line, field: field, value: value,
                                "all in \(upper > 0 ? "capitals" : "small letters"): riders read mixed case more easily"))
    }

    // MARK: - The whole feed

    /// The notices that need every row: stations no location names as its parent, shapes no
    /// trip uses.
    func finish(stopLoaded: [Bool], shapeCount: Int, shapeId: (Int32) -> String) {
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
