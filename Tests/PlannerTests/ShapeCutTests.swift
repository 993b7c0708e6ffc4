import FeedNetwork
import Geo
@testable import Planner
import Testing
import Timetable
import TransitModel

/// Cutting a ride out of its shape: stops placed by shape_dist_traveled, or projected in
/// order (a loop that passes a later stop early does not pull it to the first pass).
@Suite struct ShapeCutTests {
    static let origin = Coordinate(latitude: 52.0, longitude: 18.0)
    static func at(east: Double, north: Double) -> Coordinate {
        let e = Geodesic.destination(from: origin, azimuthDegrees: 90, meters: east)
        return north == 0 ? e : Geodesic.destination(from: e, azimuthDegrees: 0, meters: north)
    }

    /// A shape going 2 km east, 200 m north, and 2 km back west: a hairpin.
    static func hairpin(distances: Bool) -> ShapeStore {
        var s = FeedSnapshot()
        s.shapeIds = ["loop"]
        s.shapeFeed = [0]
        let points = [at(east: 0, north: 0), at(east: 1000, north: 0), at(east: 2000, north: 0),
                      at(east: 2000, north: 200), at(east: 1000, north: 200), at(east: 0, north: 200)]
        s.shapeLatitude = points.map(\.latitude)
        s.shapeLongitude = points.map(\.longitude)
        s.shapeDistance = distances ? [0, 1000, 2000, 2200, 3200, 4200] : Array(repeating: .nan, count: 6)
        s.shapePointOffsets = [0, 6]
        return ShapeStore(s)
    }

    @Test func projectionKeepsStopsInOrderAroundAHairpin() throws {
        let s = Self.hairpin(distances: false)
        // A near the start, B at the far end, C back near the start (on the return leg, 30 m off).
        let stops = [Self.at(east: 0, north: 10), Self.at(east: 2000, north: 100), Self.at(east: 0, north: 170)]
        let positions = try #require(ShapeCut.byProjection(0..<6, stops, s))
        #expect(positions[0] < 0.1)
        #expect(abs(positions[1] - 2.5) < 0.05)
        #expect(positions[2] > 4.9, "C must lie on the way back, not at the start: \(positions)")
        let cut = ShapeCut(points: 0..<6, positions: positions, stops: stops, shapes: s)
        #expect(cut.offsets.allSatisfy { $0 < 35 })
        // B to C follows the shape round the corner and back: the corner's points, in order.
        let line = try #require(cut.line(from: 1, to: 2, stops: [stops[1], stops[2]], shapes: s))
        #expect(line.first == stops[1] && line.last == stops[2])
        #expect(line.count == 4, "B, (2000,200), (1000,200), C: \(line.count)")
    }

    @Test func shapeDistTraveledPlacesStopsWithoutProjecting() throws {
        let s = Self.hairpin(distances: true)
        let positions = try #require(ShapeCut.byDistance(0..<6, [0, 2100, 4000], s))
        #expect(positions == [0, 2.5, 4.8])
        // Values out of order, or a stop missing one, leave it to projection.
        #expect(ShapeCut.byDistance(0..<6, [0, 2100, 1000], s) == nil)
        #expect(ShapeCut.byDistance(0..<6, [0, .nan, 4000], s) == nil)
        #expect(ShapeCut.byDistance(0..<6, [0, 2100, 4000], Self.hairpin(distances: false)) == nil)
    }

    @Test func aStopFarFromTheShapeIsDrawnStraight() throws {
        let s = Self.hairpin(distances: false)
        let stops = [Self.at(east: 0, north: 0), Self.at(east: 1000, north: -600), Self.at(east: 2000, north: 0)]
        let positions = try #require(ShapeCut.byProjection(0..<6, stops, s))
        let cut = ShapeCut(points: 0..<6, positions: positions, stops: stops, shapes: s)
        #expect(cut.line(from: 0, to: 2, stops: stops, shapes: s) == nil, "B is 600 m off the shape")
        #expect(cut.line(from: 0, to: 0, stops: [stops[0]], shapes: s) != nil)
    }
}
