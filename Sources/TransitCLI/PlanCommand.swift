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

    @OptionGroup var db: DatabaseOptions

    func loadTimetable() throws -> Timetable {
        let started = Date()
        let snapshot: FeedSnapshot
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
        abstract: "Plan a trip: departure, arrival, rides and legs.",
        discussion: """
            Places are `lat,lon`, `stop:ID` or `stop:FEED:ID`. Times are ISO 8601: \
            2020-04-20T08:30:00 is local time where the trip starts; add Z or +02:00 for an \
            instant. With --batch, reads one JSON query per line and prints one JSON answer \
            per line, in order: {"from", "to", "time", "arriveBy", and any model parameter \
            by name}.
            """
    )

    @Argument(help: "From: lat,lon or stop:ID.") var from: String?
    @Argument(help: "To: lat,lon or stop:ID.") var to: String?
    @Option(name: .customLong("at"), help: "When (ISO 8601); departure time, or arrival with --arrive-by.") var at: String?
    @Flag(name: .customLong("arrive-by"), help: "Arrive by --at instead of leaving at it.") var arriveBy = false
    @Option(help: "Every best journey departing within this many minutes after --at (a range query).") var window: Int?
    @Option(help: ArgumentHelp("Answer JSON queries from this file, one per line (- for standard input).", valueName: "file")) var batch: String?
    @Flag(help: "Print the answer as JSON.") var json = false
    @OptionGroup var model: ModelOptions
    @OptionGroup var source: TimetableSourceOptions

    func validate() throws {
        if batch == nil {
            guard let from, let to else { throw ValidationError("give FROM and TO (lat,lon or stop:ID), or --batch FILE") }
            if Place.parse(from) == nil { throw ValidationError("FROM \"\(from)\" is neither lat,lon nor stop:ID") }
            if Place.parse(to) == nil { throw ValidationError("TO \"\(to)\" is neither lat,lon nor stop:ID") }
            guard let at else { throw ValidationError("give the time with --at, e.g. --at 2020-04-20T08:30:00") }
            if QueryTime.parse(at) == nil { throw ValidationError("--at \"\(at)\" is not an ISO 8601 time such as 2020-04-20T08:30:00") }
        }
        do { try model.parameters.validate() } catch { throw ValidationError(error.description) }
    }

    func run() throws {
        try runReportingErrors {
            let planner = JourneyPlanner(timetable: try source.loadTimetable())
            if let batch { return try runBatch(planner, batch) }
            let query = PlanQuery(from: Place.parse(from!)!, to: Place.parse(to!)!, time: QueryTime.parse(at!)!,
                                  arriveBy: arriveBy, parameters: model.parameters, window: window.map { $0 * 60 })
            do {
                let result = try planner.plan(query)
                if json { print(PlanJSON.answer(result, planner)) } else { PlanText.print(result, planner) }
            } catch let e as PlanError {
                if json { print(PlanJSON.error(e)) ; throw ExitCode.failure }
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
            do { out = PlanJSON.answer(try planner.plan(PlanJSON.query(line)), planner) }
            catch let e as PlanError { out = PlanJSON.error(e) }
            catch { out = PlanJSON.error(PlanError("BAD_QUERY", "\(error)")) }
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

/// ISO 8601 with the offset of a time zone at that instant.
enum ISOTime {
    static func format(_ t: Int64, _ zone: TimeZone) -> String {
        let local = JourneyPlanner.localSeconds(t, zone)
        let offset = Int(local - t)
        let days = Int32((local - ((local % 86_400) + 86_400) % 86_400) / 86_400)
        let secs = Int(local - Int64(days) * 86_400)
        let (y, m, d) = ServiceDate(daysSinceEpoch: days).components
        func two(_ v: Int) -> String { v < 10 ? "0\(v)" : "\(v)" }
        let sign = offset < 0 ? "-" : "+"
        let o = abs(offset)
        return "\(y)-\(two(m))-\(two(d))T\(two(secs / 3600)):\(two(secs / 60 % 60)):\(two(secs % 60))\(sign)\(two(o / 3600)):\(two(o / 60 % 60))"
    }
}

/// The plain answer: each journey's departure, arrival and rides, then its steps: the
/// itinerary's instruction sentences (the same legs the map is drawn from).
enum PlanText {
    static func print(_ r: PlanResult, _ planner: JourneyPlanner) {
        let zone = TimeZone(identifier: r.timeZone)!
        func clock(_ t: Int64) -> String { String(ISOTime.format(t, zone).dropFirst(11).prefix(5)) }
        if r.journeys.isEmpty {
            Swift.print("No journey found between these places at that time (\(r.timeZone)).")
            return
        }
        for (i, j) in r.journeys.enumerated() {
            let it = planner.itinerary(j, in: r)
            let minutes = (j.arrival - j.departure + 59) / 60
            let modes = it.summary.modes.map(\.noun).joined(separator: ", ")
            Swift.print("\(i + 1). \(clock(j.departure)) → \(clock(j.arrival))  \(minutes) min, "
                        + (j.rides == 0 ? "walk only" : "\(j.rides) ride\(j.rides == 1 ? "" : "s") (\(modes))")
                        + (j.rides > 0 && it.summary.walkMeters >= 1 ? ", walk \(Int(it.summary.walkMeters.rounded())) m" : ""))
            for leg in it.legs { Swift.print("   \(clock(leg.departure))  \(leg.instruction)") }
        }
    }
}

/// The batch and --json shapes.
enum PlanJSON {
    struct Query: Decodable {
        var from: String
        var to: String
        var time: String
        var arriveBy: Bool?
        /// Minutes.
        var window: Int?
        var walkSpeed: Double?, walkDetourFactor: Double?, maxAccessWalk: Double?, maxTransferWalk: Double?
        var maxDirectWalk: Double?, transferSlack: Int?, maxTransfers: Int?
    }

    static func query(_ line: Data) throws -> PlanQuery {
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
        return PlanQuery(from: from, to: to, time: time, arriveBy: q.arriveBy ?? false, parameters: p, window: q.window.map { $0 * 60 })
    }

    static func error(_ e: PlanError) -> String {
        encode(["journeys": [Any](), "error": ["code": e.code, "message": e.message]])
    }

    /// Each journey as its itinerary: summary, legs (the steps) and the map drawn from the
    /// same legs. The shape the HTTP API will serve.
    static func answer(_ r: PlanResult, _ planner: JourneyPlanner) -> String {
        let zone = TimeZone(identifier: r.timeZone)!
        func iso(_ t: Int64) -> String { ISOTime.format(t, zone) }
        func place(_ p: ItineraryPlace) -> [String: Any] {
            var out: [String: Any] = ["name": p.name, "lat": p.coordinate.latitude, "lon": p.coordinate.longitude]
            if let id = p.stopId { out["stopId"] = id }
            if let feed = p.feed { out["feed"] = feed }
            if let platform = p.platformCode { out["platformCode"] = platform }
            return out
        }
        let journeys: [[String: Any]] = r.journeys.map { j in
            let it = planner.itinerary(j, in: r)
            let legs: [[String: Any]] = it.legs.map { leg in
                var out: [String: Any] = [
                    "mode": leg.mode.rawValue, "from": place(leg.from), "to": place(leg.to),
                    "departure": iso(leg.departure), "arrival": iso(leg.arrival), "durationSeconds": leg.durationSeconds,
                    "distanceMeters": (leg.distanceMeters * 10).rounded() / 10, "instruction": leg.instruction,
                ]
                if leg.mode == .walk && leg.from.stopId != nil && leg.to.stopId != nil {
                    out["change"] = true
                    out["waitSeconds"] = leg.waitSeconds
                }
                if let ride = leg.ride {
                    out["agency"] = ride.agency
                    out["routeId"] = ride.routeId
                    out["route"] = ride.routeShortName ?? ride.routeLongName ?? ride.routeId
                    if let v = ride.routeShortName { out["routeShortName"] = v }
                    if let v = ride.routeLongName { out["routeLongName"] = v }
                    if let v = ride.routeColor { out["routeColor"] = v }
                    if let v = ride.routeTextColor { out["routeTextColor"] = v }
                    if let v = ride.headsign { out["headsign"] = v }
                    out["trip"] = ride.tripId
                    out["serviceDate"] = ride.serviceDate.iso8601
                    out["intermediateStops"] = ride.intermediateStops.map { stop -> [String: Any] in
                        var s = place(stop.place)
                        s["arrival"] = iso(stop.arrival)
                        s["departure"] = iso(stop.departure)
                        return s
                    }
                }
                return out
            }
            let summary: [String: Any] = [
                "durationSeconds": it.summary.durationSeconds, "walkMeters": it.summary.walkMeters.rounded(),
                "walkSeconds": it.summary.walkSeconds, "rides": it.summary.rides, "changes": it.summary.changes,
                "waitingSeconds": it.summary.waitingSeconds, "modes": it.summary.modes.map(\.rawValue),
            ]
            return ["departure": iso(j.departure), "arrival": iso(j.arrival), "rides": j.rides,
                    "summary": summary, "legs": legs, "map": ItineraryMap(it).geoJSON]
        }
        return encode(["journeys": journeys, "error": NSNull()])
    }

    static func encode(_ object: [String: Any]) -> String {
        guard let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes]) else { return "{}" }
        return String(decoding: data, as: UTF8.self)
    }
}
