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
