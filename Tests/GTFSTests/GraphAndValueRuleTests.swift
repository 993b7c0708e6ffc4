import Foundation
import Testing
import GTFS
import TransitModel

// The canonical ERROR rules over a feed's graphs and over the text of values: trips of one
// block that overlap (`FeedRules.overlappingBlocks`), locations of a station that no
// entrance reaches or that reach no exit (`FeedRules.unreachableLocations`), elevators to a
// location without a level (`FeedRules.pathway`), transfers naming a trip that does not stop
// where they say, line breaks inside a quoted value, and agency phone numbers that are not
// one. One defect per feed, made in a copy of a bundled feed: the feed before the defect
// raises none of these rules; the defect raises exactly the notices it should, with our code
// and action (`severity`), the canonical code and its severity, and the place; and the row
// is skipped (row error), loaded without the value (field error) or loaded as it is
// (warning). Each with near misses that stay silent. Then the bundled feeds and the shared
// wmata-rail-2026 (the only shared feed with elevators), and `FieldParsing.isPhoneNumber`.

/// The suites of this file, nested here so that `--filter GraphAndValueRuleTests` runs them all.
@Suite("Canonical rules over pathways, blocks, transfers and values")
struct GraphAndValueRuleTests {}

// MARK: - Helpers

/// A feed (folder or zip) loaded into a recording sink, every example kept.
private func load(_ path: String, strict: Bool = false, keeping files: Set<String> = []) throws -> (GTFSLoadSummary, RecordingSink) {
    let sink = RecordingSink(keeping: files)
    let summary = try GTFSFeedLoader(source: try openFeed(at: path), strict: strict, examplesPerKind: 1_000).load(into: sink)
    return (summary, sink)
}

/// Our codes of the rules under test, and the canonical code each raises.
private let ruleCodes: [String: String] = [
    "BLOCK_TRIPS_OVERLAP": "block_trips_with_overlapping_stop_times",
    "LOCATION_UNREACHABLE": "pathway_unreachable_location",
    "ELEVATOR_WITHOUT_LEVEL": "missing_level_id",
    "TRANSFER_TRIP_NOT_AT_STOP": "transfer_with_invalid_trip_and_stop",
    "LINE_BREAK_IN_VALUE": "new_line_in_value",
    "BAD_PHONE": "invalid_phone_number",
]
private let ruleCanonicals = Set(ruleCodes.values)

/// Our action on each rule under test.
private let ruleSeverity: [String: GTFSIssue.Severity] = [
    "BLOCK_TRIPS_OVERLAP": .warning, "LOCATION_UNREACHABLE": .warning, "ELEVATOR_WITHOUT_LEVEL": .warning,
    "TRANSFER_TRIP_NOT_AT_STOP": .rowError, "LINE_BREAK_IN_VALUE": .warning, "BAD_PHONE": .fieldError,
]

/// Whether a notice is of a rule under test (by our code or by the canonical code).
private func underTest(_ code: String, _ canonical: String?) -> Bool {
    ruleCodes[code] != nil || canonical.map(ruleCanonicals.contains) == true
}

/// The issues of the rules under test, counted by our code.
private func ruleCounts(_ summary: GTFSLoadSummary) -> [String: Int] {
    summary.issues.entries.reduce(into: [:]) { d, entry in
        if underTest(entry.kind.code, entry.kind.canonical) { d[entry.kind.code, default: 0] += entry.count }
    }
}

/// The examples of the rules under test, for failure messages.
private func ruleExamples(_ summary: GTFSLoadSummary) -> [GTFSIssue] {
    examples(summary).filter { underTest($0.code, $0.canonical) }
}

/// The load after a defect.
private struct AfterDefect {
    let summary: GTFSLoadSummary
    let sink: RecordingSink
    /// The notices of the rule the defect added, by file and line.
    let issues: [GTFSIssue]
    /// The one notice the defect added (the first, when it added several).
    var issue: GTFSIssue { issues[0] }
}

/// Loads `feed` (which must raise none of the rules under test), makes `defect` and loads it
/// again: expects exactly `count` notices more with `code` (our action on it, its canonical
/// code), none of the other rules under test, the other notices changed only by `also`, the
/// rows loaded per file changed only by `loaded` and the rows skipped only by `skipped`.
private func afterDefect(_ feed: FeedFolder, _ code: String, count: Int = 1, also: [String: Int] = [:], loaded rows: [String: Int] = [:],
                         skipped skips: [String: Int] = [:], keeping files: Set<String> = [], sourceLocation: SourceLocation = #_sourceLocation,
                         _ defect: () throws -> Void) throws -> AfterDefect {
    let (before, _) = try load(feed.path)
    #expect(ruleCounts(before).isEmpty, "the feed before the defect: \(ruleExamples(before))", sourceLocation: sourceLocation)
    try defect()
    let (after, sink) = try load(feed.path, keeping: files)
    let severity = try #require(ruleSeverity[code], sourceLocation: sourceLocation)
    #expect(ruleCounts(after) == [code: count], "\(ruleExamples(after))", sourceLocation: sourceLocation)
    #expect(changes(from: tally(before), to: tally(after)) == adding([key(code, ruleCodes[code], severity): count], also),
            "the defect changed \(changes(from: tally(before), to: tally(after)))", sourceLocation: sourceLocation)
    #expect(loaded(after) == adding(loaded(before), rows), "rows loaded per file", sourceLocation: sourceLocation)
    #expect(skipped(after) == adding(skipped(before), skips), "rows skipped per file", sourceLocation: sourceLocation)
    let found = issues(after, code).sorted { ($0.file, $0.line ?? 0) < ($1.file, $1.line ?? 0) }
    #expect(found.count == count, "\(found)", sourceLocation: sourceLocation)
    try #require(!found.isEmpty, "no \(code) in \(examples(after))", sourceLocation: sourceLocation)
    return AfterDefect(summary: after, sink: sink, issues: found)
}

/// Loads `feed` (which must raise none of the rules under test), makes `change` and loads it
/// again: expects none of the rules under test, the other notices changed only by `also`, and
/// the rows loaded per file changed only by `loaded` (every row read is loaded, as before).
@discardableResult
private func nearMiss(_ feed: FeedFolder, also: [String: Int] = [:], loaded rows: [String: Int] = [:], keeping files: Set<String> = [],
                      sourceLocation: SourceLocation = #_sourceLocation, _ change: () throws -> Void) throws -> (GTFSLoadSummary, RecordingSink) {
    let (before, _) = try load(feed.path)
    #expect(ruleCounts(before).isEmpty, "the feed before the change: \(ruleExamples(before))", sourceLocation: sourceLocation)
    try change()
    let (after, sink) = try load(feed.path, keeping: files)
    #expect(ruleCounts(after).isEmpty, "\(ruleExamples(after))", sourceLocation: sourceLocation)
    #expect(changes(from: tally(before), to: tally(after)) == also, "the change changed \(changes(from: tally(before), to: tally(after)))",
            sourceLocation: sourceLocation)
    #expect(loaded(after) == adding(loaded(before), rows), "rows loaded per file", sourceLocation: sourceLocation)
    #expect(skipped(after) == skipped(before), "rows skipped per file", sourceLocation: sourceLocation)
    return (after, sink)
}

/// Our code and action, the canonical code and its severity (an ERROR for each rule here, in
/// the catalogue), and the place.
private func check(_ issue: GTFSIssue, _ code: String, file: String, line: Int?, field: String?, value: String?,
                   sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(issue.code == code, sourceLocation: sourceLocation)
    #expect(issue.canonical == ruleCodes[code], sourceLocation: sourceLocation)
    #expect(issue.severity == ruleSeverity[code], sourceLocation: sourceLocation)
    #expect(issue.canonicalSeverity == .error, sourceLocation: sourceLocation)
    #expect(issue.file == file, sourceLocation: sourceLocation)
    #expect(issue.line == line, sourceLocation: sourceLocation)
    #expect(issue.field == field, sourceLocation: sourceLocation)
    #expect(issue.value == value, sourceLocation: sourceLocation)
}

extension GraphAndValueRuleTests {
    @Test("the catalogue has each canonical code as an ERROR, and maps none of our codes elsewhere")
    func catalogue() {
        for (code, canonical) in ruleCodes.sorted(by: { $0.key < $1.key }) {
            #expect(CanonicalNotice.rules[canonical]?.severity == .error, "\(canonical)")
            if let mapped = CanonicalNotice.code(for: code) { #expect(mapped == canonical, "\(code)") }
        }
    }
}

// MARK: - Blocks

/// google-sample's block 1: AB1 (trips.txt line 2) runs 8:00–8:10 (its last stop arrives at
/// 8:10, leaves at 8:15), BFC1 (line 7) 8:20–9:20, both on FULLW (every day but 2007-06-04).
/// Block 2: BFC2 (line 8) 11:00–12:00, then AB2 (line 3) 12:05–12:15.
private let bfc1First = "BFC1,8:20:00,8:20:00,BULLFROG,1,"

/// BFC1 starting at `time` (its first stop time's arrival and departure).
private func startBFC1(_ feed: FeedFolder, at time: String) throws {
    try feed.replace("stop_times.txt", bfc1First, with: "BFC1,\(time),\(time),BULLFROG,1,")
}

/// BFC1 on another service, given by `calendar` (calendar.txt rows) or `dates` (calendar_dates.txt rows).
private func moveBFC1(_ feed: FeedFolder, to service: String, calendar: [String] = [], dates: [String] = []) throws {
    try feed.replace("trips.txt", "BFC,FULLW,BFC1,", with: "BFC,\(service),BFC1,")
    if !calendar.isEmpty { try appendLines(feed, "calendar.txt", calendar) }
    if !dates.isEmpty { try appendLines(feed, "calendar_dates.txt", dates) }
}

extension GraphAndValueRuleTests {
    @Suite("block_trips_with_overlapping_stop_times: one vehicle on two trips at once")
    struct BlockOverlap {
        @Test("a trip of a block starting before the one before it ends: a warning at the later trip's block_id, both trips loaded")
        func overlap() throws {
            try withFeed { feed in
                let result = try afterDefect(feed, "BLOCK_TRIPS_OVERLAP", keeping: ["trips.txt", "stop_times.txt"]) {
                    try startBFC1(feed, at: "8:05:00")
                }
                check(result.issue, "BLOCK_TRIPS_OVERLAP", file: "trips.txt", line: 7, field: "block_id", value: "1.000000")
                #expect(result.issue.message.contains("BFC1") && result.issue.message.contains("AB1"), "\(result.issue.message)")
                #expect(result.issue.message.contains("8:05:00") && result.issue.message.contains("8:10:00"), "\(result.issue.message)")
                #expect(try row(result.sink, "trips.txt", "trip_id", "BFC1")["block_id"] == .text("1.000000"))
                #expect(result.sink.rows("stop_times.txt").filter { $0["trip_id"] == .text("BFC1") }.count == 2)
                #expect(result.sink.rows("stop_times.txt").contains { $0["trip_id"] == .text("BFC1") && $0["arrival_time"] == .int(8 * 3600 + 300) })
            }
        }

        @Test("the later trip earlier in the file: block 2's AB2 starting at 11:55, before BFC2 ends at 12:00, is named")
        func laterTripFirstInFile() throws {
            try withFeed { feed in
                let result = try afterDefect(feed, "BLOCK_TRIPS_OVERLAP") {
                    try feed.replace("stop_times.txt", "AB2,12:05:00,12:05:00,", with: "AB2,11:55:00,11:55:00,")
                }
                check(result.issue, "BLOCK_TRIPS_OVERLAP", file: "trips.txt", line: 3, field: "block_id", value: "2.000000")
            }
        }

        @Test("the earlier trip's rows in two runs (its last stop time at the end of the file): its end is still its last stop")
        func earlierTripInTwoRuns() throws {
            try withFeed { feed in
                let last = "AB1,8:10:00,8:15:00,BULLFROG,2,,,,"
                try feed.replace("stop_times.txt", last + "\n", with: "")
                try appendLines(feed, "stop_times.txt", [last])
                let result = try afterDefect(feed, "BLOCK_TRIPS_OVERLAP") { try startBFC1(feed, at: "8:05:00") }
                check(result.issue, "BLOCK_TRIPS_OVERLAP", file: "trips.txt", line: 7, field: "block_id", value: "1.000000")
            }
        }

        @Test("a trip put into a block across two of its trips: one notice per overlapping pair")
        func onePerPair() throws {
            try withFeed { feed in
                // AAMV1 (line 9, weekends) runs 8:00–9:00: over AB1 (8:00–8:10) and BFC1 (8:20–9:20), which do not overlap.
                let result = try afterDefect(feed, "BLOCK_TRIPS_OVERLAP", count: 2) {
                    try feed.replace("trips.txt", "AAMV,WE,AAMV1,to Amargosa Valley,0,,", with: "AAMV,WE,AAMV1,to Amargosa Valley,0,1.000000,")
                }
                #expect(result.issues.map(\.line) == [7, 9])
                for issue in result.issues { #expect(issue.field == "block_id" && issue.value == "1.000000" && issue.severity == .warning) }
                let bfc1 = result.issues[0].message, aamv1 = result.issues[1].message
                #expect(bfc1.contains("BFC1") && bfc1.contains("AAMV1") && !bfc1.contains("AB1 "), "\(bfc1)")
                #expect(aamv1.contains("AAMV1") && aamv1.contains("AB1"), "\(aamv1)")
            }
        }

        @Test("a trip starting when the one before it arrives at its last stop, or after that arrival (though before its departure): nothing raised",
              arguments: ["8:10:00", "8:12:00"])
        func touching(start: String) throws {
            try withFeed { feed in
                try nearMiss(feed) { try startBFC1(feed, at: start) }
            }
        }

        @Test("overlapping trips of one block on services with no common day: nothing raised", arguments: [
            // Only on 2007-06-04, the day FULLW does not run.
            ("ONEDAY", [String](), ["ONEDAY,20070604,1"]),
            // In 2011, after FULLW ends.
            ("Y2011", ["Y2011,1,1,1,1,1,1,1,20110101,20111231"], [String]()),
            // On weekdays, with AB1 on weekends.
            ("WKDY", ["WKDY,1,1,1,1,1,0,0,20070101,20101231"], [String]()),
        ])
        func noCommonDay(service: String, calendar: [String], dates: [String]) throws {
            try withFeed { feed in
                if service == "WKDY" { try feed.replace("trips.txt", "AB,FULLW,AB1,", with: "AB,WE,AB1,") }
                try nearMiss(feed, loaded: ["calendar.txt": calendar.count, "calendar_dates.txt": dates.count]) {
                    try startBFC1(feed, at: "8:05:00")
                    try moveBFC1(feed, to: service, calendar: calendar, dates: dates)
                }
            }
        }

        @Test("the same overlap on services that share a day (weekends, a single added date): raised", arguments: [
            ("SUNDAY", ["SUNDAY,0,0,0,0,0,0,1,20070101,20101231"], [String]()),
            ("ONEDAY", [String](), ["ONEDAY,20070605,1"]),
        ])
        func sharedDay(service: String, calendar: [String], dates: [String]) throws {
            try withFeed { feed in
                let result = try afterDefect(feed, "BLOCK_TRIPS_OVERLAP", loaded: ["calendar.txt": calendar.count, "calendar_dates.txt": dates.count]) {
                    try startBFC1(feed, at: "8:05:00")
                    try moveBFC1(feed, to: service, calendar: calendar, dates: dates)
                }
                check(result.issue, "BLOCK_TRIPS_OVERLAP", file: "trips.txt", line: 7, field: "block_id", value: "1.000000")
            }
        }

        /// A service "until further notice" (here 2007 to 2099) shares its days with the others:
        /// a calendar.txt range counts its first 40,000 days.
        @Test("the same overlap with BFC1 on a service from 2007 to 2099, which shares every day of FULLW: raised")
        func longService() throws {
            try withFeed { feed in
                let result = try afterDefect(feed, "BLOCK_TRIPS_OVERLAP", loaded: ["calendar.txt": 1]) {
                    try startBFC1(feed, at: "8:05:00")
                    try moveBFC1(feed, to: "LONG", calendar: ["LONG,1,1,1,1,1,1,1,20070101,20991231"])
                }
                check(result.issue, "BLOCK_TRIPS_OVERLAP", file: "trips.txt", line: 7, field: "block_id", value: "1.000000")
            }
        }

        @Test("overlapping trips of different blocks, or of none: nothing raised", arguments: ["3", ""])
        func otherBlock(block: String) throws {
            try withFeed { feed in
                try nearMiss(feed) {
                    try startBFC1(feed, at: "8:05:00")
                    try feed.replace("trips.txt", "BFC,FULLW,BFC1,to Furnace Creek Resort,0,1.000000,",
                                     with: "BFC,FULLW,BFC1,to Furnace Creek Resort,0,\(block),")
                }
            }
        }
    }
}

// MARK: - A station with pathways

/// google-sample as a station with pathways: STAGECOACH (stops.txt line 5, where CITY1, CITY2
/// and STBA stop) a platform of STATION (line 11) on level L2; ENTRANCE (line 12, L0) down
/// STAIRS (pathways.txt line 2, two-way) to MEZZANINE (line 13, a generic node on L1), from
/// there the LIFT (line 3, an elevator, two-way) to the platform. Then `rows` from stops.txt
/// line 14 on, `pathways` from pathways.txt line 4 on.
private func writeStation(_ feed: FeedFolder, rows: [String] = [], pathways: [String] = []) throws {
    let stops = try lines(feed, "stops.txt")
    try #require(stops.count == 10 && stops[0] == "stop_id,stop_name,stop_desc,stop_lat,stop_lon,zone_id,stop_url")
    let nine = stops.dropFirst().map { $0.hasPrefix("STAGECOACH,") ? $0 + ",0,STATION,L2" : $0 + ",,," }
    try writeLines(feed, "stops.txt", ["stop_id,stop_name,stop_desc,stop_lat,stop_lon,zone_id,stop_url,location_type,parent_station,level_id"]
                   + nine + [
                       "STATION,Stagecoach Station (Demo),,36.915682,-116.751677,,,1,,",
                       "ENTRANCE,Stagecoach Entrance (Demo),,36.9158,-116.7518,,,2,STATION,L0",
                       "MEZZANINE,Stagecoach Mezzanine (Demo),,,,,,3,STATION,L1",
                   ] + rows)
    try writeLines(feed, "levels.txt", ["level_id,level_index,level_name", "L0,0,Street", "L1,-1,Mezzanine", "L2,-2,Platform"])
    try writeLines(feed, "pathways.txt", ["pathway_id,from_stop_id,to_stop_id,pathway_mode,is_bidirectional",
                                          "STAIRS,ENTRANCE,MEZZANINE,2,1", "LIFT,MEZZANINE,STAGECOACH,5,1"] + pathways)
}

/// A second platform of STATION, on L2 (no trip stops there).
private let secondPlatform = "PLATFORM_2,Second platform (Demo),,36.9157,-116.7517,,,0,STATION,L2"

extension GraphAndValueRuleTests {
    @Suite("pathway_unreachable_location: places of a station cut off from its entrances")
    struct UnreachableLocation {
        @Test("the station as written: every place reached from the entrance and back, all loaded")
        func station() throws {
            try withFeed { feed in
                try writeStation(feed)
                let (summary, sink) = try load(feed.path, keeping: ["stops.txt", "pathways.txt"])
                #expect(ruleCounts(summary).isEmpty, "\(ruleExamples(summary))")
                #expect(summary.issues.count(.rowError) == 0 && summary.issues.count(.fieldError) == 0, "\(examples(summary))")
                #expect(summary.stats("stops.txt")?.rowsLoaded == 12 && summary.stats("levels.txt")?.rowsLoaded == 3)
                #expect(sink.rows("pathways.txt").compactMap { $0["pathway_id"] } == [.text("STAIRS"), .text("LIFT")])
                #expect(try row(sink, "stops.txt", "stop_id", "STAGECOACH")["parent_station"] == .text("STATION"))
            }
        }

        @Test("a generic node of the station on no pathway: a warning at its stop_id, the node loaded")
        func isolatedNode() throws {
            try withFeed { feed in
                try writeStation(feed)
                let result = try afterDefect(feed, "LOCATION_UNREACHABLE", loaded: ["stops.txt": 1], keeping: ["stops.txt"]) {
                    try appendLines(feed, "stops.txt", ["LOST,Lost corridor (Demo),,,,,,3,STATION,L1"])
                }
                check(result.issue, "LOCATION_UNREACHABLE", file: "stops.txt", line: 14, field: "stop_id", value: "LOST")
                #expect(result.issue.message.contains("no entrance leads here and no exit"), "\(result.issue.message)")
                #expect(try row(result.sink, "stops.txt", "stop_id", "LOST")["location_type"] == .int(3))
            }
        }

        @Test("the elevator one-way, down to the platform or up from it: a warning at the platform, saying which way is missing", arguments: [
            ("LIFT,MEZZANINE,STAGECOACH,5,0", "no exit can be reached from here"),
            ("LIFT,STAGECOACH,MEZZANINE,5,0", "no entrance leads here"),
        ])
        func oneWay(pathway: String, why: String) throws {
            try withFeed { feed in
                try writeStation(feed)
                let result = try afterDefect(feed, "LOCATION_UNREACHABLE", keeping: ["pathways.txt"]) {
                    try feed.replace("pathways.txt", "LIFT,MEZZANINE,STAGECOACH,5,1", with: pathway)
                }
                check(result.issue, "LOCATION_UNREACHABLE", file: "stops.txt", line: 5, field: "stop_id", value: "STAGECOACH")
                #expect(result.issue.message.hasPrefix(why) && !result.issue.message.contains(" and no "), "\(result.issue.message)")
                #expect(try row(result.sink, "pathways.txt", "pathway_id", "LIFT")["is_bidirectional"] == .int(0))
            }
        }

        @Test("a second platform of the station on no pathway: a warning at it (and, as no trip stops there, stop_without_stop_time)")
        func platformOnNoPathway() throws {
            try withFeed { feed in
                try writeStation(feed)
                let result = try afterDefect(feed, "LOCATION_UNREACHABLE", also: [key("STOP_NOT_SERVED", "stop_without_stop_time", .warning): 1],
                                             loaded: ["stops.txt": 1]) {
                    try appendLines(feed, "stops.txt", [secondPlatform])
                }
                check(result.issue, "LOCATION_UNREACHABLE", file: "stops.txt", line: 14, field: "stop_id", value: "PLATFORM_2")
            }
        }

        @Test("a boarding area no pathway reaches: a warning at it; its platform, on no pathway but judged by its boarding areas, is not named")
        func boardingArea() throws {
            try withFeed { feed in
                try writeStation(feed, rows: [secondPlatform, "BOARDING_A,Front of the train (Demo),,,,,,4,PLATFORM_2,L2"],
                                 pathways: ["RAMP,MEZZANINE,BOARDING_A,1,1"])
                let result = try afterDefect(feed, "LOCATION_UNREACHABLE", loaded: ["stops.txt": 1]) {
                    try appendLines(feed, "stops.txt", ["BOARDING_B,Back of the train (Demo),,,,,,4,PLATFORM_2,L2"])
                }
                check(result.issue, "LOCATION_UNREACHABLE", file: "stops.txt", line: 16, field: "stop_id", value: "BOARDING_B")
            }
        }

        /// (The dead end has one neighbour: pathway_dangling_generic_node, a warning of its own.)
        @Test("a dead end reached by a single two-way pathway, written either way; a node on a one-way loop: nothing raised", arguments: [
            ["SPUR,MEZZANINE,DEAD_END,1,1"],
            ["SPUR,DEAD_END,MEZZANINE,1,1"],
            ["IN,MEZZANINE,DEAD_END,1,0", "OUT,DEAD_END,MEZZANINE,1,0"],
        ])
        func reachedBothWays(pathways: [String]) throws {
            try withFeed { feed in
                try writeStation(feed)
                try nearMiss(feed, also: [key("NODE_DEAD_END", "pathway_dangling_generic_node", .warning): 1],
                             loaded: ["stops.txt": 1, "pathways.txt": pathways.count]) {
                    try appendLines(feed, "stops.txt", ["DEAD_END,Dead end (Demo),,,,,,3,STATION,L1"])
                    try appendLines(feed, "pathways.txt", pathways)
                }
            }
        }

        @Test("a platform with boarding areas on no pathway, its boarding area reached: nothing raised")
        func platformJudgedByBoardingAreas() throws {
            try withFeed { feed in
                try writeStation(feed)
                try nearMiss(feed, loaded: ["stops.txt": 2, "pathways.txt": 1]) {
                    try appendLines(feed, "stops.txt", [secondPlatform, "BOARDING_A,Front of the train (Demo),,,,,,4,PLATFORM_2,L2"])
                    try appendLines(feed, "pathways.txt", ["RAMP,MEZZANINE,BOARDING_A,1,1"])
                }
            }
        }

        @Test("a node of a station without pathways: nothing raised (the rule is for stations with pathways)")
        func stationWithoutPathways() throws {
            try withFeed { feed in
                try writeStation(feed)
                try nearMiss(feed, loaded: ["stops.txt": 3]) {
                    try appendLines(feed, "stops.txt", ["OTHER_STATION,Other station (Demo),,36.9,-116.76,,,1,,",
                                                        "OTHER_ENTRANCE,Other entrance (Demo),,36.9,-116.76,,,2,OTHER_STATION,",
                                                        "OTHER_NODE,Other node (Demo),,,,,,3,OTHER_STATION,"])
                }
            }
        }

        @Test("a node of another station reached only from this station's entrance: nothing raised (any entrance of the feed counts)")
        func anyEntranceOfTheFeed() throws {
            try withFeed { feed in
                try writeStation(feed, rows: ["OTHER_STATION,Other station (Demo),,36.9,-116.76,,,1,,",
                                              "OTHER_NODE,Other node (Demo),,,,,,3,OTHER_STATION,"])
                // OTHER_NODE has one neighbour: pathway_dangling_generic_node, a warning of its own.
                try nearMiss(feed, also: [key("NODE_DEAD_END", "pathway_dangling_generic_node", .warning): 1], loaded: ["pathways.txt": 1]) {
                    try appendLines(feed, "pathways.txt", ["TUNNEL,ENTRANCE,OTHER_NODE,1,1"])
                }
            }
        }
    }
}

// MARK: - Elevators

extension GraphAndValueRuleTests {
    @Suite("missing_level_id: an elevator to a location without a level")
    struct ElevatorLevel {
        @Test("an end of the elevator without level_id: a warning at its level_id, the location and the pathway loaded", arguments: [
            ("MEZZANINE,Stagecoach Mezzanine (Demo),,,,,,3,STATION,L1", "MEZZANINE", 13),
            ("STAGECOACH,Stagecoach Hotel & Casino (Demo),,36.915682,-116.751677,,,0,STATION,L2", "STAGECOACH", 5),
        ])
        func elevatorEnd(stop: String, id: String, line: Int) throws {
            try withFeed { feed in
                try writeStation(feed)
                let result = try afterDefect(feed, "ELEVATOR_WITHOUT_LEVEL", keeping: ["stops.txt", "pathways.txt"]) {
                    try feed.replace("stops.txt", stop, with: String(stop.dropLast(2)))
                }
                check(result.issue, "ELEVATOR_WITHOUT_LEVEL", file: "stops.txt", line: line, field: "level_id", value: id)
                #expect(result.issue.message.contains("pathways.txt line 3"), "\(result.issue.message)")
                #expect(try row(result.sink, "stops.txt", "stop_id", id)["level_id"] == .null)
                #expect(try row(result.sink, "pathways.txt", "pathway_id", "LIFT")["pathway_mode"] == .int(5))
            }
        }

        @Test("a location on two elevators without a level: one warning, at the first elevator")
        func oncePerLocation() throws {
            try withFeed { feed in
                try writeStation(feed, pathways: ["LIFT_2,STAGECOACH,MEZZANINE,5,0"])
                let result = try afterDefect(feed, "ELEVATOR_WITHOUT_LEVEL") {
                    try feed.replace("stops.txt", "MEZZANINE,Stagecoach Mezzanine (Demo),,,,,,3,STATION,L1",
                                     with: "MEZZANINE,Stagecoach Mezzanine (Demo),,,,,,3,STATION,")
                }
                check(result.issue, "ELEVATOR_WITHOUT_LEVEL", file: "stops.txt", line: 13, field: "level_id", value: "MEZZANINE")
                #expect(result.issue.message.contains("pathways.txt line 3"), "\(result.issue.message)")
            }
        }

        @Test("both ends of the elevator without a level: one warning each")
        func bothEnds() throws {
            try withFeed { feed in
                try writeStation(feed)
                let result = try afterDefect(feed, "ELEVATOR_WITHOUT_LEVEL", count: 2) {
                    try feed.replace("stops.txt", "3,STATION,L1", with: "3,STATION,")
                    try feed.replace("stops.txt", "0,STATION,L2", with: "0,STATION,")
                }
                #expect(result.issues.map(\.line) == [5, 13])
                #expect(result.issues.map(\.value) == ["STAGECOACH", "MEZZANINE"])
            }
        }

        @Test("an elevator between two locations with a level_id (the stairs made an elevator): nothing raised")
        func withLevels() throws {
            try withFeed { feed in
                try writeStation(feed)
                try nearMiss(feed) { try feed.replace("pathways.txt", "STAIRS,ENTRANCE,MEZZANINE,2,1", with: "STAIRS,ENTRANCE,MEZZANINE,5,1") }
            }
        }

        @Test("a location without a level at the end of stairs, a walkway or an escalator only: nothing raised", arguments: [2, 1, 4])
        func notAnElevator(mode: Int) throws {
            try withFeed { feed in
                try writeStation(feed)
                try feed.replace("pathways.txt", "STAIRS,ENTRANCE,MEZZANINE,2,1", with: "STAIRS,ENTRANCE,MEZZANINE,\(mode),1")
                try nearMiss(feed) {
                    try feed.replace("stops.txt", "2,STATION,L0", with: "2,STATION,")
                }
            }
        }
    }
}

// MARK: - Transfers naming a trip

/// bart-2018's transfers.txt (eight transfers within a stop, lines 2–9, CRLF) with
/// from_trip_id and to_trip_id columns, empty. 3650800SUN (route 01, Sundays) stops at LAFY,
/// ORIN, ROCK, MCAR_S, 19TH, 12TH, … SFIA, MLBR; 2250748SUN stops at FRMT; MCAR is
/// MacArthur's other platform, a stop of its own (bart-2018 has no stations).
private func writeBartTransfers(_ feed: FeedFolder) throws {
    let old = try lines(feed, "transfers.txt")
    try #require(old.count == 9 && old[0] == "from_stop_id,to_stop_id,transfer_type,min_transfer_time")
    try writeLines(feed, "transfers.txt", [old[0] + ",from_trip_id,to_trip_id"] + old.dropFirst().map { $0 + ",," })
}

extension GraphAndValueRuleTests {
    @Suite("transfer_with_invalid_trip_and_stop: a transfer naming a trip that does not stop there")
    struct TransferTripStop {
        @Test("a trip that does not stop at the transfer's stop: a row error at the trip's column, the transfer skipped", arguments: [
            ("FRMT,MCAR_S,1,,3650800SUN,", "from_trip_id", "3650800SUN"),
            ("MCAR_S,FRMT,1,,,3650800SUN", "to_trip_id", "3650800SUN"),
            ("MCAR,MCAR_S,1,,3650800SUN,", "from_trip_id", "3650800SUN"),     // the other platform, not a parent of the one it stops at
            ("MCAR_S,MCAR_S,2,180,3650800SUN,2250748SUN", "to_trip_id", "2250748SUN"),
        ])
        func notAtStop(text: String, field: String, value: String) throws {
            try withFeed("bart-2018.zip") { feed in
                try writeBartTransfers(feed)
                let result = try afterDefect(feed, "TRANSFER_TRIP_NOT_AT_STOP", skipped: ["transfers.txt": 1], keeping: ["transfers.txt"]) {
                    try appendLines(feed, "transfers.txt", [text])
                }
                check(result.issue, "TRANSFER_TRIP_NOT_AT_STOP", file: "transfers.txt", line: 10, field: field, value: value)
                #expect(result.summary.stats("transfers.txt")?.rowsRead == 9 && result.summary.stats("transfers.txt")?.rowsLoaded == 8)
                #expect(result.sink.rows("transfers.txt").map { $0["line_number"] } == (2...9).map { .int($0) })
            }
        }

        @Test("trips that stop at the transfer's stops, or a transfer naming no trip: loaded, nothing raised", arguments: [
            "MCAR_S,FRMT,1,,3650800SUN,2250748SUN",
            "MLBR,MLBR,1,,3650800SUN,3650800SUN",
            "MCAR,MCAR_S,1,,,3650800SUN",
            "FRMT,MCAR,2,300,,",
        ])
        func atStop(text: String) throws {
            try withFeed("bart-2018.zip") { feed in
                try writeBartTransfers(feed)
                // Fremont and MacArthur are 30 km apart: transfer_distance_too_large, a warning of its own.
                let far = text.contains("FRMT") ? [key("TRANSFER_FAR", "transfer_distance_too_large", .warning): 1] : [:]
                let (summary, sink) = try nearMiss(feed, also: far, loaded: ["transfers.txt": 1], keeping: ["transfers.txt"]) {
                    try appendLines(feed, "transfers.txt", [text])
                }
                #expect(summary.stats("transfers.txt")?.rowsLoaded == 9)
                #expect(sink.rows("transfers.txt").last?["line_number"] == .int(10))
            }
        }

        @Test("a transfer at a station whose platform the trip stops at: loaded; at the station of a platform it does not stop at: a row error",
              arguments: [
            ("STATION,NADAV,1,,CITY1,CITY2", nil, nil),
            ("NADAV,STATION,1,,CITY2,STBA", nil, nil),
            ("STATION,NADAV,1,,AB1,CITY2", "from_trip_id", "AB1"),
            ("NADAV,STATION,1,,CITY2,AAMV1", "to_trip_id", "AAMV1"),
        ] as [(String, String?, String?)])
        func station(text: String, field: String?, value: String?) throws {
            try withFeed { feed in
                try writeStation(feed)
                try writeLines(feed, "transfers.txt", ["from_stop_id,to_stop_id,transfer_type,min_transfer_time,from_trip_id,to_trip_id"])
                if let field {
                    let result = try afterDefect(feed, "TRANSFER_TRIP_NOT_AT_STOP", skipped: ["transfers.txt": 1]) {
                        try appendLines(feed, "transfers.txt", [text])
                    }
                    check(result.issue, "TRANSFER_TRIP_NOT_AT_STOP", file: "transfers.txt", line: 2, field: field, value: value)
                } else {
                    try nearMiss(feed, loaded: ["transfers.txt": 1]) { try appendLines(feed, "transfers.txt", [text]) }
                }
            }
        }

        @Test("a trip whose stop time at the transfer's stop comes in a later run of its rows: loaded, nothing raised")
        func laterRun() throws {
            try withFeed { feed in
                // CITY1's last stop time (EMSI) moved to the end of stop_times.txt.
                let last = "CITY1,6:26:00,6:28:00,EMSI,5,,,,"
                try feed.replace("stop_times.txt", last + "\n", with: "")
                try appendLines(feed, "stop_times.txt", [last])
                try writeLines(feed, "transfers.txt", ["from_stop_id,to_stop_id,transfer_type,min_transfer_time,from_trip_id,to_trip_id"])
                try nearMiss(feed, loaded: ["transfers.txt": 1]) { try appendLines(feed, "transfers.txt", ["EMSI,EMSI,1,,CITY1,CITY2"]) }
            }
        }

        @Test("strict: a transfer naming a trip that does not stop there stops the load")
        func strict() throws {
            try withFeed("bart-2018.zip") { feed in
                try writeBartTransfers(feed)
                try appendLines(feed, "transfers.txt", ["FRMT,MCAR_S,1,,3650800SUN,"])
                let issue = thrownFatal { _ = try load(feed.path, strict: true) }
                #expect(issue?.code == "TRANSFER_TRIP_NOT_AT_STOP" && issue?.line == 10 && issue?.value == "3650800SUN", "\(String(describing: issue))")
            }
        }
    }
}

// MARK: - Line breaks in values

extension GraphAndValueRuleTests {
    @Suite("new_line_in_value: a line break inside a quoted value")
    struct LineBreak {
        @Test("a quoted value with a line feed, a carriage return or both: a warning at the row's first line, the value loaded as written",
              arguments: [
            ("stops.txt", "NADAV,North Ave / D Ave N (Demo),", "NADAV,\"North Ave /\nD Ave N (Demo)\",", 6, "stop_name",
             "North Ave /\\nD Ave N (Demo)", "stop_id", "NADAV", "North Ave /\nD Ave N (Demo)"),
            ("trips.txt", "AB,FULLW,AB1,to Bullfrog,", "AB,FULLW,AB1,\"to\rBullfrog\",", 2, "trip_headsign",
             "to\\rBullfrog", "trip_id", "AB1", "to\rBullfrog"),
            ("routes.txt", "BFC,DTA,20,Bullfrog - Furnace Creek Resort,", "BFC,DTA,20,\"Bullfrog -\r\nFurnace Creek Resort\",", 3, "route_long_name",
             "Bullfrog -\\r\\nFurnace Creek Resort", "route_id", "BFC", "Bullfrog -\r\nFurnace Creek Resort"),
            ("agency.txt", "DTA,Demo Transit Authority,", "DTA,\"Demo\nTransit\nAuthority\",", 2, "agency_name",
             "Demo\\nTransit\\nAuthority", "agency_id", "DTA", "Demo\nTransit\nAuthority"),
        ])
        func lineBreak(file: String, old: String, new: String, line: Int, field: String, shown: String, idColumn: String, id: String, value: String) throws {
            try withFeed { feed in
                let result = try afterDefect(feed, "LINE_BREAK_IN_VALUE", keeping: [file]) {
                    try feed.replace(file, old, with: new)
                }
                check(result.issue, "LINE_BREAK_IN_VALUE", file: file, line: line, field: field, value: shown)
                #expect(try row(result.sink, file, idColumn, id)[field] == .text(value))
            }
        }

        @Test("a line break in a stop's name, at a stop after another multi-line row: the line its row starts on")
        func secondMultiLineRow() throws {
            try withFeed { feed in
                try feed.replace("stops.txt", "NADAV,North Ave / D Ave N (Demo),", with: "NADAV,\"North Ave /\nD Ave N (Demo)\",")
                let (before, _) = try load(feed.path)
                #expect(issues(before, "LINE_BREAK_IN_VALUE").map(\.line) == [6])
                try feed.replace("stops.txt", "EMSI,E Main St / S Irving St (Demo),", with: "EMSI,\"E Main St /\r\nS Irving St\n(Demo)\",")
                let (after, _) = try load(feed.path)
                // EMSI is the eighth stop (line 9), one line further down for NADAV's break.
                #expect(issues(after, "LINE_BREAK_IN_VALUE").sorted { $0.line! < $1.line! }.map(\.line) == [6, 10])
                #expect(issues(after, "LINE_BREAK_IN_VALUE").map(\.value).contains("E Main St /\\r\\nS Irving St\\n(Demo)"))
            }
        }

        @Test("a quoted value without a line break, or a backslash and n written unquoted: nothing raised, loaded as written", arguments: [
            ("\"North Ave, D Ave N (Demo)\"", "North Ave, D Ave N (Demo)"),
            ("North Ave \\n D Ave N (Demo)", "North Ave \\n D Ave N (Demo)"),
            ("\"North Ave \\r\\n D Ave N (Demo)\"", "North Ave \\r\\n D Ave N (Demo)"),
        ])
        func noLineBreak(new: String, name: String) throws {
            try withFeed { feed in
                let (summary, sink) = try nearMiss(feed, keeping: ["stops.txt"]) {
                    try feed.replace("stops.txt", "NADAV,North Ave / D Ave N (Demo),", with: "NADAV,\(new),")
                }
                #expect(summary.stats("stops.txt")?.rowsLoaded == 9)
                #expect(try row(sink, "stops.txt", "stop_id", "NADAV")["stop_name"] == .text(name))
            }
        }

        @Test("blank lines between rows and a file of CRLF line ends: nothing raised")
        func lineEndsBetweenRows() throws {
            try withFeed { feed in
                try nearMiss(feed) {
                    try feed.write("stops.txt", try feed.text("stops.txt").replacingOccurrences(of: "\n", with: "\r\n\r\n"))
                }
            }
        }
    }
}

// MARK: - Phone numbers

/// google-sample's agency.txt with an agency_phone column (line 2: DTA).
private func writeAgency(_ feed: FeedFolder, phone: String) throws {
    try writeLines(feed, "agency.txt", ["agency_id,agency_name,agency_url,agency_timezone,agency_phone",
                                        "DTA,Demo Transit Authority,http://google.com,America/Los_Angeles,\(phone)"])
}

/// Phone numbers as agencies write them (vanity letters, national forms, a short number).
private let goodPhones = ["916-321-BUSS", "(51)3363-8000", "02.48.607.607", "+48 52 582 27 00", "156", "555 0100 ext. 12", "+1/775/555.0100"]

extension GraphAndValueRuleTests {
    @Suite("invalid_phone_number: an agency_phone that is not a phone number")
    struct Phone {
        @Test("not a phone number: a field error at agency_phone (the value as written), the agency loaded without it", arguments: [
            ("call the office", "call the office"),
            ("12", "12"),
            ("555+0100", "555+0100"),
            ("++1 555 0100", "++1 555 0100"),
            ("555 0100 #2", "555 0100 #2"),
            ("555_0100", "555_0100"),
            ("555–0100", "555–0100"),                                   // an en dash
            ("123456789012345678901", "123456789012345678901"),         // 21 digits
            ("1-800-CALL-THE-DEPOT", "1-800-CALL-THE-DEPOT"),           // 12 letters
            ("\"775; 555 0100\"", "775; 555 0100"),
        ])
        func badPhone(text: String, shown: String) throws {
            try withFeed { feed in
                try writeAgency(feed, phone: "775-555-0100")
                let result = try afterDefect(feed, "BAD_PHONE", keeping: ["agency.txt"]) { try writeAgency(feed, phone: text) }
                check(result.issue, "BAD_PHONE", file: "agency.txt", line: 2, field: "agency_phone", value: shown)
                let agency = try row(result.sink, "agency.txt", "agency_id", "DTA")
                #expect(agency["agency_phone"] == .null)
                #expect(agency["agency_name"] == .text("Demo Transit Authority") && agency["agency_url"] == .text("http://google.com"))
            }
        }

        @Test("a phone number as agencies write them, or none: loaded as written, nothing raised", arguments: goodPhones + [""])
        func goodPhone(text: String) throws {
            try withFeed { feed in
                try writeAgency(feed, phone: "775-555-0100")
                let (_, sink) = try nearMiss(feed, keeping: ["agency.txt"]) { try writeAgency(feed, phone: text) }
                #expect(try row(sink, "agency.txt", "agency_id", "DTA")["agency_phone"] == (text.isEmpty ? .null : .text(text)))
            }
        }

        @Test("strict: a phone number that is not one does not stop the load")
        func strict() throws {
            try withFeed { feed in
                try writeAgency(feed, phone: "call the office")
                let (summary, _) = try load(feed.path, strict: true)
                #expect(summary.issues.count(code: "BAD_PHONE") == 1)
                #expect(summary.stats("agency.txt")?.rowsLoaded == 1)
            }
        }
    }

    @Suite("FieldParsing.isPhoneNumber: 3–20 digits, a leading +, separators, up to 10 letters")
    struct PhoneParsing {
        @Test("phone numbers", arguments: goodPhones + [
            "123", "12345678901234567890", "+1 (775) 555-0100", "1-800-ABCDEFGHIJ", "(911)", "555,0100", "+44 20 7946 0958",
        ])
        func valid(text: String) {
            #expect(parses(text, FieldParsing.isPhoneNumber), "\(text.debugDescription)")
        }

        @Test("not phone numbers", arguments: [
            "", "12", "+12", "+", "1 2", "(0)", "123456789012345678901", "1-800-ABCDEFGHIJK", "555+0100", "++1 555 0100", "1 555 0100+",
            "555 0100 #2", "555_0100", "555:0100", "555–0100", "５５５ ０１００", "555\t0100", "call us", "tel:+1-775-555-0100",
        ])
        func invalid(text: String) {
            #expect(!parses(text, FieldParsing.isPhoneNumber), "\(text.debugDescription)")
        }
    }
}

// MARK: - Bundled and shared feeds

extension GraphAndValueRuleTests {
    @Suite("On real feeds")
    struct RealFeeds {
        @Test("the bundled feeds raise none of these rules", arguments: ["google-sample.zip", "caltrain.zip", "bart-2018.zip"])
        func bundled(name: String) throws {
            let (summary, _) = try load(bundledFeed(name))
            #expect(ruleCounts(summary).isEmpty, "\(ruleExamples(summary))")
            for canonical in ruleCanonicals.sorted() {
                #expect(summary.issues.entries.filter { $0.kind.canonical == canonical }.isEmpty, "\(name): \(canonical)")
            }
        }

        @Test("the shared feeds raise none of these rules, but wmata-rail-2026's two elevator entrances without a level", arguments: [
            "bart-2018.zip", "bydgoszcz-2020.zip", "caltrain.zip", "google-sample.zip", "mexico-city-2018.zip", "milan-atm-2014.zip",
            "nyc-subway-2018.zip", "porto-alegre-eptc-2019.zip", "porto-alegre-trensurb-2019.zip", "sacramento-sacrt-2024.zip",
            "vilnius-2015.zip", "wmata-rail-2026.zip",
        ])
        func shared(name: String) throws {
            let summary = try GTFSFeedLoader(source: try openFeed(at: try requireSharedFeed(name)), examplesPerKind: 3).load(into: RecordingSink())
            #expect(ruleCounts(summary) == (name == "wmata-rail-2026.zip" ? ["ELEVATOR_WITHOUT_LEVEL": 2] : [:]), "\(name): \(ruleExamples(summary))")
        }

        @Test("wmata-rail-2026: 2 elevator entrances without a level (stops.txt 1803, 1825), every place of every station reachable")
        func wmata() throws {
            let sink = RecordingSink(keeping: ["stops.txt"])
            let summary = try GTFSFeedLoader(source: try openFeed(at: try requireSharedFeed("wmata-rail-2026.zip")), examplesPerKind: 20).load(into: sink)
            let counts = ruleCounts(summary)
            #expect(counts["ELEVATOR_WITHOUT_LEVEL"] == 2 && counts["LOCATION_UNREACHABLE"] == nil, "\(counts)")
            #expect(summary.issues.entries.filter { $0.kind.canonical == "pathway_unreachable_location" }.isEmpty)
            let found = issues(summary, "ELEVATOR_WITHOUT_LEVEL").sorted { $0.line! < $1.line! }
            try #require(found.count == 2, "\(found)")
            check(found[0], "ELEVATOR_WITHOUT_LEVEL", file: "stops.txt", line: 1803, field: "level_id", value: "ENT_N04_N_PAV_EL")
            check(found[1], "ELEVATOR_WITHOUT_LEVEL", file: "stops.txt", line: 1825, field: "level_id", value: "ENT_K04_N_EL")
            for id in ["ENT_N04_N_PAV_EL", "ENT_K04_N_EL"] {
                let stop = try row(sink, "stops.txt", "stop_id", id)
                #expect(stop["location_type"] == .int(2) && stop["level_id"] == .null, "\(id)")
            }
            let stats = try #require(summary.stats("stops.txt"))
            #expect(stats.rowsLoaded == stats.rowsRead)
        }
    }
}


extension GraphAndValueRuleTests {
    @Suite("stops.level_id naming no level of levels.txt")
    struct UnknownLevel {
        @Test("a level_id levels.txt does not have: a field error (foreign_key_violation), the location loaded without it; as an elevator's end it then lacks a level (missing_level_id)")
        func unknownLevel() throws {
            try withFeed { feed in
                try writeStation(feed)
                try feed.replace("stops.txt", "MEZZANINE,Stagecoach Mezzanine (Demo),,,,,,3,STATION,L1",
                                 with: "MEZZANINE,Stagecoach Mezzanine (Demo),,,,,,3,STATION,L9")
                let (summary, sink) = try load(feed.path, keeping: ["stops.txt"])
                let bad = summary.issues.entries.filter { $0.kind.code == "UNKNOWN_LEVEL" }.flatMap(\.examples)
                #expect(bad.count == 1, "\(bad)")
                let issue = try #require(bad.first)
                #expect(issue.canonical == "foreign_key_violation" && issue.severity == .fieldError && issue.file == "stops.txt"
                        && issue.line == 13 && issue.field == "level_id" && issue.value == "L9", "\(issue)")
                #expect(try row(sink, "stops.txt", "stop_id", "MEZZANINE")["level_id"] == .null)
                #expect(summary.stats("stops.txt")?.rowsLoaded == 12)
                #expect(summary.issues.entries.filter { $0.kind.canonical == "missing_level_id" }.flatMap(\.examples).map(\.value) == ["MEZZANINE"])
            }
        }
    }
}
