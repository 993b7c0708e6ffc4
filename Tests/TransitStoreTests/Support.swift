import Foundation
import GTFS
import Testing
import TransitStore
import TransitTesting

// Helpers shared by the TransitStoreTests files.

/// Runs `body` with a fresh database of its own, dropped afterwards.
func withTestDatabase<T>(_ body: (TestDatabase, PGConnection) throws -> T) throws -> T {
    let db = try TestDatabase()
    defer { db.drop() }
    let conn = try db.connect()
    return try body(db, conn)
}

/// `SELECT count(*) FROM gtfs.<table> WHERE feed_id = $1`.
func rowCount(_ db: PGConnection, _ table: String, feedId: String) throws -> Int {
    Int(try db.scalar("SELECT count(*) FROM gtfs.\(table) WHERE feed_id = $1", [feedId]) ?? "-1") ?? -1
}

/// Row counts of every GTFS table for one feed.
func rowCounts(_ db: PGConnection, feedId: String) throws -> [String: Int] {
    var out: [String: Int] = [:]
    for spec in GTFSSchema.files { out[spec.table] = try rowCount(db, spec.table, feedId: feedId) }
    return out
}

/// Number of tables in schema gtfs_part.
func partitionTableCount(_ db: PGConnection) throws -> Int {
    Int(try db.scalar("SELECT count(*) FROM pg_tables WHERE schemaname = 'gtfs_part'") ?? "-1") ?? -1
}

/// The version of a loaded feed, from the catalogue.
func catalogVersion(_ db: PGConnection, _ feedId: String) throws -> Int? {
    try FeedCatalog(db: db).list().first { $0.id == feedId }?.version
}

/// The issues of one code in a summary (examples only: at most `examplesPerKind` each).
func examples(_ summary: GTFSLoadSummary, code: String, file: String? = nil) -> [GTFSIssue] {
    summary.issues.entries.filter { $0.kind.code == code && (file == nil || $0.kind.file == file) }.flatMap(\.examples)
}

/// Number of issues of a code and severity in one file.
func issueCount(_ summary: GTFSLoadSummary, _ severity: GTFSIssue.Severity, code: String, file: String) -> Int {
    summary.issues.entries.filter { $0.kind.severity == severity && $0.kind.code == code && $0.kind.file == file }
        .reduce(0) { $0 + $1.count }
}

/// Row errors recorded for one file.
func rowErrorCount(_ summary: GTFSLoadSummary, file: String) -> Int {
    summary.issues.entries.filter { $0.kind.severity == .rowError && $0.kind.file == file }.reduce(0) { $0 + $1.count }
}

/// Runs an import that must fail with a GTFSFatalError, returning the error.
func importExpectingFatal(_ db: PGConnection, path: String, feedId: String, strict: Bool = false,
                          sourceLocation: SourceLocation = #_sourceLocation) -> GTFSFatalError? {
    do {
        let result = try FeedImporter(db: db).importFeed(at: path, feedId: feedId, strict: strict)
        Issue.record("the import succeeded (version \(result.version)) but a fatal error was expected", sourceLocation: sourceLocation)
        return nil
    } catch let fatal as GTFSFatalError {
        return fatal
    } catch {
        Issue.record("expected a GTFSFatalError, got \(type(of: error)): \(error)", sourceLocation: sourceLocation)
        return nil
    }
}

/// The COPY into a stop_times partition in progress on `database` (another backend's),
/// with the rows it has taken so far; nil when no such COPY runs. The table is named by
/// the backend's statement (`COPY gtfs_part.stop_times_<import> … FROM STDIN`): the
/// progress view's relid cannot be resolved from here, as the partition is created in
/// the import's own, uncommitted transaction.
func stopTimesCopy(_ db: PGConnection, database: String) throws -> (table: String, rows: Int)? {
    let row = try db.scalar("""
        SELECT split_part(a.query, ' ', 2) || ' ' || p.tuples_processed
        FROM pg_stat_progress_copy p JOIN pg_stat_activity a ON a.pid = p.pid
        WHERE p.datname = $1 AND p.pid <> pg_backend_pid() AND p.command = 'COPY FROM'
          AND a.query LIKE 'COPY gtfs\\_part.stop\\_times\\_%'
        """, [database])
    guard let parts = row?.split(separator: " "), parts.count == 2, let rows = Int(parts[1]) else { return nil }
    return (String(parts[0]), rows)
}
