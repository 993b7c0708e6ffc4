import FeedNetwork
import Foundation
import Geo
import Timetable
import TransitModel

/// Regions of several feeds that touch, and the area they cover together.
public struct CoverageUnion: Sendable {
    public var feeds: [String]
    public var areaKm2: Double
    public var polygons: Int
}

/// The coverage-region report: the regions, unions of touching regions, the export
/// checks, and notes on anything doubtful. Text for a terminal, Markdown to send on,
/// JSON for programs: all from this one value.
public struct CoverageReport: Sendable {
    public var regions: [CoverageRegion]
    public var unions: [CoverageUnion]
    /// Feed id -> problems the export has against the phone rules (empty: all passed).
    public var problems: [String: [String]]
    /// Things a person should look at.
    public var notes: [String]
    /// How many checks each export went through.
    public static let checkCount = 7

    /// `today`: the date a finished service period is judged against.
    public static func make(_ regions: [CoverageRegion], timetable tt: TransitNetwork, today: ServiceDate) -> CoverageReport {
        var problems: [String: [String]] = [:]
        var notes: [String] = []
        for r in regions {
            problems[r.feedId] = CoverageExport.problems(r, timetable: tt)
            for (mode, trips) in zip(r.modes, r.tripsPerMode) where trips == 1 {
                notes.append("\(r.feedId): \(mode.noun) has a single trip")
            }
            if r.place == nil {
                notes.append("\(r.feedId): no place declared: name the city or area it serves with transit import --place "
                             + "(or --place \(r.feedId)=NAME)")
            }
            if let last = r.lastDate, last < today { notes.append("\(r.feedId): service ended on \(last.iso8601)") }
            if let first = r.firstDate, first > today { notes.append("\(r.feedId): service begins on \(first.iso8601)") }
            // A stop far from every other stop with service: an island of one, often a
            // misplaced coordinate. Far means more than `isolatedMeters` and more than
            // `isolatedFactor` times the region's median spacing (rail stations 5 km
            // apart are normal; a bus stop 5 km from the next is not).
            let served = Set(r.servedStops)
            let nearest: [Double] = r.servedStops.map { s in
                let c = tt.coordinate(ofStop: s)!
                if let n = tt.stopsNear(c, beelineMeters: 2_000).first(where: { $0.stop != s && served.contains($0.stop) }) { return n.meters }
                return r.servedStops.lazy.filter { $0 != s }.map { Geodesic.distance(c, tt.coordinate(ofStop: $0)!) }.min() ?? 0
            }
            let median = nearest.sorted()[nearest.count / 2]
            let limit = max(isolatedMeters, isolatedFactor * median)
            for (s, d) in zip(r.servedStops, nearest) where d > limit {
                let stop = tt.snapshot.stops[s.index]
                notes.append("\(r.feedId): stop \(stop.stopId) (\(stop.name)) is \(Words.distance(d)) from any other stop "
                             + "with service (the median is \(Words.distance(median)))")
            }
        }
        return CoverageReport(regions: regions, unions: CoverageBuilder.unions(regions, timetable: tt), problems: problems, notes: notes)
    }

    /// "vilnius-2015 also reached: Trakai, 2 trips a day (3 stops, 25 km from its network)",
    /// per region, most trips first; at most `alsoReachedShown` a region unless `all`.
    func alsoReachedLines(all: Bool = false) -> [String] {
        regions.flatMap { r -> [String] in
            let shown = all ? r.alsoReached[...] : r.alsoReached.prefix(Self.alsoReachedShown)
            var lines = shown.map { p in
                "\(r.feedId) also reached: \(p.name), \(p.tripsPerDay) trip\(p.tripsPerDay == 1 ? "" : "s") a day ("
                    + "\(p.stops.count) stop\(p.stops.count == 1 ? "" : "s"), \(Words.distance(p.networkMeters)) from its network)"
            }
            if shown.count < r.alsoReached.count { lines.append("\(r.feedId): and \(r.alsoReached.count - shown.count) more places") }
            return lines
        }
    }
    public static let alsoReachedShown = 10

    /// A stop with no other stop with service this near, and `isolatedFactor` times the
    /// median spacing, is noted.
    public static let isolatedMeters = 5_000.0
    public static let isolatedFactor = 8.0

    func period(_ r: CoverageRegion) -> String { "\(r.firstDate?.iso8601 ?? "–") – \(r.lastDate?.iso8601 ?? "–")" }
    func checks(_ r: CoverageRegion) -> String {
        let p = problems[r.feedId] ?? []
        return p.isEmpty ? "\(Self.checkCount)/\(Self.checkCount)" : "\(Self.checkCount - p.count)/\(Self.checkCount)"
    }
    static func grouped(_ n: Int) -> String {
        let s = String(n)
        var out = ""
        for (i, c) in s.reversed().enumerated() { if i > 0 && i % 3 == 0 { out.append(",") }; out.append(c) }
        return String(out.reversed())
    }

    /// The agencies: all of them, or the first two and how many more; led by the publisher
    /// when it names the region (more than two agencies).
    func agencies(_ r: CoverageRegion, all: Bool) -> String {
        let list = all || r.agencies.count <= 2 ? r.agencies.joined(separator: ", ")
            : r.agencies.prefix(2).joined(separator: ", ") + " +\(r.agencies.count - 2) more"
        if r.agencies.count > 2, let p = r.publisher, !p.isEmpty { return "\(p): \(list)" }
        return list
    }

    /// One row per region; its name is the place and the agencies (or publisher) together.
    func rows(allAgencies: Bool = false) -> [[String]] {
        [["region", "place", "modes", "agencies", "period", "stops", "routes", "trips/day", "km² exact", "km² export", "ratio", "polygons", "points", "checks"]]
        + regions.map { r in
            [r.feedId, r.place ?? "–", r.modes.map(\.noun).joined(separator: ", "), agencies(r, all: allAgencies), period(r),
             Self.grouped(r.stops), Self.grouped(r.routes), Self.grouped(r.tripsOnBusiestDay), String(format: "%.1f", r.exactAreaKm2),
             String(format: "%.1f", r.exportAreaKm2), String(format: "%.2f×", r.exportRatio), "\(r.exact.count) → \(r.export.count)",
             "\(r.exportPoints)", checks(r)]
        }
    }

    /// The terminal table, then unions, failed checks and notes.
    public func text() -> String {
        let rows = self.rows()
        let widths = (0..<rows[0].count).map { c in rows.map { $0[c].count }.max()! }
        var out = ""
        for row in rows {
            var line = row.enumerated().map { c, v in
                let pad = String(repeating: " ", count: widths[c] - v.count)
                return c >= 5 ? pad + v : v + pad
            }.joined(separator: "  ")
            while line.hasSuffix(" ") { line.removeLast() }
            out += line + "\n"
        }
        for u in unions {
            out += "\nTogether: \(u.feeds.joined(separator: " + ")) cover \(String(format: "%.1f", u.areaKm2)) km² in \(u.polygons) polygon\(u.polygons == 1 ? "" : "s")\n"
        }
        if regions.contains(where: { !$0.alsoReached.isEmpty }) {
            out += "\nAlso reached, outside the regions (a handful of trips, no network there):\n"
            for line in alsoReachedLines() { out += "  \(line)\n" }
        }
        let failed = regions.filter { !(problems[$0.feedId] ?? []).isEmpty }
        if !failed.isEmpty {
            out += "\nChecks failed:\n"
            for r in failed { for p in problems[r.feedId]! { out += "  \(r.feedId): \(p)\n" } }
        }
        if !notes.isEmpty {
            out += "\nNotes:\n"
            for n in notes { out += "  \(n)\n" }
        }
        return out
    }

    /// A Markdown report someone can send on.
    public func markdown(title: String = "Coverage regions") -> String {
        var out = "# \(title)\n\n"
        out += "Where a trip can start or end: within \(Int(regions.first?.radiusMeters.rounded() ?? 769)) m (beeline) of a stop "
            + "of the feed's network (at least \(ServiceLevels.networkTripsPerDay) trips a day, or within "
            + "\(Words.distance(ServiceLevels.networkReachMeters)) of such a stop); places reached by fewer trips farther out are "
            + "listed apart. The export is the outline phones get (Apple's routing-app coverage file rules).\n\n"
        let rows = self.rows(allAgencies: true)
        out += "| " + rows[0].joined(separator: " | ") + " |\n"
        out += "|" + rows[0].indices.map { $0 >= 5 ? " ---: " : " --- " }.joined(separator: "|") + "|\n"
        for row in rows.dropFirst() { out += "| " + row.map { $0.replacingOccurrences(of: "|", with: "\\|") }.joined(separator: " | ") + " |\n" }
        if !unions.isEmpty {
            out += "\n## Regions together\n\n"
            for u in unions { out += "- \(u.feeds.joined(separator: " + ")): \(String(format: "%.1f", u.areaKm2)) km² in \(u.polygons) polygon(s)\n" }
        }
        if regions.contains(where: { !$0.alsoReached.isEmpty }) {
            out += "\n## Also reached\n\nServed by a handful of trips, far from the feed's network: not covered.\n\n"
                + alsoReachedLines(all: true).map { "- \($0)\n" }.joined()
        }
        for r in regions where !(problems[r.feedId] ?? []).isEmpty {
            out += "\n## Checks failed: \(r.feedId)\n\n" + problems[r.feedId]!.map { "- \($0)\n" }.joined()
        }
        if !notes.isEmpty { out += "\n## Notes\n\n" + notes.map { "- \($0)\n" }.joined() }
        return out
    }

    /// The same data for programs.
    public func json() -> [String: Any] {
        ["regions": regions.map { r -> [String: Any] in
            var o: [String: Any] = [
                "feed": r.feedId, "name": r.name, "agencies": r.agencies, "modes": r.modes.map(\.rawValue),
                "tripsPerMode": r.tripsPerMode, "stops": r.stops, "routes": r.routes, "trips": r.trips,
                "tripsOnBusiestDay": r.tripsOnBusiestDay, "radiusMeters": r.radiusMeters,
                "exactAreaKm2": (r.exactAreaKm2 * 100).rounded() / 100, "exportAreaKm2": (r.exportAreaKm2 * 100).rounded() / 100,
                "exportRatio": (r.exportRatio * 1000).rounded() / 1000, "polygons": r.exact.count,
                "exportPolygons": r.export.count, "exportPoints": r.exportPoints, "checksFailed": problems[r.feedId] ?? [],
                "export": CoverageExport.geoJSON(r.export),
            ]
            if let p = r.place { o["place"] = p }
            if let p = r.publisher { o["publisher"] = p }
            if let d = r.firstDate { o["firstDate"] = d.iso8601 }
            if let d = r.lastDate { o["lastDate"] = d.iso8601 }
            if let d = r.busiestDay { o["busiestDay"] = d.iso8601 }
            o["alsoReached"] = r.alsoReached.map { p -> [String: Any] in
                ["name": p.name, "tripsPerDay": p.tripsPerDay, "stops": p.stops.count, "networkMeters": p.networkMeters.rounded(),
                 "point": ["type": "Point", "coordinates": [CoverageExport.round7(p.coordinate.longitude),
                                                             CoverageExport.round7(p.coordinate.latitude)]]]
            }
            return o
        },
         "unions": unions.map { ["feeds": $0.feeds, "areaKm2": ($0.areaKm2 * 100).rounded() / 100, "polygons": $0.polygons] as [String: Any] },
         "notes": notes]
    }
}

extension CoverageExport {
    /// What an export breaks of the phone rules, or of staying close to the exact area and
    /// around every stop with service (empty: all seven checks pass).
    public static func problems(_ r: CoverageRegion, timetable tt: TransitNetwork) -> [String] {
        var out: [String] = []
        if r.export.isEmpty || r.export.count > CoverageBuilder.maxPolygons { out.append("\(r.export.count) polygons (1 to 20 allowed)") }
        if r.export.contains(where: { $0.count < 4 }) { out.append("a polygon with fewer than 4 positions") }
        if r.export.contains(where: { $0.first != $0.last }) { out.append("a polygon not closed") }
        if r.export.contains(where: { ring in ring.contains { abs($0.longitude) > 180 || abs($0.latitude) > 90 } }) {
            out.append("a position out of range")
        }
        if r.export.contains(where: { CoverageBuilder.signedArea($0) <= 0 }) { out.append("a polygon not counter-clockwise") }
        let outside = r.servedStops.filter { s in !r.export.contains { inside(tt.coordinate(ofStop: s)!, $0) } }
        if !outside.isEmpty { out.append("\(outside.count) stops with service outside the export") }
        if r.exportRatio >= 1.5 { out.append(String(format: "the export is %.2f× the exact area (under 1.5× wanted)", r.exportRatio)) }
        return out
    }

    /// Ray casting with longitude as x.
    static func inside(_ p: Coordinate, _ ring: [Coordinate]) -> Bool {
        var inside = false
        for (a, b) in zip(ring, ring.dropFirst()) where (a.latitude > p.latitude) != (b.latitude > p.latitude) {
            let x = a.longitude + (p.latitude - a.latitude) / (b.latitude - a.latitude) * (b.longitude - a.longitude)
            if p.longitude < x { inside.toggle() }
        }
        return inside
    }
}
