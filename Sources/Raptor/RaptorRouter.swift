import Synchronization
import Timetable
import TransitModel

/// Round-based public transit routing (Delling, Pajor, Werneck, "Round-Based Public
/// Transit Routing", ALENEX 2012), as `docs/routing-model.md` defines answers.
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

    /// Tables made from the timetable that requests share (the routes running on a set of
    /// days in a region, the footpaths' change times under a set of walking parameters):
    /// two sets of days for each region (today's and tomorrow's around midnight) and a few
    /// walking profiles. (With every shared feed loaded, one table for all regions and eight
    /// kept in all, the queries of eleven cities took turns making each other's tables again:
    /// depart-at p95 15.4 ms, 2.4 ms with tables per region and room for them, `transit
    /// bench --queries 300`.)
    let derived: DerivedTables
    /// Label memory of finished searches, kept for the next ones (`ScratchPool`).
    let scratch = ScratchPool()

    /// Feeds joined by footpaths (the regions a request's tables are made for).
    let regions: FeedRegions

    public init(timetable: Timetable) {
        self.timetable = timetable
        regions = FeedRegions(timetable)
        derived = DerivedTables(capacity: 2 * Set(regions.region).count + 6)
    }

    /// Makes now, for this router's timetable, the shared tables `other`'s requests use
    /// (the routes running on their days; the footpaths' change times, taken as they are
    /// when the two timetables have the same footpaths), so that the first requests on this
    /// router wait for none: for a realtime overlay built beside the served timetable and
    /// swapped in while requests run.
    public func warm(like other: RaptorRouter) {
        let tt = timetable, o = other.timetable
        let sameFootpaths = tt.stopCount == o.stopCount && tt.footOffsets == o.footOffsets && tt.footTarget == o.footTarget
            && tt.footMinTime == o.footMinTime && tt.footRule == o.footRule && tt.footBeeline == o.footBeeline
            && tt.footInOffsets == o.footInOffsets && tt.footIn == o.footIn
            && tt.footStreet == o.footStreet && tt.footStreetStepFree == o.footStreetStepFree
        derived.adopt(from: other.derived) { key, value in
            if let k = key.base as? DayRoutesKey { return DayRoutes(timetable: tt, days: k.days, feeds: regions.feeds(in: k.regions)) }
            if value is FootpathCosts { return sameFootpaths ? value : nil }
            return nil
        }
    }

    /// The shared tables one request reads, looked up once per request (not once per search).
    struct Tables {
        /// The routes running on the request's days, by stop.
        let running: DayRoutes
        /// The footpaths' change times under the request's walking parameters.
        let footpaths: FootpathCosts
    }

    func tables(_ request: RaptorRequest) -> Tables {
        let ends = regions.regions(request, timetable)
        return Tables(running: derived.get(DayRoutesKey(days: request.days, regions: ends)) {
                          DayRoutes(timetable: timetable, days: request.days, feeds: regions.feeds(in: ends))
                      },
               footpaths: FootpathCosts.shared(timetable, request.parameters, request.footpathWalk, in: derived))
    }

    /// The Pareto set over (arrival, rides) for depart-at, (departure, rides) for
    /// arrive-by, ascending rides; ties in the other end broken as the model says (latest
    /// departure for depart-at, earliest arrival for arrive-by).
    public func route(_ request: RaptorRequest) -> [RaptorJourney] {
        let t = tables(request)
        guard mayRide(request, t) else { return [] }
        if let window = request.window { return range(request, window: window, t) }
        return modelSearch(request, t)
    }

    /// Whether a journey with rides may exist at all: a run leaves an access stop, and
    /// one arrives at an egress stop, on the request's side of its time (depart-at: the
    /// last run there is not before it; arrive-by: the first is not after it), at a position
    /// a ride can start (end) at. A journey boards its first run where its access walk ends
    /// and leaves its last where its egress walk starts, so when either end has no such run
    /// there is none: the searches are not run. Exact, and cheap (the ends' entries in
    /// `running`).
    ///
    /// Why: such requests were the slowest of all. The searches, never reaching the
    /// destination, prune nothing. On bydgoszcz-2020 (`transit bench --kind answer`, 1,000
    /// queries on a Monday) 8 unanswered queries took over 1 ms, all to or from the east
    /// end that only line 40 serves, and only at weekends (Ostromecko is only ever its
    /// first stop, where no ride ends): 7 of them 3.9-8.5 ms each, against a median answer
    /// of 0.8 ms, and 0.09-0.10 ms with this check.
    func mayRide(_ request: RaptorRequest, _ t: Tables) -> Bool {
        let tt = timetable, running = t.running
        // Seconds after `running.origin`, as the entries' times are.
        let time = request.time - running.origin
        // `boarding`: the access stops (a run leaving them), else the egress stops (a run
        // arriving there).
        func any(_ walks: [StopWalk], boarding: Bool) -> Bool {
            for w in walks where request.filter.stops?[w.stop.index] ?? true {
                let s = w.stop.index
                for i in Int(running.stopOffsets[s])..<Int(running.stopOffsets[s + 1]) {
                    let e = running.entries[i], r = e.route.index, pos = e.position.index
                    let start = Int(tt.routeStopOffsets[r]), length = Int(tt.routeStopOffsets[r + 1]) - start
                    guard request.filter.routes?[r] ?? true,
                          boarding ? pos < length - 1 && tt.routeCanBoard[start + pos] : pos > 0 && tt.routeCanAlight[start + pos]
                    else { continue }
                    let fits: Bool
                    switch (request.arriveBy, boarding) {
                    case (false, true): fits = Int64(e.lastDeparture) >= time + w.seconds
                    case (false, false): fits = Int64(e.lastArrival) >= time
                    case (true, true): fits = Int64(e.firstDeparture) <= time
                    case (true, false): fits = Int64(e.firstArrival) <= time - w.seconds
                    }
                    if fits { return true }
                }
            }
            return false
        }
        return any(request.access, boarding: true) && any(request.egress, boarding: false)
    }

    /// The model's answer (`route` without a window). For tests: `corridor` false searches
    /// the journeys' other ends without `Search.corridor`; `refine` false returns the first
    /// search's journeys as they are.
    func modelSearch(_ request: RaptorRequest, _ t: Tables, corridor: Bool = true, refine: Bool = true) -> [RaptorJourney] {
        // No pruning with lower bounds to the destination (as a range search has): one
        // search is over once the destination is reached with each number of rides, and
        // making the bounds cost more than they saved. Without them, depart-at p50 on
        // bydgoszcz-2020 0.31 -> 0.29 ms, porto-alegre-eptc-2019 1.36 -> 0.93, mexico-city-2018
        // 1.75 -> 1.22 (`Scripts/bench-ab.sh`, 2026-11-27). (Nor for the searches of a
        // journey's other end, with bounds from its two ends' hours: tried, 0.28 -> 0.38 ms.)
        var search = Search(timetable, request, t.running, t.footpaths, scratch, forward: !request.arriveBy, maxRides: request.parameters.maxTransfers + 1)
        let found = search.run()
        if !refine { return found }
        // The search's labels stay in its scratch while the other ends are searched: they
        // bound them (`Search.corridor`).
        return withExtendedLifetime(search) { found.map { journey in
            // The other end: the best departure (or arrival) among journeys with this
            // arrival (departure) and at most these rides. The journey itself is one of
            // them, so the search looks only for ones at least as good at that end
            // (`Search.seedTarget`): everything worse is pruned from the first round.
            var back = Search(timetable, request, t.running, t.footpaths, scratch, forward: request.arriveBy, maxRides: journey.rides,
                              time: request.arriveBy ? journey.departure : journey.arrival)
            back.seedTarget(request.arriveBy ? journey.arrival : -journey.departure)
            if corridor { back.corridor = search.reached }
            guard let other = back.run().last else { return journey }
            let sameEnd = request.arriveBy ? other.departure >= journey.departure : other.arrival <= journey.arrival
            return sameEnd && other.rides <= journey.rides ? other : journey
        } }
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
        let t = tables(request)
        guard mayRide(request, t) else { return ([], [], true) }
        let (kept, complete) = rangeSearch(request, window: request.window!, outOfTime: outOfTime, t)
        let model = complete ? modelAnswer(kept, request: request, after: end, t) : modelSearch(request, t)
        return (model, kept.filter { $0.departure <= end }, complete)
    }

    /// The model's answer from a range's journeys, which include every journey the model
    /// could answer or one that beats it (see `answer`).
    private func modelAnswer(_ kept: [RaptorJourney], request: RaptorRequest, after: Int64, _ t: Tables) -> [RaptorJourney] {
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
            var back = Search(timetable, request, t.running, t.footpaths, scratch, forward: false, maxRides: pick.rides, time: pick.arrival)
            back.seedTarget(-pick.departure)
            if let other = back.run().last, other.arrival <= pick.arrival, other.rides <= pick.rides { out.append(other) } else { out.append(pick) }
        }
        return out
    }

    /// Every departure time from the origin in [time, time + window], ascending, with the
    /// routes that have a run leaving then (and the access stop's position on the route).
    private func rangeDepartures(_ request: RaptorRequest, window: Int64, _ t: Tables) -> [RangeDeparture] {
        let tt = timetable
        // (Departure time from the origin, a route and position with a run leaving then), in
        // the order found; grouped by time below (sorting pairs, not hashing into a
        // dictionary of arrays: 1.5% of a full answer's time before).
        var departures: [(time: Int64, boarding: RangeDeparture.Boarding)] = []
        let running = t.running
        for w in request.access {
            let s = w.stop.index
            // (A stop may be the end of two walks: the search's label there is the shorter's.)
            let shortest = request.access.reduce(w.seconds) { $1.stop == w.stop ? Swift.min($0, $1.seconds) : $0 }
            for i in Int(running.stopOffsets[s])..<Int(running.stopOffsets[s + 1]) {
                let e = running.entries[i], r = e.route.index, pos = e.position.index
                guard request.filter.routes?[r] ?? true, tt.routeCanBoard[Int(tt.routeStopOffsets[r]) + pos] else { continue }
                let tripBase = Int(tt.routeTripOffsets[r]), nt = Int(tt.routeTripOffsets[r + 1]) - tripBase
                for (d, day) in request.days.enumerated() where e.days & (1 << UInt8(d)) != 0 {
                    let base = tt.dayBase[Int(tt.routeTimeZone[r]) * tt.dayCount + day]
                    // Trips keep their order at every stop: the window's runs are one slice.
                    let first = request.time + w.seconds - base
                    var lo = 0, hi = nt
                    while lo < hi { let mid = (lo + hi) / 2; if Int64(tt.departure(route: r, position: pos, run: mid)) < first { lo = mid + 1 } else { hi = mid } }
                    for j in lo..<nt where request.filter.trips?[tripBase + j] ?? true && tt.runStops(j, ofRoute: r, at: pos) {
                        let leave = base + Int64(tt.departure(route: r, position: pos, run: j)) - w.seconds
                        if leave > request.time + window { break }
                        departures.append((leave, .init(route: e.route, days: 1 << UInt8(d), position: e.position, walk: shortest)))
                    }
                }
            }
        }
        // (Stable: a time's boardings stay in the order found.)
        let sorted = departures.indices.sorted { (departures[$0].time, $0) < (departures[$1].time, $1) }
        var out: [RangeDeparture] = []
        for i in sorted {
            let (time, boarding) = departures[i]
            if out.last?.time == time { out[out.count - 1].boardings.append(boarding) } else { out.append(RangeDeparture(time: time, boardings: [boarding])) }
        }
        return out
    }

    /// Every journey departing in [time, time + window] that no other journey beats on
    /// departure (later), arrival (earlier) and rides (fewer), by departure.
    func range(_ request: RaptorRequest, window: Int64, _ t: Tables) -> [RaptorJourney] {
        rangeSearch(request, window: window, outOfTime: { false }, t).kept.filter { $0.departure <= request.time + window }
    }

    /// The range search over [time, time + window] with the iteration from just after it:
    /// its journeys may leave after the window.
    private func rangeSearch(_ request: RaptorRequest, window: Int64, outOfTime: () -> Bool, _ t: Tables)
        -> (kept: [RaptorJourney], complete: Bool) {
        let departures = rangeDepartures(request, window: window, t)
        var search = Search(timetable, request, t.running, t.footpaths, scratch, forward: true, maxRides: request.parameters.maxTransfers + 1)
        // Bounds from the runs leaving within the hours a useful journey can board in: a
        // label is pruned with them only while the destination's best is before their end.
        let horizon = request.time + window + RaptorRouter.boundsHorizon
        search.toTarget = lowerBounds(request, t, boarding: request.time..<horizon); search.pruneToTarget = true
        search.boundsEnd = horizon
        return search.runRange(departures: departures.reversed(), after: request.time + window + 1, outOfTime: outOfTime)
    }
}

/// A departure time from the origin in a range search, with the routes that have a run
/// leaving then from an access stop (at that walk's end), and the stop's position on it.
struct RangeDeparture {
    /// `walk`: the shortest access walk to the stop (the search's round-0 label there is the
    /// departure time plus it).
    struct Boarding { var route: RouteIndex, days: UInt8, position: RoutePosition, walk: Int64 }
    var time: Int64
    var boardings: [Boarding]
}

/// Memory for one search's labels, which the innermost loops write: through pointers, not
/// Swift arrays, those writes skip the copy-on-write uniqueness check (a call per write)
/// and, in release builds, the bounds check (debug builds keep it). Element types are
/// plain values (no deinitialization needed). Reused from search to search (`ScratchPool`).
final class SearchScratch: @unchecked Sendable {
    let capacityRounds: Int, stops: Int, routes: Int
    let ready: UnsafeMutableBufferPointer<Int64>, arrived: UnsafeMutableBufferPointer<Int64>
    let readyAtMost: UnsafeMutableBufferPointer<Int64>, arrivedAtMost: UnsafeMutableBufferPointer<Int64>
    let ride: UnsafeMutableBufferPointer<Search.Ride>, change: UnsafeMutableBufferPointer<Search.Change>
    let marked: UnsafeMutableBufferPointer<Bool>, improved: UnsafeMutableBufferPointer<Bool>
    /// Stop -> its best label before it was marked (`Search.before`).
    let before: UnsafeMutableBufferPointer<Int64>
    let routeQueue: UnsafeMutableBufferPointer<Search.Queued>
    /// The stops marked, the stops improved, the routes queued (`Search`'s lists).
    let markedList: IndexList, improvedList: IndexList, routeList: IndexList
    /// Stop -> whether a search wrote its labels; the stops written, in `touchedList[0 ..< touchedCount[0]]`.
    let touched: UnsafeMutableBufferPointer<Bool>
    let touchedList: UnsafeMutableBufferPointer<Int32>
    let touchedCount: UnsafeMutablePointer<Int>
    /// The rounds of the search using it (its labels' layout, `Search.at`).
    var rounds = 0

    init(rounds: Int, stops: Int, routes: Int) {
        capacityRounds = rounds; self.stops = stops; self.routes = routes
        func buffer<T>(_ value: T, _ count: Int) -> UnsafeMutableBufferPointer<T> {
            let b = UnsafeMutableBufferPointer<T>.allocate(capacity: Swift.max(1, count))
            b.initialize(repeating: value)
            return b
        }
        let size = rounds * stops
        ready = buffer(Search.infinity, size); arrived = buffer(Search.infinity, size)
        readyAtMost = buffer(Search.infinity, size); arrivedAtMost = buffer(Search.infinity, size)
        ride = buffer(Search.noRide, size); change = buffer(Search.noChange, size)
        marked = buffer(false, stops); improved = buffer(false, stops); before = buffer(Search.infinity, stops)
        routeQueue = buffer(Search.Queued.none, routes)
        markedList = IndexList(capacity: stops); improvedList = IndexList(capacity: stops); routeList = IndexList(capacity: routes)
        touched = buffer(false, stops); touchedList = buffer(0, stops)
        touchedCount = .allocate(capacity: 1); touchedCount.initialize(to: 0)
    }

    /// The labels of the stops written back to their start values (the flags and route
    /// queues a search leaves as it found them). Not their parents (`ride`, `change`): a
    /// label's parents are read only where the search has set it, and set with it.
    func reset() {
        let r = rounds
        for i in 0..<touchedCount.pointee {
            let s = Int(touchedList[i])
            touched[s] = false
            for j in (s * r)..<(s * r + r) {
                ready[j] = Search.infinity; arrived[j] = Search.infinity
                readyAtMost[j] = Search.infinity; arrivedAtMost[j] = Search.infinity
            }
        }
        touchedCount.pointee = 0
    }

    deinit {
        ready.deallocate(); arrived.deallocate(); readyAtMost.deallocate(); arrivedAtMost.deallocate()
        ride.deallocate(); change.deallocate(); marked.deallocate(); improved.deallocate(); before.deallocate()
        routeQueue.deallocate(); markedList.deallocate(); improvedList.deallocate(); routeList.deallocate(); touched.deallocate(); touchedList.deallocate()
        touchedCount.deallocate()
    }
}

/// A list of stops or routes in scratch memory: an append is a store and an increment,
/// without a Swift array's uniqueness and capacity checks. Its capacity is the number of
/// stops or routes: the flag kept beside each list lists an index at most once.
struct IndexList {
    private let items: UnsafeMutableBufferPointer<Int32>
    private let counter: UnsafeMutablePointer<Int>
    init(capacity: Int) {
        items = .allocate(capacity: Swift.max(1, capacity))
        counter = .allocate(capacity: 1); counter.initialize(to: 0)
    }
    var count: Int { counter.pointee }
    var isEmpty: Bool { counter.pointee == 0 }
    @inline(__always) subscript(_ i: Int) -> Int { Int(items[i]) }
    @inline(__always) func append(_ x: Int) { items[counter.pointee] = Int32(truncatingIfNeeded: x); counter.pointee += 1 }
    func removeAll() { counter.pointee = 0 }
    func deallocate() { items.deallocate(); counter.deallocate() }
}

/// The label memory of finished searches. A search takes a scratch and gives it back when it
/// ends (`ScratchLease`) with only the stops it wrote reset, so that a search pays for the
/// stops it reaches, not for every stop of the timetable: with all shared feeds loaded
/// (19,448 stops, 7 rounds) each search filled 8 MB of labels before it began, about a
/// tenth of a served plan's time under load. At most `kept` scratches are kept (two
/// searches are alive at once in a plan, the forward one and a backward one: enough for 8
/// threads planning at once; more take new ones).
final class ScratchPool: Sendable {
    private let free = Mutex<[SearchScratch]>([])
    static let kept = 16

    func take(rounds: Int, stops: Int, routes: Int) -> SearchScratch {
        let found = free.withLock { list -> SearchScratch? in
            guard let i = list.lastIndex(where: { $0.capacityRounds >= rounds && $0.stops == stops && $0.routes == routes }) else { return nil }
            return list.remove(at: i)
        }
        // The default maximum of rides (RoutingParameters.maxTransfers + 1) fits every scratch.
        let scratch = found ?? SearchScratch(rounds: Swift.max(rounds, RoutingParameters().maxTransfers + 2), stops: stops, routes: routes)
        scratch.rounds = rounds
        return scratch
    }

    func give(_ scratch: SearchScratch) {
        scratch.reset()
        free.withLock { list in if list.count < Self.kept { list.append(scratch) } }
    }
}

/// A search's scratch, given back to its pool when the last copy of the search is gone.
final class ScratchLease {
    let scratch: SearchScratch
    private let pool: ScratchPool
    init(_ pool: ScratchPool, rounds: Int, stops: Int, routes: Int) {
        self.pool = pool
        scratch = pool.take(rounds: rounds, stops: stops, routes: routes)
    }
    deinit { pool.give(scratch) }
}

/// The timetable arrays `Search.scan` reads at every position, as pointers: a Swift
/// array's subscript checks its bounds (its count loaded, a compare and a branch), and in
/// the scan loop, where a dozen values compete for registers, those checks spilled other
/// values to the stack. Valid while the timetable lives (a `Search` holds it): a
/// `Timetable`'s arrays are `let`s, never mutated or reallocated. Bounds are still
/// checked in debug builds (`UnsafeBufferPointer`'s subscript). (The same for the arrays
/// read as routes are queued and changes made: no faster, not done.)
struct TimetableView {
    let routeStops: UnsafeBufferPointer<StopIndex>
    let routeCanBoard: UnsafeBufferPointer<Bool>, routeCanAlight: UnsafeBufferPointer<Bool>
    let runTimes: UnsafeBufferPointer<RunTimes>, profiles: UnsafeBufferPointer<Int32>

    init(_ tt: Timetable) {
        func pointer<T>(_ a: [T]) -> UnsafeBufferPointer<T> { a.withUnsafeBufferPointer { $0 } }
        routeStops = pointer(tt.routeStops)
        routeCanBoard = pointer(tt.routeCanBoard); routeCanAlight = pointer(tt.routeCanAlight)
        runTimes = pointer(tt.runTimes); profiles = pointer(tt.profiles)
    }

    /// `Timetable.runTime`: run `t`'s time at `offset` of its row.
    @inline(__always) func runTime(_ t: Int, _ offset: Int) -> Int32 {
        let x = runTimes[t]
        return x.start &+ profiles[Int(x.row) &+ offset]
    }
}

/// One search in one direction. Times are "values": the UTC instant for a forward
/// search, its negation for a backward one, so that smaller is always better.
struct Search {
    let tt: Timetable
    /// `tt`'s arrays that `scan` reads, as pointers.
    let view: TimetableView
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
    let footpaths: FootpathCosts
    /// Lower bounds of the seconds from each stop to the destination (`RaptorRouter.lowerBounds`),
    /// when `pruneToTarget`: labels that cannot beat the destination's best are dropped.
    var toTarget = TargetBounds.none
    var pruneToTarget = false
    /// Whether any run of the timetable skips a stop (`Timetable.tripStopSkipped`).
    let hasSkips: Bool
    /// `toTarget` holds for journeys arriving before this (a bound that is not: no pruning).
    var boundsEnd = Search.infinity
    /// Whether the lower bounds prune the labels that must beat `limit` (the destination's
    /// best they are checked against): the bounds are in use and hold for journeys
    /// arriving before `limit`.
    @inline(__always) func bounded(_ limit: Int64) -> Bool { pruneToTarget && limit <= boundsEnd }

    /// The labels of a finished search the other way with the same request (`reached`), when
    /// this one looks for the other end of a journey it found (the model's latest departure
    /// for an earliest arrival, or the reverse). Every stop of a journey this one can answer
    /// is on a journey that one could have found: being at a stop at real time t here (by
    /// a ride or ready to board) needs that search to have been there by t. So a label here
    /// (value v, real time -v in that search's values) is dropped when that search's best
    /// at the stop, any rides, any phase, is later (value -v < best, i.e. v > -best). That
    /// search keeps every label that beats its own destination's best (journeys needing
    /// more rides aside, of no use here), and this one starts from that best (`start`), so
    /// only labels at `start` itself could be missing there: they are never dropped.
    /// Exact; the labels it drops lead only to journeys that leave before (arrive after)
    /// the one refined, which the seeded target drops anyway (`seedTarget`).
    /// Against the build before, bydgoszcz-2020 (`Scripts/bench-ab.sh`, 5 rounds): depart-at
    /// p50 0.37 -> 0.32 ms (0.86x), arrive-by 0.34 -> 0.29 ms (0.85x), queries/s +15%; a
    /// search of the other end explored the city back to the journey's departure, most of
    /// it unreachable from the origin by then.
    var corridor: Reached? = nil
    /// A search's labels as another search reads them (`corridor`): each stop's best value
    /// with at most the last round's rides, arrived or ready.
    struct Reached {
        let arrivedAtMost: UnsafeMutableBufferPointer<Int64>, readyAtMost: UnsafeMutableBufferPointer<Int64>
        /// The searcher's rounds (the labels' layout, `Search.at`).
        let rounds: Int
        @inline(__always) func best(_ s: Int) -> Int64 {
            let i = Search.at(rounds - 1, s, rounds: rounds)
            return Swift.min(arrivedAtMost[i], readyAtMost[i])
        }
    }
    /// This search's labels, for `corridor` of another.
    var reached: Reached { Reached(arrivedAtMost: arrivedAtMost, readyAtMost: readyAtMost, rounds: rounds) }
    /// Whether value `v` at stop `s` is outside `corridor`.
    @inline(__always) private func outside(_ s: Int, _ v: Int64) -> Bool {
        guard let c = corridor else { return false }
        return v > start && v > -c.best(s)
    }
    static let infinity = Int64.max / 4

    /// Rounds 0...maxRides: the labels below are indexed by (round, stop) at `at(round, stop)`,
    /// a stop's rounds side by side (the at-most bounds are lowered over a stop's later
    /// rounds on every improvement: one cache line, not one per round).
    let rounds: Int
    @inline(__always) func at(_ round: Int, _ stop: Int) -> Int { Search.at(round, stop, rounds: rounds) }
    @inline(__always) static func at(_ round: Int, _ stop: Int, rounds: Int) -> Int { stop &* rounds &+ round }
    // (round, stop) -> best value ready to board after `round` rides; -> arrived by ride `round`.
    let ready: UnsafeMutableBufferPointer<Int64>
    let arrived: UnsafeMutableBufferPointer<Int64>
    // (round, stop) -> best value with at most `round` rides, over all iterations so far:
    // the local pruning bound. Not the best over all rounds: a range search keeps labels
    // from later departures, and a journey with fewer rides that arrives as early as one
    // with more rides from a later departure is still an answer.
    let readyAtMost: UnsafeMutableBufferPointer<Int64>
    let arrivedAtMost: UnsafeMutableBufferPointer<Int64>
    // Parents of `arrived`: the ride (route, trip within route, day, boarding / alighting
    // position); one array of structs, not an array per field: an improvement writes one
    // cache line, not five.
    struct Ride { var route: RouteIndex, trip: Int32, day: Int32, board: RoutePosition, alight: RoutePosition }
    let ride: UnsafeMutableBufferPointer<Ride>
    // Parents of `ready`: the stop changed from and the footpath (`sameStop` for a change at
    // the stop itself), or (round 0) `StopIndex.noStop` and the source walk.
    struct Change { var from: StopIndex, foot: Int32 }
    let change: UnsafeMutableBufferPointer<Change>
    // Round -> best value at the destination with at most that many rides (over all iterations).
    var targetBest: [Int64]
    /// Stop -> whether it is at the end of a target walk (egress for a forward search).
    let isTarget: [Bool]
    let marked: UnsafeMutableBufferPointer<Bool>, improved: UnsafeMutableBufferPointer<Bool>
    /// Stop -> its best label to board from with at most the rides of the round it is
    /// marked for, as it was before the improvement that marked it (`readyAtMost`; set as
    /// the stop is marked, read only where it is marked). Every route through the stop was
    /// ridden on from there with that label, in that round or an earlier one, by this
    /// search (a range: in this iteration or one of a later departure): `scanRoute` does
    /// not ride a run again that it caught then.
    let before: UnsafeMutableBufferPointer<Int64>
    /// A route's place in this round's queue (`routeList`): the position to scan it from
    /// (`RoutePosition.noPosition` when it is not queued), the last position (in scan
    /// order) it is queued at, where it may board, and the days (bits, as
    /// `DayRoutes.dayMasks`) it is queued for. One struct: queueing a route writes one
    /// cache line, not three.
    struct Queued {
        var start: RoutePosition, last: RoutePosition, days: UInt8
        static let none = Queued(start: .noPosition, last: .noPosition, days: 0)
    }
    let routeQueue: UnsafeMutableBufferPointer<Queued>
    /// The stops marked (their labels improved: routes through them are scanned next
    /// round), the stops improved by rides this round (changes are made from them), the
    /// routes queued this round; each flag beside them (`marked`, `improved`,
    /// `routeQueue`) keeps an index from being listed twice.
    let markedList: IndexList, improvedList: IndexList, routeList: IndexList
    /// Parent sentinels, never read (a label's parents are read only where it is set):
    /// far from -1 and the integer limits.
    static let noParent = Int32(-1_000_000_000)
    static let noRide = Ride(route: .noRoute, trip: noParent, day: noParent, board: .noPosition, alight: .noPosition)
    /// `Change.foot` of a change at the stop itself (no footpath).
    static let sameStop = Int32(-1_000_000_001)
    /// `scanRoute`'s trip (within the route) before it boards one.
    static let notBoarded = -1_000_000_000
    static let noChange = Change(from: .noStop, foot: noParent)
    /// Holds the buffers above (given back with the last copy of this search).
    private let lease: ScratchLease
    private let touched: UnsafeMutableBufferPointer<Bool>, touchedList: UnsafeMutableBufferPointer<Int32>
    private let touchedCount: UnsafeMutablePointer<Int>

    init(_ tt: Timetable, _ request: RaptorRequest, _ running: DayRoutes, _ footpaths: FootpathCosts, _ pool: ScratchPool,
         forward: Bool, maxRides: Int, time: Int64? = nil) {
        self.tt = tt
        view = TimetableView(tt)
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
        self.running = running
        filterRoutes = request.filter.routes != nil
        routeAllowed = request.filter.routes ?? []
        self.footpaths = footpaths
        tripAllowed = request.filter.trips ?? []
        stopAllowed = request.filter.stops ?? []
        rounds = maxRides + 1
        let size = rounds * n
        lease = ScratchLease(pool, rounds: rounds, stops: n, routes: tt.routeCount)
        let x = lease.scratch
        ready = UnsafeMutableBufferPointer(rebasing: x.ready[0..<size])
        arrived = UnsafeMutableBufferPointer(rebasing: x.arrived[0..<size])
        readyAtMost = UnsafeMutableBufferPointer(rebasing: x.readyAtMost[0..<size])
        arrivedAtMost = UnsafeMutableBufferPointer(rebasing: x.arrivedAtMost[0..<size])
        ride = UnsafeMutableBufferPointer(rebasing: x.ride[0..<size])
        change = UnsafeMutableBufferPointer(rebasing: x.change[0..<size])
        targetBest = Array(repeating: Search.infinity, count: maxRides + 1)
        marked = x.marked
        improved = x.improved
        before = x.before
        touched = x.touched; touchedList = x.touchedList; touchedCount = x.touchedCount
        var isTarget = Array(repeating: false, count: n)
        for w in targets { isTarget[w.stop.index] = true }
        self.isTarget = isTarget
        routeQueue = x.routeQueue
        markedList = x.markedList; improvedList = x.improvedList; routeList = x.routeList
        markedList.removeAll(); improvedList.removeAll(); routeList.removeAll()
        hasSkips = !tt.routeSkipOffsets.isEmpty
    }

    /// Notes that the labels of stop `s` are written (`SearchScratch.reset` puts them back).
    @inline(__always) private func touch(_ s: Int) {
        if !touched[s] {
            touched[s] = true
            touchedList[touchedCount.pointee] = Int32(truncatingIfNeeded: s)
            touchedCount.pointee += 1
        }
    }

    private func real(_ value: Int64) -> Int64 { forward ? value : -value }

    /// Looks only for journeys reaching the target at `value` or better (a journey known to
    /// get there at `value`: the other end of one found the other way): the target's best
    /// starts just after it in every round, so that labels that cannot do as well are
    /// pruned from the first round on. Labels that can are set exactly as without it (a
    /// pruned label is worse than every label it would have kept out), so the journeys
    /// found at `value` or better are the same.
    mutating func seedTarget(_ value: Int64) {
        for k in targetBest.indices { targetBest[k] = value + 1 }
    }

    /// Change time at a stop itself, or nil when not allowed.
    private func sameStopChange(_ s: Int) -> Int64? {
        switch TransferRule(rawValue: tt.sameStopRule[s])! {
        case .forbidden: return nil
        case .timed: return 0
        case .minimumTime: return max(Int64(p.transferSlack), Int64(tt.sameStopMinTime[s]))
        case .none, .recommended: return Int64(p.transferSlack)
        }
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
    /// `departures`: descending, each with the routes that have a run leaving then. Only
    /// those routes are scanned in round 1: every access stop is ready earlier than in the
    /// iteration before, but a route with no run leaving it in between (that run would be
    /// a departure of its own, between this one and the one before) boards the same trips
    /// as before and improves nothing. This is what makes a range over many access stops
    /// and their routes cost about one search per departure, not per departure times
    /// access stops and routes.
    /// `outOfTime` is asked every 8 departures; once it says yes the rest are left out
    /// (`complete` false).
    mutating func runRange<D: Sequence>(departures: D, after: Int64, outOfTime: () -> Bool = { false })
        -> (kept: [RaptorJourney], complete: Bool) where D.Element == RangeDeparture {
        var found: [RaptorJourney] = []
        for hit in iterate(start: after) { found.append(journey(rides: hit.rides, target: hit.target)) }
        var complete = true
        for (i, d) in departures.enumerated() {
            if i % 8 == 7 && outOfTime() { complete = false; break }
            if fruitless(d) { continue }
            for hit in iterate(start: d.time, firstRoutes: d.boardings) { found.append(journey(rides: hit.rides, target: hit.target)) }
        }
        let sorted = found.sorted { ($0.departure, -$0.arrival, -$0.rides) > ($1.departure, -$1.arrival, -$1.rides) }
        var kept: [RaptorJourney] = []
        for j in sorted where !kept.contains(where: { $0.departure >= j.departure && $0.arrival <= j.arrival && $0.rides <= j.rides }) {
            kept.append(j)
        }
        return (kept.sorted { ($0.departure, $0.rides) < ($1.departure, $1.rides) }, complete)
    }

    /// Whether departure `d`'s iteration would write no label: every run leaving then (its
    /// boardings), from its access stop, reaches the destination by the lower bounds
    /// (`toTarget`) no earlier than the destination's best with one ride, round 1's limit
    /// (the loosest: later rounds' are tighter), so every label it gives is pruned (value +
    /// bound never goes down along a run: see `scan`'s `pruneBeyond`). Round 1 boards at
    /// the other access stops too, but there only runs leaving at this departure's time
    /// (its boardings, checked here) or at a later one: those a later departure's iteration
    /// rode from there already (`covered`), or skipped as fruitless then, with a looser
    /// limit. Skipping it leaves the access stops' labels of the iteration before, which the
    /// next one lowers anyway; their `before` is then later, which only makes `covered`
    /// rarer. Not with runs that skip stops (`covered` is off for them). Exact (the same
    /// journeys, `Scripts/compare.sh`): on bydgoszcz-2020, 20% of the departures of a full
    /// answer (18,655 of 95,600 per 1,000 answers), answers +2.4% queries/s (4 alternating
    /// rounds, best of 3 passes); they were cheap already (their runs' scans end at the
    /// first stop, `pruneBeyond`).
    private func fruitless(_ d: RangeDeparture) -> Bool {
        guard maxRides >= 1, !hasSkips else { return false }
        let limit = Swift.min(targetBest[0], targetBest[1])
        guard bounded(limit) else { return false }
        for b in d.boardings {
            let stop = tt.routeStops[Int(tt.routeStopOffsets[b.route.index]) + b.position.index].index
            if d.time &+ b.walk &+ toTarget.at(stop) < limit { return false }
        }
        return true
    }

    /// One RAPTOR run from value `start` over the current labels; returns (rides, target
    /// walk) for every round whose destination value improved on fewer rides and on
    /// earlier iterations.
    /// `firstRoutes`: the routes scanned in round 1, from these positions (nil: the routes
    /// through every improved source).
    private mutating func iterate(start: Int64, firstRoutes: [RangeDeparture.Boarding]? = nil) -> [(rides: Int, target: Int)] {
        // (Before any is written: a stop may be the end of two walks.)
        for w in sources { before[w.stop.index] = ready[at(0, w.stop.index)] }
        for (i, w) in sources.enumerated() {
            let s = w.stop.index, v = start + w.seconds
            if v < ready[at(0, s)] {
                let i0 = at(0, s)
                touch(s)
                ready[i0] = v; Search.lower(readyAtMost, i0, v, end: at(rounds, s)); change[i0] = Change(from: .noStop, foot: Int32(i))
                if !marked[s] && firstRoutes == nil { marked[s] = true; markedList.append(s) }
            }
        }
        if let firstRoutes {
            for b in firstRoutes {
                queue(b.route, at: b.position, days: b.days)
            }
        }
        var results: [(rides: Int, target: Int)] = []

        for k in 1...max(1, maxRides) where maxRides >= 1 {
            // Anything no better than the destination with k rides is pruned in round k.
            let bound = min(targetBest[k], targetBest[k - 1])
            // Away from the destination's walks an arrival needs one more ride to get there,
            // so it must beat the best with one more ride (and after the last round it is of
            // no use): the same bound its changes would get, applied before they are made.
            let changeBound = k < maxRides ? min(bound, targetBest[k + 1]) : Int64.min
            // The lower bounds this round prunes with are those below `bound - start` (every
            // label is at or after `start`): settled now, as far as that.
            if bounded(bound) { toTarget.settle(below: bound - start) }
            // Routes through stops improved in the previous round, from their first such stop
            // (round 1 of a range's departure: `firstRoutes`, collected above).
            if k > 1 || firstRoutes == nil { routeList.removeAll() }
            for m in 0..<markedList.count {
                let s = StopIndex(markedList[m])
                // Only routes with a run still to board here that can beat the bound (its
                // label and the bound as seconds after `running.origin`; forward, a run
                // leaves at or after the label; backward, it arrives at or before it).
                let label = real(ready[at(k - 1, s.index)]) - running.origin
                let limit = real(bound) - running.origin
                for i in Int(running.stopOffsets[s.index])..<Int(running.stopOffsets[s.index + 1]) {
                    let e = running.entries[i]
                    if forward {
                        // (Entries by last departure, latest first: the rest have left too.)
                        if label > Int64(e.lastDeparture) { break }
                        if Int64(e.firstDeparture) >= limit { continue }
                    } else if label < Int64(e.firstArrival) || Int64(e.lastArrival) <= limit { continue }
                    queue(e.route, at: e.position, days: e.days)
                }
            }
            // The stops stay marked while the routes are scanned: only there do they board
            // (`scanRoute`); in round 1 of a range's departure, the sources.
            if k == 1 && firstRoutes != nil {
                for w in sources where !marked[w.stop.index] { marked[w.stop.index] = true; markedList.append(w.stop.index) }
            }
            for j in 0..<routeList.count {
                let r = routeList[j], q = routeQueue[r], from = q.start.index, dayMask = q.days, last = q.last.index
                routeQueue[r] = .none
                if filterRoutes && !routeAllowed[r] { continue }
                // Forward, without runs that skip stops: from `cut` on, the route is ridden
                // already this round on runs of days scanned before, all of whose times are at
                // or before `cutTime` (`scanRoute`, `until`).
                var cut = Int.max, cutTime = Int64.min
                for (d, day) in days.enumerated() where dayMask & (1 << UInt8(d)) != 0 {
                    // Skip a day whose runs are all gone before this iteration starts (every
                    // label is at or after it) or cannot beat the destination's best.
                    let base = tt.dayBase[Int(tt.routeTimeZone[r]) * tt.dayCount + day]
                    let minArrival = base + Int64(tt.routeMinArrival[r]), maxDeparture = base + Int64(tt.routeMaxDeparture[r])
                    if forward ? maxDeparture < start || minArrival >= bound : minArrival > -start || -maxDeparture >= bound { continue }
                    let until = forward && !hasSkips && minArrival >= cutTime ? cut : Int.max
                    let boarded = scanRoute(r, day: day, from: from, last: last, until: until, round: k, bestTarget: bound, changeBound: changeBound)
                    if forward && !hasSkips && boarded >= 0 {
                        cut = boarded; cutTime = until == Int.max ? maxDeparture : Swift.max(cutTime, maxDeparture)
                    }
                }
            }
            for m in 0..<markedList.count { marked[markedList[m]] = false }
            markedList.removeAll()
            // The destination.
            var roundBest: Int?
            var best = bound
            for (i, w) in targets.enumerated() {
                let a = arrived[at(k, w.stop.index)]
                if a < Search.infinity && a + w.seconds < best { best = a + w.seconds; roundBest = i }
            }
            if let roundBest {
                results.append((k, roundBest))
                for j in k...maxRides { targetBest[j] = min(targetBest[j], best) }
            }
            // Changes: at the stop itself, or along one footpath.
            let nextBound = min(targetBest[k], targetBest[min(k + 1, maxRides)])
            if bounded(nextBound) { toTarget.settle(below: nextBound - start) }
            for m in 0..<improvedList.count {
                let s = improvedList[m], stop = StopIndex(s)
                improved[s] = false
                guard k < maxRides else { continue }  // no round after this one
                let a = arrived[at(k, s)]
                if let c = sameStopChange(s) { relax(s, a + c, round: k, from: stop, foot: Search.sameStop, bestTarget: nextBound) }
                if forward {
                    for f in Int(tt.footOffsets[s])..<Int(tt.footOffsets[s + 1]) {
                        let c = footpaths.change[f]
                        if c == FootpathCosts.beyond { break }
                        if c >= 0 { relax(tt.footTarget[f].index, a + Int64(c), round: k, from: stop, foot: Int32(f), bestTarget: nextBound) }
                    }
                } else {
                    for i in Int(footpaths.inOffsets[s])..<Int(footpaths.inOffsets[s + 1]) {
                        relax(footpaths.inSource[i].index, a + Int64(footpaths.inChange[i]), round: k, from: stop,
                              foot: footpaths.inFoot[i], bestTarget: nextBound)
                    }
                }
            }
            improvedList.removeAll()
            if markedList.isEmpty { break }
        }
        for j in 0..<routeList.count { routeQueue[routeList[j]] = .none }
        routeList.removeAll()
        for m in 0..<markedList.count { marked[markedList[m]] = false }
        markedList.removeAll()
        return results
    }

    /// Queues route `route` for this round's scans on `days` (bits, as `DayRoutes.dayMasks`),
    /// to board at position `pos`: it is scanned from its first such position (in scan
    /// order) and boards at none past its last (`scanRoute`).
    @inline(__always)
    private mutating func queue(_ route: RouteIndex, at pos: RoutePosition, days: UInt8) {
        let r = route.index
        var q = routeQueue[r]
        if q.start == .noPosition {
            routeList.append(r); q = Queued(start: pos, last: pos, days: days)
        } else {
            if forward ? pos < q.start : pos > q.start { q.start = pos }
            if forward ? pos > q.last : pos < q.last { q.last = pos }
            q.days |= days
        }
        routeQueue[r] = q
    }

    /// Lowers the at-most-rides bound of `stop` to `v` from round `k` on.
    @inline(__always)
    private static func lower(_ atMost: UnsafeMutableBufferPointer<Int64>, _ index: Int, _ v: Int64, end: Int) {
        // A stop's rounds are one slice (`at`): index ..< its end.
        var j = index
        while j < end, v < atMost[j] { atMost[j] = v; j += 1 }
    }

    private mutating func relax(_ s: Int, _ v: Int64, round k: Int, from: StopIndex, foot: Int32, bestTarget: Int64) {
        // Pruned when no better than with fewer rides, or than the destination already is.
        let i = at(k, s)
        guard v < bestTarget, v < readyAtMost[i], !bounded(bestTarget) || v + toTarget.at(s) < bestTarget,
              !outside(s, v) else { return }
        touch(s)
        if !marked[s] { before[s] = readyAtMost[i]; marked[s] = true; markedList.append(s) }
        ready[i] = v
        Search.lower(readyAtMost, i, v, end: at(rounds, s))
        change[i] = Change(from: from, foot: foot)
    }

    /// Scans route `r` with the trips of service day `day`, from position `from`, boarding
    /// only at stops marked in the round before (`marked`; round 1 of a range's departure:
    /// the sources) and at no position past `last` (in scan order), the last it is queued at.
    /// Arrivals must beat `bestTarget` at a stop of the destination's walks, `changeBound`
    /// elsewhere.
    ///
    /// Why only there: a route is queued at the stops whose labels improved in the round
    /// before (a range's first round: where a run leaves at the departure's time), and only
    /// there can it catch a run it could not catch before. At any other stop the label is
    /// an older one (an earlier round, a later departure's iteration), whose run that round
    /// or iteration already rode on from there, arriving everywhere no later than it would
    /// now: no label it gives is an improvement. So past `last` the scan only carries the
    /// run ridden on, and it stops once that run is nowhere to board or gets to a stop no
    /// better than `bestTarget` (times along a run never go back, so neither is it further
    /// on). Exact (the reference comparisons); on bydgoszcz-2020 the positions scanned fell
    /// by 13% in depart-at searches and 23% in answers, and the boarding checks (each a
    /// label read, scattered over the stops; the marks, one byte a stop, are read first)
    /// by 50% and 68% (1,000 queries: 11.2 M -> 5.6 M, 34.4 M -> 11.2 M).
    ///
    /// Nor does it ride a run again that it rode before from the same stop: a run caught at
    /// a marked stop that the stop's label before its improvement (`before`) could catch
    /// too. With that label (value L, with at most k - 1 rides, k this round) the route was
    /// queued there in round k or earlier, of this iteration or of a later departure's
    /// (for an access stop in a range: the iteration of the departure at which that run
    /// leaves it, or the first one), and boarded the first run leaving at or after L, or
    /// carried an earlier one past: every stop after it got that run's arrival or a better
    /// one, with at most k rides, against a bound no tighter than now. A run caught now
    /// that leaves at or after L is that run, so every label it could give is there
    /// already, and the scan stops past `last` on such a run as on none. Exact (the label
    /// writes are the same; `Scripts/compare.sh`); on bydgoszcz-2020 the full answers' checks
    /// of arrivals fell by 44% (1,000 queries: 23.5 M -> 13.0 M), their p50 0.680 -> 0.645
    /// ms and p95 2.46 -> 2.09 ms (6 alternating rounds, best of 3 passes). Not for routes
    /// with runs that skip stops (a realtime overlay's), whose runs `otherRun` picks otherwise.
    ///
    /// Forward, the scan ends at position `until`: there, the caller has ridden the route
    /// this round already on a run of a day scanned before, whose times all come before
    /// those of this day's runs (the days' runs do not overlap: one day's latest departure
    /// is at or before the other's earliest arrival). That run, boarded at `until` or
    /// before, got to every stop after it no later than any run of this day could, so each
    /// label a run of this day would give after it is given already or pruned (at `until`
    /// itself a run of this day may still alight). Returns
    /// the position where a run was first boarded (-1: none), for the caller's next day.
    /// Why: a route queued for today and tomorrow was scanned with tomorrow's runs after
    /// today's, and those rides were almost never of use (91% of such scans wrote no label,
    /// a third of a depart-at search's positions). Exact (the label writes are the same;
    /// `Scripts/compare.sh`); on bydgoszcz-2020 the positions scanned fell by 24% in
    /// depart-at searches and 11% in answers (1,000 queries: 9.8 M -> 7.4 M, 22.5 M -> 20.0
    /// M), their time by less, as those stops' labels were in the cache from today's scan:
    /// depart-at p95 0.47 -> 0.44 ms, answers +4% queries/s (5 alternating rounds, best of 3
    /// passes); mexico-city-2018 depart-at p95 2.83 -> 2.57 ms.
    private mutating func scanRoute(_ r: Int, day: Int, from: Int, last: Int, until: Int, round k: Int, bestTarget: Int64,
                                    changeBound: Int64) -> Int {
        // One copy of the scan per direction, with `forward` a constant in each.
        if forward {
            return scan(true, r, day: day, from: from, last: last, until: until, round: k, bestTarget: bestTarget, changeBound: changeBound)
        } else {
            return scan(false, r, day: day, from: from, last: last, until: until, round: k, bestTarget: bestTarget, changeBound: changeBound)
        }
    }

    /// `scanRoute` in direction `forward` (inlined at its two calls, each with a constant).
    @inline(__always)
    private mutating func scan(_ forward: Bool, _ r: Int, day: Int, from: Int, last: Int, until: Int, round k: Int, bestTarget: Int64,
                               changeBound: Int64) -> Int {
        let stopsStart = Int(tt.routeStopOffsets[r]), length = Int(tt.routeStopOffsets[r + 1]) - stopsStart
        // Forward: the positions scanned end at `until` (still alighting there: the run of
        // the earlier day was boarded there and gave no label there).
        let end = forward ? (until == Int.max ? length : Swift.min(length, until &+ 1)) : length
        // Where a run was first boarded (-1: none).
        var firstBoard = -1
        let tripBase = Int(tt.routeTripOffsets[r]), nt = Int(tt.routeTripOffsets[r + 1]) - tripBase
        // A run's time at a position: `tt.runTime(tripBase + run, pos)` departs,
        // `tt.runTime(tripBase + run, arrivalShift + pos)` arrives (here `tv.runTime`).
        let arrivalShift = Int(tt.routeArrivalShift[r])
        let base = tt.dayBase[Int(tt.routeTimeZone[r]) * tt.dayCount + day]
        let profiles = view.profiles, tv = view
        // Where the route's flags of runs that skip stops start (a realtime overlay's), or -1.
        let skips = hasSkips ? tt.skipBase(r) : -1
        // The trip ridden (within the route) and where it was boarded.
        var current = Search.notBoarded, boardPos = Search.notBoarded
        // The run ridden's times: its instant at position p is `runBase + profiles[runRow + p]`
        // (forward: its arrivals, from `arrivalShift`; backward: its departures), read once as
        // it is boarded rather than at every stop.
        var runBase: Int64 = 0, runRow = 0
        // Whether the run ridden could be caught where it was boarded with the label the stop
        // had before (`before`): then it was ridden on from there with that label, and no
        // label it gets to can improve.
        var covered = false
        // Forward, with the lower bounds in use for every label this scan gives (the
        // destination's best before `boundsEnd`) and no run skipping stops: once the run
        // ridden past `last` gets to a stop whose bound prunes its label there (value +
        // bound >= `bestTarget`, the loosest limit of the labels), the bounds prune its
        // labels at every stop further on. Each hop it rides takes at least the hop's
        // shortest ride in the bounds' hours (it leaves within them: one leaving later gets
        // nowhere before `bestTarget`), and a stop's bound is at most that ride plus the
        // next stop's (the Dijkstra's distances; for stops not settled yet, its frontier),
        // so along the run value + bound never goes down. Exact (the same labels written,
        // `Scripts/compare.sh`); positions scanned in answers -8% on bydgoszcz-2020 (1,000
        // answers: 17.9 M -> 16.5 M), answers +1.6% queries/s (4 alternating rounds, best of
        // 3 passes). (Marking the run pruned at such a stop before `last` too, to skip its
        // label checks up to there: no faster.)
        let pruneBeyond = bounded(bestTarget) && skips < 0
        var pos = from
        while forward ? pos < end : pos >= 0 {
            let stop = tv.routeStops[stopsStart + pos].index
            // Past the last position queued this round: nothing is boarded any more, and
            // once the run ridden gets here no better than the bound, nor anywhere further.
            let beyond = forward ? pos > last : pos < last
            if beyond {
                if current == Search.notBoarded || covered { break }
                let t = runBase &+ Int64(profiles[runRow &+ pos])
                if (forward ? t : -t) >= bestTarget { break }
                // Nor once its label here is pruned with the lower bounds (`toTarget`): it is at
                // every stop further on (`pruneBeyond`).
                if forward && pruneBeyond && t &+ toTarget.at(stop) >= bestTarget { break }
            }
            if current != Search.notBoarded && !covered {
                // Alight (forward: arrival; backward: the real boarding, at its departure).
                let allowed = (forward ? tv.routeCanAlight[stopsStart + pos] : tv.routeCanBoard[stopsStart + pos])
                    && (!filterStops || stopAllowed[stop])
                var run = current, boarded = boardPos
                // The run ridden skips this stop: the best other run that stops here.
                if allowed && skips >= 0 && tt.tripStopSkipped[skips + run * length + pos] {
                    (run, boarded) = otherRun(at: pos, after: run, r, from: from, round: k, base: base, skips: skips)
                }
                if allowed && run != Search.notBoarded {
                    let t = run == current ? runBase &+ Int64(profiles[runRow &+ pos])
                        : base &+ Int64(tv.runTime(tripBase + run, (forward ? arrivalShift : 0) + pos))
                    let v = forward ? t : -t
                    let i = at(k, stop)
                    let limit = isTarget[stop] ? bestTarget : changeBound
                    if v < limit && v < arrivedAtMost[i] && (!bounded(limit) || v + toTarget.at(stop) < limit)
                        && !outside(stop, v) {
                        touch(stop)
                        arrived[i] = v
                        Search.lower(arrivedAtMost, i, v, end: at(rounds, stop))
                        ride[i] = Ride(route: RouteIndex(r), trip: Int32(truncatingIfNeeded: run), day: Int32(truncatingIfNeeded: day),
                                       board: RoutePosition(boarded), alight: RoutePosition(pos))
                        if !improved[stop] { improved[stop] = true; improvedList.append(stop) }
                    }
                }
            }
            if beyond || !marked[stop] { pos = forward ? pos + 1 : pos - 1; continue }
            let canBoard = (forward ? tv.routeCanBoard[stopsStart + pos] : tv.routeCanAlight[stopsStart + pos])
                && (!filterStops || stopAllowed[stop])
            let r0 = ready[at(k - 1, stop)]
            if canBoard && r0 < Search.infinity {
                if forward {
                    // The earliest run of this day departing at or after r0.
                    // When the run before the one ridden leaves before r0, the one ridden stays:
                    // no search. (A depart-at query on bydgoszcz-2020 made 5,000 of these binary
                    // searches; with this check first, p50 0.28 -> 0.26 ms, answer 0.54 -> 0.52,
                    // `Scripts/bench-ab.sh`, 3 rounds. Backward below: the run after.)
                    if current == Search.notBoarded || r0 <= base + Int64(tv.runTime(tripBase + current, pos))
                        && (current == 0 || r0 <= base + Int64(tv.runTime(tripBase + current - 1, pos))) {
                        let target = r0 - base
                        var lo = 0, hi = current == Search.notBoarded ? nt : current
                        while lo < hi { let mid = (lo + hi) / 2; if Int64(tv.runTime(tripBase + mid, pos)) < target { lo = mid + 1 } else { hi = mid } }
                        // Trips keep their order at every stop: the first allowed one from here
                        // that stops here.
                        let limit = current == Search.notBoarded ? nt : current
                        if filterTrips || skips >= 0 {
                            while lo < limit && (filterTrips && !tripAllowed[tripBase + lo] || skips >= 0 && tt.tripStopSkipped[skips + lo * length + pos]) { lo += 1 }
                        }
                        // Every trip of a route runs on the same days (one service per route).
                        if lo < limit {
                            if firstBoard < 0 { firstBoard = pos }
                            current = lo; boardPos = pos
                            let x = tv.runTimes[tripBase + lo]
                            runBase = base &+ Int64(x.start); runRow = Int(x.row) &+ arrivalShift
                            covered = skips < 0 && base + Int64(tv.runTime(tripBase + lo, pos)) >= before[stop]
                        }
                    }
                } else {
                    // The latest run of this day arriving at or before -r0.
                    if current == Search.notBoarded || r0 <= -(base + Int64(tv.runTime(tripBase + current, arrivalShift + pos)))
                        && (current + 1 >= nt || r0 <= -(base + Int64(tv.runTime(tripBase + current + 1, arrivalShift + pos)))) {
                        let target = -r0 - base
                        let floor = current == Search.notBoarded ? 0 : current + 1
                        var lo = floor, hi = nt
                        while lo < hi { let mid = (lo + hi) / 2; if Int64(tv.runTime(tripBase + mid, arrivalShift + pos)) <= target { lo = mid + 1 } else { hi = mid } }
                        var pick = lo - 1
                        if filterTrips || skips >= 0 {
                            while pick >= floor && (filterTrips && !tripAllowed[tripBase + pick] || skips >= 0 && tt.tripStopSkipped[skips + pick * length + pos]) { pick -= 1 }
                        }
                        if pick >= floor {
                            if firstBoard < 0 { firstBoard = pos }
                            current = pick; boardPos = pos
                            let x = tv.runTimes[tripBase + pick]
                            runBase = base &+ Int64(x.start); runRow = Int(x.row)
                        }
                    }
                }
            }
            pos = forward ? pos + 1 : pos - 1
        }
        return firstBoard
    }

    /// For `scanRoute`, when the run it rides (`after`, within route `r`) skips position
    /// `pos`: the run that gets there best among those that stop there (forward: the first
    /// later one; backward: the last earlier one) and could have been boarded at a position
    /// scanned before (`from` on), with the first such position in scan order (where
    /// `scanRoute` would have boarded it); `notBoarded` when none. Runs that skip stops are
    /// few (a realtime update's), so this looks at labels directly rather than keeping
    /// state in the scan for them.
    private func otherRun(at pos: Int, after: Int, _ r: Int, from: Int, round k: Int, base: Int64, skips: Int) -> (Int, Int) {
        let stopsStart = Int(tt.routeStopOffsets[r]), tripBase = Int(tt.routeTripOffsets[r])
        let nt = Int(tt.routeTripOffsets[r + 1]) - tripBase, arrivalShift = Int(tt.routeArrivalShift[r])
        let length = Int(tt.routeStopOffsets[r + 1]) - stopsStart
        var j = forward ? after + 1 : after - 1
        while forward ? j < nt : j >= 0 {
            defer { j += forward ? 1 : -1 }
            if tt.tripStopSkipped[skips + j * length + pos] || filterTrips && !tripAllowed[tripBase + j] { continue }
            var p = from
            while forward ? p < pos : p > pos {
                defer { p += forward ? 1 : -1 }
                let stop = tt.routeStops[stopsStart + p].index
                guard (forward ? tt.routeCanBoard[stopsStart + p] : tt.routeCanAlight[stopsStart + p]) && (!filterStops || stopAllowed[stop]),
                      !tt.tripStopSkipped[skips + j * length + p] else { continue }
                let r0 = ready[at(k - 1, stop)]
                guard r0 < Search.infinity else { continue }
                if forward ? r0 <= base + Int64(tt.runTime(tripBase + j, p)) : r0 <= -(base + Int64(tt.runTime(tripBase + j, arrivalShift + p))) {
                    return (j, p)
                }
            }
        }
        return (Search.notBoarded, Search.notBoarded)
    }

    /// Rebuilds the journey that reached target walk `target` in round `rides`.
    private func journey(rides: Int, target: Int) -> RaptorJourney {
        // Walk back through the labels, collecting steps in search order.
        var legs: [RaptorLeg] = []
        let last = targets[target]
        var stop = last.stop
        var k = rides
        var rideLegs: [Ride] = []
        var changes: [(from: StopIndex, to: StopIndex, foot: Int32)] = []
        var firstWalk = StopWalk(stop: .noStop, seconds: 0, meters: 0)
        while true {
            let i = at(k, stop.index)
            let x = ride[i]
            rideLegs.append(x)
            let boardStop = tt.stop(onRoute: x.route, at: x.board)
            let j = at(k - 1, boardStop.index)
            if k - 1 == 0 {
                firstWalk = sources[Int(change[j].foot)]
                break
            }
            changes.append((change[j].from, boardStop, change[j].foot))
            stop = change[j].from
            k -= 1
        }
        // In real time order: forward searches found them backwards.
        if forward { rideLegs.reverse(); changes.reverse() }
        func realRide(_ x: Ride) -> RaptorLeg {
            let r = x.route.index, trip = Int(x.trip), day = Int(x.day)
            let base = tt.dayBase[Int(tt.routeTimeZone[r]) * tt.dayCount + day]
            let (b, a) = forward ? (x.board, x.alight) : (x.alight, x.board)
            return .ride(route: x.route, trip: tt.trip(trip, ofRoute: x.route), day: day, from: b, to: a,
                         departure: base + Int64(tt.departure(route: r, position: b.index, run: trip)),
                         arrival: base + Int64(tt.arrival(route: r, position: a.index, run: trip)))
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
                let change = c.foot == Search.sameStop ? sameStopChange(from.index)! : Int64(footpaths.change[Int(c.foot)])
                let meters = c.foot == Search.sameStop ? 0 : footpaths.walkMeters(Int(c.foot), tt, p)
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
    /// between consecutive stops (any trip, running on the request's days, leaving within
    /// the hours of `boarding`) and the footpaths' change times (a footpath is walked only
    /// between two rides, so its slack is always paid); waits and same-stop changes are
    /// left out, so the bound never exceeds the time of a real journey that boards only
    /// within `boarding`, from a stop reached by a ride (a change or the egress walk next)
    /// as from one ready to board. A search from `boarding`'s start boards nothing before
    /// it, and a journey arriving before its end boards nothing after: the search prunes
    /// with these bounds only while the destination's best is before the end
    /// (`Search.boundsEnd`). (A bound from all of the day's runs was undone by realtime
    /// updates: a run that catches up its delay between two stops made that hop's ride
    /// minutes shorter; on bydgoszcz-2020 with a message of 10,000 updates the mean bound
    /// fell 9% and range searches took 1.26x as long as without the message; 1.19x with
    /// these, which also took the static range p50 from 0.66 to 0.56 ms.)
    func lowerBounds(_ request: RaptorRequest, _ t: Tables, boarding: Range<Int64>) -> TargetBounds {
        TargetBounds(request.egress, t.running, t.footpaths, stopCount: timetable.stopCount, boarding: boarding)
    }

    /// How long after a range's window `lowerBounds` counts runs (a destination's best later
    /// than that: no pruning with them).
    static let boundsHorizon: Int64 = 3 * 3600
}

/// Stop -> a lower bound of the seconds to the destination (`RaptorRouter.lowerBounds`),
/// found by a Dijkstra search that goes only as far as the search pruning with it needs
/// (`settle`): a label at value v is pruned when v + bound >= the destination's best, so
/// only bounds below (best - the search's start) can keep one. A stop not yet settled is
/// at least `frontier` away (the smallest value still queued), which is then its bound:
/// a label pruned with the whole table is pruned with this one, and no other, so the
/// search keeps exactly the same labels. (Measured against the whole table made first:
/// range searches on bydgoszcz-2020, porto-alegre-eptc-2019 and mexico-city-2018 the
/// same within 2%, as most stops of a city lie within a journey's time of its other end
/// by these optimistic rides; a search in a large region no longer pays for the stops
/// far beyond its destination.)
struct TargetBounds {
    /// Stop -> the Dijkstra's distance so far (final once settled, at or below `frontier`).
    private var distance: [Int64]
    private var heap = MinHeap()
    /// Every stop not settled is at least this far (`Search.infinity` once all are settled).
    private(set) var frontier: Int64
    private let running: DayRoutes?
    private let footpaths: FootpathCosts?
    /// Hop -> its shortest ride in the hours of the boarding times (`DayRoutes.hopSeconds`).
    private let hopSeconds: [UInt16]

    /// No bounds (a search that does not prune with them).
    static let none = TargetBounds()
    private init() {
        distance = []; frontier = Search.infinity; running = nil; footpaths = nil; hopSeconds = []
    }

    init(_ egress: [StopWalk], _ running: DayRoutes, _ footpaths: FootpathCosts, stopCount: Int, boarding: Range<Int64>) {
        self.running = running; self.footpaths = footpaths
        distance = [Int64](repeating: Search.infinity, count: stopCount)
        for w in egress where w.seconds < distance[w.stop.index] {
            distance[w.stop.index] = w.seconds
            heap.push(w.seconds, w.stop)
        }
        // The hours of `boarding` (after `running.origin`).
        let firstHour = Int32(clamping: (boarding.lowerBound - running.origin) / 3600)
        let lastHour = Int32(clamping: (boarding.upperBound - 1 - running.origin) / 3600)
        hopSeconds = firstHour <= lastHour ? running.hopSeconds(hours: firstHour...lastHour)
            : [UInt16](repeating: DayRoutes.noRide, count: running.predecessor.count)
        frontier = heap.min ?? Search.infinity
    }

    /// The bound of stop `s`.
    @inline(__always) func at(_ s: Int) -> Int64 { Swift.min(distance[s], frontier) }

    /// Settles every stop closer than `limit`.
    mutating func settle(below limit: Int64) {
        guard frontier < limit, let running, let footpaths else { return }
        // Through a pointer: a write to a Swift array checks it is not shared, every time.
        hopSeconds.withUnsafeBufferPointer { hopSeconds in distance.withUnsafeMutableBufferPointer { distance in
            while let next = heap.min, next < limit {
                let (d, stop) = heap.pop()!
                let x = stop.index
                guard d == distance[x] else { continue }
                for i in Int(running.predecessorOffsets[x])..<Int(running.predecessorOffsets[x + 1]) {
                    // The shortest ride of the hop's runs that leave in those hours; none: it
                    // does not take a journey there.
                    let seconds = hopSeconds[i]
                    guard seconds != DayRoutes.noRide else { continue }
                    let y = running.predecessor[i], v = d + Int64(seconds)
                    if v < distance[y.index] { distance[y.index] = v; heap.push(v, y) }
                }
                for i in Int(footpaths.inOffsets[x])..<Int(footpaths.inOffsets[x + 1]) {
                    let y = footpaths.inSource[i], v = d + Int64(footpaths.inChange[i])
                    if v < distance[y.index] { distance[y.index] = v; heap.push(v, y) }
                }
            }
        } }
        frontier = heap.min ?? Search.infinity
    }

    /// Every stop's bound, all settled (for tests).
    func all() -> [Int64] {
        var b = self
        b.settle(below: Search.infinity)
        return (0..<distance.count).map { b.at($0) }
    }
}

/// A min-heap of (value, stop), for `lowerBounds`: each entry packed into one UInt64 (value
/// in the high 32 bits), so that a comparison is one integer compare and a move one word.
/// Four children a node rather than two: half the levels to sift through, and a node's
/// children side by side in memory. The binary heap's sift-down (a hard-to-predict branch
/// a level) was a third of `TargetBounds.settle`, itself 10% of a full answer's time on
/// bydgoszcz-2020 (1,200 pushes and pops an answer, over its 1,060 stops); with four
/// children, `settle` 6.6% and answers +4% queries/s (1,444 -> 1,502, p50 0.545 -> 0.520
/// ms; 4 alternating rounds, best of 3 passes). A radix heap (buckets by the highest bit
/// differing from the last value taken) was slower than either: 1,428 -> 1,386, its
/// buckets' Swift arrays checked for uniqueness at every append.
struct MinHeap {
    private var items: [UInt64] = []

    /// The smallest value queued.
    var min: Int64? { items.first.map { Int64($0 >> 32) } }

    mutating func push(_ value: Int64, _ stop: StopIndex) {
        precondition(value >= 0 && value < 1 << 32 && stop.raw >= 0)
        let x = UInt64(value) << 32 | UInt64(UInt32(stop.raw))
        var i = items.count
        items.append(x)
        items.withUnsafeMutableBufferPointer { h in
            while i > 0 {
                let parent = (i - 1) / 4
                if h[parent] <= x { break }
                h[i] = h[parent]; i = parent
            }
            h[i] = x
        }
    }

    mutating func pop() -> (Int64, StopIndex)? {
        guard let top = items.first else { return nil }
        let last = items.removeLast()
        items.withUnsafeMutableBufferPointer { h in
            let count = h.count
            guard count > 0 else { return }
            // Sift the last item down from the root: four children a node, side by side.
            var i = 0
            while true {
                let c = 4 &* i &+ 1
                if c >= count { break }
                var m = c, v = h[c]
                if c &+ 3 < count {
                    let v1 = h[c &+ 1], v2 = h[c &+ 2], v3 = h[c &+ 3]
                    let (m01, a01) = v1 < v ? (c &+ 1, v1) : (c, v)
                    let (m23, a23) = v3 < v2 ? (c &+ 3, v3) : (c &+ 2, v2)
                    (m, v) = a23 < a01 ? (m23, a23) : (m01, a01)
                } else {
                    var j = c &+ 1
                    while j < count { if h[j] < v { m = j; v = h[j] }; j &+= 1 }
                }
                if v >= last { break }
                h[i] = v; i = m
            }
            h[i] = last
        }
        return (Int64(top >> 32), StopIndex(raw: Int32(truncatingIfNeeded: top & 0xFFFF_FFFF)))
    }
}
