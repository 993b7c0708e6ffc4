import Geo
import TransitModel

/// The shapes' points as the planner draws them: coordinates in units of 1e-7 degree
/// (Int32, about 1 cm) and shape_dist_traveled as Float (NaN when not given), half the
/// memory of the snapshot's Doubles. With the shared feeds' 516k points that is 6 MB
/// instead of 12 MB, which keeps the timetable within 40 bytes per stop time.
public struct ShapeStore: Sendable {
    // Shape -> points offsets[s] ..< offsets[s + 1] (count + 1 entries).
    public let offsets: [Int32]
    public let latitude: [Int32]
    public let longitude: [Int32]
    public let distance: [Float]

    public init(_ s: FeedSnapshot) {
        offsets = s.shapePointOffsets
        latitude = s.shapeLatitude.map { Int32(($0 * 1e7).rounded()) }
        longitude = s.shapeLongitude.map { Int32(($0 * 1e7).rounded()) }
        distance = s.shapeDistance.map { Float($0) }
    }

    public var count: Int { offsets.count - 1 }

    /// The points of shape `s` as a range of point indexes.
    public func points(_ s: ShapeIndex) -> Range<Int> { Int(offsets[s.index])..<Int(offsets[s.index + 1]) }

    @inlinable public func latitude(_ i: Int) -> Double { Double(latitude[i]) * 1e-7 }
    @inlinable public func longitude(_ i: Int) -> Double { Double(longitude[i]) * 1e-7 }
    public func coordinate(_ i: Int) -> Coordinate { Coordinate(latitude: latitude(i), longitude: longitude(i)) }
}
