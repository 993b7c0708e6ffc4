import ArgumentParser
import Foundation
import GTFS
import Geo
import Planner
import Raptor
import Timetable
import TransitModel
import TransitStore

/// The routing model's parameters as command-line options.
struct ModelOptions: ParsableArguments {
    @Option(help: "Walking speed in meters per second (default 1.33).") var walkSpeed: Double?
    @Option(help: "Walked distance / beeline distance (default 1.3).") var walkDetourFactor: Double?
    @Option(help: "Largest walk to the first and from the last stop, meters (default 1000).") var maxAccessWalk: Double?
    @Option(help: "Largest walk between two stops, meters (default 500).") var maxTransferWalk: Double?
    @Option(help: "Largest walk-only trip, meters (default 2000).") var maxDirectWalk: Double?
    @Option(help: "Seconds added to every change (default 120).") var transferSlack: Int?
    @Option(help: "Most changes between vehicles (default 6).") var maxTransfers: Int?

    var parameters: RoutingParameters {
        var p = RoutingParameters()
        if let walkSpeed { p.walkSpeed = walkSpeed }
        if let walkDetourFactor { p.walkDetourFactor = walkDetourFactor }
        if let maxAccessWalk { p.maxAccessWalk = maxAccessWalk }
        if let maxTransferWalk { p.maxTransferWalk = maxTransferWalk }
        if let maxDirectWalk { p.maxDirectWalk = maxDirectWalk }
        if let transferSlack { p.transferSlack = transferSlack }
        if let maxTransfers { p.maxTransfers = maxTransfers }
        return p
    }
}

/// Where the timetable comes from: the database (default) or feed files.
struct TimetableSourceOptions: ParsableArguments {
    @Option(name: .customLong("gtfs"), help: ArgumentHelp("Build the timetable from this GTFS .zip or folder instead of the database (repeatable).", valueName: "feed"))
    var gtfs: [String] = []

    @Option(name: .customLong("feed"), help: ArgumentHelp("Use only these loaded feeds (repeatable; default: all).", valueName: "id"))
    var feeds: [String] = []

    @Option(name: .customLong("place"), help: ArgumentHelp("The place a feed serves, as FEED=NAME (repeatable): what `transit import --place` declares, for feeds read with --gtfs or to override the database's.", valueName: "feed=name"))
    var places: [String] = []

    @OptionGroup var db: DatabaseOptions

    func validate() throws { try validatePlaces(places) }

    /// `--place FEED=NAME` put into the snapshot; a feed not loaded is an error.
    private func declarePlaces(_ snapshot: inout FeedSnapshot) throws {
        for (id, name) in placeMap(places) {
            guard let f = snapshot.feedIds.firstIndex(of: id) else {
                throw CLIError("--place names feed \"\(id)\", which is not loaded; loaded feeds: \(snapshot.feedIds.joined(separator: ", "))")
            }
            snapshot.setPlace(name, feed: f)
        }
    }

    func loadTimetable() throws -> Timetable {
        let started = Date()
        var snapshot: FeedSnapshot
        if !gtfs.isEmpty {
            var parts: [FeedSnapshot] = []
            for path in gtfs {
                do { parts.append(try SnapshotSink.load(path: path, feedId: FeedImporter.defaultFeedId(for: path)).0) }
                catch let e as GTFSFatalError { throw CLIError("cannot read \(path): \(e.description)") }
            }
            snapshot = FeedSnapshot.merging(parts)
        } else {
            snapshot = try SnapshotLoader(db: db.connect()).load(feeds: feeds.isEmpty ? nil : feeds)
            if snapshot.feedIds.isEmpty {
                throw CLIError("no feeds are loaded: import one first (transit import FEED.zip), or pass --gtfs FEED.zip")
            }
        }
        try declarePlaces(&snapshot)
        let tt: Timetable
        do { tt = try TimetableBuilder.build(snapshot) } catch { throw CLIError("cannot build the timetable: \(error)") }
        if Output.stderrIsTerminal || ProcessInfo.processInfo.environment["TRANSIT_VERBOSE"] != nil {
            Output.err("Timetable: \(snapshot.feedIds.joined(separator: ", ")): \(Output.grouped(snapshot.stopTimeCount)) stop times, \(Output.grouped(tt.tripCount)) trips in \(Output.grouped(tt.routeCount)) routes, loaded in \(Output.seconds(Date().timeIntervalSince(started)))")
        }
        for w in tt.warnings { Output.err("note: \(w)") }
        return tt
    }
}

struct PlanCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "plan",
        abstract: "Plan a trip: alternatives to compare, and the steps to follow.",
        discussion: """
            Places are `lat,lon`, `stop:ID` or `stop:FEED:ID`. Times are ISO 8601: \
            2020-04-20T08:30:00 is local time where the trip starts; add Z or +02:00 for an \
            instant; without --at, now. Prints the alternatives (the best at that time and \
            the next departures within --window), then the steps of the earliest arrival. \
            With --batch, reads one JSON query per line and prints one JSON answer per line, \
            in order: {"from", "to", "time", "arriveBy", "window", "numItineraries", "modes", \
            "wheelchair", and any model parameter by name}.
            """
    )

    @Argument(help: "From: lat,lon or stop:ID.") var from: String?
    @Argument(help: "To: lat,lon or stop:ID.") var to: String?
    @Option(name: .customLong("at"), help: "When (ISO 8601); departure time, or arrival with --arrive-by (default: now).") var at: String?
    @Flag(name: .customLong("arrive-by"), help: "Arrive by --at instead of leaving at it.") var arriveBy = false
    @Option(help: "Also offer departures this many minutes after --at (arrive-by: arrivals before it); 0 for none (default 60).")
    var window: Int?
    @Option(name: .customLong("num"), help: "At most this many itineraries (1 to 20, default 5).") var numItineraries = JourneyPlanner.defaultItineraries
    @Option(help: "Only these transit modes (e.g. TRAM,SUBWAY), or all but these (--modes=-BUS).") var modes: String?
    @Flag(help: "Only stops and trips marked wheelchair accessible.") var wheelchair = false
    @Option(help: ArgumentHelp("Answer JSON queries from this file, one per line (- for standard input).", valueName: "file")) var batch: String?
    @Flag(help: "Print the answer as JSON.") var json = false
    @OptionGroup var model: ModelOptions
    @OptionGroup var source: TimetableSourceOptions

    func validate() throws {
        if batch == nil {
            guard let from, let to else { throw ValidationError("give FROM and TO (lat,lon or stop:ID), or --batch FILE") }
            if Place.parse(from) == nil { throw ValidationError("FROM \"\(from)\" is neither lat,lon nor stop:ID") }
            if Place.parse(to) == nil { throw ValidationError("TO \"\(to)\" is neither lat,lon nor stop:ID") }
            if let at, QueryTime.parse(at) == nil { throw ValidationError("--at \"\(at)\" is not an ISO 8601 time such as 2020-04-20T08:30:00") }
        }
        if let modes { do { _ = try ModeFilter.parse(modes) } catch { throw ValidationError(error.message) } }
        if !(1...JourneyPlanner.maxItineraries).contains(numItineraries) {
            throw ValidationError("--num \(numItineraries): allowed are 1 to \(JourneyPlanner.maxItineraries)")
        }
        if let window, !(0...1440).contains(window) { throw ValidationError("--window \(window): allowed are 0 to 1440 minutes") }
        do { try model.parameters.validate() } catch { throw ValidationError(error.description) }
    }

    func run() throws {
        try runReportingErrors {
            let planner = JourneyPlanner(timetable: try source.loadTimetable())
            if let batch { return try runBatch(planner, batch) }
            let time = at.flatMap(QueryTime.parse) ?? .instant(Int64(Date().timeIntervalSince1970))
            let query = PlanQuery(from: Place.parse(from!)!, to: Place.parse(to!)!, time: time, arriveBy: arriveBy,
                                  parameters: model.parameters, window: window.map { $0 * 60 },
                                  modes: try modes.map { m throws(PlanError) in try ModeFilter.parse(m) }, wheelchair: wheelchair)
            do {
                let answer = try planner.answer(query, numItineraries: numItineraries)
                if json { print(PlanAnswerJSON.answer(answer)) } else { print(PlanAnswerText.render(answer, query), terminator: "") }
            } catch let e as PlanError {
                if json { print(PlanAnswerJSON.encode(PlanAnswerJSON.error(e))); throw ExitCode.failure }
                throw CLIError(e.message)
            }
        }
    }

    private func runBatch(_ planner: JourneyPlanner, _ path: String) throws {
        let handle: FileHandle
        if path == "-" { handle = .standardInput } else {
            guard let h = FileHandle(forReadingAtPath: path) else { throw CLIError("cannot open \(path)") }
            handle = h
        }
        var buffer = Data()
        func answer(_ line: Data) {
            guard !line.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) else { return }
            let out: String
            do throws(PlanError) {
                let (query, n) = try PlanBatch.query(line)
                out = PlanAnswerJSON.answer(try planner.answer(query, numItineraries: n))
            } catch { out = PlanAnswerJSON.encode(PlanAnswerJSON.error(error)) }
            FileHandle.standardOutput.write(Data((out + "\n").utf8))
        }
        while true {
            let chunk = handle.availableData
            if chunk.isEmpty { break }
            buffer.append(chunk)
            while let nl = buffer.firstIndex(of: 0x0A) {
                answer(buffer[buffer.startIndex..<nl])
                buffer.removeSubrange(buffer.startIndex...nl)
            }
        }
        if !buffer.isEmpty { answer(buffer) }
    }
}

/// One `--batch` line: a JSON query.
enum PlanBatch {
    struct Query: Decodable {
        var from: String
        var to: String
        var time: String
        var arriveBy: Bool?
        /// Minutes.
        var window: Int?
        var numItineraries: Int?
        var modes: String?
        var wheelchair: Bool?
        var walkSpeed: Double?, walkDetourFactor: Double?, maxAccessWalk: Double?, maxTransferWalk: Double?
        var maxDirectWalk: Double?, transferSlack: Int?, maxTransfers: Int?
    }

    static func query(_ line: Data) throws(PlanError) -> (PlanQuery, Int) {
        let q: Query
        do { q = try JSONDecoder().decode(Query.self, from: line) } catch {
            throw PlanError("BAD_QUERY", "not a JSON query with from, to and time: \(error)")
        }
        guard let from = Place.parse(q.from) else { throw PlanError("BAD_PARAMETER", "from \"\(q.from)\" is neither lat,lon nor stop:ID") }
        guard let to = Place.parse(q.to) else { throw PlanError("BAD_PARAMETER", "to \"\(q.to)\" is neither lat,lon nor stop:ID") }
        guard let time = QueryTime.parse(q.time) else { throw PlanError("BAD_PARAMETER", "time \"\(q.time)\" is not ISO 8601 such as 2020-04-20T08:30:00") }
        var p = RoutingParameters()
        if let v = q.walkSpeed { p.walkSpeed = v }
        if let v = q.walkDetourFactor { p.walkDetourFactor = v }
        if let v = q.maxAccessWalk { p.maxAccessWalk = v }
        if let v = q.maxTransferWalk { p.maxTransferWalk = v }
        if let v = q.maxDirectWalk { p.maxDirectWalk = v }
        if let v = q.transferSlack { p.transferSlack = v }
        if let v = q.maxTransfers { p.maxTransfers = v }
        if let w = q.window, !(0...1440).contains(w) {
            throw PlanError("BAD_PARAMETER", "window is \(w) min: allowed are 0 to 1440 minutes", details: ["parameter": .text("window")])
        }
        let modes = try q.modes.map { m throws(PlanError) in try ModeFilter.parse(m) }
        return (PlanQuery(from: from, to: to, time: time, arriveBy: q.arriveBy ?? false, parameters: p, window: q.window.map { $0 * 60 },
                          modes: modes, wheelchair: q.wheelchair ?? false),
                q.numItineraries ?? JourneyPlanner.defaultItineraries)
    }
}
