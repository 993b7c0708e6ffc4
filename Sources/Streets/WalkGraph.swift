import Foundation
import Geo
import Synchronization

/// Where a place meets the street network: the nearest point of the nearest eligible edge
/// (the routing model's "Snapping").
public struct StreetSnap: Sendable, Equatable {
    /// The place itself (a stop, the origin, the destination).
    public var place: Coordinate
    /// Its projection onto the edge.
    public var point: Coordinate
    public var edge: Int32
    /// Meters from the edge's source along its geometry.
    public var along: Double
    /// Beeline meters from `place` to `point`: walked straight, counted in `walkMeters`.
    public var offset: Double

    public init(place: Coordinate, point: Coordinate, edge: Int32, along: Double, offset: Double) {
        self.place = place; self.point = point; self.edge = edge; self.along = along; self.offset = offset
    }
}

/// The walkable streets in memory, built once from `StreetTables` and then only read:
/// snapping places to edges, bounded Dijkstra searches for walk lengths, and walks with
/// their geometry and turn-by-turn steps. Safe to use from many threads at once (each
/// search borrows its own scratch arrays from a small pool).
public final class WalkGraph: Sendable {
    /// Farthest a place may be from the edge it snaps to.
    public static let maxSnapMeters = 100.0
    /// Connected pieces with fewer edges are never snapped to (they stay in the graph).
    public static let minIslandEdges = 40
    /// A steps edge costs its length times this (walking up or down at half speed).
    public static let stepsFactor: Float = 2

    let t: StreetTables
    /// CSR adjacency, both directions: node `n`'s incident edges are
    /// `adjEdge[adjOffsets[n] ..< adjOffsets[n + 1]]`, reaching `adjNode[...]`.
    let adjOffsets: [Int32]
    let adjEdge: [Int32]
    let adjNode: [Int32]
    /// The model's cost of walking each edge whole (length, steps × `stepsFactor`).
    let edgeCost: [Float]
    /// The edge count of each edge's connected piece.
    let componentEdges: [Int32]
    let edgeComponent: [Int32]
    /// `node(osmId:)`: OpenStreetMap ids sorted, with their node indexes.
    let sortedOsmId: [Int64]
    let sortedNode: [Int32]
    let grid: SegmentGrid
    let pool = Mutex<[SearchScratch]>([])
    public let memoryBytes: Int

    public var nodeCount: Int { t.nodeCount }
    public var edgeCount: Int { t.edgeCount }
    public var versions: [String: Int] { t.versions }

    public init(_ tables: StreetTables) {
        t = tables
        let n = tables.nodeCount, m = tables.edgeCount
        var degree = [Int32](repeating: 0, count: n + 1)
        for e in 0..<m {
            degree[Int(tables.edgeSource[e]) + 1] += 1
            degree[Int(tables.edgeTarget[e]) + 1] += 1
        }
        for i in 0..<n { degree[i + 1] += degree[i] }
        adjOffsets = degree
        var fill = degree
        var adjEdge = [Int32](repeating: 0, count: 2 * m), adjNode = [Int32](repeating: 0, count: 2 * m)
        for e in 0..<m {
            let s = Int(tables.edgeSource[e]), d = Int(tables.edgeTarget[e])
            adjEdge[Int(fill[s])] = Int32(e); adjNode[Int(fill[s])] = Int32(d); fill[s] += 1
            adjEdge[Int(fill[d])] = Int32(e); adjNode[Int(fill[d])] = Int32(s); fill[d] += 1
        }
        self.adjEdge = adjEdge
        self.adjNode = adjNode
        edgeCost = (0..<m).map { e in
            tables.edgeLength[e] * (WalkGraph.isSteps(tables, e) ? WalkGraph.stepsFactor : 1)
        }

        // Connected pieces by union-find over the nodes; an edge belongs to its source's piece.
        var parent = Array(Int32(0)..<Int32(n))
        func root(_ x: Int32) -> Int32 {
            var x = x
            while parent[Int(x)] != x { parent[Int(x)] = parent[Int(parent[Int(x)])]; x = parent[Int(x)] }
            return x
        }
        for e in 0..<m {
            let a = root(tables.edgeSource[e]), b = root(tables.edgeTarget[e])
            if a != b { parent[Int(max(a, b))] = min(a, b) }
        }
        var piece = [Int32](repeating: -1, count: n), pieceEdges: [Int32] = []
        var edgeComponent = [Int32](repeating: 0, count: m)
        for e in 0..<m {
            let r = Int(root(tables.edgeSource[e]))
            if piece[r] < 0 { piece[r] = Int32(pieceEdges.count); pieceEdges.append(0) }
            edgeComponent[e] = piece[r]
            pieceEdges[Int(piece[r])] += 1
        }
        self.edgeComponent = edgeComponent
        componentEdges = pieceEdges

        var osmKeys = tables.nodeId.map(orderedBits), order = Array(Int32(0)..<Int32(n))
        radixSort(keys: &osmKeys, values: &order)
        sortedNode = order
        sortedOsmId = order.map { tables.nodeId[Int($0)] }

        let eligible = (0..<m).map { pieceEdges[Int(edgeComponent[$0])] >= Int32(WalkGraph.minIslandEdges) }
        grid = SegmentGrid(tables, eligible: eligible)

        func bytes<T>(_ a: [T]) -> Int { a.count * MemoryLayout<T>.stride }
        memoryBytes = bytes(tables.nodeId) + bytes(tables.nodeLatitude) + bytes(tables.nodeLongitude)
            + bytes(tables.edgeSource) + bytes(tables.edgeTarget) + bytes(tables.edgeLength) + bytes(tables.edgeWay)
            + bytes(tables.edgeName) + bytes(tables.edgeKind) + bytes(tables.edgeFlags) + bytes(tables.innerOffsets)
            + bytes(tables.innerLatitude) + bytes(tables.innerLongitude) + tables.names.reduce(0) { $0 + $1.utf8.count + 16 }
            + bytes(adjOffsets) + bytes(adjEdge) + bytes(adjNode) + bytes(edgeCost) + bytes(edgeComponent)
            + bytes(componentEdges) + bytes(sortedOsmId) + bytes(sortedNode) + grid.memoryBytes
    }

    static func isSteps(_ t: StreetTables, _ e: Int) -> Bool { t.edgeKind[e] == .steps || t.edgeFlags[e].contains(.steps) }

    /// The node with this OpenStreetMap id, if it is in the graph.
    public func node(osmId: Int64) -> Int32? {
        var lo = 0, hi = sortedOsmId.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if sortedOsmId[mid] < osmId { lo = mid + 1 } else { hi = mid }
        }
        return lo < sortedOsmId.count && sortedOsmId[lo] == osmId ? sortedNode[lo] : nil
    }

    /// Whether the edge lies in a connected piece large enough to be snapped to.
    public func isSnappable(edge: Int32) -> Bool {
        componentEdges[Int(edgeComponent[Int(edge)])] >= Int32(WalkGraph.minIslandEdges)
    }

    /// A node's position.
    public func coordinate(node: Int32) -> Coordinate {
        Coordinate(latitude: t.nodeLatitude[Int(node)], longitude: t.nodeLongitude[Int(node)])
    }

    // MARK: Edge geometry

    /// Number of points of an edge's geometry (source, inner points, target).
    @inline(__always) func pointCount(_ e: Int) -> Int { Int(t.innerOffsets[e + 1] - t.innerOffsets[e]) + 2 }

    /// Point `i` of edge `e`'s geometry, as (latitude, longitude).
    @inline(__always) func point(_ e: Int, _ i: Int) -> (lat: Double, lon: Double) {
        if i == 0 { let s = Int(t.edgeSource[e]); return (t.nodeLatitude[s], t.nodeLongitude[s]) }
        let inner = Int(t.innerOffsets[e]) + i - 1
        if inner < Int(t.innerOffsets[e + 1]) { return (t.innerLatitude[inner], t.innerLongitude[inner]) }
        let d = Int(t.edgeTarget[e]); return (t.nodeLatitude[d], t.nodeLongitude[d])
    }

    func coordinate(_ e: Int, _ i: Int) -> Coordinate {
        let p = point(e, i); return Coordinate(latitude: p.lat, longitude: p.lon)
    }

    /// Geodesic meters from the edge's source to each of its points.
    func cumulative(_ e: Int) -> [Double] {
        var out = [0.0]
        for i in 1..<pointCount(e) { out.append(out[i - 1] + Geodesic.distance(coordinate(e, i - 1), coordinate(e, i))) }
        return out
    }

    func length(_ e: Int) -> Double { Double(t.edgeLength[e]) }
    func factor(_ e: Int) -> Double { WalkGraph.isSteps(t, e) ? Double(WalkGraph.stepsFactor) : 1 }
    func barred(_ e: Int, wheelchair: Bool) -> Bool { wheelchair && !t.edgeFlags[e].isDisjoint(with: .wheelchairBarred) }

    // MARK: Snapping

    /// The nearest point of an eligible edge within `maxSnapMeters` (a wheelchair snap skips
    /// edges a wheelchair may not take), or nil. Ties go to the lower edge id.
    public func snap(_ c: Coordinate, wheelchair: Bool = false) -> StreetSnap? {
        guard c.latitude.isFinite, c.longitude.isFinite, abs(c.latitude) < 89 else { return nil }
        // A local planar frame around the place (the ellipsoid's radii of curvature there).
        let phi = c.latitude * .pi / 180
        let e2 = Geodesic.flattening * (2 - Geodesic.flattening)
        let w = 1 - e2 * sin(phi) * sin(phi)
        let ky = Geodesic.semiMajorAxis * (1 - e2) / (w * w.squareRoot()) * .pi / 180
        let kx = Geodesic.semiMajorAxis / w.squareRoot() * cos(phi) * .pi / 180
        var candidates: [(planar: Double, segment: Int32, t: Double)] = []
        var best = Double.infinity
        // Most places stand near a street: look close first, then as far as allowed.
        for reach in [30.0, WalkGraph.maxSnapMeters * 1.01 + 1] where !(best < 29) {
            candidates.removeAll(keepingCapacity: true)
            grid.forEachSegment(near: c, meters: reach) { s in
                let e = Int(grid.segmentEdge[Int(s)])
                if barred(e, wheelchair: wheelchair) { return }
                let i = Int(grid.segmentStart[Int(s)])
                let a = point(e, i), b = point(e, i + 1)
                let ax = (a.lon - c.longitude) * kx, ay = (a.lat - c.latitude) * ky
                let bx = (b.lon - c.longitude) * kx, by = (b.lat - c.latitude) * ky
                let dx = bx - ax, dy = by - ay, len2 = dx * dx + dy * dy
                let f = len2 > 0 ? min(1, max(0, -(ax * dx + ay * dy) / len2)) : 0
                let px = ax + f * dx, py = ay + f * dy
                let planar = (px * px + py * py).squareRoot()
                guard planar <= reach, planar <= best + 0.5 else { return }
                best = min(best, planar)
                candidates.append((planar, s, f))
            }
        }
        // The planar frame is within millimetres at this range: measure the few nearest exactly.
        var winner: StreetSnap?
        var winnerSegment = Int32.max
        for cand in candidates where cand.planar <= best + 0.05 {
            let s = Int(cand.segment), e = Int(grid.segmentEdge[s]), i = Int(grid.segmentStart[s])
            let a = point(e, i), b = point(e, i + 1)
            let p = Coordinate(latitude: a.lat + cand.t * (b.lat - a.lat), longitude: a.lon + cand.t * (b.lon - a.lon))
            let offset = Geodesic.distance(c, p)
            guard offset <= WalkGraph.maxSnapMeters else { continue }
            if let w = winner {
                if offset > w.offset || (offset == w.offset && (Int32(e) > w.edge || (Int32(e) == w.edge && cand.segment >= winnerSegment))) {
                    continue
                }
            }
            winner = StreetSnap(place: c, point: p, edge: Int32(e), along: 0, offset: offset)
            winnerSegment = cand.segment
        }
        guard var snap = winner else { return nil }
        let e = Int(snap.edge), i = Int(grid.segmentStart[Int(winnerSegment)])
        var along = 0.0
        for k in 0..<i { along += Geodesic.distance(coordinate(e, k), coordinate(e, k + 1)) }
        along += Geodesic.distance(coordinate(e, i), snap.point)
        snap.along = min(length(e), along)
        return snap
    }
}

/// The straight segments of the eligible edges in cells of about 50 m, for snapping.
/// Rows are bands of latitude; each row's columns are as wide in meters as its rows are
/// tall (longitude scaled by the row's cosine), so regions far apart cost nothing: only
/// occupied cells are stored, sorted by key (row, column), found by binary search.
struct SegmentGrid: Sendable {
    static let cellDegrees = 50.0 / 111_000
    let segmentEdge: [Int32]
    let segmentStart: [Int32]
    let cellKey: [Int64]
    let cellStart: [Int32]
    let cellSegments: [Int32]

    var memoryBytes: Int {
        segmentEdge.count * 4 + segmentStart.count * 4 + cellKey.count * 8 + cellStart.count * 4 + cellSegments.count * 4
    }

    @inline(__always) static func row(_ lat: Double) -> Int { Int((lat / cellDegrees).rounded(.down)) }
    @inline(__always) static func scale(row: Int) -> Double { max(0.01, cos((Double(row) + 0.5) * cellDegrees * .pi / 180)) }
    @inline(__always) static func column(_ lon: Double, scale: Double) -> Int { Int((lon * scale / cellDegrees).rounded(.down)) }
    @inline(__always) static func key(_ row: Int, _ column: Int) -> Int64 { Int64(row) << 32 + Int64(column) + (1 << 31) }

    init(_ t: StreetTables, eligible: [Bool]) {
        var segmentEdge: [Int32] = [], segmentStart: [Int32] = []
        var pairKeys: [UInt64] = [], pairSegments: [Int32] = []
        func lat(_ e: Int, _ i: Int) -> (Double, Double) {
            if i == 0 { let s = Int(t.edgeSource[e]); return (t.nodeLatitude[s], t.nodeLongitude[s]) }
            let inner = Int(t.innerOffsets[e]) + i - 1
            if inner < Int(t.innerOffsets[e + 1]) { return (t.innerLatitude[inner], t.innerLongitude[inner]) }
            let d = Int(t.edgeTarget[e]); return (t.nodeLatitude[d], t.nodeLongitude[d])
        }
        for e in 0..<t.edgeCount where eligible[e] {
            let points = Int(t.innerOffsets[e + 1] - t.innerOffsets[e]) + 2
            for i in 0..<(points - 1) {
                let (alat, alon) = lat(e, i), (blat, blon) = lat(e, i + 1)
                guard alat.isFinite, alon.isFinite, blat.isFinite, blon.isFinite else { continue }
                let s = Int32(segmentEdge.count)
                segmentEdge.append(Int32(e)); segmentStart.append(Int32(i))
                for r in Self.row(min(alat, blat))...Self.row(max(alat, blat)) {
                    let k = Self.scale(row: r)
                    for c in Self.column(min(alon, blon), scale: k)...Self.column(max(alon, blon), scale: k) {
                        pairKeys.append(orderedBits(Self.key(r, c))); pairSegments.append(s)
                    }
                }
            }
        }
        // Stable: each cell's segments stay in ascending order, as they were appended.
        radixSort(keys: &pairKeys, values: &pairSegments)
        var keys: [Int64] = [], starts: [Int32] = []
        for (i, k) in pairKeys.enumerated() {
            let key = Int64(bitPattern: k ^ (1 << 63))
            if keys.last != key { keys.append(key); starts.append(Int32(i)) }
        }
        starts.append(Int32(pairKeys.count))
        self.segmentEdge = segmentEdge
        self.segmentStart = segmentStart
        cellKey = keys
        cellStart = starts
        cellSegments = pairSegments
    }

    /// Calls `body` with every segment in a cell within `meters` of `c` (some more than once).
    func forEachSegment(near c: Coordinate, meters: Double, _ body: (Int32) -> Void) {
        let dLat = meters / 110_500
        let maxLat = min(89.9, abs(c.latitude) + dLat)
        let dLon = meters / (111_320 * cos(maxLat * .pi / 180)) * 1.01
        for r in Self.row(c.latitude - dLat)...Self.row(c.latitude + dLat) {
            let k = Self.scale(row: r)
            let lo = Self.key(r, Self.column(c.longitude - dLon, scale: k))
            let hi = Self.key(r, Self.column(c.longitude + dLon, scale: k))
            var a = 0, b = cellKey.count
            while a < b {
                let mid = (a + b) / 2
                if cellKey[mid] < lo { a = mid + 1 } else { b = mid }
            }
            while a < cellKey.count, cellKey[a] <= hi {
                for j in Int(cellStart[a])..<Int(cellStart[a + 1]) { body(cellSegments[j]) }
                a += 1
            }
        }
    }
}
