import Foundation

/// Placing a trip's stops along its shape, the way the canonical rules read it (MobilityData's
/// stop-to-shape matching, written here from its description): each stop is matched to a
/// place on the shape, and the places must come in the trip's order.
///
/// - By geometry: each stop's candidates are the local minima of its distance to the shape
///   within 100 m (400 m for the first and last stop of a rail trip: shapes often stop short
///   of a terminus). A stop with none is too far from the shape. Otherwise the candidates
///   are chosen in order, each as close as it can be; when no choice keeps the order, the
///   stops match the shape out of order.
/// - By shape_dist_traveled (when the trip's last stop and the shape's last point have one
///   above 0): each stop with a distance above 0 is placed at that distance along the shape
///   (the others by geometry, as above; one without a candidate ends the pass); then the
///   order is checked the same way, and each stop more than 100 m from its place is too far.
///
/// Distances are in a plane tangent at the stop (under a metre off the great circle at the
/// distances judged here).
struct ShapeMatch {
    /// A place on the shape: the segment it is on, meters along the shape from its start,
    /// meters from the stop.
    struct Place { var segment: Int; var along: Double; var away: Double }

    enum Problem: Equatable {
        /// The stop (index into the trip's stops) is more than `limit` m from the shape.
        case far(stop: Int, meters: Double, limit: Double)
        /// The stop's best place comes before the previous stop's.
        case outOfOrder(stop: Int, previous: Int, along: Double, previousAlong: Double)
        /// The shape comes near the stop more than 20 times (a shape that loops past it).
        case tooManyMatches(stop: Int, count: Int)
    }

    let lat: ArraySlice<Double>, lon: ArraySlice<Double>
    /// Meters along the shape at each point; the largest shape_dist_traveled so far at each.
    let along: [Double], user: [Double]
    static let limit = 100.0, largeStation = 4.0, mostMatches = 20

    init(lat: ArraySlice<Double>, lon: ArraySlice<Double>, distance: ArraySlice<Double>) {
        self.lat = lat; self.lon = lon
        var along = [Double](repeating: 0, count: lat.count), user = [Double](repeating: 0, count: lat.count)
        let l = Array(lat), o = Array(lon), d = Array(distance)
        var most = 0.0
        for i in l.indices {
            if i > 0 { along[i] = along[i - 1] + FeedRules.metersBetween(l[i - 1], o[i - 1], l[i], o[i]) }
            if !d[i].isNaN { most = max(most, d[i]) }
            user[i] = most
        }
        self.along = along; self.user = user
    }

    var hasDistances: Bool { (user.last ?? 0) > 0 }
    private func point(_ i: Int) -> (Double, Double) { (lat[lat.startIndex + i], lon[lon.startIndex + i]) }

    /// Meters per degree of longitude and latitude in the plane tangent at a stop.
    private static func scale(_ la: Double) -> (Double, Double) {
        let k = Double.pi / 180 * 6_371_008.8
        return (cos(la * Double.pi / 180) * k, k)
    }

    /// The nearest point of segment i to the stop (la, lo; `k`: its `scale`): its place.
    @inline(__always) private func nearest(on i: Int, _ la: Double, _ lo: Double, _ k: (Double, Double)) -> Place {
        let a = lat.startIndex + i
        let px = (lon[a] - lo) * k.0, py = (lat[a] - la) * k.1, dx = (lon[a + 1] - lon[a]) * k.0, dy = (lat[a + 1] - lat[a]) * k.1
        let len2 = dx * dx + dy * dy
        let t = len2 > 0 ? max(0, min(1, -(px * dx + py * dy) / len2)) : 0
        // At an end, exactly that end (two stops at one place must tie, a shape that turns at
        // a point must not seem to go away from a stop by rounding).
        if t == 1 {
            let ex = (lon[a + 1] - lo) * k.0, ey = (lat[a + 1] - la) * k.1
            return Place(segment: i, along: along[i + 1], away: (ex * ex + ey * ey).squareRoot())
        }
        let x = px + t * dx, y = py + t * dy
        return Place(segment: i, along: t == 0 ? along[i] : along[i] + t * (along[i + 1] - along[i]), away: (x * x + y * y).squareRoot())
    }

    /// The stop's candidate places within `limit` m: the nearest of each stretch of the shape
    /// that comes close and goes away again (empty when the shape never comes that close);
    /// and the meters to the nearest point of the shape.
    func candidates(_ la: Double, _ lo: Double, limit: Double) -> (places: [Place], nearest: Double) {
        guard lat.count > 1 else {
            let (a, b) = point(0), d = FeedRules.metersBetween(la, lo, a, b)
            return (d <= limit ? [Place(segment: 0, along: 0, away: d)] : [], d)
        }
        let k = Self.scale(la)
        var found: [Place] = []
        var local: Place?
        var toEndOfPrevious = Double.infinity, goingAway = false, best = Double.infinity
        for i in 0..<(lat.count - 1) {
            let p = nearest(on: i, la, lo, k)
            best = min(best, p.away)
            if p.away <= limit {
                if goingAway && p.away < toEndOfPrevious, let l = local { found.append(l); local = nil }
                if local == nil || p.away < local!.away { local = p }
            } else if let l = local {
                found.append(l); local = nil
            }
            let b = lat.startIndex + i + 1
            let ex = (lon[b] - lo) * k.0, ey = (lat[b] - la) * k.1
            toEndOfPrevious = (ex * ex + ey * ey).squareRoot()
            goingAway = toEndOfPrevious > p.away
        }
        if let l = local { found.append(l) }
        return (found, best)
    }

    /// The place at shape_dist_traveled `d`, searched from point `from` on.
    func place(atDistance d: Double, from: Int, _ la: Double, _ lo: Double) -> Place {
        var previous = from, next = from
        while next < user.count && d >= user[next] { previous = next; next += 1 }
        var f = 0.0
        if next > 0 && previous + 1 < user.count {
            let a = user[previous], b = user[next]
            if abs(b - a) > 1e-9 * max(abs(a), abs(b), 1) { f = (d - a) / (b - a) }
        }
        let (alat, alon) = point(previous)
        let (blat, blon) = previous + 1 < lat.count ? point(previous + 1) : (alat, alon)
        let plat = alat + f * (blat - alat), plon = alon + f * (blon - alon)
        let b = previous + 1 < along.count ? along[previous + 1] : along[previous]
        return Place(segment: previous, along: along[previous] + f * (b - along[previous]), away: FeedRules.metersBetween(la, lo, plat, plon))
    }

    /// One place per stop, in order along the shape and as close as possible overall; or the
    /// out-of-order problem at the first stop that cannot be placed after the ones before.
    static func inOrder(_ candidates: [[Place]]) -> ([Place]?, Problem?) {
        // Per candidate of the last stop placed: the best total distance of a choice ending
        // there, and that choice.
        var partial: [(choice: [Int], score: Double, along: Double)] = [([], 0, -.infinity)]
        for (s, places) in candidates.enumerated() {
            var next: [(choice: [Int], score: Double, along: Double)] = []
            for (c, place) in places.enumerated() {
                var best: Int?
                for (k, p) in partial.enumerated() where p.along <= place.along && (best == nil || p.score < partial[best!].score) { best = k }
                if let best { next.append((partial[best].choice + [c], partial[best].score + place.away, place.along)) }
            }
            if next.isEmpty {
                let mine = places.min { $0.away < $1.away }!
                let before = partial.min { $0.score < $1.score }!
                let previous = candidates[s - 1][before.choice.last!]
                return (nil, .outOfOrder(stop: s, previous: s - 1, along: mine.along, previousAlong: previous.along))
            }
            partial = next
        }
        let best = partial.min { $0.score < $1.score }!
        return (best.choice.enumerated().map { candidates[$0.offset][$0.element] }, nil)
    }

    /// The problems of one trip on this shape: by geometry, then (when both have distances)
    /// by shape_dist_traveled. `stops`: each stop's coordinates, shape_dist_traveled (0: none)
    /// and whether it is a large station (first or last stop of a rail trip).
    func problems(_ stops: [(lat: Double, lon: Double, distance: Double, large: Bool)]) -> (geo: [Problem], user: [Problem]) {
        var geo: [Problem] = []
        var geoCandidates: [[Place]] = [], nearest: [Double] = []
        for (s, stop) in stops.enumerated() {
            let limit = Self.limit * (stop.large ? Self.largeStation : 1)
            let (c, d) = candidates(stop.lat, stop.lon, limit: limit)
            if c.isEmpty && d > limit { geo.append(.far(stop: s, meters: d, limit: limit)) }
            if c.count > Self.mostMatches { geo.append(.tooManyMatches(stop: s, count: c.count)) }
            geoCandidates.append(c); nearest.append(d)
        }
        if !geoCandidates.contains(where: \.isEmpty), let problem = Self.inOrder(geoCandidates).1 { geo.append(problem) }

        var user: [Problem] = []
        guard hasDistances, (stops.last?.distance ?? 0) > 0 else { return (geo, user) }
        var userCandidates: [[Place]] = []
        var from = 0
        for (s, stop) in stops.enumerated() {
            if stop.distance > 0 {
                let p = place(atDistance: stop.distance, from: from, stop.lat, stop.lon)
                userCandidates.append([p]); from = p.segment
            } else {
                let c = geoCandidates[s]
                if c.isEmpty {
                    let limit = Self.limit * (stop.large ? Self.largeStation : 1)
                    if nearest[s] > limit { user.append(.far(stop: s, meters: nearest[s], limit: limit)) }
                    return (geo, user)
                }
                if c.count > Self.mostMatches { user.append(.tooManyMatches(stop: s, count: c.count)) }
                userCandidates.append(c)
            }
        }
        let (placed, problem) = Self.inOrder(userCandidates)
        if let problem { user.append(problem) }
        for (s, p) in (placed ?? []).enumerated() where p.away > Self.limit { user.append(.far(stop: s, meters: p.away, limit: Self.limit)) }
        return (geo, user)
    }
}
