import ArgumentParser
import AsyncHTTPClient
import Dispatch
import Follow
import Foundation
import PlanJSON
import PlanText
import Planner
import Realtime
import Synchronization
import TransitModel

/// How a trip is followed from the terminal: the options `transit follow` and
/// `transit plan --follow` share.
struct FollowOptionsGroup: ParsableArguments {
    @Option(help: ArgumentHelp("Run the clock from this instant, optionally faster: START[xSPEED], e.g. 2026-03-03T17:40:00-08:00x60 (a replay; default: the system clock).", valueName: "start[xspeed]"))
    var clock: String?
    @Option(help: ArgumentHelp("Tell a delay when a ride's expected time moves by at least this much.", valueName: "seconds"))
    var threshold = 60
    @Option(help: ArgumentHelp("Tell of a boarding (and of getting off a long ride) this long before.", valueName: "minutes"))
    var notice = 5

    /// `--clock`'s value, checked (for `serve` too).
    static func checkClock(_ clock: String?) throws {
        if let clock, FollowClock.parse(clock) == nil {
            throw ValidationError("--clock \(clock): write an instant with its offset, optionally x and a speed (e.g. 2026-03-03T17:40:00-08:00x60)")
        }
    }

    func check() throws {
        try Self.checkClock(clock)
        guard (0...3600).contains(threshold) else { throw ValidationError("--threshold \(threshold): allowed are 0 to 3600 seconds") }
        guard (1...60).contains(notice) else { throw ValidationError("--notice \(notice): allowed are 1 to 60 minutes") }
    }

    var followClock: FollowClock { clock.flatMap(FollowClock.parse) ?? .system }
    /// The options, the events told in `language`.
    func options(_ language: Language) -> FollowOptions {
        FollowOptions(threshold: Int64(threshold), notice: Int64(notice) * 60, language: language)
    }
}

/// Following a trip in the terminal: one line per event, in the stream's words, until arrival.
enum TerminalFollow {
    /// The key of tokens read in process: `TRANSIT_TOKEN_SECRET` (at least 16 bytes), as the
    /// server that signed them was given it.
    static var secret: [UInt8]? {
        guard let s = ProcessInfo.processInfo.environment["TRANSIT_TOKEN_SECRET"], s.utf8.count >= 16 else { return nil }
        return Array(s.utf8)
    }

    static func line(_ time: Int64, _ zone: String, _ message: String) -> String {
        "[\(FollowText.clock(time, zone: zone))] \(message)"
    }

    /// In process: the trip watched on the realtime state given (`--realtime` files), the
    /// clock's events as it runs; returns when the trip is over.
    static func local(_ trip: FollowedTrip, planner: JourneyPlanner, matcher: TripMatcher, realtime: RealtimeState?,
                      clock: FollowClock, options: FollowOptions) throws {
        var watch: TripWatch
        do { watch = try TripWatch(trip: trip, matcher: matcher, options: options) } catch { throw CLIError(error.description, code: "TRIP_NOT_SERVED") }
        let context = FollowContext(matcher: matcher, planner: planner, tokens: TripTokens(secret: secret ?? TripTokens.randomSecret()))
        let zone = watch.rides.first?.zone ?? "UTC"
        print(TextWrap.wrap(FollowText.following(watch.trip, rides: watch.rides, language: options.language), width: Output.width))
        func show(_ events: [FollowEvent]) {
            for e in events { print(TextWrap.wrap(line(e.time, zone, e.message), width: Output.width)); fflush(nil) }
        }
        show(watch.look(at: realtime, now: clock.now(), context: context))
        while !watch.finished {
            show(watch.tick(now: clock.now()))
            if watch.finished { break }
            // Past the end by more than the token's hour: nothing more will come.
            if clock.now() > watch.expectedEnd + TripTokens.overAfter { break }
            Thread.sleep(forTimeInterval: min(1, max(0.05, clock.realSeconds(15))))
        }
    }

    /// Through a server's stream: each event's message as a line, until the stream ends.
    static func remote(base: String, token: String, options: FollowOptions) throws {
        let url = (base.hasSuffix("/") ? String(base.dropLast()) : base)
            + "/v1/trips/\(token)/events?threshold=\(options.threshold)&notice=\(options.notice / 60)"
            + (options.language == .en ? "" : "&lang=\(options.language.rawValue)")
        let done = DispatchSemaphore(value: 0)
        let outcome = Mutex<Error?>(nil)
        Task.detached {
            do {
                var lastId: String?
                var attempts = 0
                // Reconnects with Last-Event-ID when the connection drops, as a browser does.
                while true {
                    var request = HTTPClientRequest(url: url)
                    if let lastId { request.headers.add(name: "Last-Event-ID", value: lastId) }
                    let response: HTTPClientResponse
                    do { response = try await HTTPClient.shared.execute(request, timeout: .hours(24)) } catch {
                        attempts += 1
                        if attempts > 5 { throw CLIError("cannot reach \(base): \(error)", code: "SERVER_UNREACHABLE") }
                        try await Task.sleep(for: .seconds(2)); continue
                    }
                    guard response.status == .ok else {
                        let body = try await response.body.collect(upTo: 1 << 20)
                        do throws(AnswerDocument.ReadError) { _ = try AnswerDocument.read(Array(buffer: body)) } catch {
                            throw CLIError(error.message, code: error.code)
                        }
                        throw CLIError("the server answered \(response.status.code)", code: "BAD_ANSWER")
                    }
                    attempts = 0
                    var buffer: [UInt8] = []
                    var ended = false
                    for try await chunk in response.body {
                        buffer += Array(buffer: chunk)
                        while let end = Self.frameEnd(buffer) {
                            let frame = String(decoding: buffer[..<end], as: UTF8.self)
                            buffer.removeFirst(end + 2)
                            let (id, event, data) = Self.parse(frame)
                            if let id { lastId = id }
                            guard let data, let object = try? JSONSerialization.jsonObject(with: Data(data.utf8)) as? [String: Any],
                                  let message = object["message"] as? String else { continue }
                            let time = (object["time"] as? String).map { String($0.dropFirst(11).prefix(5)) }
                            print(TextWrap.wrap(time.map { "[\($0)] \(message)" } ?? message, width: Output.width))
                            fflush(nil)
                            if event == "arrived" || event == "error" { ended = true }
                        }
                    }
                    if ended { break }
                    // The stream ended without arrival: after "no way to continue", or a dropped connection.
                    if lastId == nil { break }
                    try await Task.sleep(for: .seconds(1))
                    attempts += 1
                    if attempts > 5 { break }
                }
            } catch {
                outcome.withLock { $0 = error }
            }
            done.signal()
        }
        done.wait()
        if let e = outcome.withLock({ $0 }) { throw e }
    }

    /// Where the first frame of `buffer` ends (its blank line), if it is complete.
    static func frameEnd(_ b: [UInt8]) -> Int? {
        guard b.count >= 2 else { return nil }
        for i in 0..<(b.count - 1) where b[i] == 10 && b[i + 1] == 10 { return i }
        return nil
    }

    static func parse(_ frame: String) -> (id: String?, event: String?, data: String?) {
        var id: String?, event: String?, data: String?
        for line in frame.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("id: ") { id = String(line.dropFirst(4)) }
            else if line.hasPrefix("event: ") { event = String(line.dropFirst(7)) }
            else if line.hasPrefix("data: ") { data = (data.map { $0 + "\n" } ?? "") + line.dropFirst(6) }
        }
        return (id, event, data)
    }
}

struct FollowCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "follow",
        abstract: "Follow a planned trip: each change (delays, cancellations, alerts, the next boarding) as a line, until arrival.",
        discussion: """
            TOKEN is an itinerary's tripToken from a plan answer of `transit serve`. With --server \
            the trip is followed through that server's stream (/v1/trips/TOKEN/events); without, \
            in process on the database (or --gtfs files) and --realtime files, with the key the \
            server signed it with in TRANSIT_TOKEN_SECRET.
            """)

    @Argument(help: "The itinerary's tripToken.") var token: String
    @Option(name: .customLong("server"), help: ArgumentHelp("Follow through this running `transit serve`.", valueName: "url"))
    var server: String?
    @OptionGroup var follow: FollowOptionsGroup
    @Option(help: ArgumentHelp("The language of the events: en or zh-Hans (default: from LANG, else English).", valueName: "lang"))
    var lang: String?
    @OptionGroup var source: TimetableSourceOptions

    func run() throws {
        try follow.check()
        do {
            let language = try PlanCommand.language(lang)
            if let server { return try TerminalFollow.remote(base: server, token: token, options: follow.options(language)) }
            guard let secret = TerminalFollow.secret else {
                throw CLIError("a token is read in process only with the key it was signed with (TRANSIT_TOKEN_SECRET); or follow it through its server with --server URL",
                               code: "INVALID_TOKEN")
            }
            let clock = follow.followClock
            let trip: FollowedTrip
            do { trip = try TripTokens(secret: secret).trip(token, now: clock.now()) } catch {
                throw CLIError(error == .tooLong ? "the token is longer than any a server writes" : (error == .invalid
                               ? "this is not a trip token signed with that key" : "this trip is over"), code: "INVALID_TOKEN")
            }
            let backend = try LocalBackend(source: source)
            let versions = Dictionary((backend.feeds ?? []).map { ($0.id, String($0.version)) }, uniquingKeysWith: { a, _ in a })
            try TerminalFollow.local(trip, planner: backend.planner, matcher: TripMatcher(network: backend.planner.network, versions: versions),
                                     realtime: backend.realtime, clock: clock, options: follow.options(language))
        } catch let e as CLIError {
            Output.err("error: \(e.description)")
            throw ExitCode.failure
        }
    }
}
