import Foundation
import GTFS
import Testing
import TransitStore
import TransitTesting

/// Real feeds imported into PostgreSQL: for every GTFS file in the feed, the rows in the
/// database are the file's data rows (counted by an independent CSV counter) minus the
/// rows the importer reported as skipped; the summary and the catalogue agree with the
/// database; and each feed's known quirks (see shared/data/SOURCES.md) land correctly.
@Suite("Row counts of real feeds")
struct RowCountTests {
    /// One feed, with the counts SOURCES.md gives and checks of its quirks.
    struct FeedCase: Sendable, CustomTestStringConvertible {
        let name: String
        let bundled: Bool
        /// stops, routes, trips, stop_times as SOURCES.md counts them.
        let expected: [String: Int]
        /// First and last service date as SOURCES.md gives them.
        let serviceDates: (String, String)
        let quirks: @Sendable (PGConnection, ImportResult) throws -> Void

        var testDescription: String { name }

        func path() throws -> String {
            bundled ? try FeedFixtures.bundledFeed(name) : try FeedFixtures.sharedFeed(name)
        }
    }

    static func counts(_ stops: Int, _ routes: Int, _ trips: Int, _ stopTimes: Int) -> [String: Int] {
        ["stops": stops, "routes": routes, "trips": trips, "stop_times": stopTimes]
    }

    static let feeds: [FeedCase] = [
        FeedCase(name: "google-sample", bundled: true, expected: counts(9, 5, 11, 28),
                 serviceDates: ("2007-01-01", "2010-12-31")) { (db: PGConnection, r: ImportResult) throws in
            // One-digit hours: STBA leaves STAGECOACH at 6:00:00.
            #expect(try db.query("SELECT arrival_time, departure_time FROM gtfs.stop_times WHERE feed_id = $1 AND trip_id = 'STBA' AND stop_sequence = 1", [r.feedId])
                    == [["21600", "21600"]])
            // shapes.txt is header only: present, nothing loaded.
            #expect(r.summary.stats("shapes.txt")?.present == true)
            #expect(try rowCount(db, "shapes", feedId: r.feedId) == 0)
            #expect(try rowCount(db, "frequencies", feedId: r.feedId) == 11)
            // frequencies.txt has no exact_times column: stored as NULL.
            #expect(try db.scalar("SELECT count(*) FROM gtfs.frequencies WHERE feed_id = $1 AND exact_times IS NULL", [r.feedId]) == "11")
        },
        FeedCase(name: "caltrain", bundled: true, expected: counts(31, 3, 252, 4560),
                 serviceDates: ("2009-03-02", "2019-08-31")) { (db: PGConnection, r: ImportResult) throws in
            // stop_times.txt line 65: 10320090831,5:10:00,5:10:00,Santa Clara Caltrain,3,,0,0,
            #expect(try db.query("""
                SELECT arrival_time, departure_time, stop_id FROM gtfs.stop_times
                WHERE feed_id = $1 AND trip_id = '10320090831' AND stop_sequence = 3
                """, [r.feedId]) == [["18600", "18600", "Santa Clara Caltrain"]])
            // 100 rows with a time past 24:00.
            #expect(try db.scalar("SELECT count(*) FROM gtfs.stop_times WHERE feed_id = $1 AND (arrival_time >= 86400 OR departure_time >= 86400)", [r.feedId]) == "100")
        },
        FeedCase(name: "bart-2018", bundled: false, expected: counts(50, 6, 2525, 33167),
                 serviceDates: ("2018-05-26", "2019-07-01")) { (db: PGConnection, r: ImportResult) throws in
            // 894 stop times past 24:00, stored as seconds past 86,400.
            #expect(try db.scalar("SELECT count(*) FROM gtfs.stop_times WHERE feed_id = $1 AND (arrival_time >= 86400 OR departure_time >= 86400)", [r.feedId]) == "894")
            #expect(try Int(db.scalar("SELECT max(departure_time) FROM gtfs.stop_times WHERE feed_id = $1", [r.feedId]) ?? "0")! > 86_400)
            #expect(try rowCount(db, "transfers", feedId: r.feedId) == 8)
            // frequencies.txt is header only.
            #expect(r.summary.stats("frequencies.txt")?.present == true)
            #expect(try rowCount(db, "frequencies", feedId: r.feedId) == 0)
            // transfers keep their line in the file; COLS has a minimum transfer time.
            #expect(try db.query("SELECT transfer_type, min_transfer_time, line_number FROM gtfs.transfers WHERE feed_id = $1 AND from_stop_id = 'COLS'", [r.feedId])
                    == [["2", "240", "7"]])
        },
        FeedCase(name: "mexico-city-2018", bundled: false, expected: counts(6021, 145, 1741, 70714),
                 serviceDates: ("2018-01-01", "2019-12-31")) { (db: PGConnection, r: ImportResult) throws in
            // agency.txt starts with a BOM: the first agency_id is "CC", not "\u{FEFF}CC".
            #expect(try db.scalar("SELECT agency_id FROM gtfs.agency WHERE feed_id = $1 AND agency_name = 'Corredores Concesionados'", [r.feedId]) == "CC")
            #expect(try db.scalar("SELECT count(*) FROM gtfs.agency WHERE feed_id = $1 AND agency_id LIKE E'\\uFEFF%'", [r.feedId]) == "0")
            #expect(try rowCount(db, "agency", feedId: r.feedId) == 8)
            // Odd column order (trip_id,stop_sequence,stop_id,arrival_time,...): 14743,2,14217,00:02:00,00:02:24
            #expect(try db.query("SELECT stop_id, arrival_time, departure_time FROM gtfs.stop_times WHERE feed_id = $1 AND trip_id = '14743' AND stop_sequence = 2", [r.feedId])
                    == [["14217", "120", "144"]])
            // Every trip is frequency-based, exact_times = 0.
            #expect(try db.scalar("SELECT count(DISTINCT trip_id) FROM gtfs.frequencies WHERE feed_id = $1 AND exact_times = 0", [r.feedId]) == "1741")
            // The junk desktop.ini is a note, not an error.
            #expect(issueCount(r.summary, .note, code: "UNKNOWN_FILE", file: "desktop.ini") == 1)
        },
        FeedCase(name: "vilnius-2015", bundled: false, expected: counts(1293, 101, 23398, 445217),
                 serviceDates: ("2014-01-01", "2016-09-01")) { (db: PGConnection, r: ImportResult) throws in
            // BOM on every file and " agency_name" with a leading space in the header.
            #expect(try db.query("SELECT agency_id, agency_name FROM gtfs.agency WHERE feed_id = $1", [r.feedId])
                    == [["vilnius", "UAB Vilniaus viešasis transportas"]])
            #expect(try db.scalar("SELECT count(*) FROM gtfs.stops WHERE feed_id = $1 AND stop_id = '9483'", [r.feedId]) == "1")
            for table in ["agency", "stops", "routes", "trips", "calendar", "calendar_dates", "shapes"] {
                let column = ["agency": "agency_id", "stops": "stop_id", "routes": "route_id", "trips": "route_id",
                              "calendar": "service_id", "calendar_dates": "service_id", "shapes": "shape_id"][table]!
                #expect(try db.scalar("SELECT count(*) FROM gtfs.\(table) WHERE feed_id = $1 AND \(column) LIKE E'\\uFEFF%'", [r.feedId]) == "0",
                        "a BOM leaked into \(table).\(column)")
            }
            // Extended route type 800 (trolleybus) on 18 routes.
            #expect(try db.scalar("SELECT count(*) FROM gtfs.routes WHERE feed_id = $1 AND route_type = 800", [r.feedId]) == "18")
            // stop_times starts with a BOM before trip_id: the first row is there.
            #expect(try db.query("SELECT stop_id, arrival_time, departure_time FROM gtfs.stop_times WHERE feed_id = $1 AND trip_id = '1' AND stop_sequence = 1", [r.feedId])
                    == [["8263", String(5 * 3600 + 27 * 60), String(5 * 3600 + 28 * 60)]])
        },
        FeedCase(name: "wmata-rail-2026", bundled: false, expected: counts(2175, 7, 16514, 352668),
                 serviceDates: ("2026-04-29", "2026-09-06")) { (db: PGConnection, r: ImportResult) throws in
            // No calendar.txt: service comes from calendar_dates.txt alone.
            #expect(r.summary.stats("calendar.txt")?.present != true)
            #expect(try rowCount(db, "calendar", feedId: r.feedId) == 0)
            let feed = try FeedCatalog(db: db).list().first { $0.id == r.feedId }
            #expect(feed?.firstDate == "2026-04-29")
            #expect(feed?.lastDate == "2026-09-06")
            // Stations, entrances, generic nodes and platforms.
            let types = try db.query("SELECT coalesce(location_type, 0), count(*) FROM gtfs.stops WHERE feed_id = $1 GROUP BY 1 ORDER BY 1", [r.feedId])
            #expect(types == [["0", "125"], ["1", "98"], ["2", "239"], ["3", "1713"]])
            #expect(try rowCount(db, "pathways", feedId: r.feedId) == 2963)
            #expect(try rowCount(db, "levels", feedId: r.feedId) > 0)
            // Every parent_station names a loaded stop.
            #expect(try db.scalar("""
                SELECT count(*) FROM gtfs.stops s WHERE s.feed_id = $1 AND s.parent_station IS NOT NULL
                  AND NOT EXISTS (SELECT 1 FROM gtfs.stops p WHERE p.feed_id = s.feed_id AND p.stop_id = s.parent_station)
                """, [r.feedId]) == "0")
        },
        FeedCase(name: "porto-alegre-trensurb-2019", bundled: false, expected: counts(24, 2, 1248, 14855),
                 serviceDates: ("2019-03-01", "2019-12-31")) { (db: PGConnection, r: ImportResult) throws in
            // "agency_id, agency_name,..." with a space before agency_name.
            #expect(try db.query("SELECT agency_id, agency_name FROM gtfs.agency WHERE feed_id = $1", [r.feedId]) == [["TRENS", "TRENSURB"]])
            #expect(r.summary.stats("calendar_dates.txt")?.present != true)
        },
        // SOURCES.md gives 2019-04-15 – 2019-12-25, the span of every date the files name;
        // but 2019-12-25 (like every date after 2019-07-15) is only a removal
        // (exception_type 2): the calendars that trips use end on Monday 2019-07-15.
        FeedCase(name: "porto-alegre-eptc-2019", bundled: false, expected: counts(4207, 150, 8520, 454501),
                 serviceDates: ("2019-04-15", "2019-07-15")) { (db: PGConnection, r: ImportResult) throws in
            // Only the first and last stop of a trip are timed: the rest are NULL, not 0.
            #expect(try db.scalar("SELECT count(*) FROM gtfs.stop_times WHERE feed_id = $1 AND arrival_time IS NULL AND departure_time IS NULL", [r.feedId]) == "437461")
            #expect(try db.scalar("SELECT count(*) FROM gtfs.stop_times WHERE feed_id = $1 AND (arrival_time IS NULL) <> (departure_time IS NULL)", [r.feedId]) == "0")
            #expect(try db.query("SELECT arrival_time, departure_time FROM gtfs.stop_times WHERE feed_id = $1 AND trip_id = 'T1-2@1#600' AND stop_sequence IN (1, 2) ORDER BY stop_sequence", [r.feedId])
                    == [["21600", "21600"], [nil, nil]])
            // The extra trip_time column of trips.txt is a note.
            #expect(examples(r.summary, code: "EXTRA_COLUMN", file: "trips.txt").contains { $0.field == "trip_time" })
        },
        FeedCase(name: "sacramento-sacrt-2024", bundled: false, expected: counts(2839, 66, 5008, 192572),
                 serviceDates: ("2024-06-16", "2024-08-24")) { (db: PGConnection, r: ImportResult) throws in
            // Two non-GTFS files in the zip: notes, nothing loaded from them.
            #expect(issueCount(r.summary, .note, code: "UNKNOWN_FILE", file: "patterns.txt") == 1)
            #expect(issueCount(r.summary, .note, code: "UNKNOWN_FILE", file: "Earth.kml") == 1)
        },
        FeedCase(name: "milan-atm-2014", bundled: false, expected: counts(516, 15, 10608, 248555),
                 serviceDates: ("2014-10-19", "2014-11-01")) { (db: PGConnection, r: ImportResult) throws in
            // calendar.txt is header only: service from calendar_dates.txt alone.
            #expect(r.summary.stats("calendar.txt")?.present == true)
            #expect(try rowCount(db, "calendar", feedId: r.feedId) == 0)
            #expect(try rowCount(db, "calendar_dates", feedId: r.feedId) == 91)
            #expect(try db.scalar("SELECT count(*) FROM gtfs.stop_times WHERE feed_id = $1 AND (arrival_time >= 86400 OR departure_time >= 86400)", [r.feedId]) == "10634")
        },
        FeedCase(name: "nyc-subway-2018", bundled: false, expected: counts(1223, 22, 15911, 446924),
                 serviceDates: ("2018-06-24", "2018-11-03")) { (db: PGConnection, r: ImportResult) throws in
            #expect(try db.scalar("SELECT count(*) FROM gtfs.stops WHERE feed_id = $1 AND location_type = 1", [r.feedId]) == "413")
            #expect(try db.scalar("SELECT count(*) FROM gtfs.stops WHERE feed_id = $1 AND parent_station IS NOT NULL", [r.feedId]) == "810")
            #expect(try rowCount(db, "transfers", feedId: r.feedId) == 554)
            #expect(try db.scalar("SELECT count(*) FROM gtfs.transfers WHERE feed_id = $1 AND from_stop_id = to_stop_id", [r.feedId]) == "402")
            #expect(try db.scalar("SELECT count(*) FROM gtfs.stop_times WHERE feed_id = $1 AND (arrival_time >= 86400 OR departure_time >= 86400)", [r.feedId]) == "12848")
        },
        FeedCase(name: "bydgoszcz-2020", bundled: false, expected: counts(1060, 57, 25534, 583164),
                 serviceDates: ("2020-04-16", "2020-10-25")) { (db: PGConnection, r: ImportResult) throws in
            #expect(r.summary.stats("calendar.txt")?.present != true)
            #expect(r.summary.stats("shapes.txt")?.present != true)
            #expect(try rowCount(db, "calendar_dates", feedId: r.feedId) == 193)
            #expect(try db.scalar("SELECT count(*) FROM gtfs.stop_times WHERE feed_id = $1 AND (arrival_time >= 86400 OR departure_time >= 86400)", [r.feedId]) == "18646")
        },
    ]

    @Test("rows in the database = data rows in the file - rows skipped", arguments: feeds)
    func rowCountsMatch(_ feed: FeedCase) throws {
        let zip = try feed.path()
        let folder = try FeedFixtures.unzip(zip)
        defer { folder.remove() }
        try withTestDatabase { _, db in
            let result = try FeedImporter(db: db).importFeed(at: zip, feedId: feed.name)
            let summary = result.summary
            #expect(result.version == 1)

            var dbCounts: [String: Int] = [:]
            for spec in GTFSSchema.files {
                let inDB = try rowCount(db, spec.table, feedId: feed.name)
                guard folder.contains(spec.fileName) else {
                    #expect(inDB == 0, "\(spec.fileName) is not in the feed but \(inDB) rows are stored")
                    // An absent file is either left out of the summary or listed as not present.
                    let stats = summary.stats(spec.fileName)
                    #expect(stats == nil || (stats!.present == false && stats!.rowsRead == 0 && stats!.rowsLoaded == 0))
                    continue
                }
                dbCounts[spec.table] = inDB
                let fileRows = try CSVRowCounter.countDataRows(file: folder.fileURL(spec.fileName).path)
                guard let stats = summary.stats(spec.fileName) else {
                    Issue.record("no statistics for \(spec.fileName), which is in the feed")
                    continue
                }
                #expect(stats.present)
                #expect(stats.rowsRead == fileRows, "\(spec.fileName): the importer read \(stats.rowsRead) rows, the file has \(fileRows)")
                #expect(inDB == fileRows - stats.rowsSkipped,
                        "\(spec.fileName): \(inDB) rows stored, file has \(fileRows), \(stats.rowsSkipped) skipped")
                #expect(stats.rowsLoaded == inDB, "\(spec.fileName): summary says \(stats.rowsLoaded) loaded, database has \(inDB)")
                // Every skipped row has exactly one row error.
                #expect(rowErrorCount(summary, file: spec.fileName) == stats.rowsSkipped,
                        "\(spec.fileName): \(stats.rowsSkipped) rows skipped but \(rowErrorCount(summary, file: spec.fileName)) row errors")
            }
            // SOURCES.md: every feed passed a referential check, so nothing of the core is skipped.
            for (table, n) in feed.expected {
                #expect(dbCounts[table] == n, "\(table): \(dbCounts[table] ?? -1) rows stored, SOURCES.md counts \(n)")
            }
            #expect(summary.issues.count(.rowError) == 0, "row errors in a clean feed: \(summary.issues.sorted.prefix(5).map { $0.examples.first!.description })")

            // The catalogue (`transit feeds`) agrees with the tables.
            let feeds = try FeedCatalog(db: db).list()
            #expect(feeds.map(\.id) == [feed.name])
            if let record = feeds.first {
                #expect(record.version == 1)
                // Every table of a file in the feed is listed with its count; an absent file
                // is either not listed or listed with 0 rows.
                for spec in GTFSSchema.files {
                    if let n = dbCounts[spec.table] {
                        #expect(record.rows[spec.table] == n, "catalogue rows of \(spec.table)")
                    } else {
                        #expect((record.rows[spec.table] ?? 0) == 0, "catalogue rows of absent \(spec.table)")
                    }
                }
                #expect(record.rows == summary.rowsLoaded)
                #expect(record.firstDate == feed.serviceDates.0)
                #expect(record.lastDate == feed.serviceDates.1)
                #expect(record.firstDate == summary.firstServiceDate?.iso8601)
                #expect(record.lastDate == summary.lastServiceDate?.iso8601)
                #expect(record.source == (zip as NSString).lastPathComponent)
            }
            // The foreign keys are NOT VALID: check that no loaded row breaks a reference.
            #expect(try ReferentialIntegrity.broken(db, feedId: feed.name).isEmpty)
            try feed.quirks(db, result)
        }
    }
}
