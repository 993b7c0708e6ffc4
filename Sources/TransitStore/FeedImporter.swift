import Foundation
import GTFS

/// What an import did: the loader's summary plus the store's side.
public struct ImportResult: Sendable {
    public init(feedId: String, version: Int, importId: Int64, summary: GTFSLoadSummary, loadSeconds: Double, indexSeconds: Double, swapSeconds: Double) {
        self.feedId = feedId; self.version = version; self.importId = importId; self.summary = summary
        self.loadSeconds = loadSeconds; self.indexSeconds = indexSeconds; self.swapSeconds = swapSeconds
    }
    public let feedId: String
    /// 1 for the first import of this feed id, then 2, 3, …
    public let version: Int
    /// The transaction id that named this version's tables.
    public let importId: Int64
    public let summary: GTFSLoadSummary
    /// Seconds spent reading and copying, building keys and indexes, and swapping.
    public let loadSeconds: Double
    public let indexSeconds: Double
    public let swapSeconds: Double
    public var totalSeconds: Double { loadSeconds + indexSeconds + swapSeconds }
}

/// Loads a GTFS feed into PostgreSQL in one transaction.
///
/// The new version is copied into fresh tables, given its keys, indexes and foreign keys,
/// then swapped in for the previous version of the same feed id (detach and drop the old
/// partitions, attach the new ones) before the single COMMIT. Anything that stops the
/// import first (a fatal problem in the feed, a database error, the process killed)
/// leaves the database exactly as it was: PostgreSQL rolls the whole transaction back.
public final class FeedImporter {
    private let db: PGConnection

    public init(db: PGConnection) { self.db = db }

    /// A feed id: 1–63 characters of letters, digits, `.`, `_` and `-`.
    public static func isValidFeedId(_ id: String) -> Bool {
        !id.isEmpty && id.count <= 63 && id.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "._-".contains($0)) }
    }

    /// The default feed id for a path: its file name without extension, cleaned up
    /// (`../data/bydgoszcz-2020.zip` → `bydgoszcz-2020`).
    public static func defaultFeedId(for path: String) -> String {
        var name = (path as NSString).lastPathComponent
        if name.lowercased().hasSuffix(".zip") { name = String(name.dropLast(4)) }
        let cleaned = String(name.lowercased().map { ($0.isASCII && ($0.isLetter || $0.isNumber || "._-".contains($0))) ? $0 : "-" })
        return cleaned.isEmpty ? "feed" : String(cleaned.prefix(63))
    }

    /// `place`: the place the feed serves, for people ("Porto Alegre"); nil keeps the
    /// place declared for an earlier version of this feed.
    public func importFeed(at path: String, feedId: String, place: String? = nil, strict: Bool = false,
                           onEvent: ((GTFSLoadEvent) -> Void)? = nil) throws -> ImportResult {
        guard FeedImporter.isValidFeedId(feedId) else {
            throw StoreError(.badFeedId, "the feed id \"\(feedId)\" is not allowed: use 1–63 letters, digits, '.', '_' or '-'")
        }
        let source = try openFeed(at: path)
        try StoreSchema.ensure(db)
        try db.execute("BEGIN")
        let result: ImportResult
        do {
            result = try importInTransaction(source: source, path: path, feedId: feedId, place: place, strict: strict, onEvent: onEvent)
        } catch {
            if !db.isConnected {
                // PostgreSQL stopped or the network went: the server rolls back an open
                // transaction whose client is gone, so nothing of this import was kept.
                throw StoreError(.connectionLost, "the connection to PostgreSQL was lost during the import (\(Self.firstLine(error))); "
                                 + "its transaction was rolled back: nothing was changed in the database. Import again once PostgreSQL is back.")
            }
            try? db.execute("ROLLBACK")
            throw error
        }
        do {
            try db.execute("COMMIT")
        } catch where !db.isConnected {
            // Lost in the middle of COMMIT: only the database knows whether it got through.
            throw StoreError(.connectionLost, "the connection to PostgreSQL was lost while committing version \(result.version) of \"\(feedId)\" "
                             + "(\(Self.firstLine(error))): it may or may not have been stored. `transit feeds` shows which version is there.")
        }
        return result
    }

    private static func firstLine(_ error: Error) -> String {
        let text = (error as? StoreError)?.message ?? "\(error)"
        return String(text.split(separator: "\n").first ?? "").trimmingCharacters(in: .whitespaces)
    }

    private func importInTransaction(source: any GTFSFeedSource, path: String, feedId: String, place: String?, strict: Bool,
                                     onEvent: ((GTFSLoadEvent) -> Void)?) throws -> ImportResult {
        // Imports of one feed id wait for each other; other feeds load side by side.
        try db.query("SELECT pg_advisory_xact_lock(7466, hashtext($1))", [feedId])
        try db.execute("SET LOCAL maintenance_work_mem = '256MB'")
        let importId = Int64(try db.scalar("SELECT txid_current()")!)!

        let t0 = Date()
        let sink = CopySink(db: db, importId: importId, feedId: feedId)
        let summary = try GTFSFeedLoader(source: source, strict: strict, onEvent: onEvent).load(into: sink)
        let t1 = Date()

        for spec in GTFSSchema.files {
            for sql in StoreSchema.indexStatements(spec, table: StoreSchema.partition(spec, importId: importId)) {
                try db.execute(sql)
            }
        }
        for sql in StoreSchema.foreignKeys(importId: importId) { try db.execute(sql) }
        let t2 = Date()

        // Swap: the old version's partitions out, the new ones in, the catalogue row.
        let old = try db.query("SELECT import_id, version FROM gtfs.feeds WHERE feed_id = $1 FOR UPDATE", [feedId]).first
        var version = 1
        if let old, let oldId = old[0].flatMap({ Int64($0) }) {
            version = (old[1].flatMap { Int($0) } ?? 0) + 1
            try dropPartitions(importId: oldId)
        }
        let lit = db.literal(feedId)
        for spec in GTFSSchema.files {
            try db.execute("ALTER TABLE gtfs.\(spec.table) ATTACH PARTITION \(StoreSchema.partition(spec, importId: importId)) FOR VALUES IN (\(lit))")
        }
        let rows = summary.rowsLoaded
        let rowsJSON = String(decoding: try JSONEncoder.sorted.encode(rows), as: UTF8.self)
        var counts: [String: Int] = [:]
        for s in GTFSIssue.Severity.allCases { counts[s.rawValue] = summary.issues.count(s) }
        let countsJSON = String(decoding: try JSONEncoder.sorted.encode(counts), as: UTF8.self)
        try db.query("""
            INSERT INTO gtfs.feeds (feed_id, version, import_id, imported_at, source, feed_version, first_date, last_date,
                                    row_counts, issue_counts, import_seconds, place)
            VALUES ($1, $2, $3, now(), $4, $5, $6::date, $7::date, $8::jsonb, $9::jsonb, $10, $11)
            ON CONFLICT (feed_id) DO UPDATE SET version = EXCLUDED.version, import_id = EXCLUDED.import_id,
                imported_at = EXCLUDED.imported_at, source = EXCLUDED.source, feed_version = EXCLUDED.feed_version,
                first_date = EXCLUDED.first_date, last_date = EXCLUDED.last_date, row_counts = EXCLUDED.row_counts,
                issue_counts = EXCLUDED.issue_counts, import_seconds = EXCLUDED.import_seconds,
                place = coalesce(EXCLUDED.place, gtfs.feeds.place)
            """, [feedId, String(version), String(importId), (path as NSString).lastPathComponent, summary.feedVersion,
                  summary.firstServiceDate?.iso8601, summary.lastServiceDate?.iso8601, rowsJSON, countsJSON,
                  String(Date().timeIntervalSince(t0)), place])
        // Servers LISTENing reload when this transaction commits (delivered only then).
        try db.query("SELECT pg_notify($1, $2)", [FeedCatalog.changeChannel, "\(feedId) \(version)"])
        let t3 = Date()
        return ImportResult(feedId: feedId, version: version, importId: importId, summary: summary,
                            loadSeconds: t1.timeIntervalSince(t0), indexSeconds: t2.timeIntervalSince(t1),
                            swapSeconds: t3.timeIntervalSince(t2))
    }

    /// Detaches and drops the partitions of one import (inside the caller's transaction).
    func dropPartitions(importId: Int64) throws {
        var names: [String] = []
        for spec in GTFSSchema.files {
            let table = StoreSchema.partition(spec, importId: importId)
            let exists = try db.scalar("SELECT to_regclass($1) IS NOT NULL", [table]) == "t"
            guard exists else { continue }
            try db.execute("ALTER TABLE gtfs.\(spec.table) DETACH PARTITION \(table)")
            names.append(table)
        }
        if !names.isEmpty { try db.execute("DROP TABLE \(names.joined(separator: ", "))") }
    }
}

extension JSONEncoder {
    static var sorted: JSONEncoder {
        let e = JSONEncoder()
        e.outputFormatting = [.sortedKeys]
        return e
    }
}

/// A sink that only counts: `transit import --check` validates a feed without a database.
public final class DiscardingSink: GTFSRowSink {
    public init() {}
    public func beginFile(_ spec: GTFSFileSpec) throws {}
    public func row(_ values: UnsafeBufferPointer<GTFSValue>) throws {}
    public func leaveOut(trips: [String]) throws {}
    public func endFile(_ spec: GTFSFileSpec) throws {}
}
