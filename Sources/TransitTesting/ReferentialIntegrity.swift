import Foundation
import TransitStore

/// Anti-joins over a loaded feed: rows whose reference names no loaded row.
///
/// The store declares its foreign keys `NOT VALID` (the importer has already skipped every
/// row that would break them), so PostgreSQL never checked the loaded rows: these queries
/// do. They also cover the references the importer checks without a foreign key
/// (trips → services, routes → agency).
public enum ReferentialIntegrity {
    public struct Reference: Sendable, CustomStringConvertible {
        public let table: String
        public let column: String
        /// `SELECT 1 FROM … WHERE feed_id = c.feed_id AND …` for the referenced rows.
        public let target: String
        public var description: String { "\(table).\(column)" }
    }

    public static let references: [Reference] = [
        Reference(table: "trips", column: "route_id", target: "SELECT 1 FROM gtfs.routes p WHERE p.feed_id = c.feed_id AND p.route_id = c.route_id"),
        Reference(table: "trips", column: "service_id", target: """
            SELECT 1 FROM gtfs.calendar p WHERE p.feed_id = c.feed_id AND p.service_id = c.service_id
            UNION ALL SELECT 1 FROM gtfs.calendar_dates p WHERE p.feed_id = c.feed_id AND p.service_id = c.service_id
            """),
        Reference(table: "stop_times", column: "trip_id", target: "SELECT 1 FROM gtfs.trips p WHERE p.feed_id = c.feed_id AND p.trip_id = c.trip_id"),
        Reference(table: "stop_times", column: "stop_id", target: "SELECT 1 FROM gtfs.stops p WHERE p.feed_id = c.feed_id AND p.stop_id = c.stop_id"),
        Reference(table: "frequencies", column: "trip_id", target: "SELECT 1 FROM gtfs.trips p WHERE p.feed_id = c.feed_id AND p.trip_id = c.trip_id"),
        Reference(table: "pathways", column: "from_stop_id", target: "SELECT 1 FROM gtfs.stops p WHERE p.feed_id = c.feed_id AND p.stop_id = c.from_stop_id"),
        Reference(table: "pathways", column: "to_stop_id", target: "SELECT 1 FROM gtfs.stops p WHERE p.feed_id = c.feed_id AND p.stop_id = c.to_stop_id"),
        Reference(table: "routes", column: "agency_id", target: "SELECT 1 FROM gtfs.agency p WHERE p.feed_id = c.feed_id AND p.agency_id = c.agency_id"),
    ]

    /// For each reference, the number of rows of `feedId` that name nothing (NULL
    /// references do not count). Every value is 0 for a correctly loaded feed.
    public static func violations(_ db: PGConnection, feedId: String) throws -> [String: Int] {
        var out: [String: Int] = [:]
        for r in references {
            let n = try db.scalar("""
                SELECT count(*) FROM gtfs.\(r.table) c
                WHERE c.feed_id = $1 AND c.\(r.column) IS NOT NULL AND NOT EXISTS (\(r.target))
                """, [feedId])
            out[r.description] = Int(n ?? "-1") ?? -1
        }
        return out
    }

    /// The references broken by at least one row (empty when all hold).
    public static func broken(_ db: PGConnection, feedId: String) throws -> [String: Int] {
        try violations(db, feedId: feedId).filter { $0.value != 0 }
    }
}
