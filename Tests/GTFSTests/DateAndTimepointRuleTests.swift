import Foundation
import Testing
import GTFS
import TransitModel

// The canonical rules of a feed's dates against the day it is judged on (`today:`) and of
// the timepoint column, on copies of google-sample (services FULLW and WE from 2007-01-01
// to 2010-12-31; feed_info.txt with a header and no row; stop_times.txt without timepoint):
// one change each, with the change just short of the rule beside it.

private func load(_ path: String, today: ServiceDate? = nil) throws -> GTFSLoadSummary {
    try GTFSFeedLoader(source: try openFeed(at: path), today: today, examplesPerKind: 1_000).load(into: RecordingSink(keeping: []))
}

private func day(_ iso: String) -> ServiceDate { ServiceDate.parse(iso8601: iso)! }

/// The rules of this file, by canonical code.
private let codes = ["missing_timepoint_value", "future_feed", "future_calendar", "feed_valid_beyond_total_service_window"]

/// feed_info.txt with one row, from `start` to `end` (YYYYMMDD).
private func writeFeedInfo(_ feed: FeedFolder, start: String, end: String) throws {
    try writeLines(feed, "feed_info.txt", ["feed_publisher_name,feed_publisher_url,feed_lang,feed_start_date,feed_end_date,feed_version,feed_contact_email",
                                           "Demo,http://google.com,en,\(start),\(end),1,feed@example.org"])
}

@Suite("Canonical rules of dates and timepoints")
struct DateAndTimepointRuleTests {
    @Test("google-sample as it is, judged on 2008-06-01: none of these rules")
    func asItIs() throws {
        try withFeed { feed in
            let summary = try load(feed.path, today: day("2008-06-01"))
            for code in codes { #expect(notices(summary, canonical: code).isEmpty, "\(code)") }
        }
    }

    @Test("a timepoint column with one timed row left empty: a warning at that row; an untimed row left empty is not one")
    func missingTimepointValue() throws {
        try withFeed { feed in
            var rows = try lines(feed, "stop_times.txt")
            try #require(rows[0] == "trip_id,arrival_time,departure_time,stop_id,stop_sequence,stop_headsign,pickup_type,drop_off_type,shape_dist_traveled")
            rows[0] += ",timepoint"
            for i in rows.indices.dropFirst() { rows[i] += ",1" }
            try writeLines(feed, "stop_times.txt", rows)
            #expect(notices(try load(feed.path), canonical: "missing_timepoint_value").isEmpty)
            // Line 3: STBA at BEATTY_AIRPORT, timed; made untimed, an empty timepoint is fine.
            rows[2] = "STBA,,,BEATTY_AIRPORT,2,,,,,"
            try writeLines(feed, "stop_times.txt", rows)
            #expect(notices(try load(feed.path), canonical: "missing_timepoint_value").isEmpty)
            rows[2] = "STBA,6:20:00,6:20:00,BEATTY_AIRPORT,2,,,,,"
            try writeLines(feed, "stop_times.txt", rows)
            let summary = try load(feed.path)
            let found = notices(summary, canonical: "missing_timepoint_value")
            #expect(found.count == 1)
            let issue = try #require(found.first)
            #expect(issue.code == "NO_TIMEPOINT_VALUE" && issue.severity == .warning && issue.canonicalSeverity == .warning)
            #expect(issue.file == "stop_times.txt" && issue.line == 3 && issue.field == "timepoint" && issue.value == nil)
            #expect(summary.stats("stop_times.txt").map { $0.rowsLoaded == $0.rowsRead } == true)
        }
    }

    @Test("feed_info.txt starting after the day judged on: future_feed (info); judged on its first day, not")
    func futureFeed() throws {
        try withFeed { feed in
            try writeFeedInfo(feed, start: "20070101", end: "20101231")
            #expect(notices(try load(feed.path, today: day("2007-01-01")), canonical: "future_feed").isEmpty)
            let found = notices(try load(feed.path, today: day("2006-12-31")), canonical: "future_feed")
            #expect(found.count == 1)
            let issue = try #require(found.first)
            #expect(issue.code == "FEED_NOT_STARTED" && issue.severity == .note && issue.canonicalSeverity == .info)
            #expect(issue.file == "feed_info.txt" && issue.line == 2 && issue.field == "feed_start_date" && issue.value == "2007-01-01")
            // Without a day to judge on, no date rule runs.
            #expect(notices(try load(feed.path), canonical: "future_feed").isEmpty)
        }
    }

    @Test("every service starting after the day judged on: future_calendar (info); judged on the first day a trip runs, not")
    func futureCalendar() throws {
        try withFeed { feed in
            #expect(notices(try load(feed.path, today: day("2007-01-01")), canonical: "future_calendar").isEmpty)
            let found = notices(try load(feed.path, today: day("2006-12-31")), canonical: "future_calendar")
            #expect(found.count == 1)
            let issue = try #require(found.first)
            #expect(issue.code == "SERVICE_NOT_STARTED" && issue.severity == .note && issue.canonicalSeverity == .info)
            #expect(issue.message.contains("2007-01-01"), "\(issue.message)")
        }
    }

    @Test("feed_end_date 15 days after the last day a trip runs: feed_valid_beyond_total_service_window (info); 14 days, not")
    func feedBeyondService() throws {
        try withFeed { feed in
            try writeFeedInfo(feed, start: "20070101", end: "20110114")
            #expect(notices(try load(feed.path), canonical: "feed_valid_beyond_total_service_window").isEmpty)
            try writeFeedInfo(feed, start: "20070101", end: "20110115")
            let summary = try load(feed.path)
            let found = notices(summary, canonical: "feed_valid_beyond_total_service_window")
            #expect(found.count == 1)
            let issue = try #require(found.first)
            #expect(issue.code == "FEED_OUTLASTS_SERVICE" && issue.severity == .note && issue.canonicalSeverity == .info)
            #expect(issue.file == "feed_info.txt" && issue.line == 2 && issue.field == "feed_end_date" && issue.value == "2011-01-15")
            #expect(issue.message.hasPrefix("15 days after the last day any trip runs (2010-12-31)"), "\(issue.message)")
        }
    }
}
