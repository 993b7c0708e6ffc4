import ArgumentParser
import Follow
import Foundation
import Hummingbird
import Logging
import NIOCore
import GTFSRealtime
import Server
import TransitStore

struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve the JSON routing API over the feeds in the database.",
        discussion: """
            Endpoints: /v1/plan, /v1/coverage, /v1/coverage/FEED.geojson, /v1/stops, \
            /v1/stops/ID, /v1/health, /openapi.json. Loads the timetable from PostgreSQL and \
            picks up new feed versions without a restart: imports NOTIFY, the server builds \
            the new timetable beside the old one and swaps it in. Starts answering (503 and \
            /v1/health) at once; if the database is down it says so and keeps trying. Logs \
            one line per request (path, status, latency; never the query string, which holds \
            riders' places). SIGTERM or SIGINT: finishes the requests in flight, then exits. \
            Plan requests are limited per client address (--plan-rate, --plan-burst; over \
            the limit: 429 with Retry-After); a request takes no body, headers are limited \
            to 32 KB, and idle connections are closed after --idle-timeout. Browsers: \
            pages of the --cors-origin origins may read the answers (none by default); \
            OPTIONS preflights get 204.
            """
    )

    @Option(help: "Address to listen on (default: loopback only).") var host = "127.0.0.1"
    @Option(help: "Port to listen on; 0 picks a free one (the log says which).") var port = 8080
    @Option(name: .customLong("feed"), help: ArgumentHelp("Serve only these feeds (repeatable; default: all).", valueName: "id"))
    var feeds: [String] = []
    @Option(name: .customLong("place"), help: ArgumentHelp("The place a feed serves, as FEED=NAME (repeatable), over the database's.", valueName: "feed=name"))
    var places: [String] = []
    @Option(help: ArgumentHelp("Seconds a plan request may spend looking for alternatives.", valueName: "seconds"))
    var planBudget = 2.0
    // A rider planning a trip sends a few plans a minute; a page may send several at once,
    // and several riders may share one address (an office, a carrier's NAT). 2 a second
    // after a burst of 20 lets them through and keeps one client from taking more than a
    // sliver of the planning threads (a plan is ~2-5 ms of CPU on a city, up to
    // --plan-budget).
    @Option(help: ArgumentHelp("Plan requests per second per client address, after a burst (0: no limit).", valueName: "n"))
    var planRate = 2.0
    @Option(help: ArgumentHelp("Plan requests a client address may send at once before --plan-rate applies.", valueName: "n"))
    var planBurst = 20
    // Long enough for a client that keeps its connection between a rider's requests,
    // short enough that idle or trickling connections (slowloris) do not pile up.
    @Option(help: ArgumentHelp("Seconds before a connection with no request in progress is closed.", valueName: "seconds"))
    var idleTimeout = 30.0
    // None by default: see CORSPolicy (same-origin pages, apps and scripts need no CORS;
    // the operator names the pages that may read the answers from a browser).
    @Option(name: .customLong("cors-origin"), help: ArgumentHelp("A web origin whose pages may call the API from a browser, e.g. https://example.org (repeatable; * for any; default: none). OPTIONS preflights are answered on every path.", valueName: "origin"))
    var corsOrigins: [String] = []
    @Option(name: .customLong("realtime"), help: ArgumentHelp("A GTFS-Realtime source of a feed, as FEED=URL (TripUpdates, Alerts or VehiclePositions; polled) or FEED=FILE (read once, applied as of its own header time); repeatable.", valueName: "feed=url|file"))
    var realtime: [String] = []
    @Option(help: ArgumentHelp("Seconds between two fetches of a --realtime URL.", valueName: "seconds"))
    var realtimePoll = 30.0
    @Option(help: ArgumentHelp("Seconds a --realtime URL may take to answer.", valueName: "seconds"))
    var realtimeTimeout = 10.0
    @Option(help: ArgumentHelp("A fetched message older than this (by its header time) is not applied; the previous one stays.", valueName: "seconds"))
    var realtimeMaxAge = 600.0
    @Option(help: ArgumentHelp("Run the server's clock from this instant, optionally faster: START[xSPEED], e.g. 2026-03-03T17:40:00-08:00x60 (a replay of recorded realtime; default: the system clock).", valueName: "start[xspeed]"))
    var clock: String?
    @Option(help: ArgumentHelp("Followed-trip streams (/v1/trips/TOKEN/events) open at once, at most.", valueName: "n"))
    var maxStreams = 10_000
    @Option(help: ArgumentHelp("Followed-trip streams one client address may have open at once.", valueName: "n"))
    var maxStreamsPerClient = 16
    @Option(help: ArgumentHelp("A raster tile URL template for the page's map, e.g. https://tile.example.org/{z}/{x}/{y}.png (default: none; the network's own lines and stops are the background).", valueName: "url"))
    var tiles: String?
    @Option(name: .customLong("tiles-attribution"), help: ArgumentHelp("The credit line the tiles' provider asks for, shown on the map.", valueName: "text"))
    var tilesAttribution: String?
    @Option(help: ArgumentHelp("Where Leaflet's files are (Debian's libjs-leaflet).", valueName: "dir"))
    var leaflet = TripPage.defaultLeafletDirectory
    @Option(name: .customLong("image-dir"), help: ArgumentHelp("Where the built timetable's images are kept (mapped on start and on a new feed version instead of building from the database; written after a build): a folder, or none. Default: $TRANSIT_IMAGE_DIR, else ~/.cache/transit.", valueName: "dir"))
    var imageDir: String?

    @OptionGroup var db: DatabaseOptions

    func validate() throws {
        try FollowOptionsGroup.checkClock(clock)
        if let key = ProcessInfo.processInfo.environment["TRANSIT_TOKEN_SECRET"], key.utf8.count < 16 {
            throw ValidationError("TRANSIT_TOKEN_SECRET has \(key.utf8.count) bytes: a trip tokens' key needs at least 16")
        }
        if let tiles, !(tiles.hasPrefix("https://") || tiles.hasPrefix("http://")) || !tiles.contains("{z}") || !tiles.contains("{x}") || !tiles.contains("{y}") {
            throw ValidationError("--tiles \(tiles): give an http(s) URL template with {z}, {x} and {y}")
        }
        guard (1...1_000_000).contains(maxStreams) else { throw ValidationError("--max-streams \(maxStreams): allowed are 1 to 1000000") }
        guard (1...10_000).contains(maxStreamsPerClient) else { throw ValidationError("--max-streams-per-client \(maxStreamsPerClient): allowed are 1 to 10000") }
        for r in realtime {
            do { _ = try RealtimeSource.parse(r) } catch { throw ValidationError(error.description) }
        }
        guard realtimePoll >= 1 && realtimePoll <= 86_400 else { throw ValidationError("--realtime-poll \(realtimePoll): allowed are 1 to 86400 seconds") }
        guard realtimeTimeout >= 0.1 && realtimeTimeout <= 600 else { throw ValidationError("--realtime-timeout \(realtimeTimeout): allowed are 0.1 to 600 seconds") }
        guard realtimeMaxAge >= 1 else { throw ValidationError("--realtime-max-age \(realtimeMaxAge): allowed is 1 second or more") }
        try validatePlaces(places)
        guard (0...65_535).contains(port) else { throw ValidationError("--port \(port): allowed are 0 to 65535") }
        guard planBudget > 0 && planBudget <= 60 else { throw ValidationError("--plan-budget \(planBudget): allowed are more than 0 to 60 seconds") }
        guard planRate >= 0 && planRate <= 1_000_000 else { throw ValidationError("--plan-rate \(planRate): allowed are 0 (no limit) to 1000000 a second") }
        guard (1...1_000_000).contains(planBurst) else { throw ValidationError("--plan-burst \(planBurst): allowed are 1 to 1000000") }
        guard idleTimeout >= 0.1 && idleTimeout <= 3600 else { throw ValidationError("--idle-timeout \(idleTimeout): allowed are 0.1 to 3600 seconds") }
        for o in corsOrigins where o != "*" {
            // An origin is what a browser sends: scheme://host[:port], nothing after.
            guard let u = URL(string: o), let scheme = u.scheme, ["http", "https"].contains(scheme.lowercased()), u.host != nil,
                  u.path.isEmpty, u.query == nil, !o.hasSuffix("/") else {
                throw ValidationError("--cors-origin \(o) is not an origin such as https://example.org or http://localhost:3000 (no path, no trailing /), or *")
            }
        }
    }

    func run() async throws {
        let url: String
        do { url = try db.url() } catch let e as CLIError { Output.err("error: \(e.description)"); throw ExitCode.failure }
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = ProcessInfo.processInfo.environment["LOG_LEVEL"].flatMap { Logger.Level(rawValue: $0) } ?? .info
            return handler
        }
        let logger = Logger(label: "transit")
        let live = LiveTimetable()
        // Before the first timetable, so that it is served with its realtime state.
        var realtimeFeeds: RealtimeFeeds?
        if !realtime.isEmpty {
            let feeds = RealtimeFeeds(sources: realtime.compactMap { try? RealtimeSource.parse($0) }, live: live,
                                      pollSeconds: realtimePoll, timeoutSeconds: realtimeTimeout, maxAgeSeconds: realtimeMaxAge, logger: logger)
            var files: [Int: Result<RealtimeMessage, RealtimeSourceError>] = [:]
            for (i, s) in feeds.sources.enumerated() {
                if case .file(let path) = s.location { files[i] = readRealtimeFile(path) }
            }
            feeds.start(files: files)
            realtimeFeeds = feeds
        }
        Reloader(url: url, live: live, feeds: feeds.isEmpty ? nil : feeds,
                 places: Dictionary(placeMap(places).map { ($0.feed, $0.place) }, uniquingKeysWith: { $1 }),
                 images: ImageFolder.resolve(imageDir), logger: logger).start()
        let api = TransitAPI(live: live, planBudget: planBudget, planRate: planRate, planBurst: planBurst,
                             cors: CORSPolicy(origins: corsOrigins), realtime: realtimeFeeds,
                             clock: clock.flatMap(FollowClock.parse) ?? .system, tokenSecret: TerminalFollow.secret,
                             maxStreams: maxStreams, maxStreamsPerClient: maxStreamsPerClient,
                             page: TripPage(leafletDirectory: leaflet, tiles: tiles, tilesAttribution: tilesAttribution), logger: logger)
        if !api.page.hasLeaflet {
            Output.err("warning: Leaflet is not at \(leaflet) (Debian: apt-get install libjs-leaflet): the page at / works without its map")
        }
        let host = self.host
        // The API is GET with a query string of at most 4 KB: a request line or header of
        // 16 KB, 32 KB of headers or 100 of them is more than any client of it sends
        // (nginx allows 8 KB a line by default). Past these the request is refused with
        // 400 and the connection closed, before the server holds more of it.
        // (Written through the contextual types: HummingbirdCore is not a dependency of its own.)
        let idle = TimeAmount.nanoseconds(Int64(idleTimeout * 1e9))
        let app = Application(
            router: api.router(),
            server: .http1(configuration: .init(
                idleTimeout: idle,
                httpDecoderConfiguration: .init(maxHeaderFieldSize: 16 * 1024, maxHeaderListSize: 32 * 1024, maxHeaderFieldCount: 100))),
            configuration: .init(address: .hostname(host, port: port), serverName: nil),
            onServerRunning: { channel in
                // Tests and scripts read this line for the port.
                Output.err("listening on http://\(host):\(channel.localAddress?.port ?? 0)")
                Output.err("trip planner page: http://\(host):\(channel.localAddress?.port ?? 0)/")
            },
            logger: logger)
        do {
            try await app.runService(gracefulShutdownSignals: [.sigterm, .sigint])
        } catch {
            Output.err("error: cannot serve on \(host):\(port): \(error)")
            throw ExitCode.failure
        }
        Output.err("stopped")
    }
}

/// Reads a GTFS-Realtime message file: its bytes decoded, or a plain error naming the file.
func readRealtimeFile(_ path: String) -> Result<RealtimeMessage, RealtimeSourceError> {
    guard let data = FileManager.default.contents(atPath: path) else {
        return .failure(RealtimeSourceError("cannot read the realtime file \(path): no such file or not readable"))
    }
    do { return .success(try RealtimeMessage.decode([UInt8](data))) } catch {
        return .failure(RealtimeSourceError("\(path): \(error)"))
    }
}
