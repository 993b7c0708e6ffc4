import Dispatch
import Follow
import Foundation
import Hummingbird
import NIOCore
import PlanJSON
import ServiceLifecycle

/// `GET /v1/trips/{token}/events`: a followed trip's events as Server-Sent Events
/// (docs/routing-model.md, "Following a trip"). A stream sends `retry:`, the trip it
/// follows (`event: following`, no id), the events logged after `Last-Event-ID` (all of
/// them without one), then each event as it comes, with a heartbeat comment every
/// `heartbeatSeconds`; it ends after `arrived` (or when nothing more can be told).
extension TransitAPI {
    /// The hub of the followed trips, kept in step with the timetable served: each swap and
    /// each new realtime state is looked at once; the clock's events come every second.
    static func startFollowing(live: LiveTimetable, clock: FollowClock, tokens: TripTokens, maxStreams: Int, maxPerClient: Int,
                               planners: WorkerPool) -> FollowHub {
        // A broken trip's new itinerary is a search like a plan request's: on the planners'
        // pool, not in the pass over the followed trips that each new realtime state makes.
        // Measured with Scripts/bench-follow.sh (bydgoszcz, 1,000 followed trips, generated
        // messages swapped every second): searching inside the pass made it 79 ms (median).
        let schedule: FollowHub.Schedule = { job in Task { try? await planners.run { job() } } }
        // Events are rendered (each one's sentence as JSON, in its frame) on a queue of their
        // own, after the pass that found them: with 1,000 trips whose every ride changed at
        // each swap, rendering in the pass made it 11.7-14.3 ms (median), 18.8-24.7 ms at worst.
        let delivery = DispatchQueue(label: "follow-delivery")
        let hub = FollowHub(maxStreams: maxStreams, maxPerClient: maxPerClient, schedule: schedule, delivery: delivery) { event, id, watch in
            Self.frame(event: event.kind.rawValue, id: id, data: FollowEventJSON.event(event, id: id, watch: watch))
        }
        let update: @Sendable (ServedTimetable) -> Void = { [weak hub] served in
            hub?.update(FollowContext(matcher: served.matcher, planner: served.planner, tokens: tokens), realtime: served.realtime,
                        now: clock.now())
        }
        live.addListener(update)
        if let served = live.served { update(served) }
        Task.detached { [weak hub] in
            while true {
                try? await Task.sleep(for: .seconds(1))
                guard let hub else { return }
                hub.tick(now: clock.now())
            }
        }
        return hub
    }

    /// One SSE frame: `id:` (when given), `event:`, and the data on one line (JSON has no
    /// raw line breaks).
    static func frame(event: String, id: Int?, data: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(data.count + 48)
        if let id { out += Array("id: \(id)\n".utf8) }
        out += Array("event: \(event)\ndata: ".utf8)
        out += data
        out += [10, 10]
        return out
    }

    func events(_ request: Request, token: String, client: String) throws -> Response {
        let q = try QueryParameters(request.uri.query, allowed: APIParameters.follow.map(\.name))
        let threshold = try q.int(APIParameters.followThreshold) ?? APIParameters.followThreshold.integerDefault
        let notice = try q.int(APIParameters.followNotice) ?? APIParameters.followNotice.integerDefault
        let language = try Self.language(q, request)
        // The header's id, as a browser's EventSource sends it on reconnecting; one that is
        // not a number is as none.
        let lastId = request.headers[.init("Last-Event-ID")!].flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }
        _ = try served()
        let subscription: FollowSubscription
        do throws(FollowRefusal) {
            subscription = try follow.open(token: token, client: client, lastEventId: lastId,
                                           options: FollowOptions(threshold: Int64(threshold), notice: Int64(notice) * 60, language: language),
                                           now: clock.now(), tokens: tokens)
        } catch {
            throw Self.refusal(error)
        }
        let opening = Array("retry: 5000\n\n".utf8)
            + Self.frame(event: "following", id: nil, data: FollowEventJSON.following(subscription.trip, rides: subscription.rides, language: language))
        let heartbeat = heartbeatSeconds
        var headers = HTTPFields()
        headers[.contentType] = "text/event-stream; charset=utf-8"
        headers[.cacheControl] = "no-store"
        headers[.contentLanguage] = language.rawValue
        // Proxies such as nginx hold a response back unless told not to.
        headers[.init("X-Accel-Buffering")!] = "no"
        let frames = subscription.frames
        return Response(status: .ok, headers: headers, body: ResponseBody { writer in
            try await writer.write(ByteBuffer(bytes: opening))
            // Frames and heartbeats merged: one task reads the hub's frames, the other
            // writes a comment when nothing was sent for a while.
            let (merged, input) = AsyncStream<[UInt8]?>.makeStream()
            let reader = Task {
                for await f in frames { input.yield(f) }
                input.yield(nil)
            }
            let beat = Task {
                while !Task.isCancelled {
                    try? await Task.sleep(for: .seconds(heartbeat))
                    input.yield(Array(": heartbeat\n\n".utf8))
                }
            }
            defer { reader.cancel(); beat.cancel(); input.finish() }
            // A server shutting down ends its streams (their clients reconnect elsewhere
            // with Last-Event-ID); without this it would wait for every trip's arrival.
            try await withGracefulShutdownHandler {
                for await f in merged {
                    guard let f else { break }
                    try await writer.write(ByteBuffer(bytes: f))
                }
            } onGracefulShutdown: {
                input.yield(nil)
            }
            try await writer.finish(nil)
        })
    }

    /// A refused stream's error: each case its documented status, never a 5xx but "not ready".
    static func refusal(_ r: FollowRefusal) -> APIError {
        switch r {
        case .token(.tooLong):
            return APIError(.tokenTooLong, "This trip token is longer than any this server writes (\(TripTokens.maximumLength) characters); use the tripToken of a plan answer as it is.")
        case .token(.invalid):
            return APIError(.invalidToken, "This is not a trip token this server signed (it may be cut short, changed, or from another server); use the tripToken of a plan answer.")
        case .token(.over(let end)):
            return APIError(.tripOver, "This trip ended at \(PlanAnswerJSON.iso(end, TimeZone(identifier: "UTC")!)), more than an hour ago: there is nothing left to follow.",
                            details: ["plannedEnd": .text(PlanAnswerJSON.iso(end, TimeZone(identifier: "UTC")!))])
        case .notMatched(let e):
            return APIError(.tripNotServed, e.description, details: ["feed": .text(e.feed), "tokenVersion": .text(e.tokenVersion)])
        case .tooMany(let perClient, let limit):
            return APIError(.tooManyStreams, perClient
                            ? "One address may follow at most \(limit) trips at once here; close a stream first."
                            : "This server follows at most \(limit) trips at once and is full; please try again in a minute.",
                            details: ["limit": .number(Double(limit)), "retryAfterSeconds": .number(60)])
        case .notReady:
            return APIError(.notReady, "The timetable is still loading; try again in a few seconds.", details: ["retryAfterSeconds": .number(5)])
        }
    }
}
