import Foundation
import Testing
import TransitStore
import TransitTesting

/// `transit serve` killed with SIGKILL while clients keep sending requests, then started
/// again on the same port: requests fail only while no server is listening, and the new one
/// answers every request, with the same itineraries as before. (`Scripts/reliability.sh`
/// does the same with wrk at full speed on a release build.)
@Suite("Faults under load", .serialized)
struct FaultsUnderLoadTests {
    static let paths = [
        APITests.planPath,
        "/v1/plan?from=37.7936,-122.3950&to=37.7211,-122.4474&time=2018-06-05T17:10:00&numItineraries=3",
        "/v1/stops?query=embarcadro",
        "/v1/stops?near=37.8044,-122.2712&radius=800",
        "/v1/stops/12TH?time=2018-06-05T08:30:00",
        "/v1/health",
    ]

    /// What must be the same before and after: the itineraries or stops, not timings.
    static func essence(_ path: String, _ reply: ServerProcess.Reply) -> String {
        guard let json = reply.json else { return reply.text }
        let keep: Any = json["itineraries"] ?? json["stops"] ?? json["stop"] ?? json["feeds"].map { _ in "health" } ?? json
        let data = (try? JSONSerialization.data(withJSONObject: keep, options: [.sortedKeys, .fragmentsAllowed])) ?? Data()
        return String(decoding: data, as: UTF8.self)
    }

    /// Four clients going round `paths` on threads of their own (four blocked GCD workers on
    /// 2 cores would leave none for URLSession's completion handlers), logging each answer.
    final class Load: @unchecked Sendable {
        struct Entry { let at: Date; let path: String; let status: Int?; let essence: String }
        private let lock = NSLock()
        private var entries: [Entry] = []
        private let stopping = Flag()
        private let clients = DispatchGroup()

        /// `server` only lends its port: a server started later on the same port is reached too.
        init(_ server: ServerProcess) {
            for c in 0..<4 {
                clients.enter()
                Thread { [self] in
                    defer { clients.leave() }
                    var i = c
                    while !stopping.isSet {
                        let p = FaultsUnderLoadTests.paths[i % FaultsUnderLoadTests.paths.count]
                        i += 1
                        let reply = try? server.request(p, timeout: 10)
                        let entry = Entry(at: Date(), path: p, status: reply?.status, essence: reply.map { FaultsUnderLoadTests.essence(p, $0) } ?? "")
                        lock.withLock { entries.append(entry) }
                        if reply == nil { usleep(20_000) }   // refused at once while nobody listens: don't spin
                    }
                }.start()
            }
        }

        /// Waits until at least `count` requests sent after `since` have been answered (any
        /// status: the checks judge them), or `timeout` seconds pass; the number answered.
        /// A count, not a clock, decides how long the load runs: on a busy machine a debug
        /// server answers slowly.
        @discardableResult
        func waitForAnswers(_ count: Int, since: Date, timeout: Double = 120) -> Int {
            let deadline = Date().addingTimeInterval(timeout)
            var n = 0
            while true {
                n = lock.withLock { entries.filter { $0.at > since && $0.status != nil }.count }
                if n >= count || Date() > deadline { return n }
                usleep(20_000)
            }
        }

        func stop() -> [Entry] {
            stopping.set()
            clients.wait()
            return lock.withLock { entries }
        }
    }

    /// The answers of a calm server, to compare with.
    static func calmAnswers(_ server: ServerProcess) throws -> [String: String] {
        var expected: [String: String] = [:]
        for p in paths {
            let r = try server.request(p)
            #expect(r.status == 200, "\(p) → \(r.status): \(r.text.prefix(300))")
            expected[p] = essence(p, r)
        }
        return expected
    }

    static func expectAllAnswered(_ part: [Load.Entry], _ when: String, like expected: [String: String],
                                  sourceLocation: SourceLocation = #_sourceLocation) {
        let failed = part.filter { $0.status != 200 }
        #expect(failed.isEmpty, "\(failed.count) of \(part.count) requests failed \(when): \(failed.prefix(5).map { "\($0.path) → \($0.status.map(String.init) ?? "no answer")" })",
                sourceLocation: sourceLocation)
        let differing = part.filter { $0.status == 200 && $0.essence != expected[$0.path] }
        #expect(differing.isEmpty, "\(differing.count) answers \(when) differ from the calm server's: \(differing.prefix(3).map(\.path))",
                sourceLocation: sourceLocation)
    }

    @Test("kill -9 under load, restart on the same port: it comes back and answers the same", .timeLimit(.minutes(10)))
    func killedAndRestarted() throws {
        let db = try TestDatabase()
        defer { db.drop() }
        let conn = try db.connect()
        _ = try FeedImporter(db: conn).importFeed(at: FeedFixtures.bundledFeed("bart-2018"), feedId: "bart")
        // One token key for both: tokens stay valid across the restart.
        let first = try ServerProcess(databaseURL: db.url, setting: testTokenSecret)
        let port = first.port
        try first.waitUntil("bart served") { h in (h["feeds"] as? [[String: Any]])?.count == 1 }

        let expected = try Self.calmAnswers(first)
        let load = Load(first)
        load.waitForAnswers(20, since: .distantPast)
        let killedAt = Date()
        first.running.kill(SIGKILL)
        let killed = first.running.wait(timeout: 30)
        #expect(killed.signaled && killed.status == SIGKILL)
        usleep(500_000)
        let server = try ServerProcess(databaseURL: db.url, arguments: ["--port", String(port)], setting: testTokenSecret)
        #expect(server.port == port, "the new server listens on \(server.port), not \(port)")
        try server.waitUntil("bart served again") { h in (h["feeds"] as? [[String: Any]])?.count == 1 }
        let readyAt = Date()
        // A request answered just after readiness was seen may have been sent before it.
        load.waitForAnswers(20, since: readyAt.addingTimeInterval(0.5))
        let entries = load.stop()
        let end = server.stop()
        #expect(end.status == 0 && !end.signaled, "the restarted server did not exit cleanly: \(end.stderr.suffix(600))")

        let before = entries.filter { $0.at < killedAt }
        let after = entries.filter { $0.at > readyAt.addingTimeInterval(0.5) }
        #expect(before.count >= 20 && after.count >= 20, "too few requests to judge: \(before.count) before, \(after.count) after")
        Self.expectAllAnswered(before, "before the kill", like: expected)
        Self.expectAllAnswered(after, "after the restart", like: expected)
        print("killed under load: \(before.count) requests before, \(entries.count - before.count - after.count) around the restart, \(after.count) after; back in \(String(format: "%.1f", readyAt.timeIntervalSince(killedAt))) s")
    }

    /// PostgreSQL itself stopped (not sessions cut) while clients keep asking: the server
    /// answers every request from the timetable it holds, says the database is unreachable,
    /// and once PostgreSQL is back, says so. (`Scripts/reliability.sh` does it under wrk.)
    @Test("PostgreSQL stopped under load: every request still answered; health says so, then recovers", .timeLimit(.minutes(10)))
    func databaseStoppedUnderLoad() throws {
        let cluster = try PrivateCluster(name: "serve")
        defer { cluster.remove() }
        let conn = try PGConnection(url: cluster.url)
        _ = try FeedImporter(db: conn).importFeed(at: FeedFixtures.bundledFeed("bart-2018"), feedId: "bart")
        let server = try ServerProcess(databaseURL: cluster.url)
        try server.waitUntil("bart served") { h in (h["feeds"] as? [[String: Any]])?.count == 1 }
        let expected = try Self.calmAnswers(server)
        let load = Load(server)
        let calm = load.waitForAnswers(10, since: .distantPast)
        try cluster.stop()
        try server.waitUntil("database unreachable", timeout: 60) { h in (h["database"] as? [String: Any])?["reachable"] as? Bool == false }
        let downSeen = Date()
        let health = try server.request("/v1/health")
        #expect(health.status == 200 && health.json?["status"] as? String == "degraded", "health while PostgreSQL is down: \(health.text.prefix(400))")
        let whileDown = load.waitForAnswers(15, since: downSeen)
        try cluster.start()
        try server.waitUntil("database back", timeout: 90) { h in (h["database"] as? [String: Any])?["reachable"] as? Bool == true }
        let afterBack = load.waitForAnswers(15, since: Date())
        let entries = load.stop()
        #expect(calm >= 10 && whileDown >= 15 && afterBack >= 15,
                "too few requests to judge: \(calm) before the stop, \(whileDown) while down, \(afterBack) after")
        Self.expectAllAnswered(entries, "while PostgreSQL stopped and came back", like: expected)
        let end = server.stop()
        #expect(end.status == 0 && !end.signaled, "the server did not exit cleanly: \(end.stderr.suffix(600))")
        print("PostgreSQL stopped under load: \(entries.count) requests, \(entries.filter { $0.status != 200 }.count) failed")
    }
}
