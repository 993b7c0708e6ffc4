import Geo
import Timetable
import TransitModel

/// A place a feed reaches with a handful of trips, far from the network it runs: stops that
/// are served but are not part of the feed's coverage region (docs/routing-model.md,
/// "Coverage regions"). A regional feed's two long-distance trains a day to a city
/// hundreds of kilometres away make such a place: the city is reached, not covered.
public struct OutlyingPlace: Sendable, Equatable {
    public var feed: FeedIndex
    /// Its stops, busiest first (ties by index).
    public var stops: [StopIndex]
    /// The name of its busiest stop (a station's name when the stop has a parent).
    public var name: String
    /// Trip runs a day at its busiest stop, on that stop's busiest day.
    public var tripsPerDay: Int
    /// Beeline meters from its busiest stop to the nearest stop of the feed's network.
    public var networkMeters: Double
    /// Where its busiest stop is.
    public var coordinate: Coordinate
}

/// The service level at each stop and the stops each feed serves as a network: the rule of
/// docs/routing-model.md, "Coverage regions", computed once per timetable. Both the
/// coverage regions (`transit coverage`) and the planner's coverage check read it, so what
/// the report declares and what the planner says about an end are the same thing.
public struct ServiceLevels: Sendable {
    /// A stop with at least this many trip runs on its busiest day is part of its feed's
    /// network (one every two hours over a sixteen-hour service day); when no stop of a feed
    /// has that many, its busiest stops are.
    public static let networkTripsPerDay = 8
    /// A stop with fewer trips is still part of the network when it lies within this
    /// beeline distance of a stop that has enough (a quiet branch or the end of a line).
    public static let networkReachMeters = 20_000.0
    /// Outlying stops within this beeline distance of each other make one place.
    public static let placeMeters = 3_000.0

    /// Stop -> trip runs that stop there on the busiest day for that stop (0: no service).
    public let tripsPerDay: [Int32]
    /// Stop -> served by the feed's network (in its coverage region).
    public let inNetwork: [Bool]
    /// Stop -> served, but outlying: far from the network and served by a handful of trips.
    public let outlying: [Bool]
    /// The outlying stops grouped into places, by feed, then by trips a day (most first),
    /// then by name.
    public let places: [OutlyingPlace]
    /// Stop -> index in `places` of the place it belongs to (-1: not outlying).
    public let placeOfStop: [Int32]

    public init(_ network: TransitNetwork) {
        let tt = network.timetable
        let trips = Self.tripsPerDay(tt)
        tripsPerDay = trips
        // The threshold per feed: the rule's count, or the feed's busiest stop's when lower.
        var busiest = [Int32](repeating: 0, count: network.snapshot.feedIds.count)
        for s in 0..<tt.stopCount where network.coordinate(ofStop: StopIndex(s)) != nil {
            busiest[tt.stopFeed[s].index] = max(busiest[tt.stopFeed[s].index], trips[s])
        }
        let threshold = busiest.map { min(Int32(Self.networkTripsPerDay), $0) }
        func core(_ s: Int) -> Bool { trips[s] > 0 && trips[s] >= threshold[tt.stopFeed[s].index] }
        var inNetwork = [Bool](repeating: false, count: tt.stopCount)
        var outlying = [Bool](repeating: false, count: tt.stopCount)
        var nearestCore = [Double](repeating: 0, count: tt.stopCount)
        for s in 0..<tt.stopCount where trips[s] > 0 {
            guard let c = network.coordinate(ofStop: StopIndex(s)) else { continue }
            if core(s) { inNetwork[s] = true; continue }
            let feed = tt.stopFeed[s]
            // Near first (most quiet stops are a street from a busy one), then the whole reach.
            let near = [500, Self.placeMeters, Self.networkReachMeters].lazy.compactMap { radius in
                network.stopsNear(c, beelineMeters: radius).first { tt.stopFeed[$0.stop.index] == feed && core($0.stop.index) }
            }.first
            if let n = near {
                inNetwork[s] = true
                nearestCore[s] = n.meters
            } else {
                outlying[s] = true
                nearestCore[s] = Self.nearestCore(c, feed: feed, network: network, core: core)
            }
        }
        self.inNetwork = inNetwork
        self.outlying = outlying
        places = Self.places(network, outlying: outlying, trips: trips, nearestCore: nearestCore)
        var placeOfStop = [Int32](repeating: -1, count: tt.stopCount)
        for (i, p) in places.enumerated() { for s in p.stops { placeOfStop[s.index] = Int32(i) } }
        self.placeOfStop = placeOfStop
    }

    /// Stop -> the most trip runs stopping there on any one day (a trip that stops twice
    /// counts once per route pattern; frequencies are expanded already).
    static func tripsPerDay(_ tt: Timetable) -> [Int32] {
        // Service -> its days, once (many routes share a service, and a stop's routes a few).
        var serviceDays: [ServiceIndex: [Int]] = [:]
        func days(_ s: ServiceIndex) -> [Int] {
            if let d = serviceDays[s] { return d }
            let d = (0..<tt.dayCount).filter { tt.serviceRuns(s, day: $0) }
            serviceDays[s] = d
            return d
        }
        var out = [Int32](repeating: 0, count: tt.stopCount)
        var perDay = [Int32](repeating: 0, count: tt.dayCount)
        var lastRoute = [Int32](repeating: -1, count: tt.routeCount)
        for s in 0..<tt.stopCount {
            let routes = Int(tt.stopRouteOffsets[s])..<Int(tt.stopRouteOffsets[s + 1])
            guard !routes.isEmpty else { continue }
            // Trips per service at this stop, then per day.
            var perService: [ServiceIndex: Int32] = [:]
            for i in routes {
                let r = tt.stopRouteRoute[i]
                guard lastRoute[r.index] != Int32(s) else { continue }
                lastRoute[r.index] = Int32(s)
                perService[tt.routeService[r.index], default: 0] += tt.routeTripOffsets[r.index + 1] - tt.routeTripOffsets[r.index]
            }
            var touched: [Int] = []
            for (service, n) in perService {
                for d in days(service) {
                    if perDay[d] == 0 { touched.append(d) }
                    perDay[d] += n
                }
            }
            var most: Int32 = 0
            for d in touched { most = max(most, perDay[d]); perDay[d] = 0 }
            out[s] = most
        }
        return out
    }

    /// Beeline meters to the nearest network stop of `feed`, searched ever wider.
    static func nearestCore(_ c: Coordinate, feed: FeedIndex, network: TransitNetwork, core: (Int) -> Bool) -> Double {
        var radius = networkReachMeters * 4
        while radius <= 4_000_000 {
            if let n = network.stopsNear(c, beelineMeters: radius).first(where: { network.timetable.stopFeed[$0.stop.index] == feed && core($0.stop.index) }) {
                return n.meters
            }
            radius *= 4
        }
        return .infinity
    }

    /// Outlying stops joined into places: those within `placeMeters` of each other,
    /// transitively, in one feed.
    static func places(_ network: TransitNetwork, outlying: [Bool], trips: [Int32], nearestCore: [Double]) -> [OutlyingPlace] {
        let tt = network.timetable, snapshot = network.snapshot
        var placeOf = [Int](repeating: -1, count: tt.stopCount)
        var groups: [[StopIndex]] = []
        for s in 0..<tt.stopCount where outlying[s] && placeOf[s] < 0 {
            var group: [StopIndex] = [], queue = [s]
            placeOf[s] = groups.count
            while let t = queue.popLast() {
                group.append(StopIndex(t))
                for n in network.stopsNear(network.coordinate(ofStop: StopIndex(t))!, beelineMeters: placeMeters)
                    where outlying[n.stop.index] && placeOf[n.stop.index] < 0 && tt.stopFeed[n.stop.index] == tt.stopFeed[t] {
                    placeOf[n.stop.index] = groups.count
                    queue.append(n.stop.index)
                }
            }
            groups.append(group)
        }
        return groups.map { group -> OutlyingPlace in
            let stops = group.sorted { (trips[$1.index], $0) < (trips[$0.index], $1) }
            let first = snapshot.stops[stops[0].index]
            let name = first.parent >= 0 ? snapshot.stops[Int(first.parent)].name : first.name
            return OutlyingPlace(feed: tt.stopFeed[stops[0].index], stops: stops, name: name,
                                 tripsPerDay: Int(trips[stops[0].index]), networkMeters: nearestCore[stops[0].index],
                                 coordinate: network.coordinate(ofStop: stops[0])!)
        }.sorted { ($0.feed.index, -$0.tripsPerDay, $0.name) < ($1.feed.index, -$1.tripsPerDay, $1.name) }
    }
}
