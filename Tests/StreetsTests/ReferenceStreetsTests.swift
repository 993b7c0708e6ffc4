import Foundation
import Geo
import Streets
import Testing
import TransitTesting

// The tests' street reference (TransitTesting.ReferenceStreets) on street tables built in
// code, with answers derived by hand or by brute force (Floyd–Warshall, every segment), so
// that it can be trusted as the yardstick of the walk graph on real extracts.

private let origin = Coordinate(latitude: 45.46, longitude: 9.19)

/// A 7 × 7 grid, 100 m apart (84 edges), plus `extra` nodes and edges.
private func gridTables(extraNodes: [Coordinate] = [], extraEdges: [StreetFixtures.Edge] = [],
                        change: (inout [StreetFixtures.Edge]) -> Void = { _ in }) -> StreetTables {
    var (nodes, edges) = StreetFixtures.grid(origin: origin, size: 7, spacing: 100)
    change(&edges)
    return StreetFixtures.tables(nodes: nodes + extraNodes, edges: edges + extraEdges)
}

private func point(_ north: Double, _ east: Double) -> Coordinate {
    Geodesic.destination(from: Geodesic.destination(from: origin, azimuthDegrees: 0, meters: north), azimuthDegrees: 90, meters: east)
}

@Suite struct ReferenceStreetsTests {
    @Test("a place snaps to its projection onto the nearest edge, not to a node")
    func snapProjects() throws {
        let streets = ReferenceStreets(gridTables())
        let s = try #require(streets.snap(point(30, 50)))
        #expect(s.edge == 0)
        #expect(abs(s.along - 50) < 0.5)
        #expect(abs(s.offset - 30) < 0.5)
        #expect(abs(Geodesic.distance(s.point, point(0, 50))) < 0.5)
        // 101 m outside the grid: nothing within 100 m.
        #expect(streets.snap(point(-101, 300)) == nil)
        #expect(streets.snap(point(-99, 300)) != nil)
    }

    @Test("two places on the same edge walk straight along it; the offsets count")
    func sameEdge() throws {
        let streets = ReferenceStreets(gridTables())
        let a = try #require(streets.snap(point(10, 20))), b = try #require(streets.snap(point(-5, 70)))
        #expect(a.edge == b.edge)
        let m = try #require(streets.walkMeters(from: a, to: [b], limit: 1000)[0])
        #expect(abs(m - (10 + 50 + 5)) < 0.5)
        // Both ways alike.
        let back = try #require(streets.walkMeters(from: b, to: [a], limit: 1000)[0])
        #expect(abs(back - m) < 1e-9)
        // The limit applies to the whole walk, offsets included.
        #expect(streets.walkMeters(from: a, to: [b], limit: 64)[0] == nil)
    }

    @Test("a walk across the grid goes along edges and from the snapped points to the nodes")
    func acrossGrid() throws {
        let streets = ReferenceStreets(gridTables())
        // (20 north of the middle of edge 0→1) to (10 west of the middle of the vertical edge at column 6, rows 3–4).
        let a = try #require(streets.snap(point(20, 50))), b = try #require(streets.snap(point(350, 590)))
        let m = try #require(streets.walkMeters(from: a, to: [b], limit: 5000)[0])
        // 50 to node 1, 500 east, 350 north, plus 20 and 10 of offsets.
        #expect(abs(m - 930) < 1)
        #expect(streets.walkMeters(from: a, to: [b], limit: 900)[0] == nil)
    }

    @Test("steps count twice; a wheelchair goes around them, or does not snap to them")
    func steps() throws {
        // Node 7 (row 1, column 0) to node 8 (row 1, column 1): the first east edge of row 1 is edge 6.
        let pendant = point(-150, 0)
        let streets = ReferenceStreets(gridTables(extraNodes: [pendant], extraEdges: [.init(0, 49, kind: .steps)]) { edges in
            edges[6].kind = .steps
        })
        let a = try #require(streets.snap(point(100, 5))), b = try #require(streets.snap(point(100, 95)))
        #expect(a.edge == 6 && b.edge == 6)
        #expect(abs(try #require(streets.walkMeters(from: a, to: [b], limit: 1000)[0]) - 180) < 0.5)
        // A wheelchair snaps elsewhere (nodes 7 and 8 on the vertical edges, 5 m away) and goes
        // around a block: 5 + 300 + 5.
        let wa = try #require(streets.snap(point(100, 5), wheelchair: true)), wb = try #require(streets.snap(point(100, 95), wheelchair: true))
        #expect(wa.edge != 6 && wb.edge != 6)
        #expect(abs(try #require(streets.walkMeters(from: wa, to: [wb], limit: 1000, wheelchair: true)[0]) - 310) < 0.5)
        // The pendant's steps: 150 m doubled; a wheelchair place there snaps nowhere.
        let p = try #require(streets.snap(point(-140, 0)))
        let corner = try #require(streets.snap(point(0, -5)))
        #expect(abs(try #require(streets.walkMeters(from: p, to: [corner], limit: 1000)[0]) - (280 + 5)) < 0.5)
        #expect(streets.snap(point(-140, 0), wheelchair: true) == nil)
        #expect(streets.nodeWalkMeters(from: 49, limit: 1000)[0].map { abs($0 - 300) < 0.5 } == true)
    }

    @Test("an island of fewer than 40 edges is not snapped to; walks never reach it")
    func islands() throws {
        // A 3-edge path 2 km east of the grid.
        let island = [point(0, 2000), point(0, 2100), point(0, 2200), point(0, 2300)]
        let streets = ReferenceStreets(gridTables(extraNodes: island, extraEdges: [.init(49, 50), .init(50, 51), .init(51, 52)]))
        #expect(streets.snap(point(10, 2050)) == nil)
        #expect(streets.nodeWalkMeters(from: 49, limit: 100_000).count == 4)
        #expect(streets.nodeWalkMeters(from: 0, limit: 100_000).count == 49)
    }

    @Test("node walks equal Floyd–Warshall on random graphs; snaps equal the nearest point of every segment")
    func bruteForce() throws {
        var rng = SeededRandom(seed: 20_261_125)
        for round in 0..<12 {
            let n = 30
            let nodes = (0..<n).map { _ in point(Double.random(in: 0..<1000, using: &rng), Double.random(in: 0..<1000, using: &rng)) }
            // A path through every node (one piece of at least 40 edges), then random edges.
            var edges = (1..<n).map { StreetFixtures.Edge($0 - 1, $0) }
            for _ in 0..<40 {
                let a = Int.random(in: 0..<n, using: &rng), b = Int.random(in: 0..<n, using: &rng)
                let inner = Bool.random(using: &rng) ? [point(Double.random(in: 0..<1000, using: &rng), Double.random(in: 0..<1000, using: &rng))] : []
                edges.append(.init(a, b, inner: inner, kind: Int.random(in: 0..<5, using: &rng) == 0 ? .steps : .road))
            }
            let t = StreetFixtures.tables(nodes: nodes, edges: edges)
            let streets = ReferenceStreets(t)
            // Floyd–Warshall.
            var d = [[Double]](repeating: [Double](repeating: .infinity, count: n), count: n)
            for i in 0..<n { d[i][i] = 0 }
            for (e, edge) in edges.enumerated() {
                let w = Double(t.edgeLength[e]) * (edge.kind == .steps ? 2 : 1)
                d[edge.source][edge.target] = min(d[edge.source][edge.target], w)
                d[edge.target][edge.source] = min(d[edge.target][edge.source], w)
            }
            for k in 0..<n { for i in 0..<n { for j in 0..<n where d[i][k] + d[k][j] < d[i][j] { d[i][j] = d[i][k] + d[k][j] } } }
            for i in 0..<n {
                let found = streets.nodeWalkMeters(from: i, limit: 1500)
                for j in 0..<n {
                    #expect(found[j].map { abs($0 - d[i][j]) < 1e-6 } ?? (d[i][j] > 1500), "round \(round): \(i) -> \(j)")
                }
            }
            // Snaps: the nearest point of every segment, by golden-section search on the geodesic distance.
            for _ in 0..<15 {
                let c = point(Double.random(in: -80..<1080, using: &rng), Double.random(in: -80..<1080, using: &rng))
                var best = Double.infinity
                for edge in edges {
                    let points = [nodes[edge.source]] + edge.inner + [nodes[edge.target]]
                    for (a, b) in zip(points, points.dropFirst()) {
                        func at(_ f: Double) -> Double {
                            Geodesic.distance(c, Coordinate(latitude: a.latitude + f * (b.latitude - a.latitude),
                                                            longitude: a.longitude + f * (b.longitude - a.longitude)))
                        }
                        var lo = 0.0, hi = 1.0
                        for _ in 0..<40 {
                            let m1 = lo + (hi - lo) * 0.382, m2 = lo + (hi - lo) * 0.618
                            if at(m1) < at(m2) { hi = m2 } else { lo = m1 }
                        }
                        best = min(best, at(0), at(1), at((lo + hi) / 2))
                    }
                }
                if let s = streets.snap(c) {
                    #expect(abs(s.offset - best) < 0.05, "round \(round): snap of \(c)")
                    #expect(abs(Geodesic.distance(c, s.point) - s.offset) < 1e-9)
                } else {
                    #expect(best > 99.95, "round \(round): \(c) did not snap, nearest \(best)")
                }
            }
        }
    }
}
