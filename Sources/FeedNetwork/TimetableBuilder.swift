import Foundation
import Geo
import Streets
import Timetable
import TransitModel

/// Builds a `Timetable` from a `FeedSnapshot`, following `docs/routing-model.md`:
/// which stops are boarded, untimed stop times interpolated, frequencies expanded, service
/// days, time zones, footpaths and transfers.txt rules.
public enum TimetableBuilder {

    /// Trips of one stop pattern in departure order (then arrival, then trip index), split
    /// into chains in which no trip overtakes another: each trip goes to the first chain
    /// whose last trip it departs and arrives no earlier than at every stop. The router's
    /// binary search for the next departure needs this (FIFO at every stop); the static
    /// timetable and the realtime overlay split their routes with it.
    public static func fifoChains<Run>(_ runs: [Run], trip: (Run) -> Int32, departures: (Run) -> [Int32],
                                       arrivals: (Run) -> [Int32]) -> [[Run]] {
        let sorted = runs.sorted { a, b in
            let da = departures(a), db = departures(b)
            for i in 0..<da.count where da[i] != db[i] { return da[i] < db[i] }
            let aa = arrivals(a), ab = arrivals(b)
            for i in 0..<aa.count where aa[i] != ab[i] { return aa[i] < ab[i] }
            return trip(a) < trip(b)
        }
        var chains: [[Run]] = []
        for run in sorted {
            let dep = departures(run), arr = arrivals(run)
            if let c = chains.firstIndex(where: { chain in
                let last = chain[chain.count - 1], ld = departures(last), la = arrivals(last)
                return (0..<dep.count).allSatisfy { ld[$0] <= dep[$0] && la[$0] <= arr[$0] }
            }) { chains[c].append(run) } else { chains.append([run]) }
        }
        return chains
    }
    public struct Options: Sendable {
        /// Largest beeline distance (meters) between two stops for a footpath candidate.
        /// A request may then walk up to this × its walkDetourFactor between stops.
        public var footpathBeelineMeters: Double = 1000
        public init() {}
    }

    /// `streets`: the walkable streets (`StreetStore.load()`); with them, walks between
    /// stops that snap follow the streets (the routing model's "Streets"); without, every
    /// walk is a beeline and the timetable is as it always was.
    public static func build(_ snapshot: FeedSnapshot, options: Options = Options(), streets: StreetTables? = nil) throws -> TransitNetwork {
        try build(snapshot, options: options, graph: streets.map(WalkGraph.init))
    }

    /// The same with the walk graph already built (`NetworkSources.load` builds it while
    /// the feeds are read).
    public static func build(_ snapshot: FeedSnapshot, options: Options = Options(), graph: WalkGraph?) throws -> TransitNetwork {
        var warnings: [String] = []
        let s = snapshot
        let stopCount = s.stops.count

        // Stops: coordinates (inherited from the parent when missing), boardability.
        var lat = [Double](repeating: .nan, count: stopCount), lon = lat
        var boardable = [Bool](repeating: false, count: stopCount)
        var stopFeed = [Int32](repeating: 0, count: stopCount)
        for (i, stop) in s.stops.enumerated() {
            stopFeed[i] = stop.feed
            if let a = stop.latitude, let b = stop.longitude { lat[i] = a; lon[i] = b }
            else if stop.parent >= 0, let a = s.stops[Int(stop.parent)].latitude, let b = s.stops[Int(stop.parent)].longitude {
                lat[i] = a; lon[i] = b
            }
            boardable[i] = stop.locationType == 0 && !lat[i].isNaN
        }

        // Service days: one day before the first date any service runs to one after the last.
        var minDay = Int32.max, maxDay = Int32.min
        for service in s.services {
            for d in [service.start, service.end].compactMap({ $0 }) + service.added {
                minDay = min(minDay, d.daysSinceEpoch); maxDay = max(maxDay, d.daysSinceEpoch)
            }
        }
        if minDay > maxDay { minDay = 0; maxDay = 0 }
        let firstDay = ServiceDate(daysSinceEpoch: minDay - 1)
        let dayCount = Int(maxDay - minDay) + 3
        let words = (dayCount + 63) / 64
        var serviceDays = [UInt64](repeating: 0, count: s.services.count * words)
        for (si, service) in s.services.enumerated() {
            for day in 0..<dayCount where service.runs(on: firstDay.adding(days: day)) {
                serviceDays[si * words + day >> 6] |= 1 << UInt64(day & 63)
            }
        }

        // Time zones: each route runs in its agency's zone.
        var tzIndex: [String: Int32] = [:], tzNames: [String] = []
        var routeTZ = [Int32](repeating: 0, count: s.routes.count)
        for (ri, route) in s.routes.enumerated() {
            let name = s.agencies.isEmpty ? "UTC" : s.agencies[Int(route.agency)].timezone
            if tzIndex[name] == nil { tzIndex[name] = Int32(tzNames.count); tzNames.append(name) }
            routeTZ[ri] = tzIndex[name]!
        }
        if tzNames.isEmpty { tzNames = ["UTC"] }
        var dayBase = [Int64](repeating: 0, count: tzNames.count * dayCount)
        for (zi, name) in tzNames.enumerated() {
            guard let zone = TimeZone(identifier: name) else {
                throw TimetableError("unknown time zone \(name)")
            }
            for day in 0..<dayCount {
                dayBase[zi * dayCount + day] = noonMinus12h(firstDay.adding(days: day), zone)
            }
        }

        // Trips: times per boardable position, frequencies expanded.
        struct Run { var trip: Int32; var service: Int32; var arr: [Int32]; var dep: [Int32] }
        // One service per route: then every trip of a route runs on the same days, and the
        // router skips a route on a day it does not run with one bit test instead of
        // stepping over trips of other services.
        // Shapes are not part of a pattern: splitting routes by shape made wmata's routes
        // 37% more numerous and its queries 1.5x slower. Each trip keeps its shape; a
        // route keeps shape_dist_traveled only while all its trips share one shape.
        struct PatternKey: Hashable { var route: Int32; var service: Int32; var stops: [Int32]; var board: [Bool]; var alight: [Bool] }
        var patternIndex: [PatternKey: Int] = [:]
        // A pattern's shape when its trips follow different ones (negative like the
        // snapshot's "no shape", which is all `pattern.shape >= 0` asks).
        let mixedShapes = Int32(-1_000_000_001)
        var patterns: [(key: PatternKey, runs: [Run], shape: Int32, shapeDistance: [Double])] = []
        var frequenciesByTrip: [Int32: [FeedSnapshot.Frequency]] = [:]
        for f in s.frequencies { frequenciesByTrip[f.trip, default: []].append(f) }
        var leftOut = 0
        for t in 0..<s.trips.count {
            let range = s.stopTimes(ofTrip: t)
            guard range.count >= 2 else { continue }
            guard var (arr, dep) = interpolatedTimes(s, range) else { leftOut += 1; continue }
            // Frequency runs count from the template's first departure, even at a stop
            // the trip only passes through (and which is dropped below).
            let templateFirst = dep[0]
            var stops: [Int32] = [], board: [Bool] = [], alight: [Bool] = []
            var keptArr: [Int32] = [], keptDep: [Int32] = [], keptDistance: [Double] = []
            let shape = s.trips[t].shape
            for (k, st) in range.enumerated() {
                let stop = s.stopTimeStop[st]
                guard boardable[Int(stop)] else { continue }  // passed through
                stops.append(stop)
                board.append(s.stopTimePickup[st] != 1)
                alight.append(s.stopTimeDropOff[st] != 1)
                keptArr.append(arr[k]); keptDep.append(dep[k])
                if shape >= 0 { keptDistance.append(s.stopTimeShapeDistance.isEmpty ? .nan : s.stopTimeShapeDistance[st]) }
            }
            guard stops.count >= 2 else { continue }
            arr = keptArr; dep = keptDep
            let key = PatternKey(route: s.trips[t].route, service: s.trips[t].service, stops: stops, board: board, alight: alight)
            let p: Int
            if let existing = patternIndex[key] {
                p = existing
                if patterns[p].shape != shape { patterns[p].shape = mixedShapes }  // no shared distances
            } else {
                p = patterns.count; patternIndex[key] = p; patterns.append((key, [], shape, keptDistance))
            }
            let service = s.trips[t].service
            if let freqs = frequenciesByTrip[Int32(t)] {
                // Offsets from the template's first departure; one run per distinct start.
                let first = templateFirst
                var starts = Set<Int32>()
                for f in freqs {
                    var start = f.startTime
                    while start < f.endTime { starts.insert(start); start += f.headwaySeconds }
                }
                for start in starts.sorted() {
                    patterns[p].runs.append(Run(trip: Int32(t), service: service,
                                                arr: arr.map { $0 - first + start }, dep: dep.map { $0 - first + start }))
                }
            } else {
                patterns[p].runs.append(Run(trip: Int32(t), service: service, arr: arr, dep: dep))
            }
        }
        if leftOut > 0 { warnings.append("\(leftOut) trips left out: their first or last stop time has no time") }

        // Routes: each pattern split so that no trip overtakes another (FIFO at every stop).
        var routeStopOffsets: [Int32] = [0], routeStops: [Int32] = [], canBoard: [Bool] = [], canAlight: [Bool] = []
        var routeTripOffsets: [Int32] = [0], routeTimeOffsets: [Int32] = [0], departures: [Int32] = [], arrivals: [Int32] = []
        var routeTimeZone: [Int32] = [], routeSource: [SourceRouteIndex] = [], tripService: [ServiceIndex] = [], tripSource: [SourceTripIndex] = []
        var routeService: [ServiceIndex] = [], routeStopShapeDistance: [Float] = [], tripShape: [ShapeIndex] = []
        for pattern in patterns {
            for group in Self.fifoChains(pattern.runs, trip: \.trip, departures: \.dep, arrivals: \.arr) {
                routeStops += pattern.key.stops
                canBoard += pattern.key.board
                canAlight += pattern.key.alight
                routeStopOffsets.append(Int32(routeStops.count))
                let n = pattern.key.stops.count
                for i in 0..<n {
                    for run in group { departures.append(run.dep[i]); arrivals.append(run.arr[i]) }
                }
                routeTimeOffsets.append(Int32(departures.count))
                for run in group {
                    tripService.append(ServiceIndex(raw: run.service)); tripSource.append(SourceTripIndex(raw: run.trip))
                    let shape = s.trips[Int(run.trip)].shape
                    tripShape.append(shape >= 0 ? ShapeIndex(raw: shape) : .noShape)
                }
                routeTripOffsets.append(Int32(tripService.count))
                routeTimeZone.append(routeTZ[Int(pattern.key.route)])
                routeSource.append(SourceRouteIndex(raw: pattern.key.route))
                routeService.append(ServiceIndex(raw: pattern.key.service))
                routeStopShapeDistance += pattern.shape >= 0 ? pattern.shapeDistance.map { Float($0) }
                    : Array(repeating: .nan, count: pattern.key.stops.count)
            }
        }
        let routeCount = routeSource.count

        // Stop -> (route, position).
        var stopRouteCount = [Int32](repeating: 0, count: stopCount + 1)
        for stop in routeStops { stopRouteCount[Int(stop) + 1] += 1 }
        for i in 0..<stopCount { stopRouteCount[i + 1] += stopRouteCount[i] }
        var stopRouteRoute = [RouteIndex](repeating: RouteIndex(0), count: routeStops.count)
        var stopRoutePosition = [RoutePosition](repeating: RoutePosition(0), count: routeStops.count)
        var fill = stopRouteCount
        for r in 0..<routeCount {
            let start = Int(routeStopOffsets[r])
            for pos in 0..<(Int(routeStopOffsets[r + 1]) - start) {
                let stop = Int(routeStops[start + pos])
                stopRouteRoute[Int(fill[stop])] = RouteIndex(r)
                stopRoutePosition[Int(fill[stop])] = RoutePosition(pos)
                fill[stop] += 1
            }
        }

        // Stop grids and footpaths: one local projection per group of nearby feeds.
        let (grids, pairs) = try footpathCandidates(lat: lat, lon: lon, boardable: boardable, stopFeed: stopFeed,
                                                    feedCount: s.feedIds.count, radius: options.footpathBeelineMeters)
        let stationChildren = StationChildren(s.stops)
        var rules: [Int64: (rule: TransferRule, minTime: Int32, direct: Bool, line: Int32)] = [:]
        func key(_ a: Int32, _ b: Int32) -> Int64 { Int64(a) << 32 | Int64(b) }
        func expand(_ stop: Int32) -> (stops: [Int32], direct: Bool) {
            let st = s.stops[Int(stop)]
            switch st.locationType {
            case 0: return (boardable[Int(stop)] ? [stop] : [], true)
            case 1:
                return (stationChildren[StopIndex(raw: stop)].filter { boardable[$0.index] }.map(\.raw), false)
            default: return ([], true)
            }
        }
        var childrenCache: [Int32: (stops: [Int32], direct: Bool)] = [:]
        for row in s.transfers {
            let from = childrenCache[row.fromStop] ?? expand(row.fromStop); childrenCache[row.fromStop] = from
            let to = childrenCache[row.toStop] ?? expand(row.toStop); childrenCache[row.toStop] = to
            let direct = from.direct && to.direct
            let rule: TransferRule
            switch row.type {
            case 1: rule = .timed
            case 2: rule = .minimumTime
            case 3: rule = .forbidden
            default: rule = .recommended
            }
            for a in from.stops {
                for b in to.stops {
                    let k = key(a, b)
                    if let old = rules[k], old.direct && !direct { continue }  // a direct row wins
                    if let old = rules[k], old.direct == direct && old.line > row.line { continue }
                    rules[k] = (rule, row.minTransferTime ?? 0, direct, row.line)
                }
            }
        }
        var footOffsets = [Int32](repeating: 0, count: stopCount + 1)
        var footTarget: [Int32] = [], footBeeline: [Double] = [], footRule: [UInt8] = [], footMinTime: [Int32] = []
        var sameRule = [UInt8](repeating: TransferRule.none.rawValue, count: stopCount)
        var sameMin = [Int32](repeating: 0, count: stopCount)
        var extra: [Int32: [(Int32, Double)]] = [:]
        for (k, v) in rules {
            let a = Int32(truncatingIfNeeded: k >> 32), b = Int32(truncatingIfNeeded: k & 0xFFFF_FFFF)
            if a == b { sameRule[Int(a)] = v.rule.rawValue; sameMin[Int(a)] = v.minTime; continue }
            let d = Geodesic.distance(Coordinate(latitude: lat[Int(a)], longitude: lon[Int(a)]),
                                      Coordinate(latitude: lat[Int(b)], longitude: lon[Int(b)]))
            extra[a, default: []].append((b, d))
        }
        for a in 0..<stopCount {
            var targets = pairs[a]
            for (b, d) in extra[Int32(a)] ?? [] where !targets.contains(where: { $0.0 == b }) { targets.append((b, d)) }
            // Footpaths with a transfers.txt rule first, then by length: a search stops at
            // the first rule-less footpath longer than its maxTransferWalk (most of the
            // candidates, gathered for the largest maxTransferWalk allowed, are).
            func ruled(_ b: Int32) -> Bool { rules[key(Int32(a), b)] != nil }
            targets.sort { (ruled($1.0) ? 1 : 0, $0.1, $0.0) < (ruled($0.0) ? 1 : 0, $1.1, $1.0) }
            for (b, d) in targets {
                footTarget.append(b)
                footBeeline.append(d)
                let r = rules[key(Int32(a), b)]
                footRule.append(r?.rule.rawValue ?? TransferRule.none.rawValue)
                footMinTime.append(r?.minTime ?? 0)
            }
            footOffsets[a + 1] = Int32(footTarget.count)
        }

        // Street footpaths: per stop that snaps, one bounded search to the candidates that snap.
        var snaps: [StreetSnap?] = [], stepFreeSnaps: [StreetSnap?] = []
        var footStreet: [Double] = [], footStreetStepFree: [Double] = []
        if let graph {
            (snaps, stepFreeSnaps) = Self.snaps(graph, lat: lat, lon: lon, boardable: boardable)
            let limit = options.footpathBeelineMeters * streetFootpathFactor
            (footStreet, footStreetStepFree) = streetFootpaths(graph, snaps, stepFreeSnaps, footOffsets, footTarget, limit: limit)
        }

        // Each run as its first departure and a row of times shared with the runs of its route
        // that keep the same pace (`Timetable.packTimes`); the matrices freed before the
        // timetable is made.
        let packed = Timetable.packTimes(routeStopOffsets: routeStopOffsets, routeTripOffsets: routeTripOffsets,
                                         routeTimeOffsets: routeTimeOffsets, departures: departures, arrivals: arrivals)
        departures = []; arrivals = []
        let timetable = Timetable(stopCount: stopCount, stopLatitude: lat, stopLongitude: lon, stopBoardable: boardable,
                         stopFeed: stopFeed.map(FeedIndex.init(raw:)), stopRouteOffsets: stopRouteCount, stopRouteRoute: stopRouteRoute,
                         stopRoutePosition: stopRoutePosition, routeStopOffsets: routeStopOffsets, routeStops: routeStops.map(StopIndex.init(raw:)),
                         routeCanBoard: canBoard, routeCanAlight: canAlight, routeTripOffsets: routeTripOffsets,
                         runTimes: packed.runTimes, profiles: packed.profiles, routeArrivalShift: packed.arrivalShift,
                         routeTimeZone: routeTimeZone, routeSourceRoute: routeSource, routeService: routeService,
                         routeStopShapeDistance: routeStopShapeDistance, tripService: tripService, tripShape: tripShape,
                         tripSource: tripSource, firstDay: firstDay, dayCount: dayCount, serviceWords: words,
                         serviceDays: serviceDays, timeZoneNames: tzNames, dayBase: dayBase,
                         footpathBeelineMeters: options.footpathBeelineMeters, footOffsets: footOffsets,
                         footTarget: footTarget.map(StopIndex.init(raw:)), footBeeline: footBeeline, footRule: footRule, footMinTime: footMinTime,
                         sameStopRule: sameRule, sameStopMinTime: sameMin,
                         footStreet: footStreet, footStreetStepFree: footStreetStepFree)
        return TransitNetwork(timetable: timetable, snapshot: metadata(snapshot), shapes: ShapeStore(snapshot),
                              stationChildren: stationChildren, stopGrids: grids, warnings: warnings,
                              streets: graph, stopSnaps: snaps, stepFreeStopSnaps: stepFreeSnaps,
                              stopSequences: StopSequences(snapshot, boardable: boardable))
    }

    /// How much longer than the footpath radius a street footpath may be (the routing
    /// model: "the timetable looks for street walks up to its footpath radius × 1.3").
    public static let streetFootpathFactor = 1.3

    /// Footpath -> street walk meters, walking (`Timetable.footStreet`) and step-free
    /// (`footStreetStepFree`): NaN when an end does not snap, +infinity when none is found
    /// within `limit`, 0 between stops at one point. The stops are shared among the cores
    /// (each writes only its own stops' footpaths); per stop, one walking search, and a
    /// step-free one only for the footpaths whose walk takes steps or a `wheelchair=no`
    /// way or whose ends snap elsewhere for a wheelchair (the others are the same length:
    /// `WalkGraph.walkMetersNotingBarred`). On Milan (516 stops, 13,228 footpaths, 454 of
    /// them longer step-free) this took the timetable's build with streets from 0.087 s to
    /// 0.074 s (`transit bench --streets`, median of 3).
    static func streetFootpaths(_ graph: WalkGraph, _ snaps: [StreetSnap?], _ stepFreeSnaps: [StreetSnap?],
                                _ footOffsets: [Int32], _ footTarget: [Int32], limit: Double) -> (walking: [Double], stepFree: [Double]) {
        var walking = [Double](repeating: .nan, count: footTarget.count), stepFree = walking
        let stopCount = footOffsets.count - 1
        guard stopCount > 0 else { return (walking, stepFree) }
        walking.withUnsafeMutableBufferPointer { walkOut in
            stepFree.withUnsafeMutableBufferPointer { freeOut in
                nonisolated(unsafe) let walkOut = walkOut, freeOut = freeOut
                let chunks = min(stopCount, ProcessInfo.processInfo.activeProcessorCount * 8)
                DispatchQueue.concurrentPerform(iterations: chunks) { chunk in
                    var targets: [StreetSnap] = [], slots: [Int] = []
                    var barred = [Bool](repeating: true, count: 0)
                    for a in stride(from: chunk, to: stopCount, by: chunks) {
                        let footpaths = Int(footOffsets[a])..<Int(footOffsets[a + 1])
                        guard !footpaths.isEmpty else { continue }
                        // Walking; `barred[f - lower]`: the walk found takes an edge a wheelchair may not.
                        barred.removeAll(keepingCapacity: true)
                        barred.append(contentsOf: repeatElement(true, count: footpaths.count))
                        if let from = snaps[a] {
                            targets.removeAll(keepingCapacity: true); slots.removeAll(keepingCapacity: true)
                            for f in footpaths {
                                guard let to = snaps[Int(footTarget[f])] else { continue }
                                // Two stops at one point are no walk apart (the routing model's "Walks").
                                if to.place == from.place { walkOut[f] = 0; continue }
                                targets.append(to); slots.append(f)
                            }
                            for (f, r) in zip(slots, graph.walkMetersNotingBarred(from: from, to: targets, limit: limit)) {
                                walkOut[f] = r?.meters ?? .infinity
                                barred[f - footpaths.lowerBound] = r?.barred ?? false
                            }
                        }
                        // Step-free: the walking length where the walk is step-free and the ends snap alike.
                        guard let from = stepFreeSnaps[a] else { continue }
                        let sameStart = snaps[a] == from
                        targets.removeAll(keepingCapacity: true); slots.removeAll(keepingCapacity: true)
                        for f in footpaths {
                            let b = Int(footTarget[f])
                            guard let to = stepFreeSnaps[b] else { continue }
                            if to.place == from.place { freeOut[f] = 0; continue }
                            if sameStart, snaps[b] == to, !barred[f - footpaths.lowerBound] { freeOut[f] = walkOut[f]; continue }
                            targets.append(to); slots.append(f)
                        }
                        guard !targets.isEmpty else { continue }
                        for (f, m) in zip(slots, graph.walkMeters(from: from, to: targets, limit: limit, wheelchair: true)) {
                            freeOut[f] = m ?? .infinity
                        }
                    }
                }
            }
        }
        return (walking, stepFree)
    }

    /// The snapshot without its stop times (the timetable has them in its own layout):
    /// names, ids and routes for answers, without 22 bytes per stop time.
    static func metadata(_ snapshot: FeedSnapshot) -> FeedSnapshot {
        var m = snapshot
        m.tripStopTimes = []; m.stopTimeStop = []; m.stopTimeSequence = []; m.stopTimeArrival = []; m.stopTimeDeparture = []
        m.stopTimePickup = []; m.stopTimeDropOff = []; m.stopTimeShapeDistance = []
        m.shapePointOffsets = [0]; m.shapeLatitude = []; m.shapeLongitude = []; m.shapeDistance = []
        return m
    }

    /// UTC seconds of "noon of `date` minus 12 hours" in `zone` (the model's service day start).
    public static func noonMinus12h(_ date: ServiceDate, _ zone: TimeZone) -> Int64 {
        let noonUTC = Int64(date.daysSinceEpoch) * 86_400 + 43_200
        var instant = noonUTC - Int64(zone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(noonUTC))))
        instant = noonUTC - Int64(zone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(instant))))
        return instant - 43_200
    }

    /// Arrival and departure of every stop time of a trip, untimed ones interpolated as the
    /// model says; nil when the first or last has no time.
    static func interpolatedTimes(_ s: FeedSnapshot, _ range: Range<Int>) -> ([Int32], [Int32])? {
        let u = FeedSnapshot.untimed
        var arr = range.map { s.stopTimeArrival[$0] }, dep = range.map { s.stopTimeDeparture[$0] }
        for k in 0..<arr.count {
            if arr[k] == u && dep[k] != u { arr[k] = dep[k] }
            if dep[k] == u && arr[k] != u { dep[k] = arr[k] }
        }
        guard arr.first != u, arr.last != u else { return nil }
        var prev = 0
        var k = 1
        while k < arr.count {
            if arr[k] != u { prev = k; k += 1; continue }
            var next = k
            while arr[next] == u { next += 1 }
            // Distances along the trip: shape_dist_traveled when the whole span has it.
            let span = Array(range)[prev...next]
            let useShape = span.allSatisfy { !s.stopTimeShapeDistance[$0].isNaN }
            var cumulative = [Double](repeating: 0, count: span.count)
            for j in 1..<span.count {
                let a = span[span.startIndex + j - 1], b = span[span.startIndex + j]
                let step: Double
                if useShape {
                    step = s.stopTimeShapeDistance[b] - s.stopTimeShapeDistance[a]
                } else {
                    let sa = s.stops[Int(s.stopTimeStop[a])], sb = s.stops[Int(s.stopTimeStop[b])]
                    step = beeline(s, sa, sb)
                }
                cumulative[j] = cumulative[j - 1] + step
            }
            let total = cumulative[span.count - 1]
            let tPrev = dep[prev], tNext = arr[next]
            for j in 1..<(span.count - 1) {
                let t: Int32
                if total == 0 { t = tPrev } else {
                    let x = Double(tNext - tPrev) * cumulative[j] / total
                    t = tPrev + Int32((x + 0.5).rounded(.down))
                }
                arr[prev + j] = t; dep[prev + j] = t
            }
            prev = next
            k = next + 1
        }
        return (arr, dep)
    }

    private static func beeline(_ s: FeedSnapshot, _ a: FeedSnapshot.Stop, _ b: FeedSnapshot.Stop) -> Double {
        func coordinate(_ x: FeedSnapshot.Stop) -> Coordinate? {
            if let la = x.latitude, let lo = x.longitude { return Coordinate(latitude: la, longitude: lo) }
            if x.parent >= 0, let la = s.stops[Int(x.parent)].latitude, let lo = s.stops[Int(x.parent)].longitude {
                return Coordinate(latitude: la, longitude: lo)
            }
            return nil
        }
        guard let ca = coordinate(a), let cb = coordinate(b) else { return 0 }
        return Geodesic.distance(ca, cb)
    }

    /// Each boardable stop's snap to the walk graph, walking and step-free (nil: it does not snap).
    static func snaps(_ graph: WalkGraph, lat: [Double], lon: [Double], boardable: [Bool]) -> ([StreetSnap?], [StreetSnap?]) {
        ((0..<lat.count).map { boardable[$0] ? graph.snap(Coordinate(latitude: lat[$0], longitude: lon[$0])) : nil },
         (0..<lat.count).map { boardable[$0] ? graph.snap(Coordinate(latitude: lat[$0], longitude: lon[$0]), wheelchair: true) : nil })
    }

    /// Groups feeds whose stops lie near each other (a city's several feeds), gives each
    /// group a local azimuthal equidistant projection centred on its stops and a grid
    /// index, and finds every pair of boardable stops within `radius` meters.
    static func footpathCandidates(lat: [Double], lon: [Double], boardable: [Bool], stopFeed: [Int32],
                                   feedCount: Int, radius: Double) throws -> ([StopGrid], [[(Int32, Double)]]) {
        try stopGrids(lat: lat, lon: lon, boardable: boardable, stopFeed: stopFeed, feedCount: feedCount, radius: radius, pairs: true)
    }

    /// The stop grids of `footpathCandidates` alone (a network read from its image).
    static func stopGrids(lat: [Double], lon: [Double], boardable: [Bool], stopFeed: [Int32],
                          feedCount: Int, radius: Double) throws -> [StopGrid] {
        try stopGrids(lat: lat, lon: lon, boardable: boardable, stopFeed: stopFeed, feedCount: feedCount, radius: radius, pairs: false).0
    }

    private static func stopGrids(lat: [Double], lon: [Double], boardable: [Bool], stopFeed: [Int32],
                                  feedCount: Int, radius: Double, pairs findPairs: Bool) throws -> ([StopGrid], [[(Int32, Double)]]) {
        let n = lat.count
        // Feed centres, then union feeds within 200 km of each other.
        var sumLat = [Double](repeating: 0, count: feedCount), sumLon = sumLat, count = [Int](repeating: 0, count: feedCount)
        for i in 0..<n where boardable[i] {
            sumLat[Int(stopFeed[i])] += lat[i]; sumLon[Int(stopFeed[i])] += lon[i]; count[Int(stopFeed[i])] += 1
        }
        var group = Array(0..<feedCount)
        func root(_ x: Int) -> Int { var x = x; while group[x] != x { x = group[x] }; return x }
        for a in 0..<feedCount where count[a] > 0 {
            for b in (a + 1)..<max(a + 1, feedCount) where count[b] > 0 {
                let ca = Coordinate(latitude: sumLat[a] / Double(count[a]), longitude: sumLon[a] / Double(count[a]))
                let cb = Coordinate(latitude: sumLat[b] / Double(count[b]), longitude: sumLon[b] / Double(count[b]))
                if Geodesic.distance(ca, cb) < 200_000 { group[root(b)] = root(a) }
            }
        }
        var pairs = [[(Int32, Double)]](repeating: [], count: n)
        var grids: [StopGrid] = []
        for g in Set((0..<feedCount).filter { count[$0] > 0 }.map(root)).sorted() {
            let members = (0..<n).filter { boardable[$0] && root(Int(stopFeed[$0])) == g }
            guard !members.isEmpty else { continue }
            let centre = Coordinate(latitude: members.map { lat[$0] }.reduce(0, +) / Double(members.count),
                                    longitude: members.map { lon[$0] }.reduce(0, +) / Double(members.count))
            let projection = try LocalProjection(center: centre)
            let points = projection.project(members.map { Coordinate(latitude: lat[$0], longitude: lon[$0]) })
            let grid = GridIndex(points: points, cellMeters: max(radius, 250))
            var found: [Int32] = []
            for (i, a) in members.enumerated() where findPairs {
                found.removeAll(keepingCapacity: true)
                grid.within(x: points[i].x, y: points[i].y, radiusMeters: radius * 1.05 + 10, into: &found)
                let ca = Coordinate(latitude: lat[a], longitude: lon[a])
                for j in found where Int(j) != i {
                    let b = members[Int(j)]
                    let d = Geodesic.distance(ca, Coordinate(latitude: lat[b], longitude: lon[b]))
                    if d <= radius { pairs[a].append((Int32(b), d)) }
                }
            }
            grids.append(StopGrid(projection: projection, grid: grid, stops: members.map(StopIndex.init)))
        }
        return (grids, pairs)
    }
}

/// A timetable cannot be built (an unknown time zone, PROJ failing).
public struct TimetableError: Error, Sendable, CustomStringConvertible {
    public let description: String
    public init(_ message: String) { description = message }
}
