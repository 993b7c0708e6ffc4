import Timetable

/// Round-based public transit routing (Delling, Pajor, Werneck, "Round-Based Public
/// Transit Routing", ALENEX 2012), as `../shared/spec/routing-model.md` defines answers.
///
/// Round k finds, for every stop, the best time reachable with exactly k rides that
/// improves on fewer rides; the destination's best after round k is the Pareto answer
/// for k rides. One implementation serves both directions: an arrive-by search runs the
/// same rounds on negated time, over routes read backwards and footpaths reversed.
///
/// Departure-day handling: every route is scanned once per service day of the request,
/// with only that day's trips, because trips of two different service days can overtake
/// each other (a slow 27:00 run of Monday and a fast 03:05 run of Tuesday) even when no
/// two trips of one day do.
public struct RaptorRouter: Sendable {
    public let timetable: Timetable

    public init(timetable: Timetable) { self.timetable = timetable }

    /// The Pareto set over (arrival, rides) for depart-at, (departure, rides) for
    /// arrive-by, ascending rides; ties in the other end broken as the model says (latest
    /// departure for depart-at, earliest arrival for arrive-by).
    public func route(_ request: RaptorRequest) -> [RaptorJourney] {
        if let window = request.window { return range(request, window: window) }
        return modelSearch(request)
    }

    /// The model's answer (`route` without a window).
    private func modelSearch(_ request: RaptorRequest) -> [RaptorJourney] {
        var search = Search(timetable, request, forward: !request.arriveBy, maxRides: request.parameters.maxTransfers + 1)
        let found = search.run()
        return found.map { journey in
            // The other end: the best departure (or arrival) among journeys with this
            // arrival (departure) and at most these rides.
            var back = Search(timetable, request, forward: request.arriveBy, maxRides: journey.rides,
                              time: request.arriveBy ? journey.departure : journey.arrival)
            guard let other = back.run().last else { return journey }
            let sameEnd = request.arriveBy ? other.departure >= journey.departure : other.arrival <= journey.arrival
            return sameEnd && other.rides <= journey.rides ? other : journey
        }
    }
}

extension RaptorRouter {
    /// The model's answer at `request.time` (as `route` gives it without a window) and
    /// the range's journeys (as `route` gives them with `request.window`), from one range
    /// search.
    ///
    /// Why the model's answer is there: each journey the model could answer either is in
    /// the range's set or is beaten by one that is (leaving later, arriving no later, no
    /// more rides), so the earliest arrival for each number of rides is in the set; and
    /// so is the latest departure among equals, except for journeys leaving after the
    /// window (found by the iteration from just after it, which boards the first runs it
    /// can), which get the model's own backward search.
    ///
    /// `outOfTime` is asked now and then; once it says yes, the range stops: its journeys
    /// are then those leaving after the last departure searched (exact, but the earliest
    /// are missing: `complete` is false), and the model's answer comes from its own search.
    public func answer(_ request: RaptorRequest, outOfTime: () -> Bool = { false })
        -> (model: [RaptorJourney], range: [RaptorJourney], complete: Bool) {
        precondition(!request.arriveBy && request.window != nil, "a depart-at request with a window")
        let end = request.time + request.window!
        let (kept, complete) = rangeSearch(request, window: request.window!, outOfTime: outOfTime)
        let model = complete ? modelAnswer(kept, request: request, after: end) : modelSearch(request)
        return (model, kept.filter { $0.departure <= end }, complete)
    }

    /// The model's answer from a range's journeys, which include every journey the model
    /// could answer or one that beats it (see `answer`).
    private func modelAnswer(_ kept: [RaptorJourney], request: RaptorRequest, after: Int64) -> [RaptorJourney] {
        var out: [RaptorJourney] = []
        var previous = Int64.max
        for k in 1...max(1, request.parameters.maxTransfers + 1) where request.parameters.maxTransfers + 1 >= 1 {
            guard let best = kept.filter({ $0.rides <= k }).map(\.arrival).min(), best < previous else { continue }
            previous = best
            // Fewest rides with that arrival, then the latest departure.
            let pick = kept.filter { $0.rides <= k && $0.arrival == best }
                .min { ($0.rides, -$0.departure) < ($1.rides, -$1.departure) }!
            if pick.departure <= after { out.append(pick); continue }
            // Found only by the iteration from just after the window: the latest departure
            // with that arrival, as `route` finds it.
            var back = Search(timetable, request, forward: false, maxRides: pick.rides, time: pick.arrival)
            if let other = back.run().last, other.arrival <= pick.arrival, other.rides <= pick.rides { out.append(other) } else { out.append(pick) }
        }
        return out
    }

    /// Every departure time from the origin in [time, time + window], ascending, with the
    /// access walks (source indices) whose stop has a run leaving then.
    private func rangeDepartures(_ request: RaptorRequest, window: Int64) -> [(time: Int64, sources: [Int32])] {
        let tt = timetable
        // Departure time from the origin -> the access walks (source indices) whose stop
        // has a run leaving then.
        var departures: [Int64: [Int32]] = [:]
        for (index, w) in request.access.enumerated() {
            let s = Int(w.stop)
            let running = request.dayRoutes
            for i in Int(running.stopOffsets[s])..<Int(running.stopOffsets[s + 1]) {
                let r = Int(running.route[i]), pos = Int(running.position[i])
                let dayMask = running.routeDays[r]
                guard request.filter.routes?[r] ?? true, tt.routeCanBoard[Int(tt.routeStopOffsets[r]) + pos] else { continue }
                let tripBase = Int(tt.routeTripOffsets[r]), nt = Int(tt.routeTripOffsets[r + 1]) - tripBase
                let column = Int(tt.routeTimeOffsets[r]) + pos * nt
                for (d, day) in request.days.enumerated() where dayMask & (1 << UInt8(d)) != 0 {
                    let base = tt.dayBase[Int(tt.routeTimeZone[r]) * tt.dayCount + day]
                    // Trips keep their order at every stop: the window's runs are one slice.
                    let first = request.time + w.seconds - base
                    var lo = 0, hi = nt
                    while lo < hi { let mid = (lo + hi) / 2; if Int64(tt.departures[column + mid]) < first { lo = mid + 1 } else { hi = mid } }
                    for j in lo..<nt where request.filter.trips?[tripBase + j] ?? true {
                        let leave = base + Int64(tt.departures[column + j]) - w.seconds
                        if leave > request.time + window { break }
                        if departures[leave]?.last != Int32(index) { departures[leave, default: []].append(Int32(index)) }
                    }
                }
            }
        }
        return departures.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
    }

    /// Every journey departing in [time, time + window] that no other journey beats on
    /// departure (later), arrival (earlier) and rides (fewer), by departure.
    func range(_ request: RaptorRequest, window: Int64) -> [RaptorJourney] {
        rangeSearch(request, window: window, outOfTime: { false }).kept.filter { $0.departure <= request.time + window }
    }

    /// The range search over [time, time + window] with the iteration from just after it:
    /// its journeys may leave after the window.
    private func rangeSearch(_ request: RaptorRequest, window: Int64, outOfTime: () -> Bool) -> (kept: [RaptorJourney], complete: Bool) {
        let departures = rangeDepartures(request, window: window)
        var search = Search(timetable, request, forward: true, maxRides: request.parameters.maxTransfers + 1)
        search.toTarget = lowerBounds(request); search.pruneToTarget = true
        return search.runRange(departures: departures.reversed(), after: request.time + window + 1, outOfTime: outOfTime)
    }
}

/// One search in one direction. Times are "values": the UTC instant for a forward
/// search, its negation for a backward one, so that smaller is always better.
struct Search {
    let tt: Timetable
    let forward: Bool
    let maxRides: Int
    let start: Int64
    let sources: [StopWalk]
    let targets: [StopWalk]
    let days: [Int]
    let p: RoutingParameters
    let n: Int
    // Ride filter: the flags are read only when their `filter…` is set, so that a search
    // without a filter pays one predictable branch and no array access.
    let filterRoutes: Bool, filterTrips: Bool, filterStops: Bool
    let routeAllowed: [Bool], tripAllowed: [Bool], stopAllowed: [Bool]
    let running: DayRoutes
    /// Footpath -> its change time under this request, filled on first use
    /// (`footUnknown`: not yet; `footUnusable`: not usable).
    var footCost: [Int32]
    /// Stop -> lower bound of the seconds to the destination (`RaptorRouter.lowerBounds`),
    /// or empty: labels that cannot beat the destination's best are dropped.
    var toTarget: [Int64] = []
    var pruneToTarget = false
    static let footUnknown = Int32.min, footUnusable = Int32(-1)
    static let infinity = Int64.max / 4

    // (round, stop) -> best value ready to board after `round` rides; -> arrived by ride `round`.
    var ready: [Int64]
    var arrived: [Int64]
    // (round, stop) -> best value with at most `round` rides, over all iterations so far:
    // the local pruning bound. Not the best over all rounds: a range search keeps labels
    // from later departures, and a journey with fewer rides that arrives as early as one
    // with more rides from a later departure is still an answer.
    var readyAtMost: [Int64]
    var arrivedAtMost: [Int64]
    // Parents of `arrived`: the ride (route, trip within route, day, boarding / alighting position).
    var rideRoute: [Int32], rideTrip: [Int32], rideDay: [Int32], rideBoardPos: [Int32], rideAlightPos: [Int32]
    // Parents of `ready`: the stop changed from and the footpath (-1 same stop), or the source walk (round 0).
    var readyFrom: [Int32], readyFoot: [Int32]
    // Round -> best value at the destination with at most that many rides (over all iterations).
    var targetBest: [Int64]
    var marked: [Bool], markedList: [Int32] = []
    var routeStart: [Int32], routeList: [Int32] = []
    var improved: [Bool], improvedList: [Int32] = []

    init(_ tt: Timetable, _ request: RaptorRequest, forward: Bool, maxRides: Int, time: Int64? = nil) {
        self.tt = tt
        self.forward = forward
        self.maxRides = maxRides
        let t = time ?? request.time
        start = forward ? t : -t
        // A forward search starts at the origin, a backward one at the destination.
        sources = forward ? request.access : request.egress
        targets = forward ? request.egress : request.access
        days = request.days
        p = request.parameters
        n = tt.stopCount
        filterTrips = request.filter.trips != nil
        filterStops = request.filter.stops != nil
        running = request.dayRoutes
        filterRoutes = request.filter.routes != nil
        routeAllowed = request.filter.routes ?? []
        footCost = Array(repeating: Search.footUnknown, count: tt.footTarget.count)
        tripAllowed = request.filter.trips ?? []
        stopAllowed = request.filter.stops ?? []
        let size = (maxRides + 1) * n
        ready = Array(repeating: Search.infinity, count: size)
        arrived = ready
        readyAtMost = ready
        arrivedAtMost = ready
        rideRoute = Array(repeating: -1, count: size)
        rideTrip = rideRoute; rideDay = rideRoute; rideBoardPos = rideRoute; rideAlightPos = rideRoute
        readyFrom = rideRoute; readyFoot = rideRoute
        targetBest = Array(repeating: Search.infinity, count: maxRides + 1)
        marked = Array(repeating: false, count: n)
        improved = marked
        routeStart = Array(repeating: -1, count: tt.routeCount)
    }

    private func real(_ value: Int64) -> Int64 { forward ? value : -value }

    /// Change time at a stop itself, or nil when not allowed.
    private func sameStopChange(_ s: Int) -> Int64? {
        switch TransferRule(rawValue: tt.sameStopRule[s])! {
        case .forbidden: return nil
        case .timed: return 0
        case .minimumTime: return max(Int64(p.transferSlack), Int64(tt.sameStopMinTime[s]))
        case .none, .recommended: return Int64(p.transferSlack)
        }
    }

    /// Change time along footpath `f` under this request, or nil when it is not usable.
    private func footChange(_ f: Int) -> Int64? {
        let rule = TransferRule(rawValue: tt.footRule[f])!
        let beeline = tt.footBeeline[f]
        if rule == .none && p.walkMeters(beeline: beeline) > p.maxTransferWalk { return nil }
        let walk = p.walkSeconds(beeline: beeline)
        switch rule {
        case .forbidden: return nil
        case .timed: return walk
        case .minimumTime: return max(walk + Int64(p.transferSlack), Int64(tt.footMinTime[f]))
        case .none, .recommended: return walk + Int64(p.transferSlack)
        }
    }

    /// Whether footpath `f` and all after it in its stop's list are too long to walk: the
    /// lists hold the ones with a transfers.txt rule first, then the others by length.
    @inline(__always)
    private func beyondFootpaths(_ f: Int) -> Bool {
        tt.footRule[f] == TransferRule.none.rawValue && p.walkMeters(beeline: tt.footBeeline[f]) > p.maxTransferWalk
    }

    /// `footChange(f)`, worked out once per search (a range search relaxes the same
    /// footpaths in every iteration; the walk time is a division and a ceil).
    private mutating func cachedFootChange(_ f: Int) -> Int64? {
        var c = footCost[f]
        if c == Search.footUnknown {
            c = footChange(f).map { Int32(clamping: $0) } ?? Search.footUnusable
            footCost[f] = c
        }
        return c == Search.footUnusable ? nil : Int64(c)
    }

    /// Runs the rounds; returns the Pareto journeys, ascending rides.
    mutating func run() -> [RaptorJourney] {
        iterate(start: start).map { journey(rides: $0.rides, target: $0.target) }
    }

    /// rRAPTOR: one iteration per departure time from the origin, latest first, reusing
    /// the labels of later departures (valid bounds for earlier ones); returns every
    /// journey not dominated in (departure later, arrival earlier, rides fewer).
    ///
    /// The first iteration starts at `after` (just after the window) from every source:
    /// journeys leaving after the window are not answers, but one that leaves later and
    /// arrives as early with as few rides makes waiting for a journey in the window
    /// needless (the model's rule), so they take part in the comparison.
    ///
    /// `departures`: descending, each with the sources that have a run leaving then. Only
    /// those sources are marked for round 1: every other source is ready earlier than in
    /// the iteration before, but no run leaves it in between (that run would be a
    /// departure of its own, between this one and the one before), so its routes would
    /// board the same trips as before and improve nothing. This is what makes a range over
    /// many access stops cost about one search per departure, not per departure times
    /// access stops.
    /// `outOfTime` is asked every 8 departures; once it says yes the rest are left out
    /// (`complete` false).
    mutating func runRange<D: Sequence>(departures: D, after: Int64, outOfTime: () -> Bool = { false })
        -> (kept: [RaptorJourney], complete: Bool) where D.Element == (time: Int64, sources: [Int32]) {
        var found: [RaptorJourney] = []
        for hit in iterate(start: after) { found.append(journey(rides: hit.rides, target: hit.target)) }
        var onlySources: [Bool] = Array(repeating: false, count: sources.count)
        var complete = true
        for (i, d) in departures.enumerated() {
            if i % 8 == 7 && outOfTime() { complete = false; break }
            for s in d.sources { onlySources[Int(s)] = true }
            let hits = iterate(start: d.time, markOnly: onlySources)
            for s in d.sources { onlySources[Int(s)] = false }
            for hit in hits { found.append(journey(rides: hit.rides, target: hit.target)) }
        }
        let sorted = found.sorted { ($0.departure, -$0.arrival, -$0.rides) > ($1.departure, -$1.arrival, -$1.rides) }
        var kept: [RaptorJourney] = []
        for j in sorted where !kept.contains(where: { $0.departure >= j.departure && $0.arrival <= j.arrival && $0.rides <= j.rides }) {
            kept.append(j)
        }
        return (kept.sorted { ($0.departure, $0.rides) < ($1.departure, $1.rides) }, complete)
    }

    /// One RAPTOR run from value `start` over the current labels; returns (rides, target
    /// walk) for every round whose destination value improved on fewer rides and on
    /// earlier iterations.
    /// `markOnly`: source index -> marked when improved (nil: every improved source).
    private mutating func iterate(start: Int64, markOnly: [Bool]? = nil) -> [(rides: Int, target: Int)] {
        for (i, w) in sources.enumerated() {
            let s = Int(w.stop), v = start + w.seconds
            if v < ready[s] {
                ready[s] = v; Search.lower(&readyAtMost, 0, s, v, n: n, maxRides: maxRides); readyFrom[s] = -1; readyFoot[s] = Int32(i)
                if !marked[s] && markOnly?[i] ?? true { marked[s] = true; markedList.append(w.stop) }
            }
        }
        var results: [(rides: Int, target: Int)] = []

        for k in 1...max(1, maxRides) where maxRides >= 1 {
            // Anything no better than the destination with k rides is pruned in round k.
            let bound = min(targetBest[k], targetBest[k - 1])
            // Routes through stops improved in the previous round, from their first such stop.
            routeList.removeAll(keepingCapacity: true)
            for s in markedList {
                marked[Int(s)] = false
                for i in Int(running.stopOffsets[Int(s)])..<Int(running.stopOffsets[Int(s) + 1]) {
                    let r = Int(running.route[i]), pos = running.position[i]
                    if routeStart[r] < 0 { routeList.append(Int32(r)); routeStart[r] = pos }
                    else if forward ? pos < routeStart[r] : pos > routeStart[r] { routeStart[r] = pos }
                }
            }
            markedList.removeAll(keepingCapacity: true)
            for r in routeList {
                if filterRoutes && !routeAllowed[Int(r)] { routeStart[Int(r)] = -1; continue }
                let dayMask = running.routeDays[Int(r)]
                for (d, day) in days.enumerated() where dayMask & (1 << UInt8(d)) != 0 {
                    // Skip a day whose runs are all gone before this iteration starts (every
                    // label is at or after it) or cannot beat the destination's best.
                    let base = tt.dayBase[Int(tt.routeTimeZone[Int(r)]) * tt.dayCount + day]
                    let minArrival = base + Int64(tt.routeMinArrival[Int(r)]), maxDeparture = base + Int64(tt.routeMaxDeparture[Int(r)])
                    if forward ? maxDeparture < start || minArrival >= bound : minArrival > -start || -maxDeparture >= bound { continue }
                    scanRoute(Int(r), day: day, from: Int(routeStart[Int(r)]), round: k, bestTarget: bound)
                }
                routeStart[Int(r)] = -1
            }
            // The destination.
            var roundBest = -1
            var best = bound
            for (i, w) in targets.enumerated() {
                let a = arrived[k * n + Int(w.stop)]
                if a < Search.infinity && a + w.seconds < best { best = a + w.seconds; roundBest = i }
            }
            if roundBest >= 0 {
                results.append((k, roundBest))
                for j in k...maxRides { targetBest[j] = min(targetBest[j], best) }
            }
            // Changes: at the stop itself, or along one footpath.
            let nextBound = min(targetBest[k], targetBest[min(k + 1, maxRides)])
            for s32 in improvedList {
                let s = Int(s32)
                improved[s] = false
                let a = arrived[k * n + s]
                if let c = sameStopChange(s) { relax(s, a + c, round: k, from: s32, foot: -1, bestTarget: nextBound) }
                if forward {
                    for f in Int(tt.footOffsets[s])..<Int(tt.footOffsets[s + 1]) {
                        if beyondFootpaths(f) { break }
                        if let c = cachedFootChange(f) { relax(Int(tt.footTarget[f]), a + c, round: k, from: s32, foot: Int32(f), bestTarget: nextBound) }
                    }
                } else {
                    for i in Int(tt.footInOffsets[s])..<Int(tt.footInOffsets[s + 1]) {
                        let f = Int(tt.footIn[i])
                        if beyondFootpaths(f) { break }
                        if let c = cachedFootChange(f) { relax(Int(tt.footSource[f]), a + c, round: k, from: s32, foot: Int32(f), bestTarget: nextBound) }
                    }
                }
            }
            improvedList.removeAll(keepingCapacity: true)
            if markedList.isEmpty { break }
        }
        for s in markedList { marked[Int(s)] = false }
        markedList.removeAll(keepingCapacity: true)
        return results
    }

    /// Lowers the at-most-rides bound of `stop` to `v` from round `k` on.
    @inline(__always)
    private static func lower(_ atMost: inout [Int64], _ k: Int, _ stop: Int, _ v: Int64, n: Int, maxRides: Int) {
        var j = k
        while j <= maxRides, v < atMost[j * n + stop] { atMost[j * n + stop] = v; j += 1 }
    }

    private mutating func relax(_ s: Int, _ v: Int64, round k: Int, from: Int32, foot: Int32, bestTarget: Int64) {
        // Pruned when no better than with fewer rides, or than the destination already is.
        guard v < readyAtMost[k * n + s], v < bestTarget, !pruneToTarget || v + toTarget[s] < bestTarget else { return }
        ready[k * n + s] = v
        Search.lower(&readyAtMost, k, s, v, n: n, maxRides: maxRides)
        readyFrom[k * n + s] = from
        readyFoot[k * n + s] = foot
        if !marked[s] { marked[s] = true; markedList.append(Int32(s)) }
    }

    /// Scans route `r` with the trips of service day `day`, from position `from`.
    private mutating func scanRoute(_ r: Int, day: Int, from: Int, round k: Int, bestTarget: Int64) {
        let stopsStart = Int(tt.routeStopOffsets[r]), length = Int(tt.routeStopOffsets[r + 1]) - stopsStart
        let tripBase = Int(tt.routeTripOffsets[r]), nt = Int(tt.routeTripOffsets[r + 1]) - tripBase
        let times = Int(tt.routeTimeOffsets[r])
        let base = tt.dayBase[Int(tt.routeTimeZone[r]) * tt.dayCount + day]
        var current = -1, boardPos = -1
        var pos = from
        while forward ? pos < length : pos >= 0 {
            let stop = Int(tt.routeStops[stopsStart + pos])
            let column = times + pos * nt
            if current >= 0 {
                // Alight (forward: arrival; backward: the real boarding, at its departure).
                let allowed = (forward ? tt.routeCanAlight[stopsStart + pos] : tt.routeCanBoard[stopsStart + pos])
                    && (!filterStops || stopAllowed[stop])
                if allowed {
                    let v = forward ? base + Int64(tt.arrivals[column + current]) : -(base + Int64(tt.departures[column + current]))
                    let i = k * n + stop
                    if v < arrivedAtMost[i] && v < bestTarget && (!pruneToTarget || v + toTarget[stop] < bestTarget) {
                        arrived[i] = v
                        Search.lower(&arrivedAtMost, k, stop, v, n: n, maxRides: maxRides)
                        rideRoute[i] = Int32(r); rideTrip[i] = Int32(current); rideDay[i] = Int32(day)
                        rideBoardPos[i] = Int32(boardPos); rideAlightPos[i] = Int32(pos)
                        if !improved[stop] { improved[stop] = true; improvedList.append(Int32(stop)) }
                    }
                }
            }
            let canBoard = (forward ? tt.routeCanBoard[stopsStart + pos] : tt.routeCanAlight[stopsStart + pos])
                && (!filterStops || stopAllowed[stop])
            let r0 = ready[(k - 1) * n + stop]
            if canBoard && r0 < Search.infinity {
                if forward {
                    // The earliest run of this day departing at or after r0.
                    if current < 0 || r0 <= base + Int64(tt.departures[column + current]) {
                        let target = r0 - base
                        var lo = 0, hi = current < 0 ? nt : current
                        while lo < hi { let mid = (lo + hi) / 2; if Int64(tt.departures[column + mid]) < target { lo = mid + 1 } else { hi = mid } }
                        // Trips keep their order at every stop: the first allowed one from here.
                        let limit = current < 0 ? nt : current
                        if filterTrips { while lo < limit && !tripAllowed[tripBase + lo] { lo += 1 } }
                        // Every trip of a route runs on the same days (one service per route).
                        if lo < limit { current = lo; boardPos = pos }
                    }
                } else {
                    // The latest run of this day arriving at or before -r0.
                    if current < 0 || r0 <= -(base + Int64(tt.arrivals[column + current])) {
                        let target = -r0 - base
                        let floor = current < 0 ? 0 : current + 1
                        var lo = floor, hi = nt
                        while lo < hi { let mid = (lo + hi) / 2; if Int64(tt.arrivals[column + mid]) <= target { lo = mid + 1 } else { hi = mid } }
                        var pick = lo - 1
                        if filterTrips { while pick >= floor && !tripAllowed[tripBase + pick] { pick -= 1 } }
                        if pick >= floor { current = pick; boardPos = pos }
                    }
                }
            }
            pos += forward ? 1 : -1
        }
    }

    /// Rebuilds the journey that reached target walk `target` in round `rides`.
    private func journey(rides: Int, target: Int) -> RaptorJourney {
        // Walk back through the labels, collecting steps in search order.
        var legs: [RaptorLeg] = []
        let last = targets[target]
        var stop = Int(last.stop)
        var k = rides
        var rideLegs: [(route: Int, trip: Int, day: Int, board: Int, alight: Int)] = []
        var changes: [(from: Int32, to: Int32, foot: Int32)] = []
        var firstWalk = StopWalk(stop: 0, seconds: 0, meters: 0)
        while true {
            let i = k * n + stop
            rideLegs.append((Int(rideRoute[i]), Int(rideTrip[i]), Int(rideDay[i]), Int(rideBoardPos[i]), Int(rideAlightPos[i])))
            let r = Int(rideRoute[i])
            let boardStop = Int(tt.routeStops[Int(tt.routeStopOffsets[r]) + Int(rideBoardPos[i])])
            let j = (k - 1) * n + boardStop
            if k - 1 == 0 {
                firstWalk = sources[Int(readyFoot[j])]
                break
            }
            changes.append((readyFrom[j], Int32(boardStop), readyFoot[j]))
            stop = Int(readyFrom[j])
            k -= 1
        }
        // In real time order: forward searches found them backwards.
        if forward { rideLegs.reverse(); changes.reverse() }
        func realRide(_ x: (route: Int, trip: Int, day: Int, board: Int, alight: Int)) -> RaptorLeg {
            let times = Int(tt.routeTimeOffsets[x.route]), nt = Int(tt.routeTripOffsets[x.route + 1] - tt.routeTripOffsets[x.route])
            let base = tt.dayBase[Int(tt.routeTimeZone[x.route]) * tt.dayCount + x.day]
            let (b, a) = forward ? (x.board, x.alight) : (x.alight, x.board)
            return .ride(route: Int32(x.route), trip: tt.routeTripOffsets[x.route] + Int32(x.trip), day: x.day,
                         from: Int32(b), to: Int32(a),
                         departure: base + Int64(tt.departures[times + b * nt + x.trip]),
                         arrival: base + Int64(tt.arrivals[times + a * nt + x.trip]))
        }
        let accessWalk = forward ? firstWalk : last
        let egressWalk = forward ? last : firstWalk
        let rideList = rideLegs.map(realRide)
        guard case .ride(_, _, _, _, _, let firstDeparture, _) = rideList.first!,
              case .ride(_, _, _, _, _, _, let lastArrival) = rideList.last! else { fatalError("a journey has rides") }
        legs.append(.access(stop: accessWalk.stop, departure: firstDeparture - accessWalk.seconds, arrival: firstDeparture,
                            meters: accessWalk.meters))
        for (i, ride) in rideList.enumerated() {
            legs.append(ride)
            if i < changes.count, case .ride(_, _, _, _, _, _, let arrival) = ride {
                let c = changes[i]
                // Forward: (from = alighting stop, to = boarding stop); backward: reversed.
                let (from, to) = forward ? (c.from, c.to) : (c.to, c.from)
                let change = c.foot < 0 ? sameStopChange(Int(from))! : footChange(Int(c.foot))!
                let meters = c.foot < 0 ? 0 : p.walkMeters(beeline: tt.footBeeline[Int(c.foot)])
                legs.append(.transfer(from: from, to: to, departure: arrival, ready: arrival + change, meters: meters))
            }
        }
        legs.append(.egress(stop: egressWalk.stop, departure: lastArrival, arrival: lastArrival + egressWalk.seconds,
                            meters: egressWalk.meters))
        return RaptorJourney(rides: rides, departure: firstDeparture - accessWalk.seconds,
                             arrival: lastArrival + egressWalk.seconds, legs: legs)
    }
}

extension RaptorRouter {
    /// Stop -> a lower bound of the seconds from being at that stop to reaching the
    /// destination (`Search.infinity` where nothing leads there), for pruning a range
    /// search: a label that cannot beat the destination's best even at this bound is
    /// dropped. Dijkstra backwards from the egress stops over each route's shortest ride
    /// between consecutive stops (any trip, running on the request's days) and the
    /// footpaths' walks; waits, slack and the timetable's hours are left out, so the bound
    /// never exceeds a real journey's time.
    func lowerBounds(_ request: RaptorRequest) -> [Int64] {
        let tt = timetable, p = request.parameters
        var bound = [Int64](repeating: Search.infinity, count: tt.stopCount)
        var heap = MinHeap()
        for w in request.egress where w.seconds < bound[Int(w.stop)] {
            bound[Int(w.stop)] = w.seconds
            heap.push(w.seconds, w.stop)
        }
        let running = request.dayRoutes
        while let (d, x32) = heap.pop() {
            let x = Int(x32)
            guard d == bound[x] else { continue }
            for i in Int(running.predecessorOffsets[x])..<Int(running.predecessorOffsets[x + 1]) {
                let y = Int(running.predecessor[i]), v = d + Int64(running.predecessorSeconds[i])
                if v < bound[y] { bound[y] = v; heap.push(v, Int32(y)) }
            }
            for i in Int(tt.footInOffsets[x])..<Int(tt.footInOffsets[x + 1]) {
                let f = Int(tt.footIn[i])
                let rule = tt.footRule[f]
                if rule == TransferRule.none.rawValue && p.walkMeters(beeline: tt.footBeeline[f]) > p.maxTransferWalk { break }
                if rule == TransferRule.forbidden.rawValue { continue }
                let y = Int(tt.footSource[f]), v = d + p.walkSeconds(beeline: tt.footBeeline[f])
                if v < bound[y] { bound[y] = v; heap.push(v, Int32(y)) }
            }
        }
        return bound
    }
}

/// A binary min-heap of (value, stop), for `lowerBounds`.
struct MinHeap {
    private var items: [(Int64, Int32)] = []

    mutating func push(_ value: Int64, _ stop: Int32) {
        items.append((value, stop))
        var i = items.count - 1
        while i > 0 {
            let parent = (i - 1) / 2
            if items[parent].0 <= items[i].0 { break }
            items.swapAt(parent, i); i = parent
        }
    }

    mutating func pop() -> (Int64, Int32)? {
        guard let top = items.first else { return nil }
        let last = items.removeLast()
        if !items.isEmpty {
            items[0] = last
            var i = 0
            while true {
                let l = 2 * i + 1, r = l + 1
                var m = i
                if l < items.count && items[l].0 < items[m].0 { m = l }
                if r < items.count && items[r].0 < items[m].0 { m = r }
                if m == i { break }
                items.swapAt(m, i); i = m
            }
        }
        return top
    }
}
