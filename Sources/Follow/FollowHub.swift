import Foundation
import Realtime
import Synchronization

/// Why a stream is not opened.
public enum FollowRefusal: Error, Sendable, Equatable {
    case token(TripTokenError)
    case notMatched(TripMatchError)
    /// Too many open streams: on the server (`perClient` false) or from one address.
    case tooMany(perClient: Bool, limit: Int)
    /// No timetable is served yet.
    case notReady
}

/// An open stream: the trip followed and the frames to send, as the hub renders them.
public struct FollowSubscription: Sendable {
    public let trip: FollowedTrip
    public let rides: [MatchedRide]
    public let frames: AsyncStream<[UInt8]>
}

/// The followed trips of one server: each followed trip once (however many streams follow
/// it), what it was told (a log of its last events, for `Last-Event-ID`), and its streams.
/// A new realtime state is looked at in one pass over the followed trips; the clock's
/// events come from `tick`. Bounded: at most `maxStreams` streams, `maxPerClient` per
/// address; a trip's log keeps its last `logBytes` bytes of events; a trip no stream
/// follows is kept `linger` seconds for a reconnection, then dropped.
public final class FollowHub: Sendable {
    /// Renders an event with its id as the bytes a stream sends.
    public typealias Render = @Sendable (FollowEvent, _ id: Int, _ watch: TripWatch) -> [UInt8]

    public let maxStreams: Int
    public let maxPerClient: Int
    public let logBytes: Int
    public let linger: Double
    private let render: Render
    /// Where the new itineraries of broken trips are searched for (nil: at once, inside the
    /// pass). A server gives its planners' pool, so that a pass over the followed trips
    /// stays a pass and the searches run beside the requests.
    public typealias Schedule = @Sendable (_ job: @escaping @Sendable () -> Void) -> Void
    private let schedule: Schedule?
    /// Where events are rendered and sent (a serial queue), so that a pass over the
    /// followed trips only finds them; nil: at once, inside the pass.
    private let delivery: DispatchQueue?

    private struct Follower {
        var watch: TripWatch
        /// Which follower of this key (a key dropped and followed again is another).
        let generation: Int
        /// Its streams were ended (the trip is over): a new stream gets the log and ends.
        var ended = false
        var log: [(id: Int, frame: [UInt8])] = []
        var logBytes = 0
        var streams: [UInt64: AsyncStream<[UInt8]>.Continuation] = [:]
        var clients: [UInt64: String] = [:]
        /// Uptime (seconds) since which no stream follows it.
        var idleSince: Double?
    }

    private struct State {
        var context: FollowContext?
        var realtime: RealtimeState?
        var followers: [String: Follower] = [:]
        var streams = 0
        var perClient: [String: Int] = [:]
        var nextStream: UInt64 = 0
        var nextId: Int
        var nextGeneration = 0
        /// Times of the last passes over the followed trips for a new realtime state (seconds, at most 100).
        var passes: [Double] = []
        var passCount = 0
        /// Streams to end once the lock is let go (ending one calls `close`, which takes it).
        var ending: [AsyncStream<[UInt8]>.Continuation] = []
    }

    private let state: Mutex<State>

    /// The state under the lock; the streams it ended are finished after.
    private func withState<R>(_ body: (inout State) -> R) -> R {
        let (result, ending) = state.withLock { s -> (R, [AsyncStream<[UInt8]>.Continuation]) in
            let r = body(&s)
            defer { s.ending = [] }
            return (r, s.ending)
        }
        for c in ending { c.finish() }
        return result
    }

    public init(maxStreams: Int = 10_000, maxPerClient: Int = 16, logBytes: Int = 64 << 10, linger: Double = 300,
                schedule: Schedule? = nil, delivery: DispatchQueue? = nil, render: @escaping Render) {
        self.maxStreams = maxStreams; self.maxPerClient = maxPerClient; self.logBytes = logBytes; self.linger = linger
        self.render = render; self.schedule = schedule; self.delivery = delivery
        // Ids grow across the server's restarts too (one a millisecond of wall time at
        // start), so that a `Last-Event-ID` from before a restart asks for everything after.
        state = Mutex(State(nextId: Int(Date().timeIntervalSince1970 * 1000)))
    }

    /// How many trips are followed, by how many streams, the bytes their state and logs
    /// take, and the passes over them for new realtime states (how many; the last 100's
    /// median, the last and the longest, in seconds).
    public var status: (trips: Int, streams: Int, bytes: Int, passes: Int, lastPassSeconds: Double, medianPassSeconds: Double, maxPassSeconds: Double) {
        state.withLock { s in
            let bytes = s.followers.values.reduce(0) { $0 + $1.logBytes + Self.watchBytes($1.watch) + 64 * $1.streams.count + 256 }
            let sorted = s.passes.sorted()
            return (s.followers.count, s.streams, bytes, s.passCount, s.passes.last ?? 0, sorted.isEmpty ? 0 : sorted[sorted.count / 2],
                    sorted.last ?? 0)
        }
    }

    /// An estimate of a watch's memory: its rides (ids, names) and what was told.
    static func watchBytes(_ w: TripWatch) -> Int {
        w.trip.rides.reduce(256) { $0 + 96 + $1.tripId.utf8.count + $1.boardStopId.utf8.count + $1.alightStopId.utf8.count }
            + w.rides.reduce(0) { $0 + 128 + $1.line.utf8.count + ($1.headsign?.utf8.count ?? 0) + $1.boardName.utf8.count + $1.alightName.utf8.count }
    }

    private static func uptime() -> Double { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }

    /// The timetable served and its realtime state: a new timetable (a new feed version)
    /// has every followed trip matched again (a trip no longer there ends its streams with
    /// an `error` frame); a new realtime state alone is looked at as `realtime` does.
    public func update(_ context: FollowContext, realtime: RealtimeState?, now: Int64) {
        let sameTimetable = state.withLock { s in s.context.map { $0.matcher === context.matcher } ?? false }
        if sameTimetable { self.realtime(realtime, now: now); return }
        withState { s in
            s.context = context
            s.realtime = realtime
            for key in Array(s.followers.keys) {
                let f = s.followers[key]!
                do {
                    var w = try TripWatch(trip: f.watch.trip, matcher: context.matcher, options: f.watch.options)
                    w.keepTold(from: f.watch)
                    let events = w.look(at: realtime, now: now, context: context, planNow: schedule == nil)
                    s.followers[key]!.watch = w
                    deliver(events, to: key, in: &s)
                    plan(key, w, now: now)
                } catch {
                    let frame = Array("event: error\ndata: {\"message\":\(Self.quoted("\(error)"))}\n\n".utf8)
                    for c in f.streams.values { c.yield(frame); s.ending.append(c) }
                    s.followers[key] = nil
                }
            }
        }
    }

    static func quoted(_ text: String) -> String {
        var out = "\""
        for u in text.unicodeScalars {
            switch u {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case _ where u.value < 0x20: out += String(format: "\\u%04x", u.value)
            default: out.unicodeScalars.append(u)
            }
        }
        return out + "\""
    }

    /// A new realtime state: every followed trip looks at it once (one pass); the state
    /// already looked at is not looked at again.
    public func realtime(_ realtime: RealtimeState?, now: Int64) {
        let started = DispatchTime.now().uptimeNanoseconds
        withState { s in
            guard realtime !== s.realtime else { return }
            s.realtime = realtime
            guard let context = s.context else { return }
            for key in Array(s.followers.keys) {
                let events = s.followers[key]!.watch.look(at: realtime, now: now, context: context, planNow: schedule == nil)
                if !events.isEmpty { deliver(events, to: key, in: &s) }
                plan(key, s.followers[key]!.watch, now: now)
            }
            if s.passes.count == 100 { s.passes.removeFirst() }
            s.passes.append(Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9)
            s.passCount += 1
        }
    }

    /// The clock's events at `now`; followed trips no stream follows are dropped after `linger`.
    public func tick(now: Int64) {
        let up = Self.uptime()
        withState { s in
            for key in Array(s.followers.keys) {
                let events = s.followers[key]!.watch.tick(now: now)
                if !events.isEmpty { deliver(events, to: key, in: &s) }
                if let idle = s.followers[key]?.idleSince, up - idle > linger { s.followers[key] = nil }
            }
        }
    }

    /// A broken trip's new itinerary, searched for where `schedule` says (outside the
    /// lock), then told; a state that came meanwhile is looked at after.
    private func plan(_ key: String, _ watch: TripWatch, now: Int64) {
        guard watch.needsPlan, let schedule else { return }
        schedule { [weak self] in
            guard let self else { return }
            let job = self.state.withLock { s in s.context.map { (s.followers[key]?.watch, $0) } }
            guard let (current, context) = job, var w = current, w.needsPlan else { return }
            let events = w.resolve(context: context)
            self.withState { s in
                // Only if nothing replaced the watch meanwhile (a new timetable matched it again).
                guard let f = s.followers[key], f.watch.needsPlan, f.watch.trip == watch.trip else { return }
                s.followers[key]!.watch = w
                self.deliver(events, to: key, in: &s)
                if w.lookedAt !== s.realtime, let context = s.context {
                    let more = s.followers[key]!.watch.look(at: s.realtime, now: now, context: context, planNow: false)
                    self.deliver(more, to: key, in: &s)
                    self.plan(key, s.followers[key]!.watch, now: now)
                }
            }
        }
    }

    /// Renders, logs and sends events to a followed trip's streams; a finished trip's
    /// streams end.
    private func deliver(_ events: [FollowEvent], to key: String, in s: inout State, inline: Bool = false) {
        guard !events.isEmpty || s.followers[key]?.watch.finished == true, let f = s.followers[key] else { return }
        let numbered = events.map { e -> (Int, FollowEvent) in s.nextId += 1; return (s.nextId, e) }
        guard let queue = delivery, !inline else {
            append(numbered.map { ($0.0, render($0.1, $0.0, f.watch)) }, to: key, generation: f.generation, finished: f.watch.finished, in: &s)
            return
        }
        // Rendered (a sentence's JSON and its frame each) off the pass, in the order given.
        let watch = f.watch, generation = f.generation
        queue.async { [weak self] in
            guard let self else { return }
            let frames = numbered.map { ($0.0, self.render($0.1, $0.0, watch)) }
            self.withState { s in self.append(frames, to: key, generation: generation, finished: watch.finished, in: &s) }
        }
    }

    /// Logs and sends rendered events to a followed trip's streams; a finished trip's
    /// streams end.
    private func append(_ frames: [(id: Int, frame: [UInt8])], to key: String, generation: Int, finished: Bool, in s: inout State) {
        // Taken out and put back: changed while the dictionary also held it, its log would
        // be copied whole on every event.
        guard s.followers[key]?.generation == generation, var f = s.followers.removeValue(forKey: key) else { return }
        for (eventId, frame) in frames {
            f.log.append((eventId, frame)); f.logBytes += frame.count
            while f.logBytes > logBytes, f.log.count > 1 { f.logBytes -= f.log.removeFirst().frame.count }
            for (id, c) in f.streams {
                // A stream whose client reads too slowly to keep 64 frames in hand is ended:
                // the client comes back with Last-Event-ID and gets the log (nothing is lost,
                // and a slow reader holds no more than that).
                if case .dropped = c.yield(frame) {
                    s.ending.append(c)
                    f.streams[id] = nil
                    let client = f.clients.removeValue(forKey: id) ?? ""
                    s.streams -= 1
                    s.perClient[client, default: 1] -= 1
                    if s.perClient[client] == 0 { s.perClient[client] = nil }
                    if f.streams.isEmpty { f.idleSince = Self.uptime() }
                }
            }
        }
        if finished { s.ending += f.streams.values; f.ended = true }
        s.followers[key] = f
    }

    /// Opens a stream on `token` for `client` (an address). `lastEventId`: the last event
    /// the client saw; the trip's logged events after it are sent first (all of them
    /// without one).
    public func open(token: String, client: String, lastEventId: Int?, options: FollowOptions, now: Int64,
                     tokens: TripTokens) throws(FollowRefusal) -> FollowSubscription {
        let trip: FollowedTrip
        do { trip = try tokens.trip(token, now: now) } catch { throw .token(error) }
        let key = "\(options.threshold):\(options.notice):\(options.language.rawValue):" + token
        let (stream, continuation) = AsyncStream<[UInt8]>.makeStream(bufferingPolicy: .bufferingNewest(64))
        let result: Result<(UInt64, TripWatch), FollowRefusal> = withState { s in
            guard let context = s.context else { return .failure(.notReady) }
            guard s.streams < maxStreams else { return .failure(.tooMany(perClient: false, limit: maxStreams)) }
            guard s.perClient[client, default: 0] < maxPerClient else { return .failure(.tooMany(perClient: true, limit: maxPerClient)) }
            if s.followers[key] == nil {
                do {
                    var w = try TripWatch(trip: trip, matcher: context.matcher, options: options)
                    let events = w.look(at: s.realtime, now: now, context: context, planNow: schedule == nil)
                    s.nextGeneration += 1
                    s.followers[key] = Follower(watch: w, generation: s.nextGeneration)
                    // At once: the new stream reads them from the log.
                    deliver(events + s.followers[key]!.watch.tick(now: now), to: key, in: &s, inline: true)
                    plan(key, w, now: now)
                } catch let e as TripMatchError {
                    return .failure(.notMatched(e))
                } catch {
                    return .failure(.notReady)
                }
            }
            s.nextStream += 1
            let id = s.nextStream
            var f = s.followers[key]!
            for entry in f.log where lastEventId.map({ entry.id > $0 }) ?? true { continuation.yield(entry.frame) }
            if f.ended {
                continuation.finish()
            } else {
                f.streams[id] = continuation; f.clients[id] = client; f.idleSince = nil
                s.streams += 1; s.perClient[client, default: 0] += 1
            }
            s.followers[key] = f
            return .success((id, f.watch))
        }
        let (id, watch) = try result.get()
        continuation.onTermination = { [weak self] _ in self?.close(key: key, stream: id) }
        return FollowSubscription(trip: watch.trip, rides: watch.rides, frames: stream)
    }

    private func close(key: String, stream id: UInt64) {
        let up = Self.uptime()
        state.withLock { s in
            guard var f = s.followers[key], f.streams.removeValue(forKey: id) != nil else { return }
            let client = f.clients.removeValue(forKey: id) ?? ""
            s.streams -= 1
            s.perClient[client, default: 1] -= 1
            if s.perClient[client] == 0 { s.perClient[client] = nil }
            if f.streams.isEmpty { f.idleSince = up }
            s.followers[key] = f
        }
    }
}
