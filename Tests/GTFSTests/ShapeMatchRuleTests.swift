import Foundation
import Testing
@testable import GTFS
import TransitModel

// The canonical rules that place a trip's stops along its shape (`FeedRules.matchShape`,
// `FeedRules.pastShapeEnd`, `ShapeMatch`): stops that match the shape out of order, stops too
// far from the shape (by geometry, and at their shape_dist_traveled), and trips whose
// shape_dist_traveled goes past their shape's end. Each made to fire by one defect in a copy
// of google-sample, whose CITY1 is put on a shape drawn through its five stops, with our code,
// the canonical code, both severities and the place, and every row loaded as before; each
// with a near miss that stays silent. Then the matcher itself on shapes drawn on the
// equator, and the counts on the shared real feeds (measured with the release build; they
// agree with gtfs-guru 1.0.0).

// MARK: - Helpers

/// A feed (folder or zip) loaded into a recording sink, every example kept.
private func loadWithShapes(_ path: String, keeping files: Set<String> = []) throws -> (GTFSLoadSummary, RecordingSink) {
    let sink = RecordingSink(keeping: files)
    let summary = try GTFSFeedLoader(source: try openFeed(at: path), examplesPerKind: 1_000).load(into: sink)
    return (summary, sink)
}

/// Every notice counted by our code, canonical code and action (all files together).
private func shapeTally(_ summary: GTFSLoadSummary) -> [String: Int] {
    summary.issues.entries.reduce(into: [:]) { $0["\($1.kind.code) \($1.kind.canonical ?? "-") \($1.kind.severity.rawValue)", default: 0] += $1.count }
}

/// Notices of a canonical code (any code of ours, any file).
private func canonicalCount(_ summary: GTFSLoadSummary, _ canonical: String) -> Int {
    summary.issues.entries.filter { $0.kind.canonical == canonical }.reduce(0) { $0 + $1.count }
}

/// The load after a defect, and the notice it added.
private struct ShapeDefect {
    let before: GTFSLoadSummary
    let summary: GTFSLoadSummary
    let issue: GTFSIssue
}

/// Loads `feed`, makes `defect` and loads it again: expects exactly one notice more, with
/// `code`, `canonical` and `severity`, nothing else changed, and every row read loaded as before.
private func oneShapeDefect(_ feed: FeedFolder, _ code: String, _ canonical: String, severity: GTFSIssue.Severity = .warning,
                            sourceLocation: SourceLocation = #_sourceLocation, _ defect: () throws -> Void) throws -> ShapeDefect {
    let (before, _) = try loadWithShapes(feed.path)
    try defect()
    let (after, _) = try loadWithShapes(feed.path)
    let changed = changes(from: shapeTally(before), to: shapeTally(after))
    #expect(changed == ["\(code) \(canonical) \(severity.rawValue)": 1], "the defect changed \(changed)", sourceLocation: sourceLocation)
    #expect(skipped(after) == skipped(before), "every row read is loaded, as before the defect", sourceLocation: sourceLocation)
    let old = examples(before)
    let new = notices(after, canonical: canonical).filter { !old.contains($0) }
    #expect(new.count == 1, "\(new)", sourceLocation: sourceLocation)
    let issue = try #require(new.first, "no new \(canonical) in \(examples(after))", sourceLocation: sourceLocation)
    return ShapeDefect(before: before, summary: after, issue: issue)
}

/// Loads `feed`, makes `change` and loads it again: expects the same notices and rows.
@discardableResult
private func noShapeNotice(_ feed: FeedFolder, sourceLocation: SourceLocation = #_sourceLocation,
                           _ change: () throws -> Void) throws -> GTFSLoadSummary {
    let (before, _) = try loadWithShapes(feed.path)
    try change()
    let (after, _) = try loadWithShapes(feed.path)
    #expect(changes(from: shapeTally(before), to: shapeTally(after)) == [:], "\(examples(after))", sourceLocation: sourceLocation)
    #expect(skipped(after) == skipped(before), "every row read is loaded, as before the change", sourceLocation: sourceLocation)
    return after
}

/// Our code and action, the canonical code and its severity, and the place.
private func checkPlace(_ issue: GTFSIssue, _ code: String, _ canonical: String, _ severity: GTFSIssue.Severity,
                        _ canonicalSeverity: CanonicalNotice.Severity, line: Int, field: String, value: String,
                        sourceLocation: SourceLocation = #_sourceLocation) {
    checkNotice(issue, code, canonical, severity, canonicalSeverity, file: "stop_times.txt", line: line, field: field, value: value,
                sourceLocation: sourceLocation)
}

/// google-sample's CITY1 (trips.txt line 5) runs STAGECOACH, NANAA, NADAV, DADAN, EMSI at
/// stop_times.txt lines 4–8; CITY2 runs them backwards at lines 9–13. The shapes here are
/// drawn through the stops ("lat,lon"), their shape_dist_traveled in meters along them.
private enum City {
    static let stagecoach = "36.915682,-116.751677", nanaa = "36.914944,-116.761472", nadav = "36.914893,-116.768210",
               dadan = "36.909489,-116.768242", emsi = "36.905697,-116.762180"
    /// The five stops in CITY1's order.
    static let stops = [stagecoach, nanaa, nadav, dadan, emsi]
    /// Meters along a shape through `stops`, at each of them.
    static let along = ["0", "874.7", "1473.7", "2074.6", "2759"]
    /// Where NADAV's shape point moves to for NADAV to be 150.1 m, or 90.0 m, from the shape
    /// (towards the corner NANAA–DADAN cuts).
    static let nadavOff150 = "36.913939,-116.767016", nadavOff90 = "36.914321,-116.767493"
    /// CITY1's stop_times.txt lines.
    static let line = (stagecoach: 4, nanaa: 5, nadav: 6, dadan: 7, emsi: 8)
}

/// The rows of one shape: its points in order, with these shape_dist_traveled (nil: none).
private func shapeRows(_ id: String, _ points: [String], _ distances: [String]? = nil) -> [String] {
    points.enumerated().map { "\(id),\($0.element),\($0.offset + 1),\(distances?[$0.offset] ?? "")" }
}

/// shapes.txt made of these rows.
private func writeShapes(_ feed: FeedFolder, _ rows: [String]) throws {
    try writeLines(feed, "shapes.txt", ["shape_id,shape_pt_lat,shape_pt_lon,shape_pt_sequence,shape_dist_traveled"] + rows)
}

/// A trip's shape_id (the last column of google-sample's trips.txt).
private func setShape(_ feed: FeedFolder, trip: String, _ shape: String) throws {
    var rows = try lines(feed, "trips.txt")
    guard let i = rows.firstIndex(where: { $0.split(separator: ",", omittingEmptySubsequences: false)[2] == trip }) else {
        throw FixtureError("no trip \(trip) in trips.txt")
    }
    rows[i] = rows[i].split(separator: ",", omittingEmptySubsequences: false).dropLast().joined(separator: ",") + "," + shape
    try writeLines(feed, "trips.txt", rows)
}

/// The shape_dist_traveled (the last column of stop_times.txt) of the row at `line`.
private func setDistance(_ feed: FeedFolder, line: Int, _ distance: String) throws {
    var rows = try lines(feed, "stop_times.txt")
    rows[line - 1] = rows[line - 1].split(separator: ",", omittingEmptySubsequences: false).dropLast().joined(separator: ",") + "," + distance
    try writeLines(feed, "stop_times.txt", rows)
}

/// CITY1's shape_dist_traveled at its five stops ("": none).
private func setCityDistances(_ feed: FeedFolder, _ distances: [String]) throws {
    for (k, d) in distances.enumerated() { try setDistance(feed, line: City.line.stagecoach + k, d) }
}

/// CITY1 on CITY_SHAPE, drawn through `points` with `shapeDistances`; its stop times with
/// `stopDistances` (nil: none).
private func cityOnShape(_ feed: FeedFolder, _ points: [String] = City.stops, shapeDistances: [String]? = nil,
                         stopDistances: [String]? = nil) throws {
    try writeShapes(feed, shapeRows("CITY_SHAPE", points, shapeDistances))
    try setShape(feed, trip: "CITY1", "CITY_SHAPE")
    if let stopDistances { try setCityDistances(feed, stopDistances) }
}

/// A trip of route CITY on `shape` calling at `stops` (ids, with shape_dist_traveled or ""), one
/// every 5 minutes from 7:00; returns the stop_times.txt line of its first stop.
@discardableResult
private func addCityTrip(_ feed: FeedFolder, _ id: String, shape: String = "CITY_SHAPE", _ stops: [(String, String)]) throws -> Int {
    try appendLines(feed, "trips.txt", ["CITY,FULLW,\(id),,0,,\(shape)"])
    let first = try nextLine(feed, "stop_times.txt")
    try appendLines(feed, "stop_times.txt", stops.enumerated().map { k, s in
        let t = String(format: "7:%02d:00", 5 * k)
        return "\(id),\(t),\(t),\(s.0),\(k + 1),,,,\(s.1)"
    })
    return first
}

/// Route CITY's route_type (3, bus, in google-sample).
private func setCityRouteType(_ feed: FeedFolder, _ type: String) throws {
    try feed.replace("routes.txt", "CITY,DTA,40,City,,3,", with: "CITY,DTA,40,City,,\(type),")
}

// MARK: - The suite

@Suite("Stops placed along their shapes: order, distance, the shape's end")
struct ShapeMatchRuleTests {
    @Test("CITY1 on a shape through its stops, with or without shape_dist_traveled: no notice of these rules")
    func cleanFixtures() throws {
        try withFeed { feed in
            let (plain, _) = try loadWithShapes(feed.path)
            try cityOnShape(feed, shapeDistances: City.along, stopDistances: City.along)
            let (onShape, _) = try loadWithShapes(feed.path)
            #expect(changes(from: shapeTally(plain), to: shapeTally(onShape)) == [:], "\(examples(onShape))")
            for canonical in ["stops_match_shape_out_of_order", "stop_too_far_from_shape", "stop_too_far_from_shape_using_user_distance",
                              "trip_distance_exceeds_shape_distance", "trip_distance_exceeds_shape_distance_below_threshold"] {
                #expect(canonicalCount(onShape, canonical) == 0, "\(canonical)")
            }
        }
    }
}

// MARK: - Out of order

extension ShapeMatchRuleTests {
    @Suite("Stops that match the shape out of order")
    struct OutOfOrder {
        /// The shape drawn NANAA, DADAN, NADAV (a zigzag): NADAV is placed 2330 m along it,
        /// DADAN only at 1729 m.
        static let zigzag = [City.stagecoach, City.nanaa, City.dadan, City.nadav, City.emsi]

        @Test("a shape that passes two stops in the other order: a warning at the stop that cannot come after the one before (stop_id)")
        func byGeometry() throws {
            try withFeed { feed in
                try cityOnShape(feed)
                let result = try oneShapeDefect(feed, "STOPS_OUT_OF_ORDER_ON_SHAPE", "stops_match_shape_out_of_order") {
                    try writeShapes(feed, shapeRows("CITY_SHAPE", Self.zigzag))
                }
                checkPlace(result.issue, "STOPS_OUT_OF_ORDER_ON_SHAPE", "stops_match_shape_out_of_order", .warning, .warning,
                           line: City.line.dadan, field: "stop_id", value: "DADAN")
                #expect(result.issue.message.hasPrefix("trip CITY1: this stop is nearest the shape 1729 m along it, before the stop before it (NADAV, line 6, 2330 m along)"),
                        "\(result.issue.message)")
                #expect(result.issue.message.hasSuffix("the shape or the stops are in the wrong order"), "\(result.issue.message)")
            }
        }

        /// CITY2 runs the stops backwards (EMSI at line 9, DADAN at line 10): on CITY_BACK, the
        /// points drawn backwards, in order; drawn forwards, it meets EMSI at the end (2759 m)
        /// and DADAN before it.
        @Test("a trip on its own reversed shape: nothing; on the shape drawn the other way: out of order at its second stop")
        func backwards() throws {
            try withFeed { feed in
                try writeShapes(feed, shapeRows("CITY_SHAPE", City.stops) + shapeRows("CITY_BACK", City.stops.reversed()))
                try setShape(feed, trip: "CITY1", "CITY_SHAPE")
                try setShape(feed, trip: "CITY2", "CITY_BACK")
                let (reversed, _) = try loadWithShapes(feed.path)
                #expect(canonicalCount(reversed, "stops_match_shape_out_of_order") == 0, "\(examples(reversed))")
                #expect(canonicalCount(reversed, "stop_too_far_from_shape") == 0)
                let result = try oneShapeDefect(feed, "STOPS_OUT_OF_ORDER_ON_SHAPE", "stops_match_shape_out_of_order") {
                    try writeShapes(feed, shapeRows("CITY_SHAPE", City.stops) + shapeRows("CITY_BACK", City.stops))
                }
                checkPlace(result.issue, "STOPS_OUT_OF_ORDER_ON_SHAPE", "stops_match_shape_out_of_order", .warning, .warning,
                           line: 10, field: "stop_id", value: "DADAN")
                #expect(result.issue.message.hasPrefix("trip CITY2: this stop is nearest the shape 2075 m along it, before the stop before it (EMSI, line 9, 2759 m along)"),
                        "\(result.issue.message)")
            }
        }

        /// With shape_dist_traveled on the shape and on CITY1's last stop, the stops without
        /// one (STAGECOACH, NADAV) are placed by geometry, the others at their distance: DADAN
        /// at 1400 m lands before NADAV (1473.7 m). The stops are placed out of order, so none
        /// is judged too far from its place (DADAN is 680 m from it).
        @Test("a stop_times shape_dist_traveled that places its stop before the stop before it: a warning at that distance (shape_dist_traveled)")
        func byDistance() throws {
            try withFeed { feed in
                try cityOnShape(feed, shapeDistances: City.along, stopDistances: ["", "874.7", "", "2074.6", "2759"])
                let result = try oneShapeDefect(feed, "STOPS_OUT_OF_ORDER_ON_SHAPE", "stops_match_shape_out_of_order") {
                    try setDistance(feed, line: City.line.dadan, "1400")
                }
                checkPlace(result.issue, "STOPS_OUT_OF_ORDER_ON_SHAPE", "stops_match_shape_out_of_order", .warning, .warning,
                           line: City.line.dadan, field: "shape_dist_traveled", value: "1400")
                #expect(result.issue.message.hasPrefix("trip CITY1: this stop is nearest the shape 1400 m along it, before the stop before it (NADAV, line 6, 1474 m along)"),
                        "\(result.issue.message)")
                #expect(result.issue.message.hasSuffix(", placed by shape_dist_traveled"), "\(result.issue.message)")
                #expect(canonicalCount(result.summary, "stop_too_far_from_shape_using_user_distance") == 0)
            }
        }

        @Test("a distance that keeps the stops in order (DADAN at 2000 m, after NADAV): nothing")
        func byDistanceInOrder() throws {
            try withFeed { feed in
                try cityOnShape(feed, shapeDistances: City.along, stopDistances: ["", "874.7", "", "2074.6", "2759"])
                // DADAN at 2000 m is 74.6 m before it along the shape: near enough, and after NADAV.
                try noShapeNotice(feed) { try setDistance(feed, line: City.line.dadan, "2000") }
            }
        }

        /// CITY3 copies CITY1 (same shape, stops and distances): judged once with it. CITY4
        /// stops at DADAN: other stops, judged again (out of order at its DADAN, its fourth row).
        @Test("each distinct trip (shape, stops, distances) is judged once")
        func oncePerDistinctTrip() throws {
            try withFeed { feed in
                try cityOnShape(feed, OutOfOrder.zigzag)
                let first = try nextLine(feed, "stop_times.txt") + 5
                let result = try oneShapeDefect(feed, "STOPS_OUT_OF_ORDER_ON_SHAPE", "stops_match_shape_out_of_order") {
                    try addCityTrip(feed, "CITY3", ["STAGECOACH", "NANAA", "NADAV", "DADAN", "EMSI"].map { ($0, "") })
                    try addCityTrip(feed, "CITY4", ["STAGECOACH", "NANAA", "NADAV", "DADAN"].map { ($0, "") })
                }
                checkPlace(result.issue, "STOPS_OUT_OF_ORDER_ON_SHAPE", "stops_match_shape_out_of_order", .warning, .warning,
                           line: first + 3, field: "stop_id", value: "DADAN")
                #expect(result.issue.message.hasPrefix("trip CITY4:"), "\(result.issue.message)")
                #expect(notices(result.summary, canonical: "stops_match_shape_out_of_order").map(\.line) == [City.line.dadan, first + 3])
            }
        }
    }
}

// MARK: - Too far from the shape

extension ShapeMatchRuleTests {
    @Suite("Stops too far from their trip's shape")
    struct Far {
        /// CITY_SHAPE with NADAV's point at `nadav`.
        static func nadavAt(_ nadav: String) -> [String] { [City.stagecoach, City.nanaa, nadav, City.dadan, City.emsi] }

        @Test("a stop 150 m from its trip's shape: a warning at its stop_times row (stop_id)")
        func stopFar() throws {
            try withFeed { feed in
                try cityOnShape(feed)
                let result = try oneShapeDefect(feed, "STOP_FAR_FROM_SHAPE", "stop_too_far_from_shape") {
                    try writeShapes(feed, shapeRows("CITY_SHAPE", Self.nadavAt(City.nadavOff150)))
                }
                checkPlace(result.issue, "STOP_FAR_FROM_SHAPE", "stop_too_far_from_shape", .warning, .warning,
                           line: City.line.nadav, field: "stop_id", value: "NADAV")
                #expect(result.issue.message.hasPrefix("150.1 m from the shape its trip follows (more than 100 m)"), "\(result.issue.message)")
            }
        }

        @Test("a stop 90 m from its trip's shape is near enough")
        func stopNear() throws {
            try withFeed { feed in
                try cityOnShape(feed)
                try noShapeNotice(feed) { try writeShapes(feed, shapeRows("CITY_SHAPE", Self.nadavAt(City.nadavOff90))) }
            }
        }

        /// The shape starts (or ends) `meters` short of CITY1's first (or last) stop, on the
        /// way to the next (or from the previous) stop. Rail (route_type 2): its first and last
        /// stop may be 400 m off; a bus's, 100 m.
        @Test("the first and last stop of a rail trip may be 400 m from the shape, a bus's 100 m", arguments: [
            ("2", true, "36.915429,-116.755037", 300, nil),          // rail, first stop 300 m
            ("2", true, "36.915336,-116.756268", 410, 400),          // rail, first stop 410 m
            ("2", false, "36.907359,-116.764838", 300, nil),         // rail, last stop 300 m
            ("2", false, "36.908191,-116.766166", 450, 400),         // rail, last stop 450 m
            ("3", true, "36.915555,-116.753357", 150, 100),          // bus, first stop 150 m
            ("3", true, "36.915606,-116.752685", 90, nil),           // bus, first stop 90 m
            ("0", false, "36.906528,-116.763509", 150, 100),         // light rail is not rail: last stop 150 m
        ] as [(String, Bool, String, Int, Int?)])
        func endsOfTrip(routeType: String, first: Bool, end: String, meters: Int, limit: Int?) throws {
            try withFeed { feed in
                try setCityRouteType(feed, routeType)
                try cityOnShape(feed)
                var points = City.stops
                points[first ? 0 : 4] = end
                guard let limit else {
                    try noShapeNotice(feed) { try writeShapes(feed, shapeRows("CITY_SHAPE", points)) }
                    return
                }
                let result = try oneShapeDefect(feed, "STOP_FAR_FROM_SHAPE", "stop_too_far_from_shape") {
                    try writeShapes(feed, shapeRows("CITY_SHAPE", points))
                }
                checkPlace(result.issue, "STOP_FAR_FROM_SHAPE", "stop_too_far_from_shape", .warning, .warning,
                           line: first ? City.line.stagecoach : City.line.emsi, field: "stop_id", value: first ? "STAGECOACH" : "EMSI")
                #expect(result.issue.message.hasPrefix("\(meters).0 m from the shape") || result.issue.message.hasPrefix("\(meters - 1).9 m from the shape"),
                        "\(result.issue.message)")
                #expect(result.issue.message.contains("(more than \(limit) m)"), "\(result.issue.message)")
            }
        }

        @Test("a rail trip whose shape starts 300 m short of its first stop: a middle stop 150 m off is still judged at 100 m")
        func railMiddleStop() throws {
            try withFeed { feed in
                try setCityRouteType(feed, "2")
                try cityOnShape(feed, ["36.915429,-116.755037"] + City.stops.dropFirst())
                let result = try oneShapeDefect(feed, "STOP_FAR_FROM_SHAPE", "stop_too_far_from_shape") {
                    try writeShapes(feed, shapeRows("CITY_SHAPE", ["36.915429,-116.755037", City.nanaa, City.nadavOff150, City.dadan, City.emsi]))
                }
                checkPlace(result.issue, "STOP_FAR_FROM_SHAPE", "stop_too_far_from_shape", .warning, .warning,
                           line: City.line.nadav, field: "stop_id", value: "NADAV")
                #expect(result.issue.message.contains("(more than 100 m)"), "\(result.issue.message)")
            }
        }

        /// NADAV is 150 m off CITY_SHAPE (said at CITY1's row). CITY3 (other stops: judged
        /// again) passes NADAV too, and ends at BEATTY_AIRPORT, 4.6 km from the shape.
        @Test("a stop far from a shape is said once per shape and stop, whatever trips pass it")
        func oncePerShapeAndStop() throws {
            try withFeed { feed in
                try cityOnShape(feed, Self.nadavAt(City.nadavOff150))
                let first = try nextLine(feed, "stop_times.txt")
                let result = try oneShapeDefect(feed, "STOP_FAR_FROM_SHAPE", "stop_too_far_from_shape") {
                    try addCityTrip(feed, "CITY3", ["STAGECOACH", "NANAA", "NADAV", "DADAN", "BEATTY_AIRPORT"].map { ($0, "") })
                }
                checkPlace(result.issue, "STOP_FAR_FROM_SHAPE", "stop_too_far_from_shape", .warning, .warning,
                           line: first + 4, field: "stop_id", value: "BEATTY_AIRPORT")
                #expect(notices(result.summary, canonical: "stop_too_far_from_shape").map { "\($0.line ?? 0) \($0.value ?? "")" }
                        == ["\(City.line.nadav) NADAV", "\(first + 4) BEATTY_AIRPORT"])
            }
        }
    }
}

// MARK: - Too far at shape_dist_traveled

extension ShapeMatchRuleTests {
    @Suite("Stops too far from their place at shape_dist_traveled")
    struct UserDistance {
        /// NADAV at 1300 m: between NANAA (874.7 m) and NADAV (1473.7 m) on the shape, 173.7 m
        /// before NADAV. Its stop is on the shape, and the stops stay in order.
        @Test("a shape_dist_traveled that places its stop 174 m from it: a warning at that distance (shape_dist_traveled)")
        func stopFarAtDistance() throws {
            try withFeed { feed in
                try cityOnShape(feed, shapeDistances: City.along, stopDistances: City.along)
                let result = try oneShapeDefect(feed, "STOP_FAR_FROM_SHAPE", "stop_too_far_from_shape_using_user_distance") {
                    try setDistance(feed, line: City.line.nadav, "1300")
                }
                checkPlace(result.issue, "STOP_FAR_FROM_SHAPE", "stop_too_far_from_shape_using_user_distance", .warning, .warning,
                           line: City.line.nadav, field: "shape_dist_traveled", value: "1300")
                #expect(result.issue.message.hasPrefix("stop NADAV is 173.7 m from the point of its shape at this shape_dist_traveled (more than 100 m)"),
                        "\(result.issue.message)")
            }
        }

        @Test("a shape_dist_traveled that places its stop 90 m from it is near enough")
        func stopNearAtDistance() throws {
            try withFeed { feed in
                try cityOnShape(feed, shapeDistances: City.along, stopDistances: City.along)
                try noShapeNotice(feed) { try setDistance(feed, line: City.line.nadav, "1383.7") }
            }
        }

        /// The same 1300 m as `stopFarAtDistance`, but the shape has no shape_dist_traveled, or
        /// CITY1's last stop time has none: the stops are not placed by distance at all.
        @Test("without shape_dist_traveled on the shape, or on the trip's last stop time, no stop is placed by distance", arguments: [
            (false, City.along),
            (true, ["0", "874.7", "1473.7", "2074.6", ""]),
        ])
        func noDistances(shapeHasThem: Bool, stopDistances: [String]) throws {
            try withFeed { feed in
                try cityOnShape(feed, shapeDistances: shapeHasThem ? City.along : nil, stopDistances: stopDistances)
                try noShapeNotice(feed) { try setDistance(feed, line: City.line.nadav, "1300") }
            }
        }

        /// The shape starts 300 m before STAGECOACH (a lead-in, at shape_dist_traveled 0): a
        /// stop placed at 0 would be 300 m from it. STAGECOACH at 0 is placed by geometry (on the
        /// shape, 300 m along it); at 0.5, at that distance, 299.5 m off.
        @Test("a stop time at shape_dist_traveled 0 is placed by geometry, one above 0 by its distance")
        func zeroIsGeometry() throws {
            try withFeed { feed in
                let shapeAlong = ["0", "300", "1174.7", "1773.7", "2374.6", "3059"]
                try cityOnShape(feed, ["36.915935,-116.748317"] + City.stops, shapeDistances: shapeAlong, stopDistances: Array(shapeAlong.dropFirst()))
                try setDistance(feed, line: City.line.stagecoach, "0")
                let (atZero, _) = try loadWithShapes(feed.path)
                #expect(canonicalCount(atZero, "stop_too_far_from_shape_using_user_distance") == 0)
                let result = try oneShapeDefect(feed, "STOP_FAR_FROM_SHAPE", "stop_too_far_from_shape_using_user_distance") {
                    try setDistance(feed, line: City.line.stagecoach, "0.5")
                }
                checkPlace(result.issue, "STOP_FAR_FROM_SHAPE", "stop_too_far_from_shape_using_user_distance", .warning, .warning,
                           line: City.line.stagecoach, field: "shape_dist_traveled", value: "0.5")
                #expect(result.issue.message.hasPrefix("stop STAGECOACH is 299.5 m from the point"), "\(result.issue.message)")
            }
        }

        /// NADAV's shape point moved 150 m off: NADAV is far from the shape by geometry, and
        /// its shape_dist_traveled (1473.7, the moved point's) places it 150 m off too. Both
        /// rules share one set of (shape, stop): only the geometry's notice is said.
        @Test("a stop far both by geometry and at its shape_dist_traveled: one notice, stop_too_far_from_shape")
        func sharedWithGeometry() throws {
            try withFeed { feed in
                try cityOnShape(feed, shapeDistances: City.along, stopDistances: City.along)
                let result = try oneShapeDefect(feed, "STOP_FAR_FROM_SHAPE", "stop_too_far_from_shape") {
                    try writeShapes(feed, shapeRows("CITY_SHAPE", Far.nadavAt(City.nadavOff150), City.along))
                }
                checkPlace(result.issue, "STOP_FAR_FROM_SHAPE", "stop_too_far_from_shape", .warning, .warning,
                           line: City.line.nadav, field: "stop_id", value: "NADAV")
                #expect(canonicalCount(result.summary, "stop_too_far_from_shape_using_user_distance") == 0)
            }
        }

        /// CITY3 (other stops: judged again) also places NADAV at 1300 m, and CITY1 already did.
        @Test("a stop far from its place at shape_dist_traveled is said once per shape and stop")
        func oncePerShapeAndStop() throws {
            try withFeed { feed in
                try cityOnShape(feed, shapeDistances: City.along, stopDistances: City.along)
                try setDistance(feed, line: City.line.nadav, "1300")
                let first = try nextLine(feed, "stop_times.txt")
                let result = try oneShapeDefect(feed, "STOP_FAR_FROM_SHAPE", "stop_too_far_from_shape_using_user_distance") {
                    // NANAA at 600 m: 274.7 m before it on the shape (new for this shape and stop).
                    try addCityTrip(feed, "CITY3", [("STAGECOACH", "0"), ("NANAA", "600"), ("NADAV", "1300"), ("DADAN", "2074.6")])
                }
                checkPlace(result.issue, "STOP_FAR_FROM_SHAPE", "stop_too_far_from_shape_using_user_distance", .warning, .warning,
                           line: first + 1, field: "shape_dist_traveled", value: "600")
                #expect(notices(result.summary, canonical: "stop_too_far_from_shape_using_user_distance").map(\.line) == [City.line.nadav, first + 1])
            }
        }
    }
}

// MARK: - Past the shape's end

extension ShapeMatchRuleTests {
    @Suite("Trips whose shape_dist_traveled goes past their shape's end")
    struct PastShapeEnd {
        /// CITY_SHAPE through the five stops and on to `tail`, `tailMeters` past EMSI
        /// (shape_dist_traveled 2759 + tailMeters there); CITY1 with its stops' distances.
        static func withTail(_ feed: FeedFolder, _ tail: String, _ tailMeters: Int) throws {
            try cityOnShape(feed, City.stops + [tail], shapeDistances: City.along + ["\(2759 + tailMeters)"], stopDistances: City.along)
        }
        static let tail50 = "36.90542,-116.761737", tail10 = "36.905642,-116.762091", tail12 = "36.905631,-116.762074"

        @Test("a trip's last distance past its shape's last, its last stop 50 m from the shape's end: trip_distance_exceeds_shape_distance (an ERROR, kept)")
        func pastTheEnd() throws {
            try withFeed { feed in
                try Self.withTail(feed, Self.tail50, 50)
                let result = try oneShapeDefect(feed, "PAST_SHAPE_END", "trip_distance_exceeds_shape_distance") {
                    try setDistance(feed, line: City.line.emsi, "2850")
                }
                checkPlace(result.issue, "PAST_SHAPE_END", "trip_distance_exceeds_shape_distance", .warning, .error,
                           line: City.line.emsi, field: "shape_dist_traveled", value: "2850")
                #expect(result.issue.message == "trip CITY1 goes past the end of its shape (shape_dist_traveled 2809); its last stop is 50.0 m from the shape's last point",
                        "\(result.issue.message)")
                #expect(result.summary.stats("stop_times.txt")?.rowsLoaded == result.before.stats("stop_times.txt")?.rowsLoaded)
            }
        }

        /// EMSI 10.0 m or 11.95 m from the shape's last point; the canonical threshold is 11.1 m.
        @Test("past the shape's end with the last stop under 11.1 m from it: the below-threshold WARNING; 11.1 m or more: the ERROR", arguments: [
            (PastShapeEnd.tail10, 10, "trip_distance_exceeds_shape_distance_below_threshold", CanonicalNotice.Severity.warning, "10.0"),
            (PastShapeEnd.tail12, 12, "trip_distance_exceeds_shape_distance", CanonicalNotice.Severity.error, "12.0"),
        ])
        func threshold(tail: String, tailMeters: Int, canonical: String, canonicalSeverity: CanonicalNotice.Severity, meters: String) throws {
            try withFeed { feed in
                try Self.withTail(feed, tail, tailMeters)
                let result = try oneShapeDefect(feed, "PAST_SHAPE_END", canonical) {
                    try setDistance(feed, line: City.line.emsi, "2780")
                }
                checkPlace(result.issue, "PAST_SHAPE_END", canonical, .warning, canonicalSeverity,
                           line: City.line.emsi, field: "shape_dist_traveled", value: "2780")
                #expect(result.issue.message.hasSuffix(String(format: "its last stop is %@ m from the shape's last point", meters))
                        || result.issue.message.hasSuffix("its last stop is \(tailMeters - 1).9 m from the shape's last point"), "\(result.issue.message)")
            }
        }

        @Test("a trip's last distance equal to its shape's last: nothing")
        func atTheEnd() throws {
            try withFeed { feed in
                try Self.withTail(feed, Self.tail10, 10)
                try noShapeNotice(feed) { try setDistance(feed, line: City.line.emsi, "2769") }
            }
        }

        @Test("a shape without shape_dist_traveled has no end to go past")
        func shapeWithoutDistances() throws {
            try withFeed { feed in
                try cityOnShape(feed, City.stops + [Self.tail10], stopDistances: City.along)
                try noShapeNotice(feed) { try setDistance(feed, line: City.line.emsi, "9999") }
            }
        }

        /// DADAN at 2780 and EMSI at 2800, both past the shape's 2769: one notice, at EMSI's
        /// row (the largest distance). DADAN, placed at the shape's end, 690 m from it, is also
        /// too far at its distance.
        @Test("two stops past the shape's end: one notice for the trip, at the largest distance")
        func oncePerTrip() throws {
            try withFeed { feed in
                try Self.withTail(feed, Self.tail10, 10)
                let (before, _) = try loadWithShapes(feed.path)
                try setDistance(feed, line: City.line.dadan, "2780")
                try setDistance(feed, line: City.line.emsi, "2800")
                let (after, _) = try loadWithShapes(feed.path)
                #expect(changes(from: shapeTally(before), to: shapeTally(after)) == [
                    "PAST_SHAPE_END trip_distance_exceeds_shape_distance_below_threshold warning": 1,
                    "STOP_FAR_FROM_SHAPE stop_too_far_from_shape_using_user_distance warning": 1,
                ])
                let past = try #require(notices(after, canonical: "trip_distance_exceeds_shape_distance_below_threshold").first)
                checkPlace(past, "PAST_SHAPE_END", "trip_distance_exceeds_shape_distance_below_threshold", .warning, .warning,
                           line: City.line.emsi, field: "shape_dist_traveled", value: "2800")
                #expect(notices(after, canonical: "stop_too_far_from_shape_using_user_distance").map(\.line) == [City.line.dadan])
                #expect(skipped(after) == skipped(before))
            }
        }
    }
}

// MARK: - The matcher

/// A matcher for a shape drawn through `points` (lat, lon) with these shape_dist_traveled (nil: none).
private func matcher(_ points: [(Double, Double)], _ distances: [Double]? = nil) -> ShapeMatch {
    ShapeMatch(lat: ArraySlice(points.map(\.0)), lon: ArraySlice(points.map(\.1)), distance: ArraySlice(distances ?? points.map { _ in .nan }))
}

/// A problem in words, meters rounded.
private func described(_ problem: ShapeMatch.Problem) -> String {
    switch problem {
    case .far(let stop, let meters, let limit): String(format: "stop %d far: %.0f m (limit %.0f)", stop, meters, limit)
    case .outOfOrder(let stop, let previous, let along, let previousAlong):
        String(format: "stop %d out of order after %d: %.0f < %.0f", stop, previous, along, previousAlong)
    case .tooManyMatches(let stop, let count): "stop \(stop) near the shape \(count) times"
    }
}

extension ShapeMatchRuleTests {
    /// On the equator 0.01° of longitude is 1111.95 m and 0.0005° of latitude 55.6 m.
    @Suite("ShapeMatch: candidates, places, order, problems")
    struct Matcher {
        static let degree = 6_371_008.8 * Double.pi / 180
        /// Two segments east along the equator, 1111.95 m each.
        static let straight: [(Double, Double)] = [(0, 0), (0, 0.01), (0, 0.02)]

        @Test("a stop 55.6 m beside a segment: one candidate, the nearest point of it")
        func oneCandidate() {
            let (places, nearest) = matcher(Self.straight).candidates(0.0005, 0.005, limit: 100)
            #expect(places.count == 1)
            #expect(places.first?.segment == 0)
            #expect(abs((places.first?.along ?? 0) - 0.005 * Self.degree) < 0.01, "\(places)")
            #expect(abs((places.first?.away ?? 0) - 0.0005 * Self.degree) < 0.01, "\(places)")
            #expect(abs(nearest - 0.0005 * Self.degree) < 0.01)
        }

        @Test("a stop 166.8 m from the shape: no candidate within 100 m, one within 400 m; the nearest distance either way")
        func noCandidate() {
            let m = matcher(Self.straight)
            let (none, nearest) = m.candidates(0.0015, 0.005, limit: 100)
            #expect(none.isEmpty)
            #expect(abs(nearest - 0.0015 * Self.degree) < 0.01)
            let (wide, _) = m.candidates(0.0015, 0.005, limit: 400)
            #expect(wide.map(\.segment) == [0])
        }

        /// Out along the equator and back 111 m north of it: the stop between both lines is
        /// 55.6 m from each.
        @Test("a shape that passes a stop twice: a candidate on each pass, in order along the shape")
        func outAndBack() {
            let m = matcher([(0, 0), (0, 0.02), (0.001, 0.02), (0.001, 0)])
            let (places, _) = m.candidates(0.0005, 0.005, limit: 100)
            #expect(places.map(\.segment) == [0, 2])
            #expect(places.allSatisfy { abs($0.away - 0.0005 * Self.degree) < 0.01 }, "\(places)")
            let back = 0.02 * Self.degree + 0.001 * Self.degree + 0.015 * Self.degree
            #expect(abs((places.last?.along ?? 0) - back) < 0.01, "\(places)")
        }

        /// The shape goes 67 m past the stop's longitude and turns back west: it comes 33 m
        /// from the stop, goes away (75 m at the turn) and comes 30 m from it again, without
        /// ever leaving the 100 m around it in between.
        @Test("a shape that turns back within 100 m of a stop: two candidates")
        func turnsBackNearby() {
            let m = matcher([(0, -0.01), (0, 0.0006), (0.0006, -0.01)])
            let (places, nearest) = m.candidates(0.0003, 0, limit: 100)
            #expect(places.map(\.segment) == [0, 1])
            #expect(places.allSatisfy { $0.away < 40 }, "\(places)")
            #expect(nearest < 30)
        }

        @Test("place(atDistance:from:): between the two points whose shape_dist_traveled enclose it, never before `from`, the last point past the end")
        func placeAtDistance() {
            // shape_dist_traveled 0, 1, 3: 2 is half way along the second segment.
            let m = matcher(Self.straight, [0, 1, 3])
            #expect(m.hasDistances)
            let k = 0.01 * Self.degree
            let cases: [(d: Double, from: Int, segment: Int, along: Double)] = [
                (2, 0, 1, 1.5 * k), (0.5, 0, 0, 0.5 * k), (1, 0, 1, k), (5, 0, 2, 2 * k), (0.5, 1, 1, k),
            ]
            for c in cases {
                let p = m.place(atDistance: c.d, from: c.from, 0, 0.015)
                #expect(p.segment == c.segment, "\(c)")
                #expect(abs(p.along - c.along) < 0.01, "\(c): \(p)")
                #expect(abs(p.away - abs(p.along - 1.5 * k)) < 0.01, "\(c): \(p)")
            }
            #expect(!matcher(Self.straight).hasDistances)
            #expect(!matcher(Self.straight, [0, 0, 0]).hasDistances)
        }

        @Test("inOrder: one place per stop, in order and as close as possible overall, or where the order breaks")
        func inOrder() {
            typealias P = ShapeMatch.Place
            // The second stop's closest place (500 m) comes after the third stop: the 100 m one is chosen.
            let (chosen, none) = ShapeMatch.inOrder([[P(segment: 0, along: 0, away: 5)],
                                                     [P(segment: 0, along: 100, away: 50), P(segment: 2, along: 500, away: 10)],
                                                     [P(segment: 1, along: 300, away: 0)]])
            #expect(none == nil)
            #expect(chosen?.map(\.along) == [0, 100, 300])
            // Both in order: the closer one (200 m, 10 m off).
            let (closest, _) = ShapeMatch.inOrder([[P(segment: 0, along: 0, away: 5)],
                                                   [P(segment: 0, along: 100, away: 50), P(segment: 1, along: 200, away: 10)],
                                                   [P(segment: 1, along: 300, away: 0)]])
            #expect(closest?.map(\.along) == [0, 200, 300])
            // Two stops at one place are in order.
            #expect(ShapeMatch.inOrder([[P(segment: 0, along: 100, away: 0)], [P(segment: 0, along: 100, away: 0)]]).1 == nil)
            // The third stop's places both come before the second's: out of order there, at its closest place.
            let (broken, problem) = ShapeMatch.inOrder([[P(segment: 0, along: 0, away: 0)], [P(segment: 1, along: 500, away: 0)],
                                                        [P(segment: 0, along: 300, away: 20), P(segment: 0, along: 250, away: 5)]])
            #expect(broken == nil)
            #expect(problem.map(described) == "stop 2 out of order after 1: 250 < 500")
        }

        @Test("problems: by geometry; and by distance only when the shape and the trip's last stop have shape_dist_traveled", arguments: [
            // On the shape (the middle stop 55.6 m off), distances in order: nothing.
            ([(0.0, 0.0, 0.0, false), (0.0005, 0.01, 1000, false), (0, 0.02, 2000, false)], true, [String](), [String]()),
            // The middle stop at 1500: placed 556 m from it.
            ([(0, 0, 0, false), (0, 0.01, 1500, false), (0, 0.02, 2000, false)], true, [], ["stop 1 far: 556 m (limit 100)"]),
            // ... but the last stop without a distance, or the shape without any: not placed by distance.
            ([(0, 0, 0, false), (0, 0.01, 1500, false), (0, 0.02, 0, false)], true, [], []),
            ([(0, 0, 0, false), (0, 0.01, 1500, false), (0, 0.02, 2000, false)], false, [], []),
            // The first stop 300 m before the shape: far for a bus, not for a rail trip's first stop.
            ([(0, -0.0027, 0, false), (0, 0.01, 0, false), (0, 0.02, 0, false)], false, ["stop 0 far: 300 m (limit 100)"], []),
            ([(0, -0.0027, 0, true), (0, 0.01, 0, false), (0, 0.02, 0, true)], false, [], []),
            ([(0, -0.0036, 0, true), (0, 0.01, 0, false), (0, 0.02, 0, true)], false, ["stop 0 far: 400 m (limit 400)"], []),
            // Stops the shape passes backwards.
            ([(0, 0.02, 0, false), (0, 0.01, 0, false), (0, 0, 0, false)], false, ["stop 1 out of order after 0: 1112 < 2224"], []),
            // A stop without a distance and without a candidate ends the pass by distance (said there too).
            ([(0, 0, 0, false), (0.002, 0.01, 0, false), (0, 0.02, 2000, false)], true,
             ["stop 1 far: 222 m (limit 100)"], ["stop 1 far: 222 m (limit 100)"]),
            // A stop placed by distance (1100: 1223 m along) before one placed by geometry (1668 m):
            // out of order, and then no stop is judged far from its place.
            ([(0, 0, 0, false), (0, 0.015, 0, false), (0, 0.018, 1100, false)], true, [], ["stop 2 out of order after 1: 1223 < 1668"]),
        ] as [([(lat: Double, lon: Double, distance: Double, large: Bool)], Bool, [String], [String])])
        func problems(stops: [(lat: Double, lon: Double, distance: Double, large: Bool)], shapeDistances: Bool, geo: [String], user: [String]) {
            let m = matcher(Self.straight, shapeDistances ? [0, 1000, 2000] : nil)
            let found = m.problems(stops)
            #expect(found.geo.map(described) == geo)
            #expect(found.user.map(described) == user)
        }
    }
}

// MARK: - Shared real feeds

extension ShapeMatchRuleTests {
    /// The counts on real feeds (measured with the release build; gtfs-guru 1.0.0 reports the
    /// same). One load per feed.
    @Suite("On the shared real feeds")
    struct SharedFeeds {
        private func load(_ path: String) throws -> GTFSLoadSummary {
            try GTFSFeedLoader(source: try openFeed(at: path), examplesPerKind: 20).load(into: RecordingSink())
        }

        /// The counts measured (and compared with gtfs-guru) for these codes, and no trip past
        /// its shape's end. Codes not named were not compared, and are not checked.
        private func expectCounts(_ summary: GTFSLoadSummary, _ expected: [String: Int], _ feed: String,
                                  sourceLocation: SourceLocation = #_sourceLocation) {
            for (canonical, n) in expected.merging(["trip_distance_exceeds_shape_distance": 0], uniquingKeysWith: { a, _ in a }) {
                #expect(canonicalCount(summary, canonical) == n, "\(feed): \(canonical)", sourceLocation: sourceLocation)
            }
        }

        @Test("wmata-rail-2026: 31 stops too far from their shapes, 2365 too far at their shape_dist_traveled, the first at stop_times.txt line 6")
        func wmata() throws {
            let summary = try load(try requireSharedFeed("wmata-rail-2026.zip"))
            expectCounts(summary, ["stop_too_far_from_shape": 31, "stop_too_far_from_shape_using_user_distance": 2365], "wmata-rail-2026")
            let first = try #require(notices(summary, canonical: "stop_too_far_from_shape_using_user_distance").first)
            checkPlace(first, "STOP_FAR_FROM_SHAPE", "stop_too_far_from_shape_using_user_distance", .warning, .warning,
                       line: 6, field: "shape_dist_traveled", value: "7.3277")
            #expect(first.message.hasPrefix("stop PF_A11_C is "), "\(first.message)")
        }

        @Test("mexico-city-2018: 8 trips whose stops match their shapes out of order")
        func mexicoCity() throws {
            let summary = try load(try requireSharedFeed("mexico-city-2018.zip"))
            expectCounts(summary, ["stops_match_shape_out_of_order": 8], "mexico-city-2018")
        }

        @Test("porto-alegre-trensurb-2019: 3 trips whose stops match their shapes out of order")
        func trensurb() throws {
            let summary = try load(try requireSharedFeed("porto-alegre-trensurb-2019.zip"))
            expectCounts(summary, ["stops_match_shape_out_of_order": 3], "porto-alegre-trensurb-2019")
        }

        @Test("porto-alegre-eptc-2019: 16 stops too far from their shapes, 69 trips out of order")
        func eptc() throws {
            let summary = try load(try requireSharedFeed("porto-alegre-eptc-2019.zip"))
            expectCounts(summary, ["stop_too_far_from_shape": 16, "stops_match_shape_out_of_order": 69], "porto-alegre-eptc-2019")
        }

        @Test("caltrain (bundled): 24 stops too far from their shapes")
        func caltrain() throws {
            let summary = try load(bundledFeed("caltrain.zip"))
            expectCounts(summary, ["stop_too_far_from_shape": 24], "caltrain")
        }
    }
}
