import FeedNetwork
import Foundation
import Geo
import Raptor
import Timetable
import TransitModel

/// Where one feed serves, declared precisely: the area where a trip can start or end
/// under the routing model, the modes that really run, the agencies, the service period
/// and the counts; and its export for phones.
public struct CoverageRegion: Sendable {
    public var feedId: String
    /// For people: who runs it and where, e.g. "Bay Area Rapid Transit, San Francisco Bay
    /// Area" (`FeedSnapshot.regionName`).
    public var name: String
    /// The place, as declared at import (`transit import --place`); nil when not declared.
    public var place: String?
    /// `feed_info.txt`'s publisher, when given.
    public var publisher: String?
    public var agencies: [String]
    /// Transit modes with at least one trip, by number of trips.
    public var modes: [LegMode]
    /// Trips per mode (the same order).
    public var tripsPerMode: [Int]
    /// First and last date with service.
    public var firstDate: ServiceDate?
    public var lastDate: ServiceDate?
    /// Boardable stops with service, routes with trips, trips.
    public var stops: Int
    public var routes: Int
    public var trips: Int
    /// Trip runs (frequencies expanded) on the busiest service day.
    public var tripsOnBusiestDay: Int
    public var busiestDay: ServiceDate?
    /// Disc radius: maxAccessWalk / walkDetourFactor (beeline meters).
    public var radiusMeters: Double
    /// The exact area: polygons, each an exterior ring then its holes; rings closed,
    /// coordinates WGS84.
    public var exact: [[[Coordinate]]]
    public var exactAreaKm2: Double
    /// The export: at most 20 polygons without holes, outer rings counter-clockwise
    /// (longitude east, latitude north), closed.
    public var export: [[Coordinate]]
    public var exportAreaKm2: Double
    /// The stops of the feed's network (snapshot indexes): what the area is made of, for
    /// checks and pictures.
    public var servedStops: [StopIndex]
    /// Places the feed reaches with a handful of trips, far from its network: served, but
    /// not covered (docs/routing-model.md, "Coverage regions"); most trips a day first.
    public var alsoReached: [OutlyingPlace] = []

    public var exportRatio: Double { exactAreaKm2 > 0 ? exportAreaKm2 / exactAreaKm2 : 0 }
    public var exportPoints: Int { export.reduce(0) { $0 + $1.count - 1 } }
}

public enum CoverageError: Error, CustomStringConvertible {
    case projection(String)
    public var description: String {
        switch self { case .projection(let m): return "cannot project the region: \(m)" }
    }
}

/// Computes coverage regions from a timetable.
public enum CoverageBuilder {
    /// Most polygons an export may have, and the points per polygon it aims for.
    public static let maxPolygons = 20
    public static let targetPoints = 20
    /// Largest export area over exact area accepted while simplifying.
    public static let maxRatio = 1.45
    /// Width of the corridors that join islands of service when there are more than
    /// `maxPolygons` (meters).
    public static let corridorWidth = 100.0

    /// One region per feed that has any stop with service: the area around the stops of
    /// its network (docs/routing-model.md, "Coverage regions"), its outlying places apart.
    /// `levels`: the service levels when already worked out (the planner has them).
    public static func regions(_ tt: TransitNetwork, parameters p: RoutingParameters = RoutingParameters(),
                               levels: ServiceLevels? = nil) throws -> [CoverageRegion] {
        let s = tt.snapshot
        let routeRuns = tt.timetable.routesWithService()
        let levels = levels ?? ServiceLevels(tt)
        var out: [CoverageRegion] = []
        for f in 0..<s.feedIds.count {
            let stops = (0..<tt.timetable.stopCount).filter { levels.inNetwork[$0] && tt.timetable.stopFeed[$0] == FeedIndex(f) }
            guard !stops.isEmpty else { continue }
            var r = try region(tt, feed: f, stops: stops.map(StopIndex.init), routeRuns: routeRuns, p)
            r.alsoReached = levels.places.filter { $0.feed == FeedIndex(f) }
            out.append(r)
        }
        return out
    }

    /// The exact area around stops and its export: (polygons with holes, km², export
    /// polygons, km²).
    static func areas(_ tt: TransitNetwork, stops: [StopIndex], radius: Double) throws
        -> (exact: [[[Coordinate]]], exactKm2: Double, export: [[Coordinate]], exportKm2: Double) {
        let coords = stops.map { tt.coordinate(ofStop: $0)! }
        let projection = try localProjection(coords)
        let xy = projection.project(coords)
        let kit = GeometryKit()
        // The exact area: 64-gon discs (vertices on the circle: at most 0.9 m inside it).
        let exact = kit.discUnion(xy, radius: radius)
        defer { kit.destroy(exact) }
        let exactArea = kit.area(exact)
        let exportGeometry = makeExport(kit, exact, exactArea: exactArea, stops: xy)
        defer { kit.destroy(exportGeometry) }

        func unproject(_ ring: GeometryKit.Ring) -> [Coordinate] { ring.map { projection.unproject(x: $0.x, y: $0.y) } }
        let exactPolygons = kit.polygons(exact).map { $0.map(unproject) }
        let exportPolygons = kit.polygons(exportGeometry).map { rings -> [Coordinate] in
            var ring = unproject(rings[0])
            if ringSignedArea(ring) < 0 { ring.reverse() }
            return ring
        }
        return (exactPolygons, exactArea / 1e6, exportPolygons, kit.area(exportGeometry) / 1e6)
    }

    /// A local azimuthal equidistant projection centred on the mean of `coords`.
    static func localProjection(_ coords: [Coordinate]) throws -> LocalProjection {
        let center = Coordinate(latitude: coords.map(\.latitude).reduce(0, +) / Double(coords.count),
                                longitude: coords.map(\.longitude).reduce(0, +) / Double(coords.count))
        do { return try LocalProjection(center: center) } catch { throw CoverageError.projection("\(error)") }
    }

    /// One export for several regions together (the feeds of one city in one file):
    /// computed like a region from all their stops with service.
    public static func combinedExport(_ regions: [CoverageRegion], timetable tt: TransitNetwork)
        throws -> (export: [[Coordinate]], exactKm2: Double, exportKm2: Double) {
        let a = try areas(tt, stops: regions.flatMap(\.servedStops), radius: regions.first?.radiusMeters ?? 769)
        return (a.export, a.exactKm2, a.exportKm2)
    }

    static func region(_ tt: TransitNetwork, feed f: Int, stops: [StopIndex], routeRuns: [Bool], _ p: RoutingParameters) throws -> CoverageRegion {
        let s = tt.snapshot
        let radius = p.maxAccessWalk / p.walkDetourFactor
        let (exactPolygons, exactKm2, exportPolygons, exportKm2) = try areas(tt, stops: stops, radius: radius)

        // Declared facts.
        let agencies = s.agencyNames(feed: f)
        var tripsByMode: [LegMode: Int] = [:]
        var routes = Set<SourceRouteIndex>()
        var trips = 0
        var perDay = [Int](repeating: 0, count: tt.timetable.dayCount)
        var firstDay = Int.max, lastDay = -1
        for r in 0..<tt.timetable.routeCount where routeRuns[r] {
            let src = tt.timetable.routeSourceRoute[r]
            guard s.routes[src.index].feed == Int32(f) else { continue }
            routes.insert(src)
            let n = Int(tt.timetable.routeTripOffsets[r + 1] - tt.timetable.routeTripOffsets[r])
            tripsByMode[LegMode(routeType: Int(s.routes[src.index].type)), default: 0] += n
            trips += n
            for day in 0..<tt.timetable.dayCount where tt.timetable.serviceRuns(tt.timetable.routeService[r], day: day) {
                perDay[day] += n
                firstDay = min(firstDay, day); lastDay = max(lastDay, day)
            }
        }
        let modes = tripsByMode.sorted { ($0.value, $1.key.rawValue) > ($1.value, $0.key.rawValue) }
        let busiest = perDay.indices.max { perDay[$0] < perDay[$1] }
        return CoverageRegion(
            feedId: s.feedIds[f], name: s.regionName(feed: f), place: s.info(feed: f).place.flatMap { $0.isEmpty ? nil : $0 },
            publisher: s.info(feed: f).publisherName, agencies: agencies,
            modes: modes.map(\.key), tripsPerMode: modes.map(\.value),
            firstDate: lastDay >= 0 ? tt.timetable.firstDay.adding(days: firstDay) : nil,
            lastDate: lastDay >= 0 ? tt.timetable.firstDay.adding(days: lastDay) : nil,
            stops: stops.count, routes: routes.count, trips: trips,
            tripsOnBusiestDay: busiest.map { perDay[$0] } ?? 0, busiestDay: busiest.map { tt.timetable.firstDay.adding(days: $0) },
            radiusMeters: radius, exact: exactPolygons, exactAreaKm2: exactKm2,
            export: exportPolygons, exportAreaKm2: exportKm2, servedStops: stops)
    }

    /// The export: holes filled, islands joined by thin corridors, nearest first, until at
    /// most `maxPolygons` remain, then each outline
    /// pushed out by `t` and simplified with tolerance `t` (so it stays around the exact
    /// area), `t` growing until every polygon has at most `targetPoints` points or the
    /// area would pass `maxRatio` times the exact one. Every stop stays inside: it lies
    /// a whole radius inside the exact outline.
    static func makeExport(_ kit: GeometryKit, _ exact: OpaquePointer, exactArea: Double, stops: [(x: Double, y: Double)]) -> OpaquePointer {
        let filled = kit.fillHoles(exact)
        let joined = kit.count(filled) > maxPolygons ? kit.join(filled, limit: maxPolygons, width: corridorWidth) : nil
        let merged = joined.map { j -> OpaquePointer in kit.destroy(filled); let f = kit.fillHoles(j); kit.destroy(j); return f } ?? filled
        var best: OpaquePointer?
        for t in [10.0, 25, 50, 75, 100, 150, 200, 300, 400, 500, 650, 800, 1000, 1300, 1600, 2000, 2500, 3200] {
            let grown = kit.buffer(merged, t)
            let simple = kit.simplify(grown, t)
            kit.destroy(grown)
            let candidate = kit.fillHoles(simple)
            kit.destroy(simple)
            let ratio = kit.area(candidate) / max(exactArea, 1)
            guard ratio <= maxRatio || best == nil, kit.count(candidate) <= maxPolygons, kit.containsAll(candidate, stops) else {
                kit.destroy(candidate)
                if best != nil { break } else { continue }
            }
            if let b = best { kit.destroy(b) }
            best = candidate
            if kit.polygons(candidate).allSatisfy({ $0[0].count - 1 <= targetPoints }) { break }
        }
        kit.destroy(merged)
        return best ?? kit.fillHoles(exact)
    }

    /// Regions whose areas come within a radius of each other (the feeds of one city)
    /// and their union, computed like a region from all their stops with service.
    public static func unions(_ regions: [CoverageRegion], timetable tt: TransitNetwork) -> [CoverageUnion] {
        // Groups by overlapping bounding boxes (grown by the radius), merged transitively.
        func box(_ r: CoverageRegion) -> (Double, Double, Double, Double) {
            let all = r.exact.flatMap { $0[0] }
            return (all.map(\.latitude).min()!, all.map(\.latitude).max()!, all.map(\.longitude).min()!, all.map(\.longitude).max()!)
        }
        let boxes = regions.map(box)
        var group = Array(regions.indices)
        func find(_ i: Int) -> Int { group[i] == i ? i : find(group[i]) }
        for i in regions.indices {
            for j in regions.indices where j > i {
                let a = boxes[i], b = boxes[j]
                if a.0 <= b.1 && b.0 <= a.1 && a.2 <= b.3 && b.2 <= a.3 { group[find(j)] = find(i) }
            }
        }
        var out: [CoverageUnion] = []
        for root in Set(regions.indices.map(find)).sorted() {
            let members = regions.indices.filter { find($0) == root }
            guard members.count > 1 else { continue }
            let coords = members.flatMap { regions[$0].servedStops }.map { tt.coordinate(ofStop: $0)! }
            guard let projection = try? localProjection(coords) else { continue }
            let kit = GeometryKit()
            let g = kit.discUnion(projection.project(coords), radius: regions[members[0]].radiusMeters)
            out.append(CoverageUnion(feeds: members.map { regions[$0].feedId }, areaKm2: kit.area(g) / 1e6, polygons: kit.count(g)))
            kit.destroy(g)
        }
        return out
    }

    /// Twice the signed area of a ring in degrees (longitude x, latitude y): positive when
    /// counter-clockwise.
    public static func signedArea(_ ring: [Coordinate]) -> Double { ringSignedArea(ring) }
}

func ringSignedArea(_ ring: [Coordinate]) -> Double {
    var a = 0.0
    for (p, q) in zip(ring, ring.dropFirst()) { a += p.longitude * q.latitude - q.longitude * p.latitude }
    return a
}
