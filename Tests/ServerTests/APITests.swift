import Foundation
import Testing
import TransitStore
import TransitTesting

/// The real server (`transit serve`) on a loopback port over a real database, checked
/// endpoint by endpoint, error path by error path, against its own OpenAPI document.
@Suite("HTTP API", .serialized)
struct APITests {
    /// BART (with a declared place) and Caltrain in a fresh database, one server over them.
    static func withServer(_ body: (ServerProcess, TestDatabase) throws -> Void) throws {
        let db = try TestDatabase()
        defer { db.drop() }
        let conn = try db.connect()
        _ = try FeedImporter(db: conn).importFeed(at: FeedFixtures.bundledFeed("bart-2018"), feedId: "bart", place: "San Francisco Bay Area")
        _ = try FeedImporter(db: conn).importFeed(at: FeedFixtures.bundledFeed("caltrain"), feedId: "caltrain")
        let server = try ServerProcess(databaseURL: db.url)
        try server.waitUntil("both feeds served and coverage ready") { h in
            (h["feeds"] as? [Any])?.count == 2 && (h["timetable"] as? [String: Any])?["coverage"] as? String == "ready"
        }
        try body(server, db)
        let end = server.stop()
        #expect(end.status == 0 && !end.signaled, "SIGTERM ends the server cleanly: \(end.stderr.suffix(500))")
        #expect(end.stderr.contains("stopped"))
        // Riders' places never reach the log: no query string, no coordinates.
        for secret in ["37.8044", "-122.2712", "37.7700", "-122.4180", "from=", "near="] {
            #expect(!end.stderr.contains(secret), "the log holds \"\(secret)\"")
        }
        #expect(end.stderr.range(of: #"GET /v1/plan \d{3} \d+\.\d ms"#, options: .regularExpression) != nil, "access log lines with latency")
    }

    static let planPath = "/v1/plan?from=stop:12TH&to=stop:SFIA&time=2018-06-05T08:30:00"

    @Test("every endpoint answers what its document says, on real feeds")
    func endpoints() throws {
        try Self.withServer { server, _ in
            let v = try validator(server)
            // Plan between stops, between street corners (walks at both ends), arrive-by,
            // with model parameters, modes and a feed-scoped stop.
            let plans = [
                Self.planPath,
                "/v1/plan?from=37.8044,-122.2712&to=37.7700,-122.4180&time=2018-06-05T09:30:00&arriveBy=true",
                "/v1/plan?from=stop:POWL&to=stop:CIVC&time=2018-06-05T17:10:00&numItineraries=3&window=30&walkSpeed=1.1&maxTransfers=2&transferSlack=60",
                "/v1/plan?from=stop:12TH&to=stop:SFIA&time=2018-06-05T15:30:00Z&modes=SUBWAY&feed=bart&wheelchair=false",
                "/v1/plan?from=stop:caltrain:San%20Francisco%20Caltrain&to=stop:caltrain:Palo+Alto+Caltrain&time=2009-03-03T08:00:00",
            ]
            for p in plans {
                let r = try server.request(p)
                #expect(r.status == 200, "\(p): \(r.text.prefix(300))")
                expectConforms(v, p, r)
            }
            let plan = try server.request(Self.planPath).json!
            let first = (plan["itineraries"] as! [[String: Any]])[0]
            let legs = first["legs"] as! [[String: Any]]
            let lines = ((first["map"] as! [String: Any])["features"] as! [[String: Any]]).filter {
                ($0["geometry"] as? [String: Any])?["type"] as? String == "LineString"
            }
            #expect(legs.count == lines.count, "one line on the map per step")
            #expect((plan["feeds"] as? [[String: Any]])?.count == 2)
            let street = try server.request(plans[1]).json!
            let streetLegs = ((street["itineraries"] as! [[String: Any]])[0]["legs"] as! [[String: Any]])
            #expect(streetLegs.first?["mode"] as? String == "WALK" && streetLegs.last?["mode"] as? String == "WALK")

            // Coverage: regions with their names, and each feed's export.
            let coverage = try server.request("/v1/coverage")
            #expect(coverage.status == 200 && coverage.contentType?.hasPrefix("application/geo+json") == true)
            expectConforms(v, "/v1/coverage", coverage)
            let features = coverage.json?["features"] as? [[String: Any]] ?? []
            #expect(features.compactMap { ($0["properties"] as? [String: Any])?["name"] as? String }
                    == ["Bay Area Rapid Transit, San Francisco Bay Area", "Caltrain"])
            for feed in ["bart", "caltrain"] {
                let r = try server.request("/v1/coverage/\(feed).geojson")
                #expect(r.status == 200)
                expectConforms(v, "/v1/coverage/\(feed).geojson", r)
            }

            // Stops by name (forgiving case, accents, typos), near a place, and one stop's departures.
            for (path, expected) in [("/v1/stops?query=powel%20st", "POWL"), ("/v1/stops?query=CIVIC", "CIVC"),
                                     ("/v1/stops?query=embarcadro&feed=bart&limit=3", "EMBR")] {
                let r = try server.request(path)
                #expect(r.status == 200)
                expectConforms(v, path, r)
                #expect((r.json?["stops"] as? [[String: Any]])?.first?["id"] as? String == expected, "\(path): \(r.text.prefix(300))")
            }
            let near = try server.request("/v1/stops?near=37.8044,-122.2712&radius=800")
            expectConforms(v, "/v1/stops", near)
            #expect((near.json?["stops"] as? [[String: Any]])?.first?["id"] as? String == "12TH")
            let stop = try server.request("/v1/stops/12TH?time=2018-06-05T08:30:00&limit=5")
            #expect(stop.status == 200)
            expectConforms(v, "/v1/stops/12TH", stop)
            let departures = stop.json?["departures"] as? [[String: Any]] ?? []
            #expect(departures.count == 5)
            let times = departures.compactMap { $0["departure"] as? String }
            #expect(times == times.sorted() && times.first.map { $0 >= "2018-06-05T08:30" } == true, "\(times)")

            // Health and the document itself.
            let health = try server.request("/v1/health")
            #expect(health.status == 200)
            expectConforms(v, "/v1/health", health)
            #expect(health.json?["status"] as? String == "ok")
            #expect((health.json?["database"] as? [String: Any])?["reachable"] as? Bool == true)
            expectConforms(v, "/openapi.json", try server.request("/openapi.json"))
        }
    }

    @Test("every error path: JSON error with the right status, the parameter named, never a 500")
    func errors() throws {
        try Self.withServer { server, _ in
            let v = try validator(server)
            let long = String(repeating: "x", count: 5000)
            let cases: [(path: String, method: String, status: Int, code: String, parameter: String?)] = [
                ("/v1/plan?to=stop:SFIA", "GET", 400, "BAD_PARAMETER", "from"),
                ("/v1/plan?from=stop:12TH", "GET", 400, "BAD_PARAMETER", "to"),
                ("/v1/plan?from=somewhere&to=stop:SFIA", "GET", 400, "BAD_PARAMETER", "from"),
                ("/v1/plan?from=91,0&to=stop:SFIA", "GET", 400, "BAD_PARAMETER", "from"),
                ("/v1/plan?from=stop:12TH&to=stop:SFIA&time=tomorrow", "GET", 400, "BAD_PARAMETER", "time"),
                ("/v1/plan?from=stop:12TH&to=stop:SFIA&time=0000-00-00T00:00", "GET", 400, "BAD_PARAMETER", "time"),
                ("/v1/plan?from=stop:12TH&to=stop:SFIA&window=181", "GET", 400, "BAD_PARAMETER", "window"),
                ("/v1/plan?from=stop:12TH&to=stop:SFIA&time=2018-06-05T08:30:00&maxTransferWalk=4000", "GET", 422, "PARAMETER_CONFLICT", "maxTransferWalk"),
                ("/v1/plan?from=stop:12TH&to=stop:SFIA&numItineraries=0", "GET", 400, "BAD_PARAMETER", "numItineraries"),
                ("/v1/plan?from=stop:12TH&to=stop:SFIA&numItineraries=21", "GET", 400, "BAD_PARAMETER", "numItineraries"),
                ("/v1/plan?from=stop:12TH&to=stop:SFIA&window=100000", "GET", 400, "BAD_PARAMETER", "window"),
                ("/v1/plan?from=stop:12TH&to=stop:SFIA&walkSpeed=0", "GET", 400, "BAD_PARAMETER", "walkSpeed"),
                ("/v1/plan?from=stop:12TH&to=stop:SFIA&maxTransfers=-1", "GET", 400, "BAD_PARAMETER", "maxTransfers"),
                ("/v1/plan?from=stop:12TH&to=stop:SFIA&walkSpeed=NaN", "GET", 400, "BAD_PARAMETER", "walkSpeed"),
                ("/v1/plan?from=stop:12TH&to=stop:SFIA&arriveBy=maybe", "GET", 400, "BAD_PARAMETER", "arriveBy"),
                ("/v1/plan?from=stop:12TH&to=stop:SFIA&modes=ROCKET", "GET", 400, "BAD_PARAMETER", "modes"),
                ("/v1/plan?from=stop:12TH&to=stop:SFIA&arrive_by=true", "GET", 400, "UNKNOWN_PARAMETER", "arrive_by"),
                ("/v1/plan?from=stop:12TH&from=stop:CIVC&to=stop:SFIA", "GET", 400, "BAD_PARAMETER", "from"),
                ("/v1/plan?from=stop:12TH&to=stop:SFIA&feed=\(long)", "GET", 400, "BAD_PARAMETER", nil),
                ("/v1/plan?from=%ZZ&to=stop:SFIA", "GET", 400, "BAD_PARAMETER", "from"),
                ("/v1/plan?from=stop:NOPE&to=stop:SFIA&time=2018-06-05T08:30:00", "GET", 404, "UNKNOWN_STOP", nil),
                ("/v1/plan?from=stop:12TH&to=stop:12TH&time=2018-06-05T08:30:00", "GET", 422, "SAME_PLACE", nil),
                ("/v1/plan?from=37.76,-122.58&to=stop:SFIA&time=2018-06-05T08:30:00", "GET", 422, "OUTSIDE_COVERAGE", nil),
                ("/v1/plan?from=stop:12TH&to=stop:SFIA&time=2030-06-04T08:30:00", "GET", 422, "OUTSIDE_SERVICE_PERIOD", nil),
                ("/v1/plan?from=stop:12TH&to=stop:SFIA&time=2018-06-05T08:30:00&modes=FERRY", "GET", 422, "MODE_NOT_IN_REGION", nil),
                ("/v1/plan?from=stop:12TH&to=stop:SFIA&time=2018-06-05T08:30:00&modes=light-rail", "GET", 422, "MODE_NOT_IN_REGION", nil),
                ("/v1/coverage/nope.geojson", "GET", 404, "UNKNOWN_FEED", nil),
                ("/v1/coverage?x=1", "GET", 400, "UNKNOWN_PARAMETER", "x"),
                ("/v1/stops", "GET", 422, "PARAMETER_CONFLICT", "query"),
                ("/v1/stops?query=powell&near=37.8,-122.27", "GET", 422, "PARAMETER_CONFLICT", "near"),
                ("/v1/stops?query=powell&radius=100", "GET", 422, "PARAMETER_CONFLICT", "radius"),
                ("/v1/stops?query=%20%09", "GET", 400, "BAD_PARAMETER", "query"),
                ("/v1/stops?near=1000,1000", "GET", 400, "BAD_PARAMETER", "near"),
                ("/v1/stops?near=37.8,-122.27&radius=1e9", "GET", 400, "BAD_PARAMETER", "radius"),
                ("/v1/stops?query=powell&limit=5000", "GET", 400, "BAD_PARAMETER", "limit"),
                ("/v1/stops?query=powell&feed=nope", "GET", 404, "UNKNOWN_FEED", nil),
                ("/v1/stops?query=powell&feed=0", "GET", 404, "UNKNOWN_FEED", nil),
                ("/v1/stops?query=powell&feed=no%20pe", "GET", 400, "BAD_PARAMETER", "feed"),
                ("/v1/stops/NOPE", "GET", 404, "UNKNOWN_STOP", nil),
                ("/v1/stops/12TH?time=soon", "GET", 400, "BAD_PARAMETER", "time"),
                ("/v1/nothing-here", "GET", 404, "NOT_FOUND", nil),
                ("/v1/plan?from=stop:12TH&to=stop:SFIA", "POST", 405, "METHOD_NOT_ALLOWED", nil),
            ]
            for c in cases {
                let r = try server.request(c.path, method: c.method)
                let at = "\(c.method) \(c.path.prefix(120))"
                #expect(r.status == c.status, "\(at): \(r.status) \(r.text.prefix(300))")
                #expect(r.errorCode == c.code, "\(at): \(r.text.prefix(300))")
                let message = ((r.json?["error"] as? [String: Any])?["message"] as? String) ?? ""
                #expect(!message.isEmpty, "\(at): a plain message")
                if let p = c.parameter { #expect(r.errorDetails?["parameter"] as? String == p, "\(at): names \(p): \(r.text.prefix(300))") }
                if c.parameter != nil && (c.code == "BAD_PARAMETER" || c.code == "PARAMETER_CONFLICT") {
                    #expect(r.errorDetails?["allowed"] != nil, "\(at): says what is allowed")
                }
                if c.method == "GET" && c.path.hasPrefix("/v1/") && c.status != 405 && !c.path.hasPrefix("/v1/nothing") {
                    expectConforms(v, c.path, r)
                }
            }
            // Places are not repeated in errors.
            let bad = try server.request("/v1/plan?from=37.80441,-222.27123&to=stop:SFIA")
            #expect(bad.status == 400 && !bad.text.contains("37.80441"))
            let outside = try server.request("/v1/plan?from=37.76,-122.58&to=stop:SFIA&time=2018-06-05T08:30:00")
            #expect(!outside.text.contains("-122.58"), "\(outside.text)")
            // A 5,000-byte query string is refused, and the server is still up.
            let huge = try server.request("/v1/stops?query=" + String(repeating: "a", count: 5000))
            #expect(huge.status == 400)
            #expect(try server.request("/v1/health").status == 200)
        }
    }
}
