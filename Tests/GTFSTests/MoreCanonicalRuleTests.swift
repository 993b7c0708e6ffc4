import Foundation
import Testing
import GTFS
import TransitModel

// More canonical WARNING (and two INFO) rules: a route's colours too close in brightness, a
// long name that begins with the short name, web addresses shared by agencies, routes and
// stops, platforms in no station, transfers that are long or in-seat in the wrong place or
// between modes, ferries that do not say whether bicycles board, generic nodes that lead
// nowhere, blocks that mix modes, agencies and feed_info in different languages, a second
// feed_info row, ids outside printable ASCII, and stops a shape passes too often. Each made
// to fire by one defect in a copy of google-sample (the feed before the defect raises none
// of these rules), with our code, the canonical code, both severities and the place, and
// every row loaded as before (nothing here skips a row). Each with a near miss that stays
// silent. Then the bundled and the shared real feeds, which raise none of them (as
// canonical validators agree).

// MARK: - Helpers

/// A feed (folder or zip) loaded into a recording sink, every example kept.
private func load(_ path: String, keeping files: Set<String> = []) throws -> (GTFSLoadSummary, RecordingSink) {
    let sink = RecordingSink(keeping: files)
    let summary = try GTFSFeedLoader(source: try openFeed(at: path), examplesPerKind: 1_000).load(into: sink)
    return (summary, sink)
}

/// The rules under test: our code, the canonical code, and the canonical severity.
private let moreRules: [(code: String, canonical: String, severity: CanonicalNotice.Severity)] = [
    ("COLOURS_TOO_CLOSE", "route_color_contrast", .warning),
    ("LONG_NAME_HAS_SHORT", "route_long_name_contains_short_name", .warning),
    ("SAME_URL", "same_route_and_agency_url", .warning),
    ("SAME_URL", "same_stop_and_agency_url", .warning),
    ("SAME_URL", "same_stop_and_route_url", .warning),
    ("PLATFORM_WITHOUT_STATION", "platform_without_parent_station", .info),
    ("TRANSFER_FAR", "transfer_distance_too_large", .warning),
    ("TRANSFER_FAR", "transfer_distance_above_2_km", .info),
    ("IN_SEAT_MID_TRIP", "transfer_with_suspicious_mid_trip_in_seat", .warning),
    ("IN_SEAT_OTHER_MODE", "inconsistent_route_type_for_in_seat_transfer", .warning),
    ("FERRY_WITHOUT_BIKES", "missing_bike_allowance", .warning),
    ("NODE_DEAD_END", "pathway_dangling_generic_node", .warning),
    ("BLOCK_MIXES_MODES", "inconsistent_route_type_for_block_id", .warning),
    ("AGENCY_LANGUAGES_DIFFER", "inconsistent_agency_lang", .warning),
    ("FEED_LANGUAGE_DIFFERS", "feed_info_lang_and_agency_lang_mismatch", .warning),
    ("MORE_THAN_ONE_ROW", "more_than_one_entity", .warning),
    ("ID_NOT_ASCII", "non_ascii_or_non_printable_char", .warning),
    ("STOP_NEAR_SHAPE_OFTEN", "stop_has_too_many_matches_for_shape", .warning),
]

/// Notices with our code and the canonical code (any file, any severity).
private func count(_ summary: GTFSLoadSummary, _ code: String, _ canonical: String) -> Int {
    summary.issues.entries.filter { $0.kind.code == code && $0.kind.canonical == canonical }.reduce(0) { $0 + $1.count }
}

/// The rules under test that the feed raises, with their counts.
private func raised(_ summary: GTFSLoadSummary) -> [String: Int] {
    moreRules.reduce(into: [:]) { d, rule in
        let n = count(summary, rule.code, rule.canonical)
        if n > 0 { d["\(rule.code) \(rule.canonical)"] = n }
    }
}

/// Our action for a canonical severity here: INFO is listed (a note), WARNING kept (a warning).
private func action(_ canonical: String) -> GTFSIssue.Severity {
    CanonicalNotice.rules[canonical]?.severity == .info ? .note : .warning
}

/// Loads `feed`, makes `defect` and loads it again: expects exactly `n` notices more with
/// `code` and `canonical` (a warning, or a note for a canonical INFO), the other notices
/// unchanged but for `also`, every row read loaded as before (none skipped), and the rows
/// loaded per file changed only by `rows`. Returns the new notices in file and line order.
/// `raisedBefore`: the rules under test the feed raises before the defect (`raised`).
private func afterDefect(_ feed: FeedFolder, _ code: String, _ canonical: String, _ n: Int = 1, also: [String: Int] = [:], rows: [String: Int] = [:],
                         raisedBefore: [String: Int] = [:], sourceLocation: SourceLocation = #_sourceLocation,
                         _ defect: () throws -> Void) throws -> [GTFSIssue] {
    let (before, _) = try load(feed.path)
    #expect(raised(before) == raisedBefore, "the feed before the defect raises none of these rules (but `raisedBefore`)", sourceLocation: sourceLocation)
    try defect()
    let (after, _) = try load(feed.path)
    #expect(changes(from: tally(before), to: tally(after)) == adding([key(code, canonical, action(canonical)): n], also),
            "the defect changed \(changes(from: tally(before), to: tally(after)))", sourceLocation: sourceLocation)
    #expect(skipped(after) == skipped(before), "every row read is loaded, as before the defect", sourceLocation: sourceLocation)
    #expect(loaded(after) == adding(loaded(before), rows), "rows loaded per file", sourceLocation: sourceLocation)
    let new = examples(after).filter { $0.code == code && $0.canonical == canonical }
    #expect(new.count == n, "\(new)", sourceLocation: sourceLocation)
    return new.sorted { ($0.file, $0.line ?? 0, $0.field ?? "") < ($1.file, $1.line ?? 0, $1.field ?? "") }
}

/// `afterDefect` for one notice: that notice.
private func oneAfterDefect(_ feed: FeedFolder, _ code: String, _ canonical: String, also: [String: Int] = [:], rows: [String: Int] = [:],
                            sourceLocation: SourceLocation = #_sourceLocation, _ defect: () throws -> Void) throws -> GTFSIssue {
    let new = try afterDefect(feed, code, canonical, 1, also: also, rows: rows, sourceLocation: sourceLocation, defect)
    return try #require(new.first, "no new \(code) \(canonical)", sourceLocation: sourceLocation)
}

/// Loads `feed`, makes `change` and loads it again: expects none of the rules under test
/// raised before or after, the other notices changed only by `also`, no row skipped that
/// was not before, and the rows loaded per file changed only by `rows`.
@discardableResult
private func nearMiss(_ feed: FeedFolder, also: [String: Int] = [:], rows: [String: Int] = [:],
                      sourceLocation: SourceLocation = #_sourceLocation, _ change: () throws -> Void) throws -> GTFSLoadSummary {
    let (before, _) = try load(feed.path)
    try change()
    let (after, _) = try load(feed.path)
    #expect(raised(before) == [:], sourceLocation: sourceLocation)
    #expect(raised(after) == [:], "\(examples(after).filter { e in moreRules.contains { $0.canonical == e.canonical } })", sourceLocation: sourceLocation)
    #expect(changes(from: tally(before), to: tally(after)) == also, sourceLocation: sourceLocation)
    #expect(skipped(after) == skipped(before), sourceLocation: sourceLocation)
    #expect(loaded(after) == adding(loaded(before), rows), "rows loaded per file", sourceLocation: sourceLocation)
    return after
}

/// Our code, the canonical code, both severities, and the place.
private func check(_ issue: GTFSIssue, _ code: String, _ canonical: String, file: String, line: Int?, field: String?, value: String?,
                   sourceLocation: SourceLocation = #_sourceLocation) {
    let expected = moreRules.first { $0.canonical == canonical }?.severity
    #expect(expected != nil, "\(canonical) is one of the rules under test", sourceLocation: sourceLocation)
    #expect(issue.code == code, sourceLocation: sourceLocation)
    #expect(issue.canonical == canonical, sourceLocation: sourceLocation)
    #expect(issue.severity == (expected == .info ? .note : .warning), sourceLocation: sourceLocation)
    #expect(issue.canonicalSeverity == expected, sourceLocation: sourceLocation)
    #expect(issue.file == file, sourceLocation: sourceLocation)
    #expect(issue.line == line, sourceLocation: sourceLocation)
    #expect(issue.field == field, sourceLocation: sourceLocation)
    #expect(issue.value == value, sourceLocation: sourceLocation)
}

/// google-sample's stops.txt with location_type, parent_station and platform_code columns
/// (`extra` gives some of its nine stops, lines 2–10, "type,parent,platform"; the others
/// ",,"), then `rows` from line 11 on. Written again, the nine stops are rewritten and the
/// rows after them replaced.
private func writeStops(_ feed: FeedFolder, _ extra: [String: String] = [:], _ rows: [String] = []) throws {
    let stops: [String] = try lines(feed, "stops.txt").dropFirst().prefix(9).map { line in
        let fields = line.split(separator: ",", omittingEmptySubsequences: false).prefix(7)
        return fields.joined(separator: ",") + "," + (extra[String(fields[fields.startIndex])] ?? ",,")
    }
    try writeLines(feed, "stops.txt", ["stop_id,stop_name,stop_desc,stop_lat,stop_lon,zone_id,stop_url,location_type,parent_station,platform_code"]
                   + stops + rows)
}

/// google-sample's trips.txt with a bikes_allowed column, `value` on every trip
/// (`except` gives some trips, by trip_id, another).
private func writeBikes(_ feed: FeedFolder, _ value: String, except: [String: String] = [:]) throws {
    let rows = try lines(feed, "trips.txt")
    let header = rows[0].hasSuffix(",bikes_allowed") ? rows[0] : rows[0] + ",bikes_allowed"
    try writeLines(feed, "trips.txt", [header] + rows.dropFirst().map { line in
        var fields = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init).prefix(7)
        let id = fields[2]
        fields.append(except[id] ?? value)
        return fields.joined(separator: ",")
    })
}

/// agency.txt with agency_lang: DTA in `first` (line 2), then each of `others` as a
/// further agency (lines 3…), named OTHER1, OTHER2…
private func writeAgencies(_ feed: FeedFolder, _ first: String, others: [String] = []) throws {
    try writeLines(feed, "agency.txt", ["agency_id,agency_name,agency_url,agency_timezone,agency_lang",
                                        "DTA,Demo Transit Authority,http://google.com,America/Los_Angeles,\(first)"]
                   + others.enumerated().map { "OTHER\($0.offset + 1),Other Transit \($0.offset + 1),http://example.com/\($0.offset + 1),America/Los_Angeles,\($0.element)" })
}

/// feed_info.txt with one row per language (lines 2…).
private func writeFeedInfo(_ feed: FeedFolder, _ langs: [String]) throws {
    try writeLines(feed, "feed_info.txt", ["feed_publisher_name,feed_publisher_url,feed_lang"]
                   + langs.map { "Demo Transit Authority,http://google.com/feed,\($0)" })
}

/// transfers.txt with these rows (lines 2…), under the header
/// from_stop_id,to_stop_id,transfer_type,min_transfer_time,from_trip_id,to_trip_id.
private func writeTransfers(_ feed: FeedFolder, _ rows: [String]) throws {
    try writeLines(feed, "transfers.txt", ["from_stop_id,to_stop_id,transfer_type,min_transfer_time,from_trip_id,to_trip_id"] + rows)
}

/// STAGECOACH, google-sample's stop (stops.txt line 5) where trip STBA starts.
private let stagecoach = (lat: 36.915682, lon: -116.751677)

// MARK: - The suite

@Suite("More canonical warnings: colours, names, URLs, transfers, languages, ids")
struct MoreCanonicalRuleTests {
    @Test("the catalogue has each canonical code with its severity (INFO for the platform and the transfer above 2 km)")
    func catalogue() {
        #expect(moreRules.count == 18)
        #expect(Set(moreRules.map(\.canonical)).count == 18)
        for rule in moreRules {
            #expect(CanonicalNotice.rules[rule.canonical]?.severity == rule.severity, "\(rule.canonical)")
        }
    }

    @Test("the bundled feeds as they are raise none of these rules", arguments: ["google-sample.zip", "caltrain.zip", "bart-2018.zip"])
    func bundledFeeds(zip: String) throws {
        let (summary, _) = try load(bundledFeed(zip))
        #expect(raised(summary) == [:], "\(zip)")
    }
}

// MARK: - Routes: colours, names, URLs

extension MoreCanonicalRuleTests {
    @Suite("Route colours, long names and URLs; stop URLs")
    struct RoutesAndURLs {
        /// Route AB (routes.txt line 2) with these route_color and route_text_color.
        static func colours(_ feed: FeedFolder, _ colour: String, _ text: String) throws {
            try feed.replace("routes.txt", "AB,DTA,10,Airport - Bullfrog,,3,,,", with: "AB,DTA,10,Airport - Bullfrog,,3,,\(colour),\(text)")
        }

        /// Greys have the luma of their digits: 0x47 is 71 from black, 0xB8 71 from white.
        @Test("colours less than 72 apart in brightness: a warning at route_text_color", arguments: [
            ("000000", "474747"), ("FFFFFF", "B8B8B8"), ("FFFFFF", "FFFF00"), ("FF0000", "0000FF"), ("008000", "FF0000"),
        ])
        func coloursTooClose(colour: String, text: String) throws {
            try withFeed { feed in
                let issue = try oneAfterDefect(feed, "COLOURS_TOO_CLOSE", "route_color_contrast") { try Self.colours(feed, colour, text) }
                check(issue, "COLOURS_TOO_CLOSE", "route_color_contrast", file: "routes.txt", line: 2, field: "route_text_color", value: text)
            }
        }

        @Test("colours 72 or more apart, or only one of them given: no warning", arguments: [
            ("000000", "484848"), ("FFFFFF", "B7B7B7"), ("FFFFFF", "000000"), ("0000FF", "FFFFFF"), ("FFFFFF", ""), ("", "FFFFFF"),
        ])
        func coloursFarEnough(colour: String, text: String) throws {
            try withFeed { feed in
                try nearMiss(feed) { try Self.colours(feed, colour, text) }
            }
        }

        @Test("a route_long_name beginning with the short name as a word: a warning at route_long_name", arguments: [
            ("10", "10 Airport - Bullfrog"), ("10", "10-Airport - Bullfrog"), ("X1", "x1 Airport Express"),
        ])
        func longNameHasShortName(short: String, long: String) throws {
            try withFeed { feed in
                let issue = try oneAfterDefect(feed, "LONG_NAME_HAS_SHORT", "route_long_name_contains_short_name") {
                    try feed.replace("routes.txt", "AB,DTA,10,Airport - Bullfrog,", with: "AB,DTA,\(short),\(long),")
                }
                check(issue, "LONG_NAME_HAS_SHORT", "route_long_name_contains_short_name", file: "routes.txt", line: 2, field: "route_long_name", value: long)
            }
        }

        @Test("a long name that begins with a longer number or word, or has the short name later: no warning", arguments: [
            "100 Street", "10th Street", "Airport 10 - Bullfrog", "Route 10",
        ])
        func longNameWithoutShortName(long: String) throws {
            try withFeed { feed in
                try nearMiss(feed) { try feed.replace("routes.txt", "AB,DTA,10,Airport - Bullfrog,", with: "AB,DTA,10,\(long),") }
            }
        }

        @Test("a route_url that is the agency's agency_url: a warning at route_url")
        func routeURLIsAgencyURL() throws {
            try withFeed { feed in
                let issue = try oneAfterDefect(feed, "SAME_URL", "same_route_and_agency_url") {
                    try feed.replace("routes.txt", "AB,DTA,10,Airport - Bullfrog,,3,,,", with: "AB,DTA,10,Airport - Bullfrog,,3,http://google.com,,")
                }
                check(issue, "SAME_URL", "same_route_and_agency_url", file: "routes.txt", line: 2, field: "route_url", value: "http://google.com")
            }
        }

        @Test("a route_url of a page under the agency's: no warning")
        func routeURLOfItsOwn() throws {
            try withFeed { feed in
                try nearMiss(feed) {
                    try feed.replace("routes.txt", "AB,DTA,10,Airport - Bullfrog,,3,,,", with: "AB,DTA,10,Airport - Bullfrog,,3,http://google.com/ab,,")
                }
            }
        }

        @Test("a stop_url that is the agency's agency_url: a warning at stop_url")
        func stopURLIsAgencyURL() throws {
            try withFeed { feed in
                let issue = try oneAfterDefect(feed, "SAME_URL", "same_stop_and_agency_url") {
                    try feed.replace("stops.txt", "-117.133162,,", with: "-117.133162,,http://google.com")
                }
                check(issue, "SAME_URL", "same_stop_and_agency_url", file: "stops.txt", line: 2, field: "stop_url", value: "http://google.com")
            }
        }

        @Test("a stop_url that is a route's route_url: a warning at stop_url (the routes are read after the stops)")
        func stopURLIsRouteURL() throws {
            try withFeed { feed in
                try feed.replace("routes.txt", "AB,DTA,10,Airport - Bullfrog,,3,,,", with: "AB,DTA,10,Airport - Bullfrog,,3,http://example.com/ab,,")
                let issue = try oneAfterDefect(feed, "SAME_URL", "same_stop_and_route_url") {
                    try feed.replace("stops.txt", "-117.133162,,", with: "-117.133162,,http://example.com/ab")
                }
                check(issue, "SAME_URL", "same_stop_and_route_url", file: "stops.txt", line: 2, field: "stop_url", value: "http://example.com/ab")
            }
        }

        @Test("a stop_url of its own beside a route's and the agency's: no warning")
        func stopURLOfItsOwn() throws {
            try withFeed { feed in
                try feed.replace("routes.txt", "AB,DTA,10,Airport - Bullfrog,,3,,,", with: "AB,DTA,10,Airport - Bullfrog,,3,http://example.com/ab,,")
                try nearMiss(feed) { try feed.replace("stops.txt", "-117.133162,,", with: "-117.133162,,http://example.com/ab/fur") }
            }
        }
    }
}

// MARK: - Stations: platforms, generic nodes

extension MoreCanonicalRuleTests {
    @Suite("Platforms in no station, generic nodes that lead nowhere")
    struct Stations {
        @Test("a stop with a platform_code and no parent_station: a note at parent_station")
        func platformWithoutStation() throws {
            try withFeed { feed in
                try writeStops(feed)
                let issue = try oneAfterDefect(feed, "PLATFORM_WITHOUT_STATION", "platform_without_parent_station") {
                    try writeStops(feed, ["FUR_CREEK_RES": ",,1"])
                }
                check(issue, "PLATFORM_WITHOUT_STATION", "platform_without_parent_station", file: "stops.txt", line: 2, field: "parent_station", value: nil)
            }
        }

        /// BEATTY_STATION (line 11), the station of BEATTY_AIRPORT (line 3).
        static let station = "BEATTY_STATION,Beatty Station (Demo),,36.868,-116.784,,,1,,"

        @Test("a platform_code on a platform of a station, or on a station: no note")
        func platformInStation() throws {
            try withFeed { feed in
                try writeStops(feed, ["BEATTY_AIRPORT": "0,BEATTY_STATION,"], [Self.station])
                try nearMiss(feed) {
                    try writeStops(feed, ["BEATTY_AIRPORT": "0,BEATTY_STATION,A"], ["BEATTY_STATION,Beatty Station (Demo),,36.868,-116.784,,,1,,B"])
                }
            }
        }

        /// BEATTY_STATION (line 11) with BEATTY_AIRPORT as its platform, an entrance
        /// (BEATTY_E1, line 12) and a generic node (BEATTY_N1, line 13).
        static func stationWithNode(_ feed: FeedFolder) throws {
            try writeStops(feed, ["BEATTY_AIRPORT": "0,BEATTY_STATION,"],
                           [Self.station, "BEATTY_E1,Beatty Entrance (Demo),,36.8685,-116.7846,,,2,BEATTY_STATION,",
                            "BEATTY_N1,Beatty Corridor (Demo),,36.8684,-116.7845,,,3,BEATTY_STATION,"])
        }

        static let pathwaysHeader = "pathway_id,from_stop_id,to_stop_id,pathway_mode,is_bidirectional"

        @Test("a generic node joined by pathways to one place only (however many pathways): a warning at its stop_id")
        func danglingNode() throws {
            try withFeed { feed in
                try Self.stationWithNode(feed)
                try writeLines(feed, "pathways.txt", [Self.pathwaysHeader, "P1,BEATTY_E1,BEATTY_N1,1,1", "P2,BEATTY_N1,BEATTY_AIRPORT,1,1"])
                // The corridor now goes back to the entrance, the platform reached from the entrance.
                let issue = try oneAfterDefect(feed, "NODE_DEAD_END", "pathway_dangling_generic_node", rows: ["pathways.txt": 1]) {
                    try writeLines(feed, "pathways.txt", [Self.pathwaysHeader, "P1,BEATTY_E1,BEATTY_N1,1,1", "P2,BEATTY_N1,BEATTY_E1,1,1",
                                                          "P3,BEATTY_E1,BEATTY_AIRPORT,1,1"])
                }
                check(issue, "NODE_DEAD_END", "pathway_dangling_generic_node", file: "stops.txt", line: 13, field: "stop_id", value: "BEATTY_N1")
            }
        }

        @Test("a generic node between two places: no warning")
        func nodeWithTwoNeighbours() throws {
            try withFeed { feed in
                try Self.stationWithNode(feed)
                try writeLines(feed, "pathways.txt", [Self.pathwaysHeader, "P1,BEATTY_E1,BEATTY_N1,1,1", "P2,BEATTY_N1,BEATTY_AIRPORT,1,1"])
                try nearMiss(feed, rows: ["pathways.txt": 1]) {
                    try appendLines(feed, "pathways.txt", ["P3,BEATTY_E1,BEATTY_AIRPORT,1,1"])
                }
            }
        }
    }
}

// MARK: - Transfers

extension MoreCanonicalRuleTests {
    @Suite("Transfers: distances, in-seat transfers")
    struct Transfers {
        /// A stop `km` north of STAGECOACH (haversine, the earth's mean radius), stops.txt line 11.
        static func stop(_ km: Double) -> String {
            String(format: "NORTH,North (Demo),,%.7f,%.6f,,", stagecoach.lat + km / (6_371.0088 * Double.pi / 180), stagecoach.lon)
        }

        @Test("a transfer between stops more than 2 km apart: a note; more than 10 km: a warning; at to_stop_id", arguments: [
            (2.1, "transfer_distance_above_2_km"), (9.9, "transfer_distance_above_2_km"), (10.1, "transfer_distance_too_large"),
        ])
        func farTransfer(km: Double, canonical: String) throws {
            try withFeed { feed in
                try appendLines(feed, "stops.txt", [Self.stop(km)])
                try writeTransfers(feed, [])
                let issue = try oneAfterDefect(feed, "TRANSFER_FAR", canonical, rows: ["transfers.txt": 1]) {
                    try writeTransfers(feed, ["STAGECOACH,NORTH,0,,,"])
                }
                check(issue, "TRANSFER_FAR", canonical, file: "transfers.txt", line: 2, field: "to_stop_id", value: "NORTH")
            }
        }

        @Test("a transfer between stops 1.9 km apart, or between neighbours: no notice")
        func nearTransfer() throws {
            try withFeed { feed in
                try appendLines(feed, "stops.txt", [Self.stop(1.9)])
                try writeTransfers(feed, [])
                try nearMiss(feed, rows: ["transfers.txt": 2]) {
                    try writeTransfers(feed, ["STAGECOACH,NORTH,0,,,", "NADAV,NANAA,2,120,,"])
                }
            }
        }

        @Test("a transfer from a stop far from a platform without coordinates: measured from the platform's station")
        func farTransferByParent() throws {
            try withFeed { feed in
                // FAR_P has no coordinates; its station FAR_STATION is 10.1 km north of STAGECOACH.
                let station = Self.stop(10.1).replacingOccurrences(of: "NORTH,North (Demo)", with: "FAR_STATION,Far Station (Demo)")
                try writeStops(feed, [:], [station + ",1,,", "FAR_P,Far Platform (Demo),,,,,,0,FAR_STATION,"])
                try writeTransfers(feed, [])
                let issue = try oneAfterDefect(feed, "TRANSFER_FAR", "transfer_distance_too_large", rows: ["transfers.txt": 1]) {
                    try writeTransfers(feed, ["STAGECOACH,FAR_P,0,,,"])
                }
                check(issue, "TRANSFER_FAR", "transfer_distance_too_large", file: "transfers.txt", line: 2, field: "to_stop_id", value: "FAR_P")
            }
        }

        // CITY1 runs STAGECOACH … DADAN, EMSI; CITY2 EMSI, DADAN … STAGECOACH; AB1 BEATTY_AIRPORT,
        // BULLFROG; BFC1 BULLFROG, FUR_CREEK_RES. All on route_type 3.

        @Test("an in-seat transfer from a stop before the first trip's last, or to one after the second's first: a warning at that trip", arguments: [
            ("DADAN,EMSI,4,,CITY1,CITY2", "from_trip_id", "CITY1"), ("EMSI,DADAN,4,,CITY1,CITY2", "to_trip_id", "CITY2"),
        ])
        func inSeatMidTrip(row: String, field: String, trip: String) throws {
            try withFeed { feed in
                try writeTransfers(feed, ["EMSI,EMSI,4,,CITY1,CITY2"])
                let issue = try oneAfterDefect(feed, "IN_SEAT_MID_TRIP", "transfer_with_suspicious_mid_trip_in_seat") {
                    try writeTransfers(feed, [row])
                }
                check(issue, "IN_SEAT_MID_TRIP", "transfer_with_suspicious_mid_trip_in_seat", file: "transfers.txt", line: 2, field: field, value: trip)
            }
        }

        @Test("an in-seat transfer at the first trip's last stop and the second's first; a mid-trip one not in-seat: no warning")
        func inSeatAtTheEnds() throws {
            try withFeed { feed in
                try writeTransfers(feed, [])
                try nearMiss(feed, rows: ["transfers.txt": 3]) {
                    try writeTransfers(feed, ["EMSI,EMSI,4,,CITY1,CITY2", "BULLFROG,BULLFROG,4,,AB1,BFC1", "DADAN,EMSI,1,,CITY1,CITY2"])
                }
            }
        }

        @Test("an in-seat transfer between trips of different route types: a warning at to_trip_id")
        func inSeatOtherMode() throws {
            try withFeed { feed in
                // BFC a tram, its trips in no block (a block of a bus and a tram is another rule).
                try feed.replace("routes.txt", "BFC,DTA,20,Bullfrog - Furnace Creek Resort,,3,", with: "BFC,DTA,20,Bullfrog - Furnace Creek Resort,,0,")
                try feed.write("trips.txt", try feed.text("trips.txt").replacingOccurrences(of: ",1.000000,", with: ",,").replacingOccurrences(of: ",2.000000,", with: ",,"))
                try writeTransfers(feed, ["BULLFROG,BULLFROG,1,,AB1,BFC1"])
                let issue = try oneAfterDefect(feed, "IN_SEAT_OTHER_MODE", "inconsistent_route_type_for_in_seat_transfer") {
                    try writeTransfers(feed, ["BULLFROG,BULLFROG,4,,AB1,BFC1"])
                }
                check(issue, "IN_SEAT_OTHER_MODE", "inconsistent_route_type_for_in_seat_transfer", file: "transfers.txt", line: 2, field: "to_trip_id", value: "BFC1")
            }
        }
    }
}

// MARK: - Trips: ferries, blocks

extension MoreCanonicalRuleTests {
    @Suite("Ferries without bikes_allowed, blocks of several modes")
    struct TripsAndBlocks {
        /// AAMV (routes.txt line 6) a ferry: trips AAMV1–4, trips.txt lines 9–12.
        static func ferry(_ feed: FeedFolder) throws {
            try feed.replace("routes.txt", "AAMV,DTA,50,Airport - Amargosa Valley,,3,", with: "AAMV,DTA,50,Airport - Amargosa Valley,,4,")
        }

        @Test("a ferry trip with bikes_allowed empty: a warning at bikes_allowed")
        func ferryWithoutBikes() throws {
            try withFeed { feed in
                try Self.ferry(feed)
                try writeBikes(feed, "1")
                let issue = try oneAfterDefect(feed, "FERRY_WITHOUT_BIKES", "missing_bike_allowance") {
                    try writeBikes(feed, "1", except: ["AAMV2": ""])
                }
                check(issue, "FERRY_WITHOUT_BIKES", "missing_bike_allowance", file: "trips.txt", line: 10, field: "bikes_allowed", value: nil)
            }
        }

        @Test("a ferry route without the bikes_allowed column: a warning for each of its trips")
        func ferryTripsWithoutColumn() throws {
            try withFeed { feed in
                let found = try afterDefect(feed, "FERRY_WITHOUT_BIKES", "missing_bike_allowance", 4) { try Self.ferry(feed) }
                #expect(found.map(\.line) == [9, 10, 11, 12])
                for issue in found {
                    check(issue, "FERRY_WITHOUT_BIKES", "missing_bike_allowance", file: "trips.txt", line: issue.line, field: "bikes_allowed", value: nil)
                }
            }
        }

        @Test("a ferry trip that says whether bicycles board (2: they do not; 0: no information); a bus trip without it: no warning",
              arguments: ["2", "0"])
        func ferryWithBikesSaid(value: String) throws {
            try withFeed { feed in
                try Self.ferry(feed)
                try writeBikes(feed, "1")
                try nearMiss(feed) { try writeBikes(feed, "1", except: ["AAMV2": value, "AB1": ""]) }
            }
        }

        /// CITY (routes.txt line 5) a tram; CITY1 (trips.txt line 5) and CITY2 (line 6) in no block.
        static func tram(_ feed: FeedFolder) throws {
            try feed.replace("routes.txt", "CITY,DTA,40,City,,3,", with: "CITY,DTA,40,City,,0,")
        }

        @Test("a trip of another route type in a block: a warning at its block_id, once per block however many", arguments: [
            ["CITY1"], ["CITY1", "CITY2"],
        ])
        func blockMixesModes(trips: [String]) throws {
            try withFeed { feed in
                try Self.tram(feed)
                // Block 1.000000: AB1 (line 2, a bus), then the trams, then BFC1 (line 7, a bus).
                let issue = try oneAfterDefect(feed, "BLOCK_MIXES_MODES", "inconsistent_route_type_for_block_id") {
                    for t in trips { try feed.replace("trips.txt", "CITY,FULLW,\(t),,\(t == "CITY1" ? 0 : 1),,", with: "CITY,FULLW,\(t),,\(t == "CITY1" ? 0 : 1),1.000000,") }
                }
                check(issue, "BLOCK_MIXES_MODES", "inconsistent_route_type_for_block_id", file: "trips.txt", line: 5, field: "block_id", value: "1.000000")
            }
        }

        @Test("a route of two blocks made a tram: a warning in each block")
        func twoBlocksMixModes() throws {
            try withFeed { feed in
                let found = try afterDefect(feed, "BLOCK_MIXES_MODES", "inconsistent_route_type_for_block_id", 2) {
                    try feed.replace("routes.txt", "BFC,DTA,20,Bullfrog - Furnace Creek Resort,,3,", with: "BFC,DTA,20,Bullfrog - Furnace Creek Resort,,0,")
                }
                #expect(found.map(\.line) == [7, 8])
                #expect(found.map(\.value) == ["1.000000", "2.000000"])
            }
        }

        @Test("a trip of the same route type added to a block: no warning")
        func blockOfOneMode() throws {
            try withFeed { feed in
                try nearMiss(feed) { try feed.replace("trips.txt", "CITY,FULLW,CITY1,,0,,", with: "CITY,FULLW,CITY1,,0,1.000000,") }
            }
        }
    }
}

// MARK: - Languages and feed_info

extension MoreCanonicalRuleTests {
    @Suite("Agency and feed languages, feed_info rows")
    struct Languages {
        @Test("a second agency in another language: a warning at its agency_lang")
        func agencyLanguagesDiffer() throws {
            try withFeed { feed in
                try writeAgencies(feed, "en", others: ["EN"])
                let issue = try oneAfterDefect(feed, "AGENCY_LANGUAGES_DIFFER", "inconsistent_agency_lang") {
                    try writeAgencies(feed, "en", others: ["fr"])
                }
                check(issue, "AGENCY_LANGUAGES_DIFFER", "inconsistent_agency_lang", file: "agency.txt", line: 3, field: "agency_lang", value: "fr")
            }
        }

        @Test("agencies in one language (in any letter case), or one without agency_lang: no warning")
        func agencyLanguagesAgree() throws {
            try withFeed { feed in
                try writeAgencies(feed, "en", others: [])
                // The new agencies are used by no route.
                try nearMiss(feed, also: [key("UNUSED_AGENCY", "unused_agency", .warning): 2], rows: ["agency.txt": 2]) {
                    try writeAgencies(feed, "en", others: ["EN", ""])
                }
            }
        }

        @Test("feed_lang not an agency's agency_lang: a warning at feed_lang for each such agency", arguments: [
            (["en"], 1), (["en", "de"], 2),
        ] as [([String], Int)])
        func feedLanguageDiffers(langs: [String], n: Int) throws {
            try withFeed { feed in
                try writeAgencies(feed, langs[0], others: Array(langs.dropFirst()))
                try writeFeedInfo(feed, ["mul"])
                // Two agencies in two languages: the second one's language is reported before the defect too.
                let before = langs.count > 1 ? ["AGENCY_LANGUAGES_DIFFER inconsistent_agency_lang": 1] : [:]
                let found = try afterDefect(feed, "FEED_LANGUAGE_DIFFERS", "feed_info_lang_and_agency_lang_mismatch", n, raisedBefore: before) {
                    try writeFeedInfo(feed, ["fr"])
                }
                for issue in found {
                    check(issue, "FEED_LANGUAGE_DIFFERS", "feed_info_lang_and_agency_lang_mismatch", file: "feed_info.txt", line: 2, field: "feed_lang", value: "fr")
                }
                #expect(Set(found.map(\.message)).count == n, "one per agency")
            }
        }

        @Test("feed_lang mul, or the agency's language in other letter case: no warning", arguments: ["mul", "EN"])
        func feedLanguageAgrees(lang: String) throws {
            try withFeed { feed in
                try writeAgencies(feed, "en")
                try writeFeedInfo(feed, ["en"])
                try nearMiss(feed) { try writeFeedInfo(feed, [lang]) }
            }
        }

        @Test("feed_lang in another language than agencies that do not say theirs: no warning")
        func agencyWithoutLanguage() throws {
            try withFeed { feed in
                try writeFeedInfo(feed, ["en"])
                try nearMiss(feed) { try writeFeedInfo(feed, ["fr"]) }
            }
        }

        @Test("feed_info.txt with a second and a third row: a warning at each, no field; every row loaded", arguments: [2, 3])
        func moreThanOneRow(rows: Int) throws {
            try withFeed { feed in
                try writeFeedInfo(feed, ["en"])
                let found = try afterDefect(feed, "MORE_THAN_ONE_ROW", "more_than_one_entity", rows - 1, rows: ["feed_info.txt": rows - 1]) {
                    try writeFeedInfo(feed, Array(repeating: "en", count: rows))
                }
                #expect(found.map(\.line) == Array(3...(rows + 1)))
                for issue in found {
                    check(issue, "MORE_THAN_ONE_ROW", "more_than_one_entity", file: "feed_info.txt", line: issue.line, field: nil, value: nil)
                }
            }
        }

        @Test("feed_info.txt with one row: no warning (but the values the row leaves out)")
        func oneFeedInfoRow() throws {
            try withFeed { feed in
                try nearMiss(feed, also: [key("RECOMMENDED_VALUE_MISSING", "missing_recommended_field", .warning): 3,
                                          key("NO_CONTACT", "missing_feed_contact_email_and_url", .warning): 1],
                             rows: ["feed_info.txt": 1]) { try writeFeedInfo(feed, ["en"]) }
            }
        }
    }
}

// MARK: - Ids

extension MoreCanonicalRuleTests {
    @Suite("Ids outside printable ASCII")
    struct Ids {
        /// Stop AMV renamed: its row (stops.txt line 10) and its four stop times.
        static func rename(_ feed: FeedFolder, _ id: String) throws {
            try writeLines(feed, "stops.txt", try lines(feed, "stops.txt").map { $0.hasPrefix("AMV,") ? id + $0.dropFirst(3) : $0 })
            try feed.write("stop_times.txt", try feed.text("stop_times.txt").replacingOccurrences(of: ",AMV,", with: ",\(id),"))
        }

        @Test("a stop_id with a byte outside 0x20–0x7E: a warning at every cell holding it (the stop and its stop times)", arguments: [
            "AMVÉ", "AM\u{7F}V", "AM\u{1}V", "Ámv",
        ])
        func stopIdNotASCII(id: String) throws {
            try withFeed { feed in
                let found = try afterDefect(feed, "ID_NOT_ASCII", "non_ascii_or_non_printable_char", 5) { try Self.rename(feed, id) }
                #expect(found.map { "\($0.file):\($0.line ?? 0)" }
                        == ["stop_times.txt:23", "stop_times.txt:24", "stop_times.txt:27", "stop_times.txt:28", "stops.txt:10"])
                for issue in found {
                    check(issue, "ID_NOT_ASCII", "non_ascii_or_non_printable_char", file: issue.file, line: issue.line, field: "stop_id", value: id)
                }
            }
        }

        @Test("a route_id outside ASCII: at routes.txt's route_id and the trips' route_id")
        func routeIdNotASCII() throws {
            try withFeed { feed in
                let found = try afterDefect(feed, "ID_NOT_ASCII", "non_ascii_or_non_printable_char", 3) {
                    try feed.replace("routes.txt", "CITY,DTA,", with: "CİTY,DTA,")
                    try feed.write("trips.txt", try feed.text("trips.txt").replacingOccurrences(of: "CITY,FULLW,", with: "CİTY,FULLW,"))
                }
                #expect(found.map { "\($0.file):\($0.line ?? 0) \($0.field ?? "")" } == ["routes.txt:5 route_id", "trips.txt:5 route_id", "trips.txt:6 route_id"])
                #expect(found.allSatisfy { $0.value == "CİTY" })
            }
        }

        @Test("ids of printable ASCII (a space, a tilde inside), and names outside ASCII: no warning", arguments: ["AM V", "AMV~", "A!V"])
        func printableIds(id: String) throws {
            try withFeed { feed in
                try nearMiss(feed) {
                    try Self.rename(feed, id)
                    try feed.replace("stops.txt", "Amargosa Valley (Demo)", with: "Amargosa Válley (Démo)")
                }
            }
        }
    }
}

// MARK: - Shapes

extension MoreCanonicalRuleTests {
    @Suite("Stops a shape passes too often")
    struct Shapes {
        /// Shape ZZ (shapes.txt lines 2…) for trip STBA: it starts at STAGECOACH, goes some 550 m
        /// north and back `passes` − 1 times (each a separate pass: the shape comes within 100 m
        /// and goes away again), then on to BEATTY_AIRPORT.
        static func zigzag(_ feed: FeedFolder, passes: Int) throws {
            let at = String(format: "%.6f,%.6f", stagecoach.lat, stagecoach.lon)
            let away = String(format: "%.6f,%.6f", stagecoach.lat + 0.005, stagecoach.lon)
            var points = [at]
            for _ in 1..<passes { points += [away, at] }
            points.append("36.868446,-116.784582")
            try writeLines(feed, "shapes.txt", ["shape_id,shape_pt_lat,shape_pt_lon,shape_pt_sequence,shape_dist_traveled"]
                           + points.enumerated().map { "ZZ,\($0.element),\($0.offset + 1)," })
        }

        static func follow(_ feed: FeedFolder) throws {
            try feed.replace("trips.txt", "STBA,FULLW,STBA,Shuttle,,,", with: "STBA,FULLW,STBA,Shuttle,,,ZZ")
        }

        @Test("a shape that passes a stop 21 times: a warning at the stop time's stop_id")
        func tooManyMatches() throws {
            try withFeed { feed in
                try Self.zigzag(feed, passes: 20)
                try Self.follow(feed)
                let issue = try oneAfterDefect(feed, "STOP_NEAR_SHAPE_OFTEN", "stop_has_too_many_matches_for_shape", rows: ["shapes.txt": 2]) {
                    try Self.zigzag(feed, passes: 21)
                }
                check(issue, "STOP_NEAR_SHAPE_OFTEN", "stop_has_too_many_matches_for_shape", file: "stop_times.txt", line: 2, field: "stop_id", value: "STAGECOACH")
                #expect(issue.message.contains("21 times"), "\(issue.message)")
            }
        }

        @Test("a shape that passes a stop 20 times, or once: no warning")
        func twentyMatches() throws {
            try withFeed { feed in
                try Self.zigzag(feed, passes: 1)
                try Self.follow(feed)
                try nearMiss(feed, rows: ["shapes.txt": 38]) { try Self.zigzag(feed, passes: 20) }
            }
        }
    }
}

// MARK: - Shared real feeds

extension MoreCanonicalRuleTests {
    /// Neither we (release build) nor gtfs-guru 1.0.0 raise any of these on the shared feeds.
    @Suite("On the shared real feeds")
    struct SharedFeeds {
        static let feeds = sharedFeedFiles

        @Test("none of these rules", arguments: feeds)
        func sharedFeed(name: String) throws {
            let summary = try GTFSFeedLoader(source: try openFeed(at: try requireSharedFeed(name)), examplesPerKind: 3).load(into: RecordingSink())
            #expect(raised(summary) == [:], "\(name): \(examples(summary).filter { e in moreRules.contains { $0.canonical == e.canonical } })")
        }
    }
}

extension MoreCanonicalRuleTests {
    @Suite("FieldParsing.textKind: valid text, and whether it is all printable ASCII")
    struct TextKind {
        @Test("printable ASCII, other valid text, invalid text", arguments: [
            ("STAGECOACH", FieldParsing.TextKind.printableASCII), (" ~!", .printableASCII), ("", .printableASCII),
            ("Vilniaus g.", .printableASCII), ("Žirmūnai", .other), ("tab\there", .other), ("del\u{7F}", .other), ("line\nbreak", .other),
            ("nul\u{0}", .invalid),
        ])
        func kinds(text: String, kind: FieldParsing.TextKind) {
            #expect(Array(text.utf8).withUnsafeBufferPointer(FieldParsing.textKind) == kind, "\(text.debugDescription)")
        }

        @Test("bytes that are not UTF-8: invalid")
        func notUTF8() {
            #expect([0x41, 0xC3, 0x28].withUnsafeBufferPointer(FieldParsing.textKind) == .invalid)
            #expect([0xFF].withUnsafeBufferPointer(FieldParsing.textKind) == .invalid)
        }
    }
}
