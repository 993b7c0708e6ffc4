/// Strong integer ids for the timetable and the router (nigiri's `location_idx_t`): each
/// wraps the dense `Int32` index it was, so that a stop cannot be passed where a route
/// position is meant (the two counted in the same `Int32` before), at no cost: `@frozen`,
/// one stored `Int32` (stride 4, so per-element arrays keep their size), its operations
/// `@inlinable` (`DenseIndex`).
///
/// `raw` is the index as stored; `index` is it as an `Int`, for subscripting arrays.
/// Where an array needs "none", the type names a sentinel far from -1 and the integer
/// limits (like `ServiceTime.unreachable`), and the API says `Optional`.

/// What every id type is: one `Int32`, compared, hashed and printed as that integer. The
/// operations are written once here, `@inlinable`, so that each concrete type's uses
/// compile to plain integer operations (`==` and `hash(into:)` are these, not synthesized).
public protocol DenseIndex: Hashable, Comparable, Sendable, CustomStringConvertible {
    var raw: Int32 { get set }
    init(raw: Int32)
}

extension DenseIndex {
    /// From an `Int` index (trapping when it does not fit in `Int32`, as `Int32(_:)` does).
    @inlinable public init(_ index: Int) { self.init(raw: Int32(index)) }
    /// The index as an `Int`, for subscripting arrays.
    @inlinable public var index: Int { Int(raw) }
    @inlinable public static func < (a: Self, b: Self) -> Bool { a.raw < b.raw }
    @inlinable public static func == (a: Self, b: Self) -> Bool { a.raw == b.raw }
    @inlinable public func hash(into hasher: inout Hasher) { hasher.combine(raw) }
    public var description: String { String(raw) }
}

/// A stop: an index into `FeedSnapshot.stops` and the timetable's per-stop arrays (`stopLatitude`, `stopRouteOffsets`, …).
@frozen public struct StopIndex: DenseIndex {
    public var raw: Int32
    @inlinable public init(raw: Int32) { self.raw = raw }
}

/// A timetable route, i.e. a trip pattern (not a GTFS route: see `SourceRouteIndex`): an index into the timetable's per-route arrays (`routeStopOffsets`, …).
@frozen public struct RouteIndex: DenseIndex {
    public var raw: Int32
    @inlinable public init(raw: Int32) { self.raw = raw }
}

/// A timetable trip, one run (frequency-based trips expanded): `routeTripOffsets[r] + j` for the j-th trip of route r, an index into `tripService`, `tripSource`, `tripShape` (not a GTFS trip: see `SourceTripIndex`).
@frozen public struct TripIndex: DenseIndex {
    public var raw: Int32
    @inlinable public init(raw: Int32) { self.raw = raw }
}

/// A stop's position within a timetable route (0 for its first stop): counts route stops, not stops; `routeStops[routeStopOffsets[r] + position]` is the stop.
@frozen public struct RoutePosition: DenseIndex {
    public var raw: Int32
    @inlinable public init(raw: Int32) { self.raw = raw }
}

/// A feed of the snapshot (`FeedSnapshot.feedIds`).
@frozen public struct FeedIndex: DenseIndex {
    public var raw: Int32
    @inlinable public init(raw: Int32) { self.raw = raw }
}

/// A service (calendar): an index into `FeedSnapshot.services` and the timetable's `serviceDays` rows.
@frozen public struct ServiceIndex: DenseIndex {
    public var raw: Int32
    @inlinable public init(raw: Int32) { self.raw = raw }
}

/// A shape: an index into `FeedSnapshot.shapeIds` and the timetable's `ShapeStore`.
@frozen public struct ShapeIndex: DenseIndex {
    public var raw: Int32
    @inlinable public init(raw: Int32) { self.raw = raw }
}

/// A GTFS route (routes.txt row): an index into `FeedSnapshot.routes`; a timetable route (`RouteIndex`) is one of its trip patterns.
@frozen public struct SourceRouteIndex: DenseIndex {
    public var raw: Int32
    @inlinable public init(raw: Int32) { self.raw = raw }
}

/// A GTFS trip (trips.txt row): an index into `FeedSnapshot.trips`; a frequency-based one is several timetable trips (`TripIndex`).
@frozen public struct SourceTripIndex: DenseIndex {
    public var raw: Int32
    @inlinable public init(raw: Int32) { self.raw = raw }
}

extension StopIndex {
    /// No stop (e.g. the parent of a label made by the origin's walk), where a per-element
    /// array needs one.
    @inlinable public static var noStop: StopIndex { StopIndex(raw: -1_000_000_000) }
}

extension RouteIndex {
    /// No route, where a per-element array needs one.
    @inlinable public static var noRoute: RouteIndex { RouteIndex(raw: -1_000_000_000) }
}

extension RoutePosition {
    /// No position (e.g. a route not queued for a scan), where a per-element array needs one.
    @inlinable public static var noPosition: RoutePosition { RoutePosition(raw: -1_000_000_000) }
    /// The position `n` stops further along the route (before it for negative `n`).
    @inlinable public func advanced(by n: Int) -> RoutePosition { RoutePosition(raw: raw &+ Int32(truncatingIfNeeded: n)) }
}

extension ShapeIndex {
    /// No shape (a trip without shape_id, or one naming no shape), in `Timetable.tripShape`.
    @inlinable public static var noShape: ShapeIndex { ShapeIndex(raw: -1_000_000_000) }
}
