import Foundation
import Testing
import GTFS
import TransitModel

// The canonical rules that need more than one row (`FeedRules`, and the services, metadata
// and date checks of `GTFSFeedLoader`): each one made to fire by one defect in a copy of a
// bundled feed, with the notice's codes, severities and place, and the rows loaded as they
// were. Then the rules of `today:` on two days each, and the counts on the shared real feeds
// that MobilityData-rule validators report on them.

// MARK: - Helpers

/// A feed (folder or zip) loaded into a recording sink, every example kept.
private func load(_ path: String, today: ServiceDate? = nil, keeping files: Set<String> = []) throws -> (GTFSLoadSummary, RecordingSink) {
    let sink = RecordingSink(keeping: files)
    let summary = try GTFSFeedLoader(source: try openFeed(at: path), today: today, examplesPerKind: 1_000).load(into: sink)
    return (summary, sink)
}

/// A day written YYYY-MM-DD.
private func day(_ iso: String) -> ServiceDate { ServiceDate.parse(iso8601: iso)! }

/// feed_info.txt with one row (line 2); nil leaves a value empty.
private func writeFeedInfo(_ feed: FeedFolder, start: String? = "20070101", end: String? = "20101231", version: String? = "1.0",
                           email: String? = "feeds@example.com", url: String? = nil) throws {
    try feed.write("feed_info.txt", "feed_publisher_name,feed_publisher_url,feed_lang,feed_start_date,feed_end_date,feed_version,"
                   + "feed_contact_email,feed_contact_url\n"
                   + "Demo Transit Authority,http://google.com,en,\(start ?? ""),\(end ?? ""),\(version ?? ""),\(email ?? ""),\(url ?? "")\n")
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

/// Notices of a canonical code (any code of ours, any file).
private func count(_ summary: GTFSLoadSummary, canonical: String) -> Int {
    summary.issues.entries.filter { $0.kind.canonical == canonical }.reduce(0) { $0 + $1.count }
}

/// The load after a defect.
private struct AfterDefect {
    let before: GTFSLoadSummary
    let summary: GTFSLoadSummary
    let sink: RecordingSink
    /// The notice of the canonical code the defect added.
    let issue: GTFSIssue
}

/// Loads `feed`, makes `defect` and loads it again: expects exactly one notice more, of
/// `canonical`, nothing else changed, and as many rows loaded from every file.
/// `alsoRaised`: our codes another rule rightly raises for the same defect (a route added
/// without trips is also unused), left out of the comparison.
private func afterDefect(_ feed: FeedFolder, canonical: String, today: ServiceDate? = nil, keeping files: Set<String> = [],
                         alsoRaised: Set<String> = [],
                         sourceLocation: SourceLocation = #_sourceLocation, _ defect: () throws -> Void) throws -> AfterDefect {
    let (before, _) = try load(feed.path, today: today)
    try defect()
    let (after, sink) = try load(feed.path, today: today, keeping: files)
    let changed = changes(from: tally(before), to: tally(after)).filter { !alsoRaised.contains(String($0.key.split(separator: " ")[0])) }
    #expect(changed.count == 1 && changed.first?.value == 1 && changed.first?.key.contains(" \(canonical) ") == true,
            "the defect changed \(changed)", sourceLocation: sourceLocation)
    #expect(count(after, canonical: canonical) == count(before, canonical: canonical) + 1, sourceLocation: sourceLocation)
    #expect(skipped(after) == skipped(before), "every row read is loaded, as before the defect", sourceLocation: sourceLocation)
    let old = examples(before)
    let new = notices(after, canonical: canonical).filter { !old.contains($0) }
    #expect(new.count == 1, "\(new)", sourceLocation: sourceLocation)
    let issue = try #require(new.first, "no new \(canonical) in \(examples(after))", sourceLocation: sourceLocation)
    return AfterDefect(before: before, summary: after, sink: sink, issue: issue)
}

/// Loads `feed`, makes `change` and loads it again: expects the same notices and rows.
private func noNewNotice(_ feed: FeedFolder, today: ServiceDate? = nil, keeping files: Set<String> = [], alsoRaised: Set<String> = [],
                         sourceLocation: SourceLocation = #_sourceLocation, _ change: () throws -> Void) throws -> (GTFSLoadSummary, RecordingSink) {
    let (before, _) = try load(feed.path, today: today)
    try change()
    let (after, sink) = try load(feed.path, today: today, keeping: files)
    #expect(changes(from: tally(before), to: tally(after)).filter { !alsoRaised.contains(String($0.key.split(separator: " ")[0])) } == [:],
            sourceLocation: sourceLocation)
    #expect(skipped(after) == skipped(before), "every row read is loaded, as before the change", sourceLocation: sourceLocation)
    return (after, sink)
}

/// The canonical codes of the rules that need more than one row, and of `today`'s rules.
private let wholeFeedCodes = [
    "leading_or_trailing_whitespaces", "same_name_and_description_for_stop", "mixed_case_recommended_field", "duplicate_route_name",
    "trip_headsign_matches_intermediate_stop", "missing_recommended_file", "missing_recommended_field", "missing_feed_contact_email_and_url",
    "unused_shape", "unused_station", "big_gap_in_service", "service_window_outside_feed_period", "stop_too_far_from_shape",
    "fast_travel_between_consecutive_stops", "fast_travel_between_far_stops", "stop_too_far_from_shape_using_user_distance",
    "stops_match_shape_out_of_order", "trip_distance_exceeds_shape_distance", "trip_distance_exceeds_shape_distance_below_threshold",
    "block_trips_with_overlapping_stop_times", "pathway_unreachable_location", "missing_level_id",
] + dateCodes

private let dateCodes = ["expired_calendar", "feed_expiration_date7_days", "feed_expiration_date30_days", "trip_coverage_not_active_for_next7_days"]

// MARK: - The suite

@Suite("Canonical rules that need the whole feed")
struct WholeFeedRuleTests {
    @Test("the bundled feeds as they are: the whole-feed notices each raises", arguments: [
        ("google-sample.zip", [:]),
        // Caltrain: stops 100–130 m from the six shapes (24 pairs; the first and last stop of a
        // rail trip may be 400 m off), no feed_info.txt, one quoted stop_desc ending in a space.
        ("caltrain.zip", ["stop_too_far_from_shape": 24, "missing_recommended_file": 1, "leading_or_trailing_whitespaces": 1]),
        // BART: 01_shp starts at Pittsburg/Bay Point, short of Antioch and Pittsburg Center
        // (14 km and 4.6 km), and DUBL 103 m off two shapes; feed_info.txt without a contact.
        ("bart-2018.zip", ["stop_too_far_from_shape": 4, "missing_feed_contact_email_and_url": 1]),
    ] as [(String, [String: Int])])
    func bundledFeeds(zip: String, expected: [String: Int]) throws {
        let (summary, _) = try load(bundledFeed(zip))
        for code in wholeFeedCodes {
            #expect(count(summary, canonical: code) == expected[code] ?? 0, "\(zip): \(code)")
        }
    }

    @Test("caltrain's one quoted value with a space after it: its place, loaded without the space")
    func caltrainWhitespace() throws {
        let (summary, sink) = try load(bundledFeed("caltrain.zip"), keeping: ["stops.txt"])
        let issue = try #require(notices(summary, canonical: "leading_or_trailing_whitespaces").first)
        checkNotice(issue, "SPACES_AROUND_VALUE", "leading_or_trailing_whitespaces", .warning, .warning,
              file: "stops.txt", line: 30, field: "stop_desc", value: "17300 Depot Street, Morgan Hill ")
        let stop = try row(sink, "stops.txt", "stop_desc", "17300 Depot Street, Morgan Hill")
        #expect(stop["stop_name"] == .text("Morgan Hill Caltrain"))
    }
}

// MARK: - Text riders read

extension WholeFeedRuleTests {
    @Suite("Names, descriptions and headsigns")
    struct Text {
        @Test("a quoted value with spaces or tabs around it: a warning; loaded without them")
        func spacesAroundQuotedValue() throws {
            try withFeed { feed in
                let result = try afterDefect(feed, canonical: "leading_or_trailing_whitespaces", keeping: ["stops.txt"]) {
                    try feed.replace("stops.txt", "Furnace Creek Resort (Demo)", with: "\" Furnace Creek Resort (Demo)\t\"")
                }
                checkNotice(result.issue, "SPACES_AROUND_VALUE", "leading_or_trailing_whitespaces", .warning, .warning,
                      file: "stops.txt", line: 2, field: "stop_name", value: " Furnace Creek Resort (Demo)\t")
                #expect(try row(result.sink, "stops.txt", "stop_id", "FUR_CREEK_RES")["stop_name"] == .text("Furnace Creek Resort (Demo)"))
            }
        }

        @Test("an unquoted value with spaces around it is trimmed without a word")
        func spacesAroundUnquotedValue() throws {
            try withFeed { feed in
                let (summary, sink) = try noNewNotice(feed, keeping: ["stops.txt"]) {
                    try feed.replace("stops.txt", "Furnace Creek Resort (Demo)", with: "  Furnace Creek Resort (Demo)\t")
                }
                #expect(count(summary, canonical: "leading_or_trailing_whitespaces") == 0)
                #expect(try row(sink, "stops.txt", "stop_id", "FUR_CREEK_RES")["stop_name"] == .text("Furnace Creek Resort (Demo)"))
            }
        }

        @Test("a stop_desc that repeats the stop_name: a warning at the description; the stop loads with it")
        func descriptionIsName() throws {
            try withFeed { feed in
                let result = try afterDefect(feed, canonical: "same_name_and_description_for_stop", keeping: ["stops.txt"]) {
                    try feed.replace("stops.txt", "Bullfrog (Demo),,", with: "Bullfrog (Demo),Bullfrog (Demo),")
                }
                checkNotice(result.issue, "DESCRIPTION_IS_NAME", "same_name_and_description_for_stop", .warning, .warning,
                      file: "stops.txt", line: 4, field: "stop_desc", value: "Bullfrog (Demo)")
                let stop = try row(result.sink, "stops.txt", "stop_id", "BULLFROG")
                #expect(stop["stop_desc"] == .text("Bullfrog (Demo)") && stop["stop_name"] == .text("Bullfrog (Demo)"))
            }
        }

        /// MobilityData's StopNameValidator compares stop_desc with stop_name ignoring case
        /// (`equalsIgnoreCase`): a name in capitals says no more than the name.
        @Test("a stop_desc that repeats the stop_name in other letter case: the same warning")
        func descriptionIsNameOtherCase() throws {
            try withFeed { feed in
                let result = try afterDefect(feed, canonical: "same_name_and_description_for_stop", keeping: ["stops.txt"]) {
                    try feed.replace("stops.txt", "Bullfrog (Demo),,", with: "Bullfrog (Demo),BULLFROG (DEMO),")
                }
                checkNotice(result.issue, "DESCRIPTION_IS_NAME", "same_name_and_description_for_stop", .warning, .warning,
                      file: "stops.txt", line: 4, field: "stop_desc", value: "BULLFROG (DEMO)")
            }
        }

        @Test("a description that says more than the name is fine")
        func descriptionSaysMore() throws {
            try withFeed { feed in
                _ = try noNewNotice(feed) {
                    try feed.replace("stops.txt", "Bullfrog (Demo),,", with: "Bullfrog (Demo),Bullfrog (Demo) north side,")
                }
            }
        }

        @Test("text riders read all in capitals or all in small letters: a warning; loaded as written", arguments: [
            ("stops.txt", "Furnace Creek Resort (Demo)", "FURNACE CREEK RESORT (DEMO)", 2, "stop_name", "capitals"),
            ("stops.txt", "Furnace Creek Resort (Demo)", "furnace creek resort (demo)", 2, "stop_name", "small letters"),
            ("stops.txt", "Bullfrog (Demo)", "bullfrog", 4, "stop_name", "small letters"),
            ("trips.txt", "AB,FULLW,AB1,to Bullfrog", "AB,FULLW,AB1,TO BULLFROG", 2, "trip_headsign", "capitals"),
            ("routes.txt", "Airport - Bullfrog", "AIRPORT - BULLFROG", 2, "route_long_name", "capitals"),
            ("routes.txt", "Airport - Bullfrog,,", "Airport - Bullfrog,the airport line,", 2, "route_desc", "small letters"),
        ] as [(String, String, String, Int, String, String)])
        func oneCase(file: String, old: String, new: String, line: Int, field: String, which: String) throws {
            try withFeed { feed in
                let result = try afterDefect(feed, canonical: "mixed_case_recommended_field", keeping: [file]) {
                    try feed.replace(file, old, with: new)
                }
                let value = field == "trip_headsign" ? "TO BULLFROG" : field == "route_desc" ? "the airport line" : new
                checkNotice(result.issue, "ONE_CASE_TEXT", "mixed_case_recommended_field", .warning, .warning,
                      file: file, line: line, field: field, value: value)
                #expect(result.issue.message.contains(which), "\(result.issue.message)")
                #expect(result.sink.rows(file).contains { $0[field] == .text(value) })
            }
        }

        @Test("one word in capitals (an acronym), one letter, no letters, and fields riders do not read are not flagged", arguments: [
            ("stops.txt", "Furnace Creek Resort (Demo)", "UCD"),
            ("stops.txt", "Furnace Creek Resort (Demo)", "x"),
            ("stops.txt", "Furnace Creek Resort (Demo)", "42"),
            ("stops.txt", "Furnace Creek Resort (Demo)", "Ümraniye Çarşı"),
            ("trips.txt", "STBA,FULLW,STBA,Shuttle", "STBA,FULLW,STBA,SHUTTLE"),
            ("routes.txt", "40,City,", "40,CITY,"),
            ("routes.txt", "AB,DTA,10,", "AB,DTA,AB EXPRESS,"),           // route_short_name is not checked
            ("stops.txt", "Bullfrog (Demo),,", "Bullfrog (Demo),NORTH SIDE OF MAIN ST,"),   // nor stop_desc
        ])
        func notOneCase(file: String, old: String, new: String) throws {
            try withFeed { feed in
                _ = try noNewNotice(feed) { try feed.replace(file, old, with: new) }
            }
        }

        @Test("a route with the agency, type and names of an earlier one: a warning naming it; both load")
        func sameRouteName() throws {
            try withFeed { feed in
                let line = try nextLine(feed, "routes.txt")
                let result = try afterDefect(feed, canonical: "duplicate_route_name", keeping: ["routes.txt"], alsoRaised: ["ROUTE_NOT_USED"]) {
                    try appendLines(feed, "routes.txt", ["AB_EXTRA,DTA,10,Airport - Bullfrog,,3,,,"])
                }
                #expect(line == 7)
                checkNotice(result.issue, "SAME_ROUTE_NAME", "duplicate_route_name", .warning, .warning,
                      file: "routes.txt", line: 7, field: "route_id", value: "AB_EXTRA")
                #expect(result.issue.message.contains("route AB (line 2)"), "\(result.issue.message)")
                #expect(result.summary.stats("routes.txt")?.rowsLoaded == 6)
                #expect(try row(result.sink, "routes.txt", "route_id", "AB_EXTRA")["route_long_name"] == .text("Airport - Bullfrog"))
            }
        }

        @Test("routes that differ in type or in a name are not the same route", arguments: [
            "AB_RAIL,DTA,10,Airport - Bullfrog,,2,,,",
            "AB_11,DTA,11,Airport - Bullfrog,,3,,,",
            "AB_LONG,DTA,10,Airport - Bullfrog Express,,3,,,",
        ])
        func differentRoute(line: String) throws {
            try withFeed { feed in
                _ = try noNewNotice(feed, alsoRaised: ["ROUTE_NOT_USED"]) { try appendLines(feed, "routes.txt", [line]) }
            }
        }

        /// CITY1 (trips.txt line 5) runs STAGECOACH, NANAA, NADAV, DADAN, EMSI; CITY2 back.
        @Test("a headsign naming a stop the trip passes before its last one (any case): a note at the trip", arguments: [
            ("North AVE / D Ave N (Demo)", "NADAV"),                 // the third of five stops, written in another case
            ("Stagecoach Hotel & Casino (Demo)", "STAGECOACH"),     // the first stop is passed too
        ])
        func headsignIsPassedStop(headsign: String, stop: String) throws {
            try withFeed { feed in
                let result = try afterDefect(feed, canonical: "trip_headsign_matches_intermediate_stop", keeping: ["trips.txt"]) {
                    try feed.replace("trips.txt", "CITY,FULLW,CITY1,,", with: "CITY,FULLW,CITY1,\(headsign),")
                }
                checkNotice(result.issue, "HEADSIGN_IS_PASSED_STOP", "trip_headsign_matches_intermediate_stop", .note, .info,
                      file: "trips.txt", line: 5, field: "trip_headsign", value: headsign)
                #expect(result.issue.message.contains("CITY1") && result.issue.message.contains("(\(stop))"), "\(result.issue.message)")
                #expect(try row(result.sink, "trips.txt", "trip_id", "CITY1")["trip_headsign"] == .text(headsign))
            }
        }

        @Test("a headsign naming the last stop, or a stop the trip also ends at, is not flagged", arguments: [
            ("CITY,FULLW,CITY1,,", "CITY,FULLW,CITY1,E Main St / S Irving St (Demo),"),    // CITY1's last stop
            ("CITY,FULLW,CITY2,,", "CITY,FULLW,CITY2,Stagecoach Hotel & Casino (Demo),"),  // CITY2's last stop
            ("CITY,FULLW,CITY1,,", "CITY,FULLW,CITY1,Amargosa Valley (Demo),"),            // a stop it never calls at
        ])
        func headsignNotPassed(old: String, new: String) throws {
            try withFeed { feed in
                _ = try noNewNotice(feed) { try feed.replace("trips.txt", old, with: new) }
            }
        }
    }
}

// MARK: - Metadata

extension WholeFeedRuleTests {
    @Suite("feed_info.txt and agency ids")
    struct Metadata {
        @Test("no feed_info.txt: a warning naming the file, no line")
        func noFeedInfo() throws {
            try withFeed { feed in
                let result = try afterDefect(feed, canonical: "missing_recommended_file") { try feed.remove("feed_info.txt") }
                checkNotice(result.issue, "RECOMMENDED_FILE_MISSING", "missing_recommended_file", .warning, .warning,
                      file: "feed_info.txt", line: nil, field: nil, value: nil)
            }
        }

        @Test("a complete feed_info.txt raises none of the metadata rules")
        func completeFeedInfo() throws {
            try withFeed { feed in
                try writeFeedInfo(feed)
                let (summary, _) = try load(feed.path)
                for code in ["missing_recommended_file", "missing_recommended_field", "missing_feed_contact_email_and_url",
                             "service_window_outside_feed_period"] {
                    #expect(count(summary, canonical: code) == 0, "\(code)")
                }
                #expect(summary.stats("feed_info.txt")?.rowsLoaded == 1)
                #expect(summary.feedVersion == "1.0")
            }
        }

        @Test("feed_info.txt without its dates or version: a warning at the empty field", arguments: [
            "feed_start_date", "feed_end_date", "feed_version",
        ])
        func feedInfoValueMissing(field: String) throws {
            try withFeed { feed in
                try writeFeedInfo(feed)
                // One date without the other is also missing_feed_info_date.
                let result = try afterDefect(feed, canonical: "missing_recommended_field", keeping: ["feed_info.txt"], alsoRaised: ["ONE_FEED_DATE"]) {
                    switch field {
                    case "feed_start_date": try writeFeedInfo(feed, start: nil)
                    case "feed_end_date": try writeFeedInfo(feed, end: nil)
                    default: try writeFeedInfo(feed, version: nil)
                    }
                }
                checkNotice(result.issue, "RECOMMENDED_VALUE_MISSING", "missing_recommended_field", .warning, .warning,
                      file: "feed_info.txt", line: 2, field: field, value: nil)
                #expect(result.sink.rows("feed_info.txt").first?[field] == .null)
                #expect(result.sink.rows("feed_info.txt").first?["feed_publisher_name"] == .text("Demo Transit Authority"))
            }
        }

        @Test("feed_info.txt with neither a contact e-mail nor a contact URL: a warning; either one is enough")
        func noContact() throws {
            try withFeed { feed in
                try writeFeedInfo(feed)
                let result = try afterDefect(feed, canonical: "missing_feed_contact_email_and_url") { try writeFeedInfo(feed, email: nil) }
                checkNotice(result.issue, "NO_CONTACT", "missing_feed_contact_email_and_url", .warning, .warning,
                      file: "feed_info.txt", line: 2, field: "feed_contact_email", value: nil)
                try writeFeedInfo(feed, email: nil, url: "https://example.com/contact")
                #expect(count(try load(feed.path).0, canonical: "missing_feed_contact_email_and_url") == 0)
            }
        }

        @Test("a route without agency_id in a feed of one agency: a warning; the route loads")
        func agencyIdMissing() throws {
            try withFeed { feed in
                let result = try afterDefect(feed, canonical: "missing_recommended_field", keeping: ["routes.txt"]) {
                    try feed.replace("routes.txt", "BFC,DTA,20,", with: "BFC,,20,")
                }
                checkNotice(result.issue, "RECOMMENDED_VALUE_MISSING", "missing_recommended_field", .warning, .warning,
                      file: "routes.txt", line: 3, field: "agency_id", value: nil)
                let route = try row(result.sink, "routes.txt", "route_id", "BFC")
                #expect(route["agency_id"] == .null && route["route_long_name"] == .text("Bullfrog - Furnace Creek Resort"))
            }
        }
    }
}

// MARK: - What no one uses

extension WholeFeedRuleTests {
    @Suite("Unused shapes and stations")
    struct Unused {
        /// Two points at STAGECOACH and BEATTY_AIRPORT, the stops of trip STBA.
        static let shape = ["S1,36.915682,-116.751677,1,", "S1,36.868446,-116.784582,2,"]

        @Test("a shape no trip follows: a warning at its first row; once a trip follows it, none")
        func unusedShape() throws {
            try withFeed { feed in
                let result = try afterDefect(feed, canonical: "unused_shape", keeping: ["shapes.txt"]) {
                    try appendLines(feed, "shapes.txt", Self.shape)
                }
                checkNotice(result.issue, "SHAPE_NOT_USED", "unused_shape", .warning, .warning,
                      file: "shapes.txt", line: 2, field: "shape_id", value: "S1")
                #expect(result.summary.stats("shapes.txt")?.rowsLoaded == 2)
                #expect(result.sink.rows("shapes.txt").count == 2)
                // STBA follows it: no notice (and both its stops lie on the shape).
                try feed.replace("trips.txt", "STBA,FULLW,STBA,Shuttle,,,", with: "STBA,FULLW,STBA,Shuttle,,,S1")
                let (used, _) = try load(feed.path)
                #expect(count(used, canonical: "unused_shape") == 0)
                #expect(count(used, canonical: "stop_too_far_from_shape") == 0)
            }
        }

        @Test("a station no location names as its parent: a note; once a stop names it, none")
        func unusedStation() throws {
            try withFeed { feed in
                try writeStops(feed, [])
                let result = try afterDefect(feed, canonical: "unused_station", keeping: ["stops.txt"]) {
                    try writeStops(feed, ["BEATTY_STATION,Beatty Station,,36.90,-116.76,,,1,"])
                }
                checkNotice(result.issue, "STATION_WITHOUT_STOPS", "unused_station", .note, .info,
                      file: "stops.txt", line: 11, field: "stop_id", value: "BEATTY_STATION")
                #expect(result.summary.stats("stops.txt")?.rowsLoaded == 10)
                #expect(try row(result.sink, "stops.txt", "stop_id", "BEATTY_STATION")["location_type"] == .int(1))
                try writeStops(feed, parents: ["BEATTY_AIRPORT": "BEATTY_STATION"], ["BEATTY_STATION,Beatty Station,,36.90,-116.76,,,1,"])
                let (used, _) = try load(feed.path)
                #expect(count(used, canonical: "unused_station") == 0)
                #expect(used.issues.count(.fieldError) == 0 && used.issues.count(.rowError) == 0, "\(examples(used))")
            }
        }
    }
}

// MARK: - Services

extension WholeFeedRuleTests {
    @Suite("Gaps in services and services outside the feed's dates")
    struct Services {
        /// FULLW (calendar.txt line 2) runs every day of 2007–2010; WE (line 3) on weekends.
        @Test("a calendar.txt service that stops for more than 13 days between two days it runs: a note", arguments: [
            // 14 days of FULLW removed: 2008-03-01 to 2008-03-14.
            ((1...14).map { String(format: "FULLW,200803%02d,2", $0) }, 2, "FULLW", "2008-03-01 to 2008-03-14 (14 days)"),
            // Two weekends of WE removed: from Monday 2008-02-25 to Friday 2008-03-14.
            (["WE,20080301,2", "WE,20080302,2", "WE,20080308,2", "WE,20080309,2"], 3, "WE", "2008-02-25 to 2008-03-14 (19 days)"),
        ] as [([String], Int, String, String)])
        func serviceGap(removed: [String], line: Int, service: String, gap: String) throws {
            try withFeed { feed in
                let result = try afterDefect(feed, canonical: "big_gap_in_service") { try appendLines(feed, "calendar_dates.txt", removed) }
                checkNotice(result.issue, "SERVICE_GAP", "big_gap_in_service", .note, .info,
                      file: "calendar.txt", line: line, field: "service_id", value: service)
                #expect(result.issue.message.contains(gap), "\(result.issue.message)")
            }
        }

        @Test("13 days without a calendar.txt service, or a service of single dates in calendar_dates.txt, is no gap", arguments: [
            (1...13).map { String(format: "FULLW,200803%02d,2", $0) },          // 2008-03-01 to 2008-03-13: 13 days
            ["WE,20080301,2", "WE,20080302,2"],                                 // one weekend: 2008-02-25 to 2008-03-07, 12 days
        ])
        func noServiceGap(removed: [String]) throws {
            try withFeed { feed in
                _ = try noNewNotice(feed) { try appendLines(feed, "calendar_dates.txt", removed) }
            }
        }

        @Test("a service of calendar_dates.txt alone, months between its days, is no gap")
        func datesOnlyServiceNoGap() throws {
            try withFeed { feed in
                _ = try noNewNotice(feed) {
                    try appendLines(feed, "calendar_dates.txt", ["HOLIDAY,20070704,1", "HOLIDAY,20071225,1"])
                    try feed.replace("trips.txt", "AAMV,WE,AAMV4,", with: "AAMV,HOLIDAY,AAMV4,")
                }
            }
        }

        /// feed_info.txt (written) covers 2007-01-01 to 2010-12-31, as the calendar does.
        @Test("a service running on days outside feed_info's dates: a note at the service", arguments: [
            // FULLW runs on Friday 2010-12-31; WE last on Sunday 2010-12-26.
            ("20070101", "20101230"),
            // FULLW runs on Monday 2007-01-01; WE first on Saturday 2007-01-06.
            ("20070102", "20101231"),
        ])
        func serviceOutsideFeedDates(start: String, end: String) throws {
            try withFeed { feed in
                try writeFeedInfo(feed)
                let result = try afterDefect(feed, canonical: "service_window_outside_feed_period") { try writeFeedInfo(feed, start: start, end: end) }
                checkNotice(result.issue, "SERVICE_OUTSIDE_FEED_DATES", "service_window_outside_feed_period", .note, .info,
                      file: "calendar.txt", line: 2, field: "service_id", value: "FULLW")
                #expect(result.issue.message.contains("2007-01-01 to 2010-12-31"), "\(result.issue.message)")
            }
        }

        @Test("a calendar_dates.txt service used by a trip, outside feed_info's dates: a note at its first calendar_dates row")
        func datesOnlyServiceOutside() throws {
            try withFeed { feed in
                try writeFeedInfo(feed)
                let line = try nextLine(feed, "calendar_dates.txt")
                let result = try afterDefect(feed, canonical: "service_window_outside_feed_period") {
                    try appendLines(feed, "calendar_dates.txt", ["HOLIDAY,20110101,1"])
                    try feed.replace("trips.txt", "AAMV,WE,AAMV4,", with: "AAMV,HOLIDAY,AAMV4,")
                }
                checkNotice(result.issue, "SERVICE_OUTSIDE_FEED_DATES", "service_window_outside_feed_period", .note, .info,
                      file: "calendar_dates.txt", line: line, field: "service_id", value: "HOLIDAY")
            }
        }

        @Test("a service no trip uses is not judged against feed_info's dates")
        func unusedServiceOutside() throws {
            try withFeed { feed in
                try writeFeedInfo(feed)
                _ = try noNewNotice(feed) { try appendLines(feed, "calendar.txt", ["UNUSED,1,1,1,1,1,1,1,20000101,20201231"]) }
            }
        }
    }
}

// MARK: - Shapes and speeds

extension WholeFeedRuleTests {
    @Suite("Stops far from shapes, trips too fast")
    struct ShapesAndSpeeds {
        /// A shape through CITY1's five stops (CITY2 runs them backwards), the third point given.
        static func cityShape(third: String) -> [String] {
            ["CITY_SHAPE,36.915682,-116.751677,1,", "CITY_SHAPE,36.914944,-116.761472,2,", "CITY_SHAPE,\(third),3,",
             "CITY_SHAPE,36.909489,-116.768242,4,", "CITY_SHAPE,36.905697,-116.762180,5,"]
        }

        /// google-sample with CITY1 and CITY2 following `cityShape` through NADAV itself.
        static func followShape(_ feed: FeedFolder) throws {
            try appendLines(feed, "shapes.txt", cityShape(third: "36.914893,-116.768210"))
            try feed.replace("trips.txt", "CITY,FULLW,CITY1,,0,,", with: "CITY,FULLW,CITY1,,0,,CITY_SHAPE")
            try feed.replace("trips.txt", "CITY,FULLW,CITY2,,1,,", with: "CITY,FULLW,CITY2,,1,,CITY_SHAPE")
        }

        @Test("a stop more than 100 m from its trip's shape: a warning at its first stop_times row, once for the shape and stop")
        func stopFarFromShape() throws {
            try withFeed { feed in
                try Self.followShape(feed)
                #expect(count(try load(feed.path).0, canonical: "stop_too_far_from_shape") == 0)
                // The shape cuts the corner from NANAA to DADAN: NADAV is 420 m off it. CITY1 reaches
                // NADAV at stop_times.txt line 6, CITY2 (same shape) at line 11.
                // CITY2 runs the shape backwards (its stops match it out of order); with NADAV
                // off the shape neither trip can be placed along it, so that notice goes.
                let result = try afterDefect(feed, canonical: "stop_too_far_from_shape", keeping: ["stop_times.txt"],
                                             alsoRaised: ["STOPS_OUT_OF_ORDER_ON_SHAPE"]) {
                    try feed.replace("shapes.txt", "CITY_SHAPE,36.914893,-116.768210,3,", with: "CITY_SHAPE,36.912216,-116.764857,3,")
                }
                checkNotice(result.issue, "STOP_FAR_FROM_SHAPE", "stop_too_far_from_shape", .warning, .warning,
                      file: "stop_times.txt", line: 6, field: "stop_id", value: "NADAV")
                #expect(result.issue.message.contains(" m from the shape"), "\(result.issue.message)")
                #expect(result.sink.rows("stop_times.txt").filter { $0["stop_id"] == .text("NADAV") }.count == 2)
            }
        }

        @Test("a stop 55 m from its trip's shape is near enough")
        func stopNearShape() throws {
            try withFeed { feed in
                try Self.followShape(feed)
                _ = try noNewNotice(feed) {
                    try feed.replace("shapes.txt", "CITY_SHAPE,36.914893,-116.768210,3,", with: "CITY_SHAPE,36.915393,-116.768210,3,")
                }
            }
        }

        @Test("the same stop far from two shapes: one warning per shape")
        func twoShapes() throws {
            try withFeed { feed in
                let far = "36.912216,-116.764857"
                try appendLines(feed, "shapes.txt", Self.cityShape(third: far) + Self.cityShape(third: far).map { "CITY_BACK" + $0.dropFirst(10) })
                try feed.replace("trips.txt", "CITY,FULLW,CITY1,,0,,", with: "CITY,FULLW,CITY1,,0,,CITY_SHAPE")
                try feed.replace("trips.txt", "CITY,FULLW,CITY2,,1,,", with: "CITY,FULLW,CITY2,,1,,CITY_BACK")
                let (summary, _) = try load(feed.path)
                #expect(notices(summary, canonical: "stop_too_far_from_shape").map { "\($0.line ?? 0) \($0.value ?? "")" } == ["6 NADAV", "11 NADAV"])
            }
        }

        /// STBA leaves STAGECOACH at 6:00 for BEATTY_AIRPORT, 6.0 km away (stop_times.txt line 3),
        /// on route STBA. Times in whole minutes get one more minute.
        @Test("consecutive stops faster than the route type allows: a warning at the stop reached", arguments: [
            ("3", "6:01:00", 150),     // bus: 6.0 km in 1 (+1) min, 180 km/h
            ("3", "6:01:30", 150),     // bus: 90 s (not whole minutes: no minute more), 241 km/h
            ("1", "6:01:00", 150),     // subway, 180 km/h
            ("0", "6:02:00", 100),     // light rail: 2 (+1) min, 120 km/h
            ("4", "6:03:00", 80),      // ferry: 90 km/h
            ("7", "6:06:00", 50),      // funicular: 52 km/h
            ("5", "6:10:00", 30),      // cable tram: 33 km/h
        ] as [(String, String, Int)])
        func tooFastConsecutive(routeType: String, arrival: String, limit: Int) throws {
            try withFeed { feed in
                try feed.replace("routes.txt", "Stagecoach - Airport Shuttle,,3,", with: "Stagecoach - Airport Shuttle,,\(routeType),")
                let result = try afterDefect(feed, canonical: "fast_travel_between_consecutive_stops", keeping: ["stop_times.txt"]) {
                    try feed.replace("stop_times.txt", "STBA,6:20:00,6:20:00,", with: "STBA,\(arrival),\(arrival),")
                }
                checkNotice(result.issue, "TOO_FAST", "fast_travel_between_consecutive_stops", .warning, .warning,
                      file: "stop_times.txt", line: 3, field: "stop_id", value: "BEATTY_AIRPORT")
                #expect(result.issue.message.contains("trip STBA covers 6.0 km from STAGECOACH (line 2)"), "\(result.issue.message)")
                #expect(result.issue.message.hasSuffix("more than \(limit) km/h"), "\(result.issue.message)")
                let parts = arrival.split(separator: ":").map { Int($0)! }
                let stop = try #require(result.sink.rows("stop_times.txt").first { $0["trip_id"] == .text("STBA") && $0["stop_sequence"] == .int(2) })
                #expect(stop["arrival_time"] == .int(parts[0] * 3600 + parts[1] * 60 + parts[2]))
            }
        }

        @Test("consecutive stops within the route type's speed are fine", arguments: [
            ("3", "6:02:00"),     // bus: 2 (+1) min, 120 km/h (180 without the minute more)
            ("2", "6:01:00"),     // rail: 180 km/h, under 500
            ("0", "6:03:00"),     // light rail: 90 km/h, under 100
            ("7", "6:07:00"),     // funicular: 45 km/h
            ("5", "6:12:00"),     // cable tram: 28 km/h
        ])
        func notTooFast(routeType: String, arrival: String) throws {
            try withFeed { feed in
                try feed.replace("routes.txt", "Stagecoach - Airport Shuttle,,3,", with: "Stagecoach - Airport Shuttle,,\(routeType),")
                _ = try noNewNotice(feed) { try feed.replace("stop_times.txt", "STBA,6:20:00,6:20:00,", with: "STBA,\(arrival),\(arrival),") }
            }
        }

        @Test("10 km or more faster than the route type allows: a warning at the far stop (not one for consecutive stops)")
        func tooFastFar() throws {
            try withFeed { feed in
                // AAMV1: BEATTY_AIRPORT at 8:00 to AMV, 42.5 km away (line 23), in 10 (+1) min: 232 km/h by bus.
                let result = try afterDefect(feed, canonical: "fast_travel_between_far_stops", keeping: ["stop_times.txt"]) {
                    try feed.replace("stop_times.txt", "AAMV1,9:00:00,9:00:00,", with: "AAMV1,8:10:00,8:10:00,")
                }
                checkNotice(result.issue, "TOO_FAST", "fast_travel_between_far_stops", .warning, .warning,
                      file: "stop_times.txt", line: 23, field: "stop_id", value: "AMV")
                #expect(result.issue.message.contains("trip AAMV1 covers 42.5 km from BEATTY_AIRPORT (line 22) in 10 min"), "\(result.issue.message)")
                #expect(result.issue.message.hasSuffix("more than 150 km/h"), "\(result.issue.message)")
                #expect(count(result.summary, canonical: "fast_travel_between_consecutive_stops") == 0)
            }
        }
    }
}

// MARK: - The day the feed is judged on

extension WholeFeedRuleTests {
    @Suite("Rules of the day the feed is judged on (today:)")
    struct Dates {
        @Test("without today: none of the date rules, whatever the dates", arguments: [
            "google-sample.zip", "caltrain.zip", "bart-2018.zip",
        ])
        func noToday(zip: String) throws {
            let loader = GTFSFeedLoader(source: try openFeed(at: bundledFeed(zip)))
            #expect(loader.today == nil)
            let summary = try loader.load(into: RecordingSink())
            for code in dateCodes { #expect(count(summary, canonical: code) == 0, "\(zip): \(code)") }
            for code in ["SERVICE_ENDED", "FEED_EXPIRES", "NO_SERVICE_THIS_WEEK"] { #expect(summary.issues.count(code: code) == 0, "\(zip): \(code)") }
            // Judged on a day after every service ended, the same feed raises them.
            let (late, _) = try load(bundledFeed(zip), today: day("2031-01-01"))
            #expect(count(late, canonical: "expired_calendar") > 0)
            #expect(count(late, canonical: "trip_coverage_not_active_for_next7_days") == 1)
        }

        @Test("without today, a feed that ended long ago raises no date rule (wmata-rail-2026, feed_info ending 2026-05-08)")
        func noTodayShared() throws {
            let (summary, _) = try load(try requireSharedFeed("wmata-rail-2026.zip"))
            for code in dateCodes { #expect(count(summary, canonical: code) == 0, "\(code)") }
        }

        @Test("google-sample's calendar ends 2010-12-31: its two services expire after their last days")
        func expiredCalendar() throws {
            let path = bundledFeed("google-sample.zip")
            let (running, _) = try load(path, today: day("2010-06-01"))
            #expect(count(running, canonical: "expired_calendar") == 0)
            // WE last runs on Sunday 2010-12-26; FULLW on Friday 2010-12-31, which is not before 2010-12-31.
            for today in ["2010-12-27", "2010-12-31"] {
                let (summary, _) = try load(path, today: day(today))
                let found = notices(summary, canonical: "expired_calendar")
                #expect(found.map(\.value) == ["WE"], "\(today)")
                if let we = found.first {
                    checkNotice(we, "SERVICE_ENDED", "expired_calendar", .warning, .warning, file: "calendar.txt", line: 3, field: "service_id", value: "WE")
                    #expect(we.message.contains("2010-12-26"), "\(we.message)")
                }
            }
            let (ended, _) = try load(path, today: day("2011-01-01"))
            #expect(notices(ended, canonical: "expired_calendar").map { "\($0.line ?? 0) \($0.value ?? "")" } == ["2 FULLW", "3 WE"])
            #expect(ended.rowsLoaded == running.rowsLoaded)
            #expect(changes(from: tally(running), to: tally(ended))
                    == ["SERVICE_ENDED expired_calendar warning": 2, "NO_SERVICE_THIS_WEEK trip_coverage_not_active_for_next7_days warning": 1])
        }

        @Test("caltrain's calendar.txt: three services ended 2009-08-30, three run to 2019-08-31")
        func expiredCalendarCaltrain() throws {
            let path = bundledFeed("caltrain.zip")
            let (before, _) = try load(path, today: day("2019-01-01"))
            let early = notices(before, canonical: "expired_calendar")
            #expect(early.map(\.value) == ["SN20090302", "ST20090302", "WD20090302"])
            #expect(early.map(\.line) == [5, 6, 7])
            #expect(early.allSatisfy { $0.code == "SERVICE_ENDED" && $0.severity == .warning && $0.canonicalSeverity == .warning
                    && $0.file == "calendar.txt" && $0.field == "service_id" })
            let (after, _) = try load(path, today: day("2030-01-01"))
            #expect(notices(after, canonical: "expired_calendar").map(\.line) == [2, 3, 4, 5, 6, 7])
            #expect(after.rowsLoaded == before.rowsLoaded)
        }

        @Test("without calendar.txt, the services of calendar_dates.txt expire")
        func expiredCalendarDates() throws {
            try withFeed { feed in
                try feed.remove("calendar.txt")
                try feed.write("calendar_dates.txt", "service_id,date,exception_type\nFULLW,20070604,1\nWE,20070609,1\n")
                let (first, _) = try load(feed.path, today: day("2007-06-05"))
                let found = notices(first, canonical: "expired_calendar")
                #expect(found.count == 1)
                if let fullw = found.first {
                    checkNotice(fullw, "SERVICE_ENDED", "expired_calendar", .warning, .warning,
                          file: "calendar_dates.txt", line: 2, field: "service_id", value: "FULLW")
                }
                let (second, _) = try load(feed.path, today: day("2007-06-10"))
                #expect(notices(second, canonical: "expired_calendar").map { "\($0.file):\($0.line ?? 0) \($0.value ?? "")" }
                        == ["calendar_dates.txt:2 FULLW", "calendar_dates.txt:3 WE"])
            }
        }

        @Test("with calendar.txt, a service of calendar_dates.txt alone (extra days) does not expire")
        func extraDatesDoNotExpire() throws {
            try withFeed { feed in
                try appendLines(feed, "calendar_dates.txt", ["EXTRA,20070604,1"])
                let (summary, _) = try load(feed.path, today: day("2011-01-01"))
                #expect(notices(summary, canonical: "expired_calendar").map(\.value) == ["FULLW", "WE"])
            }
        }

        /// feed_info.txt (written) ends 2010-12-31, line 2.
        @Test("feed_end_date less than 7 days away (or past), or 7 to 29 days away: a warning at feed_end_date", arguments: [
            ("2010-12-01", nil),                              // 30 days
            ("2010-12-02", "feed_expiration_date30_days"),    // 29 days
            ("2010-12-24", "feed_expiration_date30_days"),    // 7 days
            ("2010-12-25", "feed_expiration_date7_days"),     // 6 days
            ("2010-12-31", "feed_expiration_date7_days"),     // the last day
            ("2011-01-05", "feed_expiration_date7_days"),     // 5 days past
        ] as [(String, String?)])
        func feedExpiration(today: String, canonical: String?) throws {
            try withFeed { feed in
                try writeFeedInfo(feed)
                let (summary, _) = try load(feed.path, today: day(today))
                let found = examples(summary).filter { $0.code == "FEED_EXPIRES" }
                #expect(found.count == (canonical == nil ? 0 : 1))
                #expect(count(summary, canonical: "feed_expiration_date7_days") + count(summary, canonical: "feed_expiration_date30_days")
                        == (canonical == nil ? 0 : 1))
                if let canonical, let issue = found.first {
                    checkNotice(issue, "FEED_EXPIRES", canonical, .warning, .warning, file: "feed_info.txt", line: 2, field: "feed_end_date", value: "2010-12-31")
                }
                if today == "2011-01-05" { #expect(found.first?.message.contains("ended 5 days before 2011-01-05") == true, "\(found)") }
            }
        }

        @Test("a feed without feed_end_date never expires")
        func noFeedEndDate() throws {
            let (summary, _) = try load(bundledFeed("google-sample.zip"), today: day("2031-01-01"))
            #expect(summary.issues.count(code: "FEED_EXPIRES") == 0)
        }

        /// google-sample's trips run from 2007-01-01 to 2010-12-31.
        @Test("some day of the coming week without trips: a warning", arguments: [
            ("2010-12-20", false), ("2011-01-01", true),     // the last days
            ("2007-01-01", false), ("2006-12-31", true),     // the first day
        ])
        func noServiceThisWeek(today: String, raised: Bool) throws {
            let (summary, _) = try load(bundledFeed("google-sample.zip"), today: day(today))
            let found = notices(summary, canonical: "trip_coverage_not_active_for_next7_days")
            #expect(found.count == (raised ? 1 : 0))
            if let issue = found.first {
                checkNotice(issue, "NO_SERVICE_THIS_WEEK", "trip_coverage_not_active_for_next7_days", .warning, .warning,
                      file: "trips.txt", line: nil, field: nil, value: nil)
                #expect(issue.message.contains("2007-01-01 to 2010-12-31"), "\(issue.message)")
            }
        }
    }
}

// MARK: - Shared real feeds

extension WholeFeedRuleTests {
    /// The counts MobilityData-rule validators report on these feeds.
    @Suite("On the shared real feeds")
    struct SharedFeeds {
        private func load(_ name: String, today: ServiceDate? = nil) throws -> GTFSLoadSummary {
            try GTFSFeedLoader(source: try openFeed(at: try requireSharedFeed(name)), today: today, examplesPerKind: 3).load(into: RecordingSink())
        }

        @Test("nyc-subway-2018: 50 unused shapes, 8 unused stations, 35 stops too far from their shapes")
        func nycSubway() throws {
            let summary = try load("nyc-subway-2018.zip")
            #expect(count(summary, canonical: "unused_shape") == 50)
            #expect(count(summary, canonical: "unused_station") == 8)
            #expect(count(summary, canonical: "stop_too_far_from_shape") == 35)
            let shape = try #require(notices(summary, canonical: "unused_shape").first)
            checkNotice(shape, "SHAPE_NOT_USED", "unused_shape", .warning, .warning, file: "shapes.txt", line: 8108, field: "shape_id", value: "A..N04R")
            let station = try #require(notices(summary, canonical: "unused_station").first)
            checkNotice(station, "STATION_WITHOUT_STOPS", "unused_station", .note, .info, file: "stops.txt", line: 113, field: "stop_id", value: "140")
            for code in dateCodes { #expect(count(summary, canonical: code) == 0, "\(code)") }
        }

        @Test("wmata-rail-2026 judged on 2026-11-27: 2 descriptions repeating names, 10 services outside feed_info's dates, 15 ended, the feed expired, 31 stops off their shapes")
        func wmataRail() throws {
            let summary = try load("wmata-rail-2026.zip", today: day("2026-11-27"))
            #expect(count(summary, canonical: "same_name_and_description_for_stop") == 2)
            #expect(count(summary, canonical: "service_window_outside_feed_period") == 10)
            #expect(count(summary, canonical: "expired_calendar") == 15)
            #expect(count(summary, canonical: "feed_expiration_date7_days") == 1)
            #expect(count(summary, canonical: "feed_expiration_date30_days") == 0)
            #expect(count(summary, canonical: "stop_too_far_from_shape") == 31)
            #expect(notices(summary, canonical: "same_name_and_description_for_stop").map(\.line) == [2065, 2067])
            let expiry = try #require(notices(summary, canonical: "feed_expiration_date7_days").first)
            checkNotice(expiry, "FEED_EXPIRES", "feed_expiration_date7_days", .warning, .warning,
                  file: "feed_info.txt", line: 2, field: "feed_end_date", value: "2026-05-08")
            let ended = try #require(notices(summary, canonical: "expired_calendar").first)
            checkNotice(ended, "SERVICE_ENDED", "expired_calendar", .warning, .warning, file: "calendar_dates.txt", line: 2, field: "service_id", value: "14_R")
        }

        @Test("vilnius-2015: 12 gaps in services, 101 routes without agency_id")
        func vilnius() throws {
            let summary = try load("vilnius-2015.zip")
            #expect(count(summary, canonical: "big_gap_in_service") == 12)
            #expect(count(summary, canonical: "missing_recommended_field") == 101)
            #expect(summary.issues.entries.filter { $0.kind.canonical == "missing_recommended_field" }.allSatisfy { $0.kind.file == "routes.txt" })
            let gap = try #require(notices(summary, canonical: "big_gap_in_service").first)
            checkNotice(gap, "SERVICE_GAP", "big_gap_in_service", .note, .info, file: "calendar.txt", line: 7, field: "service_id", value: "7")
        }

        @Test("mexico-city-2018: 18 trips too fast over 10 km, 3 quoted stop names with spaces around them")
        func mexicoCity() throws {
            let summary = try load("mexico-city-2018.zip")
            #expect(count(summary, canonical: "fast_travel_between_far_stops") == 18)
            #expect(count(summary, canonical: "leading_or_trailing_whitespaces") == 3)
            #expect(notices(summary, canonical: "leading_or_trailing_whitespaces").map { "\($0.file):\($0.line ?? 0) \($0.field ?? "")" }
                    == ["stops.txt:83 stop_name", "stops.txt:5349 stop_name", "stops.txt:5920 stop_name"])
        }

        @Test("porto-alegre-eptc-2019: 150 services outside feed_info's dates")
        func portoAlegre() throws {
            let summary = try load("porto-alegre-eptc-2019.zip")
            #expect(count(summary, canonical: "service_window_outside_feed_period") == 150)
            #expect(summary.issues.entries.filter { $0.kind.canonical == "service_window_outside_feed_period" }
                    .allSatisfy { $0.kind.code == "SERVICE_OUTSIDE_FEED_DATES" && $0.kind.severity == .note && $0.kind.file == "calendar.txt" })
        }
    }
}
