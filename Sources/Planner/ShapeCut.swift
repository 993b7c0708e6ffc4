import FeedNetwork
import Foundation
import Geo
import Synchronization
import Timetable
import TransitModel

/// Where the stops of a route lie along its shape, to cut a ride's line out of it.
///
/// A position is a parameter along the polyline: `i + f` lies between point `i` and
/// `i + 1`, at fraction `f`. Stops are placed by `shape_dist_traveled` when the stop
/// times and the shape points both have it, else by projecting each stop onto the shape,
/// in order: every stop's candidate places are the local minima of its distance to the
/// shape's segments, and the placement is the non-decreasing choice of candidates with
/// the least total distance (a shape that loops back past a stop does not pull that stop
/// to the wrong pass). Without a usable placement the ride is drawn straight through its
/// stops.
struct ShapeCut {
    /// Shape point indexes in the snapshot, and the positions of the route's stops.
    let points: Range<Int>
    let positions: [Double]
    /// Meters from each stop to its place on the shape.
    let offsets: [Double]

    /// The ride's line from route position `from` to `to`: the boarding stop, the shape's
    /// points strictly between the two positions, the alighting stop; nil when a stop of
    /// the ride lies too far from the shape (see `maxStopOffset`).
    func line(from: Int, to: Int, stops: [Coordinate], shapes: ShapeStore) -> [Coordinate]? {
        guard offsets[from...to].allSatisfy({ $0 <= Self.maxStopOffset }) else { return nil }
        let a = positions[from], b = positions[to]
        var out = [stops.first!]
        var i = Int(a.rounded(.down)) + 1
        while Double(i) < b && points.lowerBound + i < points.upperBound {
            let p = points.lowerBound + i
            let c = shapes.coordinate(p)
            if c != out.last! { out.append(c) }
            i += 1
        }
        if stops.last! != out.last! || out.count == 1 { out.append(stops.last!) }
        return out
    }

    /// Places `route`'s stops on shape `shape`, or nil (no placement in order).
    static func make(route: RouteIndex, shape: ShapeIndex, network: TransitNetwork) -> ShapeCut? {
        let tt = network.timetable, s = network.shapes, r = route.index
        let points = s.points(shape)
        guard points.count >= 2 else { return nil }
        let start = Int(tt.routeStopOffsets[r]), end = Int(tt.routeStopOffsets[r + 1])
        let stops = (start..<end).map { network.coordinate(ofStop: tt.routeStops[$0])! }
        var fallback: ShapeCut?
        for positions in [byDistance(points, Array(tt.routeStopShapeDistance[start..<end]), s), byProjection(points, stops, s)] {
            guard let positions else { continue }
            let cut = ShapeCut(points: points, positions: positions, stops: stops, shapes: s)
            if cut.offsets.allSatisfy({ $0 <= Self.maxStopOffset }) { return cut }
            if fallback == nil || cut.offsets.max()! < fallback!.offsets.max()! { fallback = cut }
        }
        return fallback
    }

    /// Farthest a stop may lie from its place on the shape (meters) for the shape to be
    /// drawn; beyond it (a shape that misses a new station, shape_dist_traveled in other
    /// units than the shape's) the ride is drawn through its stops instead.
    static let maxStopOffset = 150.0

    init(points: Range<Int>, positions: [Double], stops: [Coordinate], shapes s: ShapeStore) {
        self.points = points
        self.positions = positions
        offsets = zip(stops, positions).map { stop, position in
            let i = min(Int(position.rounded(.down)), points.count - 1), f = position - Double(i)
            let a = points.lowerBound + i, b = min(a + 1, points.upperBound - 1)
            let lat = s.latitude(a) + (s.latitude(b) - s.latitude(a)) * f
            let lon = s.longitude(a) + (s.longitude(b) - s.longitude(a)) * f
            return Geodesic.distance(stop, Coordinate(latitude: lat, longitude: lon))
        }
    }

    /// Positions from shape_dist_traveled: each stop's value located among the points'.
    static func byDistance(_ points: Range<Int>, _ stopDistance: [Float], _ s: ShapeStore) -> [Double]? {
        let pd = s.distance[points].map(Double.init)
        let stopDistance = stopDistance.map(Double.init)
        guard !stopDistance.contains(where: \.isNaN), !pd.contains(where: \.isNaN),
              zip(pd, pd.dropFirst()).allSatisfy({ $0 <= $1 }),
              zip(stopDistance, stopDistance.dropFirst()).allSatisfy({ $0 <= $1 }) else { return nil }
        let d = Array(pd)
        let tolerance = max(1.0, (d.last! - d.first!) * 0.001)
        var out: [Double] = []
        for value in stopDistance {
            guard value >= d.first! - tolerance && value <= d.last! + tolerance else { return nil }
            // The last point at or before the value.
            var lo = 0, hi = d.count - 1
            while lo < hi { let mid = (lo + hi + 1) / 2; if d[mid] <= value { lo = mid } else { hi = mid - 1 } }
            if lo >= d.count - 1 || value <= d[0] { out.append(value <= d[0] ? 0 : Double(d.count - 1)); continue }
            let span = d[lo + 1] - d[lo]
            out.append(Double(lo) + (span > 0 ? min(1, max(0, (value - d[lo]) / span)) : 0))
        }
        return out
    }

    /// Positions by projecting the stops onto the shape, in order (see the type's comment).
    static func byProjection(_ points: Range<Int>, _ stops: [Coordinate], _ s: ShapeStore) -> [Double]? {
        // A local equirectangular plane around the first point: plenty to compare distances
        // within a city, and cheap.
        let degree: Double = 6_371_000 * Double.pi / 180
        let latRef: Double = s.latitude(points.lowerBound), lon0: Double = s.longitude(points.lowerBound)
        let kx: Double = cos(latRef * Double.pi / 180) * degree, ky: Double = degree
        let xs: [Double] = points.map { (s.longitude($0) - lon0) * kx }
        let ys: [Double] = points.map { (s.latitude($0) - latRef) * ky }
        let segments = xs.count - 1
        var candidates: [[(position: Double, meters: Double)]] = []
        var distance = [Double](repeating: 0, count: segments), fraction = distance
        for stop in stops {
            let px: Double = (stop.longitude - lon0) * kx, py: Double = (stop.latitude - latRef) * ky
            var best = Double.infinity
            for j in 0..<segments {
                let dx: Double = xs[j + 1] - xs[j], dy: Double = ys[j + 1] - ys[j]
                let len2: Double = dx * dx + dy * dy
                let along: Double = (px - xs[j]) * dx + (py - ys[j]) * dy
                let t: Double = len2 > 0 ? min(1, max(0, along / len2)) : 0
                let ex: Double = xs[j] + t * dx - px, ey: Double = ys[j] + t * dy - py
                distance[j] = (ex * ex + ey * ey).squareRoot()
                fraction[j] = t
                best = min(best, distance[j])
            }
            // Local minima within reach of the best, the nearest few.
            var mine: [(position: Double, meters: Double)] = []
            for j in 0..<segments where distance[j] <= best + 150 || distance[j] <= best * 1.5 {
                let left = j == 0 || distance[j] <= distance[j - 1]
                let right = j == segments - 1 || distance[j] < distance[j + 1]
                if left && right { mine.append((Double(j) + fraction[j], distance[j])) }
            }
            if mine.isEmpty { mine = [(Double(distance.firstIndex(of: best)!) + fraction[distance.firstIndex(of: best)!], best)] }
            candidates.append(Array(mine.sorted { $0.meters < $1.meters }.prefix(8)))
        }
        // Non-decreasing positions with the least total distance.
        var cost = candidates[0].map(\.meters)
        var parent: [[Int]] = [Array(repeating: -1, count: candidates[0].count)]
        for k in 1..<candidates.count {
            var next: [Double] = [], from: [Int] = []
            for c in candidates[k] {
                var best = Double.infinity, arg = -1
                for (i, p) in candidates[k - 1].enumerated() where p.position <= c.position && cost[i] < best { best = cost[i]; arg = i }
                next.append(best + c.meters); from.append(arg)
            }
            cost = next; parent.append(from)
        }
        guard let last = cost.indices.min(by: { cost[$0] < cost[$1] }), cost[last].isFinite else { return nil }
        var out = [Double](repeating: 0, count: candidates.count)
        var i = last
        for k in stride(from: candidates.count - 1, through: 0, by: -1) {
            out[k] = candidates[k][i].position
            i = parent[k][i]
        }
        return out
    }
}

/// Placements made once per route and shape, on first use, for any number of threads.
final class ShapeCutCache: Sendable {
    private let cuts = Mutex<[Int64: ShapeCut?]>([:])

    func cut(route: RouteIndex, shape: ShapeIndex, network: TransitNetwork) -> ShapeCut? {
        let key = Int64(route.raw) << 32 | Int64(shape.raw)
        if let known = cuts.withLock({ $0[key] }) { return known }
        let made = ShapeCut.make(route: route, shape: shape, network: network)
        cuts.withLock { $0[key] = .some(made) }
        return made
    }
}
