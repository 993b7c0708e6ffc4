import Geo
import Streets
import Synchronization
import Timetable
import TransitModel

/// A timetable and what is kept beside it: the routing arrays (`Timetable`, all the router
/// reads) and, for everyone else, the feeds' names and ids (the snapshot without its stop
/// times), the shapes' points, each station's child stops, and per feed a local
/// projection (PROJ) with a grid of its stops for the walks to and from them. Built by
/// `TimetableBuilder.build`; immutable.
public final class TransitNetwork: Sendable {
    /// The routing arrays.
    public let timetable: Timetable
    /// The snapshot the timetable was built from, without its stop times and shape points
    /// (names, ids, routes and trips for answers; `shapeIds` name the shapes below).
    public let snapshot: FeedSnapshot
    /// The shapes' points, compact.
    public let shapes: ShapeStore
    /// Station -> its child stops (platforms, entrances, …).
    public let stationChildren: StationChildren
    /// Per feed: a local metric projection and a grid of its boardable stops.
    public let stopGrids: [StopGrid]
    /// Problems met while building (trips left out, …), for the caller to report.
    public let warnings: [String]
    /// Each source trip's stop_sequence values (StopSequences.swift).
    public let stopSequences: StopSequences

    /// The walk graph when streets were loaded (nil: every walk is a beeline).
    public let streets: WalkGraph?
    // Stop -> where it snaps to the streets (nil: it does not, or not boardable), for
    // walking and for a wheelchair (step-free); empty when no streets are loaded.
    private let stopSnaps: [StreetSnap?]
    private let stepFreeStopSnaps: [StreetSnap?]
    /// Feed -> trip_id -> snapshot trip, made on first use (realtime messages name trips by id).
    private let tripIds = Mutex<[Int: [String: Int32]]>([:])

    /// The snapshot trip of `feed` whose trip_id is `id`, if any. The first call for a feed
    /// makes its index (a dictionary of its trip ids), kept for the network's life.
    public func tripIndex(feed: Int) -> [String: Int32] {
        if let hit = tripIds.withLock({ $0[feed] }) { return hit }
        var byId: [String: Int32] = [:]
        byId.reserveCapacity(snapshot.trips.count)
        for (i, t) in snapshot.trips.enumerated() where t.feed == Int32(feed) { byId[t.tripId] = Int32(i) }
        tripIds.withLock { $0[feed] = byId }
        return byId
    }

    init(timetable: Timetable, snapshot: FeedSnapshot, shapes: ShapeStore, stationChildren: StationChildren,
         stopGrids: [StopGrid], warnings: [String], streets: WalkGraph? = nil, stopSnaps: [StreetSnap?] = [],
         stepFreeStopSnaps: [StreetSnap?] = [], stopSequences: StopSequences = StopSequences()) {
        self.timetable = timetable; self.snapshot = snapshot; self.shapes = shapes
        self.stationChildren = stationChildren; self.stopGrids = stopGrids; self.warnings = warnings
        self.streets = streets; self.stopSnaps = stopSnaps; self.stepFreeStopSnaps = stepFreeStopSnaps
        self.stopSequences = stopSequences
    }

    /// Where boardable stop `s` snaps to the streets (`wheelchair`: to an edge a wheelchair
    /// may take); nil when it does not or no streets are loaded.
    public func snap(ofStop s: StopIndex, wheelchair: Bool = false) -> StreetSnap? {
        let snaps = wheelchair ? stepFreeStopSnaps : stopSnaps
        return snaps.isEmpty ? nil : snaps[s.index]
    }

    /// The coordinate of a stop, if known.
    public func coordinate(ofStop s: StopIndex) -> Coordinate? {
        let lat = timetable.stopLatitude[s.index], lon = timetable.stopLongitude[s.index]
        return lat.isNaN || lon.isNaN ? nil : Coordinate(latitude: lat, longitude: lon)
    }


    /// Boardable stops within `beelineMeters` of `point` (geodesic), nearest first.
    public func stopsNear(_ point: Coordinate, beelineMeters: Double) -> [(stop: StopIndex, meters: Double)] {
        var out: [(stop: StopIndex, meters: Double)] = []
        for grid in stopGrids { grid.stopsNear(point, beelineMeters: beelineMeters, network: self, into: &out) }
        return out.sorted { ($0.meters, $0.stop) < ($1.meters, $1.stop) }
    }

    /// The boardable stop nearest `point` over all feeds, with its distance.
    ///
    /// Each grid's nearest point in its projection is a first guess; only grids whose guess
    /// is competitive are searched exactly (refining in a grid on another continent would
    /// measure the distance to every one of its stops).
    public func nearestStop(_ point: Coordinate) -> (stop: StopIndex, meters: Double)? {
        let guesses = stopGrids.map { $0.roughNearest(point, network: self) }
        guard let bestGuess = guesses.compactMap({ $0?.meters }).min() else { return nil }
        var best: (stop: StopIndex, meters: Double)?
        for (grid, guess) in zip(stopGrids, guesses) {
            guard let guess, guess.meters <= bestGuess * 1.05 + 10 else { continue }
            let n = grid.nearest(point, from: guess, network: self)
            if best == nil || n.meters < best!.meters || (n.meters == best!.meters && n.stop < best!.stop) { best = n }
        }
        return best
    }
}

/// Boardable stops of one feed in a local metric projection (PROJ) with a grid index.
public final class StopGrid: @unchecked Sendable {
    // @unchecked: `projection` is used under its own lock (LocalProjection is thread-safe).
    let projection: LocalProjection
    let grid: GridIndex
    /// Grid point -> stop index.
    let stops: [StopIndex]

    init(projection: LocalProjection, grid: GridIndex, stops: [StopIndex]) {
        self.projection = projection
        self.grid = grid
        self.stops = stops
    }

    func stopsNear(_ point: Coordinate, beelineMeters: Double, network: TransitNetwork,
                   into out: inout [(stop: StopIndex, meters: Double)]) {
        let p = projection.project(point)
        guard p.x.isFinite && p.y.isFinite else { return }
        // The projection is equidistant from its centre only; elsewhere it distorts by a
        // fraction of a percent within a city. Search 5% wider, then keep exact distances.
        for i in grid.within(x: p.x, y: p.y, radiusMeters: beelineMeters * 1.05 + 10) {
            let s = stops[Int(i)]
            let d = Geodesic.distance(point, network.coordinate(ofStop: s)!)
            if d <= beelineMeters { out.append((s, d)) }
        }
    }

    /// The stop nearest in the projection, with its exact distance (a first guess).
    func roughNearest(_ point: Coordinate, network: TransitNetwork) -> (stop: StopIndex, meters: Double)? {
        let p = projection.project(point)
        guard p.x.isFinite && p.y.isFinite, let i = grid.nearest(x: p.x, y: p.y) else { return nil }
        let s = stops[Int(i)]
        return (s, Geodesic.distance(point, network.coordinate(ofStop: s)!))
    }

    /// The exact nearest stop, refining `guess` (from `roughNearest`): every stop within
    /// its distance plus the projection's margin is measured.
    func nearest(_ point: Coordinate, from guess: (stop: StopIndex, meters: Double), network: TransitNetwork) -> (stop: StopIndex, meters: Double) {
        let p = projection.project(point)
        var best = guess
        for j in grid.within(x: p.x, y: p.y, radiusMeters: guess.meters * 1.05 + 10) {
            let s = stops[Int(j)]
            let d = Geodesic.distance(point, network.coordinate(ofStop: s)!)
            if d < best.meters || (d == best.meters && s < best.stop) { best = (s, d) }
        }
        return best
    }
}

/// Each station's child stops (the stops whose parent_station it is: platforms, entrances,
/// …), in stop order, as one offset table over one list, made once per timetable rather
/// than by a scan of all stops wherever a station is expanded.
public struct StationChildren: Sendable {
    private let offsets: [Int32]
    private let list: [StopIndex]

    public init(_ stops: [FeedSnapshot.Stop]) {
        var offsets = [Int32](repeating: 0, count: stops.count + 1)
        for stop in stops where stop.parent >= 0 { offsets[Int(stop.parent) + 1] += 1 }
        for i in 0..<stops.count { offsets[i + 1] += offsets[i] }
        var list = [StopIndex](repeating: StopIndex(0), count: Int(offsets[stops.count]))
        var fill = offsets
        for (i, stop) in stops.enumerated() where stop.parent >= 0 {
            list[Int(fill[Int(stop.parent)])] = StopIndex(i)
            fill[Int(stop.parent)] += 1
        }
        self.offsets = offsets
        self.list = list
    }

    /// The child stops of `station` (none for a stop that is no one's parent).
    public subscript(station: StopIndex) -> ArraySlice<StopIndex> {
        list[Int(offsets[station.index])..<Int(offsets[station.index + 1])]
    }
}
