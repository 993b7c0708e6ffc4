import Foundation
import GTFS
import Testing
import TransitStore
import TransitTesting

/// The partitions' foreign keys are declared NOT VALID (the importer has skipped every row
/// that would break them): PostgreSQL still enforces them on later writes, and the
/// anti-join oracle the other tests use does see a broken reference.
@Suite("Foreign keys and the anti-join oracle")
struct ReferentialIntegrityTests {
    @Test("a loaded feed breaks no reference; a later write that would is refused; a smuggled one is seen")
    func foreignKeys() throws {
        try withTestDatabase { _, db in
            let r = try FeedImporter(db: db).importFeed(at: FeedFixtures.bundledFeed("google-sample"), feedId: "g")
            #expect(try ReferentialIntegrity.broken(db, feedId: "g").isEmpty)

            // Every foreign key of StoreSchema exists on this import's partitions.
            let fks = try db.query("""
                SELECT conrelid::regclass::text, conname FROM pg_constraint
                WHERE contype = 'f' AND connamespace = 'gtfs_part'::regnamespace ORDER BY 2
                """)
            #expect(fks.count == StoreSchema.foreignKeys(importId: r.importId).count)

            // Enforced on new writes, even though declared NOT VALID.
            do {
                try db.execute("INSERT INTO gtfs.stop_times (feed_id, trip_id, stop_id, stop_sequence) VALUES ('g', 'STBA', 'NO_SUCH_STOP', 99)")
                Issue.record("a stop time naming an unknown stop was accepted")
            } catch let e as StoreError {
                #expect(e.sqlState == "23503", "\(e)")
            }

            // With triggers off (as a faulty loader would effectively be), the oracle sees it.
            try db.execute("SET session_replication_role = replica")
            try db.execute("INSERT INTO gtfs.stop_times (feed_id, trip_id, stop_id, stop_sequence) VALUES ('g', 'STBA', 'NO_SUCH_STOP', 99)")
            try db.execute("INSERT INTO gtfs.trips (feed_id, route_id, service_id, trip_id) VALUES ('g', 'NO_ROUTE', 'NO_SERVICE', 'T_X')")
            try db.execute("RESET session_replication_role")
            #expect(try ReferentialIntegrity.broken(db, feedId: "g") == ["stop_times.stop_id": 1, "trips.route_id": 1, "trips.service_id": 1])
        }
    }
}
