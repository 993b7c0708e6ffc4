import CProj

/// The WGS84 ellipsoid for PROJ's geodesic routines (Karney's algorithms).
///
/// Why `nonisolated(unsafe)` is sound here:
/// - the value is a pointer to memory that is written exactly once, by `geod_init`,
///   inside this initialiser closure; Swift runs a global's initialiser lazily and
///   exactly once (`swift_once`), with the required memory barriers, before any
///   thread can observe the pointer;
/// - afterwards the struct is only ever passed to `geod_inverse` / `geod_direct`,
///   which take `const struct geod_geodesic *` and only read it, so concurrent use
///   from any number of threads is data-race free;
/// - the allocation is intentionally never freed (it lives for the whole process).
///
/// A heap pointer (rather than a global `let geod_geodesic`) guarantees that every
/// call passes the same address without copying the ~400-byte struct.
private nonisolated(unsafe) let wgs84: UnsafePointer<geod_geodesic> = {
    let g = UnsafeMutablePointer<geod_geodesic>.allocate(capacity: 1)
    geod_init(g, Geodesic.semiMajorAxis, Geodesic.flattening)
    return UnsafePointer(g)
}()

/// Geodesic (shortest path on the WGS84 ellipsoid) computations using PROJ's
/// implementation of Karney's algorithms (`geod_inverse`, `geod_direct`).
///
/// Results are accurate to about 15 nanometres for any pair of points on Earth,
/// including nearly antipodal ones. All functions are pure and thread-safe.
///
/// Units: distances in **meters**, angles in **degrees**. Azimuths are measured
/// clockwise from true north and are in `-180...180`.
///
/// Inputs are expected to satisfy ``Coordinate/isValid``. A latitude outside
/// `-90...90` (or NaN) yields NaN results; longitudes outside `-180...180` are
/// accepted and reduced modulo 360.
public enum Geodesic {
    /// WGS84 equatorial radius `a`, in meters.
    public static let semiMajorAxis: Double = 6_378_137
    /// WGS84 flattening `f = 1 / 298.257223563` (dimensionless).
    public static let flattening: Double = 1 / 298.257223563

    /// Length in **meters** of the shortest path between `a` and `b` on the
    /// WGS84 ellipsoid.
    ///
    /// Symmetric, non-negative, and `0` when `a == b`. NaN if a latitude is
    /// invalid (see the type documentation).
    @inlinable
    public static func distance(_ a: Coordinate, _ b: Coordinate) -> Double {
        inverse(a, b).meters
    }

    /// Solves the inverse geodesic problem between `a` and `b`.
    ///
    /// - Returns:
    ///   - `meters`: geodesic distance in meters (as ``distance(_:_:)``);
    ///   - `azimuth1`: forward azimuth in degrees at `a`, i.e. the initial bearing
    ///     of the path from `a` towards `b`;
    ///   - `azimuth2`: forward azimuth in degrees at `b`, i.e. the direction of
    ///     travel when *arriving* at `b` (the bearing back to `a` is
    ///     `azimuth2 ± 180`).
    ///   Azimuths are clockwise from north in `-180...180`.
    public static func inverse(
        _ a: Coordinate, _ b: Coordinate
    ) -> (meters: Double, azimuth1: Double, azimuth2: Double) {
        var s12 = 0.0, azi1 = 0.0, azi2 = 0.0
        geod_inverse(wgs84, a.latitude, a.longitude, b.latitude, b.longitude,
                     &s12, &azi1, &azi2)
        return (s12, azi1, azi2)
    }

    /// Solves the direct geodesic problem: the point reached by travelling
    /// `meters` along the geodesic that leaves `start` with bearing
    /// `azimuthDegrees` (clockwise from north).
    ///
    /// `meters` may be negative (travel backwards) and may exceed half the
    /// circumference. The resulting longitude is normalised to `-180...180`.
    public static func destination(
        from start: Coordinate, azimuthDegrees: Double, meters: Double
    ) -> Coordinate {
        var lat2 = 0.0, lon2 = 0.0
        geod_direct(wgs84, start.latitude, start.longitude, azimuthDegrees, meters,
                    &lat2, &lon2, nil)
        return Coordinate(latitude: lat2, longitude: lon2)
    }
}
