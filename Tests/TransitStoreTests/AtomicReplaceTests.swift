import Foundation
import GTFS
import Testing
import TransitStore
import TransitTesting

/// Re-importing a feed id swaps the whole version in one transaction: one set of
/// partitions per feed id, versions counted up, other feeds untouched; removing a feed
/// removes its rows and its partitions.
@Suite("Atomic replace and remove")
struct AtomicReplaceTests {
    /// Number of partitions attached to the gtfs.* parents (pg_inherits).
    func attachedPartitionCount(_ db: PGConnection) throws -> Int {
        Int(try db.scalar("""
            SELECT count(*) FROM pg_inherits i JOIN pg_class p ON p.oid = i.inhparent
            JOIN pg_namespace n ON n.oid = p.relnamespace WHERE n.nspname = 'gtfs'
            """) ?? "-1") ?? -1
    }

    /// Checksums of a feed's partitions keyed by parent table (partition names change per version).
    func contentByTable(_ db: PGConnection, feedId: String) throws -> [String: String] {
        var out: [String: String] = [:]
        for (parent, partition) in try TableChecksums.partitions(db, feedId: feedId) {
            out[parent] = try TableChecksums.checksum(db, table: partition)
        }
        return out
    }

    @Test("re-importing bart as x: version 2, same rows, one set of partitions; remove drops everything")
    func reimportAndRemove() throws {
        let bart = try FeedFixtures.sharedFeed("bart-2018")
        try withTestDatabase { _, db in
            let first = try FeedImporter(db: db).importFeed(at: bart, feedId: "x")
            #expect(first.version == 1)
            let counts1 = try rowCounts(db, feedId: "x")
            #expect(counts1["stop_times"] == 33167)
            let parts1 = try TableChecksums.partitions(db, feedId: "x")
            #expect(parts1.count == GTFSSchema.files.count)
            #expect(Set(parts1.values) == Set(GTFSSchema.files.map { "gtfs_part.\($0.table)_\(first.importId)" }))
            let content1 = try contentByTable(db, feedId: "x")

            let second = try FeedImporter(db: db).importFeed(at: bart, feedId: "x")
            #expect(second.version == 2)
            #expect(second.importId != first.importId)
            #expect(try rowCounts(db, feedId: "x") == counts1)
            let parts2 = try TableChecksums.partitions(db, feedId: "x")
            #expect(Set(parts2.values) == Set(GTFSSchema.files.map { "gtfs_part.\($0.table)_\(second.importId)" }))
            #expect(Set(parts1.values).isDisjoint(with: parts2.values))
            // Exactly one set of partitions: the old tables are gone, not just detached.
            #expect(try partitionTableCount(db) == GTFSSchema.files.count)
            #expect(try attachedPartitionCount(db) == GTFSSchema.files.count)
            #expect(try db.scalar("SELECT import_id FROM gtfs.feeds WHERE feed_id = 'x'") == String(second.importId))
            // The same feed gives the same rows.
            #expect(try contentByTable(db, feedId: "x") == content1)

            let listed = try FeedCatalog(db: db).list()
            #expect(listed.map(\.id) == ["x"])
            #expect(listed.first?.version == 2)
            #expect(listed.first?.rows == second.summary.rowsLoaded)

            try FeedCatalog(db: db).remove("x")
            #expect(try FeedCatalog(db: db).list().isEmpty)
            for spec in GTFSSchema.files {
                #expect(try db.scalar("SELECT count(*) FROM gtfs.\(spec.table)") == "0", "\(spec.table) still has rows")
            }
            #expect(try partitionTableCount(db) == 0)
            #expect(try attachedPartitionCount(db) == 0)

            // Removing it again says which feed is missing.
            do {
                try FeedCatalog(db: db).remove("x")
                Issue.record("removing a removed feed succeeded")
            } catch let e as StoreError {
                #expect(e.code == .feedNotFound)
                #expect(e.message.contains("\"x\""))
            }
            // And an import after a remove starts again at version 1.
            #expect(try FeedImporter(db: db).importFeed(at: bart, feedId: "x").version == 1)
        }
    }

    @Test("two Porto Alegre feeds side by side keep separate rows; replacing or removing one leaves the other")
    func twoFeedsSideBySide() throws {
        let trensurb = try FeedFixtures.sharedFeed("porto-alegre-trensurb-2019")
        let eptc = try FeedFixtures.sharedFeed("porto-alegre-eptc-2019")
        try withTestDatabase { _, db in
            let t = try FeedImporter(db: db).importFeed(at: trensurb, feedId: "poa-trensurb")
            let e = try FeedImporter(db: db).importFeed(at: eptc, feedId: "poa-eptc")
            #expect(t.version == 1 && e.version == 1)
            let tCounts = try rowCounts(db, feedId: "poa-trensurb")
            let eCounts = try rowCounts(db, feedId: "poa-eptc")
            #expect(tCounts["stops"] == 24 && tCounts["stop_times"] == 14855)
            #expect(eCounts["stops"] == 4207 && eCounts["stop_times"] == 454501)
            for spec in GTFSSchema.files {
                #expect(try db.scalar("SELECT count(*) FROM gtfs.\(spec.table)") == String(tCounts[spec.table]! + eCounts[spec.table]!))
            }
            #expect(try db.query("SELECT feed_id, count(*) FROM gtfs.agency GROUP BY 1 ORDER BY 1") == [["poa-eptc", "1"], ["poa-trensurb", "1"]])
            #expect(try partitionTableCount(db) == 2 * GTFSSchema.files.count)
            #expect(try FeedCatalog(db: db).list().map(\.id) == ["poa-eptc", "poa-trensurb"])

            // Replacing trensurb leaves every eptc partition byte-identical.
            let eptcBefore = try TableChecksums.snapshot(db, feedId: "poa-eptc")
            #expect(eptcBefore.count == GTFSSchema.files.count)
            #expect(try FeedImporter(db: db).importFeed(at: trensurb, feedId: "poa-trensurb").version == 2)
            #expect(try TableChecksums.snapshot(db, feedId: "poa-eptc") == eptcBefore)
            #expect(try rowCounts(db, feedId: "poa-trensurb") == tCounts)
            #expect(try partitionTableCount(db) == 2 * GTFSSchema.files.count)

            // Removing trensurb leaves eptc too.
            try FeedCatalog(db: db).remove("poa-trensurb")
            #expect(try TableChecksums.snapshot(db, feedId: "poa-eptc") == eptcBefore)
            #expect(try rowCounts(db, feedId: "poa-trensurb").values.allSatisfy { $0 == 0 })
            #expect(try FeedCatalog(db: db).list().map(\.id) == ["poa-eptc"])
            #expect(try partitionTableCount(db) == GTFSSchema.files.count)
        }
    }

    @Test("imports at once: two of the same feed id wait for each other, another feed loads beside them")
    func concurrentImports() throws {
        let trensurb = try FeedFixtures.sharedFeed("porto-alegre-trensurb-2019")
        let bart = try FeedFixtures.sharedFeed("bart-2018")
        try withTestDatabase { testDB, db in
            // Create the schema first so every import finds it.
            _ = try FeedImporter(db: db).importFeed(at: FeedFixtures.bundledFeed("google-sample"), feedId: "first")
            let jobs: [(path: String, id: String)] = [(trensurb, "same"), (trensurb, "same"), (bart, "beside")]
            let results = LockedBox<[(String, Result<Int, any Error>)]>([])
            DispatchQueue.concurrentPerform(iterations: jobs.count) { i in
                let r: Result<Int, any Error> = Result {
                    let conn = try testDB.connect()
                    return try FeedImporter(db: conn).importFeed(at: jobs[i].path, feedId: jobs[i].id).version
                }
                results.mutate { $0.append((jobs[i].id, r)) }
            }
            for case (let id, .failure(let error)) in results.value { Issue.record("a concurrent import of \(id) failed: \(error)") }
            let sameVersions = results.value.filter { $0.0 == "same" }.compactMap { try? $0.1.get() }.sorted()
            #expect(sameVersions == [1, 2])
            #expect(try catalogVersion(db, "same") == 2)
            #expect(try catalogVersion(db, "beside") == 1)
            #expect(try TableChecksums.partitions(db, feedId: "same").count == GTFSSchema.files.count)
            #expect(try partitionTableCount(db) == 3 * GTFSSchema.files.count)
            #expect(try rowCount(db, "stop_times", feedId: "same") == 14855)
            #expect(try rowCount(db, "stop_times", feedId: "beside") == 33167)
            #expect(try rowCount(db, "stop_times", feedId: "first") == 28)
        }
    }
}

/// A value shared between threads behind a lock.
final class LockedBox<T>: @unchecked Sendable {
    private var stored: T
    private let lock = NSLock()
    init(_ value: T) { stored = value }
    var value: T { lock.withLock { stored } }
    func mutate(_ body: (inout T) -> Void) { lock.withLock { body(&stored) } }
}
