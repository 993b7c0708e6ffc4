import FeedNetwork
import Follow
import Foundation
import GTFS
import GTFSRealtime
import PlanJSON
import Planner
import Realtime
import Synchronization
import Testing
import TransitModel
import TransitTesting

/// BART's static feed and real TripUpdates of 2019-08-07, a trip planned on them and
/// followed while a sequence of messages built from the real one changes its ride.
struct BARTFollowWorld {
    let snapshot: FeedSnapshot
    let keys: RealtimeTripKeys
    let network: TransitNetwork
    let planner: JourneyPlanner
    let base: RealtimeMessage
    let matcher: TripMatcher
    let tokens = TripTokens(secret: Array(repeating: 7, count: 32))
    /// 2019-08-07 10:40 PDT.
    let planTime: Int64 = 1_565_199_600

    static let shared: Result<BARTFollowWorld, Error> = Result { try BARTFollowWorld() }

    init() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let folder = ProcessInfo.processInfo.environment["TRANSIT_SHARED_DATA"].map { URL(fileURLWithPath: $0) }
            ?? root.deletingLastPathComponent().appendingPathComponent("shared/data")
        let rt = folder.appendingPathComponent("gtfs-rt/bart")
        let path = rt.appendingPathComponent("bart-rt.zip").path
        (snapshot, _) = try SnapshotSink.load(path: path, feedId: "bart")
        keys = try RealtimeTripKeys.read(snapshot, feeds: ["bart": path])
        network = try TimetableBuilder.build(snapshot)
        planner = JourneyPlanner(network: network)
        base = try RealtimeMessage.decode(Data(contentsOf: rt.appendingPathComponent("bart-trip-updates.pb")))
        matcher = TripMatcher(network: network, versions: ["bart": "1"])
    }

    func state(_ m: RealtimeMessage) -> RealtimeState { RealtimeState.build(network: network, messages: ["bart": m]) }

    /// The model's first itinerary from 12th St. to the airport at `planTime` on `state`, as
    /// a followed trip.
    func plannedTrip(on state: RealtimeState?) throws -> FollowedTrip {
        let answer = try planner.answer(PlanQuery(from: .stop(feed: nil, id: "12TH"), to: .stop(feed: nil, id: "SFIA"),
                                                  time: .instant(planTime)), realtime: state).get()
        return try #require(matcher.followedTrip(answer.options[answer.modelFirst].journey))
    }

    /// The real message with trip `tripId`'s update replaced: delayed by `delay` seconds
    /// from stop_sequence `from` on, or cancelled.
    func message(tripId: String, delay: Int32?, from sequence: Int32) -> RealtimeMessage {
        var m = base
        m.tripUpdates.removeAll { $0.trip.tripId == tripId }
        if let delay {
            let e = RealtimeMessage.StopTimeEvent(delay: delay)
            m.tripUpdates.append(.init(entityId: "follow-\(tripId)", trip: .init(tripId: tripId, scheduleRelationship: .scheduled),
                                       stopTimeUpdates: [.init(stopSequence: Int(sequence), arrival: e, departure: e)]))
        } else {
            m.tripUpdates.append(.init(entityId: "follow-\(tripId)", trip: .init(tripId: tripId, scheduleRelationship: .canceled),
                                       stopTimeUpdates: []))
        }
        return m
    }
}

@Suite(.serialized) struct FollowReplayTests {
    /// What a hub rendered, in order (kind, id, event).
    final class Recorder: Sendable {
        let events = Mutex<[(id: Int, event: FollowEvent)]>([])
        func render(_ e: FollowEvent, _ id: Int, _ w: TripWatch) -> [UInt8] {
            events.withLock { $0.append((id, e)) }
            return Array("id: \(id)\nevent: \(e.kind.rawValue)\ndata: ".utf8) + FollowEventJSON.event(e, id: id, watch: w) + [10, 10]
        }
        func take() -> [FollowEvent] { events.withLock { l in defer { l = [] }; return l.map(\.event) } }
    }

    @Test("BART replay: growing delays, then a cancellation with a new itinerary the reference confirms")
    func replay() throws {
        let w = try BARTFollowWorld.shared.get()
        let state0 = w.state(w.base)
        let answer = try w.planner.answer(PlanQuery(from: .stop(feed: nil, id: "12TH"), to: .stop(feed: nil, id: "SFIA"),
                                                    time: .instant(w.planTime)), numItineraries: 3, realtime: state0).get()
        let option = answer.options[answer.modelFirst]
        let trip = try #require(w.matcher.followedTrip(option.journey))
        try #require(trip.rides.count == 1)
        let ride = trip.rides[0]
        #expect(ride.boardStopId == "12TH" && ride.alightStopId == "SFIA")
        #expect(ride.plannedDeparture == option.itinerary.summary.departure && ride.plannedArrival == option.itinerary.summary.arrival)

        let recorder = Recorder()
        let hub = FollowHub { e, id, watch in recorder.render(e, id, watch) }
        let context = FollowContext(matcher: w.matcher, planner: w.planner, tokens: w.tokens)
        // Half an hour before the ride: no leg-upcoming yet.
        var now = ride.plannedDeparture - 1800
        hub.update(context, realtime: state0, now: now)
        let token = w.tokens.token(trip)
        let subscription = try hub.open(token: token, client: "test", lastEventId: nil, options: FollowOptions(), now: now, tokens: w.tokens)
        #expect(recorder.take().isEmpty, "nothing changed since the plan")

        // Growing delays, each told within the swap that brings it, with old and new times.
        var told = (ride.plannedDeparture, ride.plannedArrival)
        for delay: Int32 in [120, 300, 540] {
            now += 60
            hub.update(context, realtime: w.state(w.message(tripId: ride.tripId, delay: delay, from: ride.boardSequence)), now: now)
            let events = recorder.take()
            try #require(events.count == 1, "delay \(delay): \(events.map(\.message))")
            let e = events[0]
            #expect(e.kind == .delay)
            #expect(e.oldDeparture == told.0 && e.oldArrival == told.1)
            #expect(e.newDeparture == ride.scheduledDeparture + Int64(delay) && e.newArrival == ride.scheduledArrival + Int64(delay))
            #expect(e.message.contains("\(delay / 60) min late"), "\(e.message)")
            told = (e.newDeparture!, e.newArrival!)
        }
        // A delay under the threshold (30 s more) is not told.
        now += 60
        hub.update(context, realtime: w.state(w.message(tripId: ride.tripId, delay: 570, from: ride.boardSequence)), now: now)
        #expect(recorder.take().isEmpty)

        // The cancellation: a new itinerary from the first boarding stop at its planned departure.
        now += 60
        let cancelled = w.message(tripId: ride.tripId, delay: nil, from: 0)
        let state4 = w.state(cancelled)
        hub.update(context, realtime: state4, now: now)
        let events = recorder.take()
        try #require(events.count == 1, "\(events.map(\.message))")
        #expect(events[0].kind == .cancellation)
        guard case .itinerary(let newAnswer, let o, let newTrip, let newToken)? = events[0].continuation else {
            Issue.record("no new itinerary: \(events[0].message)"); return
        }
        let journey = newAnswer.options[o].journey
        #expect(!newTrip.rides.contains { $0.tripId == ride.tripId && $0.serviceDate == ride.serviceDate })
        #expect(try w.tokens.trip(newToken, now: now) == newTrip)

        // The reference router on the same message: the earliest arrival from 12TH at the
        // planned departure, with the fewest rides for it.
        let updated = ReferenceRealtime.applyDetailed(["bart": cancelled], to: w.snapshot, keys: w.keys)
        let reference = ReferenceRouter(snapshot: updated.snapshot)
        let from = Int32(w.snapshot.stops.firstIndex { $0.stopId == "12TH" }!), to = Int32(w.snapshot.stops.firstIndex { $0.stopId == "SFIA" }!)
        let theirs = reference.departAt(from: .stop(from), to: .stop(to), time: ride.plannedDeparture).filter { $0.rides > 0 }
        let best = try #require(theirs.min { ($0.arrival, $0.rides) < ($1.arrival, $1.rides) })
        #expect(journey.arrival == best.arrival && journey.rides == best.rides,
                "planner \(journey.arrival)/\(journey.rides) rides, reference \(best.arrival)/\(best.rides)")
        #expect(events[0].message.contains("New plan"), "\(events[0].message)")

        // From now on the new trip is followed: its boarding comes, then arrival.
        let next = newTrip.rides[0]
        hub.tick(now: next.plannedDeparture - 240)
        let upcoming = recorder.take()
        #expect(upcoming.map(\.kind) == [.legUpcoming] && upcoming.first?.minutes == 4, "\(upcoming.map(\.message))")
        hub.tick(now: newTrip.rides.last!.plannedArrival + Int64(newTrip.egressSeconds))
        let end = recorder.take()
        #expect(end.last?.kind == .arrived, "\(end.map(\.message))")
        _ = subscription
    }

    @Test("in Chinese: the same events at the same times as in English, each message in Chinese")
    func chinese() throws {
        let w = try BARTFollowWorld.shared.get()
        let state0 = w.state(w.base)
        let trip = try w.plannedTrip(on: state0)
        let ride = trip.rides[0]
        let byLanguage = Mutex<[Language: [FollowEvent]]>([:])
        let hub = FollowHub { e, id, watch in
            byLanguage.withLock { $0[watch.options.language, default: []].append(e) }
            return FollowEventJSON.event(e, id: id, watch: watch)
        }
        let context = FollowContext(matcher: w.matcher, planner: w.planner, tokens: w.tokens)
        var now = ride.plannedDeparture - 1800
        hub.update(context, realtime: state0, now: now)
        let token = w.tokens.token(trip)
        let en = try hub.open(token: token, client: "en", lastEventId: nil, options: FollowOptions(), now: now, tokens: w.tokens)
        let zh = try hub.open(token: token, client: "zh", lastEventId: nil, options: FollowOptions(language: .zhHans), now: now, tokens: w.tokens)
        #expect(FollowText.following(zh.trip, rides: zh.rides, language: .zhHans).hasPrefix("正在跟踪你的行程："))
        for delay: Int32 in [120, 300] {
            now += 60
            hub.update(context, realtime: w.state(w.message(tripId: ride.tripId, delay: delay, from: ride.boardSequence)), now: now)
        }
        now += 60
        hub.update(context, realtime: w.state(w.message(tripId: ride.tripId, delay: nil, from: 0)), now: now)
        let events = byLanguage.withLock { $0 }
        let english = events[.en] ?? [], chinese = events[.zhHans] ?? []
        #expect(english.count == 3 && chinese.count == english.count, "\(english.map(\.message)) / \(chinese.map(\.message))")
        for (a, b) in zip(english, chinese) {
            #expect(a.kind == b.kind && a.time == b.time && a.newDeparture == b.newDeparture && a.newArrival == b.newArrival
                    && a.oldDeparture == b.oldDeparture && a.line == b.line)
            #expect(b.message.unicodeScalars.contains { (0x4E00...0x9FFF).contains($0.value) } && !b.message.contains(" late"), "\(b.message)")
        }
        #expect(chinese.first?.message.contains("晚点 2 分钟") == true, "\(chinese.first?.message ?? "")")
        #expect(chinese.last?.message.contains("已取消") == true && chinese.last?.message.contains("新的方案") == true, "\(chinese.last?.message ?? "")")
        _ = (en, zh)
    }

    @Test("no event is lost when a client reconnects with Last-Event-ID")
    func reconnect() async throws {
        let w = try BARTFollowWorld.shared.get()
        let state0 = w.state(w.base)
        let trip = try w.plannedTrip(on: state0)
        let ride = trip.rides[0]
        let recorder = Recorder()
        let hub = FollowHub { e, id, watch in recorder.render(e, id, watch) }
        let context = FollowContext(matcher: w.matcher, planner: w.planner, tokens: w.tokens)
        var now = ride.plannedDeparture - 3600
        hub.update(context, realtime: state0, now: now)
        let token = w.tokens.token(trip)

        func frames(_ s: FollowSubscription, count: Int) async -> [String] {
            var out: [String] = []
            var it = s.frames.makeAsyncIterator()
            while out.count < count, let f = await it.next() { out.append(String(decoding: f, as: UTF8.self)) }
            return out
        }
        func id(_ frame: String) -> Int { Int(frame.split(separator: "\n")[0].dropFirst(4))! }

        var lastSeen: Int
        do {
            let first = try hub.open(token: token, client: "a", lastEventId: nil, options: FollowOptions(), now: now, tokens: w.tokens)
            now += 60
            hub.update(context, realtime: w.state(w.message(tripId: ride.tripId, delay: 120, from: ride.boardSequence)), now: now)
            let got = await frames(first, count: 1)
            lastSeen = id(got[0])
        }
        // Gone: the stream was dropped (the client's connection broke).
        for _ in 0..<100 where hub.status.streams > 0 { try await Task.sleep(for: .milliseconds(10)) }
        #expect(hub.status.streams == 0 && hub.status.trips == 1, "the trip is kept for a reconnection")
        // Two changes while it is away.
        now += 60
        hub.update(context, realtime: w.state(w.message(tripId: ride.tripId, delay: 300, from: ride.boardSequence)), now: now)
        now += 60
        hub.update(context, realtime: w.state(w.message(tripId: ride.tripId, delay: 600, from: ride.boardSequence)), now: now)
        let again = try hub.open(token: token, client: "a", lastEventId: lastSeen, options: FollowOptions(), now: now, tokens: w.tokens)
        let missed = await frames(again, count: 2)
        #expect(missed.map(id) == [lastSeen + 1, lastSeen + 2])
        #expect(missed.allSatisfy { $0.contains("event: delay") })
        #expect(missed[1].contains("10 min late"), "\(missed[1])")
        _ = recorder.take()
    }

    @Test("tokens: tampered, over, oversized, and for a trip no longer in the timetable are refused")
    func refusals() throws {
        let w = try BARTFollowWorld.shared.get()
        var trip = try w.plannedTrip(on: nil)
        let hub = FollowHub { _, _, _ in [] }
        let context = FollowContext(matcher: w.matcher, planner: w.planner, tokens: w.tokens)
        let now = trip.rides[0].plannedDeparture - 600
        hub.update(context, realtime: nil, now: now)
        func refusal(_ token: String, at t: Int64 = now) -> FollowRefusal? {
            do { _ = try hub.open(token: token, client: "r", lastEventId: nil, options: FollowOptions(), now: t, tokens: w.tokens); return nil }
            catch { return error }
        }
        let good = w.tokens.token(trip)
        #expect(refusal(good) == nil)
        var bytes = Array(good.utf8)
        bytes[bytes.count / 2] = bytes[bytes.count / 2] == UInt8(ascii: "A") ? UInt8(ascii: "B") : UInt8(ascii: "A")
        #expect(refusal(String(decoding: bytes, as: UTF8.self)) == .token(.invalid))
        #expect(refusal(String(repeating: "A", count: 3000)) == .token(.tooLong))
        #expect(refusal(good, at: trip.plannedEnd! + 3601) == .token(.over(end: trip.plannedEnd!)))
        // An older feed version whose trip is still there: matched again.
        trip.feeds = [.init(id: "bart", version: "0")]
        #expect(refusal(w.tokens.token(trip)) == nil)
        // A trip the timetable does not have (another time): a clear error naming the versions.
        trip.rides[0].scheduledDeparture += 60
        guard case .notMatched(let e)? = refusal(w.tokens.token(trip)) else { Issue.record("not refused"); return }
        #expect(e.description.contains("version 0") && e.description.contains("version 1 is served"), "\(e.description)")
    }
}

@Suite(.serialized) struct FollowNewVersionTests {
    @Test("a new feed version: a trip still there keeps what it was told; one gone ends its streams with an error")
    func newVersion() async throws {
        let w = try BARTFollowWorld.shared.get()
        let state0 = w.state(w.base)
        let trip = try w.plannedTrip(on: state0)
        let ride = trip.rides[0]
        let recorder = FollowReplayTests.Recorder()
        let hub = FollowHub { e, id, watch in recorder.render(e, id, watch) }
        let now = ride.plannedDeparture - 3600
        let delayed = w.state(w.message(tripId: ride.tripId, delay: 240, from: ride.boardSequence))
        hub.update(FollowContext(matcher: w.matcher, planner: w.planner, tokens: w.tokens), realtime: delayed, now: now)
        let subscription = try hub.open(token: w.tokens.token(trip), client: "v", lastEventId: nil, options: FollowOptions(), now: now,
                                        tokens: w.tokens)
        #expect(recorder.take().map(\.kind) == [.delay])
        // Version 2 of the same feed (a new timetable, the trip unchanged): nothing told again.
        let v2 = TripMatcher(network: w.network, versions: ["bart": "2"])
        hub.update(FollowContext(matcher: v2, planner: w.planner, tokens: w.tokens), realtime: delayed, now: now + 60)
        #expect(recorder.take().isEmpty)
        // Version 3 is another network altogether (no such trip): the stream ends with an error.
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let folder = ProcessInfo.processInfo.environment["TRANSIT_SHARED_DATA"].map { URL(fileURLWithPath: $0) }
            ?? root.deletingLastPathComponent().appendingPathComponent("shared/data")
        let (other, _) = try SnapshotSink.load(path: folder.appendingPathComponent("gtfs/porto-alegre-trensurb-2019.zip").path, feedId: "bart")
        let network = try TimetableBuilder.build(other)
        let v3 = TripMatcher(network: network, versions: ["bart": "3"])
        hub.update(FollowContext(matcher: v3, planner: JourneyPlanner(network: network), tokens: w.tokens), realtime: nil, now: now + 120)
        var frames: [String] = []
        for await f in subscription.frames { frames.append(String(decoding: f, as: UTF8.self)) }
        #expect(frames.first?.contains("event: delay") == true)
        #expect(frames.last?.hasPrefix("event: error") == true && frames.last?.contains("version 3 is served") == true, "\(frames.last ?? "")")
        #expect(hub.status.trips == 0)
    }
}
