import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Testing
@testable import Server
import TransitStore
import TransitTesting

/// What a request can and cannot do to the server (tracker issue 8, security): plans are
/// limited per client; oversized, bodied, slow and idle requests are refused or closed
/// without growing the server; the database sessions are read-only; injection-looking
/// values change no table; paths never reach a file; and the default address is loopback.
@Suite("Security", .serialized)
struct SecurityTests {
    static let planPath = "/v1/plan?from=stop:12TH&to=stop:SFIA&time=2018-06-05T08:30:00"

    /// BART in a fresh database, a server over it started with `arguments`.
    static func withServer(_ arguments: [String] = [], limitPlans: Bool = false, coverage: Bool = false,
                           _ body: (ServerProcess, TestDatabase) throws -> Void) throws {
        let db = try TestDatabase()
        defer { db.drop() }
        let conn = try db.connect()
        _ = try FeedImporter(db: conn).importFeed(at: FeedFixtures.bundledFeed("bart-2018"), feedId: "bart", place: "San Francisco Bay Area")
        let server = try ServerProcess(databaseURL: db.url, arguments: arguments, limitPlans: limitPlans)
        try server.waitUntil(coverage ? "bart served, coverage ready" : "bart served") { h in
            (h["feeds"] as? [Any])?.count == 1 && (!coverage || (h["timetable"] as? [String: Any])?["coverage"] as? String == "ready")
        }
        try body(server, db)
        let end = server.stop()
        #expect(end.status == 0 && !end.signaled, "SIGTERM ends the server cleanly: \(end.stderr.suffix(800))")
        #expect(!end.stderr.contains("internal error"), "\(end.stderr.suffix(800))")
    }

    // MARK: Rate limit

    @Test("plans over a client's rate get 429 with Retry-After; other clients, other endpoints and --plan-rate 0 are not held up")
    func planRateLimit() throws {
        // One token every 5 s: far more than a request takes here even on a loaded machine.
        try Self.withServer(["--plan-rate", "0.2", "--plan-burst", "3"], limitPlans: true) { server, _ in
            let v = try validator(server)
            // The burst: one plan and two bad requests to /v1/plan (they count too: they are
            // refused before any parsing) take the three tokens, so the next plan is refused.
            // Counted, not timed: one more is let through for each token that may have come
            // back while they were sent (one per 5 s).
            let burstStart = Date()
            let first = try server.request(Self.planPath)
            #expect(first.status == 200, "the first plan of the burst: \(first.text.prefix(300))")
            for _ in 0..<2 { #expect(try server.request("/v1/plan?from=nowhere").status == 400) }
            var refused = try server.request(Self.planPath)
            var extra = 0
            while refused.status == 200 && extra < 5 { extra += 1; refused = try server.request(Self.planPath) }
            #expect(extra <= Int(Date().timeIntervalSince(burstStart) * 0.2),
                    "\(extra) plans answered after the burst of 3 within \(Date().timeIntervalSince(burstStart)) s")
            #expect(refused.status == 429)
            expectConforms(v, Self.planPath, refused)
            expectErrorShape(refused, code: "RATE_LIMITED")
            let wait = Int(refused.headers["retry-after"] ?? "")
            #expect(wait != nil && (1...5).contains(wait!), "Retry-After: \(refused.headers)")
            #expect(refused.errorDetails?["retryAfterSeconds"] as? Int == wait)
            #expect(refused.errorDetails?["burst"] as? Int == 3)
            let message = (refused.json?["error"] as? [String: Any])?["message"] as? String ?? ""
            #expect(message.contains("try again in") && !message.lowercased().contains("you "), "plain and blame-free: \(message)")
            #expect(try server.request("/v1/plan?from=nowhere").status == 429)

            // Not the other endpoints, and not another client (127.0.0.2 is loopback too).
            #expect(try server.request("/v1/health").status == 200)
            #expect(try server.request("/v1/stops?query=embarcadero").status == 200)
            let other = try RawHTTP.get(port: server.port, Self.planPath, from: "127.0.0.2")
            #expect(other.status == 200, "another address has its own bucket: \(other.text.prefix(300))")

            // A token comes back: asked every half second (a refused plan takes no token),
            // a plan is answered again, within a generous minute at one token per 5 s.
            let giveUp = Date().addingTimeInterval(60)
            var back = false
            while !back && Date() < giveUp {
                let r = try server.request(Self.planPath)
                #expect(r.status == 200 || r.status == 429, "\(r.status) \(r.text.prefix(200))")
                back = r.status == 200
                if !back { Thread.sleep(forTimeInterval: 0.5) }
            }
            #expect(back, "no plan answered within a minute of being refused (one token every 5 s)")
            // And the bucket is empty again: of 10 plans sent back to back, at most one more
            // than the tokens that can have come back meanwhile is answered, the rest refused.
            let again = Date()
            var answered = 0, refusedAgain = 0
            for _ in 0..<10 {
                let status = try server.request(Self.planPath).status
                if status == 200 { answered += 1 } else if status == 429 { refusedAgain += 1 }
            }
            let tokens = Int(Date().timeIntervalSince(again) * 0.2) + 1
            #expect(answered + refusedAgain == 10)
            #expect(answered <= tokens, "\(answered) of 10 plans answered, \(refusedAgain) refused; at most \(tokens) tokens came back")
        }
        // Lifted: as the benchmarks, the fuzzer and the soak test run it.
        try Self.withServer(["--plan-rate", "0"], limitPlans: true) { server, _ in
            for _ in 0..<40 {
                let r = try server.request(Self.planPath)
                #expect(r.status == 200, "\(r.status) \(r.text.prefix(200))")
                if r.status != 200 { break }
            }
        }
    }

    @Test("the per-client table stays bounded: idle clients are forgotten, a crowd is cut to the recent half")
    func rateTableBounded() {
        let limiter = RateLimiter(ratePerSecond: 1, burst: 2, maxClients: 1000)
        let second: UInt64 = 1_000_000_000
        var now: UInt64 = 1_000 * second
        // A burst of 100,000 different addresses, each once within a second.
        for i in 0..<100_000 {
            #expect(limiter.take(.v4(UInt32(i)), nowNanos: now + UInt64(i) * 10_000) == nil)
        }
        #expect(limiter.clientCount <= 1000, "\(limiter.clientCount) clients remembered")
        // A minute later all are full again: forgotten at the next request.
        now += 120 * second
        #expect(limiter.take(.v4(7), nowNanos: now) == nil)
        #expect(limiter.clientCount == 1)
        // The bucket itself: 2 at once, then one a second.
        #expect(limiter.take(.v4(7), nowNanos: now) == nil)
        #expect(limiter.take(.v4(7), nowNanos: now) == 1)
        #expect(limiter.take(.v4(7), nowNanos: now + second) == nil)
    }

    @Test("clients are told apart by IPv4 address and by IPv6 /64; IPv4-mapped IPv6 is its IPv4 client")
    func clientKeys() throws {
        let a = try RateLimiter.key(.init(ipAddress: "2001:db8:1:2::1", port: 1))
        let b = try RateLimiter.key(.init(ipAddress: "2001:db8:1:2:ffff::9", port: 2))
        let c = try RateLimiter.key(.init(ipAddress: "2001:db8:1:3::1", port: 1))
        #expect(a == b && a != c)
        #expect(try RateLimiter.key(.init(ipAddress: "::ffff:192.0.2.7", port: 1)) == RateLimiter.key(.init(ipAddress: "192.0.2.7", port: 9)))
        #expect(try RateLimiter.key(.init(ipAddress: "192.0.2.7", port: 1)) != RateLimiter.key(.init(ipAddress: "192.0.2.8", port: 1)))
    }

    // MARK: Request size, bodies, slow and idle connections

    @Test("huge headers, long request lines and bodies are refused; slow and idle connections are closed; memory stays flat")
    func requestSizes() throws {
        try Self.withServer(["--idle-timeout", "2"]) { server, _ in
            let port = server.port
            let before = try residentBytes(server)

            // Headers: 20 KB (over the server's 16 KB a field, under NIO's default 80 KB) and 1 MB.
            for size in [20 * 1024, 1024 * 1024] {
                let big = String(repeating: "a", count: size)
                let r = try RawHTTP.exchange(port: port, "GET /v1/health HTTP/1.1\r\nHost: x\r\nX-Big: \(big)\r\n\r\n")
                #expect(r.status == nil || [400, 431].contains(r.status!), "a \(size)-byte header: \(r.status.map(String.init) ?? "no answer")")
                #expect(r.closed, "the connection is closed after a \(size)-byte header")
            }
            // 200 headers of 10 bytes: over the count.
            let many = (0..<200).map { "X-H\($0): v\r\n" }.joined()
            let manyHeaders = try RawHTTP.exchange(port: port, "GET /v1/health HTTP/1.1\r\nHost: x\r\n\(many)\r\n")
            #expect(manyHeaders.status == nil || [400, 431].contains(manyHeaders.status!))

            // A request line of 20 KB (the query string limit is 4 KB; the line 16 KB).
            let long = try RawHTTP.exchange(port: port, "GET /v1/stops/\(String(repeating: "a", count: 20 * 1024)) HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(long.status == nil || [400, 414].contains(long.status!), "a 20 KB request line: \(long.status.map(String.init) ?? "no answer")")
            #expect(long.closed)
            // A query string over 4 KB but a line under 16 KB: the API's own 400.
            let query = try server.request("/v1/stops?query=" + String(repeating: "a", count: 5000))
            #expect(query.status == 400)
            expectErrorShape(query, code: "BAD_PARAMETER")

            // Bodies of 10 MB, declared and chunked, on GET and POST: 413 or closed, before
            // the server reads them.
            for (method, path) in [("GET", "/v1/health"), ("POST", "/v1/plan")] {
                let r = try RawHTTP.sendBody(port: port, method: method, path: path, bytes: 10 * 1024 * 1024)
                #expect(r.status == nil || r.status == 413, "\(method) with 10 MB: \(r.status.map(String.init) ?? "no answer")")
                if r.status == 413 { #expect(r.errorCode == "BODY_TOO_LARGE", "\(r.text.prefix(300))") }
                #expect(r.closed, "the connection is closed after a refused body")
                #expect(r.bodyBytesSent < 10 * 1024 * 1024, "the server stopped reading: \(r.bodyBytesSent) bytes went through")
            }
            let chunked = try RawHTTP.exchange(port: port, "GET /v1/health HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n4\r\nabcd\r\n")
            #expect(chunked.status == 413 && chunked.errorCode == "BODY_TOO_LARGE", "\(chunked.text.prefix(300))")
            // A small body with another method is still told the method.
            let post = try RawHTTP.exchange(port: port, "POST /v1/plan HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\n{}")
            #expect(post.status == 405 && post.errorCode == "METHOD_NOT_ALLOWED")

            // 200 connections: half idle, half sending a request one byte at a time and
            // stopping (slowloris). The server keeps answering, then closes them all.
            var fds: [Int32] = []
            defer { fds.forEach { close($0) } }
            for i in 0..<200 {
                let fd = try RawHTTP.connect(port: port, timeout: 8)
                if i % 2 == 1 { _ = RawHTTP.sendAll(fd, Array("GET /v1/health HTTP/1.1\r\nHost: x\r\nX-Slow: ".utf8)) }
                fds.append(fd)
            }
            #expect(try server.request("/v1/health").status == 200, "answers with 200 connections held open")
            for (i, fd) in fds.enumerated() where i % 2 == 1 {
                Thread.sleep(forTimeInterval: 0.005)
                _ = RawHTTP.sendAll(fd, Array("a".utf8))
            }
            // All closed by the server (the idle timeout is 2 s; how soon is not judged here,
            // only that it happens: each is waited for up to two minutes from now).
            let deadline = Date().addingTimeInterval(120)
            let closed = fds.filter { RawHTTP.waitClosed($0, seconds: max(0.01, deadline.timeIntervalSinceNow)) }.count
            #expect(closed == fds.count, "\(closed) of \(fds.count) idle or slow connections closed by the server")

            #expect(try server.request("/v1/health").status == 200)
            let after = try residentBytes(server)
            #expect(after - before < 64 << 20, "resident memory grew by \((after - before) >> 20) MB")
        }
    }

    // MARK: The database

    @Test("the server's database sessions are read-only: writes through its own connection are refused")
    func readOnlySessions() throws {
        let db = try TestDatabase()
        defer { db.drop() }
        let admin = try db.connect()
        _ = try FeedImporter(db: admin).importFeed(at: FeedFixtures.bundledFeed("caltrain"), feedId: "caltrain")
        let before = try TableChecksums.snapshot(admin)

        // With options of the URL's own kept alongside.
        let withOptions = db.url + (db.url.contains("?") ? "&" : "?") + "options=-c%20statement_timeout%3D4321"
        for url in [db.url, withOptions] {
            let server = try Reloader.connect(url: url)
            let again = try server.duplicate()  // the snapshot loader's extra connections
            for conn in [server, again] {
                #expect(try conn.scalar("SELECT count(*) FROM gtfs.feeds") == "1", "reading works")
                try conn.execute("LISTEN transit_feeds")
                for sql in ["CREATE TABLE gtfs.intruder (x int)", "DELETE FROM gtfs.feeds", "UPDATE gtfs.stops SET stop_name = 'x'",
                            "INSERT INTO gtfs.feeds (feed_id) VALUES ('x')", "DROP TABLE gtfs.stops CASCADE", "TRUNCATE gtfs.stops",
                            "SELECT pg_notify('transit_feeds', 'x'); CREATE TABLE y (x int)"] {
                    do {
                        try conn.execute(sql)
                        Issue.record("a read-only session ran: \(sql)")
                    } catch let e as StoreError {
                        #expect(e.sqlState == "25006", "\(sql): \(e.message)")
                    }
                }
            }
            if url == withOptions { #expect(try server.scalar("SHOW statement_timeout") == "4321ms") }
        }
        #expect(TableChecksums.differences(before, try TableChecksums.snapshot(admin)).isEmpty)
        // The importer's connections are not affected.
        #expect(try admin.scalar("SHOW default_transaction_read_only") == "off")
    }

    @Test("no request reaches the database: only the reloader, started from the command line, holds a connection")
    func requestPathHasNoDatabase() throws {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Sources/Server")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".swift") }
        #expect(files.contains("API.swift") && files.contains("Reloader.swift"))
        let database = ["PGConnection", "FeedCatalog", "SnapshotLoader", "FeedImporter", "StoreSchema", "CLibPQ", "PQexec",
                        "Reloader.connect", ".execute(", ".scalar(", ".copyOut("]
        // No handler opens a file (the health answer reads this process's /proc/self/statm).
        let fileWords = ["FileManager", "FileHandle", "fopen", "contentsOfFile", "contentsOf:", " open(", "URL(fileURL", "FileMiddleware"]
        for file in files {
            let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
            if file != "Reloader.swift" {
                for word in database where text.contains(word) {
                    // The realtime sources' HTTP client (AsyncHTTPClient) executes requests too.
                    if word == ".execute(" && text.components(separatedBy: ".execute(").count == text.components(separatedBy: "HTTPClient.shared.execute(").count { continue }
                    Issue.record("\(file) uses \(word): only Reloader.swift may reach the database")
                }
            }
            for word in fileWords where text.contains(word) {
                if file == "Memory.swift" && word == "contentsOfFile" && text.contains("\"/proc/self/statm\"") { continue }
                // The OpenAPI document: the module's own resource, read once when the API is built.
                if file == "OpenAPIDocument.swift" && word == "contentsOf:" && text.contains("Bundle.module.url(forResource: \"openapi\", withExtension: \"json\")")
                    && text.components(separatedBy: "contentsOf:").count == 2 { continue }
                // The page's files and Leaflet's: read once, when the page is made at start (its
                // init); every request is answered from memory.
                if file == "PageAPI.swift", let initEnd = text.range(of: "    /// Whether Leaflet was found"),
                   text.range(of: "public init(leafletDirectory")!.lowerBound < initEnd.lowerBound, !text[initEnd.lowerBound...].contains(word) { continue }
                Issue.record("\(file) uses \(word): no part of the server reads files")
            }
        }
    }

    @Test("injection-looking values to every endpoint: 4xx or normal answers, the server healthy, every table unchanged")
    func injection() throws {
        try Self.withServer(coverage: true) { server, db in
            let admin = try db.connect()
            let before = try TableChecksums.snapshot(admin)
            let relations = try admin.scalar("SELECT string_agg(oid::text, ',' ORDER BY oid) FROM pg_class")
            let values = ["'; DROP TABLE gtfs.feeds; --", "' OR '1'='1", "$$; DELETE FROM gtfs.stops; $$", "\\", "\\'; TRUNCATE gtfs.stops; --",
                          "\u{0}", "a\u{0}'; DROP TABLE gtfs.stops; --", "1; SELECT pg_sleep(5)", "stop:'; DELETE FROM gtfs.feeds; --",
                          "stop:bart:12TH' --", "%27%3B%20DROP%20TABLE%20gtfs.feeds%3B--", "%", "%%32%37", "${jndi:ldap://x}",
                          "\"); DROP TABLE gtfs.trips; --", "\u{202E}'; DROP", "37.8,-122.2'; --", "12TH\"; COMMIT; DROP TABLE gtfs.stops; --",
                          // Ones that would change this schema if they ran (no foreign key stops them).
                          "'; UPDATE gtfs.stops SET stop_name = 'x'; --", "\\'; DELETE FROM gtfs.stop_times; --",
                          "x'); CREATE TABLE gtfs.intruder (x int); --", "'||(SELECT pg_sleep(1))||'"]
            let plan = PlanParameters.names
            var targets: [(path: String, names: [String])] = [
                ("/v1/plan?from=stop:12TH&to=stop:SFIA&time=2018-06-05T08:30:00", plan),
                ("/v1/stops?query=embarcadero", ["query", "feed", "limit"]),
                ("/v1/stops?near=37.8,-122.27", ["near", "radius", "feed", "limit"]),
                ("/v1/stops/12TH?time=2018-06-05T08:30:00", ["feed", "time", "limit"]),
                ("/v1/coverage", []), ("/v1/health", []), ("/openapi.json", []), ("/v1/coverage/bart.geojson", []),
            ]
            targets = targets.map { ($0.path, $0.names + ["'; DROP TABLE gtfs.feeds; --"]) }  // an unknown name too
            var sent = 0
            for value in values {
                let encoded = value.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
                for (path, names) in targets {
                    for name in names {
                        let n = name.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
                        // Replace the parameter when the path has it, else add it.
                        var parts = path.split(separator: "?", maxSplits: 1).map(String.init)
                        var pairs = parts.count > 1 ? parts[1].split(separator: "&").map(String.init) : []
                        pairs.removeAll { $0.hasPrefix("\(name)=") }
                        pairs.append("\(n)=\(encoded)")
                        parts = [parts[0], pairs.joined(separator: "&")]
                        try expectSafe(server, parts.joined(separator: "?"))
                        sent += 1
                    }
                }
                // In the path: a stop id and a feed export.
                try expectSafe(server, "/v1/stops/\(encoded)")
                try expectSafe(server, "/v1/coverage/\(encoded).geojson")
                sent += 2
            }
            // The same characters not encoded (no spaces: the request line has to stay one line).
            for raw in ["/v1/stops?query='%3BDROP%20TABLE%20gtfs.feeds;--", "/v1/stops/';DROP$$\\", "/v1/plan?from=stop:'$$\\&to=stop:SFIA",
                        "/v1/stops?query=$$;DELETE%00FROM%20gtfs.stops;$$", "/v1/stops/%00", "/v1/coverage/'--.geojson"] {
                let r = try RawHTTP.get(port: server.port, raw)
                #expect(r.status.map { (400..<500).contains($0) || $0 == 200 } == true, "\(raw): \(r.status.map(String.init) ?? "no answer")")
                sent += 1
            }
            let health = try server.request("/v1/health")
            #expect(health.status == 200 && health.json?["status"] as? String == "ok", "\(health.text.prefix(300))")
            #expect(TableChecksums.differences(before, try TableChecksums.snapshot(admin)).isEmpty, "tables changed after \(sent) requests")
            #expect(try admin.scalar("SELECT string_agg(oid::text, ',' ORDER BY oid) FROM pg_class") == relations, "relations added or dropped")
            #expect(try admin.scalar("SELECT count(*) FROM gtfs.feeds") == "1")
        }
    }

    // MARK: Files

    @Test("paths that climb out of the API reach no file: 404 or 400 with the API's error shape")
    func noFileReads() throws {
        try Self.withServer(coverage: true) { server, _ in
            let passwd = (try? String(contentsOfFile: "/etc/passwd", encoding: .utf8))?.split(separator: "\n").first.map(String.init) ?? "root:x:0:0"
            let paths = ["/v1/coverage/..%2F..%2Fetc%2Fpasswd.geojson", "/../../etc/passwd", "/v1/stops/%2e%2e%2f", "//etc/passwd",
                         "/openapi.json/../../etc/passwd", "/etc/passwd", "/v1/../../../../etc/passwd", "/%2e%2e/%2e%2e/etc/passwd",
                         "/v1/stops/..%2F..%2F..%2Fetc%2Fpasswd", "/v1/coverage/bart.geojson/../../../../etc/passwd",
                         "/v1/coverage/%2e%2e%2f%2e%2e%2fetc%2fpasswd%00.geojson", "/v1/stops/....//....//etc/passwd",
                         "/v1/coverage/..\\..\\etc\\passwd.geojson", "/Package.swift", "/Sources/Server/API.swift", "/proc/self/environ"]
            for path in paths {
                let r = try RawHTTP.get(port: server.port, path)
                #expect(r.status == 404 || r.status == 400, "\(path): \(r.status.map(String.init) ?? "no answer")")
                #expect(r.errorCode != nil, "\(path): the API's error shape: \(r.text.prefix(200))")
                #expect(!r.text.contains(passwd) && !r.text.contains("root:") && !r.text.contains("import "), "\(path) returned file contents")
            }
        }
    }

    // MARK: Address

    @Test("without --host the server takes no connection on this machine's other addresses; with --host 0.0.0.0 it does",
          .enabled(if: nonLoopbackIPv4() != nil, "this machine has no non-loopback IPv4 address to try"))
    func loopbackByDefault() throws {
        let address = nonLoopbackIPv4()!
        try Self.withServer { server, _ in
            #expect(try RawHTTP.get(port: server.port, "/v1/health").status == 200, "loopback answers")
            do {
                let fd = try RawHTTP.connect(host: address, port: server.port, timeout: 3)
                close(fd)
                Issue.record("the default server accepted a connection on \(address)")
            } catch let e as RawHTTP.ConnectError {
                #expect(e.code == ECONNREFUSED, "refused, not \(String(cString: strerror(e.code)))")
            }
        }
        try Self.withServer(["--host", "0.0.0.0"]) { server, _ in
            let r = try RawHTTP.get(host: address, port: server.port, "/v1/health")
            #expect(r.status == 200, "--host 0.0.0.0 answers on \(address)")
        }
    }
}

// MARK: Helpers

/// The error shape every refusal has: `{"error": {"code", "message", "details"}}`.
func expectErrorShape(_ r: ServerProcess.Reply, code: String, sourceLocation: SourceLocation = #_sourceLocation) {
    let e = r.json?["error"] as? [String: Any]
    #expect(e?["code"] as? String == code, "\(r.text.prefix(300))", sourceLocation: sourceLocation)
    #expect((e?["message"] as? String)?.isEmpty == false, sourceLocation: sourceLocation)
    #expect(e?["details"] is [String: Any], sourceLocation: sourceLocation)
    #expect(r.contentType?.hasPrefix("application/json") == true, sourceLocation: sourceLocation)
}

/// A request whose answer must be a normal one or a client error in the API's shape.
func expectSafe(_ server: ServerProcess, _ path: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
    let r = try server.request(path)
    #expect(r.status == 200 || (400..<500).contains(r.status), "\(path) → \(r.status): \(r.text.prefix(200))", sourceLocation: sourceLocation)
    if r.status != 200 { #expect(r.errorCode != nil, "\(path) → \(r.status) without the error shape", sourceLocation: sourceLocation) }
}

func residentBytes(_ server: ServerProcess) throws -> Int {
    try (server.request("/v1/health").json?["memory"] as? [String: Any])?["residentBytes"] as? Int ?? 0
}

/// The first IPv4 address of an interface that is up and not loopback, if any.
func nonLoopbackIPv4() -> String? {
    var list: UnsafeMutablePointer<ifaddrs>?
    guard getifaddrs(&list) == 0, let first = list else { return nil }
    defer { freeifaddrs(list) }
    for p in sequence(first: first, next: { $0.pointee.ifa_next }) {
        let flags = Int32(p.pointee.ifa_flags)
        guard let sa = p.pointee.ifa_addr, sa.pointee.sa_family == sa_family_t(AF_INET),
              flags & Int32(IFF_UP) != 0, flags & Int32(IFF_LOOPBACK) == 0 else { continue }
        var addr = sa.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { $0.pointee.sin_addr }
        var text = [CChar](repeating: 0, count: Int(INET_ADDRSTRLEN))
        guard inet_ntop(AF_INET, &addr, &text, socklen_t(text.count)) != nil else { continue }
        let s = String(cString: text)
        if !s.hasPrefix("127.") { return s }
    }
    return nil
}

/// HTTP/1.1 over a plain socket, bytes exactly as given: URLSession (libcurl) would
/// normalise `..` in paths and cannot send a chosen source address or a broken request.
enum RawHTTP {
    struct ConnectError: Error, CustomStringConvertible {
        let code: Int32
        var description: String { "connect: \(String(cString: strerror(code)))" }
    }

    struct Answer {
        var status: Int?
        var head = ""
        var body = Data()
        /// The server closed (or reset) the connection after answering or instead of it.
        var closed = false
        var bodyBytesSent = 0
        var text: String { String(decoding: body, as: UTF8.self) }
        var errorCode: String? {
            ((try? JSONSerialization.jsonObject(with: body)) as? [String: Any]).flatMap { ($0["error"] as? [String: Any])?["code"] as? String }
        }
    }

    static func connect(host: String = "127.0.0.1", port: Int, from source: String? = nil, timeout: Double = 10) throws -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw ConnectError(code: errno) }
        var tv = timeval(tv_sec: Int(timeout), tv_usec: Int((timeout - floor(timeout)) * 1e6))
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
        func address(_ text: String, _ port: Int) -> sockaddr_in {
            var a = sockaddr_in()
            a.sin_family = sa_family_t(AF_INET)
            a.sin_port = in_port_t(UInt16(port).bigEndian)
            inet_pton(AF_INET, text, &a.sin_addr)
            return a
        }
        if let source {
            var a = address(source, 0)
            let r = withUnsafePointer(to: &a) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
            if r != 0 { let e = errno; close(fd); throw ConnectError(code: e) }
        }
        var a = address(host, port)
        let r = withUnsafePointer(to: &a) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
        if r != 0 { let e = errno; close(fd); throw ConnectError(code: e) }
        return fd
    }

    /// Sends everything; false when the connection refused more (closed or reset).
    static func sendAll(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n <= 0 { return false }
            offset += n
        }
        return true
    }

    /// Reads one answer (head, then the body by Content-Length), then whether the server
    /// closes the connection: waited for up to 30 s, as the question is whether it does, not
    /// how soon (a connection it keeps open costs that wait, or the server's idle timeout).
    static func readAnswer(_ fd: Int32) -> Answer {
        var answer = Answer()
        var data = [UInt8]()
        var buffer = [UInt8](repeating: 0, count: 65536)
        var headEnd: Int?
        var length = 0
        while true {
            if let end = headEnd, data.count >= end + length { break }
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n == 0 || (n < 0 && errno == ECONNRESET) { answer.closed = true; break }
            if n < 0 { break }  // timed out
            data += buffer[0..<n]
            if headEnd == nil, let r = data.firstRange(of: Array("\r\n\r\n".utf8)) {
                headEnd = r.upperBound
                answer.head = String(decoding: data[0..<r.lowerBound], as: UTF8.self)
                let lines = answer.head.split(separator: "\r\n")
                answer.status = lines.first.flatMap { $0.split(separator: " ").dropFirst().first }.flatMap { Int($0) }
                for line in lines.dropFirst() where line.lowercased().hasPrefix("content-length:") {
                    length = Int(line.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) ?? 0
                }
            }
        }
        if let end = headEnd { answer.body = Data(data[end..<min(data.count, end + length)]) }
        if !answer.closed { answer.closed = waitClosed(fd, seconds: 30) }
        return answer
    }

    /// True when the server closes the connection within `seconds` (what it sends first is dropped).
    static func waitClosed(_ fd: Int32, seconds: Double) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        var buffer = [UInt8](repeating: 0, count: 65536)
        while Date() < deadline {
            var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&p, 1, Int32(max(1, deadline.timeIntervalSinceNow * 1000))) > 0 else { return false }
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
            if n == 0 || (n < 0 && errno == ECONNRESET) { return true }
        }
        return false
    }

    static func exchange(host: String = "127.0.0.1", port: Int, from source: String? = nil, _ request: String) throws -> Answer {
        let fd = try connect(host: host, port: port, from: source)
        defer { close(fd) }
        let sent = sendAll(fd, Array(request.utf8))
        var answer = readAnswer(fd)
        if !sent && answer.status == nil { answer.closed = true }
        return answer
    }

    static func get(host: String = "127.0.0.1", port: Int, _ path: String, from source: String? = nil) throws -> Answer {
        try exchange(host: host, port: port, from: source, "GET \(path) HTTP/1.1\r\nHost: \(host)\r\nConnection: close\r\n\r\n")
    }

    /// Declares a body of `bytes`, then sends it while the server lets it, 64 KB at a time,
    /// looking for an answer after each piece.
    static func sendBody(port: Int, method: String, path: String, bytes: Int) throws -> Answer {
        let fd = try connect(port: port, timeout: 5)
        defer { close(fd) }
        guard sendAll(fd, Array("\(method) \(path) HTTP/1.1\r\nHost: x\r\nContent-Length: \(bytes)\r\n\r\n".utf8)) else {
            return Answer(closed: true)
        }
        let piece = [UInt8](repeating: UInt8(ascii: "a"), count: 65536)
        var sent = 0
        while sent < bytes {
            var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            if poll(&p, 1, 0) > 0 { break }  // an answer (or a close) is waiting
            guard sendAll(fd, piece) else { break }
            sent += piece.count
        }
        var answer = readAnswer(fd)
        answer.bodyBytesSent = sent
        return answer
    }
}
