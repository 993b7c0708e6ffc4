import Foundation
import Geo
import Streets
import Testing
import TransitStore
import TransitTesting

// The walk graph's lengths against two independent implementations over the same imported
// edges (the issue's must-show 2): pgRouting in PostgreSQL (`pgr_dijkstraCost` node to node,
// `pgr_withPointsCost` between points along edges) and the tests' ReferenceStreets (snapped
// places). Equal within 1 m where both find a walk, none in both where neither does.

/// Ours may stop searching beyond this; pairs are picked within `pairBeeline` of each other,
/// so a walk missing on both sides means another piece of the graph.
private let searchLimit = 5000.0
private let pairBeeline = 3000.0

@Suite(.serialized) struct PgRoutingComparisonTests {
    static let regions = ["milan", "porto-alegre"]

    /// Random node pairs within `pairBeeline`: `sources` sources with `perSource` targets each.
    static func nodePairs(_ t: StreetTables, sources: Int, perSource: Int, rng: inout SeededRandom) -> [(Int, [Int])] {
        let used = Set(t.edgeSource.map(Int.init) + t.edgeTarget.map(Int.init)).sorted()
        func coordinate(_ n: Int) -> Coordinate { Coordinate(latitude: t.nodeLatitude[n], longitude: t.nodeLongitude[n]) }
        return (0..<sources).map { _ in
            let a = used[Int.random(in: 0..<used.count, using: &rng)]
            var targets: [Int] = []
            for _ in 0..<perSource * 200 where targets.count < perSource {
                let b = used[Int.random(in: 0..<used.count, using: &rng)]
                if b != a && Geodesic.distance(coordinate(a), coordinate(b)) <= pairBeeline { targets.append(b) }
            }
            return (a, targets)
        }
    }

    @Test("node to node: WalkGraph = pgr_dijkstraCost = ReferenceStreets on 1,000 random pairs", arguments: regions)
    func nodes(_ region: String) throws {
        let imported = try StreetFixtures.imported(region)
        let t = imported.tables
        let graph = WalkGraph(t), reference = ReferenceStreets(t)
        var rng = SeededRandom(seed: 20_261_125 &+ UInt64(region.utf8.count))
        let pairs = Self.nodePairs(t, sources: 100, perSource: 10, rng: &rng)
        #expect(pairs.reduce(0) { $0 + $1.1.count } >= 1000)

        // pgRouting: all pairs in one call (combinations), by OpenStreetMap node id.
        let combinations = pairs.flatMap { a, targets in targets.map { "(\(t.nodeId[a]),\(t.nodeId[$0]))" } }
        let db = try imported.database.connect()
        var pg: [String: Double] = [:]
        for row in try db.query("""
            SELECT start_vid, end_vid, agg_cost FROM pgr_dijkstraCost(
              'SELECT id, source, target, cost, cost AS reverse_cost FROM \(imported.summary.table)',
              'SELECT * FROM (VALUES \(combinations.joined(separator: ","))) AS c(source, target)', directed => false)
            """) {
            pg["\(row[0]!)>\(row[1]!)"] = Double(row[2]!)!
        }

        var compared = 0, bothNone = 0, beyondLimit = 0
        for (a, targets) in pairs {
            let source = try #require(graph.node(osmId: t.nodeId[a]))
            let ours = graph.nodeWalkMeters(from: source, limit: searchLimit)
            let theirs = reference.nodeWalkMeters(from: a, limit: searchLimit)
            for b in targets {
                let target = try #require(graph.node(osmId: t.nodeId[b]))
                let expected = pg["\(t.nodeId[a])>\(t.nodeId[b])"]
                let got = ours[target], ref = theirs[b]
                let pair = "\(region) node \(t.nodeId[a]) -> \(t.nodeId[b])"
                switch (expected, got) {
                case let (e?, g?):
                    compared += 1
                    #expect(abs(e - g) <= 1, "\(pair): pgRouting \(e) m, WalkGraph \(g) m")
                case let (e?, nil):
                    beyondLimit += 1
                    #expect(e > searchLimit - 1, "\(pair): pgRouting \(e) m, WalkGraph none within \(searchLimit) m")
                case let (nil, g?):
                    Issue.record("\(pair): pgRouting finds no path, WalkGraph \(g) m")
                case (nil, nil):
                    bothNone += 1
                }
                #expect(got.map { g in ref.map { abs($0 - g) <= 1 } ?? false } ?? (ref == nil), "\(pair): WalkGraph \(got as Any), reference \(ref as Any)")
            }
        }
        print("pgRouting nodes \(region): \(compared) equal within 1 m, \(bothNone) with no path in both, \(beyondLimit) beyond \(searchLimit) m")
        #expect(compared >= 900)
    }

    /// Random places near the streets: a node's position moved up to 150 m (some do not snap).
    static func places(_ t: StreetTables, count: Int, rng: inout SeededRandom) -> [Coordinate] {
        (0..<count).map { _ in
            let n = Int(t.edgeSource[Int.random(in: 0..<t.edgeCount, using: &rng)])
            return Geodesic.destination(from: Coordinate(latitude: t.nodeLatitude[n], longitude: t.nodeLongitude[n]),
                                        azimuthDegrees: Double.random(in: 0..<360, using: &rng),
                                        meters: Double.random(in: 0..<150, using: &rng))
        }
    }

    @Test("snapped places: WalkGraph = ReferenceStreets = pgr_withPointsCost on 200 random places (2,000+ pairs)", arguments: regions)
    func places(_ region: String) throws {
        let imported = try StreetFixtures.imported(region)
        let t = imported.tables
        let graph = WalkGraph(t), reference = ReferenceStreets(t)
        var rng = SeededRandom(seed: 20_261_126 &+ UInt64(region.utf8.count))
        // Ten clusters of 20 places, each within 1.5 km of a random place near the streets.
        var places: [Coordinate] = []
        for center in Self.places(t, count: 10, rng: &rng) {
            for _ in 0..<20 {
                places.append(Geodesic.destination(from: center, azimuthDegrees: Double.random(in: 0..<360, using: &rng),
                                                   meters: Double.random(in: 0..<pairBeeline / 2, using: &rng)))
            }
        }
        // Snaps: the same point, or an equally near one.
        var ours: [StreetSnap?] = [], theirs: [ReferenceStreets.Snap?] = []
        for c in places {
            let g = graph.snap(c), r = reference.snap(c)
            ours.append(g); theirs.append(r)
            #expect((g == nil) == (r == nil) || abs((g?.offset ?? r!.offset) - 100) < 0.01, "\(region) \(c): WalkGraph snap \(g as Any), reference \(r as Any)")
            if let g, let r { #expect(abs(g.offset - r.offset) < 0.01, "\(region) \(c): snap offsets \(g.offset), \(r.offset)") }
        }
        let snapped = places.indices.filter { ours[$0] != nil && theirs[$0] != nil }
        #expect(snapped.count >= 150)

        // Every pair of snapped places of a cluster: WalkGraph against the reference.
        var compared = 0, none = 0
        var referenceMeters: [Int: [Double?]] = [:]
        let groups = stride(from: 0, to: places.count, by: 20).map { start in snapped.filter { $0 >= start && $0 < start + 20 } }
        for group in groups {
            for a in group {
                let g = graph.walkMeters(from: ours[a]!, to: group.map { ours[$0]! }, limit: searchLimit)
                let r = reference.walkMeters(from: theirs[a]!, to: group.map { theirs[$0]! }, limit: searchLimit)
                referenceMeters[a] = r
                for (k, b) in group.enumerated() {
                    if let x = g[k], let y = r[k] { compared += 1; #expect(abs(x - y) <= 1, "\(region) place \(a) -> \(b): WalkGraph \(x), reference \(y)") }
                    else if g[k] == nil && r[k] == nil { none += 1 }
                    else { Issue.record("\(region) place \(a) -> \(b): WalkGraph \(g[k] as Any), reference \(r[k] as Any)") }
                }
            }
        }
        print("places \(region): \(compared) walks equal within 1 m, \(none) with none in both")
        #expect(compared >= 2000)

        // pgRouting between the reference's points (fraction along the edge), plus the offsets.
        let db = try imported.database.connect()
        let count = Int(try db.scalar("SELECT count(*) FROM \(imported.summary.table)") ?? "") ?? -1
        try #require(count == t.edgeCount, "the loaded tables hold every edge of the table, in id order")
        var pgCompared = 0
        for group in groups {
            // A point at an edge's end is that node (pgRouting would merge it into the node).
            func fraction(_ i: Int) -> Double {
                let s = theirs[i]!, length = Double(t.edgeLength[s.edge])
                return length > 0 ? min(1, s.along / length) : 0
            }
            func vid(_ i: Int) -> String {
                let s = theirs[i]!, f = fraction(i)
                return f <= 0 ? "\(t.nodeId[Int(t.edgeSource[s.edge])])" : f >= 1 ? "\(t.nodeId[Int(t.edgeTarget[s.edge])])" : "-\(i + 1)"
            }
            let points = group.filter { fraction($0) > 0 && fraction($0) < 1 }.map { "(\($0 + 1),\(theirs[$0]!.edge + 1),\(fraction($0)))" }
            let ids = Set(group.map(vid)).joined(separator: ",")
            var pg: [String: Double] = [:]
            for row in try db.query("""
                SELECT start_pid, end_pid, agg_cost FROM pgr_withPointsCost(
                  'SELECT id, source, target, cost, cost AS reverse_cost FROM \(imported.summary.table)',
                  'SELECT * FROM (VALUES \(points.isEmpty ? "(0,1,0.5)" : points.joined(separator: ","))) AS p(pid, edge_id, fraction)',
                  ARRAY[\(ids)]::bigint[], ARRAY[\(ids)]::bigint[], directed => false)
                """) {
                pg["\(row[0]!)>\(row[1]!)"] = Double(row[2]!)!
            }
            for a in group {
                let r = referenceMeters[a]!
                for (k, b) in group.enumerated() where a != b {
                    let expected = (vid(a) == vid(b) ? 0 : pg["\(vid(a))>\(vid(b))"]).map { $0 + theirs[a]!.offset + theirs[b]!.offset }
                    if let e = expected, let y = r[k] { pgCompared += 1; #expect(abs(e - y) <= 1, "\(region) place \(a) -> \(b): pgRouting \(e), reference \(y)") }
                    else { #expect(r[k] == nil && (expected ?? .infinity) > searchLimit - 1, "\(region) place \(a) -> \(b): pgRouting \(expected as Any), reference \(r[k] as Any); \(theirs[a]!) length \(t.edgeLength[theirs[a]!.edge]) source \(t.nodeId[Int(t.edgeSource[theirs[a]!.edge])]) target \(t.nodeId[Int(t.edgeTarget[theirs[a]!.edge])])") }
                }
            }
        }
        print("places \(region): \(pgCompared) walks equal to pgRouting's within 1 m")
        #expect(pgCompared >= 2000)
    }
}
