import Foundation
import Testing
import GTFS
import TransitModel

@Suite("GTFSFeedLoader: bundled feeds")
struct FeedLoaderBundledTests {
    @Test("google-sample.zip: every file loads completely, frequencies, service period")
    func googleSample() throws {
        var events: [GTFSLoadEvent] = []
        let sink = RecordingSink(keeping: ["frequencies.txt", "stops.txt", "calendar_dates.txt"])
        let loader = GTFSFeedLoader(source: try openFeed(at: bundledFeed("google-sample.zip"))) { events.append($0) }
        let summary = try loader.load(into: sink)

        // Data rows (header excluded) of each file in the zip, counted by hand.
        let expected = [
            "agency.txt": 1, "stops.txt": 9, "routes.txt": 5, "calendar.txt": 2, "calendar_dates.txt": 1,
            "shapes.txt": 0, "trips.txt": 11, "stop_times.txt": 28, "frequencies.txt": 11, "feed_info.txt": 0,
        ]
        let present = summary.files.filter(\.present)
        #expect(Set(present.map(\.file)) == Set(expected.keys))
        // Files the feed lacks, if listed, are marked absent with no rows.
        for stats in summary.files where !stats.present {
            #expect(stats.rowsRead == 0 && stats.rowsLoaded == 0 && expected[stats.file] == nil, "\(stats.file)")
        }
        for stats in present {
            #expect(stats.rowsRead == expected[stats.file], "\(stats.file) read")
            #expect(stats.rowsLoaded == expected[stats.file], "\(stats.file) loaded")
            #expect(stats.rowsSkipped == 0)
            #expect((sink.rowCounts[stats.file] ?? 0) == stats.rowsLoaded, "\(stats.file) rows seen by the sink")
        }
        // ... and the same counted from the unpacked files themselves.
        let folder = try FeedFolder(unzipping: bundledFeed("google-sample.zip"))
        defer { folder.delete() }
        for stats in present {
            let lines = try folder.text(stats.file).split(omittingEmptySubsequences: true) { $0 == "\n" || $0 == "\r\n" }
            #expect(stats.rowsLoaded == lines.count - 1, "\(stats.file)")
        }
        #expect(summary.rowsLoaded["stop_times"] == 28)
        #expect(summary.issues.count(.fatal) == 0)
        #expect(summary.issues.count(.rowError) == 0, "\(examples(summary))")
        #expect(summary.issues.count(.warning) == 0, "\(examples(summary))")
        // The files the importer recognises but does not load are notes.
        #expect(summary.issues.count(code: "FILE_NOT_LOADED") == 3)   // attributions, fare_attributes, fare_rules
        #expect(summary.agencyTimezones == ["America/Los_Angeles"])

        // Every schema file gets a begin/end pair, in schema order, present or not.
        #expect(sink.begun == GTFSSchema.files.map(\.fileName))
        #expect(sink.ended == GTFSSchema.files.map(\.fileName))

        // frequencies.txt: 11 rows; STBA runs every 30 min from 6:00 to 22:00.
        let frequencies = sink.rows("frequencies.txt")
        #expect(frequencies.count == 11)
        #expect(frequencies.first == ["trip_id": .text("STBA"), "start_time": .int(6 * 3600), "end_time": .int(22 * 3600),
                                      "headway_secs": .int(1800), "exact_times": .null])
        #expect(frequencies.filter { $0["trip_id"] == .text("CITY1") }.count == 5)
        #expect(frequencies.last?["end_time"] == .int(22 * 3600))
        // Decimal numbers are handed on as written.
        let stagecoach = sink.rows("stops.txt").first { $0["stop_id"] == .text("STAGECOACH") }
        #expect(stagecoach?["stop_lat"] == .text("36.915682"))
        #expect(stagecoach?["stop_name"] == .text("Stagecoach Hotel & Casino (Demo)"))
        #expect(sink.rows("calendar_dates.txt").first?["date"] == .date(ServiceDate(year: 2007, month: 6, day: 4)!))

        // Service period. calendar.txt: FULLW runs every day of the week, WE on Saturday and
        // Sunday, both from 20070101 to 20101231; calendar_dates.txt only removes FULLW on
        // 20070604 (a Monday in the middle). Both services are used by trips. 2007-01-01 is
        // a Monday, on which FULLW runs, so it is the first day with service; 2010-12-31
        // is a Friday, on which FULLW runs, so it is the last.
        #expect(summary.firstServiceDate == ServiceDate(year: 2007, month: 1, day: 1))
        #expect(summary.lastServiceDate == ServiceDate(year: 2010, month: 12, day: 31))

        // Events: a start and a finish for each present file.
        var started: [String] = [], finished: [String] = []
        for event in events {
            switch event {
            case .fileStarted(let file, let total): started.append(file); #expect(total != nil)
            case .fileFinished(let stats): if stats.present { finished.append(stats.file) }
            case .progress: break
            }
        }
        #expect(Set(started) == Set(expected.keys))
        #expect(Set(finished) == Set(expected.keys))
    }

    @Test("caltrain.zip: one-digit hours, times past 24:00, CRLF, quoted commas")
    func caltrain() throws {
        let (summary, sink) = try loadFeed(bundledFeed("caltrain.zip"), keeping: ["stop_times.txt", "stops.txt", "routes.txt"])
        #expect(summary.issues.count(.fatal) == 0)
        #expect(summary.issues.count(.rowError) == 0, "\(examples(summary))")
        #expect(summary.stats("stop_times.txt")?.rowsLoaded == 4_560)
        #expect(summary.stats("stops.txt")?.rowsLoaded == 31)
        #expect(summary.stats("trips.txt")?.rowsLoaded == 252)
        #expect(summary.stats("shapes.txt")?.rowsLoaded == 2_677)

        let stopTimes = sink.rows("stop_times.txt")
        #expect(stopTimes.count == 4_560)
        // 10320090831,5:10:00,5:10:00,Santa Clara Caltrain,3,,0,0,
        let santaClara = try #require(stopTimes.first { $0["trip_id"] == .text("10320090831") && $0["stop_sequence"] == .int(3) })
        #expect(santaClara["arrival_time"] == .int(18_600))
        #expect(santaClara["departure_time"] == .int(18_600))
        #expect(santaClara["stop_id"] == .text("Santa Clara Caltrain"))
        // The last column is empty in every row: CRLF must not leave a "\r" value behind.
        #expect(stopTimes.allSatisfy { $0["shape_dist_traveled"] == .null })
        #expect(stopTimes.allSatisfy { $0["drop_off_type"] == .int(0) })
        // 19620090831,24:11:00,24:11:00,San Jose Caltrain,22,,0,0,
        let late = try #require(stopTimes.first { $0["trip_id"] == .text("19620090831") && $0["stop_sequence"] == .int(22) })
        #expect(late["arrival_time"] == .int(24 * 3600 + 11 * 60))
        let pastMidnight = stopTimes.filter { if case .int(let s) = $0["arrival_time"] { return s >= 86_400 }; return false }
        #expect(pastMidnight.count == 100)
        let oneDigitHour = stopTimes.filter { if case .int(let s) = $0["arrival_time"] { return s < 36_000 }; return false }
        #expect(oneDigitHour.count > 1_000)

        // Quoted stop_desc with a comma; no "\r" in the last column of routes.txt.
        let sf = try #require(sink.rows("stops.txt").first { $0["stop_id"] == .text("San Francisco Caltrain") })
        #expect(sf["stop_desc"] == .text("700 4th Street, San Francisco"))
        #expect(sink.rows("routes.txt").map { $0["route_text_color"] } == [.text("ff0000"), .text("2C7D00"), .null])
        #expect(summary.agencyTimezones == ["America/Los_Angeles"])
        // Weekday service starts on Monday 2009-03-02; weekend service runs to Saturday 2019-08-31.
        #expect(summary.firstServiceDate == ServiceDate(year: 2009, month: 3, day: 2))
        #expect(summary.lastServiceDate == ServiceDate(year: 2019, month: 8, day: 31))
    }

    @Test("strict mode loads a clean feed")
    func strictClean() throws {
        let (summary, _) = try loadFeed(bundledFeed("google-sample.zip"), strict: true)
        #expect(summary.stats("stop_times.txt")?.rowsLoaded == 28)
    }
}

@Suite("GTFSFeedLoader: service period and sink")
struct FeedLoaderServicePeriodTests {
    @Test("removed dates, added dates and unused services")
    func exceptions() throws {
        let feed = try FeedFolder(unzipping: bundledFeed("google-sample.zip"))
        defer { feed.delete() }
        // FULLW no longer runs on Monday 2007-01-01 and WE never runs on a Monday, so the
        // first day is Tuesday 2007-01-02. WE is added on Saturday 2011-12-31, after the
        // calendar ends, so that is the last day. A service no trip uses (UNUSED) is added
        // on earlier and later dates and must not widen the period.
        try feed.write("calendar_dates.txt", "service_id,date,exception_type\n"
                       + "FULLW,20070604,2\nFULLW,20070101,2\nWE,20111231,1\nUNUSED,20000101,1\nUNUSED,20300101,1\n")
        let (summary, _) = try loadFeed(feed.path)
        #expect(summary.issues.count(.rowError) == 0, "\(examples(summary))")
        #expect(summary.firstServiceDate == ServiceDate(year: 2007, month: 1, day: 2))
        #expect(summary.lastServiceDate == ServiceDate(year: 2011, month: 12, day: 31))

        // Only weekend trips: first Saturday 2007-01-06, last Sunday... 2010-12-31 is a
        // Friday, so the last weekend day in the calendar is Sunday 2010-12-26.
        try feed.write("calendar_dates.txt", "service_id,date,exception_type\n")
        try feed.write("trips.txt", try feed.text("trips.txt").split(separator: "\n")
                       .filter { $0.hasPrefix("route_id") || $0.contains(",WE,") }.joined(separator: "\n") + "\n")
        try feed.write("stop_times.txt", try feed.text("stop_times.txt").split(separator: "\n")
                       .filter { $0.hasPrefix("trip_id") || $0.hasPrefix("AAMV") }.joined(separator: "\n") + "\n")
        try feed.write("frequencies.txt", "trip_id,start_time,end_time,headway_secs\n")
        let (weekend, _) = try loadFeed(feed.path)
        #expect(weekend.issues.count(.rowError) == 0, "\(examples(weekend))")
        #expect(weekend.stats("trips.txt")?.rowsLoaded == 4)
        #expect(weekend.firstServiceDate == ServiceDate(year: 2007, month: 1, day: 6))
        #expect(weekend.lastServiceDate == ServiceDate(year: 2010, month: 12, day: 26))
    }

    private struct SinkFailure: Error, Equatable { let row: Int }

    /// Throws from `row` on the n-th row of stop_times.txt.
    private final class FailingSink: GTFSRowSink {
        var file = "", rows = 0
        let failAt: Int
        init(failAt: Int) { self.failAt = failAt }
        func beginFile(_ spec: GTFSFileSpec) throws { file = spec.fileName; rows = 0 }
        func row(_ values: UnsafeBufferPointer<GTFSValue>) throws {
            guard file == "stop_times.txt" else { return }
            rows += 1
            if rows == failAt { throw SinkFailure(row: rows) }
        }
        func leaveOut(trips: [String]) throws {}
        func endFile(_ spec: GTFSFileSpec) throws {}
    }

    @Test("an error thrown by the sink passes through unchanged")
    func sinkErrorPassesThrough() throws {
        let loader = GTFSFeedLoader(source: try openFeed(at: bundledFeed("google-sample.zip")))
        #expect(throws: SinkFailure(row: 5)) { _ = try loader.load(into: FailingSink(failAt: 5)) }
    }
}

// MARK: - Real feeds in the shared data folder

/// Counts from /work/shared/data/SOURCES.md: stops, routes, trips, stop_times, service dates.
private let sharedExpectations: [String: (stops: Int, routes: Int, trips: Int, stopTimes: Int, first: String, last: String)] = [
    "google-sample.zip": (9, 5, 11, 28, "20070101", "20101231"),
    "caltrain.zip": (31, 3, 252, 4_560, "20090302", "20190831"),
    "bart-2018.zip": (50, 6, 2_525, 33_167, "20180526", "20190701"),
    "porto-alegre-trensurb-2019.zip": (24, 2, 1_248, 14_855, "20190301", "20191231"),
    "mexico-city-2018.zip": (6_021, 145, 1_741, 70_714, "20180101", "20191231"),
    "sacramento-sacrt-2024.zip": (2_839, 66, 5_008, 192_572, "20240616", "20240824"),
    "milan-atm-2014.zip": (516, 15, 10_608, 248_555, "20141019", "20141101"),
    "wmata-rail-2026.zip": (2_175, 7, 16_514, 352_668, "20260429", "20260906"),
    "vilnius-2015.zip": (1_293, 101, 23_398, 445_217, "20140101", "20160901"),
    "nyc-subway-2018.zip": (1_223, 22, 15_911, 446_924, "20180624", "20181103"),
    // SOURCES.md gives 2019-04-15 – 2019-12-25 for EPTC, but every trip uses an "@1"
    // weekday service of calendar.txt (20190415–20190715); the calendar_dates.txt rows after
    // July only add "@5" services no trip uses or remove "@2" ones. So the last day on
    // which a trip runs is Monday 2019-07-15.
    "porto-alegre-eptc-2019.zip": (4_207, 150, 8_520, 454_501, "20190415", "20190715"),
    "bydgoszcz-2020.zip": (1_060, 57, 25_534, 583_164, "20200416", "20201025"),
]

/// Every shared feed by default (about 35 s of a debug run on 2 cores); with
/// TRANSIT_QUICK_FEEDS=1 only the robustness feeds named in SOURCES.md.
private let robustnessFeeds = ["mexico-city-2018.zip", "vilnius-2015.zip", "wmata-rail-2026.zip", "milan-atm-2014.zip",
                               "porto-alegre-trensurb-2019.zip"]

/// The feeds SOURCES.md lists, not a listing of the folder: a missing feed fails its case.
private func sharedFeedsUnderTest() -> [String] {
    let all = sharedExpectations.keys.sorted()
    if ProcessInfo.processInfo.environment["TRANSIT_QUICK_FEEDS"] == "1" { return all.filter { robustnessFeeds.contains($0) } }
    return all
}

@Suite("GTFSFeedLoader: shared real feeds")
struct FeedLoaderSharedFeedTests {
    @Test("the shared data folder holds exactly the feeds SOURCES.md lists")
    func sharedDataFound() {
        #expect(sharedFolderListing() == sharedExpectations.keys.sorted(),
                "\(sharedDataDirectory)/gtfs (set TRANSIT_SHARED_DATA to the shared data folder)")
    }

    @Test("loads with no fatal problem and no row error, from the zip and from a folder alike",
          arguments: sharedFeedsUnderTest())
    func realFeed(name: String) throws {
        let zip = try requireSharedFeed(name)
        let (fromZip, zipSink) = try loadFeed(zip)
        #expect(fromZip.issues.count(.fatal) == 0)
        #expect(fromZip.issues.count(.rowError) == 0, "\(examples(fromZip).filter { $0.severity == .rowError })")
        for stats in fromZip.files {
            #expect(stats.rowsLoaded == stats.rowsRead, "\(stats.file)")
            #expect((zipSink.rowCounts[stats.file] ?? 0) == stats.rowsLoaded, "\(stats.file)")
        }
        do {
            let e = try #require(sharedExpectations[name])
            #expect(fromZip.stats("stops.txt")?.rowsLoaded == e.stops)
            #expect(fromZip.stats("routes.txt")?.rowsLoaded == e.routes)
            #expect(fromZip.stats("trips.txt")?.rowsLoaded == e.trips)
            #expect(fromZip.stats("stop_times.txt")?.rowsLoaded == e.stopTimes)
            #expect(fromZip.firstServiceDate == ServiceDate.parse(e.first))
            #expect(fromZip.lastServiceDate == ServiceDate.parse(e.last))
        }

        let folder = try FeedFolder(unzipping: zip)
        defer { folder.delete() }
        let fromDirectory = try GTFSFeedLoader(source: try DirectoryFeedSource(path: folder.path)).load(into: RecordingSink())
        func counts(_ s: GTFSLoadSummary) -> [String: [Int]] {
            Dictionary(uniqueKeysWithValues: s.files.map { ($0.file, [$0.rowsRead, $0.rowsLoaded, $0.bytes]) })
        }
        #expect(counts(fromDirectory) == counts(fromZip))
        #expect(fromDirectory.firstServiceDate == fromZip.firstServiceDate)
        #expect(fromDirectory.lastServiceDate == fromZip.lastServiceDate)
        #expect(fromDirectory.feedVersion == fromZip.feedVersion)
        #expect(fromDirectory.agencyTimezones == fromZip.agencyTimezones)
        for severity in GTFSIssue.Severity.allCases {
            #expect(fromDirectory.issues.count(severity) == fromZip.issues.count(severity), "\(severity)")
        }
    }

    @Test("mexico-city-2018: BOM and odd column order; junk file reported")
    func mexicoCity() throws {
        let zip = try requireSharedFeed("mexico-city-2018.zip")
        let (summary, _) = try loadFeed(zip)
        #expect(summary.issues.count(code: "UNKNOWN_FILE") == 1)
        #expect(issues(summary, "UNKNOWN_FILE").first?.file == "desktop.ini")
        #expect(summary.stats("frequencies.txt")?.rowsLoaded == 1_741)
        #expect(summary.agencyTimezones.count == 8)
    }

    @Test("vilnius-2015: BOM everywhere, a leading space in a header name")
    func vilnius() throws {
        let zip = try requireSharedFeed("vilnius-2015.zip")
        let (summary, sink) = try loadFeed(zip, keeping: ["agency.txt"])
        #expect(summary.issues.count(code: "EXTRA_COLUMN") == 0, "\(issues(summary, "EXTRA_COLUMN"))")
        #expect(summary.issues.count(code: "MISSING_VALUE") == 0)
        #expect(sink.rows("agency.txt").allSatisfy { $0["agency_name"] != .null })
    }
}
