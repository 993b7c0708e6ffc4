import Dispatch
import Foundation
import Prometheus
import Synchronization

/// The operators' signals at `/metrics`, in Prometheus's text format (swift-prometheus's
/// registry): requests and their latencies by endpoint and status, the plan searches'
/// time, the served timetable (feed versions, when it was loaded, its age, the load's
/// time), realtime (each source's message age, last success, the state's swaps), the
/// followed trips and the process's memory. A fleet of replicas behind a balancer is
/// watched with the tools operators already run (Prometheus, Grafana, Alertmanager).
///
/// Request counts and latencies are recorded as requests end; the gauges that describe
/// the server's state are read from it when `/metrics` is asked (`render`), so that they
/// are never stale.
public final class ServerMetrics: Sendable {
    public let registry = PrometheusCollectorRegistry()
    /// Seconds, for the request and search histograms: from 0.25 ms (a warm plan on a small
    /// feed) to the plan budget's order (2 s) and beyond.
    static let latencyBuckets: [Duration] = [0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5]
        .map { Duration.nanoseconds(Int64($0 * 1e9)) }
    /// The feeds' gauges made so far (feed id -> the version gauge), to drop those of a
    /// feed no longer served.
    private let feedGauges: Mutex<[String: Gauge]> = Mutex([:])

    /// A metric's full name and help (`transit_` + `name`; the unit is in the name).
    private func descriptor(_ name: String, _ help: String) -> MetricNameDescriptor {
        MetricNameDescriptor(namespace: "transit", metricName: name, unitName: "", helpText: help)
    }
    private func gauge(_ name: String, _ help: String, labels: [(String, String)] = []) -> Gauge {
        registry.makeGauge(descriptor: descriptor(name, help), labels: labels)
    }
    private func counter(_ name: String, _ help: String, labels: [(String, String)] = []) -> Counter {
        registry.makeCounter(descriptor: descriptor(name, help), labels: labels)
    }
    private func histogram(_ name: String, _ help: String, labels: [(String, String)] = []) -> DurationHistogram {
        registry.makeDurationHistogram(descriptor: descriptor(name, help), labels: labels, buckets: Self.latencyBuckets)
    }

    public init() {}

    private var planSearch: DurationHistogram {
        histogram("plan_search_seconds", "Time of a plan's search and answer (the router, alternatives, itineraries), without queueing or JSON.")
    }

    /// The endpoint a path stands for (its route's pattern), so that the labels stay few:
    /// a stop id or a trip token is never a label; paths the server does not answer are
    /// "other".
    static func endpoint(_ path: String) -> String {
        if AccessLogAndErrors.exactRoutes.contains(path) { return path }
        if path.hasPrefix("/v1/coverage/") { return "/v1/coverage/{file}" }
        if path.hasPrefix("/v1/stops/") { return "/v1/stops/{id}" }
        if path.hasPrefix("/v1/trips/") && path.hasSuffix("/events") { return "/v1/trips/{token}/events" }
        if path.hasPrefix("/page/") { return "/page/{file}" }
        if path.hasPrefix("/leaflet/") { return "/leaflet/{file}" }
        return "other"
    }

    /// One answered request: its endpoint (`endpoint(path)`), status and time from arrival
    /// to the answer (a stream's: to its headers).
    public func request(path: String, status: Int, nanoseconds: UInt64) {
        let endpoint = Self.endpoint(path)
        counter("http_requests_total", "HTTP requests answered, by endpoint (the route's pattern) and status.", labels: [("endpoint", endpoint), ("status", String(status))]).increment()
        histogram("http_request_duration_seconds", "Time from a request's arrival to its answer, by endpoint.", labels: [("endpoint", endpoint)])
            .recordNanoseconds(Int64(clamping: nanoseconds))
    }

    /// One plan search (`JourneyPlanner.answer`): its time and how it ended ("itineraries"
    /// or the refusal's code).
    public func planSearch(nanoseconds: UInt64, outcome: String) {
        planSearch.recordNanoseconds(Int64(clamping: nanoseconds))
        counter("plan_answers_total", "Plan searches by outcome: itineraries, or the code of the answer's refusal.", labels: [("outcome", outcome)])
            .increment()
    }

    /// The CPU a plan request took on its planning thread: `answer` for the search and
    /// the itineraries (`JourneyPlanner.answer`), `respond` for the rest of its handler
    /// (the parameters, the trip tokens, the JSON). With `process_cpu_seconds` they say
    /// where a request's CPU goes: the rest is the HTTP exchange (NIO's threads), logging
    /// and everything else. (Thread CPU, so a planning thread's waits for the cores do not
    /// count, as they do in `plan_search_seconds`.)
    public func planCPU(answerNanoseconds: UInt64, respondNanoseconds: UInt64) {
        let help = "CPU seconds of plan requests on their planning thread, by phase: answer (search and itineraries), respond (parameters, tokens, JSON)."
        counter("plan_cpu_seconds_total", help, labels: [("phase", "answer")]).increment(by: Double(answerNanoseconds) / 1e9)
        counter("plan_cpu_seconds_total", help, labels: [("phase", "respond")]).increment(by: Double(respondNanoseconds) / 1e9)
    }

    /// The calling thread's CPU time so far, in nanoseconds (user and system).
    public static func threadCPUNanoseconds() -> UInt64 {
        var t = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t)
        return UInt64(t.tv_sec) &* 1_000_000_000 &+ UInt64(t.tv_nsec)
    }

    /// The process's CPU time so far, in seconds (user and system, every thread).
    static func processCPUSeconds() -> Double {
        var u = rusage()
        getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &u)
        return Double(u.ru_utime.tv_sec + u.ru_stime.tv_sec) + Double(u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e6
    }

    /// The text `/metrics` answers: the state's gauges set from `api` now, then everything.
    @_optimize(none)  // glue (see TransitAPI)
    func render(_ api: TransitAPI) -> [UInt8] {
        let now = Date()
        let live = api.live
        gauge("uptime_seconds", "Seconds since the server started.")
            .set(now.timeIntervalSince(live.startedAt))
        gauge("resident_memory_bytes", "The process's resident memory.")
            .set(Double(residentBytes()))
        gauge("process_cpu_seconds", "CPU seconds the process has used, user and system, every thread.")
            .set(Self.processCPUSeconds())
        let db = live.databaseStatus
        gauge("database_reachable", "1 when the last check reached PostgreSQL, else 0.")
            .set(db.reachable ? 1.0 : 0.0)
        let served = live.served
        gauge("timetable_ready", "1 when a timetable is served, 0 while loading.")
            .set(served == nil ? 0.0 : 1.0)
        if let s = served {
            gauge("timetable_loaded_timestamp_seconds", "When the served timetable was loaded (Unix time).")
                .set(s.loadedAt.timeIntervalSince1970)
            gauge("timetable_age_seconds", "Seconds since the served timetable was loaded.")
                .set(now.timeIntervalSince(s.loadedAt))
            gauge("timetable_load_seconds", "How long the served timetable took to load and build.")
                .set(s.loadSeconds)
            gauge("timetable_stop_times", "Stop times of the served timetable's feeds.")
                .set(Double(s.feeds.reduce(0) { $0 + ($1.rows["stop_times"] ?? 0) }))
            // One gauge per served feed: its version (a replica that has not taken a new
            // import yet shows the old one); a feed no longer served loses its gauge.
            let ids = Set(s.feeds.map(\.id))
            feedGauges.withLock { gauges in
                for (id, gauge) in gauges where !ids.contains(id) { registry.unregisterGauge(gauge); gauges[id] = nil }
                for f in s.feeds {
                    let g = gauges[f.id] ?? gauge("feed_version", "The served version of each feed (1 for its first import, then 2, 3, ...).", labels: [("feed", f.id)])
                    gauges[f.id] = g
                    g.set(Double(f.version))
                }
            }
            let built = s.realtimeBuilt
            gauge("realtime_swaps", "Realtime states swapped in for the served timetable.")
                .set(Double(built.swaps))
        }
        if let realtime = api.realtime {
            // The registry gives back the gauges made for a feed before (sources never change).
            for st in realtime.statuses {
                let feed = [("feed", st.source.feedId)]
                gauge("realtime_message_age_seconds", "Age of the last realtime message read (its header's timestamp to now); -1 before any.", labels: feed)
                    .set(st.messageTime.map { now.timeIntervalSince1970 - Double($0) } ?? -1)
                gauge("realtime_last_success_timestamp_seconds", "When a realtime message was last read (Unix time); 0 before any.", labels: feed)
                    .set(st.lastSuccess?.timeIntervalSince1970 ?? 0)
                gauge("realtime_entities", "Entities in the last realtime message read.", labels: feed).set(Double(st.entities))
            }
        }
        let f = api.follow.status
        gauge("followed_trips", "Trips followed now.").set(Double(f.trips))
        gauge("follow_streams", "Open event streams of followed trips.").set(Double(f.streams))
        return registry.emitToBuffer()
    }
}
