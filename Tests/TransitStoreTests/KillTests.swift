import Foundation
import GTFS
import Testing
import TransitStore
import TransitTesting

/// `transit import` killed with SIGKILL in the middle of stop_times.txt leaves the previous
/// version complete: PostgreSQL rolls the transaction back when the client disappears.
@Suite("Killed import")
struct KillTests {
    /// Backends other than `db`'s own connected to the database.
    func otherBackends(_ db: PGConnection, database: String) throws -> Int {
        Int(try db.scalar("SELECT count(*) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()", [database]) ?? "-1") ?? -1
    }

    @Test("kill -9 during stop_times.txt leaves version 1 intact; the next import is version 2")
    func killDuringStopTimes() throws {
        let feed = try FeedFixtures.sharedFeed("bydgoszcz-2020")
        _ = try TransitBinary.path()
        try withTestDatabase { testDB, db in
            // Version 1, imported to completion by the binary.
            let first = try TransitBinary.run(["import", feed, "--feed", "k"], databaseURL: testDB.url)
            #expect(first.status == 0, "first import failed: \(first.stderr)")
            #expect(try catalogVersion(db, "k") == 1)
            let counts = try rowCounts(db, feedId: "k")
            #expect(counts["stop_times"] == 583164)
            let before = try TableChecksums.snapshot(db)
            #expect(before.count == 2 * GTFSSchema.files.count + 2)

            // Version 2, killed once it is inside stop_times.txt (or after 1.5 s).
            let child = try TransitBinary.start(["import", feed, "--feed", "k"], databaseURL: testDB.url)
            let started = Date()
            var sawStopTimes = false
            while child.isRunning && Date().timeIntervalSince(started) < 1.5 {
                if child.stderrSoFar.contains("stop_times.txt") { sawStopTimes = true; break }
                usleep(10_000)
            }
            #expect(child.isRunning, "the import ended before it could be killed: \(child.stderrSoFar)")
            child.kill(SIGKILL)
            let killed = child.wait(timeout: 30)
            #expect(killed.signaled && killed.status == SIGKILL, "status \(killed.status), stderr: \(killed.stderr)")
            // The import was in stop_times.txt: its stderr shows progress there (or time ran out).
            #expect(sawStopTimes || Date().timeIntervalSince(started) >= 1.5)

            // The server notices the dead client and rolls back; wait until its backend is gone.
            let deadline = Date().addingTimeInterval(10)
            var others = try otherBackends(db, database: testDB.name)
            while others > 0 && Date() < deadline {
                usleep(50_000)
                others = try otherBackends(db, database: testDB.name)
            }
            #expect(others == 0, "the killed import's backend is still there after 10 s")

            // Nothing of the killed import is left; version 1 is complete.
            let after = try TableChecksums.snapshot(db)
            #expect(after == before, "tables changed by the killed import: \(TableChecksums.differences(before, after))")
            #expect(try catalogVersion(db, "k") == 1)

            // A new import runs to completion.
            let second = try TransitBinary.run(["import", feed, "--feed", "k"], databaseURL: testDB.url)
            #expect(second.status == 0, "import after the kill failed: \(second.stderr)")
            #expect(second.stdout.contains("version 2"))
            #expect(try catalogVersion(db, "k") == 2)
            #expect(try rowCounts(db, feedId: "k") == counts)
            #expect(try partitionTableCount(db) == GTFSSchema.files.count)
        }
    }
}
