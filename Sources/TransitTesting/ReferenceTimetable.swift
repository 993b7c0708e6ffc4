import Foundation
import Geo
import TransitModel

/// What the reference router derives from a snapshot once, following the routing model.
///
/// - Stops: boardable = `location_type` 0; coordinates own, else the parent station's.
/// - Changes (`change time(s, t)`), a directed relation between boardable stops:
///   `s → s` costs `transferSlack`; `s → t` (s ≠ t) exists when `walkMeters ≤ maxTransferWalk`
///   and costs `walkSeconds + transferSlack`; transfers.txt rows then override pairs (see
///   `changeTimes`).
/// - Stop times: one of arrival/departure stands for both; untimed ones interpolated; trips with
///   an untimed first or last stop time left out.
/// - Runs: a trip's stop times shifted by an offset (0, or a frequency start minus the template's
///   first departure). A hop is a run's move from its stop time `i` to `i + 1`: the connection of
///   the scan, once given a service date.
/// - Per time zone and direction, every hop sorted by its scan key (departure for the forward
///   scan, minus arrival for the backward one), so that a query merges three shifted lists
///   (D−1, D, D+1) per zone instead of sorting.
///
/// The scan reads the per-hop and per-stop-time data through pointers into memory owned here
/// (a debug build pays a lot for Array subscripts in a loop of a million steps).
final class ReferenceTimetable: @unchecked Sendable {
    /// Later than any time a query produces (and far from the Int64 limits, so sums stay safe).
    static let never: Int64 = Int64.max / 4

    enum Direction { case forward, backward }

    let parameters: ReferenceParameters
    let stopCount: Int
    let hopCount: Int
    let serviceCount: Int

    // Stop -> latitude and longitude in degrees (own, else the parent's); NaN when unknown.
    let stopLatitude: [Double]
    let stopLongitude: [Double]
    // Stop -> location_type 0 (boarded and alighted).
    let stopBoardable: [Bool]
    // Stop -> feed index.
    let stopFeed: [Int32]
    // Boardable stops with coordinates, ordered by latitude (for walks from a point).
    let walkableStopsByLatitude: [Int32]
    // The streets walked on, when given (else every walk is the beeline), and each boardable
    // stop's snap to them (nil: walks from it are beelines).
    let streets: ReferenceStreets?
    let stopSnap: [ReferenceStreets.Snap?]

    /// Trips left out because their first or last stop time has no time.
    let tripsLeftOut: [Int32]

    // Services, as the snapshot gives them (the query decides which run on its three dates).
    let services: [FeedSnapshot.Service]

    // Time zones: zone index -> TimeZone; feed -> zone of its first agency.
    let zones: [TimeZone]
    let feedZone: [Int32]

    // --- Data read by the scan, in memory owned by `storage`. ---
    private let storage: ReferenceStorage
    // Stop time -> stop.
    let stStop: UnsafePointer<Int32>
    // Stop time -> arrival / departure after normalisation (seconds since noon minus 12 h).
    let stArrival: UnsafePointer<Int32>
    let stDeparture: UnsafePointer<Int32>
    // Stop time -> boarding allowed (boardable stop, pickup_type ≠ 1) / alighting allowed.
    let stBoard: UnsafePointer<Bool>
    let stAlight: UnsafePointer<Bool>
    // Run -> first stop time, offset in seconds, service, zone; run -> its hops runHopStart[r] ..< runHopStart[r + 1].
    let runFirstStopTime: UnsafePointer<Int32>
    let runOffset: UnsafePointer<Int32>
    let runService: UnsafePointer<Int32>
    let runHopStart: UnsafePointer<Int32>
    // Hop -> run.
    let hopRun: UnsafePointer<Int32>
    // Stop -> changes from it: changeStart[s] ..< changeStart[s + 1] into changeTarget / changeSeconds.
    let forwardChangeStart: UnsafePointer<Int32>
    let forwardChangeTarget: UnsafePointer<Int32>
    let forwardChangeSeconds: UnsafePointer<Int32>
    // Stop -> changes into it (the same relation reversed, for the backward scan).
    let backwardChangeStart: UnsafePointer<Int32>
    let backwardChangeTarget: UnsafePointer<Int32>
    let backwardChangeSeconds: UnsafePointer<Int32>
    // Zone -> its hops sorted by scan key, and the keys (forward: departure + offset; backward:
    // -(arrival + offset)), ties by arrival (backward: -departure), then by hop (backward: reversed).
    let forwardHops: [(keys: UnsafePointer<Int32>, hops: UnsafePointer<Int32>, count: Int)]
    let backwardHops: [(keys: UnsafePointer<Int32>, hops: UnsafePointer<Int32>, count: Int)]

    init(snapshot: FeedSnapshot, parameters: ReferenceParameters, streets: ReferenceStreets? = nil) {
        self.parameters = parameters
        self.streets = streets
        let storage = ReferenceStorage()
        self.storage = storage
        let stopCount = snapshot.stops.count
        self.stopCount = stopCount
        self.services = snapshot.services
        self.serviceCount = snapshot.services.count

        // Stops.
        var latitude = [Double](repeating: .nan, count: stopCount)
        var longitude = [Double](repeating: .nan, count: stopCount)
        for (i, stop) in snapshot.stops.enumerated() {
            if let lat = stop.latitude, let lon = stop.longitude {
                latitude[i] = lat; longitude[i] = lon
            } else if stop.parent >= 0, let lat = snapshot.stops[Int(stop.parent)].latitude,
                      let lon = snapshot.stops[Int(stop.parent)].longitude {
                latitude[i] = lat; longitude[i] = lon
            }
        }
        let boardable = snapshot.stops.map { $0.locationType == 0 }
        stopLatitude = latitude
        stopLongitude = longitude
        stopBoardable = boardable
        stopFeed = snapshot.stops.map(\.feed)
        walkableStopsByLatitude = (0..<stopCount).filter { boardable[$0] && !latitude[$0].isNaN }
            .sorted { latitude[$0] < latitude[$1] }.map { Int32($0) }
        let stopSnap = (0..<stopCount).map { s in
            boardable[s] && !latitude[s].isNaN ? streets?.snap(Coordinate(latitude: latitude[s], longitude: longitude[s])) : nil
        }
        self.stopSnap = stopSnap

        // Time zones.
        var zoneIndex: [String: Int32] = [:]
        var zones: [TimeZone] = []
        func zone(_ identifier: String) -> Int32 {
            if let z = zoneIndex[identifier] { return z }
            let z = Int32(zones.count)
            zones.append(TimeZone(identifier: identifier) ?? TimeZone(identifier: "UTC")!)
            zoneIndex[identifier] = z
            return z
        }
        let agencyZone = snapshot.agencies.map { zone($0.timezone) }
        feedZone = snapshot.feedIds.indices.map { f in
            snapshot.agencies.firstIndex { $0.feed == Int32(f) }.map { agencyZone[$0] } ?? zone("UTC")
        }

        // Stop times.
        let (arrival, departure, leftOut) = ReferenceTimetable.normalisedTimes(snapshot, latitude, longitude)
        tripsLeftOut = leftOut
        var board = [Bool](repeating: false, count: snapshot.stopTimeCount)
        var alight = [Bool](repeating: false, count: snapshot.stopTimeCount)
        for i in 0..<snapshot.stopTimeCount {
            let stop = Int(snapshot.stopTimeStop[i])
            board[i] = boardable[stop] && snapshot.stopTimePickup[i] != 1
            alight[i] = boardable[stop] && snapshot.stopTimeDropOff[i] != 1
        }

        // Runs: every trip that is kept and has no frequency row runs once (offset 0); a
        // frequency template runs once per distinct start, offset from its first departure.
        var frequencies: [Int32: [FeedSnapshot.Frequency]] = [:]
        for f in snapshot.frequencies { frequencies[f.trip, default: []].append(f) }
        let left = Set(leftOut)
        var runTrip: [Int32] = [], runOffset: [Int32] = [], runZone: [Int32] = []
        for t in snapshot.trips.indices where !left.contains(Int32(t)) && snapshot.stopTimes(ofTrip: t).count >= 2 {
            let route = snapshot.routes[Int(snapshot.trips[t].route)]
            let z = route.agency >= 0 && Int(route.agency) < agencyZone.count ? agencyZone[Int(route.agency)] : zone("UTC")
            if let rows = frequencies[Int32(t)] {
                var starts = Set<Int32>()
                for row in rows {
                    if row.headwaySeconds <= 0 {
                        if row.startTime < row.endTime { starts.insert(row.startTime) }
                        continue
                    }
                    var start = row.startTime
                    while start < row.endTime { starts.insert(start); start += row.headwaySeconds }
                }
                let firstDeparture = departure[snapshot.stopTimes(ofTrip: t).lowerBound]
                for start in starts.sorted() {
                    runTrip.append(Int32(t)); runOffset.append(start - firstDeparture); runZone.append(z)
                }
            } else {
                runTrip.append(Int32(t)); runOffset.append(0); runZone.append(z)
            }
        }
        self.zones = zones
        var runFirst: [Int32] = [], runService: [Int32] = [], runHopStart: [Int32] = [0], hopRun: [Int32] = []
        for (r, t) in runTrip.enumerated() {
            let range = snapshot.stopTimes(ofTrip: Int(t))
            runFirst.append(Int32(range.lowerBound))
            runService.append(snapshot.trips[Int(t)].service)
            hopRun.append(contentsOf: repeatElement(Int32(r), count: range.count - 1))
            runHopStart.append(Int32(hopRun.count))
        }
        hopCount = hopRun.count

        // Hops sorted per zone and direction (stable counting sorts, least significant key first).
        var forwardKey = [Int32](repeating: 0, count: hopCount), forwardTie = forwardKey
        var backwardKey = forwardKey, backwardTie = forwardKey
        for h in 0..<hopCount {
            let r = Int(hopRun[h])
            let st = Int(runFirst[r]) + h - Int(runHopStart[r])
            let dep = departure[st] + runOffset[r], arr = arrival[st + 1] + runOffset[r]
            forwardKey[h] = dep; forwardTie[h] = arr
            backwardKey[h] = -arr; backwardTie[h] = -dep
        }
        let ascending = (0..<hopCount).map { Int32($0) }
        let forwardOrder = ReferenceTimetable.stableSort(ReferenceTimetable.stableSort(ascending, by: forwardTie), by: forwardKey)
        let backwardOrder = ReferenceTimetable.stableSort(ReferenceTimetable.stableSort(ascending.reversed(), by: backwardTie),
                                                          by: backwardKey)
        var forwardLists: [(keys: UnsafePointer<Int32>, hops: UnsafePointer<Int32>, count: Int)] = []
        var backwardLists = forwardLists
        for z in zones.indices {
            let f = forwardOrder.filter { runZone[Int(hopRun[Int($0)])] == Int32(z) }
            let b = backwardOrder.filter { runZone[Int(hopRun[Int($0)])] == Int32(z) }
            forwardLists.append((storage.freeze(f.map { forwardKey[Int($0)] }), storage.freeze(f), f.count))
            backwardLists.append((storage.freeze(b.map { backwardKey[Int($0)] }), storage.freeze(b), b.count))
        }
        forwardHops = forwardLists
        backwardHops = backwardLists

        // Changes.
        let changes = ReferenceTimetable.changeTimes(snapshot, parameters, latitude, longitude, boardable,
                                                     streets: streets, stopSnap: stopSnap)
        let forwardChanges = ReferenceTimetable.adjacency(changes, stopCount: stopCount, reversed: false)
        let backwardChanges = ReferenceTimetable.adjacency(changes, stopCount: stopCount, reversed: true)

        stStop = storage.freeze(snapshot.stopTimeStop)
        stArrival = storage.freeze(arrival)
        stDeparture = storage.freeze(departure)
        stBoard = storage.freeze(board)
        stAlight = storage.freeze(alight)
        self.runFirstStopTime = storage.freeze(runFirst)
        self.runOffset = storage.freeze(runOffset)
        self.runService = storage.freeze(runService)
        self.runHopStart = storage.freeze(runHopStart)
        self.hopRun = storage.freeze(hopRun)
        forwardChangeStart = storage.freeze(forwardChanges.start)
        forwardChangeTarget = storage.freeze(forwardChanges.target)
        forwardChangeSeconds = storage.freeze(forwardChanges.seconds)
        backwardChangeStart = storage.freeze(backwardChanges.start)
        backwardChangeTarget = storage.freeze(backwardChanges.target)
        backwardChangeSeconds = storage.freeze(backwardChanges.seconds)
    }

    // MARK: Walking

    func walkMeters(beeline: Double) -> Double { beeline * parameters.walkDetourFactor }

    func walkSeconds(meters: Double) -> Int32 { Int32((meters / parameters.walkSpeed).rounded(.up)) }

    static func beeline(_ lat1: Double, _ lon1: Double, _ lat2: Double, _ lon2: Double) -> Double {
        Geodesic.distance(Coordinate(latitude: lat1, longitude: lon1), Coordinate(latitude: lat2, longitude: lon2))
    }

    /// Whether two points can be within `beelineMeters` of each other, by a cheap and
    /// conservative box test (the exact test is the geodesic distance).
    static func mayBeWithin(_ lat1: Double, _ lon1: Double, _ lat2: Double, _ lon2: Double, beelineMeters: Double) -> Bool {
        // A degree of latitude is at least 110,574 m on WGS84; 110,000 leaves a margin.
        let latitudeDegrees = beelineMeters / 110_000 + 1e-9
        if abs(lat1 - lat2) > latitudeDegrees { return false }
        let highest = max(abs(lat1), abs(lat2)) + latitudeDegrees
        if highest > 80 { return true }
        // A degree of longitude is at least 111,319 cos φ m along a parallel; 1.5 covers the
        // difference between a parallel and the geodesic at these short distances.
        let longitudeDegrees = 1.5 * beelineMeters / (111_000 * cos(highest * .pi / 180)) + 1e-9
        var dLon = abs(lon1 - lon2)
        if dLon > 180 { dLon = 360 - dLon }
        return dLon <= longitudeDegrees
    }

    /// The coordinates a place stands for, or nil when it has none.
    func coordinate(of place: ReferencePlace) -> (latitude: Double, longitude: Double)? {
        switch place {
        case .coordinate(let lat, let lon):
            return lat.isNaN || lon.isNaN ? nil : (lat, lon)
        case .stop(let s):
            guard s >= 0, Int(s) < stopCount, !stopLatitude[Int(s)].isNaN else { return nil }
            return (stopLatitude[Int(s)], stopLongitude[Int(s)])
        }
    }

    /// `walkSeconds` of the walk-only journey, when `walkMeters ≤ maxDirectWalk`: along streets
    /// when both ends snap (none when they do but no street walk is within the limit), else the beeline.
    func directWalkSeconds(_ a: (latitude: Double, longitude: Double), _ b: (latitude: Double, longitude: Double)) -> Int32? {
        // Two places at one point: no walk at all.
        if a.latitude == b.latitude && a.longitude == b.longitude { return 0 }
        if let streets, let sa = streets.snap(Coordinate(latitude: a.latitude, longitude: a.longitude)),
           let sb = streets.snap(Coordinate(latitude: b.latitude, longitude: b.longitude)) {
            return streets.walkMeters(from: sa, to: [sb], limit: parameters.maxDirectWalk)[0].map { walkSeconds(meters: $0) }
        }
        let meters = walkMeters(beeline: ReferenceTimetable.beeline(a.latitude, a.longitude, b.latitude, b.longitude))
        return meters <= parameters.maxDirectWalk ? walkSeconds(meters: meters) : nil
    }

    /// Stop -> `walkSeconds` from `point` to that boardable stop when `walkMeters ≤ maxWalkMeters`, else -1.
    /// Along streets to the stops that snap when `point` snaps too; the beeline for the rest.
    func walkSecondsToStops(from point: (latitude: Double, longitude: Double), maxWalkMeters: Double) -> [Int32] {
        var seconds = [Int32](repeating: -1, count: stopCount)
        let pointSnap = streets?.snap(Coordinate(latitude: point.latitude, longitude: point.longitude))
        // A street walk is never shorter than the beeline (1 m spares the rounding of the lengths).
        let beelineLimit = pointSnap == nil ? maxWalkMeters / parameters.walkDetourFactor : maxWalkMeters + 1
        var streetStops: [Int] = []
        for s32 in walkableStopsByLatitude {
            let s = Int(s32)
            guard ReferenceTimetable.mayBeWithin(point.latitude, point.longitude, stopLatitude[s], stopLongitude[s],
                                                 beelineMeters: beelineLimit) else { continue }
            // A stop at the point itself (an end given as that stop) is no walk at all.
            if point.latitude == stopLatitude[s] && point.longitude == stopLongitude[s] { seconds[s] = 0; continue }
            if pointSnap != nil && stopSnap[s] != nil { streetStops.append(s); continue }
            let meters = walkMeters(beeline: ReferenceTimetable.beeline(point.latitude, point.longitude,
                                                                        stopLatitude[s], stopLongitude[s]))
            if meters <= maxWalkMeters { seconds[s] = walkSeconds(meters: meters) }
        }
        if let streets, let pointSnap, !streetStops.isEmpty {
            let meters = streets.walkMeters(from: pointSnap, to: streetStops.map { stopSnap[$0]! }, limit: maxWalkMeters)
            for (s, m) in zip(streetStops, meters) { if let m { seconds[s] = walkSeconds(meters: m) } }
        }
        return seconds
    }

    // MARK: Service dates

    /// The trips a query at `time` from `origin` considers: D−1, D, D+1 per zone.
    struct ServiceWindow {
        /// The query's service date D and the zone it was taken in.
        var date: ServiceDate
        var zoneIdentifier: String
        /// One list per (zone, day): zone, day (0 = D−1, 1 = D, 2 = D+1), and the UTC instant of
        /// noon minus 12 h of that day in that zone.
        var lists: [(zone: Int, day: Int, base: Int64)]
        /// day * serviceCount + service -> the service runs that day.
        var active: [Bool]
    }

    func serviceWindow(origin: (latitude: Double, longitude: Double), time: Int64) -> ServiceWindow {
        let queryZone = zones.isEmpty ? TimeZone(identifier: "UTC")! : zones[Int(queryZoneIndex(origin))]
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = queryZone
        let parts = calendar.dateComponents([.year, .month, .day], from: Date(timeIntervalSince1970: TimeInterval(time)))
        // ServiceDate covers the years 1900–2999; outside them (no feed runs there) take the UTC day.
        let date = ServiceDate(year: parts.year ?? 0, month: parts.month ?? 0, day: parts.day ?? 0)
            ?? ServiceDate(daysSinceEpoch: Int32(clamping: time >= 0 ? time / 86_400 : (time - 86_399) / 86_400))
        var lists: [(zone: Int, day: Int, base: Int64)] = []
        for z in zones.indices where forwardHops[z].count > 0 {
            for day in 0..<3 {
                lists.append((z, day, ReferenceTimetable.noonMinus12Hours(date.adding(days: day - 1), zones[z])))
            }
        }
        var active = [Bool](repeating: false, count: 3 * serviceCount)
        for day in 0..<3 {
            let d = date.adding(days: day - 1)
            for s in 0..<serviceCount { active[day * serviceCount + s] = ReferenceTimetable.runs(services[s], on: d) }
        }
        return ServiceWindow(date: date, zoneIdentifier: queryZone.identifier, lists: lists, active: active)
    }

    /// The zone of the first agency of the feed whose stop is nearest `origin`.
    func queryZoneIndex(_ origin: (latitude: Double, longitude: Double)) -> Int32 {
        guard let first = feedZone.first else { return 0 }
        if feedZone.allSatisfy({ $0 == first }) { return first }
        var nearest = -1, nearestMeters = Double.infinity
        for s in 0..<stopCount where !stopLatitude[s].isNaN {
            let m = ReferenceTimetable.beeline(origin.latitude, origin.longitude, stopLatitude[s], stopLongitude[s])
            if m < nearestMeters { nearestMeters = m; nearest = s }
        }
        guard nearest >= 0, Int(stopFeed[nearest]) < feedZone.count else { return first }
        return feedZone[Int(stopFeed[nearest])]
    }

    /// "Noon minus 12 hours" of `date` in `zone`, as UTC seconds since 1970.
    static func noonMinus12Hours(_ date: ServiceDate, _ zone: TimeZone) -> Int64 {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let (y, m, d) = date.components
        let noon = calendar.date(from: DateComponents(year: y, month: m, day: d, hour: 12, minute: 0, second: 0))!
        return Int64(noon.timeIntervalSince1970.rounded()) - 43_200
    }

    /// calendar.txt and calendar_dates.txt: an exception of type 2 removes the date, type 1 adds it.
    static func runs(_ service: FeedSnapshot.Service, on date: ServiceDate) -> Bool {
        if service.removed.contains(date) { return false }
        if service.added.contains(date) { return true }
        guard let start = service.start, let end = service.end,
              date.daysSinceEpoch >= start.daysSinceEpoch, date.daysSinceEpoch <= end.daysSinceEpoch else { return false }
        // 1970-01-01 was a Thursday; bit 0 is Monday.
        let weekday = Int(((Int64(date.daysSinceEpoch) % 7) + 7 + 3) % 7)
        return service.weekdays & (1 << UInt8(weekday)) != 0
    }

    // MARK: Stop times

    /// Arrival and departure of every stop time after the model's rules, and the trips left out.
    static func normalisedTimes(_ snapshot: FeedSnapshot, _ latitude: [Double], _ longitude: [Double])
        -> (arrival: [Int32], departure: [Int32], leftOut: [Int32]) {
        let untimed = FeedSnapshot.untimed
        var arrival = snapshot.stopTimeArrival, departure = snapshot.stopTimeDeparture
        // One of the two stands for both.
        for i in 0..<arrival.count {
            if arrival[i] == untimed { arrival[i] = departure[i] }
            if departure[i] == untimed { departure[i] = arrival[i] }
        }
        var leftOut: [Int32] = []
        for t in snapshot.trips.indices {
            let range = snapshot.stopTimes(ofTrip: t)
            guard let first = range.first, let last = range.last else { continue }
            if arrival[first] == untimed || arrival[last] == untimed { leftOut.append(Int32(t)); continue }
            var previous = first
            var i = first + 1
            while i < last {
                if arrival[i] != untimed { previous = i; i += 1; continue }
                var next = i + 1
                while arrival[next] == untimed { next += 1 }
                // Distance along the span previous...next, summed over consecutive stops: from
                // shape_dist_traveled when every stop time of the span has it, else the beeline.
                let useShape = (previous...next).allSatisfy { !snapshot.stopTimeShapeDistance[$0].isNaN }
                var cumulative = [0.0]
                for j in previous..<next {
                    var segment: Double
                    if useShape {
                        segment = snapshot.stopTimeShapeDistance[j + 1] - snapshot.stopTimeShapeDistance[j]
                    } else {
                        let a = Int(snapshot.stopTimeStop[j]), b = Int(snapshot.stopTimeStop[j + 1])
                        segment = beeline(latitude[a], longitude[a], latitude[b], longitude[b])
                        if segment.isNaN { segment = 0 }  // a stop without coordinates adds no distance
                    }
                    cumulative.append(cumulative[cumulative.count - 1] + segment)
                }
                let total = cumulative[cumulative.count - 1]
                let tPrevious = departure[previous], tNext = arrival[next]
                for j in (previous + 1)..<next {
                    var t = tPrevious
                    if total != 0 {
                        // round half up: floor(x + 0.5)
                        let x = Double(tNext - tPrevious) * cumulative[j - previous] / total
                        t = tPrevious + Int32((x + 0.5).rounded(.down))
                    }
                    arrival[j] = t; departure[j] = t
                }
                previous = next
                i = next + 1
            }
        }
        return (arrival, departure, leftOut)
    }

    // MARK: Changes

    /// Change times between boardable stops: key `from << 32 | to` -> seconds, or -1 when the
    /// change is forbidden (such entries are dropped by `adjacency`).
    ///
    /// transfers.txt rows (only the stop-to-stop ones are in the snapshot): a row whose either end
    /// is not a stop (0) or station (1) is ignored; a station stands for each of its boardable
    /// children; for each resulting pair the row naming both stops themselves wins over a row
    /// naming a station, and among equals the later line. The winning row of a pair (a, b):
    /// - a ≠ b: type 1 → walkSeconds; 2 → max(walkSeconds + slack, min_transfer_time);
    ///   3 → no change; anything else → walkSeconds + slack — whatever the distance.
    /// - a = b: type 1 → 0; 2 → max(slack, min_transfer_time); 3 → no change; else → slack.
    ///
    /// With streets, a footpath between two stops that both snap is their street walk (none when
    /// it is beyond `maxTransferWalk`), also for a transfers.txt row when one is found within
    /// `footpathStreetMeters` (else the row's walk is the beeline).
    static func changeTimes(_ snapshot: FeedSnapshot, _ p: ReferenceParameters, _ latitude: [Double], _ longitude: [Double],
                            _ boardable: [Bool], streets: ReferenceStreets?, stopSnap: [ReferenceStreets.Snap?]) -> [Int64: Int32] {
        func key(_ a: Int, _ b: Int) -> Int64 { Int64(a) << 32 | Int64(b) }
        func seconds(_ meters: Double) -> Int32 { Int32((meters / p.walkSpeed).rounded(.up)) }
        // Street walks between snapped stops within maxTransferWalk: key(a, b) -> meters.
        var street: [Int64: Double] = [:]
        if let streets {
            let snapped = (0..<boardable.count).filter { stopSnap[$0] != nil }.sorted { latitude[$0] < latitude[$1] }
            let degrees = (p.maxTransferWalk + 1) / 110_000 + 1e-9
            var low = 0
            for a in snapped {
                while latitude[snapped[low]] < latitude[a] - degrees { low += 1 }
                var near: [Int] = []
                for b in snapped[low...] {
                    if latitude[b] > latitude[a] + degrees { break }
                    if b != a && mayBeWithin(latitude[a], longitude[a], latitude[b], longitude[b], beelineMeters: p.maxTransferWalk + 1) {
                        near.append(b)
                    }
                }
                let meters = streets.walkMeters(from: stopSnap[a]!, to: near.map { stopSnap[$0]! }, limit: p.maxTransferWalk)
                for (b, m) in zip(near, meters) { if let m { street[key(a, b)] = m } }
                // Two stops at one point are no walk apart.
                for b in near where latitude[b] == latitude[a] && longitude[b] == longitude[a] { street[key(a, b)] = 0 }
            }
        }
        // A rule-less footpath: along streets when both ends snap (nil: none), else the beeline.
        func footpath(_ a: Int, _ b: Int) -> Double? {
            if stopSnap[a] != nil && stopSnap[b] != nil { return street[key(a, b)] }
            return beeline(latitude[a], longitude[a], latitude[b], longitude[b]) * p.walkDetourFactor
        }
        // A transfers.txt row's walk: the street walk where one is found within the
        // timetable's street footpath limit, else the beeline.
        func walk(_ a: Int, _ b: Int) -> (meters: Double, seconds: Int32) {
            var meters = street[key(a, b)]
            if meters == nil, let streets, let sa = stopSnap[a], let sb = stopSnap[b] {
                meters = streets.walkMeters(from: sa, to: [sb], limit: p.footpathStreetMeters)[0]
            }
            let m = meters ?? beeline(latitude[a], longitude[a], latitude[b], longitude[b]) * p.walkDetourFactor
            return (m, seconds(m))
        }
        let slack = Int32(p.transferSlack)
        var change: [Int64: Int32] = [:]
        // Same stop.
        for s in boardable.indices where boardable[s] { change[key(s, s)] = slack }
        // Footpaths by distance: a latitude sweep, then the geodesic.
        let walkable = (0..<boardable.count).filter { boardable[$0] && !latitude[$0].isNaN }.sorted { latitude[$0] < latitude[$1] }
        let beelineLimit = streets == nil ? p.maxTransferWalk / p.walkDetourFactor : p.maxTransferWalk + 1
        for (n, a) in walkable.enumerated() {
            var m = n + 1
            while m < walkable.count && latitude[walkable[m]] - latitude[a] <= beelineLimit / 110_000 + 1e-9 {
                let b = walkable[m]
                m += 1
                guard mayBeWithin(latitude[a], longitude[a], latitude[b], longitude[b], beelineMeters: beelineLimit) else { continue }
                if let ab = footpath(a, b), ab <= p.maxTransferWalk { change[key(a, b)] = seconds(ab) + slack }
                if let ba = footpath(b, a), ba <= p.maxTransferWalk { change[key(b, a)] = seconds(ba) + slack }
            }
        }
        // transfers.txt.
        var children: [Int: [Int]] = [:]
        for (s, stop) in snapshot.stops.enumerated() where boardable[s] && stop.parent >= 0 {
            children[Int(stop.parent), default: []].append(s)
        }
        func expand(_ s: Int) -> [Int]? {
            switch snapshot.stops[s].locationType {
            case 0: return [s]
            case 1: return children[s] ?? []
            default: return nil
            }
        }
        var winner: [Int64: (direct: Bool, line: Int32, row: FeedSnapshot.Transfer)] = [:]
        for row in snapshot.transfers {
            let from = Int(row.fromStop), to = Int(row.toStop)
            guard from >= 0, from < boardable.count, to >= 0, to < boardable.count,
                  let froms = expand(from), let tos = expand(to) else { continue }
            let direct = snapshot.stops[from].locationType == 0 && snapshot.stops[to].locationType == 0
            for a in froms {
                for b in tos {
                    if let old = winner[key(a, b)], old.direct && !direct || (old.direct == direct && old.line > row.line) { continue }
                    winner[key(a, b)] = (direct, row.line, row)
                }
            }
        }
        for (k, w) in winner {
            let a = Int(k >> 32), b = Int(k & 0xFFFF_FFFF)
            let minimum = w.row.minTransferTime ?? 0
            if a == b {
                switch w.row.type {
                case 1: change[k] = 0
                case 2: change[k] = max(slack, minimum)
                case 3: change[k] = -1
                default: change[k] = slack
                }
            } else {
                if w.row.type == 3 { change[k] = -1; continue }
                // A footpath needs both ends' coordinates for its walkSeconds.
                guard !latitude[a].isNaN, !latitude[b].isNaN else { continue }
                let seconds = walk(a, b).seconds
                switch w.row.type {
                case 1: change[k] = seconds
                case 2: change[k] = max(seconds + slack, minimum)
                default: change[k] = seconds + slack
                }
            }
        }
        return change
    }

    /// The allowed changes as offset tables: by `from` stop, or by `to` stop when `reversed`.
    static func adjacency(_ change: [Int64: Int32], stopCount: Int, reversed: Bool)
        -> (start: [Int32], target: [Int32], seconds: [Int32]) {
        var pairs: [(Int32, Int32, Int32)] = []
        for (k, seconds) in change where seconds >= 0 {
            let a = Int32(k >> 32), b = Int32(k & 0xFFFF_FFFF)
            pairs.append(reversed ? (b, a, seconds) : (a, b, seconds))
        }
        pairs.sort { $0.0 != $1.0 ? $0.0 < $1.0 : $0.1 < $1.1 }
        var start = [Int32](repeating: 0, count: stopCount + 1)
        for pair in pairs { start[Int(pair.0) + 1] += 1 }
        for s in 0..<stopCount { start[s + 1] += start[s] }
        return (start, pairs.map(\.1), pairs.map(\.2))
    }

    // MARK: Sorting

    /// `order` stably sorted by `key[element]` (a counting sort; keys are seconds, so their range is small).
    static func stableSort(_ order: [Int32], by key: [Int32]) -> [Int32] {
        guard let low = key.min(), let high = key.max() else { return order }
        let range = Int(high) - Int(low) + 1
        if range > 4 * key.count + 1_000_000 {
            return order.enumerated().sorted { (key[Int($0.element)], $0.offset) < (key[Int($1.element)], $1.offset) }.map(\.element)
        }
        var start = [Int](repeating: 0, count: range + 1)
        for h in order { start[Int(key[Int(h)] - low) + 1] += 1 }
        for b in 0..<range { start[b + 1] += start[b] }
        var sorted = [Int32](repeating: 0, count: order.count)
        for h in order {
            let b = Int(key[Int(h)] - low)
            sorted[start[b]] = h
            start[b] += 1
        }
        return sorted
    }
}

/// Memory for immutable copies of arrays, freed with its owner.
final class ReferenceStorage {
    private var blocks: [UnsafeMutableRawPointer] = []

    /// A copy of `array` (of a trivial type) that lives as long as this storage.
    func freeze<T>(_ array: [T]) -> UnsafePointer<T> {
        let p = UnsafeMutablePointer<T>.allocate(capacity: max(array.count, 1))
        array.withUnsafeBufferPointer { b in
            if let base = b.baseAddress { p.initialize(from: base, count: b.count) }
        }
        blocks.append(UnsafeMutableRawPointer(p))
        return UnsafePointer(p)
    }

    deinit { for b in blocks { b.deallocate() } }
}
