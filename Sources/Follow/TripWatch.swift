import Foundation
import GTFSRealtime
import Planner
import Realtime
import TransitModel

/// What a follower asked for: the delay threshold and the notice before a boarding.
public struct FollowOptions: Sendable, Equatable {
    /// Seconds a ride's expected time must move before a `delay` is told.
    public var threshold: Int64
    /// Seconds before a boarding (and before getting off a long ride) that `leg-upcoming` is told.
    public var notice: Int64
    /// The language of the events' messages.
    public var language: Language
    public init(threshold: Int64 = 60, notice: Int64 = 300, language: Language = .en) {
        self.threshold = threshold; self.notice = notice; self.language = language
    }
}

/// Where a served timetable is followed: its matcher, its planner (for new itineraries)
/// and the key that signs their tokens.
public struct FollowContext: Sendable {
    public let matcher: TripMatcher
    public let planner: JourneyPlanner
    public let tokens: TripTokens
    public init(matcher: TripMatcher, planner: JourneyPlanner, tokens: TripTokens) {
        self.matcher = matcher; self.planner = planner; self.tokens = tokens
    }
}

/// One followed trip and what its follower was told: the routing model's "Following a
/// trip" as a state machine. `look(at:)` compares a new realtime state with what was told;
/// `tick(now:)` tells what the clock brings (a boarding near, arrival). No I/O; a few
/// hundred bytes per trip.
public struct TripWatch: Sendable {
    public private(set) var trip: FollowedTrip
    public private(set) var rides: [MatchedRide]
    public let options: FollowOptions
    /// Per ride: the expected departure and arrival last told (the planned ones at first).
    private var told: [(departure: Int64, arrival: Int64)]
    /// Per ride: a cancellation or skipped stop told; per change: a missed connection told.
    private var brokenTold: [Bool]
    private var missedTold: [Bool]
    /// Per ride: leg-upcoming told for its boarding (bit 1) and its alighting (bit 2).
    private var upcomingTold: [UInt8]
    /// Alerts told (feed and entity id).
    private var alertsTold: Set<String> = []
    /// Rides as they stand on the last state looked at.
    private var standings: [RideStanding]
    /// Arrived, or nothing more can be told (no way to continue): the stream ends.
    public private(set) var finished = false
    /// A break found and not yet planned around (`resolve`): its event, the events of the
    /// same state that come after it, and where the search starts.
    private var pending: PendingBreak?
    private struct PendingBreak {
        var event: FollowEvent
        var broken: Int
        var after: [FollowEvent]
        var state: RealtimeState?
        var now: Int64
    }
    /// The realtime state last looked at.
    public private(set) var lookedAt: RealtimeState?

    public init(trip: FollowedTrip, matcher: TripMatcher, options: FollowOptions = FollowOptions()) throws(TripMatchError) {
        self.trip = trip
        rides = try matcher.match(trip)
        self.options = options
        told = trip.rides.map { ($0.plannedDeparture, $0.plannedArrival) }
        brokenTold = Array(repeating: false, count: trip.rides.count)
        missedTold = Array(repeating: false, count: max(0, trip.rides.count - 1))
        upcomingTold = Array(repeating: 0, count: trip.rides.count)
        standings = trip.rides.map { .runs(departure: $0.plannedDeparture, arrival: $0.plannedArrival) }
    }

    /// Keeps what `old` told of the same trip (a new timetable matched it again): what was
    /// told is not told again.
    public mutating func keepTold(from old: TripWatch) {
        guard old.trip == trip else { return }
        told = old.told; brokenTold = old.brokenTold; missedTold = old.missedTold
        upcomingTold = old.upcomingTold; alertsTold = old.alertsTold
    }

    /// When the trip ends as expected now (the last ride's arrival plus the last walk).
    public var expectedEnd: Int64 {
        let last: Int64
        if case .runs(_, let a) = standings.last! { last = a } else { last = trip.rides.last!.plannedArrival }
        return last + Int64(trip.egressSeconds)
    }

    /// Whether a break waits for its new itinerary (`resolve`); until then nothing else is told.
    public var needsPlan: Bool { pending != nil }

    /// The events a new realtime state brings (none when nothing told changes), in the
    /// order of the rides; `now` is the clock. A break (cancellation, skipped stop, missed
    /// connection) is planned around at once when `planNow`, else it waits for `resolve`
    /// (a search, which a server runs off the pass over all followed trips).
    public mutating func look(at state: RealtimeState?, now: Int64, context: FollowContext, planNow: Bool = true) -> [FollowEvent] {
        guard !finished, pending == nil else { return [] }
        lookedAt = state
        var out = detect(state, now: now)
        if planNow { out += resolve(context: context) }
        return out
    }

    /// The new itinerary of the break found (a search), then the events held back after it.
    public mutating func resolve(context: FollowContext) -> [FollowEvent] {
        guard let p = pending else { return [] }
        pending = nil
        return [breaking(p.event, at: p.broken, state: p.state, now: p.now, context: context)] + p.after
    }

    private mutating func detect(_ state: RealtimeState?, now: Int64) -> [FollowEvent] {
        standings = zip(rides, trip.rides).map { $0.standing(on: state, planned: $1) }
        var out: [FollowEvent] = []
        for i in rides.indices {
            let r = rides[i]
            switch standings[i] {
            case .runs(let d, let a):
                if abs(d - told[i].departure) >= options.threshold || abs(a - told[i].arrival) >= options.threshold {
                    var e = FollowEvent(kind: .delay, time: now, message: delayText(i, d, a))
                    e.ride = i; e.line = r.line; e.headsign = r.headsign
                    e.oldDeparture = told[i].departure; e.oldArrival = told[i].arrival; e.newDeparture = d; e.newArrival = a
                    told[i] = (d, a)
                    out.append(e)
                }
            case .cancelled where !brokenTold[i]:
                brokenTold[i] = true
                var e = FollowEvent(kind: .cancellation, time: now,
                                    message: say("follow.cancelled", ["Line": FollowWords.capitalized(FollowWords.line(r, l)), "stop": r.boardName,
                                                                      "time": FollowWords.clock(told[i].departure, r.zone)]))
                e.ride = i; e.line = r.line; e.headsign = r.headsign
                pending = PendingBreak(event: e, broken: i, after: alerts(upTo: i, state: state, now: now), state: state, now: now)
                return out
            case .skipped(let boarding) where !brokenTold[i]:
                brokenTold[i] = true
                let stop = boarding ? r.boardName : r.alightName
                var e = FollowEvent(kind: .skippedStop, time: now,
                                    message: say(boarding ? "follow.skippedBoard" : "follow.skippedAlight",
                                                 ["Line": FollowWords.capitalized(FollowWords.line(r, l)), "stop": stop]))
                e.ride = i; e.line = r.line; e.headsign = r.headsign
                e.stopId = boarding ? trip.rides[i].boardStopId : trip.rides[i].alightStopId; e.stopName = stop
                e.moment = boarding ? .boarding : .alighting
                pending = PendingBreak(event: e, broken: i, after: alerts(upTo: i, state: state, now: now), state: state, now: now)
                return out
            default: break
            }
            // The change after this ride.
            if i + 1 < rides.count, !missedTold[i], case .runs(_, let a) = standings[i], case .runs(let d, _) = standings[i + 1],
               a + Int64(trip.changeSeconds[i]) > d {
                missedTold[i] = true
                let n = rides[i + 1]
                var e = FollowEvent(kind: .missedConnection, time: now,
                                    message: say("follow.missed", ["Line": FollowWords.capitalized(FollowWords.lineName(r, l)), "stop": r.alightName,
                                                                   "time": FollowWords.clock(a, r.zone, arrival: true), "next": FollowWords.line(n, l),
                                                                   "nextTime": FollowWords.clock(d, n.zone)]))
                e.ride = i; e.line = n.line; e.headsign = n.headsign; e.newArrival = a; e.newDeparture = d
                pending = PendingBreak(event: e, broken: i + 1, after: alerts(upTo: i, state: state, now: now), state: state, now: now)
                return out
            }
        }
        return out + alerts(upTo: rides.count - 1, state: state, now: now)
    }

    /// The events the clock brings at `now`: `leg-upcoming`, then `arrived` (after which
    /// the watch is finished).
    public mutating func tick(now: Int64) -> [FollowEvent] {
        guard !finished, pending == nil else { return [] }
        var out: [FollowEvent] = []
        for i in rides.indices {
            guard case .runs(let d, let a) = standings[i] else { break }
            let r = rides[i]
            if upcomingTold[i] & 1 == 0, now >= d - options.notice, now < d {
                upcomingTold[i] |= 1
                let m = Int((d - now + 59) / 60)
                var e = FollowEvent(kind: .legUpcoming, time: now,
                                    message: say("follow.leaves", ["Line": FollowWords.capitalized(FollowWords.line(r, l)), "stop": r.boardName, "n": "\(m)",
                                                                   "time": FollowWords.clock(d, r.zone)]))
                e.ride = i; e.line = r.line; e.headsign = r.headsign; e.moment = .boarding; e.minutes = m
                e.stopId = trip.rides[i].boardStopId; e.stopName = r.boardName; e.newDeparture = d
                out.append(e)
            }
            if upcomingTold[i] & 2 == 0, a - d > 2 * options.notice, now >= a - options.notice, now < a {
                upcomingTold[i] |= 2
                let m = Int((a - now + 59) / 60)
                var e = FollowEvent(kind: .legUpcoming, time: now,
                                    message: say("follow.getOff", ["line": FollowWords.lineName(r, l), "stop": r.alightName, "n": "\(m)",
                                                                   "time": FollowWords.clock(a, r.zone, arrival: true)]))
                e.ride = i; e.line = r.line; e.headsign = r.headsign; e.moment = .alighting; e.minutes = m
                e.stopId = trip.rides[i].alightStopId; e.stopName = r.alightName; e.newArrival = a
                out.append(e)
            }
        }
        let broken = standings.contains { if case .runs = $0 { false } else { true } }
        if !broken, now >= expectedEnd {
            finished = true
            let last = rides.last!
            var e = FollowEvent(kind: .arrived, time: now, message: say("follow.arrived", ["time": FollowWords.clock(expectedEnd, last.zone, arrival: true)]))
            e.newArrival = expectedEnd
            out.append(e)
        }
        return out
    }

    /// A message in the follower's language (the catalogue's `follow.*`).
    private func say(_ key: String, _ values: [String: String] = [:]) -> String { Catalogue.text(key, options.language, values) }
    private var l: Language { options.language }

    private func delayText(_ i: Int, _ d: Int64, _ a: Int64) -> String {
        let r = rides[i], p = trip.rides[i]
        var parts: [String] = []
        if d != told[i].departure {
            parts.append(say("follow.delayLeaves", ["stop": r.boardName, "time": FollowWords.clock(d, r.zone),
                                                    "lateness": FollowWords.lateness(expected: d, scheduled: p.scheduledDeparture, arrival: false, l),
                                                    "was": FollowWords.clock(told[i].departure, r.zone)]))
        }
        if a != told[i].arrival {
            parts.append(say("follow.delayReaches", ["stop": r.alightName, "time": FollowWords.clock(a, r.zone, arrival: true),
                                                     "lateness": FollowWords.lateness(expected: a, scheduled: p.scheduledArrival, arrival: true, l),
                                                     "was": FollowWords.clock(told[i].arrival, r.zone, arrival: true)]))
        }
        return say("follow.delay", ["Line": FollowWords.capitalized(FollowWords.line(r, l)), "parts": parts.joined(separator: say("follow.and"))])
    }

    /// The alerts of `state` for rides 0...last not told yet.
    private mutating func alerts(upTo last: Int, state: RealtimeState?, now: Int64) -> [FollowEvent] {
        guard let state, last >= 0, state.messages.values.contains(where: { !$0.alerts.isEmpty }) else { return [] }
        var out: [FollowEvent] = []
        for i in 0...last {
            let r = rides[i], p = trip.rides[i]
            let (y, m, d) = p.serviceDate.components
            let (from, to): (Int64, Int64)
            if case .runs(let dep, let arr) = standings[i] { (from, to) = (dep, arr) } else { (from, to) = (p.plannedDeparture, p.plannedArrival) }
            let target = AlertTarget(feedId: r.feed, agencyId: r.agencyId, routeId: r.routeId, routeType: r.routeType, directionId: nil,
                                     tripId: p.tripId, startDate: String(format: "%04d%02d%02d", y, m, d),
                                     stopIds: [p.boardStopId, p.alightStopId], from: from, to: to)
            for a in RealtimeAlerts.matching(target, in: state.messages) where alertsTold.insert(r.feed + "\u{1F}" + a.entityId).inserted {
                var e = FollowEvent(kind: .alert, time: now, message: say("follow.alert", ["line": FollowWords.line(r, l), "text": FollowWords.alertText(a)]))
                e.ride = i; e.line = r.line; e.headsign = r.headsign; e.alert = a; e.alertFeed = r.feed
                out.append(e)
            }
        }
        return out
    }

    /// A break at ride `at` (a cancellation or skipped stop of that ride, or the change
    /// before it missed): the model's answer from where the rider will be, and the trip
    /// followed from now on.
    private mutating func breaking(_ event: FollowEvent, at broken: Int, state: RealtimeState?, now: Int64,
                                   context: FollowContext) -> FollowEvent {
        var e = event
        // Rides kept: those before the break, unless the rider has not set off yet (or
        // the first ride broke): then from the first boarding stop at its planned departure.
        let keep = now < trip.rides[0].plannedDeparture ? 0 : broken
        let last = trip.rides.count - 1
        let (feed, fromStop, time): (String, String, Int64)
        if keep == 0 {
            (feed, fromStop, time) = (trip.rides[0].feed, trip.rides[0].boardStopId, trip.rides[0].plannedDeparture)
        } else {
            let k = keep - 1
            let arrival: Int64
            if case .runs(_, let a) = standings[k] { arrival = a } else { arrival = trip.rides[k].plannedArrival }
            (feed, fromStop, time) = (trip.rides[k].feed, trip.rides[k].alightStopId, arrival)
        }
        let destination = trip.rides[last]
        let query = PlanQuery(from: .stop(feed: feed, id: fromStop), to: .stop(feed: destination.feed, id: destination.alightStopId),
                              time: .instant(time), window: 0)
        switch context.planner.answer(query, numItineraries: 1, realtime: state) {
        case .noItinerary(let why):
            e.continuation = .noWay(why)
            e.message += say("follow.noWay", ["why": why.message(l)])
            finished = true
        case .itineraries(let answer):
            let option = answer.options[answer.modelFirst]
            guard option.journey.rides > 0, let next = context.matcher.followedTrip(option.journey),
                  let joined = joining(keep: keep, next: next), let watch = try? TripWatch(trip: joined, matcher: context.matcher, options: options)
            else {
                // Only a walk: the rest of the way is on foot.
                let meters = "\(Int(option.journey.walkMeters ?? 0))", stop = destination.alightStopId
                let why = PlanError(.noConnection, Localized { Catalogue.text("follow.onlyWalkWhy", $0, ["meters": meters, "stop": stop]) })
                e.continuation = .noWay(why)
                e.message += say("follow.onlyWalk", ["why": why.message(l)])
                finished = true
                return e
            }
            let token = context.tokens.token(joined)
            e.continuation = .itinerary(answer: answer, option: answer.modelFirst, trip: joined, token: token)
            let first = watch.rides[keep], firstRide = joined.rides[keep]
            e.message += say("follow.newPlan", ["line": FollowWords.line(first, l), "stop": first.boardName,
                                                "time": FollowWords.clock(firstRide.plannedDeparture, first.zone), "end": watch.rides.last!.alightName,
                                                "endTime": FollowWords.clock(joined.rides.last!.plannedArrival, watch.rides.last!.zone, arrival: true),
                                                "changes": option.journey.rides > 1 ? say("follow.newPlanChanges", ["n": "\(option.journey.rides - 1)"])
                                                    : say("follow.newPlanEnd")])
            // From now on the new trip is followed; what was told of the rides kept stays told.
            var carried = watch
            for i in 0..<keep {
                carried.told[i] = told[i]; carried.upcomingTold[i] = upcomingTold[i]
                carried.standings[i] = standings[i]
            }
            carried.alertsTold = alertsTold
            carried.lookedAt = lookedAt
            self = carried
        }
        return e
    }

    /// The rides kept, then the new trip's, with the changes between them; the last walk
    /// is the new trip's plus the old one's.
    private func joining(keep: Int, next: FollowedTrip) -> FollowedTrip? {
        var feeds = trip.feeds
        for f in next.feeds where !feeds.contains(where: { $0.id == f.id }) { feeds.append(f) }
        let rides = Array(trip.rides[0..<keep]) + next.rides
        guard rides.count <= 64 else { return nil }
        var changes = Array(trip.changeSeconds[0..<max(0, keep - 1)])
        if keep > 0 { changes.append(next.accessSeconds) }
        changes += next.changeSeconds
        // Not set off yet: the walk to the first boarding stop, then the new itinerary's first walk.
        return FollowedTrip(feeds: feeds, rides: rides, accessSeconds: keep > 0 ? trip.accessSeconds : trip.accessSeconds + next.accessSeconds,
                            changeSeconds: changes, egressSeconds: next.egressSeconds + trip.egressSeconds)
    }
}
