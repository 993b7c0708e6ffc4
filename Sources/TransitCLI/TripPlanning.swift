import FeedNetwork
import Follow
import Foundation
import PlanJSON
import PlanText
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Geo
import Planner
import Raptor
import Realtime
import Timetable
import TransitModel
import TransitStore

/// One trip to plan, as `transit plan` asks for it.
struct PlanRequest {
    var from: Place
    var to: Place
    var time: QueryTime
    var arriveBy: Bool
    var window: Int?
    var numItineraries: Int
    var modes: String?
    var wheelchair: Bool
    var parameters: RoutingParameters
    /// False: every walk a beeline (`--no-streets`).
    var streets = true
    /// Of the instructions, notices and refusals (`--lang`, else `LANG`).
    var language: Language = .en
}

/// An answer to a `PlanRequest`: the planner's own (in process) or a server's JSON. The
/// text is rendered from its `AnswerDocument`, made directly from the planner's answer or
/// read from the server's JSON, which are the same; `--json` prints the API's JSON.
enum PlanReply {
    /// `realtime`: the messages the answer was planned on (`--realtime`), nil without.
    /// `tripTokens`: per option, its token (with `TRANSIT_TOKEN_SECRET`: the server's key).
    case local(Result<PlanAnswer, PlanError>, feeds: [(id: String, version: Int)]?, realtime: [PlanAnswerJSON.RealtimeUsed]? = nil,
               tripTokens: [String?]? = nil, language: Language = .en)
    case remote([UInt8])

    /// The API's answer (or its error) as JSON bytes.
    var json: [UInt8] {
        switch self {
        case .local(.success(let answer), let feeds, let realtime, let tokens, let language):
            return PlanAnswerJSON.answerBytes(answer, feeds: feeds, realtime: realtime, tripTokens: tokens, language: language)
        case .local(.failure(let error), _, _, _, let language):
            return Array(PlanAnswerJSON.encode(PlanAnswerJSON.apiError(error, language: language)).utf8)
        case .remote(let bytes): return bytes
        }
    }

    /// The answer as the text renders it; the reason (the planner's or the server's) when there is none.
    func document() throws(AnswerDocument.ReadError) -> AnswerDocument {
        switch self {
        case .local(.success(let answer), _, let realtime, _, let language): return AnswerDocument(answer, realtime: realtime, language: language)
        case .local(.failure(let reason), _, _, _, let language): throw AnswerDocument.ReadError(reason, language: language)
        case .remote(let bytes): return try AnswerDocument.read(bytes)
        }
    }
}

/// Where `transit plan` gets its answers: in process (the database or feed files) or a
/// running server.
protocol PlanBackend {
    /// Stops whose name matches `text`, best first (the API's stop search).
    func search(_ text: String) throws -> [StopCandidate]
    /// The name of a stop given by id, when known.
    func stopName(feed: String?, id: String) throws -> String?
    /// The answer, or the reason there is none.
    func answer(_ r: PlanRequest) throws -> PlanReply
    /// The time zone a local time near `place` is read in.
    func timeZone(near place: Place) throws -> TimeZone
    /// The first and last day of the timetable that serves `place` (the feed of the stop
    /// nearest it): a time without a date is put on these.
    func period(near place: Place) throws -> (first: ServiceDate, last: ServiceDate)?
    /// The network to draw maps over (nil: not at hand).
    var network: TransitNetwork? { get }
}

/// In process: the timetable from the database (or `--gtfs` files).
final class LocalBackend: PlanBackend {
    let planner: JourneyPlanner
    /// Made at its first use: plans between stop ids or coordinates need none.
    let stopSearch: StopSearchSlot
    var stops: StopSearch { stopSearch.value }
    let feeds: [(id: String, version: Int)]?
    /// `--realtime`: the messages' state the plans route on (nil: none given).
    let realtime: RealtimeState?

    init(source: TimetableSourceOptions) throws {
        let assembly = try source.load()
        let network = assembly.network
        planner = assembly.planner
        stopSearch = assembly.stopSearch
        realtime = try source.realtimeState(network)
        // As the server writes them: the loaded feeds and their versions (none for files).
        if source.gtfs.isEmpty, let versions = try? FeedCatalog(db: source.db.connect()).versions() {
            feeds = network.snapshot.feedIds.map { ($0, versions[$0] ?? 0) }
        } else {
            feeds = nil
        }
    }

    var network: TransitNetwork? { planner.network }

    func search(_ text: String) throws -> [StopCandidate] {
        PlaceFinder.candidates(stops.search(text, limit: PlaceFinder.searchLimit), planner.network)
    }

    func stopName(feed: String?, id: String) throws -> String? {
        guard let i = try? planner.resolveStop(feed, id) else { return nil }
        return planner.network.snapshot.stops[i.index].name
    }

    func answer(_ r: PlanRequest) throws -> PlanReply {
        // The messages every answer is planned on (`--realtime`): their time and age now.
        let used = realtime.map { PlanAnswerJSON.realtimeSummary($0, now: Int64(Date().timeIntervalSince1970)) }
        do throws(PlanError) {
            let answer = try plan(r)
            // With the server's key (TRANSIT_TOKEN_SECRET), the tokens it would write.
            let tokens = TerminalFollow.secret.map { secret -> [String?] in
                let signer = TripTokens(secret: secret)
                let matcher = TripMatcher(network: planner.network,
                                          versions: Dictionary((feeds ?? []).map { ($0.id, String($0.version)) }, uniquingKeysWith: { a, _ in a }))
                return answer.options.map { matcher.followedTrip($0.journey).map(signer.token) }
            }
            return .local(.success(answer), feeds: feeds, realtime: used, tripTokens: tokens, language: r.language)
        } catch {
            return .local(.failure(error), feeds: feeds, realtime: used, language: r.language)
        }
    }

    private func plan(_ r: PlanRequest) throws(PlanError) -> PlanAnswer {
        var query = PlanQuery(from: r.from, to: r.to, time: r.time, arriveBy: r.arriveBy, parameters: r.parameters,
                              window: r.window.map { $0 * 60 }, modes: nil, wheelchair: r.wheelchair, streets: r.streets)
        if let m = r.modes { query.modes = try ModeFilter.parse(m) }
        return try planner.answer(query, numItineraries: r.numItineraries, realtime: realtime).get()
    }

    func timeZone(near place: Place) -> TimeZone {
        let c = (try? planner.coordinate(of: place)) ?? Coordinate(latitude: 0, longitude: 0)
        return TimeZone(identifier: planner.queryTimeZone(origin: c)) ?? TimeZone(identifier: "UTC")!
    }

    func period(near place: Place) -> (first: ServiceDate, last: ServiceDate)? {
        let network = planner.network
        if let c = try? planner.coordinate(of: place), let n = network.nearestStop(c),
           let p = planner.servicePeriods[Int(network.snapshot.stops[n.stop.index].feed)] { return p }
        let all = planner.servicePeriods.compactMap { $0 }
        guard let first = all.map(\.first).min(), let last = all.map(\.last).max() else { return nil }
        return (first, last)
    }
}

/// A running `transit serve`: `/v1/stops`, `/v1/plan`, `/v1/health`.
///
/// Times without a date are put on the dates of the feed serving the start, as in
/// process: the feed of the stop given (`stop:FEED:ID`, or `/v1/stops/ID`) or of the
/// stop nearest the coordinates (`/v1/stops?near=`, within 2 km, the API's largest
/// radius), with that feed's time zone (`/v1/health`). Only when no stop is that near
/// are all the feeds' dates taken together (in process, the nearest stop however far).
final class ServerBackend: PlanBackend {
    let base: String
    /// From `/v1/health`: each feed's first and last day and time zone.
    struct Feed { var id: String; var period: (first: ServiceDate, last: ServiceDate)?; var timeZone: TimeZone? }
    private(set) var feeds: [Feed] = []
    /// The feed serving each place asked about (nil: none near), asked once.
    private var servingFeed: [String: String?] = [:]

    init(base: String) throws {
        self.base = base.hasSuffix("/") ? String(base.dropLast()) : base
        let health = try get("/v1/health")
        struct Health: Decodable {
            struct F: Decodable { var id: String; var firstDate: String?; var lastDate: String?; var timeZone: String? }
            var feeds: [F]
        }
        guard let h = try? JSONDecoder().decode(Health.self, from: Data(health.body)) else {
            throw CLIError("\(base) did not answer as a transit server (/v1/health)", code: "SERVER_UNREACHABLE")
        }
        feeds = h.feeds.map { f in
            var period: (first: ServiceDate, last: ServiceDate)?
            if let a = f.firstDate.flatMap(ServiceDate.parse(iso8601:)), let b = f.lastDate.flatMap(ServiceDate.parse(iso8601:)) { period = (a, b) }
            return Feed(id: f.id, period: period, timeZone: f.timeZone.flatMap(TimeZone.init(identifier:)))
        }
    }

    /// The feed that serves `place`, as the server knows it (see the type's comment).
    func feed(serving place: Place) throws -> Feed? {
        let key = place.description
        if servingFeed[key] == nil { servingFeed[key] = .some(try lookUpFeed(place)) }
        guard let id = servingFeed[key] ?? nil else { return nil }
        return feeds.first { $0.id == id }
    }

    private func lookUpFeed(_ place: Place) throws -> String? {
        struct Stop: Decodable { var feed: String }
        switch place {
        case .stop(let feed?, _):
            return feed
        case .stop(nil, let id):
            struct One: Decodable { var stop: Stop }
            let r = try get("/v1/stops/" + (id.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(CharacterSet(charactersIn: "/"))) ?? id))
            return r.status == 200 ? (try? JSONDecoder().decode(One.self, from: Data(r.body)))?.stop.feed : nil
        case .coordinate(let c):
            struct Near: Decodable { var stops: [Stop] }
            let r = try get("/v1/stops", [("near", "\(c.latitude),\(c.longitude)"), ("radius", "2000"), ("limit", "1")])
            return r.status == 200 ? (try? JSONDecoder().decode(Near.self, from: Data(r.body)))?.stops.first?.feed : nil
        }
    }

    var network: TransitNetwork? { nil }

    private func get(_ path: String, _ query: [(String, String)] = []) throws -> (status: Int, body: [UInt8]) {
        var c = URLComponents(string: base + path)!
        if !query.isEmpty { c.queryItems = query.map { URLQueryItem(name: $0.0, value: $0.1) } }
        // `+` is a space in a query string; URLComponents leaves it as it is.
        c.percentEncodedQuery = c.percentEncodedQuery?.replacingOccurrences(of: "+", with: "%2B")
        guard let url = c.url else { throw CLIError("cannot make a URL of \(base)\(path)") }
        let done = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var result: Result<(Int, [UInt8]), Error> = .failure(CLIError("no answer"))
        var request = URLRequest(url: url)
        request.timeoutInterval = 30
        URLSession.shared.dataTask(with: request) { data, response, error in
            if let error { result = .failure(error) } else {
                result = .success(((response as? HTTPURLResponse)?.statusCode ?? 0, Array(data ?? Data())))
            }
            done.signal()
        }.resume()
        done.wait()
        switch result {
        case .success(let r): return r
        case .failure(let e): throw CLIError("cannot reach the server at \(base): \(Self.reason(e))", code: "SERVER_UNREACHABLE")
        }
    }

    /// Why a request got no answer, in words that stay the same from one try to the next
    /// (the system's text carries timings: "after 0 ms").
    static func reason(_ e: Error) -> String {
        if let u = e as? URLError {
            switch u.code {
            case .cannotConnectToHost: return "nothing is listening there; is `transit serve` running?"
            case .timedOut: return "no answer within 30 s"
            case .cannotFindHost, .dnsLookupFailed: return "no such host"
            default: break
            }
        }
        return e.localizedDescription.replacingOccurrences(of: #" after \d+ ms"#, with: "", options: .regularExpression)
    }

    func search(_ text: String) throws -> [StopCandidate] {
        struct Stops: Decodable {
            struct R: Decodable { var id: String; var mode: String; var shortName: String?; var longName: String? }
            struct S: Decodable { var id: String; var feed: String; var name: String; var lat: Double; var lon: Double; var score: Double?; var routes: [R] }
            var stops: [S]
        }
        let r = try get("/v1/stops", [("query", String(text.prefix(100))), ("limit", "50")])
        guard r.status == 200, let s = try? JSONDecoder().decode(Stops.self, from: Data(r.body)) else { return [] }
        return s.stops.map { x in
            StopCandidate(feed: x.feed, id: x.id, name: x.name, coordinate: Coordinate(latitude: x.lat, longitude: x.lon),
                          score: x.score ?? 0,
                          routes: x.routes.map { (LegMode(rawValue: $0.mode)?.noun ?? $0.mode.lowercased(), $0.shortName ?? $0.longName ?? $0.id) })
        }
    }

    func stopName(feed: String?, id: String) throws -> String? {
        // `/v1/stops/ID` answers {"stop": {…, "name"}, "departures": […]}.
        struct Stop: Decodable { struct S: Decodable { var name: String }; var stop: S }
        let r = try get("/v1/stops/" + (id.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(CharacterSet(charactersIn: "/"))) ?? id),
                        feed.map { [("feed", $0)] } ?? [])
        return r.status == 200 ? (try? JSONDecoder().decode(Stop.self, from: Data(r.body)))?.stop.name : nil
    }

    func answer(_ r: PlanRequest) throws -> PlanReply {
        var q: [(String, String)] = [("from", r.from.description), ("to", r.to.description), ("time", r.time.iso8601),
                                     ("numItineraries", String(r.numItineraries))]
        if r.arriveBy { q.append(("arriveBy", "true")) }
        if let w = r.window { q.append(("window", String(w))) }
        if let m = r.modes { q.append(("modes", m)) }
        if r.wheelchair { q.append(("wheelchair", "true")) }
        if !r.streets { q.append(("streets", "false")) }
        if r.language != .en { q.append(("lang", r.language.rawValue)) }
        let p = r.parameters, d = RoutingParameters()
        if p.walkSpeed != d.walkSpeed { q.append(("walkSpeed", String(p.walkSpeed))) }
        if p.walkDetourFactor != d.walkDetourFactor { q.append(("walkDetourFactor", String(p.walkDetourFactor))) }
        if p.maxAccessWalk != d.maxAccessWalk { q.append(("maxAccessWalk", String(p.maxAccessWalk))) }
        if p.maxTransferWalk != d.maxTransferWalk { q.append(("maxTransferWalk", String(p.maxTransferWalk))) }
        if p.maxDirectWalk != d.maxDirectWalk { q.append(("maxDirectWalk", String(p.maxDirectWalk))) }
        if p.transferSlack != d.transferSlack { q.append(("transferSlack", String(p.transferSlack))) }
        if p.maxTransfers != d.maxTransfers { q.append(("maxTransfers", String(p.maxTransfers))) }
        let answer = try get("/v1/plan", q)
        // The server's own additions (feed versions) are part of its answer, as --json shows.
        return .remote(answer.body)
    }

    /// The zone of the feed serving `place`, as in process; this machine's when the
    /// server does not say (an older server).
    func timeZone(near place: Place) throws -> TimeZone {
        try feed(serving: place)?.timeZone ?? feeds.first?.timeZone ?? TimeZone.current
    }

    func period(near place: Place) throws -> (first: ServiceDate, last: ServiceDate)? {
        if let p = try feed(serving: place)?.period { return p }
        let periods = feeds.compactMap(\.period)
        guard let first = periods.map(\.first).min(), let last = periods.map(\.last).max() else { return nil }
        return (first, last)
    }
}

/// The last trips planned (newest first), kept in `$XDG_STATE_HOME/transit/recent-trips.json`
/// (`~/.local/state/…`; `TRANSIT_STATE_DIR` instead when set). Only what the rider typed
/// and chose, on the rider's own machine; nothing is sent anywhere.
struct RecentTrips {
    struct Trip: Codable, Equatable {
        var fromName: String
        var from: String
        var toName: String
        var to: String
        /// The query as it was planned, for `--again` to show the same table: the time
        /// (ISO 8601 as the API reads it), arrive-by, and the options that shape the table.
        var time: String?
        var arriveBy: Bool?
        var window: Int?
        var numItineraries: Int?
        var modes: String?
        var wheelchair: Bool?

        /// Keeps `request`'s time and options beside the places, for `--again`.
        mutating func remember(_ request: PlanRequest) {
            time = request.time.iso8601; arriveBy = request.arriveBy; window = request.window
            numItineraries = request.numItineraries; modes = request.modes; wheelchair = request.wheelchair
        }

        /// The way back: the destination to the start (the query is planned anew).
        var reversed: Trip { Trip(fromName: toName, from: to, toName: fromName, to: from) }

        /// The same two places (whatever the time): one entry in the list.
        func samePlaces(_ other: Trip) -> Bool { from == other.from && to == other.to && fromName == other.fromName && toName == other.toName }
    }

    static let kept = 10
    let url: URL

    init() {
        let env = ProcessInfo.processInfo.environment
        let dir: URL
        if let d = env["TRANSIT_STATE_DIR"], !d.isEmpty { dir = URL(fileURLWithPath: d) } else if let x = env["XDG_STATE_HOME"], !x.isEmpty {
            dir = URL(fileURLWithPath: x).appendingPathComponent("transit")
        } else {
            dir = FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".local/state/transit")
        }
        url = dir.appendingPathComponent("recent-trips.json")
    }

    func load() -> [Trip] {
        guard let data = try? Data(contentsOf: url) else { return [] }
        return (try? JSONDecoder().decode([Trip].self, from: data)) ?? []
    }

    /// Puts `trip` first; a failure to write is not the rider's problem and is ignored.
    func save(_ trip: Trip) {
        let trips = [trip] + load().filter { !$0.samePlaces(trip) }
        try? FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        try? encoder.encode(Array(trips.prefix(Self.kept))).write(to: url, options: .atomic)
    }
}

/// Questions at the terminal.
enum Terminal {
    /// A numbered list and a prompt; the index chosen. Reads standard input; an empty
    /// answer takes the first, and a wrong one asks again (three times).
    static func choose(_ question: String, _ items: [String]) throws -> Int {
        print(question)
        for (i, item) in items.enumerated() { print("  \(i + 1). \(item)") }
        for _ in 0..<3 {
            print("Number (1–\(items.count), Enter for 1): ", terminator: "")
            fflush(nil)  // the prompt before reading
            guard let line = readLine() else { throw CLIError("no choice was made", code: "NO_CHOICE") }
            let t = line.trimmingCharacters(in: .whitespaces)
            if t.isEmpty { return 0 }
            if let n = Int(t), (1...items.count).contains(n) { return n - 1 }
            print("Please type a number from 1 to \(items.count).")
        }
        throw CLIError("no choice was made", code: "NO_CHOICE")
    }
}

extension QueryTime {
    /// ISO 8601 as the API reads it: local without an offset, an instant in UTC.
    var iso8601: String {
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        switch self {
        case .local(let y, let mo, let d, let h, let mi, let s): return "\(y)-\(two(mo))-\(two(d))T\(two(h)):\(two(mi)):\(two(s))"
        case .instant(let t):
            let day = ServiceDate(daysSinceEpoch: Int32((t - ((t % 86_400) + 86_400) % 86_400) / 86_400))
            let s = Int(((t % 86_400) + 86_400) % 86_400)
            let c = day.components
            return "\(c.year)-\(two(c.month))-\(two(c.day))T\(two(s / 3600)):\(two(s / 60 % 60)):\(two(s % 60))Z"
        }
    }
}
