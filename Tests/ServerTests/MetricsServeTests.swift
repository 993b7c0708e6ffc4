import Foundation
import Testing
import TransitStore
import TransitTesting

/// `/metrics`: Prometheus's text format, read back the way Prometheus reads it (each sample
/// line `name{labels} value`), with counts that follow the requests made and a feed's
/// version that follows a new import.
@Suite("HTTP API: /metrics", .serialized)
struct MetricsServeTests {
    /// Sample lines as `name{labels}` (labels as written) -> value; the `# HELP`/`# TYPE`
    /// lines by name.
    static func parse(_ text: String) -> (samples: [String: Double], types: [String: String]) {
        var samples: [String: Double] = [:], types: [String: String] = [:]
        for line in text.split(separator: "\n") {
            if line.hasPrefix("# TYPE ") {
                let parts = line.split(separator: " ")
                if parts.count == 4 { types[String(parts[2])] = String(parts[3]) }
                continue
            }
            if line.hasPrefix("#") { continue }
            guard let space = line.lastIndex(of: " "), let value = Double(line[line.index(after: space)...]) else {
                Issue.record("not a sample line: \(line)")
                continue
            }
            samples[String(line[..<space])] = value
        }
        return (samples, types)
    }

    @Test("requests by endpoint and status, plan searches by outcome and their CPU, the feed's version after a new import, realtime absent")
    func metrics() throws {
        let db = try TestDatabase()
        defer { db.drop() }
        let conn = try db.connect()
        _ = try FeedImporter(db: conn).importFeed(at: FeedFixtures.bundledFeed("bart-2018"), feedId: "bart")
        let server = try ServerProcess(databaseURL: db.url)
        try server.waitUntil("bart v1 served") { h in (h["feeds"] as? [[String: Any]])?.first?["version"] as? Int == 1 }

        for _ in 0..<3 { #expect(try server.request(APITests.planPath).status == 200) }
        #expect(try server.request("/v1/plan?from=stop:12TH&to=stop:NOWHERE&time=2018-06-05T08:30:00").status == 404)
        #expect(try server.request("/v1/stops/12TH").status == 200)
        #expect(try server.request("/v1/stops/NOPE").status == 404)
        #expect(try server.request("/no/such/thing").status == 404)

        let r = try server.request("/metrics")
        #expect(r.status == 200 && r.contentType == "text/plain; version=0.0.4; charset=utf-8")
        let (m, types) = Self.parse(r.text)
        #expect(m[#"transit_http_requests_total{endpoint="/v1/plan",status="200"}"#] == 3)
        #expect(m[#"transit_http_requests_total{endpoint="/v1/plan",status="404"}"#] == 1)
        // A stop's id is never a label: both stops are one endpoint.
        #expect(m[#"transit_http_requests_total{endpoint="/v1/stops/{id}",status="200"}"#] == 1)
        #expect(m[#"transit_http_requests_total{endpoint="/v1/stops/{id}",status="404"}"#] == 1)
        #expect(m[#"transit_http_requests_total{endpoint="other",status="404"}"#] == 1)
        #expect(!r.text.contains("12TH") && !r.text.contains("NOWHERE"))
        #expect(m[#"transit_http_request_duration_seconds_count{endpoint="/v1/plan"}"#] == 4)
        #expect(m[#"transit_http_request_duration_seconds_bucket{endpoint="/v1/plan",le="+Inf"}"#] == 4)
        #expect((m[#"transit_http_request_duration_seconds_sum{endpoint="/v1/plan"}"#] ?? 0) > 0)
        #expect(types["transit_http_requests_total"] == "counter" && types["transit_plan_search_seconds"] == "histogram")
        // Searches: three answered, one refused with its code.
        #expect(m["transit_plan_search_seconds_count"] == 4)
        #expect(m[#"transit_plan_answers_total{outcome="itineraries"}"#] == 3)
        #expect(m[#"transit_plan_answers_total{outcome="UNKNOWN_STOP"}"#] == 1)
        #expect(m[#"transit_feed_version{feed="bart"}"#] == 1)
        #expect(m["transit_timetable_ready"] == 1 && m["transit_database_reachable"] == 1)
        #expect((m["transit_timetable_age_seconds"] ?? -1) >= 0 && (m["transit_timetable_loaded_timestamp_seconds"] ?? 0) > 1.7e9)
        #expect((m["transit_resident_memory_bytes"] ?? 0) > 1e6 && (m["transit_timetable_stop_times"] ?? 0) > 30_000)
        #expect(!r.text.contains("transit_realtime_message_age_seconds"))
        // CPU: the planning threads' (the answers', the handlers' rest) within the process's.
        let answerCPU = m[#"transit_plan_cpu_seconds_total{phase="answer"}"#] ?? 0
        let respondCPU = m[#"transit_plan_cpu_seconds_total{phase="respond"}"#] ?? 0
        let processCPU = m["transit_process_cpu_seconds"] ?? 0
        #expect(answerCPU > 0 && respondCPU > 0 && processCPU > answerCPU + respondCPU, "\(answerCPU) \(respondCPU) \(processCPU)")
        #expect(types["transit_plan_cpu_seconds_total"] == "counter" && types["transit_process_cpu_seconds"] == "gauge")

        // A new version: the gauge follows, the load time is newer.
        let loaded = m["transit_timetable_loaded_timestamp_seconds"] ?? 0
        _ = try FeedImporter(db: conn).importFeed(at: FeedFixtures.bundledFeed("bart-2018"), feedId: "bart")
        try server.waitUntil("bart v2 served", timeout: 120) { h in (h["feeds"] as? [[String: Any]])?.first?["version"] as? Int == 2 }
        let after = Self.parse(try server.request("/metrics").text).samples
        #expect(after[#"transit_feed_version{feed="bart"}"#] == 2)
        #expect((after["transit_timetable_loaded_timestamp_seconds"] ?? 0) > loaded)
        #expect(after[#"transit_http_requests_total{endpoint="/metrics",status="200"}"#] == 1)
        #expect(try server.request("/metrics?x=1").status == 400)
    }
}
