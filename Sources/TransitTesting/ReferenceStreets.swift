import Foundation
import Geo
import Streets

/// The tests' reference for walks along streets: the routing model's "Streets" section
/// (`docs/routing-model.md`) written plainly from the same `StreetTables`, sharing no code
/// with `Streets.WalkGraph`, which it checks. Slow on purpose where plain is clearer: node
/// adjacency as arrays of arrays, islands by union-find, snapping by brute force over the
/// segments of a coarse grid's cells, Dijkstra with a hand-written binary heap and a fresh
/// distance array per search.
public final class ReferenceStreets: @unchecked Sendable {
    /// Where a place meets the streets.
    public struct Snap: Sendable, Equatable {
        /// The place snapped.
        public var place: Coordinate
        /// Its projection onto the nearest segment of the nearest edge.
        public var point: Coordinate
        public var edge: Int
        /// Meters along the edge's geometry from its source to `point`.
        public var along: Double
        /// Beeline meters from `place` to `point`: walked straight, counted in `walkMeters`.
        public var offset: Double
    }

    /// The model's constants (the routing model's "Streets").
    public static let maxSnapMeters = 100.0
    public static let minIslandEdges = 40
    public static let stepsFactor = 2.0

    public let tables: StreetTables
    /// Edge -> its geometry, source first.
    let geometry: [[Coordinate]]
    /// Edge -> length in meters, and the factor its meters count with in `walkMeters`.
    let length: [Double]
    let factor: [Double]
    /// Edge -> a wheelchair query may not walk it.
    let barred: [Bool]
    /// Edge -> lies in a connected piece of at least `minIslandEdges` edges.
    let snappable: [Bool]
    /// Node -> (edge, node at its other end).
    let adjacent: [[(edge: Int, other: Int)]]
    /// Grid cell -> edges with a segment whose bounding box touches the cell.
    let cells: [Int64: [Int]]
    static let cellDegrees = 0.002

    public init(_ t: StreetTables) {
        tables = t
        var geometry: [[Coordinate]] = []
        var adjacent = [[(edge: Int, other: Int)]](repeating: [], count: t.nodeCount)
        for e in 0..<t.edgeCount {
            let s = Int(t.edgeSource[e]), d = Int(t.edgeTarget[e])
            var points = [Coordinate(latitude: t.nodeLatitude[s], longitude: t.nodeLongitude[s])]
            for i in Int(t.innerOffsets[e])..<Int(t.innerOffsets[e + 1]) {
                points.append(Coordinate(latitude: t.innerLatitude[i], longitude: t.innerLongitude[i]))
            }
            points.append(Coordinate(latitude: t.nodeLatitude[d], longitude: t.nodeLongitude[d]))
            geometry.append(points)
            adjacent[s].append((e, d))
            adjacent[d].append((e, s))
        }
        self.geometry = geometry
        self.adjacent = adjacent
        length = t.edgeLength.map(Double.init)
        factor = (0..<t.edgeCount).map { t.edgeKind[$0] == .steps || t.edgeFlags[$0].contains(.steps) ? Self.stepsFactor : 1 }
        barred = (0..<t.edgeCount).map { !t.edgeFlags[$0].isDisjoint(with: .wheelchairBarred) || t.edgeKind[$0] == .steps }

        // Islands: union-find over nodes, then edges counted per root.
        var parent = Array(0..<t.nodeCount)
        func root(_ x: Int) -> Int {
            var x = x
            while parent[x] != x { parent[x] = parent[parent[x]]; x = parent[x] }
            return x
        }
        for e in 0..<t.edgeCount {
            let a = root(Int(t.edgeSource[e])), b = root(Int(t.edgeTarget[e]))
            if a != b { parent[a] = b }
        }
        var edgesOf = [Int](repeating: 0, count: t.nodeCount)
        for e in 0..<t.edgeCount { edgesOf[root(Int(t.edgeSource[e]))] += 1 }
        snappable = (0..<t.edgeCount).map { edgesOf[root(Int(t.edgeSource[$0]))] >= Self.minIslandEdges }

        var cells: [Int64: [Int]] = [:]
        for e in 0..<t.edgeCount where snappable[e] {
            let points = geometry[e]
            var seen = Set<Int64>()
            for i in 1..<points.count {
                let a = points[i - 1], b = points[i]
                for r in Self.cell(min(a.latitude, b.latitude))...Self.cell(max(a.latitude, b.latitude)) {
                    for c in Self.cell(min(a.longitude, b.longitude))...Self.cell(max(a.longitude, b.longitude)) {
                        let key = Int64(r) << 32 | Int64(UInt32(bitPattern: Int32(c)))
                        if seen.insert(key).inserted { cells[key, default: []].append(e) }
                    }
                }
            }
        }
        self.cells = cells
    }

    static func cell(_ degrees: Double) -> Int { Int((degrees / cellDegrees).rounded(.down)) }

    public var nodeCount: Int { tables.nodeCount }
    public var edgeCount: Int { tables.edgeCount }

    /// The model's snap of `c`: the nearest point of the nearest snappable edge (a wheelchair
    /// query: not a barred one), when within 100 m.
    public func snap(_ c: Coordinate, wheelchair: Bool = false) -> Snap? {
        // A box certainly holding every point within 100 m.
        let dLat = Self.maxSnapMeters / 110_000
        let dLon = 1.5 * Self.maxSnapMeters / (111_000 * cos((abs(c.latitude) + dLat) * .pi / 180))
        var candidates = Set<Int>()
        for r in Self.cell(c.latitude - dLat)...Self.cell(c.latitude + dLat) {
            for k in Self.cell(c.longitude - dLon)...Self.cell(c.longitude + dLon) {
                let key = Int64(r) << 32 | Int64(UInt32(bitPattern: Int32(k)))
                for e in cells[key] ?? [] where !(wheelchair && barred[e]) { candidates.insert(e) }
            }
        }
        var best: Snap?
        for e in candidates.sorted() {
            let points = geometry[e]
            var before = 0.0
            for i in 1..<points.count {
                let a = points[i - 1], b = points[i]
                let point = Self.project(c, a, b)
                let offset = Geodesic.distance(c, point)
                if offset <= Self.maxSnapMeters, best.map({ offset < $0.offset }) ?? true {
                    let along = min(before + Geodesic.distance(a, point), length[e])
                    best = Snap(place: c, point: point, edge: e, along: along, offset: offset)
                }
                before += Geodesic.distance(a, b)
            }
        }
        return best
    }

    /// The point of segment `a`–`b` nearest `c` in the plane tangent at `c` (the routing
    /// model's "Snapping": east and north meters by the ellipsoid's radii of curvature at
    /// `c`'s latitude). Exactly this point, not the geodesic nearest (centimetres away along
    /// the segment at most): any other would move `along` by fractions of a millimetre,
    /// enough to cross a whole second of `ceil(walkMeters / walkSpeed)` now and then.
    static func project(_ c: Coordinate, _ a: Coordinate, _ b: Coordinate) -> Coordinate {
        let phi = c.latitude * .pi / 180, e2 = Geodesic.flattening * (2 - Geodesic.flattening)
        let w = 1 - e2 * sin(phi) * sin(phi)
        let north = Geodesic.semiMajorAxis * (1 - e2) / (w * w.squareRoot()) * .pi / 180
        let east = Geodesic.semiMajorAxis / w.squareRoot() * cos(phi) * .pi / 180
        let ax = (a.longitude - c.longitude) * east, ay = (a.latitude - c.latitude) * north
        let bx = (b.longitude - c.longitude) * east, by = (b.latitude - c.latitude) * north
        let dx = bx - ax, dy = by - ay
        let square = dx * dx + dy * dy
        let t = square == 0 ? 0 : max(0, min(1, -(ax * dx + ay * dy) / square))
        return Coordinate(latitude: a.latitude + t * (b.latitude - a.latitude), longitude: a.longitude + t * (b.longitude - a.longitude))
    }

    /// The model's `walkMeters` from `a` to each target (snap offsets and steps × 2
    /// included), or nil where it is more than `limit` or there is no walk.
    public func walkMeters(from a: Snap, to targets: [Snap], limit: Double, wheelchair: Bool = false) -> [Double?] {
        let e = a.edge
        let starts = [(Int(tables.edgeSource[e]), a.offset + a.along * factor[e]),
                      (Int(tables.edgeTarget[e]), a.offset + (length[e] - a.along) * factor[e])]
        let distance = dijkstra(starts, limit: limit, wheelchair: wheelchair)
        return targets.map { b in
            let f = b.edge
            var best = min(distance[Int(tables.edgeSource[f])] + b.along * factor[f],
                           distance[Int(tables.edgeTarget[f])] + (length[f] - b.along) * factor[f]) + b.offset
            if f == e { best = min(best, a.offset + abs(a.along - b.along) * factor[e] + b.offset) }
            return best <= limit ? best : nil
        }
    }

    /// The walk between two places, or nil when either does not snap or it is beyond `limit`.
    public func walkMeters(from a: Coordinate, to b: Coordinate, limit: Double, wheelchair: Bool = false) -> Double? {
        guard let sa = snap(a, wheelchair: wheelchair), let sb = snap(b, wheelchair: wheelchair) else { return nil }
        return walkMeters(from: sa, to: [sb], limit: limit, wheelchair: wheelchair)[0]
    }

    /// Node -> `walkMeters` from `node` (steps doubled), for every node within `limit`.
    public func nodeWalkMeters(from node: Int, limit: Double) -> [Int: Double] {
        var result: [Int: Double] = [:]
        for (n, d) in dijkstra([(node, 0)], limit: limit, wheelchair: false).enumerated() where d <= limit { result[n] = d }
        return result
    }

    /// Node -> shortest meters from the starts; infinity beyond `limit`.
    func dijkstra(_ starts: [(node: Int, meters: Double)], limit: Double, wheelchair: Bool) -> [Double] {
        var distance = [Double](repeating: .infinity, count: tables.nodeCount)
        var heap = MinHeap()
        for (n, d) in starts where d < distance[n] { distance[n] = d; heap.push(d, n) }
        while let (d, n) = heap.pop() {
            if d > distance[n] { continue }
            if d > limit { break }
            for (e, other) in adjacent[n] where !(wheelchair && barred[e]) {
                let next = d + length[e] * factor[e]
                if next < distance[other] { distance[other] = next; heap.push(next, other) }
            }
        }
        for i in distance.indices where distance[i] > limit { distance[i] = .infinity }
        return distance
    }

    /// A binary min-heap of (meters, node).
    struct MinHeap {
        var items: [(Double, Int)] = []
        mutating func push(_ d: Double, _ n: Int) {
            items.append((d, n))
            var i = items.count - 1
            while i > 0 {
                let p = (i - 1) / 2
                if items[p].0 <= items[i].0 { break }
                items.swapAt(p, i); i = p
            }
        }
        mutating func pop() -> (Double, Int)? {
            guard let top = items.first else { return nil }
            let last = items.removeLast()
            if !items.isEmpty {
                items[0] = last
                var i = 0
                while true {
                    let l = 2 * i + 1, r = l + 1
                    var m = i
                    if l < items.count && items[l].0 < items[m].0 { m = l }
                    if r < items.count && items[r].0 < items[m].0 { m = r }
                    if m == i { break }
                    items.swapAt(m, i); i = m
                }
            }
            return top
        }
    }
}
