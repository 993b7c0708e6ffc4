import Foundation
import GTFS
import Testing
import TransitStore
import TransitTesting

/// PostgreSQL stopped while `transit import` is copying stop_times.txt, in a cluster of the
/// test's own: the import fails with a plain message (not a crash), and once the database is
/// back the previous version is there, complete, and the next import succeeds.
@Suite("PostgreSQL stopped during an import", .serialized)
struct PostgresStopTests {
    @Test("stopped during stop_times.txt: a clean failure; after a restart version 1 is intact",
          .timeLimit(.minutes(10)), arguments: [false, true])
    func stoppedDuringImport(immediate: Bool) throws {
        let feed = try FeedFixtures.sharedFeed("bydgoszcz-2020")
        let how = immediate ? "immediate (a crash)" : "fast"
        let cluster = try PrivateCluster(name: immediate ? "crash" : "stop")
        defer { cluster.remove() }

        let first = try TransitBinary.run(["import", feed, "--feed", "s"], databaseURL: cluster.url)
        #expect(first.status == 0, "first import failed: \(first.stderr)")
        let before: [String: String]
        let counts: [String: Int]
        do {
            let db = try PGConnection(url: cluster.url)
            #expect(try catalogVersion(db, "s") == 1)
            counts = try rowCounts(db, feedId: "s")
            before = try TableChecksums.snapshot(db)
        }

        // Version 2, and the database stopped under it once PostgreSQL shows its COPY into
        // the stop_times partition under way (see KillTests); never seen fails the test.
        let child = try TransitBinary.start(["import", feed, "--feed", "s"], databaseURL: cluster.url)
        var copying: (table: String, rows: Int)? = nil
        do {
            let watcher = try PGConnection(url: cluster.url)
            let database = try #require(try watcher.scalar("SELECT current_database()"))
            while child.isRunning {
                copying = try stopTimesCopy(watcher, database: database)
                if let c = copying, c.rows > 0 { break }
                usleep(5_000)
            }
        }
        try #require(child.isRunning && copying != nil,
                     "\(how): the import ended without the stop_times COPY ever being seen: \(child.stderrSoFar.suffix(800))")
        try cluster.stop(immediate: immediate)
        let failed = child.wait(timeout: 120)
        #expect(!failed.signaled && failed.status == 1, "\(how): the import ended with status \(failed.status)\(failed.signaled ? " (a signal)" : ""): \(failed.stderr.suffix(800))")
        #expect(failed.stderr.contains("PostgreSQL"), "\(how): the failure does not say the database went away: \(failed.stderr.suffix(800))")
        #expect(failed.stderr.lowercased().contains("nothing was changed"), "\(how): the failure does not say what became of the database: \(failed.stderr.suffix(800))")
        #expect(!failed.stderr.contains("Fatal error") && !failed.stderr.contains("Stack dump"), "\(how): crashed: \(failed.stderr.suffix(800))")

        // Back up: version 1, byte for byte.
        try cluster.start()
        let db = try PGConnection(url: cluster.url)
        let after = try TableChecksums.snapshot(db)
        #expect(after == before, "\(how): tables changed by the interrupted import: \(TableChecksums.differences(before, after))")
        #expect(try catalogVersion(db, "s") == 1)

        let next = try TransitBinary.run(["import", feed, "--feed", "s"], databaseURL: cluster.url)
        #expect(next.status == 0, "\(how): the import after the restart failed: \(next.stderr)")
        #expect(try catalogVersion(db, "s") == 2)
        #expect(try rowCounts(db, feedId: "s") == counts)
    }
}
