import ArgumentParser
import Foundation
import Streets
import TransitStore

struct ImportOSMCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import-osm",
        abstract: "Load an OpenStreetMap extract (.osm.pbf) as the walkable streets of a region.",
        discussion: """
            Runs osm2pgsql (flex output) into a staging schema, builds the walk edges (ways split \
            where they meet, lines across pedestrian areas) and swaps them in as the region's new \
            version in one transaction. A failed or interrupted load changes nothing current. \
            Walks then follow these streets wherever the extract covers both ends.
            """
    )

    @Argument(help: "The extract: an OpenStreetMap .osm.pbf file.")
    var file: String

    @Option(help: "The region id to store it under (default: the file name, e.g. milan-small).")
    var region: String?

    @Flag(help: "Load the extract even when it covers no stop of the loaded feeds.")
    var anyArea = false

    @Flag(help: "Print the summary as JSON on standard output.")
    var json = false

    @OptionGroup var db: DatabaseOptions

    func validate() throws {
        if let region, !FeedImporter.isValidFeedId(region) {
            throw ValidationError("the region id \"\(region)\" is not allowed: use 1–63 letters, digits, '.', '_' or '-'")
        }
    }

    func run() throws {
        try runReportingErrors(json: json) {
            let connection = try db.connect()
            let id = region ?? StreetImporter.defaultRegion(for: file)
            Output.err("Importing \(file) as streets of \"\(id)\"")
            let summary: StreetImportSummary
            do {
                summary = try StreetImporter(db: connection).importOSM(file: URL(fileURLWithPath: file), region: id, anyArea: anyArea) { line in
                    if Output.stderrIsTerminal { Output.progress(line) } else { Output.err("  \(line)") }
                }
            } catch let e as StreetImportError {
                Output.progress("")
                throw CLIError(e.message, code: "IMPORT_FAILED")
            }
            Output.progress("")
            // What every planner start pays to read the streets (all current versions).
            let clock = ContinuousClock()
            var loaded: StreetTables?
            let took = try clock.measure { loaded = try StreetStore(db: connection).load() }
            if !json, let loaded {
                Output.err(String(format: "All streets (%d edges) read back for the walk graph in %.2f s.", loaded.edgeCount,
                                  Double(took.components.seconds) + Double(took.components.attoseconds) / 1e18))
            }
            if json {
                let e = JSONEncoder()
                e.outputFormatting = [.sortedKeys]
                print(String(decoding: try e.encode(summary), as: UTF8.self))
            } else {
                Self.printSummary(summary)
            }
        }
    }

    static func printSummary(_ s: StreetImportSummary) {
        let mb = { (b: Int) in String(format: "%.0f MB", Double(b) / 1_048_576) }
        print("Streets of \"\(s.region)\" version \(s.version) imported in \(Output.seconds(s.seconds)) "
              + "(osm2pgsql \(Output.seconds(s.osm2pgsqlSeconds))); peak memory \(mb(s.peakMemoryBytes)), osm2pgsql \(mb(s.osm2pgsqlPeakMemoryBytes)).")
        print(String(format: "Extract: longitude %.4f to %.4f, latitude %.4f to %.4f.", s.bbox[0], s.bbox[2], s.bbox[1], s.bbox[3]))
        print("Ways: \(Output.grouped(s.waysRead)) read, \(Output.grouped(s.waysKept)) walkable kept"
              + (s.waysCut > 0 ? "; \(Output.grouped(s.waysCut)) cut at \(Output.grouped(s.missingNodes)) nodes missing from the extract." : "."))
        print("Edges: \(Output.grouped(s.edges)) between \(Output.grouped(s.nodes)) nodes ("
              + StreetKind.allCases.compactMap { k in s.edgesByKind["\(k)"].map { "\(k) \(Output.grouped($0))" } }.joined(separator: ", ") + ").")
        print("Pedestrian areas: \(Output.grouped(s.areas)), crossed by \(Output.grouped(s.crossingEdges)) straight edges.")
        print("Stops of the loaded feeds in the extract: \(Output.grouped(s.stopsInBox)), within 100 m of a street: \(Output.grouped(s.stopsCovered)).")
    }
}
