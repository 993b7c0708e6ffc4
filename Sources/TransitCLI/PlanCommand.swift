import ArgumentParser
import Coverage
import FeedNetwork
import Follow
import Foundation
import Geo
import GTFS
import PlanJSON
import Planner
import PlanText
import Raptor
import Realtime
import GTFSRealtime
import Server
import Streets
import Timetable
import TransitModel
import TransitStore

/// The routing model's parameters as command-line options.
struct ModelOptions: ParsableArguments {
    @Option(help: ArgumentHelp(RoutingParameters.Spec.walkSpeed.help)) var walkSpeed: Double?
    @Option(help: ArgumentHelp(RoutingParameters.Spec.walkDetourFactor.help)) var walkDetourFactor: Double?
    @Option(help: ArgumentHelp(RoutingParameters.Spec.maxAccessWalk.help)) var maxAccessWalk: Double?
    @Option(help: ArgumentHelp(RoutingParameters.Spec.maxTransferWalk.help)) var maxTransferWalk: Double?
    @Option(help: ArgumentHelp(RoutingParameters.Spec.maxDirectWalk.help)) var maxDirectWalk: Double?
    @Option(help: ArgumentHelp(RoutingParameters.Spec.transferSlack.help)) var transferSlack: Int?
    @Option(help: ArgumentHelp(RoutingParameters.Spec.maxTransfers.help)) var maxTransfers: Int?

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

    @Option(name: .customLong("realtime"), help: ArgumentHelp("A GTFS-Realtime message file of a feed, as FEED=FILE (repeatable; a feed's TripUpdates and Alerts files make one message): its TripUpdates applied as of its own header time, its alerts shown on the rides they name. With --gtfs, a feed's id is its file's name without extension (--gtfs ct.zip --realtime ct=updates.pb).", valueName: "feed=file"))
    var realtime: [String] = []

    @Option(name: .customLong("image-dir"), help: ArgumentHelp("Where the built timetable's images are kept (read on start instead of building from the database; written after a build): a folder, or none. Default: $TRANSIT_IMAGE_DIR, else ~/.cache/transit.", valueName: "dir"))
    var imageDir: String?

    @OptionGroup var db: DatabaseOptions

    func validate() throws {
        try validatePlaces(places)
        for r in realtime {
            let source: RealtimeSource
            do { source = try RealtimeSource.parse(r) } catch { throw ValidationError(error.description) }
            if case .url = source.location {
                throw ValidationError("--realtime \(source.feedId)=: `transit plan` reads files; URLs are polled by `transit serve --realtime`")
            }
        }
    }

    /// `--realtime FEED=FILE`: the files read and applied to `network` (nil: none given).
    /// A file that cannot be read, or names a feed not loaded, is an error.
    func realtimeState(_ network: TransitNetwork) throws -> RealtimeState? {
        guard !realtime.isEmpty else { return nil }
        var byFeed: [String: [RealtimeMessage]] = [:]
        for r in realtime {
            guard let source = try? RealtimeSource.parse(r), case .file(let path) = source.location else { continue }
            guard network.snapshot.feedIds.contains(source.feedId) else {
                throw CLIError("--realtime names feed \"\(source.feedId)\", which is not loaded; loaded feeds: \(network.snapshot.feedIds.joined(separator: ", "))")
            }
            switch readRealtimeFile(path) {
            case .success(let m):
                // A feed's TripUpdates and Alerts files make one message.
                byFeed[source.feedId, default: []].append(m)
            case .failure(let e): throw CLIError(e.description)
            }
        }
        let state = RealtimeState.build(network: network, messages: byFeed.compactMapValues(RealtimeMessage.merging))
        for r in state.reports {
            let rejected = r.rejected.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }.joined(separator: ", ")
            Output.progressDone("Realtime: \(r.feedId): \(r.applied) of \(r.tripUpdates) trip updates applied\(rejected.isEmpty ? "" : " (not applied: \(rejected))")")
        }
        return state
    }

    /// `--place FEED=NAME` put into the snapshot; a feed not loaded is an error.
    private func declarePlaces(_ snapshot: inout FeedSnapshot) throws {
        for (id, name) in placeMap(places) { snapshot.setPlace(name, feed: try placeFeed(id, snapshot.feedIds)) }
    }

    /// The index among `loaded` of the feed a `--place` names, or the error that it is not loaded.
    private func placeFeed(_ id: String, _ loaded: [String]) throws -> Int {
        guard let f = loaded.firstIndex(of: id) else {
            throw CLIError("--place names feed \"\(id)\", which is not loaded; loaded feeds: \(loaded.joined(separator: ", "))")
        }
        return f
    }

    /// The timetable, its planner and stop search (`PlannerAssembly`, as the server builds them).
    func load() throws -> PlannerAssembly {
        let network = try loadNetwork(streets: true)
        // The planner works out its coverage check and the stop search's index: a moment
        // on a large timetable, said while it lasts (and gone after).
        Output.progress("Planner: working out where the feeds serve and indexing stop names…")
        let assembly = PlannerAssembly.assemble(network)
        Output.progress("")
        return assembly
    }

    /// The timetable and what is beside it, from the database or the feed files; with
    /// `streets`, the streets loaded in the database (`transit import-osm`) to walk along
    /// (none with feed files).
    func loadNetwork(streets: Bool = false) throws -> TransitNetwork {
        let started = Date()
        var snapshot: FeedSnapshot
        if !gtfs.isEmpty {
            var parts: [FeedSnapshot] = []
            for path in gtfs {
                Output.progress("Timetable: reading \(path)…")
                do { parts.append(try SnapshotSink.load(path: path, feedId: FeedImporter.defaultFeedId(for: path)).0) }
                catch let e as GTFSFatalError { throw CLIError("cannot read \(path): \(e.description)") }
            }
            snapshot = FeedSnapshot.merging(parts)
        } else {
            Output.progress("Timetable: loading \(feeds.isEmpty ? "the feeds" : feeds.joined(separator: ", "))\(streets ? " and the streets" : "") from the database…")
            let connection = try db.connect()
            let withStreets = try streets && !StreetStore(db: connection).versions().isEmpty
            // The image of this timetable when there is a current one (`NetworkImage`), else
            // the feeds (and the streets, their graph built beside them) read and built.
            let loaded: NetworkLoad.Loaded
            do {
                loaded = try NetworkLoad.load(db: connection, feeds: feeds.isEmpty ? nil : feeds, streets: withStreets,
                                              places: Dictionary(placeMap(places).map { ($0.feed, $0.place) }, uniquingKeysWith: { $1 }),
                                              images: ImageFolder.resolve(imageDir))
            } catch let e as TimetableError {
                Output.progress("")
                throw CLIError("cannot build the timetable: \(e)")
            }
            let network = loaded.network
            if network.snapshot.feedIds.isEmpty {
                throw CLIError("no feeds are loaded: import one first (transit import FEED.zip), or pass --gtfs FEED.zip")
            }
            // The places were declared by the load; one naming a feed not loaded is an error.
            for (id, _) in placeMap(places) { _ = try placeFeed(id, network.snapshot.feedIds) }
            switch loaded.origin {
            case .image: report(network, how: "loaded from its image", started: started)
            case .built(_, let note): report(network, how: "loaded" + (note.map { " (image: \($0))" } ?? ""), started: started)
            }
            return network
        }
        try declarePlaces(&snapshot)
        let network: TransitNetwork
        Output.progress("Timetable: \(snapshot.feedIds.joined(separator: ", ")): building from \(Output.grouped(snapshot.stopTimeCount)) stop times…")
        do { network = try TimetableBuilder.build(snapshot, graph: nil) } catch {  // feed files: no streets
            Output.progress("")
            throw CLIError("cannot build the timetable: \(error)")
        }
        report(network, how: "loaded", started: started)
        return network
    }

    /// The lines that say what was loaded, how and how fast, then the build's notes.
    private func report(_ network: TransitNetwork, how: String, started: Date) {
        let tt = network.timetable
        Output.progressDone("Timetable: \(network.snapshot.feedIds.joined(separator: ", ")): \(Output.grouped(network.stopSequences.stopTimeCount)) stop times, \(Output.grouped(tt.tripCount)) trips in \(Output.grouped(tt.routeCount)) routes, \(how) in \(Output.seconds(Date().timeIntervalSince(started)))")
        if let graph = network.streets {
            let regions = graph.versions.sorted { $0.key < $1.key }.map { "\($0.key) v\($0.value)" }.joined(separator: ", ")
            Output.progressDone("Streets: \(regions): \(Output.grouped(graph.edgeCount)) edges")
        }
        for w in network.warnings { Output.err("note: \(w)") }
    }
}

struct PlanCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "plan",
        abstract: "Plan a trip: alternatives to compare, and the steps to follow.",
        discussion: """
            Places are stop names (forgiving case, accents and small typos; when a name \
            fits several places, a terminal offers a numbered list, otherwise the error \
            lists them), `lat,lon`, `stop:ID` or `stop:FEED:ID`. Times: 8:30, 5:45pm, \
            "tomorrow 17:45", "monday 9:00", now, or ISO 8601 (2020-04-20T08:30; add Z or \
            +02:00 for an instant). A time without a date is on the dates of the timetable \
            that serves the start: when today is outside them, the same weekday at their \
            nearest end (the answer says so). Prints the alternatives, then the numbered \
            steps of one (--option N), wrapped to the terminal's width (80 columns, or \
            $COLUMNS, when not a terminal). Without places: the recent trips to pick from. \
            --again shows the last trip again as it was planned, at the same time and with \
            the same options, so that `--again --option 2` gives the steps of option 2 of \
            the table just seen (--at or --arrive-by plan it at another time). --back plans \
            the last trip's way back, from now (or --at, --arrive-by). With --server URL, \
            asks a running `transit serve` instead of the database: the same output. With \
            --json, the API's answer, and every error as its {"error": {"code", "message", \
            "details"}} on standard output and a failing status. With --batch, reads one JSON query per \
            line and prints one JSON answer per line, in order: {"from", "to", "time", \
            "arriveBy", "window", "numItineraries", "modes", "wheelchair", "streets", and any model \
            parameter by name}.
            """
    )

    @Argument(help: "From: a stop name, lat,lon or stop:ID.") var from: String?
    @Argument(help: "To: a stop name, lat,lon or stop:ID.") var to: String?
    @Option(name: .customLong("at"), help: ArgumentHelp("Leave at this time (default: now).", valueName: "time")) var at: String?
    @Option(name: .customLong("arrive-by"), help: ArgumentHelp("Arrive by this time instead.", valueName: "time")) var arriveBy: String?
    @Option(help: ArgumentHelp(PlanRequestParameters.window.help)) var window: Int?
    @Option(name: .customLong("num"), help: ArgumentHelp(PlanRequestParameters.numItineraries.help))
    var numItineraries: Int?
    @Option(help: "Only these transit modes (e.g. TRAM,SUBWAY), or all but these (--modes=-BUS).") var modes: String?
    @Flag(help: "Only stops and trips marked wheelchair accessible.") var wheelchair = false
    @Flag(name: .customLong("no-streets"), help: "Walk beelines (× walkDetourFactor) even where streets are loaded.") var noStreets = false
    @Option(name: .customLong("option"), help: ArgumentHelp("Show the steps of alternative N (default: the first, the earliest arrival).", valueName: "n"))
    var option: Int?
    @Flag(help: "Print the API's answer (JSON) instead of the text; errors too, as the API's error object.") var json = false
    @Option(help: ArgumentHelp("The language of the answer: en or zh-Hans (default: from LANG, else English).", valueName: "lang"))
    var lang: String?
    @Option(name: .customLong("map"), help: ArgumentHelp("Also draw the chosen itinerary over the network into this SVG file.", valueName: "file.svg"))
    var map: String?
    @Flag(help: "Show the last trip again as planned: same time, same options (--option N: another of its alternatives; --at: another time).")
    var again = false
    @Flag(help: "Plan the last trip's way back (its destination to its start), from now or --at.") var back = false
    @Option(name: .customLong("server"), help: ArgumentHelp("Ask this running `transit serve` (e.g. http://127.0.0.1:8080) instead of the database.", valueName: "url"))
    var server: String?
    @Option(help: ArgumentHelp("Answer JSON queries from this file, one per line (- for standard input).", valueName: "file")) var batch: String?
    @Flag(help: "Then follow the chosen itinerary: each delay, cancellation, alert and next boarding as a line, until arrival (in process on --realtime files, or through --server).")
    var follow = false
    @OptionGroup var following: FollowOptionsGroup
    @OptionGroup var model: ModelOptions
    @OptionGroup var source: TimetableSourceOptions

    /// The checks of the command line, run in `run` rather than in `validate` so that a
    /// mistake is told as every other error is: `error: …`, or with `--json` the API's
    /// error object (the parser's own errors go through `Transit.reportUsageError`).
    func check() throws {
        try following.check()
        if follow && (json || batch != nil) { throw CLIError("--follow prints the trip as text: leave out --json and --batch") }
        func bad(_ parameter: String, _ message: String) -> CLIError {
            CLIError(message, code: "BAD_PARAMETER", details: ["parameter": .text(parameter)])
        }
        if at != nil && arriveBy != nil { throw bad("at", "give --at or --arrive-by, not both") }
        if let t = at ?? arriveBy, TimeWords.parse(t) == nil {
            throw bad(at != nil ? "at" : "arrive-by",
                      "\(at != nil ? "--at" : "--arrive-by") \"\(t)\" is not a time: write 8:30, 5:45pm, \"tomorrow 17:45\", \"monday 9:00\", now or 2020-04-20T08:30")
        }
        if (from == nil) != (to == nil) { throw bad("to", "give both places, FROM and TO (or none, to pick a recent trip)") }
        if again && from != nil { throw bad("again", "--again repeats the last trip: give no places with it") }
        if back && from != nil { throw bad("back", "--back plans the last trip's way back: give no places with it") }
        if again && back { throw bad("back", "give --again or --back, not both") }
        if let modes { do { _ = try ModeFilter.parse(modes) } catch { throw bad("modes", error.message) } }
        if let n = numItineraries, !PlanRequestParameters.numItineraries.integerRange.contains(n) {
            throw bad("num", "--num \(n): allowed are \(PlanRequestParameters.numItineraries.rangeWords!)")
        }
        if let option, option < 1 { throw bad("option", "--option \(option): the alternatives are numbered from 1") }
        if let window, !PlanRequestParameters.window.integerRange.contains(window) {
            throw bad("window", "--window \(window): allowed are \(PlanRequestParameters.window.rangeWords!)")
        }
        if let server, URL(string: server)?.host == nil { throw bad("server", "--server \(server) is not a URL such as http://127.0.0.1:8080") }
        if server != nil && !(source.gtfs.isEmpty && source.feeds.isEmpty && source.places.isEmpty) {
            throw bad("server", "--server asks that server about the feeds it serves: leave out --gtfs, --feed and --place")
        }
        if let map, !map.lowercased().hasSuffix(".svg") { throw bad("map", "--map \(map): the map is an SVG file; name it FILE.svg") }
        do { try model.parameters.validate() } catch { throw bad(error.parameter, error.description) }
        do { try source.validate() } catch let e as ValidationError { throw bad("place", e.message) }
    }

    func run() throws {
        try runReportingErrors(json: json) {
            try check()
            let backend: PlanBackend = try server.map { try ServerBackend(base: $0) } ?? LocalBackend(source: source)
            if let batch {
                guard let local = backend as? LocalBackend else { throw CLIError("--batch plans in process; leave out --server") }
                return try runBatch(local.planner, batch)
            }
            let recent = RecentTrips()
            var trip: RecentTrips.Trip
            if let from, let to {
                let a = try resolve(from, role: "FROM", backend)
                let b = try resolve(to, role: "TO", backend)
                trip = RecentTrips.Trip(fromName: a.name, from: a.place.description, toName: b.name, to: b.place.description)
            } else if again || back {
                guard let last = recent.load().first else {
                    throw CLIError("there is no earlier trip to \(back ? "plan the way back of" : "repeat") yet: plan one with FROM and TO first",
                                   code: "NO_RECENT_TRIP")
                }
                trip = back ? last.reversed : last
            } else {
                trip = try pickRecent(recent.load())
            }
            guard let fromPlace = Place.parse(trip.from), let toPlace = Place.parse(trip.to) else {
                throw CLIError("the recent trip \(trip.fromName) → \(trip.toName) could not be read; plan it with FROM and TO", code: "NO_RECENT_TRIP")
            }
            let query = try self.request(for: trip, from: fromPlace, to: toPlace, backend)
            let request = query.request
            trip.remember(request)
            let outcome = try backend.answer(request)
            if json {
                // Standard output holds the JSON alone; the note goes before it, on standard error.
                if let note = query.note { Output.err(Catalogue.text("text.note", query.request.language, ["text": note])) }
                if let option, let doc = try? outcome.document(), option > doc.itineraries.count {
                    throw Self.optionBeyond(option, doc.itineraries.count)
                }
                FileHandle.standardOutput.write(Data(outcome.json + [0x0A]))
                do { _ = try outcome.document() } catch { throw ExitCode.failure }
                recent.save(trip)
                return
            }
            // The note first: it explains the date planned for, and any error about it.
            if let note = query.note { print(TextWrap.wrap(Catalogue.text("text.note", query.request.language, ["text": note]), width: Output.width)) }
            let doc: AnswerDocument
            do throws(AnswerDocument.ReadError) { doc = try outcome.document() } catch { throw CLIError(error.message, code: error.code) }
            if let option, option > doc.itineraries.count { throw Self.optionBeyond(option, doc.itineraries.count) }
            let chosen = option.map { $0 - 1 }
            let text = PlanAnswerText.render(doc, from: trip.fromName, to: trip.toName, option: chosen, colour: Output.colour,
                                             language: request.language)
            print(TextWrap.wrap(text, width: Output.width), terminator: "")
            recent.save(trip)
            if follow { try self.follow(outcome, doc: doc, option: chosen ?? doc.recommended, backend) }
            if let map {
                let i = chosen ?? doc.recommended
                let title = "\(trip.fromName) → \(trip.toName), \(doc.query.arriveBy ? "arrive by" : "leave at") \(PlanAnswerText.clock(doc.query.time)) on \(PlanAnswerText.day(doc.query.time))"
                let svg = ItinerarySVG.render(doc.map(of: i), steps: PlanAnswerText.steps(doc, option: i),
                                              network: backend.network, title: title, streets: PlanAnswerText.streetWalks(doc, option: i))
                do { try Data(svg.utf8).write(to: URL(fileURLWithPath: map)) } catch {
                    throw CLIError("cannot write the map to \(map): \(error.localizedDescription)", code: "MAP_NOT_WRITTEN")
                }
                print("Map of option \(i + 1): \(map)")
            }
        }
    }

    /// `--option N` past the alternatives there are.
    static func optionBeyond(_ option: Int, _ count: Int) -> CLIError {
        CLIError("--option \(option): there \(count == 1 ? "is 1 alternative" : "are \(count) alternatives") for this trip",
                 code: "OPTION_OUT_OF_RANGE", details: ["option": .number(Double(option)), "alternatives": .number(Double(count))])
    }

    /// The request for `trip`: with `--again` and no new time, the one it was planned
    /// with (so that `--option N` picks from the table the rider saw); otherwise the time
    /// asked (now by default) on the dates of the timetable serving the start, with the
    /// note when it was moved onto them, and the options given (with `--again`, the
    /// trip's own where none is given).
    /// `--lang`, else the environment's (`LC_ALL`, `LC_MESSAGES`, `LANG`), else English.
    func language() throws -> Language { try Self.language(lang) }

    /// `--lang` of `plan` and `follow`, else the environment's.
    static func language(_ lang: String?) throws -> Language {
        guard let lang else { return Language.environment(ProcessInfo.processInfo.environment) }
        guard let l = Language(tag: lang) else { throw ValidationError("--lang \"\(lang)\": the languages are en and zh-Hans") }
        return l
    }

    private func request(for trip: RecentTrips.Trip, from: Place, to: Place, _ backend: PlanBackend) throws
        -> (request: PlanRequest, note: String?) {
        let kept = again ? trip : RecentTrips.Trip(fromName: "", from: "", toName: "", to: "")
        var request = PlanRequest(from: from, to: to, time: .instant(Self.now()), arriveBy: arriveBy != nil,
                                  window: window ?? kept.window,
                                  numItineraries: numItineraries ?? kept.numItineraries ?? PlanRequestParameters.numItineraries.integerDefault,
                                  modes: modes ?? kept.modes, wheelchair: wheelchair || (kept.wheelchair ?? false),
                                  parameters: model.parameters, streets: !noStreets, language: try language())
        if again && at == nil && arriveBy == nil, let t = trip.time.flatMap(QueryTime.parse) {
            request.time = t
            request.arriveBy = trip.arriveBy ?? false
            return (request, nil)
        }
        let (time, note) = TimeWords.resolve((arriveBy ?? at).flatMap(TimeWords.parse), now: Self.now(),
                                             zone: try backend.timeZone(near: from), period: try backend.period(near: from),
                                             language: request.language)
        request.time = time
        return (request, note)
    }

    /// `--follow`: the chosen itinerary followed until arrival.
    private func follow(_ outcome: PlanReply, doc: AnswerDocument, option i: Int, _ backend: PlanBackend) throws {
        print("")
        switch outcome {
        case .remote:
            guard let server, let token = doc.itineraries[i].tripToken else {
                throw CLIError("option \(i + 1) has no rides to follow (or the server gives no tripToken)", code: "NOTHING_TO_FOLLOW")
            }
            try TerminalFollow.remote(base: server, token: token, options: following.options(try language()))
        case .local(.success(let answer), _, _, _, _):
            guard let local = backend as? LocalBackend, let trip = TripMatcher(network: local.planner.network, versions: [:])
                .followedTrip(answer.options[i].journey) else {
                throw CLIError("option \(i + 1) has no rides to follow", code: "NOTHING_TO_FOLLOW")
            }
            try TerminalFollow.local(trip, planner: local.planner, matcher: TripMatcher(network: local.planner.network, versions: [:]),
                                     realtime: local.realtime, clock: following.followClock, options: following.options(try language()))
        case .local(.failure, _, _, _, _):
            return
        }
    }

    /// "Now" for times without a date: the clock, or `TRANSIT_NOW` (ISO 8601 instant) for
    /// reproducible runs (tests, the README's session).
    static func now() -> Int64 {
        if let t = ProcessInfo.processInfo.environment["TRANSIT_NOW"], case .instant(let i)? = QueryTime.parse(t) { return i }
        return Int64(Date().timeIntervalSince1970)
    }

    /// What the rider typed as a place: coordinates and stop ids as they are, a name by
    /// the stop search (a choice in a terminal when it fits several places).
    private func resolve(_ text: String, role: String, _ backend: PlanBackend) throws -> (name: String, place: Place) {
        if let p = Place.parse(text) {
            if case .stop(let feed, let id) = p { return (try backend.stopName(feed: feed, id: id) ?? text, p) }
            return (text, p)
        }
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty else {
            throw CLIError("\(role) is empty: give a stop name, lat,lon or stop:ID", code: "BAD_PARAMETER", details: ["parameter": .text(role.lowercased())])
        }
        switch PlaceFinder.decide(PlaceFinder.group(try backend.search(trimmed))) {
        case .found(let place):
            return (place.name, place.place)
        case .ambiguous(let places):
            // With --json standard output is for the JSON alone: no questions there.
            if Output.interactive && !json {
                let chosen = try Terminal.choose("Which \"\(trimmed)\" do you mean?", places.map { "\($0.name) (\($0.detail))" })
                return (places[chosen].name, places[chosen].place)
            }
            let list = places.map { "\($0.name) (\($0.detail); \($0.place.description))" }
            throw CLIError("\"\(trimmed)\" fits \(places.count) places: \(list.joined(separator: "; ")). Write more of the name, or give one as lat,lon or stop:ID.",
                           code: "AMBIGUOUS_PLACE",
                           details: ["parameter": .text(role.lowercased()),
                                     "places": .list(places.map { .object(["name": .text($0.name), "detail": .text($0.detail), "place": .text($0.place.description)]) })])
        case .notFound:
            // Suggestions: places matching some of the words.
            let words = trimmed.split(separator: " ").map(String.init).filter { $0.count >= 3 }
            var seen = Set<String>(), suggestions: [String] = []
            for w in words {
                for p in PlaceFinder.group(try backend.search(w)) where seen.insert(p.name).inserted && suggestions.count < 5 { suggestions.append(p.name) }
            }
            throw CLIError("no stop is called \"\(trimmed)\"" + (suggestions.isEmpty ? "; check the spelling, or give lat,lon or stop:ID"
                : ". Did you mean: \(suggestions.joined(separator: ", "))?"),
                           code: "UNKNOWN_STOP", details: ["parameter": .text(role.lowercased()), "suggestions": .list(suggestions.map { .text($0) })])
        }
    }

    private func pickRecent(_ trips: [RecentTrips.Trip]) throws -> RecentTrips.Trip {
        guard !trips.isEmpty else { throw CLIError("give FROM and TO: a stop name, lat,lon or stop:ID (no recent trips yet)", code: "NO_RECENT_TRIP") }
        guard Output.interactive && !json else {
            throw CLIError("give FROM and TO, or --again for the last trip. Recent trips: "
                           + trips.prefix(5).map { "\($0.fromName) → \($0.toName)" }.joined(separator: "; "), code: "BAD_PARAMETER")
        }
        return trips[try Terminal.choose("Recent trips:", trips.map { "\($0.fromName) → \($0.toName)" })]
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
                // The model's answer, as the reference comparison reads it: no rider's filter.
                out = PlanAnswerJSON.answer(try planner.answer(query, numItineraries: n, riderFilter: false).get())
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
        var streets: Bool?
        var walkSpeed: Double?, walkDetourFactor: Double?, maxAccessWalk: Double?, maxTransferWalk: Double?
        var maxDirectWalk: Double?, transferSlack: Int?, maxTransfers: Int?
    }

    static func query(_ line: Data) throws(PlanError) -> (PlanQuery, Int) {
        let q: Query
        do { q = try JSONDecoder().decode(Query.self, from: line) } catch {
            throw PlanError(.badQuery, "not a JSON query with from, to and time: \(error)")
        }
        guard let from = Place.parse(q.from) else { throw PlanError(.badParameter, "from \"\(q.from)\" is neither lat,lon nor stop:ID") }
        guard let to = Place.parse(q.to) else { throw PlanError(.badParameter, "to \"\(q.to)\" is neither lat,lon nor stop:ID") }
        guard let time = QueryTime.parse(q.time) else { throw PlanError(.badParameter, "time \"\(q.time)\" is not ISO 8601 such as 2020-04-20T08:30:00") }
        var p = RoutingParameters()
        if let v = q.walkSpeed { p.walkSpeed = v }
        if let v = q.walkDetourFactor { p.walkDetourFactor = v }
        if let v = q.maxAccessWalk { p.maxAccessWalk = v }
        if let v = q.maxTransferWalk { p.maxTransferWalk = v }
        if let v = q.maxDirectWalk { p.maxDirectWalk = v }
        if let v = q.transferSlack { p.transferSlack = v }
        if let v = q.maxTransfers { p.maxTransfers = v }
        if let w = q.window, !PlanRequestParameters.window.integerRange.contains(w) {
            throw PlanError(.badParameter, "window is \(w) min: allowed are \(PlanRequestParameters.window.rangeWords!)", details: ["parameter": .text("window")])
        }
        let modes = try q.modes.map { m throws(PlanError) in try ModeFilter.parse(m) }
        return (PlanQuery(from: from, to: to, time: time, arriveBy: q.arriveBy ?? false, parameters: p, window: q.window.map { $0 * 60 },
                          modes: modes, wheelchair: q.wheelchair ?? false, streets: q.streets ?? true),
                q.numItineraries ?? PlanRequestParameters.numItineraries.integerDefault)
    }
}
