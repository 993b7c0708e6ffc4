import Foundation
import TransitStore

/// A fingerprint of every table in the schemas `gtfs` and `gtfs_part`: table name → md5 of
/// its rows (as text, sorted). Two snapshots are equal when the same tables exist and hold
/// the same rows, which is how tests check that a failed import changed nothing.
public enum TableChecksums {
    /// The schemas an import writes to.
    public static let schemas = ["gtfs", "gtfs_part"]

    /// `schema.table` of every table (plain or partitioned) in `gtfs` and `gtfs_part`.
    public static func tableNames(_ db: PGConnection) throws -> [String] {
        try db.query("""
            SELECT schemaname || '.' || tablename FROM pg_tables
            WHERE schemaname IN ('gtfs', 'gtfs_part') ORDER BY 1
            """).map { $0[0]! }
    }

    /// md5 of each table's rows. Empty when nothing was ever imported.
    public static func snapshot(_ db: PGConnection) throws -> [String: String] {
        var out: [String: String] = [:]
        for table in try tableNames(db) {
            out[table] = try checksum(db, table: table)
        }
        return out
    }

    /// md5 of one table's rows, each row as its text form, sorted, joined by newlines.
    public static func checksum(_ db: PGConnection, table: String) throws -> String {
        let parts = table.split(separator: ".", maxSplits: 1).map { db.identifier(String($0)) }
        let name = parts.joined(separator: ".")
        return try db.scalar("SELECT md5(coalesce(string_agg(t::text, E'\\n' ORDER BY t::text), '')) FROM \(name) t") ?? ""
    }

    /// The partitions (tables in `gtfs_part`) that hold a feed's rows, by parent table.
    public static func partitions(_ db: PGConnection, feedId: String) throws -> [String: String] {
        let rows = try db.query("""
            SELECT p.relname, n.nspname || '.' || c.relname
            FROM pg_inherits i
            JOIN pg_class c ON c.oid = i.inhrelid
            JOIN pg_namespace n ON n.oid = c.relnamespace
            JOIN pg_class p ON p.oid = i.inhparent
            JOIN pg_namespace pn ON pn.oid = p.relnamespace
            WHERE pn.nspname = 'gtfs' AND pg_get_expr(c.relpartbound, c.oid) = 'FOR VALUES IN (' || quote_literal($1) || ')'
            """, [feedId])
        return Dictionary(uniqueKeysWithValues: rows.map { ($0[0]!, $0[1]!) })
    }

    /// Checksums of one feed's partitions only.
    public static func snapshot(_ db: PGConnection, feedId: String) throws -> [String: String] {
        var out: [String: String] = [:]
        for (_, table) in try partitions(db, feedId: feedId) { out[table] = try checksum(db, table: table) }
        return out
    }

    /// Names of tables whose checksums differ (or exist in one snapshot only), for messages.
    public static func differences(_ a: [String: String], _ b: [String: String]) -> [String] {
        Set(a.keys).union(b.keys).filter { a[$0] != b[$0] }.sorted()
    }
}
