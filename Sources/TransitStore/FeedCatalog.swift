import Foundation
import GTFS

/// A loaded feed as `transit feeds` lists it.
public struct FeedRecord: Sendable, Codable, Equatable {
    public let id: String
    /// 1 for the first import of this feed id, then 2, 3, …
    public let version: Int
    /// ISO 8601 instant of the import.
    public let importedAt: String
    /// First and last date with service (ISO 8601 dates), when the feed has any.
    public let firstDate: String?
    public let lastDate: String?
    /// Rows loaded per GTFS file (key: file name without `.txt`).
    public let rows: [String: Int]
    /// The file the feed was imported from, and `feed_info.feed_version`.
    public let source: String
    public let feedVersion: String?
    /// The place it serves, as declared at import (`transit import --place`).
    public let place: String?
}

/// Reads and changes the list of loaded feeds.
public struct FeedCatalog {
    private let db: PGConnection

    public init(db: PGConnection) { self.db = db }

    /// The NOTIFY channel on which imports and removals announce a change of feeds
    /// (payload: "FEED VERSION", or "FEED removed"), when their transaction commits.
    public static let changeChannel = "transit_feeds"

    /// Feed id -> version, for the feeds loaded now.
    public func versions() throws -> [String: Int] {
        guard try db.scalar("SELECT to_regclass('gtfs.feeds') IS NOT NULL") == "t" else { return [:] }
        var out: [String: Int] = [:]
        for r in try db.query("SELECT feed_id, version FROM gtfs.feeds") { out[r[0]!] = Int(r[1]!) }
        return out
    }

    /// Every loaded feed, by id. Empty when nothing was ever imported.
    public func list() throws -> [FeedRecord] {
        guard try db.scalar("SELECT to_regclass('gtfs.feeds') IS NOT NULL") == "t" else { return [] }
        let rows = try db.query("""
            SELECT feed_id, version, to_char(imported_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'),
                   first_date::text, last_date::text, row_counts::text, source, feed_version, place
            FROM gtfs.feeds ORDER BY feed_id COLLATE "C"
            """)
        return try rows.map { r in
            let counts = try JSONDecoder().decode([String: Int].self, from: Data((r[5] ?? "{}").utf8))
            return FeedRecord(id: r[0]!, version: Int(r[1]!)!, importedAt: r[2]!, firstDate: r[3], lastDate: r[4],
                              rows: counts, source: r[6] ?? "", feedVersion: r[7], place: r[8])
        }
    }

    /// Removes a feed and all its rows, in one transaction.
    public func remove(_ feedId: String) throws {
        try db.execute("BEGIN")
        do {
            try db.query("SELECT pg_advisory_xact_lock(7466, hashtext($1))", [feedId])
            let exists = try db.scalar("SELECT to_regclass('gtfs.feeds') IS NOT NULL") == "t"
            guard exists, let id = try db.scalar("SELECT import_id FROM gtfs.feeds WHERE feed_id = $1 FOR UPDATE", [feedId]),
                  let importId = Int64(id) else {
                let known = (try? list().map(\.id)) ?? []
                throw StoreError(.feedNotFound, "no feed with id \"\(feedId)\" is loaded"
                                 + (known.isEmpty ? " (no feeds are loaded)" : "; loaded feeds: \(known.joined(separator: ", "))"))
            }
            try FeedImporter(db: db).dropPartitions(importId: importId)
            try db.query("DELETE FROM gtfs.feeds WHERE feed_id = $1", [feedId])
            try db.query("SELECT pg_notify($1, $2)", [FeedCatalog.changeChannel, "\(feedId) removed"])
            try db.execute("COMMIT")
        } catch {
            try? db.execute("ROLLBACK")
            throw error
        }
    }
}
