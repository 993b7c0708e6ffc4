import AsyncHTTPClient
import Foundation
import GTFSRealtime
import Logging
import NIOCore
import Realtime
import Synchronization

/// One `--realtime FEED=URL|FILE` source.
public struct RealtimeSource: Sendable, Equatable, CustomStringConvertible {
    public enum Location: Sendable, Equatable { case url(String), file(String) }
    public var feedId: String
    public var location: Location

    public init(feedId: String, location: Location) { self.feedId = feedId; self.location = location }

    /// `FEED=URL` (http or https) or `FEED=FILE`; the feed id may be empty only when
    /// `defaultFeed` is given (the CLI's `--gtfs ct.zip --realtime ct=updates.pb` names it).
    public static func parse(_ text: String) throws(RealtimeSourceError) -> RealtimeSource {
        guard let eq = text.firstIndex(of: "="), eq != text.startIndex, text.index(after: eq) != text.endIndex else {
            throw RealtimeSourceError("--realtime takes FEED=URL or FEED=FILE (for example bart=https://api.bart.gov/gtfsrt/tripupdate.aspx or bart=updates.pb), not \"\(text)\"")
        }
        let feed = String(text[..<eq]), target = String(text[text.index(after: eq)...])
        if target.hasPrefix("http://") || target.hasPrefix("https://") {
            guard URL(string: target)?.host != nil else { throw RealtimeSourceError("--realtime \(feed)=: \"\(target)\" is not a URL") }
            return RealtimeSource(feedId: feed, location: .url(target))
        }
        return RealtimeSource(feedId: feed, location: .file(target))
    }

    /// With any password in a URL hidden (`https://user:***@host/…`).
    public var description: String {
        switch location {
        case .url(let u): "\(feedId)=\(Self.redact(u))"
        case .file(let f): "\(feedId)=\(f)"
        }
    }

    /// A URL with the password of its user part hidden.
    public static func redact(_ url: String) -> String {
        guard var c = URLComponents(string: url), c.password != nil else { return url }
        c.password = "***"
        return c.string ?? url
    }
}

public struct RealtimeSourceError: Error, Sendable, CustomStringConvertible {
    public var description: String
    public init(_ d: String) { description = d }
}

/// The realtime sources of a server: files (read once at start by the command, which
/// hands their messages to `start`; applied as of their own header time), URLs polled every `pollSeconds` with `If-None-Match`/`If-Modified-Since`
/// and a timeout. Each feed's latest message from each of its sources is kept; on every
/// new message (and on every new timetable) a `RealtimeState` is built for the served
/// timetable beside the current one and swapped in whole. A source that fails (no
/// answer, an error status, bytes that are not a message, a message older than
/// `maxAgeSeconds` or for no served feed) leaves the last good state serving, is logged
/// once per problem and shown in `/v1/health`.
public final class RealtimeFeeds: Sendable {
    public struct SourceStatus: Sendable {
        public var source: RealtimeSource
        public var lastFetch: Date?
        public var lastSuccess: Date?
        public var messageTime: Int64?
        public var entities: Int = 0
        public var problem: String?
    }

    public let sources: [RealtimeSource]
    public let pollSeconds: Double
    public let timeoutSeconds: Double
    public let maxAgeSeconds: Double
    private let live: LiveTimetable
    private let logger: Logger
    private let state: Mutex<(statuses: [SourceStatus], messages: [Int: RealtimeMessage], validators: [Int: (etag: String?, modified: String?)])>
    /// Where a fetched message is decoded and its state built: a thread of its own, not
    /// Swift's global executor, whose threads are the event loops every connection reads
    /// and writes on. Measured on 2 cores (Scripts/bench-realtime.sh, bydgoszcz, 10,000
    /// updates swapped every second, 8 connections): built on the executor, p99 77 ms and
    /// max 126 ms against 11 ms and 17 ms with the message held still; built here, p99
    /// 13.7 ms and max 36 ms against 12.2 ms and 25 ms.
    private let worker = WorkerPool(threads: 1, name: "realtime")

    public init(sources: [RealtimeSource], live: LiveTimetable, pollSeconds: Double = 30, timeoutSeconds: Double = 10,
                maxAgeSeconds: Double = 600, logger: Logger) {
        self.sources = sources
        self.live = live
        self.pollSeconds = pollSeconds
        self.timeoutSeconds = timeoutSeconds
        self.maxAgeSeconds = maxAgeSeconds
        self.logger = logger
        state = Mutex((sources.map { SourceStatus(source: $0) }, [:], [:]))
    }

    /// Each source's status, in the order given.
    public var statuses: [SourceStatus] { state.withLock { $0.statuses } }

    /// Takes the files' messages (or why one could not be read), by source index, starts
    /// polling the URLs, and has every timetable the server swaps in get the realtime
    /// state of the messages held.
    public func start(files: [Int: Result<RealtimeMessage, RealtimeSourceError>] = [:]) {
        live.setRealtimeBuilder { [self] served in rebuild(for: served) }
        for (i, s) in sources.enumerated() {
            switch s.location {
            case .file:
                switch files[i] {
                case .success(let m)?: accept(m, from: i, checkAge: false)
                case .failure(let e)?: note(i, problem: e.description)
                case nil: note(i, problem: "not read")
                }
            case .url(let url):
                Task.detached { [self] in
                    while true {
                        await poll(i, url)
                        try? await Task.sleep(for: .seconds(pollSeconds))
                    }
                }
            }
        }
        if let served = live.served { rebuild(for: served) }
    }

    /// The feeds' messages merged (a feed's sources, e.g. its TripUpdates and Alerts URLs,
    /// make one message), for the feeds `served` holds.
    func messages(for feedIds: Set<String>) -> [String: RealtimeMessage] {
        state.withLock { s in
            var byFeed: [String: [RealtimeMessage]] = [:]
            for (i, m) in s.messages.sorted(by: { $0.key < $1.key }) where feedIds.contains(sources[i].feedId) {
                byFeed[sources[i].feedId, default: []].append(m)
            }
            return byFeed.compactMapValues(RealtimeMessage.merging)
        }
    }

    /// Builds the realtime state of `served` from the messages held and swaps it in.
    public func rebuild(for served: ServedTimetable) {
        let feeds = Set(served.feeds.map(\.id))
        let messages = messages(for: feeds)
        let started = Date()
        let built = RealtimeState.build(network: served.network, messages: messages)
        // Its router too, before the swap: no request waits for it.
        served.planner.prepare(realtime: built)
        served.setRealtime(built, builtSeconds: Date().timeIntervalSince(started))
        live.changed(served)
    }

    private func accept(_ m: RealtimeMessage, from i: Int, checkAge: Bool) {
        let source = sources[i]
        if checkAge, let t = m.timestamp, Date().timeIntervalSince1970 - Double(t) > maxAgeSeconds {
            note(i, problem: String(format: "the message of %@ is %.0f s old, more than the %.0f s allowed (--realtime-max-age): the previous one stays",
                                    ISO8601DateFormatter().string(from: Date(timeIntervalSince1970: Double(t))),
                                    Date().timeIntervalSince1970 - Double(t), maxAgeSeconds))
            return
        }
        state.withLock { s in
            s.messages[i] = m
            s.statuses[i].lastSuccess = Date()
            s.statuses[i].messageTime = m.timestamp
            s.statuses[i].entities = m.tripUpdates.count + m.alerts.count + m.vehicles.count
            s.statuses[i].problem = nil
        }
        if let served = live.served {
            if !served.feeds.contains(where: { $0.id == source.feedId }) {
                note(i, problem: "no feed \"\(source.feedId)\" is served (served: \(served.feeds.map(\.id).joined(separator: ", "))): its messages are kept but not applied")
            }
            rebuild(for: served)
        }
    }

    /// Records a problem, logged once until it changes.
    private func note(_ i: Int, problem: String) {
        let changed = state.withLock { s -> Bool in
            let changed = s.statuses[i].problem != problem
            s.statuses[i].problem = problem
            return changed
        }
        if changed { logger.error("realtime \(sources[i]): \(problem)") }
    }

    private func poll(_ i: Int, _ url: String) async {
        state.withLock { $0.statuses[i].lastFetch = Date() }
        var request = HTTPClientRequest(url: url)
        let validators = state.withLock { $0.validators[i] }
        if let etag = validators?.etag { request.headers.add(name: "If-None-Match", value: etag) }
        if let modified = validators?.modified { request.headers.add(name: "If-Modified-Since", value: modified) }
        do {
            let response = try await HTTPClient.shared.execute(request, timeout: .milliseconds(Int64(timeoutSeconds * 1000)))
            if response.status == .notModified {
                state.withLock { $0.statuses[i].lastSuccess = Date() }
                return
            }
            guard response.status == .ok else {
                note(i, problem: "HTTP \(response.status.code) \(response.status.reasonPhrase): the previous message stays")
                return
            }
            let body = try await response.body.collect(upTo: 64 << 20)
            let bytes = Array(buffer: body)
            let validators = (response.headers.first(name: "ETag"), response.headers.first(name: "Last-Modified"))
            try await worker.run { [self] in
                let message: RealtimeMessage
                do { message = try RealtimeMessage.decode(bytes) } catch {
                    note(i, problem: "\(error): the previous message stays")
                    return
                }
                state.withLock { $0.validators[i] = validators }
                accept(message, from: i, checkAge: true)
            }
        } catch {
            note(i, problem: "cannot fetch: \(error): the previous message stays")
        }
    }
}
