import Follow
import Foundation
import GTFSRealtime
import Planner
import Realtime
import Synchronization
import Testing
import TransitModel
import TransitTesting

/// A thousand followed trips on one hub (the short version of Scripts/bench-follow.sh):
/// one pass per realtime state tells each exactly what a watch of its own tells it, and
/// each trip's memory stays small.
@Suite(.serialized) struct ManyFollowersTests {
    @Test("1,000 followed trips: one pass per realtime state, the same events as each alone, a few KB each")
    func thousand() throws {
        let w = try BARTFollowWorld.shared.get()
        let state0 = w.state(w.base)
        // Trips planned between random stations through the day on the static timetable.
        let stations = w.snapshot.stops.enumerated().filter { $0.element.locationType == 0 }.map(\.element.stopId)
        try #require(stations.count > 20)
        var rng = SeededRandom(seed: 22)
        var trips: [FollowedTrip] = []
        var attempts = 0
        while trips.count < 1000 && attempts < 5000 {
            attempts += 1
            let a = stations.randomElement(using: &rng)!, b = stations.randomElement(using: &rng)!
            guard a != b else { continue }
            let t = w.planTime - 3 * 3600 + Int64.random(in: 0..<(12 * 3600), using: &rng)
            guard let answer = try? w.planner.answer(PlanQuery(from: .stop(feed: nil, id: a), to: .stop(feed: nil, id: b), time: .instant(t),
                                                               window: 0), numItineraries: 1).get(),
                  let trip = w.matcher.followedTrip(answer.options[answer.modelFirst].journey) else { continue }
            trips.append(trip)
        }
        try #require(trips.count == 1000, "\(trips.count) trips planned in \(attempts) attempts")

        let counts = Mutex<[String: Int]>([:])
        let hub = FollowHub(maxStreams: 2000, maxPerClient: 2000) { e, _, _ in
            counts.withLock { $0[e.kind.rawValue, default: 0] += 1 }
            return Array(e.message.utf8)
        }
        let context = FollowContext(matcher: w.matcher, planner: w.planner, tokens: w.tokens)
        let now = w.planTime - 4 * 3600
        hub.update(context, realtime: nil, now: now)
        var subscriptions: [FollowSubscription] = []
        for trip in trips {
            subscriptions.append(try hub.open(token: w.tokens.token(trip), client: "bench", lastEventId: nil, options: FollowOptions(),
                                              now: now, tokens: w.tokens))
        }
        let status = hub.status
        #expect(status.streams == 1000 && status.trips <= 1000)
        let perTrip = status.bytes / max(1, status.trips)
        print("1,000 followed trips: \(status.trips) distinct, \(status.bytes) bytes, \(perTrip) bytes per trip")
        #expect(perTrip < 4096, "\(perTrip) bytes per followed trip")

        // The real message: one pass, and each trip told what a watch of its own is told.
        counts.withLock { $0 = [:] }
        let started = DispatchTime.now().uptimeNanoseconds
        hub.update(context, realtime: state0, now: now + 60)
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
        print("pass over 1,000 followed trips for a new realtime state: \(String(format: "%.2f", seconds * 1000)) ms (debug build); events \(counts.withLock { $0 })")
        var expected: [String: Int] = [:]
        var seen = Set<FollowedTrip.Ride.Key>()
        for trip in trips where seen.insert(trip.key).inserted {
            var alone = try TripWatch(trip: trip, matcher: w.matcher)
            for e in alone.look(at: state0, now: now + 60, context: context) { expected[e.kind.rawValue, default: 0] += 1 }
        }
        #expect(counts.withLock { $0 } == expected)
        #expect(expected["delay", default: 0] > 0, "the real message delays some followed rides")
        // The same state again: looked at once only.
        counts.withLock { $0 = [:] }
        hub.update(context, realtime: state0, now: now + 120)
        #expect(counts.withLock { $0 }.isEmpty)
        _ = subscriptions

        // As a server runs it: the new itineraries searched for and the events rendered off
        // the pass (here on dispatch queues); the pass alone is timed, and the same events come.
        let later = Mutex<[String: Int]>([:])
        let server = FollowHub(maxStreams: 2000, maxPerClient: 2000, schedule: { job in DispatchQueue.global().async(execute: job) },
                               delivery: DispatchQueue(label: "test-delivery")) { e, _, _ in
            later.withLock { $0[e.kind.rawValue, default: 0] += 1 }
            return []
        }
        server.update(context, realtime: nil, now: now)
        var held: [FollowSubscription] = []
        for trip in trips {
            held.append(try server.open(token: w.tokens.token(trip), client: "bench", lastEventId: nil, options: FollowOptions(),
                                        now: now, tokens: w.tokens))
        }
        later.withLock { $0 = [:] }
        let t0 = DispatchTime.now().uptimeNanoseconds
        server.update(context, realtime: state0, now: now + 60)
        let pass = Double(DispatchTime.now().uptimeNanoseconds - t0) / 1e6
        for _ in 0..<500 where later.withLock({ $0 }) != expected { Thread.sleep(forTimeInterval: 0.01) }
        print("the pass alone, searches and rendering off it: \(String(format: "%.2f", pass)) ms (debug build)")
        #expect(later.withLock { $0 } == expected)
        _ = held
    }
}

extension FollowedTrip {
    /// Trips that make the same token (one followed trip however many follow it).
    var key: Ride.Key { Ride.Key(rides: rides.map { "\($0.tripId)@\($0.serviceDate.daysSinceEpoch):\($0.boardSequence)-\($0.alightSequence):\($0.plannedDeparture)" }.joined(separator: ","),
                                 access: accessSeconds, egress: egressSeconds) }
}

extension FollowedTrip.Ride {
    struct Key: Hashable { var rides: String; var access: Int32; var egress: Int32 }
}
