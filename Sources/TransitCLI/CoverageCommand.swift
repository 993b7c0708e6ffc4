import ArgumentParser
import Coverage
import Foundation
import Planner
import TransitModel

struct CoverageCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "coverage",
        abstract: "Where each feed really serves: regions, modes, agencies, service period, and their export for phones.",
        discussion: """
            A region is where a trip can start or end under the routing model: within \
            maxAccessWalk / walkDetourFactor (769 m by default) of a stop with service. \
            --geojson writes each region's export (Apple's routing-app coverage file rules: one \
            MultiPolygon, at most 20 polygons, no holes, counter-clockwise) to DIR/FEED.geojson.
            """
    )

    @Flag(help: "Print the regions as JSON.") var json = false
    @Option(help: ArgumentHelp("Write each region's export to DIR/FEED.geojson.", valueName: "dir")) var geojson: String?
    @OptionGroup var source: TimetableSourceOptions

    func run() throws {
        try runReportingErrors {
            let tt = try source.loadTimetable()
            let regions: [CoverageRegion]
            do { regions = try CoverageBuilder.regions(tt) } catch { throw CLIError("\(error)") }
            if let geojson {
                try FileManager.default.createDirectory(atPath: geojson, withIntermediateDirectories: true)
                for r in regions {
                    let path = (geojson as NSString).appendingPathComponent("\(r.feedId).geojson")
                    try Data(CoverageExport.text(r.export).utf8).write(to: URL(fileURLWithPath: path))
                    Output.err("wrote \(path)")
                }
            }
            if json {
                let list: [[String: Any]] = regions.map { r in
                    var o: [String: Any] = [
                        "feed": r.feedId, "name": r.name, "agencies": r.agencies, "modes": r.modes.map(\.rawValue),
                        "tripsPerMode": r.tripsPerMode, "stops": r.stops, "routes": r.routes, "trips": r.trips,
                        "tripsOnBusiestDay": r.tripsOnBusiestDay, "radiusMeters": r.radiusMeters,
                        "exactAreaKm2": (r.exactAreaKm2 * 100).rounded() / 100, "exportAreaKm2": (r.exportAreaKm2 * 100).rounded() / 100,
                        "exportRatio": (r.exportRatio * 1000).rounded() / 1000, "polygons": r.exact.count,
                        "exportPolygons": r.export.count, "exportPoints": r.exportPoints, "export": CoverageExport.geoJSON(r.export),
                    ]
                    if let d = r.firstDate { o["firstDate"] = d.iso8601 }
                    if let d = r.lastDate { o["lastDate"] = d.iso8601 }
                    if let d = r.busiestDay { o["busiestDay"] = d.iso8601 }
                    return o
                }
                print(PlanAnswerJSON.encode(["regions": list]))
                return
            }
            var rows = [["feed", "modes", "period", "stops", "routes", "trips/day", "km² exact", "km² export", "ratio", "polygons", "points"]]
            for r in regions {
                rows.append([r.feedId, r.modes.map(\.noun).joined(separator: ", "),
                             "\(r.firstDate?.iso8601 ?? "–") – \(r.lastDate?.iso8601 ?? "–")", Output.grouped(r.stops),
                             Output.grouped(r.routes), Output.grouped(r.tripsOnBusiestDay), String(format: "%.1f", r.exactAreaKm2),
                             String(format: "%.1f", r.exportAreaKm2), String(format: "%.2f×", r.exportRatio),
                             "\(r.exact.count) → \(r.export.count)", "\(r.exportPoints)"])
            }
            let widths = (0..<rows[0].count).map { c in rows.map { $0[c].count }.max()! }
            for row in rows {
                print(row.enumerated().map { c, v in Output.pad(v, widths[c], right: c >= 3) }.joined(separator: "  "))
            }
        }
    }
}
