import Testing
import TransitTesting
@testable import Geo

@Suite struct GridIndexTests {
    typealias Point = (x: Double, y: Double)

    static func bruteWithin(_ pts: [Point], _ x: Double, _ y: Double, _ r: Double) -> [Int32] {
        var out: [Int32] = []
        for (i, p) in pts.enumerated() where p.x.isFinite && p.y.isFinite {
            let dx = p.x - x, dy = p.y - y
            if dx * dx + dy * dy <= r * r { out.append(Int32(i)) }
        }
        return out
    }

    /// Nearest with the index's documented tie rule (smallest index wins).
    static func bruteNearest(_ pts: [Point], _ x: Double, _ y: Double) -> Int32? {
        var best: Int32? = nil, best2 = Double.infinity
        for (i, p) in pts.enumerated() where p.x.isFinite && p.y.isFinite {
            let dx = p.x - x, dy = p.y - y
            let d2 = dx * dx + dy * dy
            if best == nil || d2 < best2 { best = Int32(i); best2 = d2 }
        }
        return best
    }

    static func randomPoints(_ n: Int, span: Double, seed: UInt64) -> [Point] {
        var rng = SeededRandom(seed: seed)
        return (0..<n).map { _ in (Double.random(in: -span...span, using: &rng), Double.random(in: -span...span, using: &rng)) }
    }

    static func check(_ pts: [Point], cell: Double, queries: Int, span: Double, maxRadius: Double, seed: UInt64) {
        let index = GridIndex(points: pts, cellMeters: cell)
        var rng = SeededRandom(seed: seed)
        var buffer: [Int32] = []
        for _ in 0..<queries {
            // Queries also fall outside the points' bounding box.
            let x = Double.random(in: -1.5 * span...1.5 * span, using: &rng)
            let y = Double.random(in: -1.5 * span...1.5 * span, using: &rng)
            let r = Double.random(in: 0...maxRadius, using: &rng)
            let got = index.within(x: x, y: y, radiusMeters: r)
            #expect(got.sorted() == bruteWithin(pts, x, y, r), "within(\(x), \(y), \(r))")
            buffer.removeAll(keepingCapacity: true)
            index.within(x: x, y: y, radiusMeters: r, into: &buffer)
            #expect(buffer == got)
            #expect(index.nearest(x: x, y: y) == bruteNearest(pts, x, y), "nearest(\(x), \(y))")
        }
    }

    @Test func matchesBruteForce() {
        let pts = Self.randomPoints(2000, span: 5000, seed: 1)
        Self.check(pts, cell: 250, queries: 500, span: 5000, maxRadius: 1500, seed: 2)
    }

    @Test func matchesBruteForceWithOddCellSizes() {
        let pts = Self.randomPoints(2000, span: 5000, seed: 3)
        for cell in [1.0, 37.3, 999, 20_000] {
            Self.check(pts, cell: cell, queries: 80, span: 5000, maxRadius: 3000, seed: 4)
        }
    }

    /// Clustered points (dense city + sparse outliers) and exact duplicates (ties).
    @Test func clusteredAndDuplicates() {
        var pts = Self.randomPoints(1500, span: 300, seed: 5)
        pts += Self.randomPoints(50, span: 50_000, seed: 6)
        pts += pts.prefix(200)  // duplicates: nearest must return the smaller index
        Self.check(pts, cell: 100, queries: 300, span: 50_000, maxRadius: 5000, seed: 7)
        Self.check(pts, cell: 100, queries: 300, span: 300, maxRadius: 200, seed: 8)
        let index = GridIndex(points: pts, cellMeters: 100)
        #expect(index.nearest(x: pts[10].x, y: pts[10].y) == 10)
        #expect(index.within(x: pts[10].x, y: pts[10].y, radiusMeters: 0).sorted() == [10, 1560])
    }

    @Test func edgeCases() {
        let empty = GridIndex(points: [], cellMeters: 100)
        #expect(empty.within(x: 0, y: 0, radiusMeters: 1e9).isEmpty)
        #expect(empty.nearest(x: 0, y: 0) == nil)

        // Non-finite points are skipped; all-identical points form a 1×1 grid.
        let pts: [Point] = [(5, 5), (.nan, 0), (5, 5), (.infinity, 1), (5, 5)]
        let index = GridIndex(points: pts, cellMeters: 10)
        #expect(index.count == 5 && index.indexedCount == 3)
        #expect(index.columns == 1 && index.rows == 1)
        #expect(index.within(x: 0, y: 0, radiusMeters: .infinity).sorted() == [0, 2, 4])
        #expect(index.within(x: 5, y: 5, radiusMeters: 0).sorted() == [0, 2, 4])
        #expect(index.within(x: 5, y: 5, radiusMeters: -1).isEmpty)
        #expect(index.within(x: .nan, y: 5, radiusMeters: 10).isEmpty)
        #expect(index.nearest(x: 1e6, y: -1e6) == 0)
        #expect(index.nearest(x: .nan, y: 0) == nil)

        // A tiny cell size over a huge spread is enlarged to bound the cell count.
        let spread: [Point] = [(0, 0), (1e7, 1e7), (3, 4)]
        let big = GridIndex(points: spread, cellMeters: 0.001)
        #expect(big.columns * big.rows <= 64)
        #expect(big.cellMeters > 0.001)
        #expect(big.nearest(x: 1, y: 1) == 0)
        #expect(big.within(x: 0, y: 0, radiusMeters: 5).sorted() == [0, 2])
    }

    /// End to end: project real coordinates, then query in meters.
    @Test func withProjectedStops() throws {
        let center = Coordinate(latitude: 52.52, longitude: 13.405)
        let proj = try LocalProjection(center: center)
        let stops = LocalProjectionTests.randomAround(center, km: 10, count: 2000, seed: 12)
        let index = GridIndex(points: proj.project(stops), cellMeters: 300)
        let q = stops[42]
        let p = proj.project(q)
        for i in index.within(x: p.x, y: p.y, radiusMeters: 400) {
            #expect(Geodesic.distance(q, stops[Int(i)]) <= 400 * 1.001)
        }
        #expect(index.nearest(x: p.x, y: p.y) == 42)
    }
}
