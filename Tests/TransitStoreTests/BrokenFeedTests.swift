import Foundation
import GTFS
import Testing
import TransitStore
import TransitTesting

/// Real feeds broken on purpose. Each test starts from a database that already holds a good
/// version of the same feed id and another feed:
/// - a fatal problem throws `GTFSFatalError` and leaves every table of `gtfs` and
///   `gtfs_part` byte-identical, and a good import of the same id afterwards (on the same
///   connection) succeeds as version 2;
/// - a row error skips exactly that row, with the file, line, field and value reported;
/// - a warning loads the row and records the warning.
@Suite("Broken feeds")
struct BrokenFeedTests {
    static let feedId = "ct"
    static let otherId = "other"

    /// A database with caltrain (or `base`) as `feedId`, version 1, and google-sample as `otherId`.
    struct Fixture {
        let conn: PGConnection
        let goodZip: String
        let goodCounts: [String: Int]
        let folder: FeedFolder

        init(conn: PGConnection, base: String) throws {
            self.conn = conn
            goodZip = base == "bart-2018" ? try FeedFixtures.sharedFeed(base) : try FeedFixtures.bundledFeed(base)
            let first = try FeedImporter(db: conn).importFeed(at: goodZip, feedId: BrokenFeedTests.feedId)
            #expect(first.version == 1)
            _ = try FeedImporter(db: conn).importFeed(at: FeedFixtures.bundledFeed("google-sample"), feedId: BrokenFeedTests.otherId)
            goodCounts = try rowCounts(conn, feedId: BrokenFeedTests.feedId)
            folder = try FeedFixtures.unzip(goodZip)
        }
    }

    /// Breaks a copy of `base` with `breakIt` (which returns the path to import), checks the
    /// import fails with a fatal error that `verify` accepts, that nothing changed, and that a
    /// good import afterwards works.
    func expectFatal(base: String = "caltrain", strict: Bool = false,
                     sourceLocation: SourceLocation = #_sourceLocation,
                     _ breakIt: (FeedFolder) throws -> String, verify: (GTFSIssue) -> Void) throws {
        try withTestDatabase { _, conn in
            let f = try Fixture(conn: conn, base: base)
            defer { f.folder.remove() }
            let path = try breakIt(f.folder)
            let before = try TableChecksums.snapshot(conn)
            #expect(before.count == 2 * GTFSSchema.files.count + GTFSSchema.files.count + 2, "tables before: \(before.keys.sorted())",
                    sourceLocation: sourceLocation)

            let fatal = importExpectingFatal(conn, path: path, feedId: BrokenFeedTests.feedId, strict: strict, sourceLocation: sourceLocation)
            if let fatal { verify(fatal.issue) }

            let after = try TableChecksums.snapshot(conn)
            #expect(after == before, "tables changed by a failed import: \(TableChecksums.differences(before, after))",
                    sourceLocation: sourceLocation)
            #expect(try catalogVersion(conn, BrokenFeedTests.feedId) == 1, sourceLocation: sourceLocation)
            #expect(try catalogVersion(conn, BrokenFeedTests.otherId) == 1, sourceLocation: sourceLocation)

            // The same connection can import the good feed right away.
            let good = try FeedImporter(db: conn).importFeed(at: f.goodZip, feedId: BrokenFeedTests.feedId)
            #expect(good.version == 2, sourceLocation: sourceLocation)
            #expect(try rowCounts(conn, feedId: BrokenFeedTests.feedId) == f.goodCounts, sourceLocation: sourceLocation)
            #expect(try partitionTableCount(conn) == 2 * GTFSSchema.files.count, sourceLocation: sourceLocation)
        }
    }

    /// Imports a broken copy of `base` that must load; checks the other feed is untouched
    /// and hands the result and the good counts to `verify`.
    func expectLoads(base: String = "caltrain", sourceLocation: SourceLocation = #_sourceLocation,
                     _ breakIt: (FeedFolder) throws -> Void,
                     verify: (PGConnection, ImportResult, _ good: [String: Int], FeedFolder) throws -> Void) throws {
        try withTestDatabase { _, conn in
            let f = try Fixture(conn: conn, base: base)
            defer { f.folder.remove() }
            try breakIt(f.folder)
            let other = try TableChecksums.snapshot(conn, feedId: BrokenFeedTests.otherId)
            let result = try FeedImporter(db: conn).importFeed(at: f.folder.path, feedId: BrokenFeedTests.feedId)
            #expect(result.version == 2, sourceLocation: sourceLocation)
            #expect(try TableChecksums.snapshot(conn, feedId: BrokenFeedTests.otherId) == other,
                    "the other feed changed", sourceLocation: sourceLocation)
            #expect(try partitionTableCount(conn) == 2 * GTFSSchema.files.count, sourceLocation: sourceLocation)
            // Whatever was skipped, the summary and the tables agree.
            #expect(try ReferentialIntegrity.broken(conn, feedId: BrokenFeedTests.feedId).isEmpty, sourceLocation: sourceLocation)
            for stats in result.summary.files where stats.present {
                let table = String(stats.file.dropLast(4))
                #expect(try rowCount(conn, table, feedId: BrokenFeedTests.feedId) == stats.rowsLoaded,
                        "\(stats.file)", sourceLocation: sourceLocation)
                #expect(stats.rowsRead == (try CSVRowCounter.countDataRows(file: f.folder.fileURL(stats.file).path)),
                        "\(stats.file)", sourceLocation: sourceLocation)
            }
            try verify(conn, result, f.goodCounts, f.folder)
        }
    }

    // MARK: - Fatal problems

    @Test("a missing required column (stop_id of stop_times.txt) is fatal; nothing changes")
    func missingColumn() throws {
        try expectFatal({ folder in
            try folder.dropColumn("stop_times.txt", "stop_id")
            #expect(try !folder.header("stop_times.txt").contains("stop_id"))
            return folder.path
        }, verify: { issue in
            #expect(issue.severity == .fatal)
            #expect(issue.code == "MISSING_COLUMN")
            #expect(issue.file == "stop_times.txt")
            #expect(issue.field == "stop_id")
            #expect(issue.line == 1)
        })
    }

    @Test("a missing required file (stops.txt) is fatal; nothing changes")
    func missingFile() throws {
        try expectFatal({ folder in
            try folder.delete("stops.txt")
            return folder.path
        }, verify: { issue in
            #expect(issue.severity == .fatal)
            #expect(issue.code == "MISSING_FILE")
            #expect(issue.file == "stops.txt")
        })
    }

    @Test("neither calendar.txt nor calendar_dates.txt is fatal; nothing changes")
    func noCalendar() throws {
        try expectFatal({ folder in
            try folder.delete("calendar.txt")
            try folder.delete("calendar_dates.txt")
            return folder.path
        }, verify: { issue in
            #expect(issue.code == "MISSING_FILE")
            #expect(issue.file == "calendar.txt")
        })
    }

    @Test("a .zip that is not a zip is fatal; nothing changes")
    func notAZip() throws {
        try expectFatal({ folder in
            var rng = SystemRandomNumberGenerator()
            let bytes = (0..<4096).map { _ in UInt8.random(in: 0...255, using: &rng) }
            let path = folder.url.appendingPathComponent("x.zip").path
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            return path
        }, verify: { issue in
            #expect(issue.severity == .fatal)
            #expect(issue.code == "NOT_A_ZIP")
            #expect(issue.file == "x.zip")
        })
    }

    @Test("a real zip cut in half is fatal; nothing changes")
    func truncatedZip() throws {
        try expectFatal({ folder in
            let data = try Data(contentsOf: URL(fileURLWithPath: FeedFixtures.bundledFeed("caltrain")))
            let path = folder.url.appendingPathComponent("cut.zip").path
            try data.prefix(data.count / 2).write(to: URL(fileURLWithPath: path))
            return path
        }, verify: { issue in
            #expect(issue.severity == .fatal)
            #expect(issue.code == "NOT_A_ZIP")
        })
    }

    @Test("a path with no feed is fatal; nothing changes")
    func noSuchPath() throws {
        try expectFatal({ folder in folder.url.appendingPathComponent("nothing-here.zip").path }, verify: { issue in
            #expect(issue.code == "FEED_NOT_FOUND")
        })
    }

    @Test("a file that is not CSV (routes.txt of binary bytes with NULs) is fatal; nothing changes")
    func notCSV() throws {
        try expectFatal({ folder in
            // A PNG header, then bytes of every value: NULs from the 9th byte on.
            var bytes: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0x00, 0x00, 0x0D]
            for i in 0..<2048 { bytes.append(UInt8(truncatingIfNeeded: i &* 131)) }
            try folder.write("routes.txt", Data(bytes))
            return folder.path
        }, verify: { issue in
            #expect(issue.severity == .fatal)
            #expect(issue.code == "NOT_CSV")
            #expect(issue.file == "routes.txt")
        })
    }

    @Test("an empty required file (no header) is fatal; nothing changes")
    func emptyRequiredFile() throws {
        try expectFatal({ folder in
            try folder.write("trips.txt", Data())
            return folder.path
        }, verify: { issue in
            #expect(issue.code == "MISSING_HEADER")
            #expect(issue.file == "trips.txt")
        })
    }

    @Test("--strict: one bad time is fatal (a row error); nothing changes")
    func strictBadTime() throws {
        try expectFatal(strict: true, { folder in
            try folder.setField("stop_times.txt", line: 3001, "arrival_time", to: "25:6x:00")
            return folder.path
        }, verify: { issue in
            #expect(issue.severity == .rowError)
            #expect(issue.code == "BAD_TIME")
            #expect(issue.file == "stop_times.txt")
            #expect(issue.line == 3001)
            #expect(issue.field == "arrival_time")
            #expect(issue.value == "25:6x:00")
        })
    }

    @Test("--strict on a clean feed loads it")
    func strictCleanFeed() throws {
        try withTestDatabase { _, conn in
            let r = try FeedImporter(db: conn).importFeed(at: FeedFixtures.bundledFeed("caltrain"), feedId: "ct", strict: true)
            #expect(r.summary.issues.count(.rowError) == 0)
            #expect(try rowCount(conn, "stop_times", feedId: "ct") == 4560)
        }
    }

    // MARK: - Row errors

    @Test("stop_times.txt cut in the middle of a line: the cut-off row is a row error, the rest loads")
    func truncatedStopTimes() throws {
        let cutLine = 2001
        try expectLoads({ folder in
            let start = try folder.byteOffset("stop_times.txt", line: cutLine)
            let length = try folder.lines("stop_times.txt")[cutLine - 1].count
            try folder.truncate("stop_times.txt", atByteOffset: start + length / 2)
        }, verify: { conn, r, good, folder in
            let rows = try CSVRowCounter.countDataRows(file: folder.fileURL("stop_times.txt").path)
            #expect(rows == cutLine - 1)
            let stats = try #require(r.summary.stats("stop_times.txt"))
            #expect(stats.rowsRead == rows)
            #expect(stats.rowsSkipped == 1)
            #expect(try rowCount(conn, "stop_times", feedId: "ct") == rows - 1)
            let errors = r.summary.issues.entries.filter { $0.kind.severity == .rowError }
            #expect(errors.count == 1)
            let issue = try #require(errors.first?.examples.first)
            #expect(["WRONG_FIELD_COUNT", "UNTERMINATED_QUOTE", "MISSING_VALUE", "BAD_TIME", "BAD_NUMBER"].contains(issue.code))
            #expect(issue.code == "WRONG_FIELD_COUNT")
            #expect(issue.file == "stop_times.txt")
            #expect(issue.line == cutLine)
            // Every other file loaded in full.
            var expected = good
            expected["stop_times"] = rows - 1
            #expect(try rowCounts(conn, feedId: "ct") == expected)
        })
    }

    @Test("a bad time (25:6x:00) skips its row with BAD_TIME at the line and field")
    func badTime() throws {
        let line = 101
        try expectLoads({ folder in
            try folder.setField("stop_times.txt", line: line, "arrival_time", to: "25:6x:00")
        }, verify: { conn, r, good, folder in
            let bad = examples(r.summary, code: "BAD_TIME", file: "stop_times.txt")
            #expect(bad.count == 1)
            let issue = try #require(bad.first)
            #expect(issue.severity == .rowError)
            #expect(issue.line == line)
            #expect(issue.field == "arrival_time")
            #expect(issue.value == "25:6x:00")
            #expect(r.summary.issues.count(.rowError) == 1)
            #expect(try rowCount(conn, "stop_times", feedId: "ct") == good["stop_times"]! - 1)
            // The row of that line is the one missing.
            let trip = try folder.field("stop_times.txt", line: line, "trip_id")
            let seq = try folder.field("stop_times.txt", line: line, "stop_sequence")
            #expect(try conn.scalar("SELECT count(*) FROM gtfs.stop_times WHERE feed_id = 'ct' AND trip_id = $1 AND stop_sequence = $2::int", [trip, seq]) == "0")
        })
    }

    @Test("a stop time naming an unknown trip is skipped with UNKNOWN_TRIP")
    func unknownTrip() throws {
        let line = 201
        try expectLoads({ folder in
            try folder.setField("stop_times.txt", line: line, "trip_id", to: "NO_SUCH_TRIP")
        }, verify: { conn, r, good, _ in
            let issue = try #require(examples(r.summary, code: "UNKNOWN_TRIP", file: "stop_times.txt").first)
            #expect(issue.severity == .rowError)
            #expect(issue.line == line)
            #expect(issue.field == "trip_id")
            #expect(issue.value == "NO_SUCH_TRIP")
            #expect(r.summary.issues.count(.rowError) == 1)
            #expect(try rowCount(conn, "stop_times", feedId: "ct") == good["stop_times"]! - 1)
            #expect(try conn.scalar("SELECT count(*) FROM gtfs.stop_times WHERE trip_id = 'NO_SUCH_TRIP'") == "0")
        })
    }

    @Test("invalid UTF-8 in stop_name: INVALID_UTF8 (invalid_character) field error at stops.txt, line, stop_name; name stored as NULL, stop kept")
    func invalidUTF8InStopName() throws {
        // GTFSSchema: stop_name is optional text (optionalLenient): an invalid value is stored
        // as NULL (a field error: canonical ERROR), and the stop is loaded. So stop_times
        // naming the stop load.
        let line = 2
        try expectLoads({ folder in
            let start = try folder.byteOffset("stops.txt", line: line)
            let content = try folder.line("stops.txt", line)
            // "San Francisco Caltrain,San Francisco Caltrain,...": inside the second field.
            let offset = start + "San Francisco Caltrain,San Fran".utf8.count
            #expect(content.hasPrefix("San Francisco Caltrain,San Francisco Caltrain,"))
            try folder.insertBytes("stops.txt", [0xFF, 0xFE], atByteOffset: offset)
        }, verify: { conn, r, good, folder in
            let issue = try #require(examples(r.summary, code: "INVALID_UTF8", file: "stops.txt").first)
            #expect(issue.file == "stops.txt")
            #expect(issue.line == line)
            #expect(issue.field == "stop_name")
            #expect(issue.severity == .fieldError && issue.canonical == "invalid_character")
            #expect(r.summary.issues.count(code: "INVALID_UTF8") == 1)
            #expect(try conn.query("SELECT stop_name FROM gtfs.stops WHERE feed_id = 'ct' AND stop_id = 'San Francisco Caltrain'") == [[nil]])
            // Counts consistent: no stop skipped, so no stop time loses its stop.
            #expect(r.summary.issues.count(code: "UNKNOWN_STOP") == 0)
            #expect(try rowCounts(conn, feedId: "ct") == good)
        })
    }

    @Test("invalid UTF-8 in a stop_id: INVALID_UTF8 row error, and its stop times become UNKNOWN_STOP row errors")
    func invalidUTF8InStopId() throws {
        let line = 2
        try expectLoads({ folder in
            let start = try folder.byteOffset("stops.txt", line: line)
            #expect(try folder.line("stops.txt", line).hasPrefix("San Francisco Caltrain,"))
            try folder.insertBytes("stops.txt", [0xFF, 0xFE], atByteOffset: start + "San Fran".utf8.count)
        }, verify: { conn, r, good, folder in
            let issue = try #require(examples(r.summary, code: "INVALID_UTF8", file: "stops.txt").first)
            #expect(issue.severity == .rowError)
            #expect(issue.line == line)
            #expect(issue.field == "stop_id")
            #expect(issue.value?.hasPrefix("San Fran") == true)
            #expect(try rowCount(conn, "stops", feedId: "ct") == good["stops"]! - 1)
            // Every stop time at that stop is now an UNKNOWN_STOP row error, and nothing else is.
            var atStop = 0
            let lines = try folder.lines("stop_times.txt")
            let stopColumn = try folder.columnIndex("stop_times.txt", "stop_id")
            for l in lines.dropFirst() {
                let fields = CSVLine.split(String(decoding: FeedFolder.splitLineEnd(l).content, as: UTF8.self))
                if fields.count > stopColumn && fields[stopColumn] == "San Francisco Caltrain" { atStop += 1 }
            }
            #expect(atStop > 0)
            #expect(issueCount(r.summary, .rowError, code: "UNKNOWN_STOP", file: "stop_times.txt") == atStop)
            #expect(r.summary.issues.count(.rowError) == atStop + 1)
            #expect(r.summary.stats("stop_times.txt")?.rowsSkipped == atStop)
            #expect(try rowCount(conn, "stop_times", feedId: "ct") == good["stop_times"]! - atStop)
            let unknown = try #require(examples(r.summary, code: "UNKNOWN_STOP", file: "stop_times.txt").first)
            #expect(unknown.field == "stop_id")
            #expect(unknown.value == "San Francisco Caltrain")
        })
    }

    @Test("stops.txt naming stop_id twice (different values): the first is used, with a warning (subprocess)")
    func duplicateStopIdColumn() throws {
        // Regression: GTFSFeedLoader.prescanStops once took the LAST stop_id column while
        // readHeader kept the FIRST, so `stops.find(text(v[0])!)!` found nothing and the
        // process trapped (fixed in 68de433). Run in a child process so that a regression
        // cannot take the test runner down.
        let folder = try FeedFixtures.unzip(FeedFixtures.bundledFeed("google-sample"))
        defer { folder.remove() }
        let lines = try folder.lines("stops.txt")
        var out = Data()
        for (i, line) in lines.enumerated() {
            let (content, end) = FeedFolder.splitLineEnd(line)
            if content.isEmpty { out.append(line); continue }
            out.append(content + Data((i == 0 ? ",stop_id" : ",other\(i)").utf8) + end)
        }
        try folder.write("stops.txt", out)
        let r = try TransitBinary.run(["import", "--check", "--json", folder.path], databaseURL: nil, timeout: 60)
        #expect(!r.signaled, "the check crashed (signal \(r.status)): \(r.stderr.prefix(400))")
        #expect(r.status == 0, "stderr: \(r.stderr.prefix(400))")
        #expect(!r.stderr.contains("Fatal error"))
        let json = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any], "stdout: \(r.stdout)")
        #expect((json["rows"] as? [String: Int])?["stops"] == 9)
        #expect((json["rows"] as? [String: Int])?["stop_times"] == 28)
        #expect(r.stdout.contains("DUPLICATE_COLUMN"))
    }

    // MARK: - Warnings

    @Test("a dangling parent_station: field error, the stop kept without it; a transfer to an unknown stop: row error, skipped; an unused agency: warning")
    func warnings() throws {
        try expectLoads(base: "bart-2018", { folder in
            #expect(try folder.field("stops.txt", line: 2, "stop_id") == "12TH")
            try folder.setField("stops.txt", line: 2, "parent_station", to: "NO_SUCH_STATION")
            #expect(try folder.field("transfers.txt", line: 3, "from_stop_id") == "MCAR_S")
            try folder.setField("transfers.txt", line: 3, "to_stop_id", to: "NO_SUCH_STOP")
            try folder.appendLine("agency.txt", "EXTRA,Extra Agency,http://example.com,America/Los_Angeles,en")
        }, verify: { conn, r, good, _ in
            #expect(r.summary.issues.count(.rowError) == 1)

            let dangling = try #require(examples(r.summary, code: "DANGLING_PARENT", file: "stops.txt").first)
            #expect(dangling.severity == .fieldError && dangling.canonical == "foreign_key_violation")
            #expect(dangling.line == 2)
            #expect(dangling.field == "parent_station")
            #expect(dangling.value == "NO_SUCH_STATION")
            #expect(try conn.query("SELECT parent_station FROM gtfs.stops WHERE feed_id = 'ct' AND stop_id = '12TH'") == [[nil]])

            let transfer = try #require(examples(r.summary, code: "UNKNOWN_STOP", file: "transfers.txt").first)
            #expect(transfer.severity == .rowError && transfer.canonical == "foreign_key_violation")
            #expect(transfer.line == 3)
            #expect(transfer.field == "to_stop_id")
            #expect(transfer.value == "NO_SUCH_STOP")
            #expect(issueCount(r.summary, .rowError, code: "UNKNOWN_STOP", file: "transfers.txt") == 1)
            #expect(try conn.query("SELECT from_stop_id, line_number FROM gtfs.transfers WHERE feed_id = 'ct' AND to_stop_id = 'NO_SUCH_STOP'").isEmpty)

            let unused = try #require(examples(r.summary, code: "UNUSED_AGENCY", file: "agency.txt").first)
            #expect(unused.severity == .warning)
            #expect(unused.value == "EXTRA")
            #expect(unused.line == 3)
            #expect(issueCount(r.summary, .warning, code: "UNUSED_AGENCY", file: "agency.txt") == 1)

            var expected = good
            expected["agency"] = good["agency"]! + 1
            expected["transfers"] = good["transfers"]! - 1
            #expect(try rowCounts(conn, feedId: "ct") == expected)
            let issueCounts = try conn.scalar("SELECT issue_counts->>'warning' FROM gtfs.feeds WHERE feed_id = 'ct'")
            #expect(issueCounts == String(r.summary.issues.count(.warning)))
        })
    }
}
