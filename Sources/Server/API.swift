import Coverage
import Dispatch
import Follow
import Foundation
import Geo
import Hummingbird
import Logging
import Realtime
import NIOCore
import PlanJSON
import Planner
import Timetable
import TransitModel

/// Functions here and in the rest of this module that loop over `[String: Any]` JSON or
/// log in loops are marked `@_optimize(none)`: Swift 6.3.1's loop-invariant code motion
/// (its escape analysis) took over ten minutes of CPU on them in a release build. They
/// are glue; the work of a request is in Planner, which is optimized as usual.
///
/// The HTTP API over a `LiveTimetable`: `/v1/plan`, `/v1/coverage`, `/v1/stops`,
/// `/v1/health`, `/openapi.json`. Read-only; every answer is JSON; every error is
/// `{"error": {"code", "message", "details"}}` with its status.
public struct TransitAPI: Sendable {
    public let live: LiveTimetable
    /// Each plan request stops looking for alternatives after this many seconds.
    public let planBudget: Double
    public let logger: Logger

    /// Where plans are worked out: first come, first served, one thread per core.
    let planners: WorkerPool

    /// Plans per client: a token bucket per address (see `RateLimiter`).
    let planLimit: RateLimiter

    /// `planRate`: plan requests per second per client address, after a burst of
    /// `planBurst`; 0 means no limit.
    /// Which web pages (origins) may read the answers in a browser (`CORSPolicy`).
    public let cors: CORSPolicy
    /// The realtime sources (`--realtime`), for `/v1/health`; nil without any.
    public let realtime: RealtimeFeeds?
    /// The server's now (`--clock`: a replay clock) for plans, tokens and followed trips.
    public let clock: FollowClock
    /// Signs and reads the itineraries' `tripToken`s.
    public let tokens: TripTokens
    /// The followed trips and their streams (`/v1/trips/{token}/events`).
    public let follow: FollowHub
    /// Seconds between the streams' heartbeat comments.
    public let heartbeatSeconds: Double
    /// The trip planner page at `/`.
    public let page: TripPage
    /// The operators' signals at `/metrics`.
    public let metrics: ServerMetrics

    /// `tokenSecret`: the key of the trip tokens (servers that share it read each other's;
    /// nil: a random one, so tokens last as long as the process).
    public init(live: LiveTimetable, planBudget: Double = 2, planThreads: Int = ProcessInfo.processInfo.activeProcessorCount,
                planRate: Double = 0, planBurst: Int = 1, cors: CORSPolicy = CORSPolicy(), realtime: RealtimeFeeds? = nil,
                clock: FollowClock = .system, tokenSecret: [UInt8]? = nil, maxStreams: Int = 10_000, maxStreamsPerClient: Int = 16,
                heartbeatSeconds: Double = 15, page: TripPage = TripPage(), metrics: ServerMetrics = ServerMetrics(), logger: Logger) {
        self.page = page; self.metrics = metrics
        self.live = live; self.planBudget = planBudget; self.logger = logger; self.cors = cors; self.realtime = realtime
        self.clock = clock; self.heartbeatSeconds = heartbeatSeconds
        tokens = TripTokens(secret: tokenSecret ?? TripTokens.randomSecret())
        // Read now: a binary installed without its resource bundle stops here, at start,
        // not at the first /openapi.json.
        _ = OpenAPIDocument.served
        planners = WorkerPool(threads: planThreads, name: "plan")
        follow = Self.startFollowing(live: live, clock: clock, tokens: tokens, maxStreams: maxStreams, maxPerClient: maxStreamsPerClient,
                                     planners: planners)
        planLimit = RateLimiter(ratePerSecond: planRate, burst: planBurst)
    }

    public func router() -> Router<TransitRequestContext> {
        let router = Router(context: TransitRequestContext.self)
        // First, so that it wraps every route and the not-found answer too.
        router.add(middleware: AccessLogAndErrors(logger: logger, cors: cors, metrics: metrics))
        router.get("/v1/plan") { request, context in
            // The budget counts from arrival: time spent waiting for a planner is part of it.
            let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(self.planBudget * 1e9)
            // Checked before the plan is queued, so that a refused request costs nothing.
            try self.limit(context)
            return try await self.planners.run { try self.plan(request, deadline: deadline) }
        }
        router.get("/v1/coverage") { request, _ in try self.coverage(request) }
        router.get("/v1/coverage/:file") { request, context in try self.coverageExport(request, context.parameters.get("file") ?? "") }
        router.get("/v1/stops") { request, _ in try self.stops(request) }
        router.get("/v1/stops/:id") { request, context in try self.stop(request, context.parameters.get("id") ?? "") }
        router.get("/v1/health") { request, _ in try self.health(request) }
        router.get("/v1/vehicles") { request, _ in try self.vehicles(request) }
        router.get("/v1/trips/:token/events") { request, context in
            try self.events(request, token: context.parameters.get("token") ?? "", client: "\(RateLimiter.key(context.remoteAddress))")
        }
        router.get("/") { request, _ in try self.page.page("index.html", request) }
        router.get("/page/messages.json") { request, _ in
            let q = try QueryParameters(request.uri.query, allowed: ["lang"])
            let language = try Self.language(q, request)
            var response = Self.json(200, TripPage.messages(language))
            response.headers[.cacheControl] = "no-cache"
            response.headers[.contentLanguage] = language.rawValue
            return response
        }
        router.get("/page/config.json") { request, _ in
            _ = try QueryParameters(request.uri.query, allowed: [])
            return Self.json(200, self.page.config())
        }
        router.get("/page/:file") { request, context in try self.page.page(context.parameters.get("file") ?? "", request) }
        router.get("/leaflet/:file") { request, context in try self.page.leafletFile(context.parameters.get("file") ?? "", request) }
        router.get("/leaflet/images/:file") { request, context in
            try self.page.leafletFile("images/" + (context.parameters.get("file") ?? ""), request)
        }
        router.get("/v1/network") { request, _ in
            let q = try QueryParameters(request.uri.query, allowed: APIParameters.network.map(\.name))
            var box: NetworkMap.Box?
            if let text = try q.text(APIParameters.bbox) {
                // The pattern holds each number to its range.
                let v = text.split(separator: ",").compactMap { Double($0.trimmingCharacters(in: .whitespaces)) }
                guard v.count == 4 else { throw APIError.badParameter("bbox", text, APIParameters.bbox.allowed) }
                box = (v[0], v[1], v[2], v[3])
            }
            let s = try self.served()
            var response = Self.response(200, ByteBuffer(bytes: s.networkMap.geoJSON(in: box)), contentType: "application/geo+json")
            response.headers[.cacheControl] = "no-cache"
            return response
        }
        router.get("/metrics") { request, _ in
            _ = try QueryParameters(request.uri.query, allowed: [])
            var response = Self.response(200, ByteBuffer(bytes: self.metrics.render(self)), contentType: "text/plain; version=0.0.4; charset=utf-8")
            response.headers[.cacheControl] = "no-store"
            return response
        }
        router.get("/openapi.json") { request, _ in
            _ = try QueryParameters(request.uri.query, allowed: [])
            return Self.response(200, OpenAPIDocument.served, contentType: "application/json")
        }
        return router
    }

    // MARK: Endpoints

    /// Refuses a plan request over the client's rate: 429 with `Retry-After`.
    func limit(_ context: TransitRequestContext) throws(APIError) {
        guard let wait = planLimit.take(RateLimiter.key(context.remoteAddress)) else { return }
        let rate = QueryParameters.plain(planLimit.ratePerSecond), burst = Int(planLimit.burst)
        throw APIError(.rateLimited,
                       "This server plans at most \(rate) trips a second for one address (\(burst) at once); please try again in \(wait) s.",
                       details: ["retryAfterSeconds": .number(Double(wait)), "ratePerSecond": .number(planLimit.ratePerSecond),
                                 "burst": .number(Double(burst))])
    }

    /// The answer's language: `lang`, else the first offered one of `Accept-Language`, else English.
    static func language(_ q: QueryParameters, _ request: Request) throws(APIError) -> Language {
        if let tag = try q.text(APIParameters.lang) {
            guard let l = Language(tag: tag) else { throw APIError.badParameter("lang", tag, APIParameters.lang.allowed) }
            return l
        }
        return request.headers[.acceptLanguage].flatMap { Language(acceptLanguage: $0) } ?? .en
    }

    func served() throws(APIError) -> ServedTimetable {
        guard let s = live.served else {
            let db = live.databaseStatus
            throw APIError(.notReady, db.reachable || db.checkedAt == nil
                           ? "The timetable is still loading (or no feed is imported yet); try again in a few seconds."
                           : "The database cannot be reached, so no timetable is loaded yet; the server keeps trying.",
                           details: ["retryAfterSeconds": .number(5)])
        }
        return s
    }

    func plan(_ request: Request, deadline: UInt64) throws -> Response {
        // The planning thread's CPU: the answer's and the rest of this handler's.
        let cpuStart = ServerMetrics.threadCPUNanoseconds()
        var cpuAnswer: UInt64 = 0
        defer {
            let all = ServerMetrics.threadCPUNanoseconds() &- cpuStart
            metrics.planCPU(answerNanoseconds: cpuAnswer, respondNanoseconds: all &- min(all, cpuAnswer))
        }
        let q = try QueryParameters(request.uri.query, allowed: PlanParameters.names)
        let language = try Self.language(q, request)
        var (query, n) = try PlanParameters.query(q, now: clock.now())
        let s = try served()
        // Within the document's range but beyond this timetable's footpaths: the request
        // is well formed, this server cannot answer it.
        do { try query.parameters.validate(footpathBeelineMeters: s.timetable.footpathBeelineMeters) } catch {
            throw APIError(.parameterConflict, "The parameter \(error.parameter) \"\(error.value)\" is more than this timetable allows: \(error.allowed).",
                           details: ["parameter": .text(error.parameter), "value": .text(error.value), "allowed": .text(error.allowed)])
        }
        query.deadline = deadline
        // The realtime state taken once with the timetable: one consistent state per answer.
        let realtime = s.realtime
        let searchStart = DispatchTime.now().uptimeNanoseconds, answerStart = ServerMetrics.threadCPUNanoseconds()
        let result = s.planner.answer(query, numItineraries: n, realtime: realtime)
        let searched = DispatchTime.now().uptimeNanoseconds - searchStart
        cpuAnswer = ServerMetrics.threadCPUNanoseconds() &- answerStart
        switch result {
        case .itineraries(let answer):
            metrics.planSearch(nanoseconds: searched, outcome: "itineraries")
            let used = query.realtime ? realtime : nil
            let tripTokens = answer.options.map { o in s.matcher.followedTrip(o.journey).map(tokens.token) }
            var response = Self.response(200, ByteBuffer(bytes: PlanAnswerJSON.answerBytes(answer, feeds: s.feeds.map { ($0.id, $0.version) },
                                                                                   realtime: used.map { PlanAnswerJSON.realtimeSummary($0, now: clock.now()) },
                                                                                   tripTokens: tripTokens, language: language)),
                                         contentType: "application/json")
            response.headers[.contentLanguage] = language.rawValue
            return response
        case .noItinerary(let reason):
            metrics.planSearch(nanoseconds: searched, outcome: reason.code.rawValue)
            throw APIError.from(reason, language: language)
        }
    }

    @_optimize(none)  // see TransitAPI: the optimizer takes minutes on this glue
    func coverage(_ request: Request) throws -> Response {
        _ = try QueryParameters(request.uri.query, allowed: [])
        let s = try served()
        switch s.coverage {
        case .building:
            throw APIError(.notReady, "The coverage regions are still being worked out; try again in a few seconds.",
                           details: ["retryAfterSeconds": .number(5)])
        case .failed(let why):
            throw APIError(.coverageUnavailable, "The coverage regions could not be worked out: \(why)")
        case .ready(let report):
            let regions = report.json()["regions"] as? [[String: Any]] ?? []
            let features: [[String: Any]] = zip(report.regions, regions).map { r, props in
                var p = props
                p.removeValue(forKey: "export")
                p["exportUrl"] = "/v1/coverage/\(r.feedId).geojson"
                let polygons: [[[[Double]]]] = r.exact.map { rings in rings.map { ring in ring.map { [$0.longitude, $0.latitude] } } }
                return ["type": "Feature", "id": r.feedId, "properties": p,
                        "geometry": ["type": "MultiPolygon", "coordinates": polygons] as [String: Any]]
            }
            return Self.json(200, ["type": "FeatureCollection", "features": features,
                                   "unions": report.json()["unions"] ?? [], "notes": report.notes], contentType: "application/geo+json")
        }
    }

    func coverageExport(_ request: Request, _ file: String) throws -> Response {
        _ = try QueryParameters(request.uri.query, allowed: [])
        guard file.hasSuffix(".geojson") else {
            throw APIError(.notFound, "No such resource: exports are at /v1/coverage/FEED.geojson.")
        }
        let feed = String(file.dropLast(".geojson".count))
        let s = try served()
        guard s.network.snapshot.feedIds.contains(feed) else {
            throw APIError(.unknownFeed, "No feed \"\(String(feed.prefix(63)))\" is served; served are: \(s.network.snapshot.feedIds.joined(separator: ", ")).",
                           details: ["feeds": .list(s.network.snapshot.feedIds.map { .text($0) })])
        }
        guard case .ready(let report) = s.coverage, let r = report.regions.first(where: { $0.feedId == feed }) else {
            throw APIError(.notReady, "The coverage regions are still being worked out; try again in a few seconds.",
                           details: ["retryAfterSeconds": .number(5)])
        }
        return Self.response(200, CoverageExport.text(r.export), contentType: "application/geo+json")
    }

    /// `/v1/vehicles`: where the realtime sources' VehiclePositions put the vehicles, as
    /// GeoJSON points (of one route and feed when asked); none without such a source.
    func vehicles(_ request: Request) throws -> Response {
        let q = try QueryParameters(request.uri.query, allowed: APIParameters.vehicles.map(\.name))
        let s = try served()
        let route = try q.text(APIParameters.vehiclesRoute)
        let feed = try q.feed(APIParameters.vehiclesFeed)
        if let feed, !s.network.snapshot.feedIds.contains(feed) { throw Self.unknownFeed(feed, s) }
        if let route, !s.network.snapshot.routes.contains(where: { $0.routeId == route && (feed == nil || s.network.snapshot.feedIds[Int($0.feed)] == feed) }) {
            throw APIError(.notFound, "No route \"\(String(route.prefix(63)))\" is served\(feed.map { " in feed \($0)" } ?? "").",
                           details: ["parameter": .text("route")])
        }
        let list = (s.realtime?.vehicles ?? []).filter { v in
            (route == nil || v.routeId == route) && (feed == nil || v.feedId == feed)
        }
        return Self.response(200, ByteBuffer(bytes: PlanAnswerJSON.vehicles(list)), contentType: "application/geo+json")
    }

    @_optimize(none)  // see TransitAPI: the optimizer takes minutes on this glue
    func stops(_ request: Request) throws -> Response {
        let q = try QueryParameters(request.uri.query, allowed: APIParameters.stops.map(\.name))
        let s = try served()
        let limit = try q.int(APIParameters.stopsLimit) ?? APIParameters.stopsLimit.integerDefault
        var feed: Int32?
        if let f = try q.feed(APIParameters.stopsFeed) {
            guard let i = s.network.snapshot.feedIds.firstIndex(of: f) else { throw Self.unknownFeed(f, s) }
            feed = Int32(i)
        }
        let text = try q.text(APIParameters.query)
        let near = try q.coordinate(APIParameters.near)
        let radius = try q.double(APIParameters.radius)
        switch (text, near) {
        case (let text?, nil):
            guard radius == nil else { throw Self.conflict("radius", q["radius"], "only with near") }
            let found = s.stops.search(text, feed: feed, limit: limit)
            return Self.json(200, ["stops": StopJSON.found(s, found)])
        case (nil, let near?):
            let radius = radius ?? APIParameters.radius.numberDefault
            let c = Coordinate(latitude: near.latitude, longitude: near.longitude)
            var near: [(stop: StopIndex, meters: Double)] = []
            for hit in s.network.stopsNear(c, beelineMeters: radius) where near.count < limit {
                if let feed, s.timetable.stopFeed[hit.stop.index].raw != feed { continue }
                near.append((hit.stop, hit.meters))
            }
            return Self.json(200, ["stops": StopJSON.near(s, near)])
        case (nil, nil):
            throw Self.conflict("query", nil, "give query (a name) or near (lat,lon)")
        case (_?, _?):
            throw Self.conflict("near", nil, "either query or near, not both")
        }
    }

    /// A feed the document allows but this server does not serve: 404 with the served ones.
    static func unknownFeed(_ feed: String, _ s: ServedTimetable) -> APIError {
        APIError(.unknownFeed, "No feed \"\(String(feed.prefix(63)))\" is served; served are: \(s.network.snapshot.feedIds.joined(separator: ", ")).",
                 details: ["feeds": .list(s.network.snapshot.feedIds.map { .text($0) })])
    }

    /// Parameters each allowed by the document but not together: 422, naming the parameter.
    static func conflict(_ name: String, _ value: String?, _ allowed: String) -> APIError {
        let bad = APIError.badParameter(name, value, allowed)
        return APIError(.parameterConflict, bad.message, details: bad.details)
    }

    func stop(_ request: Request, _ rawId: String) throws -> Response {
        let q = try QueryParameters(request.uri.query, allowed: APIParameters.departures.map(\.name))
        let s = try served()
        let id = rawId.removingPercentEncoding ?? rawId
        guard id.count <= QueryParameters.maxValueLength else { throw APIError.badParameter("id", String(id.prefix(40)), "a stop id") }
        let stop: StopIndex
        do { stop = try s.planner.resolveStop(try q.feed(APIParameters.stopFeed), id) } catch let e as PlanError { throw APIError.from(e) }
        let time = try PlanParameters.time(q, APIParameters.departuresTime) ?? .instant(Int64(Date().timeIntervalSince1970))
        let limit = try q.int(APIParameters.departuresLimit) ?? APIParameters.departuresLimit.integerDefault
        let departures = s.planner.departures(stop: stop, after: time, limit: limit)
        return Self.json(200, ["stop": StopJSON.stop(s, stop, extra: [:]), "departures": departures.map { StopJSON.departure(s, $0) }])
    }

    @_optimize(none)  // see TransitAPI: the optimizer takes minutes on this glue
    func health(_ request: Request) throws -> Response {
        _ = try QueryParameters(request.uri.query, allowed: [])
        let db = live.databaseStatus
        let s = live.served
        var database: [String: Any] = ["reachable": db.reachable]
        if let t = db.checkedAt { database["checkedAt"] = Self.iso(t) }
        if let p = db.problem { database["problem"] = p }
        if let p = db.reloadProblem { database["reloadProblem"] = p }
        var body: [String: Any] = [
            "status": s == nil ? "loading" : (db.reachable ? "ok" : "degraded"),
            "uptimeSeconds": (Date().timeIntervalSince(live.startedAt) * 10).rounded() / 10,
            "database": database,
            "memory": ["residentBytes": residentBytes()],
        ]
        if let s {
            body["timetable"] = [
                "loadedAt": Self.iso(s.loadedAt), "loadSeconds": (s.loadSeconds * 1000).rounded() / 1000,
                "stops": s.timetable.stopCount, "routes": s.timetable.routeCount, "trips": s.timetable.tripCount,
                "stopTimes": s.feeds.reduce(0) { $0 + ($1.rows["stop_times"] ?? 0) },
                "coverage": { switch s.coverage { case .building: "building"; case .ready: "ready"; case .failed: "failed" } }(),
            ] as [String: Any]
            // The street versions walked along (`transit import-osm`); none: beeline walks.
            body["streets"] = s.streetVersions.sorted { $0.key < $1.key }.map { region, version -> [String: Any] in
                ["region": region, "version": version]
            }
            if let graph = s.network.streets {
                (body["timetable"] as? [String: Any]).map { t in
                    var t = t
                    t["streetEdges"] = graph.edgeCount
                    body["timetable"] = t
                }
            }
            let agencies = s.network.snapshot.agencies
            body["feeds"] = s.feeds.enumerated().map { index, f -> [String: Any] in
                var o: [String: Any] = ["id": f.id, "version": f.version, "importedAt": f.importedAt,
                                        "stops": f.rows["stops"] ?? 0, "routes": f.rows["routes"] ?? 0,
                                        "trips": f.rows["trips"] ?? 0, "stopTimes": f.rows["stop_times"] ?? 0]
                if let v = f.feedVersion { o["feedVersion"] = v }
                if let d = f.firstDate { o["firstDate"] = d }
                if let d = f.lastDate { o["lastDate"] = d }
                if let p = f.place { o["place"] = p }
                // The zone its local times are in (its first agency's), for a client that
                // reads "8:30" in words as the server will (`transit plan --server`).
                if let a = agencies.first(where: { Int($0.feed) == index }) { o["timeZone"] = a.timezone }
                return o
            }
        } else {
            body["feeds"] = [Any]()
            body["streets"] = [Any]()
        }
        body["realtime"] = realtimeHealth(s)
        if realtime != nil, let s {
            // The state requests route on: when it was swapped in, its build, the swaps so far.
            let built = s.realtimeBuilt
            var o: [String: Any] = ["swaps": built.swaps, "buildMilliseconds": (built.seconds * 10_000).rounded() / 10]
            if let at = built.at { o["swappedAt"] = Self.iso(at) }
            body["realtimeState"] = o
        }
        // Followed trips: how many, their open streams, the memory their state and logs
        // take, and the last pass over them for a new realtime state.
        let f = follow.status
        body["following"] = ["trips": f.trips, "streams": f.streams, "bytes": f.bytes,
                             "bytesPerTrip": f.trips == 0 ? 0 : f.bytes / f.trips,
                             "passes": f.passes, "lastPassMilliseconds": (f.lastPassSeconds * 10_000).rounded() / 10,
                             "medianPassMilliseconds": (f.medianPassSeconds * 10_000).rounded() / 10,
                             "maxPassMilliseconds": (f.maxPassSeconds * 10_000).rounded() / 10,
                             "clock": Self.iso(Date(timeIntervalSince1970: Double(clock.now())))] as [String: Any]
        return Self.json(s == nil ? 503 : 200, body)
    }

    /// Per realtime source: what was fetched when, the message's time and age, entities
    /// read, and per feed what the served realtime state applied and rejected by reason.
    @_optimize(none)  // see TransitAPI: the optimizer takes minutes on this glue
    func realtimeHealth(_ s: ServedTimetable?) -> [[String: Any]] {
        guard let realtime else { return [] }
        let reports = Dictionary(uniqueKeysWithValues: (s?.realtime?.reports ?? []).map { ($0.feedId, $0) })
        let now = Date().timeIntervalSince1970
        return realtime.statuses.map { st -> [String: Any] in
            var o: [String: Any] = ["feed": st.source.feedId, "entities": st.entities]
            switch st.source.location {
            case .url(let u): o["url"] = RealtimeSource.redact(u)
            case .file(let f): o["file"] = f
            }
            if let t = st.lastFetch { o["lastFetch"] = Self.iso(t) }
            if let t = st.lastSuccess { o["lastSuccess"] = Self.iso(t) }
            if let t = st.messageTime {
                o["messageTime"] = Self.iso(Date(timeIntervalSince1970: Double(t)))
                o["ageSeconds"] = Int(now) - Int(t)
            }
            if let p = st.problem { o["problem"] = p }
            if let r = reports[st.source.feedId] {
                o["tripUpdates"] = r.tripUpdates
                o["applied"] = r.applied
                o["rejected"] = r.rejected
            }
            return o
        }
    }

    // MARK: Responses

    static func iso(_ d: Date) -> String {
        let f = ISO8601DateFormatter()
        f.formatOptions = [.withInternetDateTime]
        return f.string(from: d)
    }

    static func json(_ status: Int, _ object: [String: Any], contentType: String = "application/json") -> Response {
        response(status, PlanAnswerJSON.encode(object), contentType: contentType)
    }

    static func response(_ status: Int, _ text: String, contentType: String) -> Response {
        response(status, ByteBuffer(string: text), contentType: contentType)
    }

    static func response(_ status: Int, _ body: ByteBuffer, contentType: String) -> Response {
        var headers = HTTPFields()
        headers[.contentType] = contentType
        headers[.cacheControl] = "no-store"
        return Response(status: .init(code: status), headers: headers, body: .init(byteBuffer: body))
    }
}

/// One access log line per request: method, path (never the query string: it holds
/// riders' places), status, latency, size. Turns every error into the JSON error body:
/// `APIError`s as they are, Hummingbird's own (no such route: 404; wrong method: 405) with
/// their status, anything else as a 500 that says nothing of the request.
///
/// It also answers CORS: an `OPTIONS` preflight on any of the API's paths is 204 with the
/// methods, headers and how long a browser may keep the answer; every answer (errors
/// too, so that a page can read why) carries `Access-Control-Allow-Origin` when the
/// request's `Origin` is allowed (`CORSPolicy`).
struct AccessLogAndErrors: RouterMiddleware {
    typealias Context = TransitRequestContext
    let logger: Logger
    var cors = CORSPolicy()
    /// Requests counted and timed by endpoint (`/metrics`); nil: not counted.
    var metrics: ServerMetrics? = nil
    /// The API takes no request body: a declared body over this (or one of unknown
    /// length) is refused before anything reads it.
    static let maxBodyBytes = 1024

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let start = DispatchTime.now().uptimeNanoseconds
        var response: Response
        do {
            try Self.checkBody(request, context)
            if request.method == .options && Self.isRoute(request.uri.path) {
                response = cors.preflight()
            } else {
                response = try await next(request, context)
            }
        } catch let e as APIError {
            if e.status >= 500, let cause = e.cause {
                logger.error("internal error on \(request.method) \(Self.logged(request.uri.path)): \(cause)")
            }
            response = Self.error(e)
            if e.status == 429, case .number(let s)? = e.details["retryAfterSeconds"] { response.headers[.retryAfter] = String(Int(s)) }
        } catch let e as HTTPError where e.status.code == 404 && request.method != .get && Self.isRoute(request.uri.path) {
            response = Self.error(APIError(.methodNotAllowed, "This resource answers GET only."))
            response.headers[.allow] = "GET, OPTIONS"
        } catch let e as HTTPError where e.status.code == 404 {
            response = Self.error(APIError(.notFound, "No such resource; see /openapi.json for what this server answers."))
        } catch let e as HTTPError where e.status.code == 405 {
            response = Self.error(APIError(.methodNotAllowed, "This resource answers GET only."))
        } catch let e as HTTPError where e.status.code < 500 {
            response = Self.error(APIError(.badRequest, e.body ?? e.status.reasonPhrase))
        } catch {
            logger.error("internal error on \(request.method) \(Self.logged(request.uri.path)): \(type(of: error))")
            response = Self.error(APIError(.internalError, "Something went wrong on our side; the request was not answered. Please try again."))
        }
        if response.status.code == 503 { response.headers[.retryAfter] = "5" }
        cors.addHeaders(to: &response, origin: request.headers[.origin])
        let elapsed = DispatchTime.now().uptimeNanoseconds - start
        metrics?.request(path: request.uri.path, status: Int(response.status.code), nanoseconds: elapsed)
        let ms = Double(elapsed) / 1e6
        let path = Self.logged(request.uri.path)
        logger.info("\(request.method) \(path) \(response.status.code) \(String(format: "%.1f", ms)) ms")
        return response
    }

    /// Refuses a request body this API would never read. The rest of such a body is not
    /// read either: the connection's input is closed, so the answer goes out and the
    /// connection ends, rather than the server reading (and dropping) megabytes first.
    static func checkBody(_ request: Request, _ context: Context) throws(APIError) {
        let declared = request.headers[.contentLength].map { Int($0) ?? Int.max } ?? 0
        let chunked = request.headers[.transferEncoding] != nil
        guard declared > maxBodyBytes || chunked else { return }
        context.channel.close(mode: .input, promise: nil)
        throw APIError(.bodyTooLarge,
                       "This API takes no request body; send the parameters in the query string (a body of at most \(maxBodyBytes) bytes is ignored).",
                       details: ["allowed": .text("at most \(maxBodyBytes) bytes, with a Content-Length")])
    }

    /// The paths the API answers as they are (no parameter in the path).
    static let exactRoutes: Set<String> = ["/v1/plan", "/v1/coverage", "/v1/stops", "/v1/vehicles", "/v1/health", "/v1/network",
                                           "/openapi.json", "/", "/metrics", "/page/messages.json", "/page/config.json"]

    /// A path the API answers (with GET).
    static func isRoute(_ path: String) -> Bool {
        exactRoutes.contains(path)
            || (path.hasPrefix("/page/") || path.hasPrefix("/leaflet/")) && !path.dropFirst().contains("/../")
            || (path.hasPrefix("/v1/coverage/") || path.hasPrefix("/v1/stops/")) && path.split(separator: "/").count == 3
            || path.hasPrefix("/v1/trips/") && path.hasSuffix("/events") && path.split(separator: "/").count == 4
    }

    /// A path as the log writes it: a trip token (a rider's trip, if not their places) is
    /// not written, and a long path is cut at 100 characters.
    static func logged(_ path: String) -> String {
        if path.hasPrefix("/v1/trips/") {
            let parts = path.split(separator: "/", omittingEmptySubsequences: false)
            return "/v1/trips/{token}" + (parts.count > 4 ? "/" + parts[4...].joined(separator: "/").prefix(40) : "")
        }
        return path.count > 100 ? String(path.prefix(100)) + "…" : path
    }

    static func error(_ e: APIError) -> Response {
        TransitAPI.json(e.status, e.json)
    }
}

/// What a request carries besides itself: the connection's peer address (the client the
/// plan rate limit counts) and the connection (to stop reading a body nobody wants).
public struct TransitRequestContext: RequestContext, RemoteAddressRequestContext {
    public var coreContext: CoreRequestContextStorage
    public let remoteAddress: SocketAddress?
    let channel: any Channel

    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        channel = source.channel
        remoteAddress = source.channel.remoteAddress
    }
}

/// Which web pages may read this API's answers from a browser (CORS). The default allows
/// none: same-origin pages, phones' apps, scripts and `transit plan --server` need no
/// CORS at all, and a server that answers riders' places should not be readable by
/// every page a rider happens to open (a local `transit serve` included) unless its
/// operator says so: `transit serve --cors-origin https://example.org` (repeatable), or
/// `--cors-origin '*'` for a public API. The API takes no cookies or credentials, so `*`
/// reveals nothing a page could not fetch itself from the server.
public struct CORSPolicy: Sendable {
    /// Origins allowed, as browsers send them (`https://example.org`); `*` for any.
    public let origins: [String]
    /// How long a browser may keep a preflight answer.
    public static let maxAgeSeconds = 600

    public init(origins: [String] = []) { self.origins = origins }

    public var allowsAny: Bool { origins.contains("*") }

    /// `Access-Control-Allow-Origin` for a request from `origin`, nil when it is not allowed.
    public func allowedOrigin(_ origin: String?) -> String? {
        if allowsAny { return "*" }
        guard let origin, origins.contains(origin) else { return nil }
        return origin
    }

    /// The answer to an `OPTIONS` preflight: 204, the methods and headers a page may use.
    func preflight() -> Response {
        var headers = HTTPFields()
        headers[.allow] = "GET, OPTIONS"
        headers[.accessControlAllowMethods] = "GET, OPTIONS"
        headers[.accessControlAllowHeaders] = "Accept, Content-Type"
        headers[.accessControlMaxAge] = String(Self.maxAgeSeconds)
        return Response(status: .noContent, headers: headers)
    }

    /// Adds `Access-Control-Allow-Origin` (and `Vary: Origin` when the answer depends on
    /// the origin) to `response`.
    func addHeaders(to response: inout Response, origin: String?) {
        if !allowsAny && !origins.isEmpty { response.headers[.vary] = "Origin" }
        guard let allowed = allowedOrigin(origin) else { return }
        response.headers[.accessControlAllowOrigin] = allowed
        if response.status.code == 429 || response.status.code == 503 {
            response.headers[.accessControlExposeHeaders] = "Retry-After"
        }
    }
}
