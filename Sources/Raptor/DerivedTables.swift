import Synchronization
import Timetable
import TransitModel

/// The routes that run on a set of days, by stop: `stopRouteRoute`/`stopRoutePosition`
/// narrowed to them, one entry per run of consecutive days a route runs (its service runs
/// then and no realtime overlay took that day off it: the router's searches then never
/// see a replaced route-day, at no cost in their loops).
///
/// A feed's routes are split by service as well as by pattern (Bydgoszcz: 57 lines, 1,959
/// routes), and most of them run on none of a query's three days; a search that walked
/// every stop's full list spent a third of its time skipping them.
public final class DayRoutes: Sendable {
    /// Stop s -> its entries, entries[stopOffsets[s] ..< stopOffsets[s + 1]].
    public let stopOffsets: [Int32]
    /// One route at one stop, on a run of consecutive days. One struct, not an array per
    /// field: a search's queueing loop reads an entry's fields together, and reads one
    /// cache line for two entries rather than one for each field, with one bounds check
    /// (bydgoszcz-2020, 1,000 queries, 6 alternating rounds, best of 3 passes: full answer
    /// p50 0.645 -> 0.635 ms, range 0.575 -> 0.565 ms, depart-at 0.270 -> 0.265 ms).
    public struct Entry: Sendable, Equatable, BitwiseCopyable {
        public var route: RouteIndex
        public var position: RoutePosition
        /// The route's first and last departure and arrival at `position` on these days,
        /// seconds after `origin` (see `entries`).
        public var firstDeparture: Int32, lastDeparture: Int32, firstArrival: Int32, lastArrival: Int32
        /// The days (bit i: the i-th) it stands for: a run of consecutive days its route
        /// runs (a realtime overlay that takes the middle day off a route leaves two).
        public var days: UInt8
    }
    /// A stop's entries are by last departure, latest first. A marked
    /// stop queues a route only where a run can still be boarded (forward: the last
    /// departure is not before the stop's label, and the first entry whose runs have all
    /// left ends the list) and can beat the destination's best (the first departure is
    /// before it). Routes that ran only yesterday, and a route whose query day a realtime
    /// overlay took off (its yesterday and tomorrow are two entries), are mostly out of
    /// reach. Measured on bydgoszcz-2020 (`transit bench`, 1,000 queries, same run) with
    /// the per-run skipped stops and the hourly hop bounds of the same change: p50
    /// depart-at 0.33 -> 0.34 ms, arrive-by 0.32 -> 0.32, range 0.59 -> 0.52, answer 0.68
    /// -> 0.60; with a realtime message of 10,000 updates, on against off, depart-at 1.45x
    /// -> 1.15x, answer 1.44x -> 1.17x. (One entry per day cost static searches 5-10% on
    /// porto-alegre and mexico-city: three times the entries to walk.)
    public let entries: [Entry]
    public let origin: Int64
    /// Stop -> stops one stop before it on these routes, each once (the hops, their rides
    /// below): predecessor[predecessorOffsets[s] ..< predecessorOffsets[s + 1]]. Made here,
    /// per set of days, rather than kept with the timetable: memory per stop time is a
    /// target.
    public let predecessorOffsets: [Int32]
    public let predecessor: [StopIndex]
    /// Hop h (`predecessor[h]` to its stop), hour by hour: the shortest ride of the runs
    /// that leave its first stop in hour b after `origin` ([origin + 3,600 b, + 3,600)), for
    /// b in hopFirstHour[h] ..< hopFirstHour[h] + (hopHourOffsets[h + 1] - hopHourOffsets[h]):
    /// hopHourSeconds[hopHourOffsets[h] + b - hopFirstHour[h]], `noRide` when none leaves
    /// then. Bounds for a search that only boards within some hours (`RaptorRouter.lowerBounds`):
    /// the day's shortest ride of a hop is often a run that a realtime update makes catch
    /// up its delay between two stops, hours away from the query.
    public let hopFirstHour: [Int32], hopHourOffsets: [Int32], hopHourSeconds: [UInt16]
    public static let noRide = UInt16.max

    /// `feeds`: feed -> whether its routes are in (nil: every feed's). A request's searches
    /// reach only the stops of the feeds its ends are in and of the feeds joined to those
    /// by footpaths (`FeedRegions`): with every shared feed loaded, a query in one city no
    /// longer makes the table for all of them.
    init(timetable tt: Timetable, days: [Int], feeds: [Bool]? = nil) {
        precondition(days.count <= 8, "at most 8 days")
        var mask = [UInt8](repeating: 0, count: tt.routeCount)
        for r in 0..<tt.routeCount {
            if let feeds, tt.routeStopOffsets[r] < tt.routeStopOffsets[r + 1],
               !feeds[tt.stopFeed[tt.routeStops[Int(tt.routeStopOffsets[r])].index].index] { continue }
            // A realtime overlay's route-days replaced by routes of their own do not run.
            for (i, day) in days.enumerated() where tt.serviceRuns(tt.routeService[r], day: day) && !tt.routeRemoved(r, day: day) {
                mask[r] |= 1 << UInt8(i)
            }
        }
        // Two days before the earliest day's base in any zone: every time of these days
        // fits in 32 bits after it.
        let origin = (tt.dayBase.isEmpty || days.isEmpty) ? 0
            : (0..<tt.timeZoneNames.count).map { tt.dayBase[$0 * tt.dayCount + days.min()!] }.min()! - 2 * 86_400
        var offsets = [Int32](repeating: 0, count: tt.stopCount + 1)
        var entries: [Entry] = []
        for s in 0..<tt.stopCount {
            for i in Int(tt.stopRouteOffsets[s])..<Int(tt.stopRouteOffsets[s + 1]) where mask[tt.stopRouteRoute[i].index] != 0 {
                let r = tt.stopRouteRoute[i].index, pos = tt.stopRoutePosition[i].index
                let nt = Int(tt.routeTripOffsets[r + 1] - tt.routeTripOffsets[r]), first = Int(tt.routeTripOffsets[r]), last = first + nt - 1
                let shift = Int(tt.routeArrivalShift[r])
                guard nt > 0 else { continue }
                // One entry per run of consecutive days the route runs.
                var k = 0
                while k < days.count {
                    guard mask[r] & (1 << UInt8(k)) != 0 else { k += 1; continue }
                    var group: UInt8 = 0
                    var a = Int64.max, b = Int64.min, c = Int64.max, d = Int64.min
                    while k < days.count && mask[r] & (1 << UInt8(k)) != 0 {
                        group |= 1 << UInt8(k)
                        // Runs keep their order at every stop: the first and last are the extremes.
                        let base = tt.dayBase[Int(tt.routeTimeZone[r]) * tt.dayCount + days[k]] - origin
                        a = min(a, base + Int64(tt.runTime(first, pos))); b = max(b, base + Int64(tt.runTime(last, pos)))
                        c = min(c, base + Int64(tt.runTime(first, shift + pos))); d = max(d, base + Int64(tt.runTime(last, shift + pos)))
                        k += 1
                    }
                    entries.append(Entry(route: tt.stopRouteRoute[i], position: tt.stopRoutePosition[i],
                                         firstDeparture: Int32(clamping: a), lastDeparture: Int32(clamping: b),
                                         firstArrival: Int32(clamping: c), lastArrival: Int32(clamping: d), days: group))
                }
            }
            // Latest last departure first: a forward search stops at the first entry whose
            // runs have all left (yesterday's, mostly) rather than checking each.
            // (The stop's slice only, in order of making among equals.)
            let slice = Int(offsets[s])..<entries.count
            if slice.count > 1 {
                let order = slice.sorted { (-entries[$0].lastDeparture, $0) < (-entries[$1].lastDeparture, $1) }
                entries.replaceSubrange(slice, with: order.map { entries[$0] })
            }
            offsets[s + 1] = Int32(entries.count)
        }
        self.stopOffsets = offsets; self.entries = entries
        self.origin = origin
        // Stop -> the stops just before it on these routes, each once (routes split by
        // service repeat the same pairs many times).
        var predecessorOffsets = [Int32](repeating: 0, count: tt.stopCount + 1)
        var predecessor: [StopIndex] = []
        // Stop -> its entry in `predecessor` for the stop being filled, or `noSlot`.
        let noSlot = Int32(-1_000_000_000)
        var slot = [Int32](repeating: noSlot, count: tt.stopCount)
        for s in 0..<tt.stopCount {
            let start = predecessor.count
            for i in Int(offsets[s])..<Int(offsets[s + 1]) where entries[i].position.raw > 0 {
                let r = entries[i].route.index
                let y = tt.routeStops[Int(tt.routeStopOffsets[r]) + entries[i].position.index - 1].index
                if slot[y] == noSlot { slot[y] = Int32(predecessor.count); predecessor.append(StopIndex(y)) }
            }
            for y in predecessor[start...] { slot[y.index] = noSlot }
            predecessorOffsets[s + 1] = Int32(predecessor.count)
        }
        self.predecessorOffsets = predecessorOffsets; self.predecessor = predecessor
        // The hops' rides, entry by entry, by hour: first the hours each hop spans, then the
        // shortest ride in each. A route whose runs all keep one pace (one row of times,
        // `Timetable.runTimes`) rides each hop in the same time on every run, and its runs
        // leave every position in the order they start: its first and last runs bound the
        // hours, and only the hours its runs leave in are looked for (a binary search per
        // hour), not each run. Measured with all shared feeds loaded (`transit bench
        // --queries 300`, whose queries ask for twelve sets of days, so that most make this
        // table again): p95 of every kind 32-34 -> 18 ms, depart-at 150 -> 243 queries/s.
        let hops = predecessor.count
        // Route -> whether its runs all share one row.
        var onePace = [Bool](repeating: false, count: tt.routeCount)
        for r in 0..<tt.routeCount where mask[r] != 0 {
            let a = Int(tt.routeTripOffsets[r]), b = Int(tt.routeTripOffsets[r + 1])
            onePace[r] = a < b && !tt.runTimes[a..<b].contains { $0.row != tt.runTimes[a].row }
        }
        // Each entry's hop and day: (hop, route, position, the day's base after `origin`).
        func eachHopDay(_ body: (_ hop: Int, _ r: Int, _ pos: Int, _ base: Int64) -> Void) {
            for s in 0..<tt.stopCount {
                let hopStart = Int(predecessorOffsets[s])
                for h in hopStart..<Int(predecessorOffsets[s + 1]) { slot[predecessor[h].index] = Int32(h) }
                for i in Int(offsets[s])..<Int(offsets[s + 1]) where entries[i].position.raw > 0 {
                    let r = entries[i].route.index, pos = entries[i].position.index
                    let h = Int(slot[tt.routeStops[Int(tt.routeStopOffsets[r]) + pos - 1].index])
                    for (k, day) in days.enumerated() where entries[i].days & (1 << UInt8(k)) != 0 {
                        body(h, r, pos, tt.dayBase[Int(tt.routeTimeZone[r]) * tt.dayCount + day] - origin)
                    }
                }
                for h in hopStart..<Int(predecessorOffsets[s + 1]) { slot[predecessor[h].index] = noSlot }
            }
        }
        var firstHour = [Int32](repeating: .max, count: hops), lastHour = [Int32](repeating: .min, count: hops)
        eachHopDay { h, r, pos, base in
            // One pace: the runs leave in the order they start, the first and last are the
            // extremes (other routes: each run, as a realtime overlay's changed runs keep
            // no pace).
            let first = Int(tt.routeTripOffsets[r]), last = Int(tt.routeTripOffsets[r + 1]) - 1
            for j in stride(from: first, through: last, by: onePace[r] ? max(1, last - first) : 1) {
                let hour = Int32(clamping: (base + Int64(tt.runTime(j, pos - 1))) / 3600)
                firstHour[h] = min(firstHour[h], hour); lastHour[h] = max(lastHour[h], hour)
            }
        }
        var hourOffsets = [Int32](repeating: 0, count: hops + 1)
        for h in 0..<hops {
            if firstHour[h] > lastHour[h] { firstHour[h] = 0; lastHour[h] = -1 }
            hourOffsets[h + 1] = hourOffsets[h] + lastHour[h] - firstHour[h] + 1
        }
        var hourSeconds = [UInt16](repeating: Self.noRide, count: Int(hourOffsets[hops]))
        eachHopDay { h, r, pos, base in
            let first = Int(tt.routeTripOffsets[r]), nt = Int(tt.routeTripOffsets[r + 1]) - first
            let shift = Int(tt.routeArrivalShift[r])
            func shortest(_ hour: Int64, _ seconds: Int32) {
                let k = Int(hourOffsets[h] + Int32(clamping: hour) - firstHour[h])
                hourSeconds[k] = min(hourSeconds[k], UInt16(clamping: max(0, min(seconds, Int32(Self.noRide) - 1))))
            }
            if onePace[r] {
                let seconds = tt.runTime(first, shift + pos) - tt.runTime(first, pos - 1)
                var j = 0
                while j < nt {
                    let hour = (base + Int64(tt.runTime(first + j, pos - 1))) / 3600
                    shortest(hour, seconds)
                    // The first run that leaves in a later hour.
                    let next = (hour + 1) * 3600 - base
                    var lo = j + 1, hi = nt
                    while lo < hi { let mid = (lo + hi) / 2; if Int64(tt.runTime(first + mid, pos - 1)) < next { lo = mid + 1 } else { hi = mid } }
                    j = lo
                }
            } else {
                for j in 0..<nt {
                    let leave = tt.runTime(first + j, pos - 1)
                    shortest((base + Int64(leave)) / 3600, tt.runTime(first + j, shift + pos) - leave)
                }
            }
        }
        hopFirstHour = firstHour; hopHourOffsets = hourOffsets; hopHourSeconds = hourSeconds
    }

    /// Hop -> the shortest ride of its runs that leave in hours `hours` (after `origin`),
    /// `noRide` when none does: `hopHourSeconds` narrowed to the hours a range search boards
    /// in (`TargetBounds`), kept for the last `keptWindows` sets of hours asked for. Its
    /// Dijkstra search then reads one value a hop from a compact array, not a hop's hours
    /// from the whole table, which missed the cache: that read was 43% of the search's time
    /// (bydgoszcz-2020, 1,000 full answers; with this, range p50 0.565 -> 0.540 ms, 6
    /// alternating rounds, best of 3 passes).
    public func hopSeconds(hours: ClosedRange<Int32>) -> [UInt16] {
        windows.get(hours) {
            var seconds = [UInt16](repeating: Self.noRide, count: predecessor.count)
            for h in 0..<predecessor.count {
                let first = hopFirstHour[h], offset = Int(hopHourOffsets[h]), count = Int32(Int(hopHourOffsets[h + 1]) - offset)
                var b = Swift.max(hours.lowerBound, first)
                while b <= hours.upperBound && b < first + count { seconds[h] = Swift.min(seconds[h], hopHourSeconds[offset + Int(b - first)]); b += 1 }
            }
            return seconds
        }
    }

    /// The sets of hours `hopSeconds` keeps: a day's worth of range searches (a window and
    /// the hours after it) at any hour.
    public static let keptWindows = 24
    private let windows = RecentlyUsed<ClosedRange<Int32>, [UInt16]>(capacity: keptWindows)
}

/// The routes running on `days` in the feeds of `regions` (`FeedRegions`; ascending).
struct DayRoutesKey: Hashable, Sendable { let days: [Int]; let regions: [Int32] }

/// Feeds joined by footpaths, transitively: a journey never leaves the region of its
/// origin's feeds (a ride stays in its feed, a footpath in its region), so the routes
/// running on a request's days are made only for the regions of its ends (`DayRoutes`).
/// With every shared feed loaded: eleven regions of twelve feeds (Porto Alegre's two
/// feeds are one).
struct FeedRegions: Sendable {
    /// Feed -> its region.
    let region: [Int32]

    init(_ tt: Timetable) {
        let feeds = Int(tt.stopFeed.map(\.raw).max() ?? -1) + 1
        var parent = Array(0..<feeds)
        func root(_ x: Int) -> Int { var x = x; while parent[x] != x { parent[x] = parent[parent[x]]; x = parent[x] }; return x }
        for s in 0..<tt.stopCount {
            let a = tt.stopFeed[s].index
            for f in Int(tt.footOffsets[s])..<Int(tt.footOffsets[s + 1]) {
                let b = tt.stopFeed[tt.footTarget[f].index].index
                if a != b { let (x, y) = (root(a), root(b)); if x != y { parent[max(x, y)] = min(x, y) } }
            }
        }
        region = (0..<feeds).map { Int32(root($0)) }
    }

    /// The regions of a request's ends, ascending.
    func regions(_ request: RaptorRequest, _ tt: Timetable) -> [Int32] {
        var out: [Int32] = []
        for w in request.access + request.egress {
            let g = region[tt.stopFeed[w.stop.index].index]
            if !out.contains(g) { out.append(g) }
        }
        return out.sorted()
    }

    /// Feed -> whether it is in one of `regions`.
    func feeds(in regions: [Int32]) -> [Bool] { region.map { regions.contains($0) } }
}

/// The last few tables made from one timetable for keys that many requests share (the
/// routes running on a set of days, the footpaths' change times under a set of walking
/// parameters): queries of one day with the default parameters, the common case of a live
/// service, make them once. Kept by the router (`RaptorRouter.derived`), beside the
/// timetable, not in it: the timetable stays immutable data. Keys and values are the
/// callers' own types; nothing of a request but such keys is kept, and a search's own
/// scratch memory belongs to the search (`Search`), never here.
public final class DerivedTables: Sendable {
    /// (The key is made only from `Hashable & Sendable` keys; AnyHashable itself is not
    /// marked Sendable.)
    private struct Key: @unchecked Sendable, Equatable { let key: AnyHashable }
    private let entries: RecentlyUsed<Key, any Sendable>
    /// Entries kept, of all kinds together (the least recently used goes first).
    public var capacity: Int { entries.capacity }

    public init(capacity: Int = 8) { entries = RecentlyUsed(capacity: capacity) }

    /// Takes `other`'s entries, most recently used first, each as `remake` makes it for this
    /// table's timetable (nil: left out): a new router starts with the tables that requests
    /// use now rather than making them on its first requests.
    func adopt(from other: DerivedTables, _ remake: (AnyHashable, any Sendable) -> (any Sendable)?) {
        let made = other.entries.all().compactMap { e in remake(e.key.key, e.value).map { (e.key, $0) } }
        entries.append(made)
    }

    /// The value for `key`, made by `make` when it is not kept (outside the lock: two
    /// callers may both make it; one is kept).
    public func get<K: Hashable & Sendable, Value: Sendable>(_ key: K, make: () -> Value) -> Value {
        // (Keys of different types are never equal, so the value kept is a `Value`.)
        entries.get(Key(key: AnyHashable(key)), make: make) as? Value ?? make()
    }
}

/// A few values kept by key behind a lock, the most recently used first; the least
/// recently used goes when there are more than `capacity` (`DerivedTables`, and
/// `DayRoutes.hopSeconds`' sets of hours). A short list, searched from the front: the few
/// keys a live service's requests share.
final class RecentlyUsed<Key: Equatable & Sendable, Value: Sendable>: Sendable {
    private let list = Mutex<[(key: Key, value: Value)]>([])
    let capacity: Int

    init(capacity: Int) { self.capacity = capacity }

    /// The value for `key`, made by `make` when it is not kept (outside the lock: two
    /// callers may both make it; the first kept stays).
    func get(_ key: Key, make: () -> Value) -> Value {
        let hit: Value? = list.withLock { list in
            guard let i = list.firstIndex(where: { $0.key == key }) else { return nil }
            if i > 0 { list.insert(list.remove(at: i), at: 0) }
            return list[0].value
        }
        if let hit { return hit }
        let made = make()
        list.withLock { list in
            if !list.contains(where: { $0.key == key }) {
                list.insert((key, made), at: 0)
                if list.count > capacity { list.removeLast() }
            }
        }
        return made
    }

    /// Every kept entry, the most recently used first.
    func all() -> [(key: Key, value: Value)] { list.withLock { $0 } }

    /// Keeps `entries` after those kept already (those with a key kept already left out),
    /// as far as the capacity goes.
    func append(_ entries: [(Key, Value)]) {
        list.withLock { list in
            for e in entries where !list.contains(where: { $0.key == e.0 }) { list.append((e.0, e.1)) }
            if list.count > capacity { list.removeLast(list.count - capacity) }
        }
    }
}
