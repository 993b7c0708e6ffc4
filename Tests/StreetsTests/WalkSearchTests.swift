import Foundation
import Geo
import Testing
@testable import Streets

/// The walk graph's searches against a plain Dijkstra written here, on random graphs.
@Suite struct WalkSearchTests {
    /// About 500 nodes in a 1.5 km square, each joined to its nearest neighbours; some
    /// edges bent, some steps, some marked wheelchair=no.
    static func randomStreets(seed: UInt64) -> StreetTables {
        var rng = Mix(state: seed)
        var b = StreetBuilder()
        var xy: [(Double, Double)] = []
        for _ in 0..<500 {
            let p = (rng.unit() * 1500, rng.unit() * 1500)
            xy.append(p); b.node(p.0, p.1)
        }
        for i in 0..<xy.count {
            let near = (0..<xy.count).filter { $0 != i }
                .sorted { hypot(xy[$0].0 - xy[i].0, xy[$0].1 - xy[i].1) < hypot(xy[$1].0 - xy[i].0, xy[$1].1 - xy[i].1) }
            for j in near.prefix(1 + rng.int(3)) where j > i || rng.int(2) == 0 {
                let roll = rng.int(20)
                let kind: StreetKind = roll < 2 ? .steps : roll < 4 ? .crossing : roll < 12 ? .road : .footway
                let inner = rng.int(3) == 0
                    ? [((xy[i].0 + xy[j].0) / 2 + rng.unit() * 20 - 10, (xy[i].1 + xy[j].1) / 2 + rng.unit() * 20 - 10)] : []
                b.edge(Int32(i), Int32(j), inner: inner, name: rng.int(3) == 0 ? nil : "Street \(rng.int(40))", kind: kind,
                       flags: rng.int(25) == 0 ? .noWheelchair : [])
            }
        }
        return b.tables
    }

    /// The model walk meters by a plain O(n²) Dijkstra over the tables.
    static func plainWalk(_ t: StreetTables, from a: StreetSnap, to z: StreetSnap, limit: Double, wheelchair: Bool) -> Double? {
        func barred(_ e: Int) -> Bool { wheelchair && (t.edgeKind[e] == .steps || t.edgeFlags[e].contains(.noWheelchair)) }
        func cost(_ e: Int) -> Double { Double(t.edgeLength[e]) * (t.edgeKind[e] == .steps ? 2 : 1) }
        func factor(_ e: Int) -> Double { t.edgeKind[e] == .steps ? 2 : 1 }
        if barred(Int(a.edge)) || barred(Int(z.edge)) { return nil }
        var dist = [Double](repeating: .infinity, count: t.nodeCount)
        var done = [Bool](repeating: false, count: t.nodeCount)
        let ea = Int(a.edge), ez = Int(z.edge)
        dist[Int(t.edgeSource[ea])] = a.offset + a.along * factor(ea)
        dist[Int(t.edgeTarget[ea])] = min(dist[Int(t.edgeTarget[ea])], a.offset + (Double(t.edgeLength[ea]) - a.along) * factor(ea))
        while true {
            var best = -1
            for n in 0..<t.nodeCount where !done[n] && dist[n] < .infinity && (best < 0 || dist[n] < dist[best]) { best = n }
            if best < 0 { break }
            done[best] = true
            for e in 0..<t.edgeCount where !barred(e) {
                let s = Int(t.edgeSource[e]), d = Int(t.edgeTarget[e])
                if s == best { dist[d] = min(dist[d], dist[best] + cost(e)) }
                if d == best { dist[s] = min(dist[s], dist[best] + cost(e)) }
            }
        }
        var walk = min(dist[Int(t.edgeSource[ez])] + z.along * factor(ez),
                       dist[Int(t.edgeTarget[ez])] + (Double(t.edgeLength[ez]) - z.along) * factor(ez)) + z.offset
        if ea == ez { walk = min(walk, a.offset + abs(a.along - z.along) * factor(ez) + z.offset) }
        return walk <= limit ? walk : nil
    }

    /// Whether `p` lies on the straight segment `a`–`b` (within 5 cm).
    static func onSegment(_ p: Coordinate, _ a: Coordinate, _ b: Coordinate) -> Bool {
        let ky = 111_132.0, kx = 111_320.0 * cos(p.latitude * .pi / 180)
        let ax = (a.longitude - p.longitude) * kx, ay = (a.latitude - p.latitude) * ky
        let bx = (b.longitude - p.longitude) * kx, by = (b.latitude - p.latitude) * ky
        let dx = bx - ax, dy = by - ay, l2 = dx * dx + dy * dy
        let f = l2 > 0 ? min(1, max(0, -(ax * dx + ay * dy) / l2)) : 0
        return hypot(ax + f * dx, ay + f * dy) < 0.05
    }

    @Test("walkMeters agrees with a plain Dijkstra on random graphs (200 pairs), and route with walkMeters",
          arguments: [UInt64(1), 2])
    func randomPairs(seed: UInt64) throws {
        let tables = Self.randomStreets(seed: seed)
        let g = WalkGraph(tables)
        // Every straight segment of every edge, for checking that walks follow the streets.
        var segments: [(Coordinate, Coordinate)] = []
        for e in 0..<g.edgeCount { for i in 0..<(g.pointCount(e) - 1) { segments.append((g.coordinate(e, i), g.coordinate(e, i + 1))) } }

        var rng = Mix(state: seed &* 7919)
        var compared = 0, found = 0
        while compared < 200 {
            guard let a = g.snap(StreetBuilder.at(rng.unit() * 1500, rng.unit() * 1500)) else { continue }
            var targets: [StreetSnap] = []
            while targets.count < 10 {
                if let z = g.snap(StreetBuilder.at(rng.unit() * 1500, rng.unit() * 1500)) { targets.append(z) }
            }
            // Now and then a target on the start's own edge.
            let (p0, p1) = (g.coordinate(Int(a.edge), 0), g.coordinate(Int(a.edge), 1))
            let f = rng.unit()
            if let z = g.snap(Coordinate(latitude: p0.latitude + f * (p1.latitude - p0.latitude),
                                         longitude: p0.longitude + f * (p1.longitude - p0.longitude))) { targets[9] = z }
            let limit = 500 + rng.unit() * 3000, wheelchair = rng.int(3) == 0
            let walks = g.walkMeters(from: a, to: targets, limit: limit, wheelchair: wheelchair)
            for (z, walk) in zip(targets, walks) {
                let plain = Self.plainWalk(tables, from: a, to: z, limit: limit, wheelchair: wheelchair)
                #expect((walk == nil) == (plain == nil), "seed \(seed) pair \(compared): \(String(describing: walk)) vs \(String(describing: plain))")
                if let walk, let plain { #expect(abs(walk - plain) < 1e-6 * max(1, plain)) }
                compared += 1
                let r = g.route(from: a, to: z, limit: limit, wheelchair: wheelchair)
                #expect(r?.walkMeters == walk)
                guard let r else { continue }
                found += 1
                #expect(r.geometry.first == a.place && r.geometry.last == z.place)
                #expect(r.meters <= r.walkMeters + 1e-6 && r.meters + 1e-6 >= Geodesic.distance(a.place, z.place) * 0.999)
                #expect(abs(r.steps.reduce(0) { $0 + $1.meters } - r.meters) < 1e-6 * max(1, r.meters))
                #expect(r.steps.first?.action == .depart && r.steps.first?.pointIndex == 0)
                #expect(zip(r.steps, r.steps.dropFirst()).allSatisfy { $0.pointIndex < $1.pointIndex })
                // Between the snapped points every straight piece lies on one edge's segment.
                let inner = Array(r.geometry.dropFirst().dropLast())
                for (p, q) in zip(inner, inner.dropFirst()) {
                    #expect(segments.contains { Self.onSegment(p, $0.0, $0.1) && Self.onSegment(q, $0.0, $0.1) },
                            "seed \(seed): \(p) -> \(q) is not along an edge")
                }
            }
        }
        #expect(found > 50)
    }

    @Test("nodeWalkMeters agrees with the plain Dijkstra from a node")
    func nodeToNode() {
        let tables = Self.randomStreets(seed: 3)
        let g = WalkGraph(tables)
        let from = Int32(17)
        let all = g.nodeWalkMeters(from: from, limit: 800)
        // A snap sitting on the node (zero offset, at the start of an edge out of it).
        let e = tables.edgeSource.firstIndex(of: from)!
        let c = g.coordinate(node: from)
        let a = StreetSnap(place: c, point: c, edge: Int32(e), along: 0, offset: 0)
        var checked = 0
        for n in stride(from: 0, to: tables.nodeCount, by: 5) {
            guard let out = tables.edgeSource.firstIndex(of: Int32(n)) else { continue }
            let cn = g.coordinate(node: Int32(n))
            let z = StreetSnap(place: cn, point: cn, edge: Int32(out), along: 0, offset: 0)
            let plain = Self.plainWalk(tables, from: a, to: z, limit: 800, wheelchair: false)
            #expect((all[Int32(n)] == nil) == (plain == nil))
            if let d = all[Int32(n)], let plain { #expect(abs(d - plain) < 1e-6 * max(1, plain)) }
            checked += 1
        }
        #expect(checked > 50 && all.count > 10)
    }
}
