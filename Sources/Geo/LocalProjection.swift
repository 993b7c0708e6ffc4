import CProj
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A local metric map projection centred on a coordinate: converts WGS84
/// latitude/longitude (degrees) to planar `x`/`y` **meters** (`x` east, `y` north
/// of ``center``) and back.
///
/// ## Projection
/// The projection is the ellipsoidal *Azimuthal Equidistant* (`aeqd`) on WGS84,
/// built with `proj_create` from an explicit pipeline:
///
///     +proj=pipeline
///       +step +proj=unitconvert +xy_in=deg +xy_out=rad
///       +step +proj=aeqd +lat_0=<lat> +lon_0=<lon> +ellps=WGS84
///
/// An explicit pipeline (instead of `proj_create_crs_to_crs("EPSG:4326", …)`)
/// needs no `proj.db` lookup, so construction is cheap and cannot pick an
/// unexpected operation; the axis order is fixed as longitude, latitude in, and
/// x (east), y (north) out, without `proj_normalize_for_visualization`.
///
/// Invariants / accuracy:
/// - `project(center) == (0, 0)`.
/// - Distance *from the centre* is exact: `hypot(x, y)` equals
///   ``Geodesic/distance(_:_:)`` from ``center`` (PROJ's ellipsoidal `aeqd`
///   uses Karney's geodesics), and `atan2(x, y)` is the azimuth at the centre.
/// - Euclidean distance between two projected points is a good approximation of
///   the geodesic distance near the centre: relative error is about
///   `(ρ / 6371 km)² / 3` where ρ is the distance from the centre
///   (≈ 3·10⁻⁶ at 20 km, ≈ 8·10⁻⁵ at 100 km).
/// - `unproject(project(c))` round-trips to ~1e-9 degrees for valid inputs; the
///   longitude returned by ``unproject(x:y:)`` is normalised to `-180...180`.
/// - Points PROJ cannot transform (e.g. invalid latitude) come back as
///   `(x: .infinity, y: .infinity)` (PROJ's `HUGE_VAL`); check `isFinite`.
///
/// ## Thread safety (why `@unchecked Sendable` is sound)
/// PROJ objects are not thread-safe: a `PJ_CONTEXT` (and every `PJ` created in
/// it, which records its error state there) must only be used by one thread at
/// a time. Each instance therefore:
/// 1. owns a **private `PJ_CONTEXT`**, so different instances never share PROJ
///    state and can run fully in parallel on different threads; and
/// 2. serialises all PROJ calls on its own `PJ` with an internal mutex, so even a
///    single instance shared between tasks is data-race free.
/// The stored properties are otherwise immutable. For maximum parallel
/// throughput create one instance per task/thread (construction takes
/// microseconds); sharing one instance is safe but calls take turns.
public final class LocalProjection: @unchecked Sendable {
    /// The projection centre (degrees, WGS84); it projects to `(0, 0)`.
    public let center: Coordinate

    /// The PROJ definition string this projection was created from.
    public let definition: String

    private let context: OpaquePointer  // PJ_CONTEXT *, owned, one per instance
    private let pj: OpaquePointer  // PJ *, owned, created in `context`
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>  // guards `pj`/`context`

    /// Creates an azimuthal equidistant projection centred on `center`.
    ///
    /// - Parameter center: must satisfy ``Coordinate/isValid`` (degrees).
    /// - Throws: ``GeoError`` if `center` is not valid or PROJ cannot create the
    ///   context or the transformation.
    public init(center: Coordinate) throws {
        guard center.isValid else {
            let code = PROJ_ERR_INVALID_OP_ILLEGAL_ARG_VALUE
            throw GeoError(
                code: code,
                message: "LocalProjection centre \(center) is not a valid WGS84 coordinate",
                projMessage: proj_context_errno_string(nil, code).map { String(cString: $0) } ?? "")
        }
        guard let ctx = proj_context_create() else {
            throw GeoError(code: 0, message: "proj_context_create failed", projMessage: "")
        }
        // Report failures through GeoError, not by PROJ logging to stderr.
        proj_log_level(ctx, PJ_LOG_NONE)

        let definition =
            "+proj=pipeline +step +proj=unitconvert +xy_in=deg +xy_out=rad "
            + "+step +proj=aeqd +lat_0=\(formatDegrees(center.latitude)) "
            + "+lon_0=\(formatDegrees(center.longitude)) +ellps=WGS84"
        guard let pj = proj_create(ctx, definition) else {
            let error = GeoError.fromContext(ctx, "proj_create failed for \(definition)")
            proj_context_destroy(ctx)
            throw error
        }

        let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)

        self.center = center
        self.definition = definition
        self.context = ctx
        self.pj = pj
        self.mutex = mutex
    }

    deinit {
        proj_destroy(pj)  // must precede destroying the context it lives in
        proj_context_destroy(context)
        pthread_mutex_destroy(mutex)
        mutex.deinitialize(count: 1)
        mutex.deallocate()
    }

    @inline(__always)
    private func locked<R>(_ body: () -> R) -> R {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return body()
    }

    /// Projects `c` to planar meters relative to ``center``: `x` east, `y` north.
    ///
    /// Returns `(.infinity, .infinity)` if PROJ cannot transform `c`
    /// (e.g. `c` is not ``Coordinate/isValid``).
    public func project(_ c: Coordinate) -> (x: Double, y: Double) {
        let out = locked { proj_trans(pj, PJ_FWD, proj_coord(c.longitude, c.latitude, 0, 0)) }
        return (out.xy.x, out.xy.y)
    }

    /// Inverse of ``project(_:)-(Coordinate)``: the coordinate (degrees) at `x`
    /// meters east and `y` meters north of ``center``.
    ///
    /// The longitude is normalised to `-180...180`. Returns a coordinate with
    /// infinite components if PROJ cannot transform the point (e.g. `x`/`y`
    /// not finite or farther than the ellipsoid's antipode).
    public func unproject(x: Double, y: Double) -> Coordinate {
        let out = locked { proj_trans(pj, PJ_INV, proj_coord(x, y, 0, 0)) }
        return Coordinate(latitude: out.lp.phi, longitude: out.lp.lam)
    }

    /// Projects many coordinates at once with a single `proj_trans_generic` call
    /// (and a single lock acquisition); element `i` of the result is
    /// `project(cs[i])`, bit for bit.
    ///
    /// Points that cannot be transformed come back as `(.infinity, .infinity)`.
    public func project(_ cs: [Coordinate]) -> [(x: Double, y: Double)] {
        let n = cs.count
        guard n > 0 else { return [] }
        return [(x: Double, y: Double)](unsafeUninitializedCapacity: n) { buffer, initialized in
            let base = buffer.baseAddress!
            // Fill with (lon, lat) in PROJ's input axis order, then transform in place.
            for i in 0..<n {
                (base + i).initialize(to: (x: cs[i].longitude, y: cs[i].latitude))
            }
            initialized = n
            // A homogeneous tuple of two Doubles is laid out as two contiguous
            // Doubles (stride 16), so x and y are strided views of the buffer.
            let stride = MemoryLayout<(x: Double, y: Double)>.stride
            UnsafeMutableRawPointer(base).withMemoryRebound(to: Double.self, capacity: 2 * n) { d in
                _ = locked {
                    proj_trans_generic(pj, PJ_FWD,
                                       d, stride, n,
                                       d + 1, stride, n,
                                       nil, 0, 0,
                                       nil, 0, 0)
                }
            }
        }
    }
}

/// Formats a degree value (|v| ≤ 360) in fixed-point with 12 decimals (≈ 0.1 µm),
/// because Swift's default `description` may use exponent notation ("1e-05"),
/// which PROJ's DMS parser does not accept as a plain number.
private func formatDegrees(_ v: Double) -> String {
    let scaled = (abs(v) * 1e12).rounded()
    let units = Int64(scaled)
    let whole = units / 1_000_000_000_000
    let frac = String(units % 1_000_000_000_000)
    let sign = v < 0 && units != 0 ? "-" : ""
    return "\(sign)\(whole)." + String(repeating: "0", count: 12 - frac.count) + frac
}
