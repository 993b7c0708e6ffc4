import Foundation
import GTFS
import Testing
@testable import TransitStore
import TransitTesting

/// stop_sequence and direction_id come back from the database as the files give them:
/// sacramento-sacrt-2024 (gapped sequences in five trips, direction_id 0 and 1) and
/// bydgoszcz-2020 (sequences from 0, no direction_id column), loaded together.
@Suite("Stop sequences from the database")
struct StopSequenceLoadTests {
    @Test("Sequences and directions load as the files give them; a change in either is a difference")
    func sequencesAndDirections() throws {
        let feeds = [(path: try FeedFixtures.sharedFeed("bydgoszcz-2020"), feedId: "bydgoszcz-2020"),
                     (path: try FeedFixtures.sharedFeed("sacramento-sacrt-2024"), feedId: "sacramento-sacrt-2024")]
        try withTestDatabase { _, conn in
            for feed in feeds { _ = try FeedImporter(db: conn).importFeed(at: feed.path, feedId: feed.feedId) }
            // The column is stored (the schema is made from GTFSSchema).
            #expect(try conn.scalar("SELECT count(*) FROM gtfs.trips WHERE direction_id IS NOT NULL AND feed_id = 'sacramento-sacrt-2024'") == "5008")
            #expect(try conn.scalar("SELECT count(*) FROM gtfs.trips WHERE direction_id IS NOT NULL AND feed_id = 'bydgoszcz-2020'") == "0")
            let loaded = try SnapshotLoader(db: conn).load()
            let reference = try SnapshotCanonical.reference(feeds)
            let diffs = SnapshotCanonical.differences(loaded, reference)
            #expect(diffs.isEmpty, "\(diffs.joined(separator: "\n"))")
            #expect(loaded.stopTimeSequence.count == loaded.stopTimeCount)

            // Trip by trip, by id: the same sequences and directions as the files.
            let byId = Dictionary(uniqueKeysWithValues: reference.trips.enumerated().map { ("\($1.feed)/\($1.tripId)", $0) })
            var wrong = 0, gapped = 0, fromZero = 0
            for (t, trip) in loaded.trips.enumerated() {
                let r = byId["\(trip.feed)/\(trip.tripId)"]!
                let a = loaded.stopTimes(ofTrip: t).map { loaded.stopTimeSequence[$0] }
                let b = reference.stopTimes(ofTrip: r).map { reference.stopTimeSequence[$0] }
                if a != b || trip.directionId != reference.trips[r].directionId { wrong += 1 }
                if a.first == 0 { fromZero += 1 }
                if let f = a.first, a != Array(f..<(f + Int32(a.count))) { gapped += 1 }
            }
            #expect(wrong == 0 && gapped == 5 && fromZero == 25534)

            // SnapshotCanonical sees one changed stop_sequence and one changed direction.
            var changed = loaded
            changed.stopTimeSequence[100] += 1
            let t = loaded.trips.firstIndex { $0.directionId == 1 }!
            changed.trips[t].directionId = 0
            let found = SnapshotCanonical.differences(changed, reference)
            #expect(found.count == 2 && found.contains { $0.contains("stop_sequence") } && found.contains { $0.contains("directionId") },
                    "\(found)")
            changed.stopTimeSequence.removeLast()
            #expect(SnapshotCanonical.differences(changed, reference).contains { $0.contains("stop_sequence values for") })
        }
    }
}
