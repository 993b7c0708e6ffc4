import Timetable
import TransitModel

/// A walk between the origin (or destination) and a stop: the stop and the walk's duration.
public struct StopWalk: Sendable, Equatable {
    public var stop: StopIndex
    public var seconds: Int64
    public var meters: Double
    public init(stop: StopIndex, seconds: Int64, meters: Double) { self.stop = stop; self.seconds = seconds; self.meters = meters }
}

/// Which rides a search may use: routes (e.g. by mode), trips (e.g. wheelchair
/// accessible ones) and stops (boarding and alighting only where allowed). nil: all.
public struct RideFilter: Sendable, Equatable {
    /// Timetable route -> may be ridden.
    public var routes: [Bool]?
    /// Timetable trip (`routeTripOffsets[r] + j`) -> may be ridden.
    public var trips: [Bool]?
    /// Stop -> may be boarded or alighted at.
    public var stops: [Bool]?
    public init(routes: [Bool]? = nil, trips: [Bool]? = nil, stops: [Bool]? = nil) {
        self.routes = routes; self.trips = trips; self.stops = stops
    }
    public var isEmpty: Bool { routes == nil && trips == nil && stops == nil }
}

/// How a search walks the footpaths between stops (the routing model's "Streets"): along
/// the streets where the timetable has street walks, for a wheelchair along step-free ones,
/// or every one a beeline (`streets=false`, and always when no streets are loaded).
public enum FootpathWalk: UInt8, Sendable, Hashable {
    case beeline, streets, stepFree
}

/// One search: checked when built, immutable, nothing kept between searches.
public struct RaptorRequest: Sendable {
    /// Depart at `time` (false) or arrive by `time` (true); UTC seconds since 1970.
    public let arriveBy: Bool
    public let time: Int64
    /// Walks from the origin to first stops, and from last stops to the destination.
    public let access: [StopWalk]
    public let egress: [StopWalk]
    /// Timetable days whose trips may be ridden (the model: D − 1, D, D + 1).
    public let days: [Int]
    public let parameters: RoutingParameters
    /// A range query: every Pareto-optimal journey departing within `window` seconds
    /// after `time` (depart-at only).
    public let window: Int64?
    /// Rides the search may use.
    public let filter: RideFilter
    /// Footpaths along streets (step-free for a wheelchair) or beelines.
    public let footpathWalk: FootpathWalk

    public init(arriveBy: Bool, time: Int64, access: [StopWalk], egress: [StopWalk], days: [Int],
                parameters: RoutingParameters, window: Int64? = nil, filter: RideFilter = RideFilter(),
                footpathWalk: FootpathWalk = .streets, timetable: Timetable) throws(ParameterError) {
        try parameters.validate(footpathBeelineMeters: timetable.footpathBeelineMeters)
        if let window, window < 0 || window > 24 * 3600 {
            throw ParameterError(parameter: "window", value: "\(window)", allowed: "0 to 86400 seconds")
        }
        if window != nil && arriveBy {
            throw ParameterError(parameter: "window", value: "\(window!)", allowed: "a window only with depart-at queries")
        }
        precondition(filter.routes.map { $0.count == timetable.routeCount } ?? true, "one flag per route")
        precondition(filter.trips.map { $0.count == timetable.tripCount } ?? true, "one flag per trip")
        precondition(filter.stops.map { $0.count == timetable.stopCount } ?? true, "one flag per stop")
        self.filter = filter
        // Without street walks in the timetable every footpath is a beeline: one key.
        self.footpathWalk = timetable.footStreet.isEmpty ? .beeline : footpathWalk
        self.window = window
        self.arriveBy = arriveBy
        self.time = time
        // A walk to a stop where nothing may be boarded (or alighted) leads nowhere.
        self.access = filter.stops.map { allowed in access.filter { allowed[$0.stop.index] } } ?? access
        self.egress = filter.stops.map { allowed in egress.filter { allowed[$0.stop.index] } } ?? egress
        self.days = days.filter { $0 >= 0 && $0 < timetable.dayCount }
        self.parameters = parameters
    }
}

/// One leg of a journey found by the router.
public enum RaptorLeg: Sendable, Equatable {
    /// Walk from the origin to `stop`, leaving at `departure`.
    case access(stop: StopIndex, departure: Int64, arrival: Int64, meters: Double)
    /// A ride on `trip` (in `route`) of service day `day`, boarding at route position
    /// `from` and alighting at `to` (positions on the route, not stops: `Timetable.stop(onRoute:at:)`).
    case ride(route: RouteIndex, trip: TripIndex, day: Int, from: RoutePosition, to: RoutePosition, departure: Int64, arrival: Int64)
    /// A change: walk between stops (`from` ≠ `to`) or stay (`from` = `to`); `ready` is
    /// when the next vehicle may be boarded (walk and slack included).
    case transfer(from: StopIndex, to: StopIndex, departure: Int64, ready: Int64, meters: Double)
    /// Walk from `stop` to the destination.
    case egress(stop: StopIndex, departure: Int64, arrival: Int64, meters: Double)
}

/// A journey with rides: departure from the origin, arrival at the destination, legs.
public struct RaptorJourney: Sendable, Equatable {
    public var rides: Int
    public var departure: Int64
    public var arrival: Int64
    public var legs: [RaptorLeg]
}
