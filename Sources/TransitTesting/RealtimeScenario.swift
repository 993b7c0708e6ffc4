import Foundation
import GTFSRealtime
import TransitModel

/// Seeded GTFS-Realtime TripUpdates messages for a snapshot and a service date, for the
/// randomized comparison of the realtime overlay with `ReferenceRealtime` and for
/// benchmarks: every rule of docs/routing-model.md "Realtime" gets exercised.
///
/// Each update is one of (weights in `Kind.weight`): a delay at one stop carried to the end
/// of the trip, with one update in ten late by 15–60 minutes so that the trip overtakes
/// others of its route; absolute times (`time`, sometimes with a contradicting `delay`);
/// a delay that a later update ends; `NO_DATA` in between; `SKIPPED` stops; a trip-level
/// delay alone; an update without stop times; a `CANCELED` or `DELETED` trip; an `ADDED`
/// trip and a trip id the feed lacks; times that go backwards (an early arrival after a
/// late departure, or an arrival after its departure); a stop_sequence the trip lacks and
/// stops out of order; a trip named by route, direction and start time; a trip that does
/// not run that day; an unreadable date. Stop time updates name their stop by
/// `stop_sequence` (when `keys` are given) or by `stop_id`; some updates leave
/// `start_date` out (the header's time, noon of `date`, gives it). Trips picked twice
/// make duplicate updates.
public enum RealtimeScenario {
    /// What an update does.
    public enum Kind: CaseIterable, Sendable {
        case delay, absoluteTimes, delayEnded, noData, skipped, tripDelay, noStopTimes, canceled
        case added, unknownTrip, backwards, badStop, byRoute, notRunning, badDate

        /// Relative frequency among the updates made.
        var weight: Int {
            switch self {
            case .delay: return 26
            case .absoluteTimes: return 10
            case .delayEnded: return 8
            case .noData: return 6
            case .skipped: return 12
            case .tripDelay: return 4
            case .noStopTimes: return 2
            case .canceled: return 10
            case .added: return 3
            case .unknownTrip: return 3
            case .backwards: return 6
            case .badStop: return 2
            case .byRoute: return 3
            case .notRunning: return 2
            case .badDate: return 1
            }
        }
    }

    /// A message of `updates` TripUpdates for the trips of feed `feedId` (default: the
    /// first) that run on `date`, with the header time noon of `date`. The same arguments
    /// make the same message.
    public static func message(for snapshot: FeedSnapshot, feedId: String? = nil, date: ServiceDate, seed: UInt64,
                               updates: Int = 300, keys: RealtimeTripKeys? = nil) -> RealtimeMessage {
        let feed = Int32(feedId.flatMap { snapshot.feedIds.firstIndex(of: $0) } ?? 0)
        var rng = SeededRandom(seed: seed)
        func zone(ofTrip t: Int) -> TimeZone {
            let route = snapshot.routes[Int(snapshot.trips[t].route)]
            let agency = route.agency >= 0 && Int(route.agency) < snapshot.agencies.count ? Int(route.agency)
                : (snapshot.agencies.firstIndex { $0.feed == feed } ?? 0)
            return TimeZone(identifier: snapshot.agencies[agency].timezone) ?? TimeZone(identifier: "UTC")!
        }
        var frequency = Set<Int32>()
        for f in snapshot.frequencies { frequency.insert(f.trip) }
        // Trips of the feed with times at both ends, not from frequencies.txt, by whether they run on `date`.
        var running: [Int] = [], idle: [Int] = []
        for (t, trip) in snapshot.trips.enumerated() where trip.feed == feed && !frequency.contains(Int32(t)) {
            let range = snapshot.stopTimes(ofTrip: t)
            guard range.count >= 2, snapshot.stopTimeDeparture[range.lowerBound] != FeedSnapshot.untimed,
                  snapshot.stopTimeArrival[range.upperBound - 1] != FeedSnapshot.untimed else { continue }
            if snapshot.services[Int(trip.service)].runs(on: date) { running.append(t) } else { idle.append(t) }
        }
        let feedZone = snapshot.agencies.first { $0.feed == feed }.flatMap { TimeZone(identifier: $0.timezone) }
            ?? TimeZone(identifier: "UTC")!
        let noon: Int64 = ReferenceTimetable.noonMinus12Hours(date, feedZone) + 43_200
        var message = RealtimeMessage(timestamp: noon)
        guard !running.isEmpty else { return message }
        var kinds: [Kind] = []
        for kind in Kind.allCases { kinds += repeatElement(kind, count: kind.weight) }

        for n in 0..<updates {
            let kind = kinds[Int.random(in: 0..<kinds.count, using: &rng)]
            let pool: [Int] = kind == Kind.notRunning && !idle.isEmpty ? idle : running
            let t: Int = pool[Int.random(in: 0..<pool.count, using: &rng)]
            let trip = snapshot.trips[t], range = snapshot.stopTimes(ofTrip: t), count = range.count
            let base: Int64 = ReferenceTimetable.noonMinus12Hours(date, zone(ofTrip: t))
            // One start_date in five is left out (the header's time gives the date).
            let leaveDateOut = Int.random(in: 0..<5, using: &rng) == 0
            var descriptor = RealtimeMessage.TripDescriptor(tripId: trip.tripId, startDate: leaveDateOut ? nil : date.description)
            var stopUpdates: [RealtimeMessage.StopTimeUpdate] = []
            var tripDelay: Int32?

            // A stop time update naming stop time k of the trip (0-based), by stop_sequence or stop_id.
            func at(_ k: Int, arrival: RealtimeMessage.StopTimeEvent? = nil, departure: RealtimeMessage.StopTimeEvent? = nil,
                    _ relationship: RealtimeMessage.StopRelationship = .scheduled) -> RealtimeMessage.StopTimeUpdate {
                let i = range.lowerBound + k
                let stopId = snapshot.stops[Int(snapshot.stopTimeStop[i])].stopId
                if let keys, keys.stopSequence[i] >= 0, Bool.random(using: &rng) {
                    let alsoStopId = Bool.random(using: &rng)
                    return RealtimeMessage.StopTimeUpdate(stopSequence: Int(keys.stopSequence[i]), stopId: alsoStopId ? stopId : nil,
                                                          arrival: arrival, departure: departure, scheduleRelationship: relationship)
                }
                return RealtimeMessage.StopTimeUpdate(stopId: stopId, arrival: arrival, departure: departure,
                                                      scheduleRelationship: relationship)
            }
            // A delay event, sometimes arrival or departure alone.
            func delayed(_ k: Int, _ seconds: Int32) -> RealtimeMessage.StopTimeUpdate {
                let uncertainty: Int32? = Bool.random(using: &rng) ? 30 : nil
                let e = RealtimeMessage.StopTimeEvent(delay: seconds, uncertainty: uncertainty)
                switch Int.random(in: 0..<4, using: &rng) {
                case 0: return at(k, arrival: e)
                case 1: return at(k, departure: e)
                default: return at(k, arrival: e, departure: e)
                }
            }
            func smallDelay() -> Int32 { Int32.random(in: -60...600, using: &rng) }
            func largeDelay() -> Int32 { Int32.random(in: 900...3600, using: &rng) }
            func someDelay(largeOneIn n: Int) -> Int32 { Int.random(in: 0..<n, using: &rng) == 0 ? largeDelay() : smallDelay() }
            func stop(_ from: Int = 0) -> Int { Int.random(in: from..<count, using: &rng) }

            switch kind {
            case .delay:
                stopUpdates = [delayed(stop(), someDelay(largeOneIn: 10))]
            case .absoluteTimes:
                // Expected times at a few stops in order, each `time` with, sometimes, a `delay` it beats.
                var k = stop()
                var shift = Int64.random(in: 0...900, using: &rng)
                while k < count {
                    let i = range.lowerBound + k
                    var arrival = snapshot.stopTimeArrival[i], departure = snapshot.stopTimeDeparture[i]
                    if arrival == FeedSnapshot.untimed { arrival = departure }
                    if departure == FeedSnapshot.untimed { departure = arrival }
                    if arrival == FeedSnapshot.untimed {
                        stopUpdates.append(delayed(k, Int32(shift)))
                    } else {
                        let wrong: Int32? = Bool.random(using: &rng) ? Int32.random(in: -300...300, using: &rng) : nil
                        let arrivalTime: Int64 = base + Int64(arrival) + shift
                        let departureTime: Int64 = base + Int64(departure) + shift
                        stopUpdates.append(at(k, arrival: RealtimeMessage.StopTimeEvent(delay: wrong, time: arrivalTime),
                                              departure: RealtimeMessage.StopTimeEvent(delay: wrong, time: departureTime)))
                    }
                    k += Int.random(in: 1...4, using: &rng)
                    shift = Swift.max(Int64(0), shift + Int64.random(in: -120...240, using: &rng))
                }
            case .delayEnded:
                let k = stop()
                stopUpdates = [delayed(k, someDelay(largeOneIn: 3))]
                if k + 1 < count { stopUpdates.append(delayed(stop(k + 1), 0)) }
            case .noData:
                let k = stop()
                stopUpdates = [delayed(k, someDelay(largeOneIn: 3))]
                if k + 1 < count {
                    let j = stop(k + 1)
                    stopUpdates.append(at(j, .noData))
                    if j + 1 < count && Bool.random(using: &rng) {
                        stopUpdates.append(delayed(stop(j + 1), Int32.random(in: 0...300, using: &rng)))
                    }
                }
            case .skipped:
                var k = Bool.random(using: &rng) ? 0 : stop()
                if Bool.random(using: &rng) {
                    stopUpdates.append(delayed(k, someDelay(largeOneIn: 4)))
                    k += 1
                }
                var skips = Int.random(in: 1...2, using: &rng)
                while k < count && skips > 0 {
                    let j = stop(k)
                    stopUpdates.append(at(j, .skipped))
                    k = j + 1
                    skips -= 1
                }
                if k < count && Bool.random(using: &rng) { stopUpdates.append(delayed(stop(k), smallDelay())) }
            case .tripDelay:
                tripDelay = someDelay(largeOneIn: 4)
            case .noStopTimes:
                break
            case .canceled:
                descriptor.scheduleRelationship = Int.random(in: 0..<4, using: &rng) == 0 ? .deleted : .canceled
            case .added:
                descriptor = RealtimeMessage.TripDescriptor(tripId: "added-\(seed)-\(n)", routeId: snapshot.routes[Int(trip.route)].routeId,
                                                            startTime: "08:00:00", startDate: date.description, scheduleRelationship: .added)
                stopUpdates = [at(0, arrival: RealtimeMessage.StopTimeEvent(time: noon)),
                               at(1, arrival: RealtimeMessage.StopTimeEvent(time: noon + 600))]
            case .unknownTrip:
                descriptor.tripId = "unknown-\(seed)-\(n)"
                stopUpdates = [delayed(0, 60)]
            case .backwards:
                if Bool.random(using: &rng) {
                    // Late leaving one stop, early at the next: arrives before it left.
                    let k = stop() % (count - 1)
                    stopUpdates = [delayed(k, 1200), at(k + 1, arrival: RealtimeMessage.StopTimeEvent(delay: -1200))]
                } else {
                    // Arrives long after it departs, at one stop.
                    stopUpdates = [at(stop(), arrival: RealtimeMessage.StopTimeEvent(delay: 1800),
                                      departure: RealtimeMessage.StopTimeEvent(delay: 0))]
                }
            case .badStop:
                if Bool.random(using: &rng) {
                    stopUpdates = [RealtimeMessage.StopTimeUpdate(stopSequence: 999_999, arrival: RealtimeMessage.StopTimeEvent(delay: 60)),
                                   delayed(0, 60)]
                } else {
                    // Two stop times in the wrong order (by stop_sequence: unordered; by stop id: none after).
                    stopUpdates = [delayed(1, 60), delayed(0, 60)]
                }
            case .byRoute:
                let first = snapshot.stopTimeDeparture[range.lowerBound]
                func two(_ v: Int32) -> String { v < 10 ? "0\(v)" : "\(v)" }
                var direction: Int?
                if let keys, keys.direction[t] >= 0 { direction = Int(keys.direction[t]) }
                let startTime: String = two(first / 3600) + ":" + two((first / 60) % 60) + ":" + two(first % 60)
                descriptor = RealtimeMessage.TripDescriptor(routeId: snapshot.routes[Int(trip.route)].routeId, directionId: direction,
                                                            startTime: startTime, startDate: date.description)
                stopUpdates = [delayed(stop(), smallDelay())]
            case .notRunning:
                stopUpdates = [delayed(0, 120)]
            case .badDate:
                descriptor.startDate = Bool.random(using: &rng) ? date.iso8601 : "20191340"
                stopUpdates = [delayed(0, 120)]
            }
            message.tripUpdates.append(RealtimeMessage.TripUpdate(entityId: "e\(n)", trip: descriptor, stopTimeUpdates: stopUpdates,
                                                                  delay: tripDelay))
        }
        return message
    }
}
