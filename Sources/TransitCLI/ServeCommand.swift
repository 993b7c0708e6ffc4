import ArgumentParser
import Foundation
import Hummingbird
import Logging
import Server

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
            riders' places). SIGTERM or SIGINT: finishes the requests in flight, then exits.
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
    @OptionGroup var db: DatabaseOptions

    func validate() throws {
        try validatePlaces(places)
        guard (0...65_535).contains(port) else { throw ValidationError("--port \(port): allowed are 0 to 65535") }
        guard planBudget > 0 && planBudget <= 60 else { throw ValidationError("--plan-budget \(planBudget): allowed are more than 0 to 60 seconds") }
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
        Reloader(url: url, live: live, feeds: feeds.isEmpty ? nil : feeds,
                 places: Dictionary(placeMap(places).map { ($0.feed, $0.place) }, uniquingKeysWith: { $1 }), logger: logger).start()
        let api = TransitAPI(live: live, planBudget: planBudget, logger: logger)
        let host = self.host
        let app = Application(
            router: api.router(),
            configuration: .init(address: .hostname(host, port: port), serverName: nil),
            onServerRunning: { channel in
                // Tests and scripts read this line for the port.
                Output.err("listening on http://\(host):\(channel.localAddress?.port ?? 0)")
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
