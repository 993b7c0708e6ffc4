import Foundation
import Synchronization
import Testing
import TransitStore
import TransitTesting

/// `GET /v1/trips/{token}/events` on a real server: BART with its real TripUpdates and
/// alert, the server's clock replayed from 10:38 of that day at 300 times the speed.
@Suite("HTTP API: following a trip", .serialized,
       .enabled(if: bartRealtime() != nil, "the GTFS-Realtime data of the shared data is not here (set TRANSIT_SHARED_DATA)"))
struct FollowServeTests {
    /// The frames of a stream body: (event, id, data).
    static func frames(_ body: String) -> [(event: String?, id: Int?, data: String?)] {
        body.components(separatedBy: "\n\n").filter { !$0.isEmpty }.map { frame in
            var event: String?, id: Int?, data: String?
            for line in frame.split(separator: "\n") {
                if line.hasPrefix("event: ") { event = String(line.dropFirst(7)) }
                if line.hasPrefix("id: ") { id = Int(line.dropFirst(4)) }
                if line.hasPrefix("data: ") { data = String(line.dropFirst(6)) }
            }
            return (event, id, data)
        }
    }

    @Test("a planned trip's tokens, its stream to arrival, and each refusal with its status")
    func stream() throws {
        let rt = bartRealtime()!
        let db = try TestDatabase()
        defer { db.drop() }
        _ = try FeedImporter(db: try db.connect()).importFeed(at: rt.appendingPathComponent("bart-rt.zip").path, feedId: "bart")
        let server = try ServerProcess(databaseURL: db.url, arguments: [
            "--realtime", "bart=\(rt.appendingPathComponent("bart-trip-updates.pb").path)",
            "--realtime", "bart=\(rt.appendingPathComponent("bart-alerts.pb").path)",
            "--clock", "2019-08-07T10:38:00-07:00x300", "--max-streams-per-client", "1",
        ])
        let v = try validator(server)
        try server.waitUntil("bart served") { h in (h["feeds"] as? [[String: Any]])?.first?["id"] as? String == "bart" }

        let plan = try server.request("/v1/plan?from=stop:12TH&to=stop:SFIA&time=2019-08-07T10:40:00")
        #expect(plan.status == 200)
        expectConforms(v, "/v1/plan", plan)
        let itineraries = plan.json?["itineraries"] as? [[String: Any]] ?? []
        #expect(!itineraries.isEmpty && itineraries.allSatisfy { $0["tripToken"] is String }, "every itinerary with rides has a token")
        let token = try #require(itineraries.first?["tripToken"] as? String)
        #expect(token.count < 200, "\(token.count) characters")

        // Refusals first (the one stream this address may have is then free).
        var tampered = Array(token)
        tampered[tampered.count / 2] = tampered[tampered.count / 2] == "A" ? "B" : "A"
        for (path, status, code) in [("/v1/trips/\(String(tampered))/events", 400, "INVALID_TOKEN"),
                                     ("/v1/trips/\(String(repeating: "A", count: 2100))/events", 414, "TOKEN_TOO_LONG"),
                                     ("/v1/trips/\(token)/events?notice=0", 400, "BAD_PARAMETER")] {
            let r = try server.request(path)
            #expect(r.status == status && r.errorCode == code, "\(path.prefix(40)): \(r.status) \(r.text.prefix(300))")
            expectConforms(v, String(path.prefix { $0 != "?" }), r)
        }
        let yesterday = try server.request("/v1/plan?from=stop:12TH&to=stop:SFIA&time=2019-08-06T10:40:00")
        let old = try #require((yesterday.json?["itineraries"] as? [[String: Any]])?.first?["tripToken"] as? String)
        let over = try server.request("/v1/trips/\(old)/events")
        #expect(over.status == 410 && over.errorCode == "TRIP_OVER", "\(over.text.prefix(300))")
        expectConforms(v, "/v1/trips/\(old)/events", over)

        // The stream, in the background, to its end; a second one from this address is refused meanwhile.
        let result = Mutex<Result<ServerProcess.Reply, Error>?>(nil)
        let done = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            let r = Result { try server.request("/v1/trips/\(token)/events", timeout: 120) }
            result.withLock { $0 = r }
            done.signal()
        }
        Thread.sleep(forTimeInterval: 2)
        let second = try server.request("/v1/trips/\(token)/events")
        #expect(second.status == 429 && second.errorCode == "TOO_MANY_STREAMS" && second.headers["retry-after"] != nil, "\(second.text.prefix(300))")
        expectConforms(v, "/v1/trips/\(token)/events", second)
        #expect(done.wait(timeout: .now() + 150) == .success, "the stream ends at arrival")
        let reply = try #require(result.withLock { $0 }).get()
        #expect(reply.status == 200 && reply.contentType?.hasPrefix("text/event-stream") == true)
        expectConforms(v, "/v1/trips/\(token)/events", reply)
        #expect(reply.text.hasPrefix("retry: 5000\n\n"))
        let frames = Self.frames(reply.text).filter { $0.event != nil }
        let kinds = frames.map { $0.event! }
        // The trip, the agency-wide alert, then the boarding, getting off (a 44-minute ride), arrival.
        #expect(kinds == ["following", "alert", "leg-upcoming", "leg-upcoming", "arrived"], "\(kinds)\n\(reply.text.prefix(2000))")
        let ids = frames.compactMap(\.id)
        #expect(ids.count == kinds.count - 1 && ids == ids.sorted() && Set(ids).count == ids.count, "ids grow: \(ids)")
        for f in frames {
            let problems = v.validate(Data((f.data ?? "").utf8), schema: f.event == "following" ? "Following" : "FollowEvent")
            #expect(problems.isEmpty, "\(f.event ?? ""): \(problems)")
        }
        let messages = frames.compactMap { f in f.data.flatMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }?["message"] as? String }
        #expect(messages.count == frames.count)
        #expect(messages[2].contains("leaves 12th St. Oakland City Center in") && messages[2].contains("(10:45)"), "\(messages[2])")
        #expect(messages.last == "You have arrived (11:29).", "\(messages.last ?? "")")

        // A token is a rider's trip: the log names the path, not the token.
        let log = server.running.stderrSoFar
        #expect(log.contains("GET /v1/trips/{token}/events 200") && !log.contains(String(token.prefix(24))), "\(log.suffix(800))")
        // Browsers' preflights are answered on the stream's path too.
        let preflight = try server.request("/v1/trips/\(token)/events", method: "OPTIONS")
        #expect(preflight.status == 204)

        // The health document counts the followed trips.
        let health = try server.request("/v1/health")
        expectConforms(v, "/v1/health", health)
        #expect((health.json?["following"] as? [String: Any])?["streams"] as? Int == 0)
    }
}
