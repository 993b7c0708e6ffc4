import ArgumentParser
import Coverage
import FeedNetwork
import Foundation
import Geo
import PlanJSON
import Planner
import TransitModel

struct CoverageCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "coverage",
        abstract: "Where each feed really serves: regions, modes, agencies, service period, and their export for phones.",
        discussion: """
            A region is where a trip can start or end under the routing model: within \
            maxAccessWalk / walkDetourFactor (769 m by default) of a stop of the feed's network \
            (8 or more trips a day, or within 20 km of such a stop); places farther out that a \
            few trips reach are listed apart ("also reached"). Prints \
            one row per region, the union of regions that touch, the export checks and notes \
            on anything doubtful. --geojson writes each region's export (Apple's routing-app \
            coverage file rules: one MultiPolygon, at most 20 polygons, no holes, \
            counter-clockwise) to DIR/FEED.geojson.
            """
    )

    @Flag(help: "Print the report as JSON.") var json = false
    @Option(help: ArgumentHelp("Write each region's export to DIR/FEED.geojson; or, when the path ends in .geojson, one export for all the regions together (the feeds of one city).", valueName: "path"))
    var geojson: String?
    @Option(help: ArgumentHelp("Write the report as Markdown to this file.", valueName: "file")) var markdown: String?
    @Option(help: ArgumentHelp("Draw the regions, their exports, stops and routes as an SVG picture in this file.", valueName: "file"))
    var svg: String?
    @Option(help: ArgumentHelp("Judge finished service against this date (default: today).", valueName: "yyyy-mm-dd")) var today: String?
    @OptionGroup var source: TimetableSourceOptions

    func validate() throws {
        if let today, ServiceDate.parse(iso8601: today) == nil { throw ValidationError("--today \"\(today)\" is not a date such as 2026-11-21") }
    }

    func run() throws {
        try runReportingErrors {
            let tt = try source.loadNetwork()
            let regions: [CoverageRegion]
            let started = Date()
            Output.progress("Coverage: working out the regions of \(tt.snapshot.feedIds.count == 1 ? "1 feed" : "\(tt.snapshot.feedIds.count) feeds")…")
            do { regions = try CoverageBuilder.regions(tt) } catch { throw CLIError("\(error)") }
            Output.progressDone("Coverage: \(regions.count == 1 ? "1 region" : "\(regions.count) regions") worked out in \(Output.seconds(Date().timeIntervalSince(started)))")
            let now = Int32(Date().timeIntervalSince1970 / 86_400)
            let report = CoverageReport.make(regions, timetable: tt,
                                             today: today.flatMap(ServiceDate.parse(iso8601:)) ?? ServiceDate(daysSinceEpoch: now))
            if let geojson, geojson.hasSuffix(".geojson") {
                guard report.unions.count == 1 && report.unions[0].feeds.count == regions.count || regions.count == 1 else {
                    throw CLIError("one file for all regions needs regions that touch (the feeds of one city); these are apart: "
                                   + "give a directory for one file per feed, or --feed to choose")
                }
                let combined: (export: [[Coordinate]], exactKm2: Double, exportKm2: Double)
                do { combined = try CoverageBuilder.combinedExport(regions, timetable: tt) } catch { throw CLIError("\(error)") }
                try Data(CoverageExport.text(combined.export).utf8).write(to: URL(fileURLWithPath: geojson))
                Output.err(String(format: "wrote %@: %d polygons, %.1f km² (%.2f× the exact %.1f km²)", geojson, combined.export.count,
                                  combined.exportKm2, combined.exportKm2 / combined.exactKm2, combined.exactKm2))
            } else if let geojson {
                try FileManager.default.createDirectory(atPath: geojson, withIntermediateDirectories: true)
                for r in regions {
                    let path = (geojson as NSString).appendingPathComponent("\(r.feedId).geojson")
                    try Data(CoverageExport.text(r.export).utf8).write(to: URL(fileURLWithPath: path))
                    Output.err("wrote \(path)")
                }
            }
            if let markdown {
                try Data(report.markdown().utf8).write(to: URL(fileURLWithPath: markdown))
                Output.err("wrote \(markdown)")
            }
            if let svg {
                try Data(CoverageSVG.render(regions, timetable: tt).utf8).write(to: URL(fileURLWithPath: svg))
                Output.err("wrote \(svg)")
            }
            if json { print(PlanAnswerJSON.encode(report.json())) } else { print(report.text(), terminator: "") }
        }
    }
}
