import Foundation
import GTFS
import Testing
import TransitStore
import TransitTesting

/// The `transit` executable as a user runs it: exit codes, messages, JSON.
@Suite("transit command line")
struct CLITests {
    /// Signs that the program crashed or printed a trace instead of a message.
    static let crashMarkers = ["Fatal error", "Stack dump", "backtrace", "Backtrace", "Current stack trace", "#0 ", "💣"]

    func expectNoCrash(_ r: ProcessRunner.Result, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(!r.signaled, "killed by signal \(r.status)", sourceLocation: sourceLocation)
        for marker in CLITests.crashMarkers {
            #expect(!r.stderr.contains(marker) && !r.stdout.contains(marker), "output contains \"\(marker)\": \(r.stderr)",
                    sourceLocation: sourceLocation)
        }
    }

    @Test("transit feeds --json lists the loaded feed with id, version, importedAt, firstDate, lastDate, rows")
    func feedsJSON() throws {
        try withTestDatabase { testDB, db in
            let imported = try FeedImporter(db: db).importFeed(at: FeedFixtures.bundledFeed("google-sample"), feedId: "sample")
            let r = try TransitBinary.run(["feeds", "--json"], databaseURL: testDB.url)
            #expect(r.status == 0, "stderr: \(r.stderr)")
            expectNoCrash(r)
            let json = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8))
            let array = try #require(json as? [[String: Any]], "not a JSON array of objects: \(r.stdout)")
            #expect(array.count == 1)
            let feed = try #require(array.first)
            #expect(Set(feed.keys) == ["id", "version", "importedAt", "firstDate", "lastDate", "rows"])
            #expect(feed["id"] as? String == "sample")
            #expect(feed["version"] as? Int == 1)
            #expect(feed["firstDate"] as? String == "2007-01-01")
            #expect(feed["lastDate"] as? String == "2010-12-31")
            let importedAt = try #require(feed["importedAt"] as? String)
            #expect(importedAt.range(of: #"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$"#, options: .regularExpression) != nil, "\(importedAt)")
            let rows = try #require(feed["rows"] as? [String: Int])
            #expect(rows["stops"] == 9)
            #expect(rows["stop_times"] == 28)
            #expect(rows == imported.summary.rowsLoaded)
            #expect(rows == (try rowCounts(db, feedId: "sample")).filter { rows.keys.contains($0.key) })
        }
    }

    @Test("transit feeds --json on an empty database prints []; transit feeds says how to load one")
    func feedsEmpty() throws {
        try withTestDatabase { testDB, _ in
            let r = try TransitBinary.run(["feeds", "--json"], databaseURL: testDB.url)
            #expect(r.status == 0, "stderr: \(r.stderr)")
            #expect(r.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "[\n\n]" || r.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "[]")
            let plain = try TransitBinary.run(["feeds"], databaseURL: testDB.url)
            #expect(plain.status == 0)
            #expect(plain.stdout.contains("No feeds are loaded"))
        }
    }

    @Test("transit feeds remove nope: non-zero exit, a message naming the feed, no stack trace")
    func removeUnknownFeed() throws {
        try withTestDatabase { testDB, db in
            // On an empty database, then on one with a feed.
            let empty = try TransitBinary.run(["feeds", "remove", "nope"], databaseURL: testDB.url)
            #expect(empty.status != 0)
            #expect(empty.stderr.contains("nope"), "stderr: \(empty.stderr)")
            expectNoCrash(empty)

            _ = try FeedImporter(db: db).importFeed(at: FeedFixtures.bundledFeed("google-sample"), feedId: "sample")
            let r = try TransitBinary.run(["feeds", "remove", "nope"], databaseURL: testDB.url)
            #expect(r.status != 0)
            #expect(r.stderr.contains("\"nope\""), "stderr: \(r.stderr)")
            #expect(r.stderr.contains("sample"), "the message should list the loaded feeds: \(r.stderr)")
            expectNoCrash(r)
            #expect(try catalogVersion(db, "sample") == 1)

            let removed = try TransitBinary.run(["feeds", "remove", "sample"], databaseURL: testDB.url)
            #expect(removed.status == 0, "stderr: \(removed.stderr)")
            #expect(try FeedCatalog(db: db).list().isEmpty)
        }
    }

    @Test("transit import with PostgreSQL unreachable: exit 1, says so and how to start it, no trace")
    func deadDatabase() throws {
        let r = try TransitBinary.run(["import", FeedFixtures.bundledFeed("google-sample")],
                                      databaseURL: "postgresql://postgres@127.0.0.1:1/none", timeout: 60)
        #expect(r.status == 1)
        #expect(r.stderr.contains("cannot reach PostgreSQL"), "stderr: \(r.stderr)")
        #expect(r.stderr.contains("Scripts/postgres.sh start"), "stderr: \(r.stderr)")
        expectNoCrash(r)
    }

    @Test("transit import with no DATABASE_URL: exit 1 and says how to give one")
    func noDatabaseURL() throws {
        let r = try TransitBinary.run(["import", FeedFixtures.bundledFeed("google-sample")], databaseURL: nil, timeout: 60)
        #expect(r.status == 1)
        #expect(r.stderr.contains("DATABASE_URL"), "stderr: \(r.stderr)")
        expectNoCrash(r)
    }

    @Test("transit import --check works without a database")
    func checkWithoutDatabase() throws {
        let r = try TransitBinary.run(["import", "--check", FeedFixtures.bundledFeed("google-sample")], databaseURL: nil, timeout: 60)
        #expect(r.status == 0, "stderr: \(r.stderr)")
        #expect(r.stdout.contains("nothing was written"), "stdout: \(r.stdout)")
        #expect(r.stdout.contains("stop_times.txt"))
        expectNoCrash(r)
    }

    @Test("transit import --check --json reports rows and issues as JSON")
    func checkJSON() throws {
        let r = try TransitBinary.run(["import", "--check", "--json", FeedFixtures.bundledFeed("caltrain")], databaseURL: nil, timeout: 60)
        #expect(r.status == 0, "stderr: \(r.stderr)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        #expect(json["id"] as? String == "caltrain")
        #expect((json["rows"] as? [String: Int])?["stop_times"] == 4560)
        #expect((json["skipped"] as? [String: Int])?["stop_times"] == 0)
    }

    @Test("transit import of a broken feed: exit 1, the fatal problem and where, database unchanged")
    func fatalImport() throws {
        try withTestDatabase { testDB, db in
            let folder = try FeedFixtures.unzip(FeedFixtures.bundledFeed("caltrain"))
            defer { folder.remove() }
            try folder.dropColumn("stop_times.txt", "stop_id")
            let r = try TransitBinary.run(["import", folder.path, "--feed", "ct"], databaseURL: testDB.url)
            #expect(r.status == 1)
            #expect(r.stderr.contains("MISSING_COLUMN"), "stderr: \(r.stderr)")
            #expect(r.stderr.contains("stop_times.txt"))
            #expect(r.stderr.contains("Nothing was changed"))
            expectNoCrash(r)
            #expect(try FeedCatalog(db: db).list().isEmpty)
        }
    }

    @Test("transit import of a good folder prints the summary and the feed is listed")
    func importFolder() throws {
        try withTestDatabase { testDB, db in
            let folder = try FeedFixtures.unzip(FeedFixtures.bundledFeed("caltrain"))
            defer { folder.remove() }
            let r = try TransitBinary.run(["import", folder.path, "--feed", "ct"], databaseURL: testDB.url)
            #expect(r.status == 0, "stderr: \(r.stderr)")
            #expect(r.stdout.contains("Feed \"ct\" version 1 imported"), "stdout: \(r.stdout)")
            #expect(try rowCount(db, "stop_times", feedId: "ct") == 4560)
            let list = try TransitBinary.run(["feeds"], databaseURL: testDB.url)
            #expect(list.status == 0)
            #expect(list.stdout.contains("ct"))
            #expect(list.stdout.contains("4,560"))
        }
    }

    @Test("transit import --place names the region: listed by feeds, used by coverage from the database, kept by a re-import without --place")
    func importPlace() throws {
        try withTestDatabase { testDB, db in
            let bart = try FeedFixtures.bundledFeed("bart-2018")
            let r = try TransitBinary.run(["import", bart, "--feed", "bart", "--place", "San Francisco Bay Area"], databaseURL: testDB.url)
            #expect(r.status == 0, "stderr: \(r.stderr)")
            let again = try TransitBinary.run(["import", bart, "--feed", "bart"], databaseURL: testDB.url)
            #expect(again.status == 0, "stderr: \(again.stderr)")
            let feeds = try TransitBinary.run(["feeds", "--json"], databaseURL: testDB.url)
            let list = try #require(try JSONSerialization.jsonObject(with: Data(feeds.stdout.utf8)) as? [[String: Any]])
            #expect(list.first?["place"] as? String == "San Francisco Bay Area" && list.first?["version"] as? Int == 2)
            #expect(list.first?["feedVersion"] as? String == "47")
            #expect(try TransitBinary.run(["feeds"], databaseURL: testDB.url).stdout.contains("San Francisco Bay Area"))

            let report = try TransitBinary.run(["coverage", "--json", "--today", "2019-01-01"], databaseURL: testDB.url)
            #expect(report.status == 0, "stderr: \(report.stderr)")
            let json = try #require(try JSONSerialization.jsonObject(with: Data(report.stdout.utf8)) as? [String: Any])
            let region = try #require((json["regions"] as? [[String: Any]])?.first)
            #expect(region["name"] as? String == "Bay Area Rapid Transit, San Francisco Bay Area")
            #expect(region["place"] as? String == "San Francisco Bay Area" && region["publisher"] as? String == "Bay Area Rapid Transit")
            #expect(!((json["notes"] as? [String]) ?? []).contains { $0.contains("no place declared") })
            // --place on the command line overrides the database's for one run.
            let text = try TransitBinary.run(["coverage", "--place", "bart=Oakland and San Francisco", "--today", "2019-01-01"], databaseURL: testDB.url)
            #expect(text.stdout.contains("Oakland and San Francisco"), "\(text.stdout)")
            #expect(try FeedCatalog(db: db).list().first?.place == "San Francisco Bay Area")
        }
    }

    @Test("a bad --place is refused with what is wrong: empty, not FEED=NAME, an unknown feed")
    func badPlace() throws {
        let sample = try FeedFixtures.bundledFeed("google-sample")
        for (args, says) in [(["import", sample, "--place", "  "], "the place is empty"),
                             (["coverage", "--gtfs", sample, "--place", "Beatty"], "is not FEED=NAME"),
                             (["coverage", "--gtfs", sample, "--place", "nope=Beatty"], "names feed \"nope\", which is not loaded")] {
            let r = try TransitBinary.run(args, databaseURL: "postgresql://postgres@127.0.0.1:1/none", timeout: 120)
            #expect(r.status != 0)
            #expect(r.stderr.contains(says), "\(args): \(r.stderr)")
            expectNoCrash(r)
        }
    }

    @Test("transit import --feed with a bad id is refused before touching the database")
    func badFeedId() throws {
        let r = try TransitBinary.run(["import", FeedFixtures.bundledFeed("google-sample"), "--feed", "bad id!"],
                                      databaseURL: "postgresql://postgres@127.0.0.1:1/none", timeout: 60)
        #expect(r.status != 0)
        #expect(r.stderr.contains("bad id!"), "stderr: \(r.stderr)")
        #expect(!r.stderr.contains("cannot reach PostgreSQL"))
        expectNoCrash(r)
    }
}
