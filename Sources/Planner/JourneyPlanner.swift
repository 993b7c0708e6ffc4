import FeedNetwork
import Foundation
import Geo
import Raptor
import Realtime
import Streets
import Timetable
import TransitModel

/// Where a trip starts or ends.
public enum Place: Sendable, Equatable, CustomStringConvertible {
    case coordinate(Coordinate)
    /// A stop by id; `feed` scopes it when several feeds use the same id.
    case stop(feed: String?, id: String)

    /// Parses `lat,lon`, `stop:ID` or `stop:FEED:ID`.
    public static func parse(_ text: String) -> Place? {
        let t = text.trimmingCharacters(in: .whitespaces)
        if t.hasPrefix("stop:") {
            let rest = t.dropFirst(5)
            guard !rest.isEmpty else { return nil }
            // stop:FEED:ID only when FEED is a loaded feed id; the planner checks.
            return .stop(feed: nil, id: String(rest))
        }
        let parts = t.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        guard parts.count == 2, let lat = Double(parts[0]), let lon = Double(parts[1]) else { return nil }
        let c = Coordinate(latitude: lat, longitude: lon)
        return c.isValid ? .coordinate(c) : nil
    }

    public var description: String {
        switch self {
        case .coordinate(let c): return "\(c.latitude),\(c.longitude)"
        case .stop(let feed, let id): return feed.map { "stop:\($0):\(id)" } ?? "stop:\(id)"
        }
    }
}

/// When: an instant, or a local date and time in the query's time zone.
public enum QueryTime: Sendable, Equatable {
    /// UTC seconds since 1970.
    case instant(Int64)
    /// A wall-clock time, read in the zone of the first agency of the feed whose stop is
    /// nearest the origin.
    case local(year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int)

    /// Parses ISO 8601: `2020-04-20T08:30:00` (local) or with `Z` / `+02:00` (an instant).
    public static func parse(_ text: String) -> QueryTime? {
        let t = text.trimmingCharacters(in: .whitespaces)
        let scalars = Array(t.utf8)
        guard scalars.count >= 16 else { return nil }
        // Digits only: Int("-8") let "08:-8" through as minute -8 (a fuzz finding; see
        // FuzzRegressionTests in RaptorTests).
        func num(_ a: Int, _ b: Int) -> Int? {
            guard scalars[a..<b].allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else { return nil }
            return Int(String(decoding: scalars[a..<b], as: UTF8.self))
        }
        guard scalars[4] == UInt8(ascii: "-"), scalars[7] == UInt8(ascii: "-"),
              scalars[10] == UInt8(ascii: "T") || scalars[10] == UInt8(ascii: " "), scalars[13] == UInt8(ascii: ":"),
              let y = num(0, 4), let mo = num(5, 7), let d = num(8, 10), let h = num(11, 13), let mi = num(14, 16),
              ServiceDate(year: y, month: mo, day: d) != nil, h < 24, mi < 60 else { return nil }
        var i = 16, sec = 0
        if i < scalars.count && scalars[i] == UInt8(ascii: ":") {
            guard i + 3 <= scalars.count, let s = num(i + 1, i + 3), s < 60 else { return nil }
            sec = s; i += 3
        }
        let local = QueryTime.local(year: y, month: mo, day: d, hour: h, minute: mi, second: sec)
        if i == scalars.count { return local }
        let date = Int64(ServiceDate(year: y, month: mo, day: d)!.daysSinceEpoch) * 86_400 + Int64(h * 3600 + mi * 60 + sec)
        if scalars.count == i + 1 && scalars[i] == UInt8(ascii: "Z") { return .instant(date) }
        // ±HH:MM, a real offset (RFC 3339: hours to 23, minutes to 59).
        guard scalars.count == i + 6, scalars[i] == UInt8(ascii: "+") || scalars[i] == UInt8(ascii: "-"),
              scalars[i + 3] == UInt8(ascii: ":"), let oh = num(i + 1, i + 3), let om = num(i + 4, i + 6),
              oh < 24, om < 60 else { return nil }
        let offset = Int64(oh * 3600 + om * 60) * (scalars[i] == UInt8(ascii: "-") ? -1 : 1)
        return .instant(date - offset)
    }
}

/// One plan request: checked when built by the planner.
public struct PlanQuery: Sendable {
    public var from: Place
    public var to: Place
    public var time: QueryTime
    public var arriveBy: Bool
    public var parameters: RoutingParameters
    /// Seconds. `plan`: every Pareto-optimal journey departing within this window after
    /// `time` (a range query) instead of the model's answer at `time`. `answer`: how far
    /// after (arrive-by: before) `time` later (earlier) departures are offered as
    /// alternatives; nil there means an hour, 0 none.
    public var window: Int?
    /// Transit modes that may be ridden; nil: all.
    public var modes: ModeFilter?
    /// Only stops and trips marked wheelchair accessible (unknown counts as not).
    public var wheelchair: Bool
    /// `answer`: once `DispatchTime.now().uptimeNanoseconds` passes this, no further
    /// searches for alternatives start (the answer says so); nil: no limit. A server's
    /// per-request time budget.
    public var deadline: UInt64? = nil
    /// Walk along the streets where they are loaded (the routing model's "Streets"); false:
    /// every walk is a beeline, as without streets (for comparisons and the benchmark).
    public var streets: Bool
    /// Route on the realtime state the planner is given (`plan(_:realtime:)`), when there
    /// is one; false: on the static timetable alone (the routing model's "Realtime").
    public var realtime: Bool
    public init(from: Place, to: Place, time: QueryTime, arriveBy: Bool = false, parameters: RoutingParameters = RoutingParameters(),
                window: Int? = nil, modes: ModeFilter? = nil, wheelchair: Bool = false, streets: Bool = true, realtime: Bool = true) {
        self.from = from; self.to = to; self.time = time; self.arriveBy = arriveBy; self.parameters = parameters
        self.window = window; self.modes = modes; self.wheelchair = wheelchair; self.streets = streets; self.realtime = realtime
    }
}

/// A value in an error's or a notice's details (JSON-shaped).
public indirect enum PlanDetail: Sendable, Equatable {
    case text(String)
    case number(Double)
    case flag(Bool)
    case list([PlanDetail])
    case object([String: PlanDetail])
}

/// Why a request has no itinerary: the request could not be read or names what is not
/// there, or it was read and nothing answers it. The raw values are the API's error codes.
public enum PlanReason: String, Sendable, CaseIterable {
    /// A parameter out of its range or not of its form.
    case badParameter = "BAD_PARAMETER"
    /// A request that could not be read at all (a `--batch` line that is not a query).
    case badQuery = "BAD_QUERY"
    /// `stop:ID` names no stop.
    case unknownStop = "UNKNOWN_STOP"
    /// `stop:ID` names stops in several feeds.
    case ambiguousStop = "AMBIGUOUS_STOP"
    /// The stop named has no coordinates.
    case stopWithoutLocation = "STOP_WITHOUT_LOCATION"
    /// Origin and destination are the same place.
    case samePlace = "SAME_PLACE"
    /// An end is outside every coverage region (or outside those with service that day).
    case outsideCoverage = "OUTSIDE_COVERAGE"
    /// The request's walking limit or wheelchair filter leaves no stop near an end.
    case noStopNearby = "NO_STOP_NEARBY"
    /// No feed serving either end runs on the query's days.
    case outsideServicePeriod = "OUTSIDE_SERVICE_PERIOD"
    /// Stops and service at both ends, but nothing connects them within the limits.
    case noConnection = "NO_CONNECTION"
    /// `modes` allows none of the modes that run in the feeds serving the ends.
    case modeNotInRegion = "MODE_NOT_IN_REGION"
    /// `wheelchair`: the feeds serving the ends carry no accessibility data at all.
    case noAccessibilityData = "NO_ACCESSIBILITY_DATA"
}

/// Why a plan has no itinerary: the reason, a plain sentence, and details a program can use.
public struct PlanError: Error, Sendable, Equatable, CustomStringConvertible {
    public let code: PlanReason
    /// In English.
    public let message: String
    public let details: [String: PlanDetail]
    /// The message in every language, for a refusal a rider can meet (a request's own
    /// mistakes, such as a bad parameter, are told in English only).
    public let localized: Localized?
    public init(_ code: PlanReason, _ message: String, details: [String: PlanDetail] = [:]) {
        self.code = code; self.message = message; self.details = details; localized = nil
    }
    public init(_ code: PlanReason, _ text: Localized, details: [String: PlanDetail] = [:]) {
        self.code = code; message = text.english; self.details = details; localized = text
    }
    /// The message in `language` (English where it has no other).
    public func message(_ language: Language) -> String { localized?[language] ?? message }
    public var description: String { "\(code.rawValue): \(message)" }
}

/// Which transit modes a plan may use: `BUS,TRAM` (only these) or `-BUS` (all but these).
public struct ModeFilter: Sendable, Equatable, CustomStringConvertible {
    public var allowed: Set<LegMode>

    public init(allowed: Set<LegMode>) { self.allowed = allowed.subtracting([.walk]) }

    /// Parses a comma-separated list of modes (`BUS`, `TRAM`, `SUBWAY`/`METRO`, `RAIL`/`TRAIN`,
    /// …, any case); a leading `-` or `!` on every item excludes them instead.
    public static func parse(_ text: String) throws(PlanError) -> ModeFilter {
        let items = text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        let allowedNames = LegMode.allCases.filter { $0 != .walk }.map(\.rawValue).joined(separator: ", ")
        guard !items.isEmpty else {
            throw PlanError(.badParameter, "modes is empty: give a list such as BUS,TRAM or -BUS (allowed: \(allowedNames))",
                            details: ["parameter": .text("modes")])
        }
        let excluding = items.allSatisfy { $0.hasPrefix("-") || $0.hasPrefix("!") }
        var set = Set<LegMode>()
        for item in items {
            guard let mode = mode(named: excluding ? String(item.dropFirst()) : item) else {
                throw PlanError(.badParameter, "modes: \"\(item)\" is not a transit mode (allowed: \(allowedNames), or the "
                                + "common names \(aliasNames); prefix every item with - to exclude)",
                                details: ["parameter": .text("modes"), "value": .text(item)])
            }
            set.insert(mode)
        }
        return ModeFilter(allowed: excluding ? Set(LegMode.allCases).subtracting(set) : set)
    }

    /// The common names of modes beside `LegMode`'s own (docs/routing-model.md, "Coverage
    /// regions"): what riders and other planners call them. Keys as `mode(named:)` reads
    /// names: upper case, `-` and spaces as `_`.
    public static let aliases: KeyValuePairs<String, LegMode> = [
        "METRO": .subway, "UNDERGROUND": .subway, "TUBE": .subway,
        "TRAIN": .rail,
        "STREETCAR": .tram, "LIGHT_RAIL": .tram, "LIGHTRAIL": .tram,
        "BOAT": .ferry, "WATER_TAXI": .ferry,
        "CABLE_CAR": .cableTram,
        "AERIAL_LIFT": .gondola, "CABLE_WAY": .gondola,
        "TROLLEY": .trolleybus,
        "PLANE": .air, "AIR": .air,
    ]
    static let aliasNames = aliases.map { $0.key.lowercased() }.joined(separator: ", ")

    /// The transit mode a name means: a `LegMode` name or a common one, in any case, with
    /// `-`, `_` or a space alike (`light-rail`, `Light Rail`, `LIGHT_RAIL`); nil for walking
    /// and for names it does not know.
    public static func mode(named name: String) -> LegMode? {
        let key = name.trimmingCharacters(in: .whitespaces).uppercased()
            .replacingOccurrences(of: "-", with: "_").replacingOccurrences(of: " ", with: "_")
        guard let mode = LegMode(rawValue: key) ?? aliases.first(where: { $0.key == key })?.value, mode != .walk else { return nil }
        return mode
    }

    public var description: String {
        LegMode.allCases.filter { allowed.contains($0) }.map(\.rawValue).joined(separator: ",")
    }

    /// "using only tram and bus", "without metro".
    public var sentence: String { sentence(.en) }

    public func sentence(_ language: Language) -> String {
        let transit = LegMode.allCases.filter { $0 != .walk }
        let on = transit.filter { allowed.contains($0) }, off = transit.filter { !allowed.contains($0) }
        func list(_ m: [LegMode]) -> String { Words.list(m.map { $0.noun(language) }, language) }
        if on.isEmpty { return Catalogue.text("reason.noTransit", language) }
        return on.count <= off.count ? Catalogue.text("reason.onlyModes", language, ["modes": list(on)])
            : Catalogue.text("reason.withoutModes", language, ["modes": list(off)])
    }
}

/// A journey as the planner answers it.
public struct Journey: Sendable, Equatable {
    /// UTC seconds since 1970.
    public var departure: Int64
    public var arrival: Int64
    /// 0 for the walk-only journey.
    public var rides: Int
    /// Rides, changes, and walks; a walk-only journey has no legs here (see `walkMeters`).
    public var legs: [RaptorLeg]
    /// For the walk-only journey: its length in meters.
    public var walkMeters: Double?
    /// Leg -> the ride's realtime facts (nil: not a ride, or no applied update names its
    /// trip and date); empty when no ride has any. Rides found on a realtime overlay name
    /// the static route and trip they stand for, with the expected times.
    public var legRealtime: [RideRealtime?] = []
}

extension Journey {
    init(_ j: RaptorJourney) {
        self.init(departure: j.departure, arrival: j.arrival, rides: j.rides, legs: j.legs, walkMeters: nil)
    }
}

public struct PlanResult: Sendable {
    public var journeys: [Journey]
    /// The query's time zone (IANA name) and the UTC instant the query time meant.
    public var timeZone: String
    public var time: Int64
    public var origin: Coordinate
    public var destination: Coordinate
    /// The routing model's parameters the plan used.
    public var parameters: RoutingParameters = RoutingParameters()
    /// How the plan walked: along these streets (nil: beelines), step-free for a
    /// wheelchair, from and to where the ends snapped (nil: an end walks beelines).
    public var streets: WalkGraph? = nil
    public var wheelchair = false
    public var originSnap: StreetSnap? = nil
    public var destinationSnap: StreetSnap? = nil
}

/// The stops near one end of a trip, from one spatial look-up: every boardable stop within
/// `radius` (geodesic), nearest first (ties by index), and the nearest stop of all. The
/// walks, the coverage check, the time zone and the reasons for no itinerary all read
/// this, so a request searches the stop grids once per end (a second time only when no
/// stop is within the radius, for the nearest one farther away).
struct NearbyStops: Sendable {
    let point: Coordinate
    let radius: Double
    /// Within `radius`, by (meters, stop).
    let stops: [(stop: StopIndex, meters: Double)]
    /// The nearest boardable stop over all feeds (nil: none has coordinates).
    let nearest: (stop: StopIndex, meters: Double)?
    /// The streets walked when the request walks along them (nil: beelines), step-free
    /// for a wheelchair, and where the place snaps (nil: every walk from here is a beeline).
    let streets: WalkGraph?
    let wheelchair: Bool
    let snap: StreetSnap?
    /// With `snap`: the street walks to the stops within `streetLimit` (a prefix of
    /// `stops`; a street walk is never shorter than the beeline), found by one bounded
    /// search: meters, NaN where the stop does not snap (the beeline then), +infinity where
    /// no street walk is within the limit.
    let streetMeters: [Double]
    let streetLimit: Double

    init(_ point: Coordinate, radius: Double, network: TransitNetwork, streets: WalkGraph? = nil, wheelchair: Bool = false,
         streetLimit: Double = 0) {
        self.point = point
        self.radius = radius
        stops = network.stopsNear(point, beelineMeters: radius)
        nearest = stops.first ?? network.nearestStop(point)
        self.wheelchair = wheelchair
        let limit = min(streetLimit, radius)
        self.streetLimit = limit
        self.streets = streets
        guard let streets, let snap = streets.snap(point, wheelchair: wheelchair) else {
            self.snap = nil; streetMeters = []
            return
        }
        self.snap = snap
        let reach = stops.prefix { $0.meters <= limit }
        var meters = [Double](repeating: .nan, count: reach.count)
        var targets: [StreetSnap] = [], slots: [Int] = []
        for (i, s) in reach.enumerated() {
            if let t = network.snap(ofStop: s.stop, wheelchair: wheelchair) { targets.append(t); slots.append(i) }
        }
        if !targets.isEmpty {
            for (i, m) in zip(slots, streets.walkMeters(from: snap, to: targets, limit: limit, wheelchair: wheelchair)) {
                meters[i] = m ?? .infinity
            }
        }
        streetMeters = meters
    }

    /// The stops within `meters` (at most `radius`), nearest first: what
    /// `Timetable.stopsNear(point, beelineMeters: meters)` gives, without searching again.
    func within(_ meters: Double) -> ArraySlice<(stop: StopIndex, meters: Double)> {
        precondition(meters <= radius, "asked for \(meters) m of stops looked up within \(radius) m")
        return stops.prefix { $0.meters <= meters }
    }
}

/// A plan request's places, resolved once: both ends' coordinates and nearby stops, and the
/// time zone a local query time is read in (that of the stop nearest the origin).
struct ResolvedPlaces: Sendable {
    let origin: NearbyStops
    let destination: NearbyStops
    let zoneName: String
}

/// Turns a plan request into a router request and back: places, times and time zones,
/// walks to and from stops, the walk-only journey.
public final class JourneyPlanner: Sendable {
    /// The timetable and what is kept beside it (names, shapes, the stop grids).
    public let network: TransitNetwork
    /// The routing arrays (`network.timetable`).
    public let timetable: Timetable
    public let router: RaptorRouter
    // stop_id -> stop indexes (several feeds may use one id).
    private let stopsById: [String: [Int32]]
    private let feedIndex: [String: Int32]
    /// Time zones by name, made once: creating a TimeZone per query costs a lookup in
    /// Foundation's shared zone cache on every request.
    private let zones: [String: TimeZone]
    /// The time zone of this name, made once when the planner was built (UTC if unknown).
    func zone(_ name: String) -> TimeZone { zones[name] ?? zones["UTC"]! }
    /// Timetable route -> its transit mode.
    let routeMode: [LegMode]
    /// Stop -> marked wheelchair accessible (its own wheelchair_boarding, else its parent
    /// station's); timetable trip -> marked accessible. Unknown counts as not.
    let accessibleStops: [Bool]
    let accessibleTrips: [Bool]
    /// Feed index -> first and last date with any service (nil: none at all).
    public let servicePeriods: [(first: ServiceDate, last: ServiceDate)?]
    /// Where each route's stops lie on its shape, worked out on first use.
    let shapeCuts = ShapeCutCache()
    /// Stop -> served by some trip on some day (it makes its feed's coverage region).
    let servedStops: [Bool]
    /// Feed index -> its agencies' names, joined (the region's name).
    let feedNames: [String]
    /// Counted once: every wheelchair answer says how much is unknown.
    let unknownAccessibility: (stops: Int, boardableStops: Int, trips: Int, allTrips: Int)
    /// Trips a day at each stop, each feed's network and its outlying places
    /// (docs/routing-model.md, "Coverage regions"): what the coverage check reads.
    public let serviceLevels: ServiceLevels
    /// Feed index -> some stop of it, and some trip, carries accessibility data.
    let feedHasAccessibilityData: [(stops: Bool, trips: Bool)]
    /// Feed index -> the transit modes of its routes with trips.
    let feedModes: [Set<LegMode>]
    /// The router and filters of the last realtime state asked for.
    let realtimeCache = RealtimeRoutingCache()

    public init(network: TransitNetwork) {
        self.network = network
        let timetable = network.timetable
        self.timetable = timetable
        router = RaptorRouter(timetable: timetable)
        var byId: [String: [Int32]] = [:]
        for (i, s) in network.snapshot.stops.enumerated() { byId[s.stopId, default: []].append(Int32(i)) }
        stopsById = byId
        feedIndex = Dictionary(uniqueKeysWithValues: network.snapshot.feedIds.enumerated().map { ($1, Int32($0)) })
        var zones: [String: TimeZone] = ["UTC": TimeZone(identifier: "UTC")!]
        for a in network.snapshot.agencies { zones[a.timezone] = TimeZone(identifier: a.timezone) ?? zones["UTC"]! }
        self.zones = zones
        let snapshot = network.snapshot
        routeMode = timetable.routeSourceRoute.map { LegMode(routeType: Int(snapshot.routes[$0.index].type)) }
        accessibleStops = snapshot.stops.map { s in
            let own = s.wheelchairBoarding
            return own == 1 || (own == 0 && s.parent >= 0 && snapshot.stops[Int(s.parent)].wheelchairBoarding == 1)
        }
        accessibleTrips = timetable.tripSource.map { snapshot.trips[$0.index].wheelchairAccessible == 1 }
        var periods: [(first: ServiceDate, last: ServiceDate)?] = Array(repeating: nil, count: snapshot.feedIds.count)
        for (i, service) in snapshot.services.enumerated() {
            var first = -1, last = -1
            for day in 0..<timetable.dayCount where timetable.serviceRuns(ServiceIndex(i), day: day) {
                if first < 0 { first = day }
                last = day
            }
            guard first >= 0 else { continue }
            let a = timetable.firstDay.adding(days: first), b = timetable.firstDay.adding(days: last)
            let f = Int(service.feed)
            periods[f] = periods[f].map { (min($0.first, a), max($0.last, b)) } ?? (a, b)
        }
        servicePeriods = periods
        servedStops = timetable.stopsWithService()
        unknownAccessibility = Self.countUnknownAccessibility(network)
        feedNames = snapshot.feedIds.indices.map { snapshot.regionName(feed: $0) }
        serviceLevels = ServiceLevels(network)
        feedHasAccessibilityData = Self.accessibilityData(network)
        feedModes = Self.modesByFeed(network, routeMode: routeMode)
    }

    /// The local date D of a query and the timetable days the model rides (D − 1, D, D + 1),
    /// a local time read in `zoneName`.
    func when(_ time: QueryTime, zoneName: String) -> (t: Int64, zone: String, date: ServiceDate, days: [Int]) {
        let zone = zones[zoneName] ?? zones["UTC"]!
        let t: Int64
        switch time {
        case .instant(let u): t = u
        case .local(let y, let mo, let d, let h, let mi, let s):
            let l = Int64(ServiceDate(year: y, month: mo, day: d)!.daysSinceEpoch) * 86_400 + Int64(h * 3600 + mi * 60 + s)
            t = JourneyPlanner.instant(localSeconds: l, zone: zone)
        }
        let localDate = JourneyPlanner.localDate(t, zone)
        let d = Int(localDate.daysSinceEpoch - timetable.firstDay.daysSinceEpoch)
        return (t, zoneName, localDate, [d - 1, d, d + 1])
    }

    /// Both places of a query and the stops near them: one spatial look-up per end, wide
    /// enough for the request's walks and for the coverage regions' radius.
    func resolve(_ query: PlanQuery) throws(PlanError) -> ResolvedPlaces {
        let origin = try coordinate(of: query.from), destination = try coordinate(of: query.to)
        let p = query.parameters
        // Parameters that do not validate plan no walks (`plan` refuses them first): the
        // coverage radius is all that is looked up then.
        let valid = (try? p.validate(footpathBeelineMeters: timetable.footpathBeelineMeters)) != nil
        // Along streets the walk limit is the beeline radius itself (a street walk is never
        // shorter than the beeline; stops that do not snap walk beelines, within it).
        let streets = valid && query.streets ? network.streets : nil
        let walkRadius = streets == nil ? p.maxAccessWalk / p.walkDetourFactor + 1 : p.maxAccessWalk + 1
        let radius = valid ? max(Self.coverageRadius, walkRadius) : Self.coverageRadius
        func near(_ c: Coordinate) -> NearbyStops {
            NearbyStops(c, radius: radius, network: network, streets: streets, wheelchair: query.wheelchair, streetLimit: p.maxAccessWalk)
        }
        let a = near(origin)
        return ResolvedPlaces(origin: a, destination: near(destination), zoneName: timeZone(nearest: a.nearest))
    }

    /// The rides a query may use (modes, wheelchair).
    public func rideFilter(modes: ModeFilter?, wheelchair: Bool) -> RideFilter {
        RideFilter(routes: modes.map { m in routeMode.map { m.allowed.contains($0) } },
                   trips: wheelchair ? accessibleTrips : nil, stops: wheelchair ? accessibleStops : nil)
    }

    /// How many boardable stops and trips have no accessibility information (they count
    /// as not accessible), and how many there are.
    public func accessibilityUnknown() -> (stops: Int, boardableStops: Int, trips: Int, allTrips: Int) { unknownAccessibility }

    static func countUnknownAccessibility(_ network: TransitNetwork) -> (stops: Int, boardableStops: Int, trips: Int, allTrips: Int) {
        let snapshot = network.snapshot
        var stops = 0, boardable = 0
        for (i, s) in snapshot.stops.enumerated() where network.timetable.stopBoardable[i] {
            boardable += 1
            if s.wheelchairBoarding == 0 && (s.parent < 0 || snapshot.stops[Int(s.parent)].wheelchairBoarding == 0) { stops += 1 }
        }
        let trips = snapshot.trips.reduce(0) { $0 + ($1.wheelchairAccessible == 0 ? 1 : 0) }
        return (stops, boardable, trips, snapshot.trips.count)
    }

    /// The stop a place names, if it is a stop.
    public func resolveStop(_ feed: String?, _ id: String) throws(PlanError) -> StopIndex {
        var feed = feed, id = id
        // stop:FEED:ID with the same feed given apart (the API's `feed`): the id is ID.
        if let f = feed, id.hasPrefix(f + ":"), stopsById[id] == nil { id = String(id.dropFirst(f.count + 1)) }
        if feed == nil, let colon = id.firstIndex(of: ":"), feedIndex[String(id[..<colon])] != nil, stopsById[id] == nil {
            feed = String(id[..<colon]); id = String(id[id.index(after: colon)...])
        }
        let candidates = (stopsById[id] ?? []).filter { feed == nil || network.snapshot.stops[Int($0)].feed == feedIndex[feed!] }
        guard let first = candidates.first else {
            throw PlanError(.unknownStop, Localized { l in
                Catalogue.text("reason.unknownStop", l, ["id": id]) + (feed.map { Catalogue.text("reason.inFeed", l, ["feed": $0]) } ?? "")
            })
        }
        if candidates.count > 1 {
            let feeds = candidates.map { network.snapshot.feedIds[Int(network.snapshot.stops[Int($0)].feed)] }
            throw PlanError(.ambiguousStop, Localized { l in
                Catalogue.text("reason.ambiguousStop", l, ["id": id, "feeds": feeds.joined(separator: ", ")])
            })
        }
        return StopIndex(raw: first)
    }

    public func coordinate(of place: Place) throws(PlanError) -> Coordinate {
        switch place {
        case .coordinate(let c): return c
        case .stop(let feed, let id):
            let s = try resolveStop(feed, id)
            guard let c = network.coordinate(ofStop: s) else {
                throw PlanError(.stopWithoutLocation, "stop \"\(id)\" has no coordinates")
            }
            return c
        }
    }

    /// The time zone the model reads a local query time in: that of the first agency of
    /// the feed whose stop is nearest the origin.
    public func queryTimeZone(origin: Coordinate) -> String { timeZone(nearest: network.nearestStop(origin)) }

    /// The time zone of the first agency of the nearest stop's feed (the first agency's
    /// when there is no stop).
    func timeZone(nearest: (stop: StopIndex, meters: Double)?) -> String {
        let snapshot = network.snapshot
        guard let nearest, let agency = snapshot.agencies.first(where: { $0.feed == snapshot.stops[nearest.stop.index].feed }) else {
            return snapshot.agencies.first?.timezone ?? "UTC"
        }
        return agency.timezone
    }

    /// The wall-clock time of a UTC instant in `zone`, as seconds since 1970-01-01 00:00 local.
    public static func localSeconds(_ t: Int64, _ zone: TimeZone) -> Int64 {
        t + Int64(zone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(t))))
    }

    /// The local calendar date of a UTC instant in `zone`.
    public static func localDate(_ t: Int64, _ zone: TimeZone) -> ServiceDate {
        let l = localSeconds(t, zone)
        return ServiceDate(daysSinceEpoch: Int32((l - ((l % 86_400) + 86_400) % 86_400) / 86_400))
    }

    /// UTC seconds for a local time; in a DST gap or a repeated hour, the offset in force
    /// before the change applies.
    public static func instant(localSeconds l: Int64, zone: TimeZone) -> Int64 {
        func offset(_ u: Int64) -> Int64 { Int64(zone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(u)))) }
        let before = offset(l - 14 * 3600), after = offset(l + 14 * 3600)
        if before == after { return l - before }
        let validBefore = offset(l - before) == before
        let validAfter = offset(l - after) == after
        if validBefore || !validAfter { return l - before }
        return l - after
    }

    /// The routing model's answer to a query (`window`: a range query instead), with the
    /// query's modes and wheelchair filter.
    public func plan(_ query: PlanQuery) throws(PlanError) -> PlanResult {
        try plan(query, filter: rideFilter(modes: query.modes, wheelchair: query.wheelchair))
    }

    /// As `plan(_:)`, on `realtime`'s timetable when there is a state and the query asks for
    /// realtime (`query.realtime`); its rides carry their realtime facts (`Journey.legRealtime`).
    public func plan(_ query: PlanQuery, realtime: RealtimeState?) throws(PlanError) -> PlanResult {
        try plan(query, filter: rideFilter(modes: query.modes, wheelchair: query.wheelchair), rt: routing(query, realtime))
    }

    /// Makes `realtime`'s router and the tables its requests will share (those the static
    /// router's requests use now) now, so that no request on a new state waits for them:
    /// call before the state is swapped in.
    public func prepare(realtime: RealtimeState) {
        guard realtime.staticTimetable === timetable, realtime.hasUpdates else { return }
        // With the tables the static router's requests use now (their days' routes).
        realtimeCache.routing(realtime).router.warm(like: router)
    }

    /// The realtime routing a query uses (nil: the static timetable). A state built on
    /// another timetable (the feeds reloaded since) is not used: its trips are not ours.
    func routing(_ query: PlanQuery, _ realtime: RealtimeState?) -> RealtimeRouting? {
        guard query.realtime, let realtime, realtime.staticTimetable === timetable, realtime.hasUpdates else { return nil }
        return realtimeCache.routing(realtime)
    }

    /// As `plan(_:)`, with any ride filter (the tests check arbitrary ones against the
    /// reference), and the places when they are resolved already (`answer`).
    func plan(_ query: PlanQuery, places: ResolvedPlaces? = nil, filter: RideFilter, rt: RealtimeRouting? = nil) throws(PlanError) -> PlanResult {
        try plan(query, places: places, filter: filter, window: query.window.map(Int64.init), rt: rt) { request in
            (rt?.router ?? router).route(request)
        }
    }

    /// The model's answer at the query time and the range's journeys over `window` after
    /// it (by departure), from one range search (`RaptorRouter.answer`); `complete` is
    /// false when `outOfTime` cut the range short (its earliest departures are missing).
    /// Depart-at only.
    func planWithAlternatives(_ query: PlanQuery, places: ResolvedPlaces, window: Int, outOfTime: () -> Bool, rt: RealtimeRouting? = nil)
        throws(PlanError) -> (model: PlanResult, range: [Journey], complete: Bool) {
        precondition(!query.arriveBy && window > 0)
        var modelQuery = query
        modelQuery.window = nil
        var range: [Journey] = []
        var complete = true
        let model = try plan(modelQuery, places: places, filter: rideFilter(modes: query.modes, wheelchair: query.wheelchair),
                             window: Int64(window), rt: rt) { request in
            let found = (rt?.router ?? router).answer(request, outOfTime: outOfTime)
            range = found.range.map { rt?.journey($0) ?? Journey($0) }
            complete = found.complete
            return found.model
        }
        return (model, range, complete)
    }

    /// `plan` with the router call given: the request gets `window`; `query.window` says
    /// how the journeys are ordered (by departure for a range).
    private func plan(_ query: PlanQuery, places resolved: ResolvedPlaces?, filter staticFilter: RideFilter, window: Int64?,
                      rt: RealtimeRouting? = nil, route: (RaptorRequest) -> [RaptorJourney]) throws(PlanError) -> PlanResult {
        // On a realtime overlay: its timetable, the filter extended to its new routes and
        // trips, and the journeys mapped back to the static routes and trips.
        let filter = staticFilter
        let routingFilter = rt.map { $0.extend(staticFilter) } ?? staticFilter
        let routingTimetable = rt?.timetable ?? timetable
        let p = query.parameters
        do { try p.validate(footpathBeelineMeters: timetable.footpathBeelineMeters) } catch {
            throw PlanError(.badParameter, error.description,
                            details: ["parameter": .text(error.parameter), "value": .text(error.value), "allowed": .text(error.allowed)])
        }
        let places: ResolvedPlaces
        if let resolved { places = resolved } else { places = try resolve(query) }
        let origin = places.origin.point, destination = places.destination.point
        // D: the local date of T; rides of service dates D - 1, D and D + 1.
        let (t, zoneName, _, days) = when(query.time, zoneName: places.zoneName)

        let access = walks(places.origin, p, filter)
        let egress = walks(places.destination, p, filter)
        func result(_ journeys: [Journey]) -> PlanResult {
            var r = PlanResult(journeys: journeys, timeZone: zoneName, time: t, origin: origin, destination: destination, parameters: p)
            if let streets {
                r.streets = streets; r.wheelchair = query.wheelchair
                r.originSnap = places.origin.snap; r.destinationSnap = places.destination.snap
            }
            return r
        }
        var journeys: [Journey] = []
        let direct = Geodesic.distance(origin, destination)
        let streets = places.origin.streets
        if let streets, let a = places.origin.snap, let b = places.destination.snap {
            // Both ends snap: the walk-only journey is a street walk or none (none when
            // even the beeline is too long: a street walk is never shorter).
            // Both at one point: no walk at all.
            if direct <= p.maxDirectWalk,
               let m = a.place == b.place ? 0
                : streets.walkMeters(from: a, to: [b], limit: p.maxDirectWalk, wheelchair: query.wheelchair).first ?? nil,
               m <= p.maxDirectWalk {
                let w = p.walkSeconds(walkMeters: m)
                journeys.append(Journey(departure: query.arriveBy ? t - w : t, arrival: query.arriveBy ? t : t + w, rides: 0,
                                        legs: [], walkMeters: m))
            }
        } else if p.walkMeters(beeline: direct) <= p.maxDirectWalk {
            let w = p.walkSeconds(beeline: direct)
            journeys.append(Journey(departure: query.arriveBy ? t - w : t, arrival: query.arriveBy ? t : t + w, rides: 0,
                                    legs: [], walkMeters: p.walkMeters(beeline: direct)))
        }
        if access.isEmpty || egress.isEmpty {
            if !journeys.isEmpty { return result(journeys) }
            throw noStopNearby(end: access.isEmpty ? "origin" : "destination", access.isEmpty ? places.origin : places.destination,
                               p, filter)
        }
        let request: RaptorRequest
        do {
            request = try RaptorRequest(arriveBy: query.arriveBy, time: t, access: access, egress: egress, days: days,
                                        parameters: p, window: window, filter: routingFilter,
                                        footpathWalk: !query.streets ? .beeline : query.wheelchair ? .stepFree : .streets,
                                        timetable: routingTimetable)
        } catch {
            throw PlanError(.badParameter, error.description,
                            details: ["parameter": .text(error.parameter), "value": .text(error.value), "allowed": .text(error.allowed)])
        }
        journeys += route(request).map { rt?.journey($0) ?? Journey($0) }
        // Range: by departure. Otherwise first the one that arrives earliest (arrive-by:
        // departs latest), fewer rides, less walking.
        if query.window != nil {
            journeys.sort { ($0.departure, $0.arrival, $0.rides) < ($1.departure, $1.arrival, $1.rides) }
            return result(journeys)
        }
        journeys.sort { a, b in
            let ka = query.arriveBy ? -a.departure : a.arrival, kb = query.arriveBy ? -b.departure : b.arrival
            if ka != kb { return ka < kb }
            if a.rides != b.rides { return a.rides < b.rides }
            return walking(a) < walking(b)
        }
        return result(journeys)
    }

    private func walking(_ j: Journey) -> Double {
        if let w = j.walkMeters { return w }
        return j.legs.reduce(0) { sum, leg in
            switch leg {
            case .access(_, _, _, let m), .egress(_, _, _, let m), .transfer(_, _, _, _, let m): return sum + m
            case .ride: return sum
            }
        }
    }

    /// Boardable stops within maxAccessWalk of an end (those the filter allows), with walk durations.
    func walks(_ end: NearbyStops, _ p: RoutingParameters, _ filter: RideFilter = RideFilter()) -> [StopWalk] {
        if end.snap != nil {
            // Along streets: the street walk where the stop snaps, else the beeline.
            precondition(end.streetLimit >= p.maxAccessWalk, "street walks looked up within \(end.streetLimit) m")
            return end.within(p.maxAccessWalk).enumerated().compactMap { i, s in
                guard filter.stops?[s.stop.index] ?? true else { return nil }
                // The stop itself (an end given as a stop) is no walk at all.
                let street = s.meters == 0 ? 0 : end.streetMeters[i]
                let m = street.isNaN ? p.walkMeters(beeline: s.meters) : street
                guard m <= p.maxAccessWalk else { return nil }
                let seconds = street.isNaN ? p.walkSeconds(beeline: s.meters) : p.walkSeconds(walkMeters: m)
                return StopWalk(stop: s.stop, seconds: seconds, meters: m)
            }
        }
        return end.within(p.maxAccessWalk / p.walkDetourFactor + 1).compactMap { s in
            guard filter.stops?[s.stop.index] ?? true else { return nil }
            let m = p.walkMeters(beeline: s.meters)
            return m <= p.maxAccessWalk ? StopWalk(stop: s.stop, seconds: p.walkSeconds(beeline: s.meters), meters: m) : nil
        }
    }

    /// NO_STOP_NEARBY for one end: which end, and how far (on foot) the nearest stop is.
    func noStopNearby(end: String, _ nearby: NearbyStops, _ p: RoutingParameters, _ filter: RideFilter) -> PlanError {
        let point = nearby.point
        var nearest = nearby.nearest
        var kind = "reason.kindStop"
        if let allowed = filter.stops {
            // The nearest stop the filter allows: widen the search until one turns up.
            kind = "reason.kindAccessible"
            nearest = nil
            var radius = 2_000.0
            while nearest == nil && radius <= 64_000 {
                nearest = network.stopsNear(point, beelineMeters: radius).first { allowed[$0.stop.index] }
                radius *= 2
            }
        }
        var details: [String: PlanDetail] = ["end": .text(end), "maxAccessWalk": .number(p.maxAccessWalk)]
        let how: (Language) -> String
        if let nearest {
            // On foot: along the streets where both snap and a walk is found (within twice
            // the beeline and a kilometer more), else the beeline's walk.
            var walk = p.walkMeters(beeline: nearest.meters)
            if let streets = nearby.streets, let a = nearby.snap, let b = network.snap(ofStop: nearest.stop, wheelchair: nearby.wheelchair),
               let m = streets.walkMeters(from: a, to: [b], limit: nearest.meters * 2 + 1000, wheelchair: nearby.wheelchair).first ?? nil {
                walk = m
            }
            let meters = walk.rounded()
            details["nearestStopMeters"] = .number(meters)
            details["nearestStop"] = .text(network.snapshot.stops[nearest.stop.index].stopId)
            how = { Catalogue.text("reason.nearestOnFoot", $0, ["kind": Catalogue.text(kind, $0), "meters": "\(Int(meters))"]) }
        } else {
            how = { Catalogue.text("reason.noneKnown", $0, ["kind": Catalogue.text(kind, $0)]) }
        }
        let text = Localized { l in
            Catalogue.text("reason.noStopNearby", l, ["kind": Catalogue.text(kind, l), "max": "\(Int(p.maxAccessWalk))",
                                                       "end": Catalogue.text("end.\(end)", l), "how": how(l)])
        }
        return PlanError(.noStopNearby, text,
                         details: details)
    }
}
