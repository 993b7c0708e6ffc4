import Coverage
import FeedNetwork
import Foundation
import Geo
import GTFS
import Planner
import Testing
import Timetable
import TransitModel
import TransitTesting

/// Coverage regions of every shared feed: the exact area is the union of discs around
/// stops with service, the export follows Apple's coverage file rules and stays close.
/// The checks here are written from the rules, not from the code that builds regions:
/// point-in-polygon by ray casting, distances by PROJ's geodesic.
@Suite(.serialized) struct CoverageRegionTests {
    /// Ray casting, longitude as x: whether `p` lies inside `ring` (closed).
    static func inside(_ p: Coordinate, _ ring: [Coordinate]) -> Bool {
        var inside = false
        for (a, b) in zip(ring, ring.dropFirst()) where (a.latitude > p.latitude) != (b.latitude > p.latitude) {
            let x = a.longitude + (p.latitude - a.latitude) / (b.latitude - a.latitude) * (b.longitude - a.longitude)
            if p.longitude < x { inside.toggle() }
        }
        return inside
    }

    static func insideExact(_ p: Coordinate, _ polygons: [[[Coordinate]]]) -> Bool {
        polygons.contains { rings in inside(p, rings[0]) && !rings.dropFirst().contains { inside(p, $0) } }
    }

    /// Apple's rules for a routing-app coverage file, as the tests read them.
    static func validate(_ geo: [String: Any]) -> [String] {
        var problems: [String] = []
        guard geo["type"] as? String == "MultiPolygon", let polygons = geo["coordinates"] as? [[[[Double]]]] else {
            return ["not exactly one MultiPolygon"]
        }
        if polygons.isEmpty || polygons.count > 20 { problems.append("\(polygons.count) polygons (1 to 20 allowed)") }
        for (i, rings) in polygons.enumerated() {
            guard rings.count == 1 else { problems.append("polygon \(i) has \(rings.count - 1) holes"); continue }
            let ring = rings[0]
            if ring.count < 4 { problems.append("polygon \(i) has \(ring.count) positions") }
            if ring.first != ring.last { problems.append("polygon \(i) is not closed") }
            if ring.contains(where: { $0.count != 2 || abs($0[0]) > 180 || abs($0[1]) > 90 }) {
                problems.append("polygon \(i) has a position out of range")
            }
            let ring2 = ring.map { Coordinate(latitude: $0[1], longitude: $0[0]) }
            if CoverageBuilder.signedArea(ring2) <= 0 { problems.append("polygon \(i) is not counter-clockwise") }
        }
        return problems
    }

    @Test("every shared feed: stops inside, export valid and under 1.5× the exact area, the exact area exact",
          arguments: FeedFixtures.sharedFeedNames)
    func region(_ feedId: String) throws {
        // Throws, naming the file, when the shared feed is missing.
        let path = try FeedFixtures.sharedFeed(feedId)
        let (snapshot, _) = try SnapshotSink.load(path: path, feedId: feedId)
        let network = try TimetableBuilder.build(snapshot), tt = network.timetable
        let regions = try CoverageBuilder.regions(network)
        let r = try #require(regions.first)
        #expect(regions.count == 1)
        // The export as it is written to disk (rounded to 7 decimals).
        let geo = try #require(try JSONSerialization.jsonObject(with: Data(CoverageExport.text(r.export).utf8)) as? [String: Any])
        let problems = Self.validate(geo)
        #expect(problems.isEmpty, "\(feedId): \(problems)")
        let exportRings = ((geo["coordinates"] as? [[[[Double]]]]) ?? []).map { $0[0].map { Coordinate(latitude: $0[1], longitude: $0[0]) } }
        // Every stop with service inside both.
        var outsideExact = 0, outsideExport = 0
        for s in r.servedStops {
            let c = network.coordinate(ofStop: s)!
            if !Self.insideExact(c, r.exact) { outsideExact += 1 }
            if !exportRings.contains(where: { Self.inside(c, $0) }) { outsideExport += 1 }
        }
        #expect(outsideExact == 0 && outsideExport == 0, "\(feedId): \(outsideExact) stops outside the exact area, \(outsideExport) outside the export")
        #expect(r.exportRatio < 1.5, "\(feedId): export \(r.exportAreaKm2) km² is \(r.exportRatio)× the exact \(r.exactAreaKm2) km²")
        // Sampled points: farther than the radius (+5 m) from every stop with service are
        // outside; nearer (−5 m) are inside. maxAccessWalk beeline (1000 m) is well outside.
        var rng = SeededRandom(seed: UInt64(feedId.utf8.count) &* 977)
        let stops = r.servedStops.map { network.coordinate(ofStop: $0)! }
        var checked = 0, wrong: [String] = []
        for _ in 0..<150 {
            let from = stops[Int.random(in: 0..<stops.count, using: &rng)]
            let p = Geodesic.destination(from: from, azimuthDegrees: Double.random(in: 0..<360, using: &rng),
                                         meters: Double.random(in: 500..<1500, using: &rng))
            let d = stops.map { Geodesic.distance(p, $0) }.min()!
            guard abs(d - r.radiusMeters) > 5 else { continue }
            checked += 1
            let expected = d < r.radiusMeters
            if Self.insideExact(p, r.exact) != expected { wrong.append("\(p) at \(Int(d)) m from the nearest stop") }
        }
        #expect(checked > 100)
        #expect(wrong.isEmpty, "\(feedId): \(wrong.count) sampled points on the wrong side: \(wrong.prefix(3))")
        print("\(feedId): \(r.stops) stops, exact \(String(format: "%.1f", r.exactAreaKm2)) km² in \(r.exact.count) polygons, "
              + "export \(String(format: "%.1f", r.exportAreaKm2)) km² (\(String(format: "%.2f", r.exportRatio))×) in "
              + "\(r.export.count) polygons, \(r.exportPoints) points")
    }
}
