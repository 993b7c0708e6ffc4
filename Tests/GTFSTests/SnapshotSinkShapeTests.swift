import Foundation
import Testing
import GTFS
import TransitModel
import TransitTesting

/// `SnapshotSink`'s shapes (shapes.txt grouped by shape, shapes in shape_id byte order,
/// points by shape_pt_sequence), trips' `shape`, the wheelchair fields, and
/// `FeedSnapshot.merging` of all of them. (That the database gives the same is
/// `SnapshotLoaderTests`' part.)
@Suite("Snapshot sink: shapes and wheelchair fields")
struct SnapshotSinkShapeTests {
    private func trip(_ s: FeedSnapshot, _ id: String) -> FeedSnapshot.Trip { s.trips.first { $0.tripId == id }! }
    private func stop(_ s: FeedSnapshot, _ id: String) -> FeedSnapshot.Stop { s.stops.first { $0.stopId == id }! }
    /// Bit patterns, so that NaN equals NaN.
    private func bits(_ v: [Double]) -> [UInt64] { v.map(\.bitPattern) }

    @Test("Points out of sequence order, interleaved shapes, a missing shape, empty wheelchair fields")
    func tinyFeed() throws {
        let folder = try FeedFixtures.makeShapesFeed()
        defer { folder.remove() }
        let (s, summary) = try SnapshotSink.load(path: folder.path, feedId: "tiny")
        #expect(summary.issues.count(.rowError) == 0 && summary.issues.count(.fatal) == 0)
        #expect(summary.issues.count(code: "UNKNOWN_SHAPE") == 1)
        #expect(summary.rowsLoaded["shapes"] == 7)

        // Shapes by id, byte order ("A" < "B" < "a"), not in order of first appearance (B, A, a).
        #expect(s.shapeIds == ["A", "B", "a"])
        #expect(s.shapeFeed == [0, 0, 0])
        #expect(s.shapePointOffsets == [0, 3, 6, 7])
        #expect(s.shapePoints(0) == 0..<3 && s.shapePoints(1) == 3..<6 && s.shapePoints(2) == 6..<7)
        #expect(s.shapeLatitude == [52.00, 52.01, 52.02, 52.11, 52.12, 52.13, 52.5])
        #expect(s.shapeLongitude == [21.00, 21.01, 21.02, 21.11, 21.12, 21.13, 21.5])
        #expect(bits(s.shapeDistance) == bits([0, .nan, 250.5, .nan, .nan, .nan, .nan]))

        // Trips: shape index, or -1 for no shape_id and for a shape_id naming no shape (a
        // field error: that shape_id is not stored).
        #expect(trip(s, "T1").shape == 1 && trip(s, "T1").shapeId == "B")
        #expect(trip(s, "T2").shape == -1 && trip(s, "T2").shapeId == nil)
        #expect(trip(s, "T3").shape == -1 && trip(s, "T3").shapeId == nil)
        #expect(trip(s, "T4").shape == 0 && trip(s, "T4").shapeId == "A")
        for t in s.trips where t.shape >= 0 { #expect(s.shapeIds[Int(t.shape)] == t.shapeId) }

        // Wheelchair fields as given; empty is 0 (a child does not take its parent's here).
        #expect(["T1", "T2", "T3", "T4"].map { trip(s, $0).wheelchairAccessible } == [1, 2, 0, 0])
        #expect(["P", "C1", "C2", "S3"].map { stop(s, $0).wheelchairBoarding } == [1, 0, 2, 0])
        #expect(stop(s, "C1").parent >= 0 && s.stops[Int(stop(s, "C1").parent)].stopId == "P")
    }

    @Test("A feed without shapes.txt has no shapes; its trips' shapes are -1")
    func noShapes() throws {
        let folder = try FeedFixtures.makeShapesFeed()
        defer { folder.remove() }
        try folder.delete("shapes.txt")
        let (s, summary) = try SnapshotSink.load(path: folder.path, feedId: "tiny")
        #expect(summary.issues.count(code: "UNKNOWN_SHAPE") == 3)
        #expect(s.shapeIds.isEmpty && s.shapeFeed.isEmpty && s.shapePointOffsets == [0] && s.shapeLatitude.isEmpty)
        #expect(s.trips.allSatisfy { $0.shape == -1 })
        #expect(s.trips.count == 4)
    }

    @Test("FeedSnapshot.merging shifts trips' shapes, shape feeds and point offsets")
    func merging() throws {
        let folder = try FeedFixtures.makeShapesFeed()
        defer { folder.remove() }
        let tiny = try SnapshotSink.load(path: folder.path, feedId: "tiny").0
        let google = try SnapshotSink.load(path: try FeedFixtures.bundledFeed("google-sample"), feedId: "google").0
        let caltrain = try SnapshotSink.load(path: try FeedFixtures.bundledFeed("caltrain"), feedId: "caltrain").0
        #expect(google.shapeIds.isEmpty && !caltrain.shapeIds.isEmpty)
        let m = FeedSnapshot.merging([caltrain, google, tiny])
        let shapes = caltrain.shapeIds.count, points = caltrain.shapeLatitude.count
        #expect(m.shapeIds == caltrain.shapeIds + tiny.shapeIds)
        #expect(m.shapeFeed == Array(repeating: 0, count: shapes) + [2, 2, 2])
        #expect(m.shapePointOffsets == caltrain.shapePointOffsets + tiny.shapePointOffsets.dropFirst().map { $0 + Int32(points) })
        #expect(m.shapeLatitude == caltrain.shapeLatitude + tiny.shapeLatitude)
        #expect(m.shapeLongitude == caltrain.shapeLongitude + tiny.shapeLongitude)
        #expect(bits(m.shapeDistance) == bits(caltrain.shapeDistance + tiny.shapeDistance))
        for t in m.trips {
            if t.shape >= 0 {
                #expect(m.shapeIds[Int(t.shape)] == t.shapeId && m.shapeFeed[Int(t.shape)] == t.feed)
            }
        }
        #expect(trip(m, "T1").shape == Int32(shapes) + 1 && trip(m, "T2").shape == -1 && trip(m, "T4").shape == Int32(shapes))
        #expect(m.trips.filter { $0.feed == 1 }.allSatisfy { $0.shape == -1 })
        #expect(stop(m, "C2").wheelchairBoarding == 2 && trip(m, "T1").wheelchairAccessible == 1)
        // Merging is what SnapshotCanonical.reference does: no difference from itself.
        #expect(SnapshotCanonical.differences(m, try SnapshotCanonical.reference(
            [(try FeedFixtures.bundledFeed("caltrain"), "caltrain"), (try FeedFixtures.bundledFeed("google-sample"), "google"),
             (folder.path, "tiny")])).isEmpty)
    }

    /// Against an independent reading of shapes.txt and trips.txt (unzip, plain CSV split).
    @Test("Bundled feeds: shapes and trips' shapes as shapes.txt and trips.txt say", arguments: ["bart-2018", "caltrain"])
    func bundled(_ name: String) throws {
        let path = try FeedFixtures.bundledFeed(name)
        let s = try SnapshotSink.load(path: path, feedId: name).0
        let folder = try FeedFixtures.unzip(path)
        defer { folder.remove() }

        // shapes.txt: id -> [(sequence, lat, lon, distance)].
        let header = try folder.header("shapes.txt")
        func col(_ n: String) -> Int? { header.firstIndex(of: n) }
        var points: [String: [(seq: Int, lat: Double, lon: Double, dist: Double)]] = [:]
        for line in try folder.lines("shapes.txt").dropFirst() {
            let f = CSVLine.split(String(decoding: TransitTesting.FeedFolder.splitLineEnd(line).content, as: UTF8.self))
            guard f.count > [col("shape_id")!, col("shape_pt_lat")!, col("shape_pt_lon")!, col("shape_pt_sequence")!].max()!
            else { continue }
            let dist = col("shape_dist_traveled").flatMap { $0 < f.count ? Double(f[$0]) : nil } ?? .nan
            points[f[col("shape_id")!], default: []].append((Int(f[col("shape_pt_sequence")!])!, Double(f[col("shape_pt_lat")!])!,
                                                             Double(f[col("shape_pt_lon")!])!, dist))
        }
        #expect(s.shapeIds == points.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) })
        #expect(s.shapePointOffsets.count == s.shapeIds.count + 1 && s.shapeFeed.allSatisfy { $0 == 0 })
        for (i, id) in s.shapeIds.enumerated() {
            let expected = (points[id] ?? []).sorted { $0.seq < $1.seq }
            let r = s.shapePoints(i)
            #expect(r.count == expected.count, "\(id)")
            guard r.count == expected.count else { continue }
            #expect(Array(s.shapeLatitude[r]) == expected.map(\.lat), "\(id)")
            #expect(Array(s.shapeLongitude[r]) == expected.map(\.lon), "\(id)")
            #expect(bits(Array(s.shapeDistance[r])) == bits(expected.map(\.dist)), "\(id)")
        }

        // Every trip naming a shape that exists points at it.
        let tripHeader = try folder.header("trips.txt")
        let tripCol = tripHeader.firstIndex(of: "trip_id")!, shapeCol = tripHeader.firstIndex(of: "shape_id")!
        var tripShape: [String: String] = [:]
        for line in try folder.lines("trips.txt").dropFirst() {
            let f = CSVLine.split(String(decoding: TransitTesting.FeedFolder.splitLineEnd(line).content, as: UTF8.self))
            if f.count > max(tripCol, shapeCol) { tripShape[f[tripCol]] = f[shapeCol] }
        }
        #expect(s.trips.count == tripShape.count)
        for t in s.trips {
            let id = tripShape[t.tripId] ?? ""
            if points[id] != nil {
                #expect(t.shape >= 0 && s.shapeIds[Int(t.shape)] == id, "\(t.tripId)")
            } else {
                #expect(t.shape == -1, "\(t.tripId)")
            }
        }
        #expect(s.trips.allSatisfy { $0.shape >= 0 })  // both feeds give every trip a shape

        if name == "bart-2018" {
            // Every stop and trip says 1; no shape_dist_traveled column.
            #expect(s.stops.count == 50 && s.stops.allSatisfy { $0.wheelchairBoarding == 1 })
            #expect(s.trips.count == 2_525 && s.trips.allSatisfy { $0.wheelchairAccessible == 1 })
            #expect(s.shapeIds.count == 12 && s.shapeLatitude.count == 25_074 && s.shapeDistance.allSatisfy(\.isNaN))
            #expect(s.shapeIds.first == "01_shp" && s.shapeLatitude.first == 38.018937 && s.shapeLongitude.first == -121.942073)
        } else {
            // No wheelchair columns: all 0. shapes.txt is not in shape_id byte order.
            #expect(s.stops.allSatisfy { $0.wheelchairBoarding == 0 } && s.trips.allSatisfy { $0.wheelchairAccessible == 0 })
            #expect(s.shapeIds.count == 6)
        }
    }
}
