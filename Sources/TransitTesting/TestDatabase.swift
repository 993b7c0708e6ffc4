import Foundation
import TransitStore

/// Why a test could not get its database: a plain sentence for the test log.
public struct TestSetupError: Error, CustomStringConvertible {
    public let description: String
    public init(_ message: String) { description = message }
}

/// A fresh, uniquely named PostgreSQL database for one test, created next to the database
/// named by `DATABASE_URL` and dropped by `drop()`.
///
/// Every test gets its own database, so tests may run in parallel and never see each
/// other's feeds. When `DATABASE_URL` is not set the initialiser throws (so the test fails
/// with a message saying what to do) rather than skipping silently.
///
///     let db = try TestDatabase()
///     defer { db.drop() }
///     let conn = try db.connect()
public final class TestDatabase: @unchecked Sendable {
    /// The database's name, `t_<random hex>`.
    public let name: String
    /// A connection URL for this database (the `DATABASE_URL` with its database name replaced).
    public let url: String
    /// The `DATABASE_URL` it was created from (its database is used to create and drop).
    public let adminURL: String

    private let lock = NSLock()
    private var dropped = false

    /// The `DATABASE_URL` of the environment, or an error that says to run Scripts/test.sh.
    public static func environmentURL() throws -> String {
        guard let url = ProcessInfo.processInfo.environment["DATABASE_URL"], !url.isEmpty else {
            throw TestSetupError("""
                DATABASE_URL is not set, so the PostgreSQL tests cannot run. Run the tests with \
                Scripts/test.sh (it starts a throwaway PostgreSQL and exports DATABASE_URL), or run \
                eval "$(Scripts/postgres.sh start)" in this shell before swift test.
                """)
        }
        return url
    }

    /// Creates `t_<random>` on the server of `DATABASE_URL` (or of `adminURL` when given).
    public init(adminURL: String? = nil) throws {
        let admin = try adminURL ?? TestDatabase.environmentURL()
        self.adminURL = admin
        let name = "t_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased().prefix(20)
        self.name = name
        self.url = try TestDatabase.url(admin, withDatabase: name)
        let conn: PGConnection
        do { conn = try PGConnection(url: admin) } catch {
            throw TestSetupError("cannot connect to DATABASE_URL (\(PGConnection.redact(admin))): \(error). "
                                 + "Start PostgreSQL with Scripts/postgres.sh start, or run Scripts/test.sh.")
        }
        // CREATE DATABASE copies template1 and refuses while another session uses it;
        // parallel tests may also collide briefly: retry a few times.
        var attempt = 0
        while true {
            do {
                try conn.execute("CREATE DATABASE \(conn.identifier(name))")
                break
            } catch let e as StoreError where attempt < 20 && (e.sqlState == "55006" || e.sqlState == "40P01") {
                attempt += 1
                usleep(100_000)
            }
        }
    }

    /// A new connection to this test database.
    public func connect() throws -> PGConnection { try PGConnection(url: url) }

    /// Drops the database, closing every session still connected to it. Idempotent; errors
    /// are ignored (a test that already failed should report its own failure).
    public func drop() {
        lock.lock()
        defer { lock.unlock() }
        guard !dropped else { return }
        dropped = true
        guard let conn = try? PGConnection(url: adminURL) else { return }
        try? conn.execute("DROP DATABASE IF EXISTS \(conn.identifier(name)) WITH (FORCE)")
    }

    /// Replaces the database name in a `postgresql://user@host:port/dbname?params` URL.
    /// A URL without a path gets one.
    public static func url(_ url: String, withDatabase database: String) throws -> String {
        guard let scheme = url.range(of: "://") else {
            throw TestSetupError("DATABASE_URL must be a postgresql:// URL, got \(PGConnection.redact(url))")
        }
        let afterScheme = url[scheme.upperBound...]
        let queryStart = afterScheme.firstIndex(of: "?") ?? url.endIndex
        let authorityAndPath = url[scheme.upperBound..<queryStart]
        let pathStart = authorityAndPath.firstIndex(of: "/") ?? queryStart
        return String(url[..<pathStart]) + "/" + database + String(url[queryStart...])
    }
}
