import Foundation
import Testing
import GTFS
import TransitModel

// The canonical ERROR rules of MobilityData's validator that the importer raises since the
// forms of values, the location types and the edges of trips are checked: one defect per
// feed, made in a copy of a bundled feed. For each, the feed before the defect raises none
// of these rules; the defect raises exactly one notice, with our code and action
// (`severity`), the canonical code and its severity, and the place; and the row is skipped
// (row error), loaded without the value (field error) or loaded as it is (warning). Then
// the same rules on the shared real feeds, where canonical validators raise none of them,
// and `FieldParsing`'s checks of the forms of values.

/// The suites of this file, nested here so that `--filter CanonicalErrorRuleTests` runs them all.
@Suite("Canonical ERROR rules: forms of values, location types, edges of trips, frequencies")
struct CanonicalErrorRuleTests {}

// MARK: - Helpers

/// Appends one line (adding the line end the file lacks, if any); returns its line number.
@discardableResult
private func appendLine(_ feed: FeedFolder, _ name: String, _ line: String) throws -> Int {
    let old = try lines(feed, name)
    try writeLines(feed, name, old + [line])
    return old.count + 1
}

/// Our codes of the rules under test, and the canonical code each raises.
private let ruleCodes: [String: String] = [
    "EMPTY_COLUMN_NAME": "empty_column_name",
    "BAD_URL": "invalid_url",
    "BAD_EMAIL": "invalid_email",
    "BAD_LANGUAGE": "invalid_language_code",
    "BAD_TIMEZONE": "invalid_timezone",
    "AGENCY_TIMEZONES_DIFFER": "inconsistent_agency_timezone",
    "COORDINATES_AT_POLE": "point_near_pole",
    "NO_PARENT_STATION": "location_without_parent_station",
    "NO_STOP_NAME": "missing_stop_name",
    "NOT_A_STOP": "location_with_unexpected_stop_time",
    "PATHWAY_TO_STATION": "pathway_to_wrong_location_type",
    "PATHWAY_TO_PLATFORM": "pathway_to_platform_with_boarding_areas",
    "TRANSFER_AT_WRONG_TYPE": "transfer_with_invalid_stop_location_type",
    "TRANSFER_TRIP_NOT_ON_ROUTE": "transfer_with_invalid_trip_and_route",
    "NO_ROUTE_NAME": "route_both_short_and_long_name_missing",
    "ONE_STOP_TIME": "missing_stop_times_record",
    "TRIP_END_WITHOUT_TIME": "missing_trip_edge",
    "ONE_TIME_ONLY": "stop_time_with_only_arrival_or_departure_time",
    "TIMEPOINT_WITHOUT_TIMES": "stop_time_timepoint_without_times",
    "FREQUENCIES_OVERLAP": "overlapping_frequency",
]
private let ruleCanonicals = Set(ruleCodes.values)

/// The issues of the rules under test, counted by our code (by our code or by the
/// canonical code, whatever the file).
private func ruleCounts(_ summary: GTFSLoadSummary) -> [String: Int] {
    var counts: [String: Int] = [:]
    for entry in summary.issues.entries
    where ruleCodes[entry.kind.code] != nil || entry.kind.canonical.map(ruleCanonicals.contains) == true {
        counts[entry.kind.code, default: 0] += entry.count
    }
    return counts
}

/// The examples of the rules under test, for failure messages.
private func ruleExamples(_ summary: GTFSLoadSummary) -> [GTFSIssue] {
    examples(summary).filter { ruleCodes[$0.code] != nil || $0.canonical.map(ruleCanonicals.contains) == true }
}

/// None of the rules under test raised.
private func expectNoRule(_ summary: GTFSLoadSummary, sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(ruleCounts(summary).isEmpty, "\(ruleExamples(summary))", sourceLocation: sourceLocation)
}

/// Loads the feed as it is and expects none of the rules under test: the fixture before its defect.
private func expectCleanBefore(_ feed: FeedFolder, sourceLocation: SourceLocation = #_sourceLocation) throws {
    let (summary, _) = try loadFeed(feed.path)
    expectNoRule(summary, sourceLocation: sourceLocation)
    #expect(summary.issues.count(.rowError) == 0 && summary.issues.count(.fieldError) == 0, "\(examples(summary))",
            sourceLocation: sourceLocation)
}

/// The one issue with `code`, the only one of the rules under test (recorded as a failure otherwise).
private func theIssue(_ summary: GTFSLoadSummary, _ code: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> GTFSIssue {
    #expect(ruleCounts(summary) == [code: 1], "\(ruleExamples(summary))", sourceLocation: sourceLocation)
    return try #require(issues(summary, code).first, "no \(code) in \(examples(summary))", sourceLocation: sourceLocation)
}

/// Our code and action, the canonical code and its severity (in the catalogue), and the place.
private func check(_ issue: GTFSIssue, code: String, severity: GTFSIssue.Severity,
                   file: String, line: Int?, field: String?, value: String?,
                   sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(issue.code == code, sourceLocation: sourceLocation)
    #expect(issue.canonical == ruleCodes[code], sourceLocation: sourceLocation)
    #expect(issue.severity == severity, sourceLocation: sourceLocation)
    // Every rule here is a canonical ERROR, whatever our action.
    #expect(issue.canonicalSeverity == .error, sourceLocation: sourceLocation)
    if let c = issue.canonical { #expect(CanonicalNotice.rules[c] != nil, "\(c) is not in CanonicalNotice.rules", sourceLocation: sourceLocation) }
    #expect(issue.file == file, sourceLocation: sourceLocation)
    #expect(issue.line == line, sourceLocation: sourceLocation)
    #expect(issue.field == field, sourceLocation: sourceLocation)
    #expect(issue.value == value, sourceLocation: sourceLocation)
}

/// The rows of `file` in the sink whose `column` is `id`.
private func rows(_ sink: RecordingSink, _ file: String, _ column: String, _ id: String) -> [[String: Value]] {
    sink.rows(file).filter { $0[column] == .text(id) }
}

/// A time of day as the sink gets it: seconds.
private func clock(_ h: Int, _ m: Int, _ s: Int = 0) -> Value { .int(h * 3600 + m * 60 + s) }

/// "H:MM:SS" as the sink gets it.
private func clock(_ text: String) -> Value {
    let p = text.split(separator: ":").map { Int($0)! }
    return clock(p[0], p[1], p[2])
}

// MARK: - google-sample's stops with stations

/// google-sample's stops.txt with location_type and parent_station columns (empty on its
/// nine stops, lines 2–10), then `rows` from line 11 on (replacing those of an earlier call).
private func writeStops(_ feed: FeedFolder, _ rows: [String]) throws {
    let stops = try lines(feed, "stops.txt")
    let header = "stop_id,stop_name,stop_desc,stop_lat,stop_lon,zone_id,stop_url"
    let nine: [String]
    if stops[0] == header {
        try #require(stops.count == 10)
        nine = stops.dropFirst().map { $0 + ",," }
    } else {
        try #require(stops[0] == header + ",location_type,parent_station" && stops.count >= 10)
        nine = Array(stops[1...9])
    }
    try writeLines(feed, "stops.txt", [header + ",location_type,parent_station"] + nine + rows)
}

/// A station, its platform and its entrance.
private let stationRows = [
    "STATION,Station,,36.9157,-116.7517,,,1,",
    "PLATFORM,Platform,,36.9157,-116.7517,,,0,STATION",
    "GOOD_ENTRANCE,Entrance,,36.9158,-116.7518,,,2,STATION",
]

/// The station's rows, then a generic node in it and a boarding area of its platform.
private let stationWithNodeRows = stationRows + [
    "NODE,Generic node,,,,,,3,STATION",
    "BOARDING,Boarding area,,,,,,4,PLATFORM",
]

// MARK: - Header

extension CanonicalErrorRuleTests {
    @Suite("Canonical errors: a column without a name")
    struct EmptyColumnNameRuleTests {
        @Test("a header column without a name: a warning on the header (empty_column_name), its values ignored, the rows loaded")
        func emptyColumnName() throws {
            try withFeed { feed in
                try expectCleanBefore(feed)
                try writeLines(feed, "agency.txt", [
                    "agency_id,agency_name,,agency_url,agency_timezone",
                    "DTA,Demo Transit Authority,something,http://google.com,America/Los_Angeles",
                ])
                let (summary, sink) = try loadFeed(feed.path, keeping: ["agency.txt"])
                let issue = try theIssue(summary, "EMPTY_COLUMN_NAME")
                check(issue, code: "EMPTY_COLUMN_NAME", severity: .warning, file: "agency.txt", line: 1, field: "column 3", value: nil)
                #expect(summary.issues.count(.rowError) == 0 && summary.issues.count(.fieldError) == 0, "\(examples(summary))")
                #expect(summary.issues.count(code: "EXTRA_COLUMN") == 0 && summary.issues.count(code: "DUPLICATE_COLUMN") == 0)
                #expect(summary.stats("agency.txt")?.rowsLoaded == 1)
                let agency = try row(sink, "agency.txt", "agency_id", "DTA")
                #expect(agency["agency_url"] == .text("http://google.com"))
                #expect(agency["agency_timezone"] == .text("America/Los_Angeles"))
                #expect(!agency.values.contains(.text("something")))
            }
        }

        @Test("a comma after the last column (rows ending with one too) is not a column: nothing raised")
        func trailingComma() throws {
            try withFeed { feed in
                try writeLines(feed, "agency.txt", [
                    "agency_id,agency_name,agency_url,agency_timezone,",
                    "DTA,Demo Transit Authority,http://google.com,America/Los_Angeles,",
                ])
                let (summary, sink) = try loadFeed(feed.path, keeping: ["agency.txt"])
                expectNoRule(summary)
                #expect(summary.issues.count(.rowError) == 0 && summary.issues.count(.fieldError) == 0, "\(examples(summary))")
                #expect(summary.issues.count(code: "DUPLICATE_COLUMN") == 0)
                #expect(try row(sink, "agency.txt", "agency_id", "DTA")["agency_url"] == .text("http://google.com"))
            }
        }

        @Test("two columns without a name: one empty_column_name each (canonical), not a column named twice")
        func twoEmptyColumnNames() throws {
            try withFeed { feed in
                try writeLines(feed, "agency.txt", [
                    "agency_id,,agency_name,,agency_url,agency_timezone",
                    "DTA,x,Demo Transit Authority,y,http://google.com,America/Los_Angeles",
                ])
                let (summary, sink) = try loadFeed(feed.path, keeping: ["agency.txt"])
                #expect(issues(summary, "EMPTY_COLUMN_NAME").map(\.field) == ["column 2", "column 4"], "\(examples(summary))")
                #expect(summary.issues.count(code: "DUPLICATE_COLUMN") == 0, "\(examples(summary))")
                #expect(summary.stats("agency.txt")?.rowsLoaded == 1)
                #expect(try row(sink, "agency.txt", "agency_id", "DTA")["agency_name"] == .text("Demo Transit Authority"))
            }
        }
    }
}

// MARK: - Forms of values

/// Every column that must have a form, with a good value.
private let goodForms: [String: String] = [
    "agency_url": "http://google.com",
    "agency_lang": "en",
    "agency_fare_url": "https://google.com/fares?zone=1",
    "agency_email": "info@google.com",
    "stop_url": "https://example.com/stops/AMV",
    "stop_timezone": "America/Los_Angeles",
    "route_url": "HTTPS://EXAMPLE.COM/routes/AB#map",
    "feed_publisher_url": "https://google.com",
    "feed_lang": "en",
    "default_lang": "pt-BR",
    "feed_contact_email": "first.last+feeds@mail.google.com",
    "feed_contact_url": "http://[::1]:8080/contact",
]

/// google-sample with every column of `goodForms` (agency.txt line 2; stops.txt line 10,
/// AMV; routes.txt line 2, AB; feed_info.txt line 2), `changes` replacing some.
private func writeForms(_ feed: FeedFolder, _ changes: [String: String] = [:]) throws {
    let f = goodForms.merging(changes) { $1 }
    try writeLines(feed, "agency.txt", [
        "agency_id,agency_name,agency_url,agency_timezone,agency_lang,agency_phone,agency_fare_url,agency_email",
        "DTA,Demo Transit Authority,\(f["agency_url"]!),America/Los_Angeles,\(f["agency_lang"]!),775-555-0100,\(f["agency_fare_url"]!),\(f["agency_email"]!)",
    ])
    var stops = try lines(feed, "stops.txt")
    try #require(stops.count == 10 && stops[9].hasPrefix("AMV,"))
    if !stops[0].hasSuffix(",stop_timezone") {   // (not written by an earlier call)
        stops[0] += ",stop_timezone"
        for i in 1..<9 { stops[i] += "," }
    }
    stops[9] = "AMV,Amargosa Valley (Demo),,36.641496,-116.400940,,\(f["stop_url"]!),\(f["stop_timezone"]!)"
    try writeLines(feed, "stops.txt", stops)
    var routes = try lines(feed, "routes.txt")
    try #require(routes[1].hasPrefix("AB,DTA,10,Airport - Bullfrog,,3,"))
    routes[1] = "AB,DTA,10,Airport - Bullfrog,,3,\(f["route_url"]!),,"
    try writeLines(feed, "routes.txt", routes)
    try writeLines(feed, "feed_info.txt", [
        "feed_publisher_name,feed_publisher_url,feed_lang,default_lang,feed_start_date,feed_end_date,feed_version,feed_contact_email,feed_contact_url",
        "Demo Transit Authority,\(f["feed_publisher_url"]!),\(f["feed_lang"]!),\(f["default_lang"]!),20070101,20101231,1,"
            + "\(f["feed_contact_email"]!),\(f["feed_contact_url"]!)",
    ])
}

/// Where each column of `goodForms` is: file, key column, key, line.
private let formPlaces: [String: (file: String, keyColumn: String, key: String, line: Int)] = [
    "agency_url": ("agency.txt", "agency_id", "DTA", 2),
    "agency_lang": ("agency.txt", "agency_id", "DTA", 2),
    "agency_fare_url": ("agency.txt", "agency_id", "DTA", 2),
    "agency_email": ("agency.txt", "agency_id", "DTA", 2),
    "stop_url": ("stops.txt", "stop_id", "AMV", 10),
    "stop_timezone": ("stops.txt", "stop_id", "AMV", 10),
    "route_url": ("routes.txt", "route_id", "AB", 2),
    "feed_publisher_url": ("feed_info.txt", "feed_publisher_name", "Demo Transit Authority", 2),
    "feed_lang": ("feed_info.txt", "feed_publisher_name", "Demo Transit Authority", 2),
    "default_lang": ("feed_info.txt", "feed_publisher_name", "Demo Transit Authority", 2),
    "feed_contact_email": ("feed_info.txt", "feed_publisher_name", "Demo Transit Authority", 2),
    "feed_contact_url": ("feed_info.txt", "feed_publisher_name", "Demo Transit Authority", 2),
]

private let formFiles: Set<String> = ["agency.txt", "stops.txt", "routes.txt", "feed_info.txt"]

extension CanonicalErrorRuleTests {
    @Suite("Canonical errors: URLs, e-mail addresses, languages and stop time zones")
    struct ValueFormRuleTests {
        @Test("every form column with a good value: nothing raised, every value loaded as written")
        func goodValues() throws {
            try withFeed { feed in
                try writeForms(feed)
                let (summary, sink) = try loadFeed(feed.path, keeping: formFiles)
                expectNoRule(summary)
                #expect(summary.issues.count(.rowError) == 0 && summary.issues.count(.fieldError) == 0, "\(examples(summary))")
                for (column, value) in goodForms.sorted(by: { $0.key < $1.key }) {
                    let place = try #require(formPlaces[column])
                    #expect(try row(sink, place.file, place.keyColumn, place.key)[column] == .text(value), "\(column)")
                }
            }
        }

        @Test("a value without its form: a field error (the canonical code of the form), stored as empty, the row loaded", arguments: [
            ("agency_url", "www.google.com", "BAD_URL"),
            ("agency_fare_url", "ftp://google.com/fares", "BAD_URL"),
            ("stop_url", "http://example.com/a b", "BAD_URL"),
            ("route_url", "https://", "BAD_URL"),
            ("feed_publisher_url", "google.com", "BAD_URL"),
            ("feed_contact_url", "mailto:feeds@google.com", "BAD_URL"),
            ("agency_email", "info@google", "BAD_EMAIL"),
            ("feed_contact_email", "feeds@@google.com", "BAD_EMAIL"),
            ("agency_lang", "english1", "BAD_LANGUAGE"),
            ("feed_lang", "e", "BAD_LANGUAGE"),
            ("default_lang", "pt_BR", "BAD_LANGUAGE"),
            ("stop_timezone", "America/Nowhere", "BAD_TIMEZONE"),
        ])
        func badValue(column: String, value: String, code: String) throws {
            try withFeed { feed in
                try writeForms(feed)
                try expectCleanBefore(feed)
                let before = try loadFeed(feed.path).0
                try writeForms(feed, [column: value])
                let (summary, sink) = try loadFeed(feed.path, keeping: formFiles)
                let place = try #require(formPlaces[column])
                let issue = try theIssue(summary, code)
                check(issue, code: code, severity: .fieldError, file: place.file, line: place.line, field: column, value: value)
                #expect(issue.message.hasSuffix("; stored as empty"), "\(issue.message)")
                #expect(summary.issues.count(.fieldError) == 1 && summary.issues.count(.rowError) == 0, "\(examples(summary))")
                for file in formFiles.sorted() {
                    #expect(summary.stats(file)?.rowsLoaded == before.stats(file)?.rowsLoaded, "\(file)")
                    #expect(summary.stats(file)?.rowsLoaded == summary.stats(file)?.rowsRead, "\(file)")
                }
                let loaded = try row(sink, place.file, place.keyColumn, place.key)
                #expect(loaded[column] == .null)
                // The row's other form values are kept.
                for (other, good) in goodForms where other != column && formPlaces[other]?.file == place.file {
                    #expect(loaded[other] == .text(good), "\(other)")
                }
            }
        }

        @Test("strict: a value without its form does not stop the load")
        func strictLoads() throws {
            try withFeed { feed in
                try writeForms(feed, ["stop_url": "www.example.com", "agency_email": "nobody", "feed_lang": "e"])
                let (summary, _) = try loadFeed(feed.path, strict: true)
                #expect(ruleCounts(summary) == ["BAD_URL": 1, "BAD_EMAIL": 1, "BAD_LANGUAGE": 1], "\(ruleExamples(summary))")
                #expect(summary.stats("stops.txt")?.rowsLoaded == 9)
            }
        }

        @Test("an agency_timezone that is not a time zone stays a row error (invalid_timezone): the agency is skipped")
        func agencyTimezone() throws {
            try withFeed { feed in
                let line = try appendLine(feed, "agency.txt", "OTHER,Other agency,http://example.com,America/Nowhere")
                let (summary, sink) = try loadFeed(feed.path, keeping: ["agency.txt"])
                let issue = try theIssue(summary, "BAD_TIMEZONE")
                check(issue, code: "BAD_TIMEZONE", severity: .rowError, file: "agency.txt", line: line, field: "agency_timezone",
                      value: "America/Nowhere")
                #expect(summary.stats("agency.txt")?.rowsRead == 2 && summary.stats("agency.txt")?.rowsLoaded == 1)
                #expect(rows(sink, "agency.txt", "agency_id", "OTHER").isEmpty)
                #expect(summary.agencyTimezones == ["America/Los_Angeles"])
            }
        }
    }
}

// MARK: - Agencies in different time zones

extension CanonicalErrorRuleTests {
    @Suite("Canonical errors: agencies in different time zones")
    struct AgencyTimezoneRuleTests {
        @Test("a second agency in another time zone: a warning (inconsistent_agency_timezone), the agency loaded")
        func differentZone() throws {
            try withFeed { feed in
                try expectCleanBefore(feed)
                let line = try appendLine(feed, "agency.txt", "OTHER,Other agency,http://example.com,America/New_York")
                let (summary, sink) = try loadFeed(feed.path, keeping: ["agency.txt"])
                let issue = try theIssue(summary, "AGENCY_TIMEZONES_DIFFER")
                check(issue, code: "AGENCY_TIMEZONES_DIFFER", severity: .warning, file: "agency.txt", line: line, field: "agency_timezone",
                      value: "America/New_York")
                #expect(issue.message.contains("America/Los_Angeles"), "\(issue.message)")
                #expect(summary.issues.count(.rowError) == 0 && summary.issues.count(.fieldError) == 0, "\(examples(summary))")
                #expect(summary.stats("agency.txt")?.rowsLoaded == 2)
                #expect(try row(sink, "agency.txt", "agency_id", "OTHER")["agency_timezone"] == .text("America/New_York"))
                #expect(summary.agencyTimezones == ["America/Los_Angeles", "America/New_York"])
            }
        }

        @Test("a second agency in the same time zone: nothing raised")
        func sameZone() throws {
            try withFeed { feed in
                try appendLine(feed, "agency.txt", "OTHER,Other agency,http://example.com,America/Los_Angeles")
                let (summary, _) = try loadFeed(feed.path)
                expectNoRule(summary)
                #expect(summary.stats("agency.txt")?.rowsLoaded == 2)
            }
        }

        @Test("a third agency back in the first one's zone after one in another: one warning, at the one in another zone")
        func threeAgencies() throws {
            try withFeed { feed in
                try appendLine(feed, "agency.txt", "EAST,East agency,http://example.com,America/New_York")
                try appendLine(feed, "agency.txt", "WEST,West agency,http://example.com,America/Los_Angeles")
                let (summary, _) = try loadFeed(feed.path)
                #expect(issues(summary, "AGENCY_TIMEZONES_DIFFER").map(\.line) == [3], "\(ruleExamples(summary))")
                #expect(ruleCounts(summary) == ["AGENCY_TIMEZONES_DIFFER": 1])
                #expect(summary.stats("agency.txt")?.rowsLoaded == 3)
            }
        }
    }
}

// MARK: - Stops

extension CanonicalErrorRuleTests {
    @Suite("Canonical errors: stops near a pole, locations without a parent or a name")
    struct StopLocationRuleTests {
        @Test("a stop past 89 degrees of latitude: a row error (point_near_pole), the stop skipped", arguments: [
            "89.5", "-89.0001", "90", "-90.0",
        ])
        func nearPole(latitude: String) throws {
            try withFeed { feed in
                try writeStops(feed, [])
                try expectCleanBefore(feed)
                try writeStops(feed, ["POLAR,Polar stop,,\(latitude),-116.76,,,0,"])
                let (summary, sink) = try loadFeed(feed.path, keeping: ["stops.txt"])
                check(try theIssue(summary, "COORDINATES_AT_POLE"), code: "COORDINATES_AT_POLE", severity: .rowError,
                      file: "stops.txt", line: 11, field: "stop_lat", value: latitude)
                #expect(summary.issues.count(.rowError) == 1, "\(examples(summary))")
                #expect(summary.stats("stops.txt")?.rowsRead == 10 && summary.stats("stops.txt")?.rowsLoaded == 9)
                #expect(rows(sink, "stops.txt", "stop_id", "POLAR").isEmpty)
            }
        }

        @Test("a platform without coordinates whose station is skipped near a pole cannot take the station's: not loaded")
        func childOfPolarStation() throws {
            try withFeed { feed in
                // As FeedLoaderBrokenInputTests.parentRejected, with coordinates that read but are skipped by this rule.
                try writeStops(feed, ["POLAR_STATION,Station,,89.5,-116.76,,,1,", "CHILD,Platform,,,,,,0,POLAR_STATION"])
                let (summary, sink) = try loadFeed(feed.path, keeping: ["stops.txt"])
                #expect(issues(summary, "COORDINATES_AT_POLE").map(\.line) == [11])
                #expect(rows(sink, "stops.txt", "stop_id", "POLAR_STATION").isEmpty)
                #expect(rows(sink, "stops.txt", "stop_id", "CHILD").isEmpty,
                        "loaded with the coordinates of a station that is not loaded: \(rows(sink, "stops.txt", "stop_id", "CHILD"))")
                #expect(summary.stats("stops.txt")?.rowsLoaded == 9)
            }
        }

        @Test("a stop at 89 degrees or nearer the equator loads", arguments: ["89", "-89", "88.9999", "-89.000"])
        func notNearPole(latitude: String) throws {
            try withFeed { feed in
                try writeStops(feed, ["NORTH,Far north,,\(latitude),-116.76,,,0,"])
                let (summary, sink) = try loadFeed(feed.path, keeping: ["stops.txt"])
                expectNoRule(summary)
                #expect(summary.stats("stops.txt")?.rowsLoaded == 10)
                #expect(try row(sink, "stops.txt", "stop_id", "NORTH")["stop_lat"] == .text(latitude))
            }
        }

        @Test("an entrance, a generic node or a boarding area without parent_station: a row error, the location skipped", arguments: [
            "LONE,Entrance,,36.91,-116.76,,,2,",
            "LONE,Generic node,,,,,,3,",
            "LONE,Generic node with coordinates,,36.91,-116.76,,,3,",
            "LONE,Boarding area,,,,,,4,",
        ])
        func noParentStation(row text: String) throws {
            try withFeed { feed in
                try writeStops(feed, stationWithNodeRows)
                try expectCleanBefore(feed)
                try writeStops(feed, [text] + stationWithNodeRows)
                let (summary, sink) = try loadFeed(feed.path, keeping: ["stops.txt"])
                let issue = try theIssue(summary, "NO_PARENT_STATION")
                check(issue, code: "NO_PARENT_STATION", severity: .rowError, file: "stops.txt", line: 11, field: "parent_station", value: nil)
                #expect(summary.issues.count(.rowError) == 1 && summary.issues.count(.fieldError) == 0, "\(examples(summary))")
                #expect(summary.stats("stops.txt")?.rowsRead == 15 && summary.stats("stops.txt")?.rowsLoaded == 14)
                #expect(rows(sink, "stops.txt", "stop_id", "LONE").isEmpty)
                #expect(try row(sink, "stops.txt", "stop_id", "NODE")["parent_station"] == .text("STATION"))
            }
        }

        @Test("a location whose parent is named but dropped (of the wrong type, or not there): only that field error, the location loaded",
              arguments: [
            ("CHILD,Entrance,,36.91,-116.76,,,2,PLATFORM", "WRONG_PARENT_TYPE", "PLATFORM"),
            ("CHILD,Generic node,,,,,,3,GOOD_ENTRANCE", "WRONG_PARENT_TYPE", "GOOD_ENTRANCE"),
            ("CHILD,Boarding area,,,,,,4,STATION", "WRONG_PARENT_TYPE", "STATION"),
            ("CHILD,Generic node,,,,,,3,NO_SUCH_STATION", "DANGLING_PARENT", "NO_SUCH_STATION"),
        ])
        func droppedParent(row text: String, code: String, parent: String) throws {
            try withFeed { feed in
                try writeStops(feed, [text] + stationWithNodeRows)
                let (summary, sink) = try loadFeed(feed.path, keeping: ["stops.txt"])
                expectNoRule(summary)
                #expect(summary.issues.count(code: code) == 1, "\(examples(summary))")
                #expect(issues(summary, code).first?.value == parent)
                #expect(summary.issues.count(.rowError) == 0 && summary.issues.count(.fieldError) == 1, "\(examples(summary))")
                #expect(summary.stats("stops.txt")?.rowsLoaded == 15)
                #expect(try row(sink, "stops.txt", "stop_id", "CHILD")["parent_station"] == .null)
            }
        }

        @Test("a stop, station or entrance without stop_name: a warning (missing_stop_name), loaded without a name", arguments: [
            "NONAME,,,36.91,-116.76,,,0,",
            "NONAME,,,36.91,-116.76,,,,",
            "NONAME,,,36.91,-116.76,,,1,",
            "NONAME,,,36.91,-116.76,,,2,STATION",
            "NONAME,,,36.91,-116.76,,,0,STATION",
        ])
        func noStopName(row text: String) throws {
            try withFeed { feed in
                try writeStops(feed, [text] + stationRows)
                let (summary, sink) = try loadFeed(feed.path, keeping: ["stops.txt"])
                let issue = try theIssue(summary, "NO_STOP_NAME")
                check(issue, code: "NO_STOP_NAME", severity: .warning, file: "stops.txt", line: 11, field: "stop_name", value: nil)
                #expect(summary.issues.count(.rowError) == 0 && summary.issues.count(.fieldError) == 0, "\(examples(summary))")
                #expect(summary.stats("stops.txt")?.rowsLoaded == 13)
                let stop = try row(sink, "stops.txt", "stop_id", "NONAME")
                #expect(stop["stop_name"] == .null)
                #expect(stop["stop_lat"] == .text("36.91"))
            }
        }

        @Test("a generic node or a boarding area without stop_name: nothing raised (the name is optional there)")
        func nodesNeedNoName() throws {
            try withFeed { feed in
                try writeStops(feed, stationRows + ["NAMELESS_NODE,,,,,,,3,STATION", "NAMELESS_BOARDING,,,,,,,4,PLATFORM"])
                let (summary, sink) = try loadFeed(feed.path, keeping: ["stops.txt"])
                expectNoRule(summary)
                #expect(summary.issues.count(.rowError) == 0 && summary.issues.count(.fieldError) == 0, "\(examples(summary))")
                #expect(summary.stats("stops.txt")?.rowsLoaded == 14)
                #expect(try row(sink, "stops.txt", "stop_id", "NAMELESS_BOARDING")["stop_name"] == .null)
            }
        }
    }
}

// MARK: - Stop times at locations that are not stops

extension CanonicalErrorRuleTests {
    @Suite("Canonical errors: a stop time at a station, entrance, node or boarding area")
    struct StopTimeLocationRuleTests {
        /// CITY1's third stop (stop_times.txt line 6, NADAV) moved to `stop`.
        @Test("a row error (location_with_unexpected_stop_time), the stop time skipped, the trip kept", arguments: [
            ("STATION", 1), ("GOOD_ENTRANCE", 2), ("NODE", 3), ("BOARDING", 4),
        ])
        func notAStop(stop: String, type: Int) throws {
            try withFeed { feed in
                try writeStops(feed, stationWithNodeRows)
                try expectCleanBefore(feed)
                try feed.replace("stop_times.txt", "CITY1,6:12:00,6:14:00,NADAV,3,", with: "CITY1,6:12:00,6:14:00,\(stop),3,")
                let (summary, sink) = try loadFeed(feed.path, keeping: ["stop_times.txt"])
                let issue = try theIssue(summary, "NOT_A_STOP")
                check(issue, code: "NOT_A_STOP", severity: .rowError, file: "stop_times.txt", line: 6, field: "stop_id", value: stop)
                #expect(issue.message.contains("location_type \(type)"), "\(issue.message)")
                #expect(summary.issues.count(.rowError) == 1, "\(examples(summary))")
                #expect(summary.stats("stop_times.txt")?.rowsRead == 28 && summary.stats("stop_times.txt")?.rowsLoaded == 27)
                #expect(sink.leftOut.isEmpty)
                #expect(rows(sink, "stop_times.txt", "trip_id", "CITY1").map { $0["stop_sequence"] } == [.int(1), .int(2), .int(4), .int(5)])
            }
        }

        @Test("a stop time at a platform (a stop with a parent station) loads")
        func atPlatform() throws {
            try withFeed { feed in
                try writeStops(feed, stationWithNodeRows)
                try feed.replace("stop_times.txt", "CITY1,6:12:00,6:14:00,NADAV,3,", with: "CITY1,6:12:00,6:14:00,PLATFORM,3,")
                let (summary, sink) = try loadFeed(feed.path, keeping: ["stop_times.txt"])
                expectNoRule(summary)
                #expect(summary.stats("stop_times.txt")?.rowsLoaded == 28)
                #expect(rows(sink, "stop_times.txt", "stop_id", "PLATFORM").count == 1)
            }
        }
    }
}

// MARK: - Pathways

/// google-sample with a pathways.txt: a two-way walkway between two stops at line 2, then `rows` from line 3.
private func writePathways(_ feed: FeedFolder, _ rows: [String]) throws {
    try writeLines(feed, "pathways.txt", ["pathway_id,from_stop_id,to_stop_id,pathway_mode,is_bidirectional,length,traversal_time",
                                          "WALK,STAGECOACH,NADAV,1,1,12.5,30"] + rows)
}

/// The station's rows with a node and a boarding area on PLATFORM, and a second platform without one.
private let pathwayStops = stationWithNodeRows + ["PLATFORM_2,Second platform,,36.9157,-116.7517,,,0,STATION"]

extension CanonicalErrorRuleTests {
    @Suite("Canonical errors: pathways to a station or to a platform that has boarding areas")
    struct PathwayLocationRuleTests {
        @Test("pathways between an entrance, a node, a boarding area and a platform without boarding areas: nothing raised")
        func goodPathways() throws {
            try withFeed { feed in
                try writeStops(feed, pathwayStops)
                try writePathways(feed, ["IN,GOOD_ENTRANCE,NODE,1,1,,", "DOWN,NODE,BOARDING,2,1,,", "ACROSS,NODE,PLATFORM_2,1,0,,"])
                try expectCleanBefore(feed)
                let (summary, _) = try loadFeed(feed.path)
                #expect(summary.stats("pathways.txt")?.rowsLoaded == 4)
            }
        }

        @Test("a pathway that ends at a station or at a platform with boarding areas: a row error, the pathway skipped", arguments: [
            ("P,STATION,GOOD_ENTRANCE,1,1,,", "PATHWAY_TO_STATION", "from_stop_id", "STATION"),
            ("P,GOOD_ENTRANCE,STATION,1,1,,", "PATHWAY_TO_STATION", "to_stop_id", "STATION"),
            ("P,PLATFORM,NODE,1,1,,", "PATHWAY_TO_PLATFORM", "from_stop_id", "PLATFORM"),
            ("P,NODE,PLATFORM,1,0,,", "PATHWAY_TO_PLATFORM", "to_stop_id", "PLATFORM"),
        ])
        func wrongEnd(row text: String, code: String, field: String, value: String) throws {
            try withFeed { feed in
                try writeStops(feed, pathwayStops)
                try writePathways(feed, ["IN,GOOD_ENTRANCE,NODE,1,1,,", text])
                let (summary, sink) = try loadFeed(feed.path, keeping: ["pathways.txt"])
                check(try theIssue(summary, code), code: code, severity: .rowError, file: "pathways.txt", line: 4, field: field, value: value)
                #expect(summary.issues.count(.rowError) == 1, "\(examples(summary))")
                #expect(summary.stats("pathways.txt")?.rowsRead == 3 && summary.stats("pathways.txt")?.rowsLoaded == 2)
                #expect(sink.rows("pathways.txt").compactMap { $0["pathway_id"] } == [.text("WALK"), .text("IN")])
            }
        }
    }
}

// MARK: - Transfers

/// google-sample with a transfers.txt naming routes and trips: a valid transfer at line 2
/// (AB1 on route AB to BFC1 on route BFC), then `rows` from line 3.
private func writeTransfers(_ feed: FeedFolder, _ rows: [String]) throws {
    try writeLines(feed, "transfers.txt", ["from_stop_id,to_stop_id,transfer_type,min_transfer_time,from_route_id,to_route_id,from_trip_id,to_trip_id",
                                           "BULLFROG,BULLFROG,1,,AB,BFC,AB1,BFC1"] + rows)
}

extension CanonicalErrorRuleTests {
    @Suite("Canonical errors: transfers at the wrong location type, or naming a trip not on the route named")
    struct TransferRuleTests {
        @Test("transfers between stops and stations, a route without a trip, a trip without a route: nothing raised")
        func goodTransfers() throws {
            try withFeed { feed in
                try writeStops(feed, stationWithNodeRows)
                try writeTransfers(feed, ["STATION,STAGECOACH,2,120,,,,", "PLATFORM,STATION,0,,,,,", "BULLFROG,BULLFROG,1,,BFC,,,AB2"])
                try expectCleanBefore(feed)
                let (summary, _) = try loadFeed(feed.path)
                #expect(summary.stats("transfers.txt")?.rowsLoaded == 4)
            }
        }

        @Test("a transfer at an entrance, a node or a boarding area: a row error, the transfer skipped", arguments: [
            ("GOOD_ENTRANCE,STAGECOACH,0,,,,,", "from_stop_id", "GOOD_ENTRANCE"),
            ("STAGECOACH,NODE,0,,,,,", "to_stop_id", "NODE"),
            ("BOARDING,STATION,0,,,,,", "from_stop_id", "BOARDING"),
        ])
        func wrongLocationType(row text: String, field: String, value: String) throws {
            try withFeed { feed in
                try writeStops(feed, stationWithNodeRows)
                try writeTransfers(feed, [text])
                let (summary, sink) = try loadFeed(feed.path, keeping: ["transfers.txt"])
                check(try theIssue(summary, "TRANSFER_AT_WRONG_TYPE"), code: "TRANSFER_AT_WRONG_TYPE", severity: .rowError,
                      file: "transfers.txt", line: 3, field: field, value: value)
                #expect(summary.issues.count(.rowError) == 1, "\(examples(summary))")
                #expect(summary.stats("transfers.txt")?.rowsRead == 2 && summary.stats("transfers.txt")?.rowsLoaded == 1)
                #expect(sink.rows("transfers.txt").map { $0["line_number"] } == [.int(2)])
            }
        }

        @Test("a transfer naming a trip that is not on the route it names: a row error, the transfer skipped", arguments: [
            ("BULLFROG,BULLFROG,1,,BFC,BFC,AB1,BFC1", "from_trip_id", "AB1"),
            ("BULLFROG,BULLFROG,1,,AB,AB,AB1,BFC1", "to_trip_id", "BFC1"),
        ])
        func tripNotOnRoute(row text: String, field: String, value: String) throws {
            try withFeed { feed in
                try writeTransfers(feed, [text])
                let (summary, sink) = try loadFeed(feed.path, keeping: ["transfers.txt"])
                check(try theIssue(summary, "TRANSFER_TRIP_NOT_ON_ROUTE"), code: "TRANSFER_TRIP_NOT_ON_ROUTE", severity: .rowError,
                      file: "transfers.txt", line: 3, field: field, value: value)
                #expect(summary.issues.count(.rowError) == 1, "\(examples(summary))")
                #expect(summary.stats("transfers.txt")?.rowsRead == 2 && summary.stats("transfers.txt")?.rowsLoaded == 1)
                #expect(sink.rows("transfers.txt").map { $0["line_number"] } == [.int(2)])
            }
        }
    }
}

// MARK: - Routes

extension CanonicalErrorRuleTests {
    @Suite("Canonical errors: a route without a name")
    struct RouteNameRuleTests {
        @Test("a route with neither a short nor a long name: a warning, the route loaded")
        func noName() throws {
            try withFeed { feed in
                try expectCleanBefore(feed)
                try feed.replace("routes.txt", "AB,DTA,10,Airport - Bullfrog,,3,,,", with: "AB,DTA,,,,3,,,")
                let (summary, sink) = try loadFeed(feed.path, keeping: ["routes.txt"])
                check(try theIssue(summary, "NO_ROUTE_NAME"), code: "NO_ROUTE_NAME", severity: .warning,
                      file: "routes.txt", line: 2, field: "route_short_name", value: nil)
                #expect(summary.issues.count(.rowError) == 0 && summary.issues.count(.fieldError) == 0, "\(examples(summary))")
                #expect(summary.stats("routes.txt")?.rowsLoaded == 5)
                #expect(summary.stats("trips.txt")?.rowsLoaded == 11)
                let route = try row(sink, "routes.txt", "route_id", "AB")
                #expect(route["route_short_name"] == .null && route["route_long_name"] == .null)
                #expect(route["route_type"] == .int(3))
            }
        }

        @Test("a route with only one of the two names: nothing raised", arguments: ["AB,DTA,10,,,3,,,", "AB,DTA,,Airport - Bullfrog,,3,,,"])
        func oneName(text: String) throws {
            try withFeed { feed in
                try feed.replace("routes.txt", "AB,DTA,10,Airport - Bullfrog,,3,,,", with: text)
                let (summary, _) = try loadFeed(feed.path)
                expectNoRule(summary)
                #expect(summary.stats("routes.txt")?.rowsLoaded == 5)
            }
        }
    }
}

// MARK: - Edges of trips

extension CanonicalErrorRuleTests {
    /// google-sample's stop_times.txt: 28 rows, lines 2–29. STBA 2–3; CITY1 4–8 (stop_sequence
    /// 1–5: 6:00, 6:05–6:07, 6:12–6:14, 6:19–6:21, 6:26–6:28); CITY2 9–13; AB1 14–15; then
    /// AB2, BFC1, BFC2, AAMV1–4, two rows each.
    @Suite("Canonical errors: a trip with one stop time, or without a time at its first or last stop, is left out")
    struct TripEdgeRuleTests {
        /// The sink holds google-sample's stop times (`read` of them in the file) but `trips`'
        /// `rows`, none of theirs.
        private func expectLeftOut(_ summary: GTFSLoadSummary, _ sink: RecordingSink, trips: [String], rows: Int, read: Int = 28,
                                   sourceLocation: SourceLocation = #_sourceLocation) {
            #expect(sink.leftOut == trips, sourceLocation: sourceLocation)
            let stats = summary.stats("stop_times.txt")
            #expect(stats?.rowsRead == read, sourceLocation: sourceLocation)
            #expect(stats?.rowsLoaded == read - rows, sourceLocation: sourceLocation)
            #expect(sink.rowCounts["stop_times.txt"] == read - rows, sourceLocation: sourceLocation)
            #expect(sink.rows("stop_times.txt").count == read - rows, sourceLocation: sourceLocation)
            let kept = Set(sink.rows("stop_times.txt").compactMap { if case .text(let t)? = $0["trip_id"] { return t }; return nil })
            #expect(kept.isDisjoint(with: trips), sourceLocation: sourceLocation)
            #expect(kept.count == 11 - trips.count, sourceLocation: sourceLocation)
            #expect(summary.issues.count(.rowError) == trips.count, "\(examples(summary))", sourceLocation: sourceLocation)
            // The trips themselves stay, without stop times.
            #expect(summary.stats("trips.txt")?.rowsLoaded == 11, sourceLocation: sourceLocation)
        }

        @Test("the unmodified feed: no trip left out")
        func clean() throws {
            let (summary, sink) = try loadFeed(bundledFeed("google-sample.zip"), keeping: ["stop_times.txt"])
            expectNoRule(summary)
            #expect(sink.leftOut.isEmpty)
            #expect(summary.stats("stop_times.txt")?.rowsLoaded == 28)
        }

        @Test("a trip with a single stop time: a row error (missing_stop_times_record), the trip left out")
        func oneStopTime() throws {
            try withFeed { feed in
                var st = try lines(feed, "stop_times.txt")
                try #require(st[14] == "AB1,8:10:00,8:15:00,BULLFROG,2,,,,")
                st.remove(at: 14)   // AB1 keeps line 14 alone
                try writeLines(feed, "stop_times.txt", st)
                let (summary, sink) = try loadFeed(feed.path, keeping: ["stop_times.txt"])
                let issue = try theIssue(summary, "ONE_STOP_TIME")
                check(issue, code: "ONE_STOP_TIME", severity: .rowError, file: "stop_times.txt", line: 14, field: "trip_id", value: "AB1")
                #expect(issue.message.hasSuffix("trip AB1 is left out"), "\(issue.message)")
                expectLeftOut(summary, sink, trips: ["AB1"], rows: 1, read: 27)
            }
        }

        @Test("strict: a trip with a single stop time stops the load")
        func oneStopTimeStrict() throws {
            try withFeed { feed in
                var st = try lines(feed, "stop_times.txt")
                st.remove(at: 14)
                try writeLines(feed, "stop_times.txt", st)
                let issue = thrownFatal { _ = try loadFeed(feed.path, strict: true) }
                #expect(issue?.code == "ONE_STOP_TIME" && issue?.severity == .rowError && issue?.line == 14)
            }
        }

        @Test("a trip whose rows come in two runs, one of them a single row: not a trip with one stop time, all loaded")
        func splitTripOneRowRun() throws {
            try withFeed { feed in
                var st = try lines(feed, "stop_times.txt")
                // CITY1's last stop (sequence 5) moved to the end of the file (line 29).
                let moved = st.remove(at: 7)
                try #require(moved == "CITY1,6:26:00,6:28:00,EMSI,5,,,,")
                try writeLines(feed, "stop_times.txt", st + [moved])
                let (summary, sink) = try loadFeed(feed.path, keeping: ["stop_times.txt"])
                expectNoRule(summary)
                #expect(sink.leftOut.isEmpty)
                #expect(summary.stats("stop_times.txt")?.rowsLoaded == 28)
                #expect(rows(sink, "stop_times.txt", "trip_id", "CITY1").count == 5)
            }
        }

        @Test("a first or last stop time without a time: a row error (missing_trip_edge) at it, the trip left out", arguments: [
            ("CITY1,6:00:00,6:00:00,STAGECOACH,1,", "CITY1,,,STAGECOACH,1,", 4, "first"),
            ("CITY1,6:26:00,6:28:00,EMSI,5,", "CITY1,,,EMSI,5,", 8, "last"),
            ("AB1,8:00:00,8:00:00,BEATTY_AIRPORT,1,", "AB1,,,BEATTY_AIRPORT,1,", 14, "first"),
        ])
        func tripEdgeWithoutTime(old: String, new: String, line: Int, end: String) throws {
            try withFeed { feed in
                try feed.replace("stop_times.txt", old, with: new)
                let (summary, sink) = try loadFeed(feed.path, keeping: ["stop_times.txt"])
                let issue = try theIssue(summary, "TRIP_END_WITHOUT_TIME")
                check(issue, code: "TRIP_END_WITHOUT_TIME", severity: .rowError, file: "stop_times.txt", line: line, field: "arrival_time", value: nil)
                #expect(issue.message.contains("\(end) stop time"), "\(issue.message)")
                let trip = String(old.prefix { $0 != "," })
                expectLeftOut(summary, sink, trips: [trip], rows: trip == "CITY1" ? 5 : 2)
            }
        }

        @Test("the first stop by stop_sequence, not by line: CITY1's rows in reverse order, sequence 1 untimed on the last line")
        func tripEdgeBySequence() throws {
            try withFeed { feed in
                var st = try lines(feed, "stop_times.txt")
                st[3] = "CITY1,,,STAGECOACH,1,,,,"
                st[3...7].reverse()   // lines 4–8: sequences 5, 4, 3, 2, 1
                try writeLines(feed, "stop_times.txt", st)
                let (summary, sink) = try loadFeed(feed.path, keeping: ["stop_times.txt"])
                let issue = try theIssue(summary, "TRIP_END_WITHOUT_TIME")
                #expect(issue.line == 8 && issue.message.contains("first stop time"), "\(issue)")
                expectLeftOut(summary, sink, trips: ["CITY1"], rows: 5)
            }
        }

        @Test("a stop time without times between two timed ones: nothing raised, loaded without times")
        func untimedMiddle() throws {
            try withFeed { feed in
                try feed.replace("stop_times.txt", "CITY1,6:12:00,6:14:00,NADAV,3,", with: "CITY1,,,NADAV,3,")
                let (summary, sink) = try loadFeed(feed.path, keeping: ["stop_times.txt"])
                expectNoRule(summary)
                #expect(summary.issues.count(.rowError) == 0, "\(examples(summary))")
                #expect(summary.stats("stop_times.txt")?.rowsLoaded == 28)
                let third = try #require(rows(sink, "stop_times.txt", "trip_id", "CITY1").first { $0["stop_sequence"] == .int(3) })
                #expect(third["arrival_time"] == .null && third["departure_time"] == .null)
            }
        }

        @Test("a trip in two runs of rows, the first ending at an untimed stop in the middle of the trip: not a trip edge, all loaded")
        func splitTripUntimedMiddle() throws {
            try withFeed { feed in
                var st = try lines(feed, "stop_times.txt")
                // CITY1's sequence 3 untimed; sequences 4 and 5 moved to the end (lines 28, 29): the first run ends at sequence 3.
                st[5] = "CITY1,,,NADAV,3,,,,"
                let moved = Array(st[6...7])
                st.removeSubrange(6...7)
                try writeLines(feed, "stop_times.txt", st + moved)
                let (summary, sink) = try loadFeed(feed.path, keeping: ["stop_times.txt"])
                expectNoRule(summary)
                #expect(sink.leftOut.isEmpty)
                #expect(summary.stats("stop_times.txt")?.rowsLoaded == 28)
            }
        }
    }
}

// MARK: - Times of one stop time

/// google-sample's stop_times.txt with a timepoint column (empty on every row).
private func addTimepointColumn(_ feed: FeedFolder) throws {
    let st = try lines(feed, "stop_times.txt")
    try writeLines(feed, "stop_times.txt", [st[0] + ",timepoint"] + st.dropFirst().map { $0 + "," })
}

extension CanonicalErrorRuleTests {
    @Suite("Canonical errors: a stop time with one of its two times, a timepoint without times")
    struct StopTimeTimesRuleTests {
        @Test("only an arrival or only a departure: a warning naming the missing one, the stop time loaded as written", arguments: [
            ("CITY1,6:05:00,,NANAA,2,", "departure_time", clock(6, 5), Value.null),
            ("CITY1,,6:07:00,NANAA,2,", "arrival_time", .null, clock(6, 7)),
        ])
        func oneTimeOnly(text: String, field: String, arrival: Value, departure: Value) throws {
            try withFeed { feed in
                try feed.replace("stop_times.txt", "CITY1,6:05:00,6:07:00,NANAA,2,", with: text)
                let (summary, sink) = try loadFeed(feed.path, keeping: ["stop_times.txt"])
                check(try theIssue(summary, "ONE_TIME_ONLY"), code: "ONE_TIME_ONLY", severity: .warning,
                      file: "stop_times.txt", line: 5, field: field, value: nil)
                #expect(summary.issues.count(.rowError) == 0 && summary.issues.count(.fieldError) == 0, "\(examples(summary))")
                #expect(sink.leftOut.isEmpty)
                #expect(summary.stats("stop_times.txt")?.rowsLoaded == 28)
                let second = try #require(rows(sink, "stop_times.txt", "trip_id", "CITY1").first { $0["stop_sequence"] == .int(2) })
                #expect(second["arrival_time"] == arrival && second["departure_time"] == departure)
                #expect(second["stop_id"] == .text("NANAA"))
            }
        }

        @Test("a trip's first stop with only an arrival: only ONE_TIME_ONLY (the trip's edge has a time), the trip kept")
        func oneTimeAtEdge() throws {
            try withFeed { feed in
                try feed.replace("stop_times.txt", "CITY1,6:00:00,6:00:00,STAGECOACH,1,", with: "CITY1,6:00:00,,STAGECOACH,1,")
                let (summary, _) = try loadFeed(feed.path)
                #expect(ruleCounts(summary) == ["ONE_TIME_ONLY": 1], "\(ruleExamples(summary))")
                #expect(summary.stats("stop_times.txt")?.rowsLoaded == 28)
            }
        }

        @Test("a timepoint (timepoint 1) without times: a warning, the stop time loaded as written")
        func timepointWithoutTimes() throws {
            try withFeed { feed in
                try addTimepointColumn(feed)
                try expectCleanBefore(feed)
                try feed.replace("stop_times.txt", "CITY1,6:12:00,6:14:00,NADAV,3,,,,,", with: "CITY1,,,NADAV,3,,,,,1")
                let (summary, sink) = try loadFeed(feed.path, keeping: ["stop_times.txt"])
                check(try theIssue(summary, "TIMEPOINT_WITHOUT_TIMES"), code: "TIMEPOINT_WITHOUT_TIMES", severity: .warning,
                      file: "stop_times.txt", line: 6, field: "timepoint", value: "1")
                #expect(summary.issues.count(.rowError) == 0 && summary.issues.count(.fieldError) == 0, "\(examples(summary))")
                #expect(summary.stats("stop_times.txt")?.rowsLoaded == 28)
                let third = try #require(rows(sink, "stop_times.txt", "trip_id", "CITY1").first { $0["stop_sequence"] == .int(3) })
                #expect(third["timepoint"] == .int(1))
                #expect(third["arrival_time"] == .null && third["departure_time"] == .null)
            }
        }

        @Test("no times with timepoint 0 or empty, times with timepoint 1: nothing raised", arguments: [
            "CITY1,,,NADAV,3,,,,,0", "CITY1,,,NADAV,3,,,,,", "CITY1,6:12:00,6:14:00,NADAV,3,,,,,1",
        ])
        func timepointFine(text: String) throws {
            try withFeed { feed in
                try addTimepointColumn(feed)
                try feed.replace("stop_times.txt", "CITY1,6:12:00,6:14:00,NADAV,3,,,,,", with: text)
                let (summary, _) = try loadFeed(feed.path)
                expectNoRule(summary)
                #expect(summary.stats("stop_times.txt")?.rowsLoaded == 28)
            }
        }

        @Test("a timepoint with only one time: ONE_TIME_ONLY alone")
        func timepointWithOneTime() throws {
            try withFeed { feed in
                try addTimepointColumn(feed)
                try feed.replace("stop_times.txt", "CITY1,6:12:00,6:14:00,NADAV,3,,,,,", with: "CITY1,6:12:00,,NADAV,3,,,,,1")
                let (summary, _) = try loadFeed(feed.path)
                #expect(ruleCounts(summary) == ["ONE_TIME_ONLY": 1], "\(ruleExamples(summary))")
            }
        }
    }
}

// MARK: - Frequencies

extension CanonicalErrorRuleTests {
    /// google-sample's frequencies.txt: lines 2–12; STBA 6:00–22:00 (line 2), CITY1 6:00–7:59:59
    /// (line 3), 8:00–9:59:59 (line 5), 10:00–15:59:59, 16:00–18:59:59, 19:00–22:00.
    @Suite("Canonical errors: overlapping frequencies of a trip")
    struct FrequencyOverlapRuleTests {
        @Test("a period overlapping an earlier one of the same trip: a row error, the later period skipped", arguments: [
            ("STBA,21:00:00,23:00:00,600", "21:00:00", 2),
            ("STBA,5:00:00,23:00:00,600", "5:00:00", 2),      // containing it
            ("STBA,5:00:00,6:30:00,600", "5:00:00", 2),       // starting before it
            ("CITY1,7:00:00,8:30:00,600", "7:00:00", 3),      // across two: the first is named
        ])
        func overlap(text: String, start: String, other: Int) throws {
            try withFeed { feed in
                try expectCleanBefore(feed)
                let line = try appendLine(feed, "frequencies.txt", text)
                let (summary, sink) = try loadFeed(feed.path, keeping: ["frequencies.txt"])
                let issue = try theIssue(summary, "FREQUENCIES_OVERLAP")
                check(issue, code: "FREQUENCIES_OVERLAP", severity: .rowError, file: "frequencies.txt", line: line, field: "start_time", value: start)
                #expect(issue.message.contains("line \(other)"), "\(issue.message)")
                #expect(summary.issues.count(.rowError) == 1, "\(examples(summary))")
                #expect(summary.stats("frequencies.txt")?.rowsRead == 12 && summary.stats("frequencies.txt")?.rowsLoaded == 11)
                #expect(sink.rows("frequencies.txt").count == 11)
                let trip = String(text.prefix { $0 != "," })
                #expect(!sink.rows("frequencies.txt").contains { $0["trip_id"] == .text(trip) && $0["start_time"] == clock(start) })
            }
        }

        @Test("periods that touch (one ends when the next starts), or of another trip: nothing raised", arguments: [
            "STBA,22:00:00,23:00:00,600", "STBA,5:00:00,6:00:00,600", "CITY2,22:00:00,23:00:00,600", "AB1,6:00:00,22:00:00,600",
        ])
        func touching(text: String) throws {
            try withFeed { feed in
                try appendLine(feed, "frequencies.txt", text)
                let (summary, _) = try loadFeed(feed.path)
                expectNoRule(summary)
                #expect(summary.stats("frequencies.txt")?.rowsLoaded == 12)
            }
        }
    }
}

// MARK: - Bundled and shared feeds

extension CanonicalErrorRuleTests {
    @Suite("Canonical errors on real feeds: none of these rules raised")
    struct CanonicalErrorRuleRealFeedTests {
        @Test("the bundled feeds", arguments: ["google-sample.zip", "caltrain.zip", "bart-2018.zip"])
        func bundled(name: String) throws {
            let (summary, _) = try loadFeed(bundledFeed(name))
            expectNoRule(summary)
        }

        @Test("every shared feed (canonical validators raise none of these rules there)", arguments: [
            "bart-2018.zip", "bydgoszcz-2020.zip", "caltrain.zip", "google-sample.zip", "mexico-city-2018.zip", "milan-atm-2014.zip",
            "nyc-subway-2018.zip", "porto-alegre-eptc-2019.zip", "porto-alegre-trensurb-2019.zip", "sacramento-sacrt-2024.zip",
            "vilnius-2015.zip", "wmata-rail-2026.zip",
        ])
        func shared(name: String) throws {
            let sink = RecordingSink()
            let summary = try GTFSFeedLoader(source: try openFeed(at: try requireSharedFeed(name)), examplesPerKind: 20).load(into: sink)
            expectNoRule(summary)
        }
    }
}

// MARK: - FieldParsing

extension CanonicalErrorRuleTests {
    @Suite("FieldParsing: the forms of URLs, e-mail addresses and language codes")
    struct FieldFormParsingTests {
        @Test("web addresses: http:// or https://, a host, no spaces", arguments: [
            ("https://www.bart.gov", true),
            ("http://www.bart.gov/schedules/bylineresults?route=1", true),
            ("http://google.com", true),
            ("HTTPS://EXAMPLE.COM/Routes", true),
            ("http://localhost:8080/x", true),
            ("http://[::1]/", true),
            ("https://example.com?q=a%20b", true),
            ("https://example.com#top", true),
            ("https://bydgoszcz.pl/komunikacja/ŁĄCZNIK", true),
            ("http://example.com/a b", false),
            ("http://exa mple.com", false),
            ("ftp://x", false),
            ("www.bart.gov", false),
            ("bart.gov", false),
            ("https://", false),
            ("http:///path", false),
            ("http://?q=1", false),
            ("http:/example.com", false),
            ("http//example.com", false),
            ("httpx://example.com", false),
            ("mailto:info@bart.gov", false),
            ("http://example.com/\ttab", false),
            ("http://:8080/", false),   // a port without a host
            ("", false),
        ])
        func url(text: String, valid: Bool) {
            #expect(parses(text, FieldParsing.isURL) == valid, "\(text.debugDescription)")
        }

        @Test("e-mail addresses: local@domain.tld, one @, no spaces", arguments: [
            ("info@bart.gov", true),
            ("first.last+feeds@mail.example.co.uk", true),
            ("a@b.cd", true),
            ("info", false),
            ("info@", false),
            ("@bart.gov", false),
            ("info@bart", false),
            ("info@.gov", false),
            ("info@bart.", false),
            ("in fo@bart.gov", false),
            ("info@@bart.gov", false),
            ("a@b@c.de", false),
            ("info@bart.gov;help@bart.gov", false),
            ("info@bart.gov,help@bart.gov", false),
            ("", false),
        ])
        func email(text: String, valid: Bool) {
            #expect(parses(text, FieldParsing.isEmail) == valid, "\(text.debugDescription)")
        }

        @Test("language codes: the shape of a BCP 47 tag", arguments: [
            ("en", true),
            ("EN", true),
            ("pt-BR", true),
            ("zh-Hans-CN", true),
            ("es-419", true),
            ("fil", true),
            ("de-CH-1901", true),
            ("sgn-BE-FR", true),
            ("en-US-x-twain", true),
            ("e", false),
            ("english1", false),
            ("en_US", false),
            ("en US", false),
            ("en-", false),
            ("-en", false),
            ("en--US", false),
            ("123", false),
            ("e1", false),
            ("en-abcdefghi", false),
            ("abcdefghi", false),
            ("", false),
        ])
        func language(text: String, valid: Bool) {
            #expect(parses(text, FieldParsing.isLanguageCode) == valid, "\(text.debugDescription)")
        }
    }
}
