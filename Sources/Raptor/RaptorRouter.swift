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
    /// Every journey departing in [time, time + window] that no other journey beats on
    /// departure (later), arrival (earlier) and rides (fewer), by departure.
    func range(_ request: RaptorRequest, window: Int64) -> [RaptorJourney] {
        let tt = timetable
        var departures = Set<Int64>()
        for w in request.access {
            let s = Int(w.stop)
            for i in Int(tt.stopRouteOffsets[s])..<Int(tt.stopRouteOffsets[s + 1]) {
                let r = Int(tt.stopRouteRoute[i]), pos = Int(tt.stopRoutePosition[i])
                guard tt.routeCanBoard[Int(tt.routeStopOffsets[r]) + pos], request.filter.routes?[r] ?? true else { continue }
                let tripBase = Int(tt.routeTripOffsets[r]), nt = Int(tt.routeTripOffsets[r + 1]) - tripBase
                let column = Int(tt.routeTimeOffsets[r]) + pos * nt
                for day in request.days {
                    let base = tt.dayBase[Int(tt.routeTimeZone[r]) * tt.dayCount + day]
                    for j in 0..<nt where tt.serviceRuns(tt.tripService[tripBase + j], day: day)
                        && request.filter.trips?[tripBase + j] ?? true {
                        let leave = base + Int64(tt.departures[column + j]) - w.seconds
                        if leave >= request.time && leave <= request.time + window { departures.insert(leave) }
                    }
                }
            }
        }
        guard !departures.isEmpty else { return [] }
        var search = Search(tt, request, forward: true, maxRides: request.parameters.maxTransfers + 1)
        return search.runRange(departures: Array(departures))
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
    static let infinity = Int64.max / 4

    // (round, stop) -> best value ready to board after `round` rides; -> arrived by ride `round`.
    var ready: [Int64]
    var arrived: [Int64]
    var bestReady: [Int64]
    var bestArrived: [Int64]
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
        filterRoutes = request.filter.routes != nil
        filterTrips = request.filter.trips != nil
        filterStops = request.filter.stops != nil
        routeAllowed = request.filter.routes ?? []
        tripAllowed = request.filter.trips ?? []
        stopAllowed = request.filter.stops ?? []
        let size = (maxRides + 1) * n
        ready = Array(repeating: Search.infinity, count: size)
        arrived = ready
        bestReady = Array(repeating: Search.infinity, count: n)
        bestArrived = bestReady
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

    /// Runs the rounds; returns the Pareto journeys, ascending rides.
    mutating func run() -> [RaptorJourney] {
        iterate(start: start).map { journey(rides: $0.rides, target: $0.target) }
    }

    /// rRAPTOR: one iteration per departure time from the origin, latest first, reusing
    /// the labels of later departures (valid bounds for earlier ones); returns every
    /// journey not dominated in (departure later, arrival earlier, rides fewer).
    mutating func runRange(departures: [Int64]) -> [RaptorJourney] {
        var found: [RaptorJourney] = []
        for t in departures.sorted(by: >) {
            for hit in iterate(start: t) { found.append(journey(rides: hit.rides, target: hit.target)) }
        }
        let sorted = found.sorted { ($0.departure, -$0.arrival, -$0.rides) > ($1.departure, -$1.arrival, -$1.rides) }
        var kept: [RaptorJourney] = []
        for j in sorted where !kept.contains(where: { $0.departure >= j.departure && $0.arrival <= j.arrival && $0.rides <= j.rides }) {
            kept.append(j)
        }
        return kept.sorted { ($0.departure, $0.rides) < ($1.departure, $1.rides) }
    }

    /// One RAPTOR run from value `start` over the current labels; returns (rides, target
    /// walk) for every round whose destination value improved on fewer rides and on
    /// earlier iterations.
    private mutating func iterate(start: Int64) -> [(rides: Int, target: Int)] {
        for (i, w) in sources.enumerated() {
            let s = Int(w.stop), v = start + w.seconds
            if v < ready[s] {
                ready[s] = v; bestReady[s] = min(bestReady[s], v); readyFrom[s] = -1; readyFoot[s] = Int32(i)
                if !marked[s] { marked[s] = true; markedList.append(w.stop) }
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
                for i in Int(tt.stopRouteOffsets[Int(s)])..<Int(tt.stopRouteOffsets[Int(s) + 1]) {
                    let r = Int(tt.stopRouteRoute[i]), pos = tt.stopRoutePosition[i]
                    if routeStart[r] < 0 { routeList.append(Int32(r)); routeStart[r] = pos }
                    else if forward ? pos < routeStart[r] : pos > routeStart[r] { routeStart[r] = pos }
                }
            }
            markedList.removeAll(keepingCapacity: true)
            for r in routeList {
                if filterRoutes && !routeAllowed[Int(r)] { routeStart[Int(r)] = -1; continue }
                let service = tt.routeService[Int(r)]
                for day in days where tt.serviceRuns(service, day: day) {
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
                        if let c = footChange(f) { relax(Int(tt.footTarget[f]), a + c, round: k, from: s32, foot: Int32(f), bestTarget: nextBound) }
                    }
                } else {
                    for i in Int(tt.footInOffsets[s])..<Int(tt.footInOffsets[s + 1]) {
                        let f = Int(tt.footIn[i])
                        if let c = footChange(f) { relax(Int(tt.footSource[f]), a + c, round: k, from: s32, foot: Int32(f), bestTarget: nextBound) }
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

    private mutating func relax(_ s: Int, _ v: Int64, round k: Int, from: Int32, foot: Int32, bestTarget: Int64) {
        // Pruned when no better than with fewer rides, or than the destination already is.
        guard v < ready[k * n + s], v < bestReady[s], v < bestTarget else { return }
        ready[k * n + s] = v
        bestReady[s] = v
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
                    if v < arrived[i] && v < bestArrived[stop] && v < bestTarget {
                        arrived[i] = v
                        bestArrived[stop] = v
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
