import Foundation
import Testing
import GTFS
import TransitModel

// The canonical WARNING rules about what no one uses (agencies, routes, trips, stops), about
// names and descriptions, services without a weekday, feed_info's dates, pathways and
// shapes: each made to fire by one defect in a copy of a bundled feed, with our code, the
// canonical code, both severities and the place, and every row loaded as before (a warning
// changes nothing about the row). Each with a near miss that stays silent. Then the shared
// real feeds, on which canonical validators raise none of them (but two stop descriptions).

// MARK: - Helpers

/// A feed (folder or zip) loaded into a recording sink, every example kept.
private func load(_ path: String, keeping files: Set<String> = []) throws -> (GTFSLoadSummary, RecordingSink) {
    let sink = RecordingSink(keeping: files)
    let summary = try GTFSFeedLoader(source: try openFeed(at: path), examplesPerKind: 1_000).load(into: sink)
    return (summary, sink)
}

/// google-sample's stops.txt with location_type and parent_station columns (empty on its
/// nine stops, lines 2–10; `parents` gives some of them one), then `rows` from line 11 on.
/// Written again, the nine stops are rewritten and the rows after them replaced.
private func writeStops(_ feed: FeedFolder, parents: [String: String] = [:], _ rows: [String]) throws {
    let stops: [String] = try feed.text("stops.txt").split(separator: "\n").dropFirst().prefix(9).map { line in
        let fields = line.split(separator: ",", omittingEmptySubsequences: false).prefix(7)
        return fields.joined(separator: ",") + ",," + (parents[String(fields[fields.startIndex])] ?? "")
    }
    try feed.write("stops.txt", (["stop_id,stop_name,stop_desc,stop_lat,stop_lon,zone_id,stop_url,location_type,parent_station"]
                                 + stops + rows).joined(separator: "\n") + "\n")
}

/// feed_info.txt with one row (line 2); nil leaves a date empty.
private func writeFeedInfo(_ feed: FeedFolder, start: String?, end: String?) throws {
    try feed.write("feed_info.txt", "feed_publisher_name,feed_publisher_url,feed_lang,feed_start_date,feed_end_date,feed_version,feed_contact_email\n"
                   + "Demo Transit Authority,http://google.com,en,\(start ?? ""),\(end ?? ""),1.0,feeds@example.com\n")
}

/// The rules under test: our code and the canonical code it is reported with.
private let warningRules: [(code: String, canonical: String)] = [
    ("UNUSED_AGENCY", "unused_agency"),
    ("ROUTE_NOT_USED", "unused_route"),
    ("TRIP_WITHOUT_STOP_TIMES", "unused_trip"),
    ("STOP_NOT_SERVED", "stop_without_stop_time"),
    ("ONE_SHAPE_POINT", "single_shape_point"),
    ("LONG_SHORT_NAME", "route_short_name_too_long"),
    ("DESCRIPTION_IS_NAME", "same_name_and_description_for_route"),
    ("DESCRIPTION_IS_NAME", "same_name_and_description_for_stop"),
    ("NO_WEEKDAY", "service_has_no_active_day_of_the_week"),
    ("ONE_FEED_DATE", "missing_feed_info_date"),
    ("PATHWAY_LOOP", "pathway_loop"),
]

/// Notices with our code and the canonical code (any file, any severity).
private func count(_ summary: GTFSLoadSummary, _ code: String, _ canonical: String) -> Int {
    summary.issues.entries.filter { $0.kind.code == code && $0.kind.canonical == canonical }.reduce(0) { $0 + $1.count }
}

/// The rules under test that the feed raises, with their counts.
private func raised(_ summary: GTFSLoadSummary) -> [String: Int] {
    warningRules.reduce(into: [:]) { d, rule in
        let n = count(summary, rule.code, rule.canonical)
        if n > 0 { d["\(rule.code) \(rule.canonical)"] = n }
    }
}

/// The load after a defect.
private struct AfterDefect {
    let before: GTFSLoadSummary
    let summary: GTFSLoadSummary
    let sink: RecordingSink
    /// The notice the defect added.
    let issue: GTFSIssue
}

/// Loads `feed`, makes `defect` and loads it again: expects exactly one notice more with
/// `code` and `canonical` (a warning), the other notices changed only by `also`, every row
/// read loaded as before, and the rows loaded per file changed only by `rows` (the rows the
/// defect added or removed).
private func afterDefect(_ feed: FeedFolder, _ code: String, _ canonical: String, also: [String: Int] = [:], rows: [String: Int] = [:],
                         keeping files: Set<String> = [], sourceLocation: SourceLocation = #_sourceLocation,
                         _ defect: () throws -> Void) throws -> AfterDefect {
    let (before, _) = try load(feed.path)
    try defect()
    let (after, sink) = try load(feed.path, keeping: files)
    #expect(changes(from: tally(before), to: tally(after)) == adding([key(code, canonical, .warning): 1], also),
            "the defect changed \(changes(from: tally(before), to: tally(after)))", sourceLocation: sourceLocation)
    #expect(count(after, code, canonical) == count(before, code, canonical) + 1, sourceLocation: sourceLocation)
    #expect(skipped(after) == skipped(before), "every row read is loaded, as before the defect", sourceLocation: sourceLocation)
    #expect(loaded(after) == adding(loaded(before), rows), "rows loaded per file", sourceLocation: sourceLocation)
    let old = examples(before)
    let new = issues(after, code).filter { $0.canonical == canonical && !old.contains($0) }
    #expect(new.count == 1, "\(new)", sourceLocation: sourceLocation)
    let issue = try #require(new.first, "no new \(code) in \(examples(after))", sourceLocation: sourceLocation)
    return AfterDefect(before: before, summary: after, sink: sink, issue: issue)
}

/// Loads `feed`, makes `change` and loads it again: expects none of the rules under test to
/// change, the other notices changed only by `also`, and the rows loaded per file only by `rows`.
@discardableResult
private func nearMiss(_ feed: FeedFolder, also: [String: Int] = [:], rows: [String: Int] = [:], keeping files: Set<String> = [],
                      sourceLocation: SourceLocation = #_sourceLocation, _ change: () throws -> Void) throws -> (GTFSLoadSummary, RecordingSink) {
    let (before, _) = try load(feed.path)
    try change()
    let (after, sink) = try load(feed.path, keeping: files)
    #expect(raised(after) == raised(before), "\(examples(after))", sourceLocation: sourceLocation)
    #expect(changes(from: tally(before), to: tally(after)) == also, sourceLocation: sourceLocation)
    #expect(loaded(after) == adding(loaded(before), rows), "rows loaded per file", sourceLocation: sourceLocation)
    return (after, sink)
}

/// Our code, the canonical code, both severities (warnings), and the place.
private func check(_ issue: GTFSIssue, _ code: String, _ canonical: String, file: String, line: Int?, field: String?, value: String?,
                   sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(issue.code == code, sourceLocation: sourceLocation)
    #expect(issue.canonical == canonical, sourceLocation: sourceLocation)
    #expect(issue.severity == .warning, sourceLocation: sourceLocation)
    #expect(issue.canonicalSeverity == .warning, sourceLocation: sourceLocation)
    #expect(CanonicalNotice.rules[canonical]?.severity == .warning, sourceLocation: sourceLocation)
    #expect(issue.file == file, sourceLocation: sourceLocation)
    #expect(issue.line == line, sourceLocation: sourceLocation)
    #expect(issue.field == field, sourceLocation: sourceLocation)
    #expect(issue.value == value, sourceLocation: sourceLocation)
}

// MARK: - The suite

@Suite("Canonical warnings: unused rows, names, weekdays, feed dates, pathway loops, single shape points")
struct CanonicalWarningRuleTests {
    @Test("the catalogue has each canonical code as a WARNING")
    func catalogue() {
        for rule in warningRules {
            #expect(CanonicalNotice.rules[rule.canonical]?.severity == .warning, "\(rule.canonical)")
        }
    }

    @Test("the bundled feeds as they are raise none of these warnings", arguments: ["google-sample.zip", "caltrain.zip", "bart-2018.zip"])
    func bundledFeeds(zip: String) throws {
        let (summary, _) = try load(bundledFeed(zip))
        #expect(raised(summary) == [:], "\(zip)")
    }
}

// MARK: - What no one uses

extension CanonicalWarningRuleTests {
    @Suite("Agencies, routes, trips and stops no one uses")
    struct Unused {
        static let otherAgency = "OTHER,Other Transit,http://example.com,America/Los_Angeles"

        @Test("an agency no route names: a warning at its agency_id; the agency loads")
        func unusedAgency() throws {
            try withFeed { feed in
                let result = try afterDefect(feed, "UNUSED_AGENCY", "unused_agency", rows: ["agency.txt": 1], keeping: ["agency.txt"]) {
                    try appendLines(feed, "agency.txt", [Self.otherAgency])
                }
                check(result.issue, "UNUSED_AGENCY", "unused_agency", file: "agency.txt", line: 3, field: "agency_id", value: "OTHER")
                #expect(try row(result.sink, "agency.txt", "agency_id", "OTHER")["agency_name"] == .text("Other Transit"))
            }
        }

        @Test("a second agency that a route names is used")
        func secondAgencyUsed() throws {
            try withFeed { feed in
                try nearMiss(feed, rows: ["agency.txt": 1]) {
                    try appendLines(feed, "agency.txt", [Self.otherAgency])
                    try feed.replace("routes.txt", "AAMV,DTA,", with: "AAMV,OTHER,")
                }
            }
        }

        @Test("the one agency of a feed whose routes leave agency_id empty is used (each route only lacks agency_id)")
        func oneAgencyRoutesWithoutId() throws {
            try withFeed { feed in
                try nearMiss(feed, also: [key("RECOMMENDED_VALUE_MISSING", "missing_recommended_field", .warning): 5]) {
                    try feed.write("routes.txt", try feed.text("routes.txt").replacingOccurrences(of: ",DTA,", with: ",,"))
                }
            }
        }

        @Test("a route no trip runs on: a warning at its route_id; the route loads")
        func unusedRoute() throws {
            try withFeed { feed in
                let result = try afterDefect(feed, "ROUTE_NOT_USED", "unused_route", rows: ["routes.txt": 1], keeping: ["routes.txt"]) {
                    try appendLines(feed, "routes.txt", ["RHY,DTA,60,Beatty - Rhyolite,,3,,,"])
                }
                check(result.issue, "ROUTE_NOT_USED", "unused_route", file: "routes.txt", line: 7, field: "route_id", value: "RHY")
                #expect(try row(result.sink, "routes.txt", "route_id", "RHY")["route_long_name"] == .text("Beatty - Rhyolite"))
            }
        }

        @Test("a route with a trip is used, even when that trip has no stop times (only the trip is reported)")
        func routeOfTripWithoutStopTimes() throws {
            try withFeed { feed in
                try appendLines(feed, "routes.txt", ["RHY,DTA,60,Beatty - Rhyolite,,3,,,"])
                // Before: the route is unused. After: its trip has no stop times; the route is used.
                let (before, _) = try load(feed.path)
                #expect(count(before, "ROUTE_NOT_USED", "unused_route") == 1)
                try appendLines(feed, "trips.txt", ["RHY,FULLW,RHY1,to Rhyolite,0,,"])
                let (after, _) = try load(feed.path)
                #expect(changes(from: tally(before), to: tally(after))
                        == [key("ROUTE_NOT_USED", "unused_route", .warning): -1, key("TRIP_WITHOUT_STOP_TIMES", "unused_trip", .warning): 1])
                #expect(loaded(after) == adding(loaded(before), ["trips.txt": 1]))
            }
        }

        @Test("a trip moved to a new route: both routes are used")
        func tripMovedToNewRoute() throws {
            try withFeed { feed in
                try nearMiss(feed, rows: ["routes.txt": 1]) {
                    try appendLines(feed, "routes.txt", ["RHY,DTA,60,Beatty - Rhyolite,,3,,,"])
                    try feed.replace("trips.txt", "AAMV,WE,AAMV4,", with: "RHY,WE,AAMV4,")
                }
            }
        }

        @Test("a route whose only trip is left out (its times go backwards): only the row error, neither the route nor the trip reported unused")
        func routeOfLeftOutTrip() throws {
            try withFeed { feed in
                let (summary, sink) = try nearMiss(feed, also: [key("TIME_GOES_BACKWARDS", "stop_time_with_arrival_before_previous_departure_time", .rowError): 1],
                                                   rows: ["stop_times.txt": -2]) {
                    try feed.replace("stop_times.txt", "STBA,6:20:00,6:20:00,", with: "STBA,5:50:00,5:50:00,")
                }
                #expect(sink.leftOut == ["STBA"])
                #expect(count(summary, "TRIP_WITHOUT_STOP_TIMES", "unused_trip") == 0)
                #expect(count(summary, "ROUTE_NOT_USED", "unused_route") == 0)
            }
        }

        @Test("a trip without stop times: a warning at its trip_id; the trip loads")
        func tripWithoutStopTimes() throws {
            try withFeed { feed in
                let result = try afterDefect(feed, "TRIP_WITHOUT_STOP_TIMES", "unused_trip", rows: ["trips.txt": 1], keeping: ["trips.txt"]) {
                    try appendLines(feed, "trips.txt", ["AB,FULLW,AB3,to Bullfrog,0,,"])
                }
                check(result.issue, "TRIP_WITHOUT_STOP_TIMES", "unused_trip", file: "trips.txt", line: 13, field: "trip_id", value: "AB3")
                #expect(try row(result.sink, "trips.txt", "trip_id", "AB3")["route_id"] == .text("AB"))
                #expect(result.summary.stats("stop_times.txt")?.rowsLoaded == 28)
            }
        }

        @Test("a trip with stop times of its own, added after the others, is not reported")
        func newTripWithStopTimes() throws {
            try withFeed { feed in
                try nearMiss(feed, rows: ["trips.txt": 1, "stop_times.txt": 2]) {
                    try appendLines(feed, "trips.txt", ["AB,FULLW,AB3,to Bullfrog,0,,"])
                    try appendLines(feed, "stop_times.txt", ["AB3,14:00:00,14:00:00,BEATTY_AIRPORT,1,,,,", "AB3,14:10:00,14:15:00,BULLFROG,2,,,,"])
                }
            }
        }

        @Test("a trip left out for its one stop time is a row error, not a trip without stop times")
        func tripWithOneStopTime() throws {
            try withFeed { feed in
                let (summary, sink) = try nearMiss(feed, also: [key("ONE_STOP_TIME", "missing_stop_times_record", .rowError): 1],
                                                   rows: ["stop_times.txt": -2]) {
                    try feed.replace("stop_times.txt", "STBA,6:20:00,6:20:00,BEATTY_AIRPORT,2,,,,\n", with: "")
                }
                #expect(sink.leftOut == ["STBA"])
                #expect(count(summary, "TRIP_WITHOUT_STOP_TIMES", "unused_trip") == 0)
            }
        }

        @Test("a stop no trip stops at: a warning at its stop_id; the stop loads")
        func stopNotServed() throws {
            try withFeed { feed in
                let result = try afterDefect(feed, "STOP_NOT_SERVED", "stop_without_stop_time", rows: ["stops.txt": 1], keeping: ["stops.txt"]) {
                    try appendLines(feed, "stops.txt", ["BEATTY_TOWN,Beatty Town (Demo),,36.903,-116.759,,"])
                }
                check(result.issue, "STOP_NOT_SERVED", "stop_without_stop_time", file: "stops.txt", line: 11, field: "stop_id", value: "BEATTY_TOWN")
                #expect(try row(result.sink, "stops.txt", "stop_id", "BEATTY_TOWN")["stop_name"] == .text("Beatty Town (Demo)"))
            }
        }

        /// A station (line 11) with a platform (line 12) no trip stops at.
        static let station = ["BEATTY_STATION,Beatty Station (Demo),,36.90,-116.76,,,1,",
                              "BEATTY_P1,Beatty Platform 1 (Demo),,36.90,-116.76,,,0,BEATTY_STATION"]

        @Test("a platform of a station that no trip stops at: a warning, its parent station does not help it")
        func platformNotServed() throws {
            try withFeed { feed in
                try writeStops(feed, [])
                let result = try afterDefect(feed, "STOP_NOT_SERVED", "stop_without_stop_time", rows: ["stops.txt": 2]) {
                    try writeStops(feed, Self.station)
                }
                check(result.issue, "STOP_NOT_SERVED", "stop_without_stop_time", file: "stops.txt", line: 12, field: "stop_id", value: "BEATTY_P1")
            }
        }

        @Test("a platform no trip stops at that a boarding area names as its parent; a station, an entrance: none reported")
        func parentsAndOtherTypesNotReported() throws {
            try withFeed { feed in
                try writeStops(feed, [])
                try nearMiss(feed, rows: ["stops.txt": 4]) {
                    try writeStops(feed, Self.station + ["BEATTY_P1_A,Beatty Platform 1 front (Demo),,,,,,4,BEATTY_P1",
                                                         "BEATTY_E1,Beatty Entrance (Demo),,36.901,-116.761,,,2,BEATTY_STATION"])
                }
            }
        }

        @Test("a stop whose only stop time belongs to a trip left out is still a stop trips name: not reported")
        func stopOfLeftOutTrip() throws {
            try withFeed { feed in
                try appendLines(feed, "stops.txt", ["BEATTY_TOWN,Beatty Town (Demo),,36.903,-116.759,,"])
                let (before, _) = try load(feed.path)
                #expect(count(before, "STOP_NOT_SERVED", "stop_without_stop_time") == 1)
                // STBA now goes on to BEATTY_TOWN, arriving there before it left the airport: the trip is left out.
                try feed.replace("stop_times.txt", "STBA,6:20:00,6:20:00,BEATTY_AIRPORT,2,,,,\n",
                                 with: "STBA,6:20:00,6:20:00,BEATTY_AIRPORT,2,,,,\nSTBA,6:10:00,6:10:00,BEATTY_TOWN,3,,,,\n")
                let (after, sink) = try load(feed.path)
                #expect(sink.leftOut == ["STBA"])
                #expect(changes(from: tally(before), to: tally(after))
                        == [key("STOP_NOT_SERVED", "stop_without_stop_time", .warning): -1,
                            key("TIME_GOES_BACKWARDS", "stop_time_with_arrival_before_previous_departure_time", .rowError): 1])
                #expect(loaded(after) == adding(loaded(before), ["stop_times.txt": -2]))
            }
        }
    }
}

// MARK: - Shapes

extension CanonicalWarningRuleTests {
    @Suite("Shapes of a single point")
    struct Shapes {
        /// Two points at STAGECOACH and BEATTY_AIRPORT, a shape no trip follows (shapes.txt lines 2–3).
        static let shape = ["S2,36.915682,-116.751677,1,", "S2,36.868446,-116.784582,2,"]

        @Test("a shape of one point: a warning at its row; the point loads")
        func singleShapePoint() throws {
            try withFeed { feed in
                try appendLines(feed, "shapes.txt", Self.shape)
                let result = try afterDefect(feed, "ONE_SHAPE_POINT", "single_shape_point", rows: ["shapes.txt": -1], keeping: ["shapes.txt"]) {
                    try feed.replace("shapes.txt", Self.shape[1] + "\n", with: "")
                }
                check(result.issue, "ONE_SHAPE_POINT", "single_shape_point", file: "shapes.txt", line: 2, field: "shape_id", value: "S2")
                #expect(result.sink.rows("shapes.txt").count == 1)
                // The shape no trip follows is reported as before, once.
                #expect(result.summary.issues.count(code: "SHAPE_NOT_USED") == 1)
            }
        }

        @Test("a trip following a shape of one point: the shape is reported once, the trip loads with it")
        func followedSingleShapePoint() throws {
            try withFeed { feed in
                try appendLines(feed, "shapes.txt", [Self.shape[0]])
                try feed.replace("trips.txt", "STBA,FULLW,STBA,Shuttle,,,", with: "STBA,FULLW,STBA,Shuttle,,,S2")
                let (summary, sink) = try load(feed.path, keeping: ["trips.txt"])
                let found = issues(summary, "ONE_SHAPE_POINT")
                #expect(found.count == 1)
                if let issue = found.first {
                    check(issue, "ONE_SHAPE_POINT", "single_shape_point", file: "shapes.txt", line: 2, field: "shape_id", value: "S2")
                }
                #expect(summary.issues.count(code: "SHAPE_NOT_USED") == 0)
                #expect(summary.issues.count(.rowError) == 0 && summary.issues.count(.fieldError) == 0, "\(examples(summary))")
                #expect(summary.stats("trips.txt")?.rowsLoaded == 11)
                #expect(try row(sink, "trips.txt", "trip_id", "STBA")["shape_id"] == .text("S2"))
            }
        }

        @Test("a shape of two points is not single")
        func twoPoints() throws {
            try withFeed { feed in
                try nearMiss(feed, also: [key("SHAPE_NOT_USED", "unused_shape", .warning): 1], rows: ["shapes.txt": 2]) {
                    try appendLines(feed, "shapes.txt", Self.shape)
                }
            }
        }

        @Test("a shape of two points whose rows are apart (another shape's between them) is not single")
        func twoPointsInTwoRuns() throws {
            try withFeed { feed in
                let other = ["S3,36.914893,-116.768210,1,", "S3,36.914944,-116.761472,2,"]
                try appendLines(feed, "shapes.txt", Self.shape + other)
                try nearMiss(feed) {
                    // S2's second point moved after S3's rows: S2 is read in two runs of rows.
                    try feed.write("shapes.txt", "shape_id,shape_pt_lat,shape_pt_lon,shape_pt_sequence,shape_dist_traveled\n"
                                   + ([Self.shape[0]] + other + [Self.shape[1]]).map { $0 + "\n" }.joined())
                }
            }
        }
    }
}

// MARK: - Names and descriptions

extension CanonicalWarningRuleTests {
    @Suite("Route short names and descriptions")
    struct Names {
        @Test("a route_short_name of more than 12 characters: a warning at it; the route loads with it", arguments: [
            "Airport Line1",        // 13 characters
            "Żółć Ęąś 1234",        // 13 characters, 21 bytes
        ])
        func longShortName(name: String) throws {
            try withFeed { feed in
                let result = try afterDefect(feed, "LONG_SHORT_NAME", "route_short_name_too_long", keeping: ["routes.txt"]) {
                    try feed.replace("routes.txt", "AB,DTA,10,", with: "AB,DTA,\(name),")
                }
                check(result.issue, "LONG_SHORT_NAME", "route_short_name_too_long", file: "routes.txt", line: 2, field: "route_short_name", value: name)
                #expect(try row(result.sink, "routes.txt", "route_id", "AB")["route_short_name"] == .text(name))
            }
        }

        @Test("a route_short_name of 12 characters (counted as characters, not bytes) is short enough", arguments: [
            "Airport Line",         // 12 characters
            "Żółć Ęąś 123",         // 12 characters, 19 bytes
        ])
        func shortEnough(name: String) throws {
            try withFeed { feed in
                try nearMiss(feed) { try feed.replace("routes.txt", "AB,DTA,10,", with: "AB,DTA,\(name),") }
            }
        }

        @Test("a route_desc that repeats the short or the long name: a warning at route_desc; the route loads with it", arguments: [
            "10", "Airport - Bullfrog",
        ])
        func descriptionIsName(description: String) throws {
            try withFeed { feed in
                let result = try afterDefect(feed, "DESCRIPTION_IS_NAME", "same_name_and_description_for_route", keeping: ["routes.txt"]) {
                    try feed.replace("routes.txt", "AB,DTA,10,Airport - Bullfrog,,", with: "AB,DTA,10,Airport - Bullfrog,\(description),")
                }
                check(result.issue, "DESCRIPTION_IS_NAME", "same_name_and_description_for_route",
                      file: "routes.txt", line: 2, field: "route_desc", value: description)
                #expect(try row(result.sink, "routes.txt", "route_id", "AB")["route_desc"] == .text(description))
            }
        }

        /// MobilityData's RouteNameValidator compares with equalsIgnoreCase, as our stop rule does.
        @Test("a route_desc that repeats the long name in other letter case: the same warning")
        func descriptionIsNameOtherCase() throws {
            try withFeed { feed in
                let result = try afterDefect(feed, "DESCRIPTION_IS_NAME", "same_name_and_description_for_route") {
                    try feed.replace("routes.txt", "AB,DTA,10,Airport - Bullfrog,,", with: "AB,DTA,10,Airport - Bullfrog,Airport - bullfrog,")
                }
                check(result.issue, "DESCRIPTION_IS_NAME", "same_name_and_description_for_route",
                      file: "routes.txt", line: 2, field: "route_desc", value: "Airport - bullfrog")
            }
        }

        @Test("a route_desc that contains a name and says more is fine", arguments: [
            "Airport - Bullfrog every hour", "\"Airport - Bullfrog, every hour\"", "Route 10", "10 Airport - Bullfrog",
        ])
        func descriptionSaysMore(description: String) throws {
            try withFeed { feed in
                try nearMiss(feed) {
                    try feed.replace("routes.txt", "AB,DTA,10,Airport - Bullfrog,,", with: "AB,DTA,10,Airport - Bullfrog,\(description),")
                }
            }
        }

        @Test("a route and a stop whose descriptions repeat their names: one code, counted apart by canonical code")
        func routeAndStopDescriptions() throws {
            try withFeed { feed in
                try feed.replace("routes.txt", "AB,DTA,10,Airport - Bullfrog,,", with: "AB,DTA,10,Airport - Bullfrog,Airport - Bullfrog,")
                try feed.replace("stops.txt", "AMV,Amargosa Valley (Demo),,", with: "AMV,Amargosa Valley (Demo),Amargosa Valley (Demo),")
                let (summary, _) = try load(feed.path)
                #expect(summary.issues.count(code: "DESCRIPTION_IS_NAME") == 2)
                let kinds = summary.issues.entries.filter { $0.kind.code == "DESCRIPTION_IS_NAME" }.map { "\($0.kind.file) \($0.kind.canonical ?? "-") \($0.count)" }
                #expect(kinds.sorted() == ["routes.txt same_name_and_description_for_route 1", "stops.txt same_name_and_description_for_stop 1"])
                let stop = try #require(issues(summary, "DESCRIPTION_IS_NAME").first { $0.file == "stops.txt" })
                check(stop, "DESCRIPTION_IS_NAME", "same_name_and_description_for_stop",
                      file: "stops.txt", line: 10, field: "stop_desc", value: "Amargosa Valley (Demo)")
            }
        }
    }
}

// MARK: - Services and feed_info

extension CanonicalWarningRuleTests {
    @Suite("Services without a weekday, feed_info with one date")
    struct ServicesAndFeedInfo {
        @Test("a calendar.txt service with every weekday 0: a warning at the row; the service loads")
        func noWeekday() throws {
            try withFeed { feed in
                let result = try afterDefect(feed, "NO_WEEKDAY", "service_has_no_active_day_of_the_week", rows: ["calendar.txt": 1],
                                             keeping: ["calendar.txt"]) {
                    try appendLines(feed, "calendar.txt", ["NEVER,0,0,0,0,0,0,0,20070101,20101231"])
                }
                check(result.issue, "NO_WEEKDAY", "service_has_no_active_day_of_the_week", file: "calendar.txt", line: 4, field: "monday", value: "0")
                #expect(try row(result.sink, "calendar.txt", "service_id", "NEVER")["sunday"] == .int(0))
            }
        }

        @Test("a service on one weekday, or of weekends, has a weekday", arguments: [
            "ONCE,0,0,0,0,0,0,1,20070101,20101231", "ONCE,1,0,0,0,0,0,0,20070101,20101231",
        ])
        func oneWeekday(row: String) throws {
            try withFeed { feed in
                try nearMiss(feed, rows: ["calendar.txt": 1]) { try appendLines(feed, "calendar.txt", [row]) }
            }
        }

        @Test("a used service made of no weekday (its trips run on calendar_dates' days): a warning, the trips load")
        func usedServiceNoWeekday() throws {
            try withFeed { feed in
                let result = try afterDefect(feed, "NO_WEEKDAY", "service_has_no_active_day_of_the_week", rows: ["calendar_dates.txt": 1]) {
                    try feed.replace("calendar.txt", "WE,0,0,0,0,0,1,1,", with: "WE,0,0,0,0,0,0,0,")
                    try appendLines(feed, "calendar_dates.txt", ["WE,20070609,1"])
                }
                check(result.issue, "NO_WEEKDAY", "service_has_no_active_day_of_the_week", file: "calendar.txt", line: 3, field: "monday", value: "0")
                #expect(result.summary.stats("trips.txt")?.rowsLoaded == 11)
            }
        }

        @Test("feed_info.txt with one of its dates: a warning at the missing one (and the recommended value missing)", arguments: [
            ("20070101", nil, "feed_end_date"), (nil, "20101231", "feed_start_date"),
        ] as [(String?, String?, String)])
        func oneFeedDate(start: String?, end: String?, missing: String) throws {
            try withFeed { feed in
                try writeFeedInfo(feed, start: "20070101", end: "20101231")
                let result = try afterDefect(feed, "ONE_FEED_DATE", "missing_feed_info_date",
                                             also: [key("RECOMMENDED_VALUE_MISSING", "missing_recommended_field", .warning): 1],
                                             keeping: ["feed_info.txt"]) {
                    try writeFeedInfo(feed, start: start, end: end)
                }
                check(result.issue, "ONE_FEED_DATE", "missing_feed_info_date", file: "feed_info.txt", line: 2, field: missing, value: nil)
                let info = try #require(result.sink.rows("feed_info.txt").first)
                #expect(info[missing] == .null)
            }
        }

        @Test("feed_info.txt with both dates or neither: no warning about one date")
        func bothOrNeitherFeedDate() throws {
            try withFeed { feed in
                try writeFeedInfo(feed, start: "20070101", end: "20101231")
                let (both, _) = try load(feed.path)
                #expect(raised(both) == [:])
                try nearMiss(feed, also: [key("RECOMMENDED_VALUE_MISSING", "missing_recommended_field", .warning): 2]) {
                    try writeFeedInfo(feed, start: nil, end: nil)
                }
            }
        }
    }
}

// MARK: - Pathways

extension CanonicalWarningRuleTests {
    @Suite("Pathways from a location to itself")
    struct Pathways {
        /// BEATTY_AIRPORT (line 3) a platform of BEATTY_STATION (line 11), entered by BEATTY_E1
        /// (line 12); one pathway from the entrance to the platform (pathways.txt line 2).
        static func station(_ feed: FeedFolder) throws {
            try writeStops(feed, parents: ["BEATTY_AIRPORT": "BEATTY_STATION"],
                           ["BEATTY_STATION,Beatty Station (Demo),,36.868,-116.784,,,1,",
                            "BEATTY_E1,Beatty Entrance (Demo),,36.8685,-116.7846,,,2,BEATTY_STATION"])
            try feed.write("pathways.txt", "pathway_id,from_stop_id,to_stop_id,pathway_mode,is_bidirectional\nP1,BEATTY_E1,BEATTY_AIRPORT,1,1\n")
        }

        @Test("a pathway from a location to itself: a warning at to_stop_id; the pathway loads")
        func pathwayLoop() throws {
            try withFeed { feed in
                try Self.station(feed)
                let result = try afterDefect(feed, "PATHWAY_LOOP", "pathway_loop", rows: ["pathways.txt": 1], keeping: ["pathways.txt"]) {
                    try appendLines(feed, "pathways.txt", ["P2,BEATTY_E1,BEATTY_E1,1,1"])
                }
                check(result.issue, "PATHWAY_LOOP", "pathway_loop", file: "pathways.txt", line: 3, field: "to_stop_id", value: "BEATTY_E1")
                #expect(try row(result.sink, "pathways.txt", "pathway_id", "P2")["from_stop_id"] == .text("BEATTY_E1"))
            }
        }

        @Test("a pathway back the other way is no loop")
        func pathwayBack() throws {
            try withFeed { feed in
                try Self.station(feed)
                try nearMiss(feed, rows: ["pathways.txt": 1]) {
                    try appendLines(feed, "pathways.txt", ["P2,BEATTY_AIRPORT,BEATTY_E1,1,0"])
                }
            }
        }
    }
}

// MARK: - Shared real feeds

extension CanonicalWarningRuleTests {
    /// Canonical validators raise none of these on the shared feeds, but for two stops of
    /// wmata-rail-2026 whose stop_desc repeats their stop_name.
    @Suite("On the shared real feeds")
    struct SharedFeeds {
        static let feeds = sharedFeedFiles

        @Test("none of these warnings, but wmata-rail-2026's two stop descriptions", arguments: feeds)
        func sharedFeed(name: String) throws {
            let summary = try GTFSFeedLoader(source: try openFeed(at: try requireSharedFeed(name)), examplesPerKind: 3).load(into: RecordingSink())
            let expected = name == "wmata-rail-2026.zip" ? ["DESCRIPTION_IS_NAME same_name_and_description_for_stop": 2] : [:]
            #expect(raised(summary) == expected, "\(name)")
            if name == "wmata-rail-2026.zip" {
                let found = issues(summary, "DESCRIPTION_IS_NAME")
                #expect(found.map(\.line) == [2065, 2067])
                #expect(found.allSatisfy { $0.file == "stops.txt" && $0.field == "stop_desc" && $0.severity == .warning && $0.canonicalSeverity == .warning })
            }
        }

        @Test("the shared folder holds the feeds these tests name")
        func listing() {
            #expect(sharedFolderListing() == Self.feeds)
        }
    }
}
