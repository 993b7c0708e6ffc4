/// A geographic position on the WGS84 ellipsoid, in decimal **degrees**.
///
/// `Coordinate` is a plain value: it does not validate on construction, so it can
/// carry whatever a data feed contained. Use ``isValid`` to check the value is a
/// usable position, and ``isPlausible`` to additionally reject the `(0, 0)`
/// "null island" placeholder that feeds emit for missing positions.
public struct Coordinate: Hashable, Sendable {
    /// Geodetic latitude in degrees, positive north. Valid range `-90...90`.
    public var latitude: Double
    /// Longitude in degrees, positive east of Greenwich. Valid range `-180...180`.
    public var longitude: Double

    /// Creates a coordinate from a latitude and longitude in degrees (WGS84).
    ///
    /// No validation is performed; see ``isValid`` and ``isPlausible``.
    public init(latitude: Double, longitude: Double) {
        self.latitude = latitude
        self.longitude = longitude
    }

    /// `true` when both components are finite, `latitude` is in `-90...90` and
    /// `longitude` is in `-180...180` (degrees, bounds inclusive).
    ///
    /// `(0, 0)` is valid; use ``isPlausible`` to reject it as well.
    /// NaN and infinities are never valid.
    @inlinable
    public var isValid: Bool {
        // The range checks are false for NaN and ±infinity, so they imply finiteness.
        (-90.0...90.0).contains(latitude) && (-180.0...180.0).contains(longitude)
    }

    /// `true` when the coordinate ``isValid`` and is not exactly `(0, 0)`.
    ///
    /// Transit feeds commonly write `0,0` for an unknown stop position; such a stop
    /// lies in the Gulf of Guinea and must not be used for routing distances.
    @inlinable
    public var isPlausible: Bool {
        isValid && !(latitude == 0 && longitude == 0)
    }
}

extension Coordinate: CustomStringConvertible {
    /// `"(latitude, longitude)"` in degrees, e.g. `"(52.52, 13.405)"`.
    public var description: String { "(\(latitude), \(longitude))" }
}
