import ArgumentParser
import Foundation
import TransitStore

struct FeedsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "feeds",
        abstract: "List the loaded feeds, or remove one.",
        subcommands: [ListFeeds.self, RemoveFeed.self],
        defaultSubcommand: ListFeeds.self
    )
}

struct ListFeeds: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "List the loaded feeds (the default).")

    @Flag(help: "Print JSON for scripts.")
    var json = false

    @OptionGroup var db: DatabaseOptions

    func run() throws {
        try runReportingErrors {
            let feeds = try FeedCatalog(db: db.connect()).list()
            if json {
                let e = JSONEncoder()
                e.outputFormatting = [.sortedKeys, .prettyPrinted]
                struct Out: Encodable {
                    let id: String; let version: Int; let importedAt: String
                    let firstDate: String?; let lastDate: String?; let rows: [String: Int]
                    let feedVersion: String?; let place: String?
                }
                let out = feeds.map { Out(id: $0.id, version: $0.version, importedAt: $0.importedAt,
                                          firstDate: $0.firstDate, lastDate: $0.lastDate, rows: $0.rows,
                                          feedVersion: $0.feedVersion, place: $0.place) }
                print(String(decoding: try e.encode(out), as: UTF8.self))
                return
            }
            guard !feeds.isEmpty else {
                print("No feeds are loaded. Load one with: transit import FEED.zip")
                return
            }
            // The id column as wide as the longest id (porto-alegre-trensurb-2019 is 26).
            let idWidth = max(18, feeds.map(\.id.count).max() ?? 0)
            let header = [("feed", idWidth), ("version", 7), ("imported (UTC)", 20), ("service", 23), ("stops", 7), ("routes", 6), ("trips", 8), ("stop_times", 10), ("place", 0)]
            print(header.enumerated().map { i, h in Output.pad(h.0, h.1, right: i >= 4 && i < 8 || i == 1) }.joined(separator: "  "))
            for f in feeds {
                let service = f.firstDate.map { "\($0) – \(f.lastDate ?? "?")" } ?? "no service"
                let cells = [f.id, String(f.version), f.importedAt.replacingOccurrences(of: "T", with: " ").replacingOccurrences(of: "Z", with: ""),
                             service, Output.grouped(f.rows["stops"] ?? 0), Output.grouped(f.rows["routes"] ?? 0),
                             Output.grouped(f.rows["trips"] ?? 0), Output.grouped(f.rows["stop_times"] ?? 0), f.place ?? "–"]
                print(zip(cells, header).enumerated().map { i, p in Output.pad(p.0, p.1.1, right: i >= 4 && i < 8 || i == 1) }.joined(separator: "  "))
            }
        }
    }
}

struct RemoveFeed: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "remove", abstract: "Remove a feed and all its rows.")

    @Argument(help: "The feed id (see `transit feeds`).")
    var id: String

    @OptionGroup var db: DatabaseOptions

    func run() throws {
        try runReportingErrors {
            try FeedCatalog(db: db.connect()).remove(id)
            print("Removed feed \"\(id)\".")
        }
    }
}
