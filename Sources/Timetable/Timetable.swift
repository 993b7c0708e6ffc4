import TransitModel

/// The timetable the router reads: immutable flat arrays indexed by dense typed ids
/// (`StopIndex`, `RouteIndex`, `TripIndex`, …: `Int32` each), with offset tables for variable-length lists (as nigiri lays it out).
///
/// - Stops keep the indexes of `FeedSnapshot.stops` (so answers map back directly); only
///   boardable ones (location_type 0) are served by routes.
/// - A route here is a trip pattern: one snapshot route, one stop sequence, one set of
///   pickup/drop-off rules, split further wherever trips overtake each other, so that
///   the trips of a route are in the same order at every stop and a binary search for
///   the next departure is always right.
/// - Times are seconds since noon minus 12 h of a trip's service date, in its agency's
///   time zone; `dayBase` turns them into UTC instants for each service date.
/// - Footpaths are candidates: every pair of boardable stops within
///   `footpathBeelineMeters` (and every pair a transfers.txt row links), with the
///   beeline distance and, when streets are loaded, the walk along them; a request
///   filters them by its own walking parameters.
///
/// Immutable after building: any number of queries may read it at once.
public final class Timetable: Sendable {
    // MARK: Stops

    public let stopCount: Int
    // Stop -> latitude / longitude in degrees (the parent station's when the stop has none), NaN if unknown.
    public let stopLatitude: [Double]
    public let stopLongitude: [Double]
    // Stop -> whether vehicles stop there for boarding and alighting (location_type 0).
    public let stopBoardable: [Bool]
    // Stop -> feed index.
    public let stopFeed: [FeedIndex]
    // Stop -> list of (route, position) pairs: offsets into stopRouteRoute / stopRoutePosition.
    public let stopRouteOffsets: [Int32]
    public let stopRouteRoute: [RouteIndex]
    public let stopRoutePosition: [RoutePosition]

    // MARK: Routes (trip patterns)

    public let routeCount: Int
    // Route -> list of stops: routeStops[routeStopOffsets[r] ..< routeStopOffsets[r + 1]].
    public let routeStopOffsets: [Int32]
    public let routeStops: [StopIndex]
    // Route stop position (same indexing as routeStops) -> boarding / alighting allowed.
    public let routeCanBoard: [Bool]
    public let routeCanAlight: [Bool]
    // Route -> list of trips: routeTrips[routeTripOffsets[r] ..< routeTripOffsets[r + 1]], by departure.
    public let routeTripOffsets: [Int32]
    // Trip (a run, in routeTrips order) -> its departure at its route's first position
    // (`start`) and where its times from there are in `profiles` (`row`): run j of route r
    // departs position i at start + profiles[row + i] and arrives there at start +
    // profiles[row + routeArrivalShift[r] + i] (`departure(route:position:run:)`). Runs of
    // a route that take the same times between its stops share one row: all runs of
    // 63% of the shared feeds' stop events (mexico-city's frequencies, most rail lines)
    // and a few rows per route elsewhere (peak and off-peak running times); 5.8 M stop
    // events of all shared feeds in 4.4 MB instead of 46 MB as a matrix of departures and
    // arrivals.
    public let runTimes: [RunTimes]
    public let profiles: [Int32]
    // Route -> 0 when each of its arrivals equals the departure (its rows hold departures
    // only: 97-100% of the stop times of the shared feeds), else its stop count (its rows
    // hold the departures, then the arrivals).
    public let routeArrivalShift: [Int32]
    /// Stop events (a run at a position of its route; frequencies expanded).
    public let stopEventCount: Int
    // Route -> time zone index (into timeZoneNames and dayBase).
    public let routeTimeZone: [Int32]
    // Route -> snapshot route index.
    public let routeSourceRoute: [SourceRouteIndex]
    // Route -> the service all its trips share.
    public let routeService: [ServiceIndex]
    // Route stop position (same indexing as routeStops) -> shape_dist_traveled of its stop
    // time, or NaN (also when the route's trips do not all share one shape).
    public let routeStopShapeDistance: [Float]
    // Route -> its earliest arrival and latest departure at any stop, seconds from its
    // day's base: a search skips a route's day when nothing on it can be boarded (all
    // runs gone before the search starts) or improve on the destination's best.
    public let routeMinArrival: [Int32]
    public let routeMaxDeparture: [Int32]

    // MARK: Trips (frequency-based trips expanded; one entry per run)

    public let tripCount: Int
    // Trip (position in routeTrips order, i.e. routeTripOffsets[r] + j) -> service index.
    public let tripService: [ServiceIndex]
    // Trip -> snapshot trip index.
    public let tripSource: [SourceTripIndex]
    // Trip -> its shape (index in snapshot.shapeIds), or `ShapeIndex.noShape` (`shape(ofTrip:)` says nil).
    public let tripShape: [ShapeIndex]
    // Route -> the days (since firstDay) on which it does not run although its service
    // does: a realtime overlay replaced its trips of that day by routes of their own
    // (updated times, skipped stops, cancelled trips left out):
    // routeRemovedDays[routeRemovedOffsets[r] ..< routeRemovedOffsets[r + 1]]. Both empty
    // when no route has one (the static timetable).
    public let routeRemovedOffsets: [Int32]
    public let routeRemovedDays: [Int32]
    // Runs that neither board nor alight at a stop of their route (a realtime update's
    // SKIPPED stops): route r's flags are tripStopSkipped[routeSkipOffsets[r] ..<
    // routeSkipOffsets[r + 1]], run by run (run * stops + position: a scan reads the run
    // it rides along its stops), or none
    // (an empty range: every run stops everywhere the route does). Both empty when no run
    // skips a stop (the static timetable). Such runs stay in their route, in time order:
    // a route of their own per skipping pattern made a search scan hundreds more routes.
    public let routeSkipOffsets: [Int32]
    public let tripStopSkipped: [Bool]

    // MARK: Service days

    /// The first service date any service can run, minus one day.
    public let firstDay: ServiceDate
    public let dayCount: Int
    /// Words per service in `serviceDays`.
    public let serviceWords: Int
    // Service -> bit set of days since firstDay on which it runs.
    public let serviceDays: [UInt64]
    /// IANA names of the time zones in use.
    public let timeZoneNames: [String]
    // (time zone, day) -> UTC seconds since 1970 of noon minus 12 h of that day: dayBase[tz * dayCount + day].
    public let dayBase: [Int64]

    // MARK: Footpaths and transfer rules

    /// The largest beeline distance of a distance-based footpath candidate (meters).
    public let footpathBeelineMeters: Double
    // Stop -> footpath candidates to other stops: footTarget[footOffsets[s] ..< footOffsets[s + 1]],
    // those with a transfers.txt rule first, then the others by beeline (footIn likewise).
    public let footOffsets: [Int32]
    public let footTarget: [StopIndex]
    // Footpath -> beeline meters (geodesic, WGS84).
    public let footBeeline: [Double]
    // Footpath -> walk meters along streets (the routing model's "Streets"), empty when no
    // streets are loaded: NaN when an end does not snap (the walk is the beeline), +infinity
    // when both snap but no street walk is within `footpathBeelineMeters` × 1.3 (no
    // footpath then, unless a transfers.txt rule makes one: it walks the beeline). Double,
    // as the walk graph gives them: a Float's rounding could cross a whole second of
    // ceil(walkMeters / walkSpeed).
    public let footStreet: [Double]
    // The same for a wheelchair: no steps, no `wheelchair=no`, step-free snaps.
    public let footStreetStepFree: [Double]
    // Footpath -> rule from transfers.txt (TransferRule raw value) and min_transfer_time (seconds, 0 if none).
    public let footRule: [UInt8]
    public let footMinTime: [Int32]
    // Stop -> footpaths arriving there (indexes into the foot* arrays): footIn[footInOffsets[s] ..< footInOffsets[s + 1]].
    public let footInOffsets: [Int32]
    public let footIn: [Int32]
    // Stop -> rule for changing at the stop itself, and its min_transfer_time.
    public let sameStopRule: [UInt8]
    public let sameStopMinTime: [Int32]

    public init(stopCount: Int, stopLatitude: [Double], stopLongitude: [Double], stopBoardable: [Bool], stopFeed: [FeedIndex],
         stopRouteOffsets: [Int32], stopRouteRoute: [RouteIndex], stopRoutePosition: [RoutePosition],
         routeStopOffsets: [Int32], routeStops: [StopIndex], routeCanBoard: [Bool], routeCanAlight: [Bool],
         routeTripOffsets: [Int32], runTimes: [RunTimes], profiles: [Int32], routeArrivalShift: [Int32],
         routeTimeZone: [Int32], routeSourceRoute: [SourceRouteIndex], routeService: [ServiceIndex],
         routeStopShapeDistance: [Float], tripService: [ServiceIndex], tripShape: [ShapeIndex], tripSource: [SourceTripIndex],
         firstDay: ServiceDate, dayCount: Int, serviceWords: Int, serviceDays: [UInt64],
         timeZoneNames: [String], dayBase: [Int64], footpathBeelineMeters: Double,
         footOffsets: [Int32], footTarget: [StopIndex], footBeeline: [Double], footRule: [UInt8], footMinTime: [Int32],
         sameStopRule: [UInt8], sameStopMinTime: [Int32], footStreet: [Double] = [], footStreetStepFree: [Double] = []) {
        precondition(footStreet.isEmpty || footStreet.count == footTarget.count, "one street walk per footpath")
        precondition(footStreetStepFree.count == footStreet.count, "one step-free street walk per footpath")
        self.footStreet = footStreet; self.footStreetStepFree = footStreetStepFree
        self.stopCount = stopCount; self.stopLatitude = stopLatitude; self.stopLongitude = stopLongitude
        self.stopBoardable = stopBoardable; self.stopFeed = stopFeed
        self.stopRouteOffsets = stopRouteOffsets; self.stopRouteRoute = stopRouteRoute; self.stopRoutePosition = stopRoutePosition
        self.routeCount = routeStopOffsets.count - 1
        self.routeStopOffsets = routeStopOffsets; self.routeStops = routeStops
        self.routeCanBoard = routeCanBoard; self.routeCanAlight = routeCanAlight
        self.routeTripOffsets = routeTripOffsets
        precondition(routeArrivalShift.count == routeStopOffsets.count - 1 && runTimes.count == tripService.count, "times for each route and run")
        self.runTimes = runTimes; self.profiles = profiles; self.routeArrivalShift = routeArrivalShift
        self.routeTimeZone = routeTimeZone; self.routeSourceRoute = routeSourceRoute; self.routeService = routeService
        self.routeStopShapeDistance = routeStopShapeDistance; self.tripShape = tripShape
        var minArrival = [Int32](repeating: .max, count: routeStopOffsets.count - 1)
        var maxDeparture = [Int32](repeating: .min, count: routeStopOffsets.count - 1)
        var events = 0
        for r in 0..<(routeStopOffsets.count - 1) {
            let length = Int(routeStopOffsets[r + 1] - routeStopOffsets[r]), shift = Int(routeArrivalShift[r])
            events += length * Int(routeTripOffsets[r + 1] - routeTripOffsets[r])
            for t in Int(routeTripOffsets[r])..<Int(routeTripOffsets[r + 1]) {
                let x = runTimes[t], row = Int(x.row)
                for i in 0..<length {
                    minArrival[r] = min(minArrival[r], x.start &+ profiles[row + shift + i])
                    maxDeparture[r] = max(maxDeparture[r], x.start &+ profiles[row + i])
                }
            }
        }
        self.stopEventCount = events
        self.routeMinArrival = minArrival; self.routeMaxDeparture = maxDeparture
        self.tripCount = tripService.count; self.tripService = tripService; self.tripSource = tripSource
        self.firstDay = firstDay; self.dayCount = dayCount; self.serviceWords = serviceWords; self.serviceDays = serviceDays
        self.timeZoneNames = timeZoneNames; self.dayBase = dayBase
        self.footpathBeelineMeters = footpathBeelineMeters
        self.footOffsets = footOffsets; self.footTarget = footTarget; self.footBeeline = footBeeline
        self.footRule = footRule; self.footMinTime = footMinTime
        // Incoming footpaths, for searches that run backwards in time.
        var inOffsets = [Int32](repeating: 0, count: stopCount + 1)
        for b in footTarget { inOffsets[b.index + 1] += 1 }
        for i in 0..<stopCount { inOffsets[i + 1] += inOffsets[i] }
        var inList = [Int32](repeating: 0, count: footTarget.count)
        var fill = inOffsets
        for f in 0..<footTarget.count { let b = footTarget[f].index; inList[Int(fill[b])] = Int32(f); fill[b] += 1 }
        // Like the outgoing ones: with a rule first, then by length (the order in which
        // backward searches relax them, through `FootpathCosts`).
        for b in 0..<stopCount {
            inList[Int(inOffsets[b])..<Int(inOffsets[b + 1])].sort { x, y in
                let rx = footRule[Int(x)] == TransferRule.none.rawValue ? 1 : 0, ry = footRule[Int(y)] == TransferRule.none.rawValue ? 1 : 0
                return (rx, footBeeline[Int(x)], x) < (ry, footBeeline[Int(y)], y)
            }
        }
        self.footInOffsets = inOffsets
        self.footIn = inList
        self.sameStopRule = sameStopRule; self.sameStopMinTime = sameStopMinTime
        self.routeRemovedOffsets = []; self.routeRemovedDays = []
        self.routeSkipOffsets = []; self.tripStopSkipped = []
    }

    /// `base` with `extra` routes appended (their trips after base's, their services after
    /// base's: `extraServiceDays` holds `serviceWords` words per new service) and routes
    /// taken off single days (`removed`: route of `base`, day since firstDay).
    /// Stops, footpaths, days and base's routes keep their indexes; arrays nothing changes
    /// are shared with `base` (copy-on-write). What a realtime overlay is built with.
    public init(overlaying base: Timetable, extra: TimetableRoutes, extraServiceDays: [UInt64],
                removed: [(route: RouteIndex, day: Int32)]) {
        precondition(extraServiceDays.count % max(1, base.serviceWords) == 0, "whole services")
        stopCount = base.stopCount; stopLatitude = base.stopLatitude; stopLongitude = base.stopLongitude
        stopBoardable = base.stopBoardable; stopFeed = base.stopFeed
        let newRoutes = extra.routeTimeZone.count
        let routeBase = base.routeCount, tripBase = base.tripCount
        routeCount = routeBase + newRoutes
        func shifted(_ offsets: [Int32], by: Int32) -> [Int32] { offsets.dropFirst().map { $0 + by } }
        if newRoutes == 0 {
            stopRouteOffsets = base.stopRouteOffsets; stopRouteRoute = base.stopRouteRoute; stopRoutePosition = base.stopRoutePosition
            routeStopOffsets = base.routeStopOffsets; routeStops = base.routeStops
            routeCanBoard = base.routeCanBoard; routeCanAlight = base.routeCanAlight
            routeTripOffsets = base.routeTripOffsets
            runTimes = base.runTimes; profiles = base.profiles; routeArrivalShift = base.routeArrivalShift
            stopEventCount = base.stopEventCount
            routeTimeZone = base.routeTimeZone; routeSourceRoute = base.routeSourceRoute; routeService = base.routeService
            routeStopShapeDistance = base.routeStopShapeDistance
            routeMinArrival = base.routeMinArrival; routeMaxDeparture = base.routeMaxDeparture
            tripService = base.tripService; tripSource = base.tripSource; tripShape = base.tripShape
        } else {
            routeStopOffsets = base.routeStopOffsets + shifted(extra.routeStopOffsets, by: Int32(base.routeStops.count))
            routeStops = base.routeStops + extra.routeStops
            routeCanBoard = base.routeCanBoard + extra.routeCanBoard
            routeCanAlight = base.routeCanAlight + extra.routeCanAlight
            routeTripOffsets = base.routeTripOffsets + shifted(extra.routeTripOffsets, by: Int32(tripBase))
            // The new routes' times after base's, packed as the builder packs them.
            let packed = Timetable.packTimes(routeStopOffsets: extra.routeStopOffsets, routeTripOffsets: extra.routeTripOffsets,
                                             routeTimeOffsets: extra.routeTimeOffsets, departures: extra.departures, arrivals: extra.arrivals)
            let rowBase = Int32(base.profiles.count)
            runTimes = base.runTimes + packed.runTimes.map { RunTimes(start: $0.start, row: $0.row + rowBase) }
            profiles = base.profiles + packed.profiles
            routeArrivalShift = base.routeArrivalShift + packed.arrivalShift
            stopEventCount = base.stopEventCount + extra.departures.count
            routeTimeZone = base.routeTimeZone + extra.routeTimeZone
            routeSourceRoute = base.routeSourceRoute + extra.routeSourceRoute
            routeService = base.routeService + extra.routeService
            routeStopShapeDistance = base.routeStopShapeDistance + extra.routeStopShapeDistance
            var minArrival = base.routeMinArrival, maxDeparture = base.routeMaxDeparture
            for r in 0..<newRoutes {
                var lo = Int32.max, hi = Int32.min
                for i in Int(extra.routeTimeOffsets[r])..<Int(extra.routeTimeOffsets[r + 1]) {
                    lo = min(lo, extra.arrivals[i]); hi = max(hi, extra.departures[i])
                }
                minArrival.append(lo); maxDeparture.append(hi)
            }
            routeMinArrival = minArrival; routeMaxDeparture = maxDeparture
            tripService = base.tripService + extra.tripService; tripSource = base.tripSource + extra.tripSource
            tripShape = base.tripShape + extra.tripShape
            // Stop -> (route, position): base's lists with the new routes' entries after them.
            var counts = [Int32](repeating: 0, count: base.stopCount + 1)
            for s in 0..<base.stopCount { counts[s + 1] = base.stopRouteOffsets[s + 1] - base.stopRouteOffsets[s] }
            for s in extra.routeStops { counts[s.index + 1] += 1 }
            for i in 0..<base.stopCount { counts[i + 1] += counts[i] }
            var route = [RouteIndex](repeating: RouteIndex(0), count: Int(counts[base.stopCount]))
            var position = [RoutePosition](repeating: RoutePosition(0), count: route.count)
            var fill = counts
            for s in 0..<base.stopCount {
                for i in Int(base.stopRouteOffsets[s])..<Int(base.stopRouteOffsets[s + 1]) {
                    route[Int(fill[s])] = base.stopRouteRoute[i]; position[Int(fill[s])] = base.stopRoutePosition[i]; fill[s] += 1
                }
            }
            for r in 0..<newRoutes {
                let start = Int(extra.routeStopOffsets[r])
                for pos in 0..<(Int(extra.routeStopOffsets[r + 1]) - start) {
                    let s = extra.routeStops[start + pos].index
                    route[Int(fill[s])] = RouteIndex(routeBase + r); position[Int(fill[s])] = RoutePosition(pos); fill[s] += 1
                }
            }
            stopRouteOffsets = counts; stopRouteRoute = route; stopRoutePosition = position
        }
        tripCount = tripService.count
        firstDay = base.firstDay; dayCount = base.dayCount; serviceWords = base.serviceWords
        serviceDays = extraServiceDays.isEmpty ? base.serviceDays : base.serviceDays + extraServiceDays
        timeZoneNames = base.timeZoneNames; dayBase = base.dayBase
        footpathBeelineMeters = base.footpathBeelineMeters
        footOffsets = base.footOffsets; footTarget = base.footTarget; footBeeline = base.footBeeline
        footStreet = base.footStreet; footStreetStepFree = base.footStreetStepFree
        footRule = base.footRule; footMinTime = base.footMinTime
        footInOffsets = base.footInOffsets; footIn = base.footIn
        sameStopRule = base.sameStopRule; sameStopMinTime = base.sameStopMinTime
        if extra.tripStopSkipped.isEmpty {
            routeSkipOffsets = []; tripStopSkipped = []
        } else {
            routeSkipOffsets = [Int32](repeating: 0, count: routeBase + 1) + extra.routeSkipOffsets.dropFirst()
            tripStopSkipped = extra.tripStopSkipped
        }
        if removed.isEmpty {
            routeRemovedOffsets = []; routeRemovedDays = []
        } else {
            var offsets = [Int32](repeating: 0, count: routeCount + 1)
            for x in removed { offsets[x.route.index + 1] += 1 }
            for i in 0..<routeCount { offsets[i + 1] += offsets[i] }
            var days = [Int32](repeating: 0, count: removed.count)
            var fill = offsets
            for x in removed { days[Int(fill[x.route.index])] = x.day; fill[x.route.index] += 1 }
            routeRemovedOffsets = offsets; routeRemovedDays = days
        }
    }

    /// Every stop event's departure (or arrival), route by route, position by position,
    /// run by run: the matrix a timetable would keep without `packTimes` (for tests and
    /// checks; the router reads `runTimes` and `profiles`).
    public func stopEventTimes(arrivals: Bool) -> [Int32] {
        var out: [Int32] = []
        out.reserveCapacity(stopEventCount)
        for r in 0..<routeCount {
            let length = Int(routeStopOffsets[r + 1] - routeStopOffsets[r]), runs = Int(routeTripOffsets[r + 1] - routeTripOffsets[r])
            for i in 0..<length {
                for j in 0..<runs { out.append(arrivals ? arrival(route: r, position: i, run: j) : departure(route: r, position: i, run: j)) }
            }
        }
        return out
    }

    /// Routes' times as a timetable keeps them (`runTimes`, `profiles`, `routeArrivalShift`),
    /// from a matrix per route (departures and arrivals of run j at position i at
    /// `routeTimeOffsets[r] + i * runs + j`): each run's first departure and its times from
    /// there, one row per distinct list of them within a route.
    public static func packTimes(routeStopOffsets: [Int32], routeTripOffsets: [Int32], routeTimeOffsets: [Int32],
                                 departures: [Int32], arrivals: [Int32])
        -> (runTimes: [RunTimes], profiles: [Int32], arrivalShift: [Int32]) {
        precondition(departures.count == arrivals.count, "one arrival per departure")
        let routes = routeStopOffsets.count - 1
        var runTimes: [RunTimes] = [], profiles: [Int32] = [], shifts = [Int32](repeating: 0, count: max(0, routes))
        runTimes.reserveCapacity(Int(routeTripOffsets.last ?? 0))
        var row: [Int32] = []
        for r in 0..<max(0, routes) {
            let length = Int(routeStopOffsets[r + 1] - routeStopOffsets[r]), runs = Int(routeTripOffsets[r + 1] - routeTripOffsets[r])
            let column = Int(routeTimeOffsets[r])
            let withArrivals = departures[column..<(column + length * runs)] != arrivals[column..<(column + length * runs)]
            shifts[r] = withArrivals ? Int32(length) : 0
            // This route's rows so far: row -> its start in `profiles`.
            var rows: [[Int32]: Int32] = [:]
            for j in 0..<runs {
                let start = departures[column + j]
                row.removeAll(keepingCapacity: true)
                for i in 0..<length { row.append(departures[column + i * runs + j] &- start) }
                if withArrivals { for i in 0..<length { row.append(arrivals[column + i * runs + j] &- start) } }
                if let at = rows[row] { runTimes.append(RunTimes(start: start, row: at)); continue }
                let at = Int32(profiles.count)
                rows[row] = at
                profiles.append(contentsOf: row)
                runTimes.append(RunTimes(start: start, row: at))
            }
        }
        return (runTimes, profiles, shifts)
    }

    /// Run `t`'s (a trip index) time at `offset` of its row: its departure at position i
    /// for offset i, its arrival there for offset `routeArrivalShift[its route]` + i.
    @inlinable
    public func runTime(_ t: Int, _ offset: Int) -> Int32 {
        let x = runTimes[t]
        return x.start &+ profiles[Int(x.row) &+ offset]
    }

    /// The departure and arrival of run `j` (within route `r`) at `position`, seconds from its day's base.
    @inlinable
    public func departure(route r: Int, position: Int, run j: Int) -> Int32 {
        runTime(Int(routeTripOffsets[r]) &+ j, position)
    }
    @inlinable
    public func arrival(route r: Int, position: Int, run j: Int) -> Int32 {
        runTime(Int(routeTripOffsets[r]) &+ j, Int(routeArrivalShift[r]) &+ position)
    }

    /// Footpath -> its origin stop (made when asked: the searches read the incoming
    /// footpaths' origins from `FootpathCosts`, and 643 k footpaths of all shared feeds
    /// kept 2.6 MB for it).
    public func footSources() -> [StopIndex] {
        var source = [StopIndex](repeating: StopIndex(0), count: footTarget.count)
        for a in 0..<stopCount { for f in Int(footOffsets[a])..<Int(footOffsets[a + 1]) { source[f] = StopIndex(a) } }
        return source
    }

    /// Where route `r`'s skipped-stop flags start in `tripStopSkipped`, or -1 when every
    /// run of it stops everywhere the route does.
    @inlinable
    public func skipBase(_ r: Int) -> Int {
        guard !routeSkipOffsets.isEmpty, routeSkipOffsets[r] < routeSkipOffsets[r + 1] else { return -1 }
        return Int(routeSkipOffsets[r])
    }

    /// Whether run `j` of route `r` stops (may board or alight, as the route allows) at
    /// position `position`.
    @inlinable
    public func runStops(_ j: Int, ofRoute r: Int, at position: Int) -> Bool {
        let b = skipBase(r)
        return b < 0 || !tripStopSkipped[b + j * Int(routeStopOffsets[r + 1] - routeStopOffsets[r]) + position]
    }

    /// Whether route `r` is taken off day `day` (days since firstDay) by a realtime overlay.
    @inlinable
    public func routeRemoved(_ r: Int, day: Int) -> Bool {
        guard !routeRemovedOffsets.isEmpty else { return false }
        var i = Int(routeRemovedOffsets[r])
        let end = Int(routeRemovedOffsets[r + 1])
        while i < end { if Int(routeRemovedDays[i]) == day { return true }; i += 1 }
        return false
    }

    /// Whether service `s` runs on day `day` (days since `firstDay`).
    @inlinable
    public func serviceRuns(_ s: ServiceIndex, day: Int) -> Bool {
        guard day >= 0 && day < dayCount else { return false }
        return serviceDays[s.index * serviceWords + day >> 6] & (1 << UInt64(day & 63)) != 0
    }

    /// Route -> whether its service runs on any day of the timetable.
    public func routesWithService() -> [Bool] {
        (0..<routeCount).map { r in (0..<dayCount).contains { serviceRuns(routeService[r], day: $0) } }
    }

    /// Stop -> whether a route with service stops there (what coverage regions are made of).
    public func stopsWithService(routes: [Bool]? = nil) -> [Bool] {
        let routes = routes ?? routesWithService()
        var served = [Bool](repeating: false, count: stopCount)
        for r in 0..<routeCount where routes[r] {
            for i in Int(routeStopOffsets[r])..<Int(routeStopOffsets[r + 1]) { served[routeStops[i].index] = true }
        }
        return served
    }

    /// The feed routes (`snapshot.routes` indices) through these stops, each once, in the
    /// order met: what a stop search lists for a stop or a station with its platforms.
    public func sourceRoutes(through stops: [StopIndex]) -> [SourceRouteIndex] {
        var seen = Set<SourceRouteIndex>(), out: [SourceRouteIndex] = []
        for s in stops {
            for i in Int(stopRouteOffsets[s.index])..<Int(stopRouteOffsets[s.index + 1]) {
                let source = routeSourceRoute[stopRouteRoute[i].index]
                if seen.insert(source).inserted { out.append(source) }
            }
        }
        return out
    }

    /// The shape trip `t` follows, if it names one.
    public func shape(ofTrip t: TripIndex) -> ShapeIndex? {
        let shape = tripShape[t.index]
        return shape == .noShape ? nil : shape
    }

    /// The stop at `position` on route `r`.
    @inlinable
    public func stop(onRoute r: RouteIndex, at position: RoutePosition) -> StopIndex {
        routeStops[Int(routeStopOffsets[r.index]) + position.index]
    }

    /// Route `r`'s stops, in order (indexed from `routeStopOffsets[r]`, not 0).
    @inlinable
    public func stops(onRoute r: RouteIndex) -> ArraySlice<StopIndex> {
        routeStops[Int(routeStopOffsets[r.index])..<Int(routeStopOffsets[r.index + 1])]
    }

    /// The timetable trip that is the `j`-th (0-based, by departure) of route `r`.
    @inlinable
    public func trip(_ j: Int, ofRoute r: RouteIndex) -> TripIndex {
        TripIndex(raw: routeTripOffsets[r.index] &+ Int32(truncatingIfNeeded: j))
    }
}

/// A run's first departure and where its times from there are (`Timetable.runTimes`).
@frozen
public struct RunTimes: Sendable, Equatable, BitwiseCopyable {
    public var start: Int32
    public var row: Int32
    @inlinable public init(start: Int32, row: Int32) { self.start = start; self.row = row }
}

/// Routes to append to a timetable (`Timetable(overlaying:extra:extraServiceDays:removed:)`),
/// laid out as the timetable lays out its own, with offsets from 0 and indexes of stops,
/// services, source routes and trips as in the full timetable.
public struct TimetableRoutes: Sendable {
    public var routeStopOffsets: [Int32] = [0]
    public var routeStops: [StopIndex] = []
    public var routeCanBoard: [Bool] = [], routeCanAlight: [Bool] = []
    public var routeTripOffsets: [Int32] = [0]
    public var routeTimeOffsets: [Int32] = [0]
    public var departures: [Int32] = [], arrivals: [Int32] = []
    public var routeTimeZone: [Int32] = []
    public var routeSourceRoute: [SourceRouteIndex] = []
    public var routeService: [ServiceIndex] = []
    public var routeStopShapeDistance: [Float] = []
    public var tripService: [ServiceIndex] = [], tripSource: [SourceTripIndex] = [], tripShape: [ShapeIndex] = []
    /// As the timetable's (offsets from 0; the flags empty when no run skips a stop).
    public var routeSkipOffsets: [Int32] = [0], tripStopSkipped: [Bool] = []
    public init() {}
}

/// How a transfers.txt row changes a change between two stops (or at one stop).
public enum TransferRule: UInt8, Sendable {
    /// No row: walk (if another stop) plus `transferSlack`.
    case none = 0
    /// transfer_type 0 (or another value than 1–3): as `none`, but the footpath exists
    /// whatever its length.
    case recommended = 1
    /// transfer_type 1: timed, no slack.
    case timed = 2
    /// transfer_type 2: max(walk + slack, min_transfer_time).
    case minimumTime = 3
    /// transfer_type 3: not possible.
    case forbidden = 4
}
