import Foundation
import Testing
import TransitStore
import TransitTesting

/// New feed versions reach running servers through PostgreSQL (NOTIFY), with no restart
/// and no failed request; a server without a database says so and keeps trying.
@Suite("HTTP API: new versions and a missing database", .serialized)
struct ReloadTests {
    @Test("a new version imported while two servers answer: no failed request, both switch to it")
    func twoServersSwitch() throws {
        let db = try TestDatabase()
        defer { db.drop() }
        let conn = try db.connect()
        _ = try FeedImporter(db: conn).importFeed(at: FeedFixtures.bundledFeed("bart-2018"), feedId: "bart")
        let servers = try [ServerProcess(databaseURL: db.url), ServerProcess(databaseURL: db.url)]
        for s in servers { try s.waitUntil("bart v1 served") { h in (h["feeds"] as? [[String: Any]])?.first?["version"] as? Int == 1 } }

        // Requests run against both servers the whole time, on two threads each.
        let stopFlag = Flag()
        let tally = Tally()
        let paths = [APITests.planPath, "/v1/stops?query=powell", "/v1/stops/12TH?time=2018-06-05T08:30:00", "/v1/health"]
        let group = DispatchGroup()
        for (i, server) in servers.enumerated() {
            for t in 0..<2 {
                DispatchQueue.global().async(group: group) {
                    var n = i + t
                    while !stopFlag.isSet {
                        let path = paths[n % paths.count]
                        n += 1
                        do {
                            let r = try server.request(path)
                            tally.add(ok: r.status == 200, "\(path) → \(r.status) \(r.text.prefix(200))", version: nil)
                        } catch {
                            tally.add(ok: false, "\(path) → \(error)", version: nil)
                        }
                    }
                }
            }
        }
        // Version 2: the same feed again, while the requests run.
        usleep(500_000)
        let okBefore = tally.counts.0
        let result = try FeedImporter(db: conn).importFeed(at: FeedFixtures.bundledFeed("bart-2018"), feedId: "bart")
        #expect(result.version == 2)
        for s in servers { try s.waitUntil("bart v2 served", timeout: 120) { h in (h["feeds"] as? [[String: Any]])?.first?["version"] as? Int == 2 } }
        let okDuringSwitch = tally.counts.0 - okBefore
        // Then until at least 20 answers in all: on a busy machine (the whole suite runs at
        // once) a debug server answers slowly, and the count is about liveness, not speed.
        usleep(500_000)
        let enough = Date().addingTimeInterval(120)
        while tally.counts.0 <= 20 && Date() < enough { usleep(100_000) }
        stopFlag.set()
        group.wait()
        let (ok, failed) = tally.counts
        #expect(okDuringSwitch > 0, "requests answered while the new version was imported and loaded: \(okDuringSwitch)")
        #expect(ok > 20, "requests kept coming: \(ok)")
        #expect(failed.isEmpty, "\(failed.count) failed: \(failed.prefix(5))")
        for s in servers {
            #expect(try s.versions() == ["bart": 2])
            let plan = try s.request(APITests.planPath).json
            #expect((plan?["feeds"] as? [[String: Any]])?.first?["version"] as? Int == 2)
            let end = s.stop()
            #expect(end.stderr.contains("feeds changed: bart 2"), "heard through NOTIFY: \(end.stderr.suffix(800))")
        }
    }

    @Test("no feed yet: 503 with Retry-After; an import is picked up without a restart; a removal too")
    func startsEmpty() throws {
        let db = try TestDatabase()
        defer { db.drop() }
        let server = try ServerProcess(databaseURL: db.url)
        let v = try validator(server)
        try server.waitUntil("database reached") { h in (h["database"] as? [String: Any])?["reachable"] as? Bool == true }
        let plan = try server.request(APITests.planPath)
        #expect(plan.status == 503 && plan.errorCode == "NOT_READY" && plan.headers["retry-after"] == "5", "\(plan.text)")
        expectConforms(v, "/v1/plan", plan)
        let health = try server.request("/v1/health")
        #expect(health.status == 503 && health.json?["status"] as? String == "loading")
        expectConforms(v, "/v1/health", health)
        // A bad parameter is still a 400, not a 503.
        #expect(try server.request("/v1/plan?to=stop:SFIA").status == 400)

        let conn = try db.connect()
        _ = try FeedImporter(db: conn).importFeed(at: FeedFixtures.bundledFeed("caltrain"), feedId: "caltrain")
        try server.waitUntil("caltrain served") { h in (h["feeds"] as? [[String: Any]])?.count == 1 }
        #expect(try server.request("/v1/stops?query=palo%20alto").status == 200)
        _ = try FeedImporter(db: conn).importFeed(at: FeedFixtures.bundledFeed("bart-2018"), feedId: "bart")
        try server.waitUntil("bart served too") { h in (h["feeds"] as? [[String: Any]])?.count == 2 }
        try FeedCatalog(db: conn).remove("caltrain")
        try server.waitUntil("caltrain gone") { h in (h["feeds"] as? [[String: Any]])?.compactMap { $0["id"] as? String } == ["bart"] }
        #expect(try server.request(APITests.planPath).status == 200)
        _ = server.stop()
    }

    @Test("the database down at start: said plainly, retried; health reports it; nothing crashes")
    func databaseDown() throws {
        let server = try ServerProcess(databaseURL: "postgresql://postgres@127.0.0.1:1/none?connect_timeout=2")
        let v = try validator(server)
        try server.waitUntil("tried the database") { h in (h["database"] as? [String: Any])?["checkedAt"] != nil }
        let health = try server.request("/v1/health")
        #expect(health.status == 503)
        expectConforms(v, "/v1/health", health)
        let database = health.json?["database"] as? [String: Any]
        #expect(database?["reachable"] as? Bool == false)
        #expect((database?["problem"] as? String)?.contains("cannot reach PostgreSQL") == true)
        let plan = try server.request(APITests.planPath)
        #expect(plan.status == 503 && plan.errorCode == "NOT_READY")
        #expect((plan.json?["error"] as? [String: Any])?["message"].map { "\($0)" }?.contains("database") == true)
        usleep(1_500_000)
        #expect(server.running.isRunning)
        let end = server.stop()
        #expect(end.stderr.contains("cannot reach PostgreSQL") && end.stderr.contains("retrying in"), "\(end.stderr.suffix(600))")
    }

    @Test("the database going away later: the timetable keeps serving, health says unreachable")
    func databaseGoesAway() throws {
        let db = try TestDatabase()
        defer { db.drop() }
        let conn = try db.connect()
        _ = try FeedImporter(db: conn).importFeed(at: FeedFixtures.bundledFeed("caltrain"), feedId: "caltrain")
        let server = try ServerProcess(databaseURL: db.url)
        try server.waitUntil("caltrain served") { h in (h["feeds"] as? [[String: Any]])?.count == 1 }
        // Cut the server's sessions off and keep it out: what a database restart looks like to it.
        let admin = try PGConnection(url: db.adminURL)
        try admin.execute("ALTER DATABASE \(admin.identifier(db.name)) WITH ALLOW_CONNECTIONS false")
        try admin.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = \(admin.literal(db.name)) AND pid <> pg_backend_pid()")
        try server.waitUntil("database unreachable", timeout: 60) { h in (h["database"] as? [String: Any])?["reachable"] as? Bool == false }
        let health = try server.request("/v1/health")
        #expect(health.status == 200 && health.json?["status"] as? String == "degraded")
        #expect(try server.request("/v1/stops?query=palo%20alto").status == 200, "still serving what it has")
        try admin.execute("ALTER DATABASE \(admin.identifier(db.name)) WITH ALLOW_CONNECTIONS true")
        try server.waitUntil("database back", timeout: 90) { h in (h["database"] as? [String: Any])?["reachable"] as? Bool == true }
        _ = server.stop()
    }
}

final class Flag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false
    var isSet: Bool { lock.withLock { value } }
    func set() { lock.withLock { value = true } }
}

final class Tally: @unchecked Sendable {
    private let lock = NSLock()
    private var ok = 0
    private var failed: [String] = []
    func add(ok success: Bool, _ what: String, version: Int?) {
        lock.withLock { if success { ok += 1 } else { failed.append(what) } }
    }
    var counts: (Int, [String]) { lock.withLock { (ok, failed) } }
}
