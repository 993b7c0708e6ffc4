import ArgumentParser
import Foundation
import GTFS
import TransitStore

struct ImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Load a GTFS feed (a .zip or a folder) into PostgreSQL, checking every row.",
        discussion: """
            Rows with errors are skipped and listed in the summary; a fatal problem (a missing \
            required file or column, a file that is not CSV, a zip that is not a zip) stops the \
            import and leaves the database exactly as it was. Importing a feed id that exists \
            replaces that feed in one transaction.
            """
    )

    @Argument(help: "The feed: a GTFS .zip file or a folder of .txt files.")
    var feed: String

    @Option(name: .customLong("feed"), help: "The feed id to store it under (default: the file name, e.g. bart-2018).")
    var feedId: String?

    @Option(help: ArgumentHelp("The place the feed serves, for people: the city or area, as precisely as true (\"Porto Alegre\", not \"Brazil\"). Named with its coverage region; kept for later versions of the feed when not given again.", valueName: "name"))
    var place: String?

    @Flag(help: "Treat row errors as fatal: the first one stops the import and nothing changes.")
    var strict = false

    @Flag(help: "Only check the feed: read and validate every row, print the summary, touch no database.")
    var check = false

    @Flag(help: "Print the summary as JSON on standard output.")
    var json = false

    @OptionGroup var db: DatabaseOptions

    func validate() throws {
        if let feedId, !FeedImporter.isValidFeedId(feedId) {
            throw ValidationError("the feed id \"\(feedId)\" is not allowed: use 1–63 letters, digits, '.', '_' or '-'")
        }
        if let place, let problem = placeProblem(place) { throw ValidationError("--place: \(problem)") }
    }

    func run() throws {
        try runReportingErrors {
            let id = feedId ?? FeedImporter.defaultFeedId(for: feed)
            let progress = ImportProgressPrinter(live: Output.stderrIsTerminal)
            let started = Date()
            let result: ImportResult
            do {
                if check {
                    Output.err("Checking \(feed)\(strict ? " (strict)" : "") without a database")
                    let summary = try GTFSFeedLoader(source: openFeed(at: feed), strict: strict, onEvent: progress.handle)
                        .load(into: DiscardingSink())
                    result = ImportResult(feedId: id, version: 0, importId: 0, summary: summary,
                                          loadSeconds: Date().timeIntervalSince(started), indexSeconds: 0, swapSeconds: 0)
                } else {
                    let connection = try db.connect()
                    Output.err("Importing \(feed) as feed \"\(id)\"\(strict ? " (strict)" : "")")
                    result = try FeedImporter(db: connection).importFeed(at: feed, feedId: id, place: place?.trimmingCharacters(in: .whitespaces), strict: strict, onEvent: progress.handle)
                }
            } catch let fatal as GTFSFatalError {
                progress.clear()
                // --json: the report is on standard output in every case, a refusal too.
                if json { print(ImportReport.json(refused: fatal.issue, feedId: id, seconds: Date().timeIntervalSince(started))) }
                Output.err("import failed: \(fatal.issue.severity == .rowError ? "row error (--strict)" : "fatal") \(fatal.issue.code) at \(fatal.issue.location)")
                Output.err("  \(fatal.issue.message)")
                if !check { Output.err("Nothing was changed in the database (\(Output.seconds(Date().timeIntervalSince(started)))).") }
                throw ExitCode.failure
            }
            progress.clear()
            if json {
                print(ImportReport.json(result))
            } else {
                ImportReport.printSummary(result, elapsed: Date().timeIntervalSince(started))
            }
        }
    }
}

/// Shows each file's progress: a line updated in place on a terminal, plain lines when not.
final class ImportProgressPrinter: @unchecked Sendable {
    let live: Bool
    private var lastDraw = Date.distantPast
    private var drawn = false

    init(live: Bool) { self.live = live }

    func handle(_ event: GTFSLoadEvent) {
        switch event {
        case .fileStarted(let file, _):
            if live { draw("\(Output.pad(file, 20)) reading…") }
        case .progress(let file, let rows, let bytesRead, let total, let seconds):
            let pct = total.map { $0 > 0 ? " \(min(100, bytesRead * 100 / $0))%" : "" } ?? ""
            let line = "\(Output.pad(file, 20)) \(Output.pad(Output.grouped(rows), 10, right: true)) rows  \(Output.rate(rows, seconds))\(pct)"
            if live {
                if Date().timeIntervalSince(lastDraw) > 0.1 { draw(line) }
            } else {
                Output.err("  \(line)")
            }
        case .fileFinished(let stats):
            guard stats.present else { return }
            clear()
            var line = "  \(Output.pad(stats.file, 20)) \(Output.pad(Output.grouped(stats.rowsLoaded), 10, right: true)) rows"
            if stats.rowsSkipped > 0 { line += " (\(Output.grouped(stats.rowsSkipped)) skipped)" }
            line += "  \(Output.seconds(stats.seconds))  \(Output.rate(stats.rowsRead, stats.seconds))"
            Output.err(line)
        }
    }

    private func draw(_ s: String) {
        lastDraw = Date()
        drawn = true
        Output.errRaw("\r\u{1B}[2K  " + s)
    }

    func clear() {
        if live && drawn { Output.errRaw("\r\u{1B}[2K"); drawn = false }
    }
}

enum ImportReport {
    static func printSummary(_ r: ImportResult, elapsed: Double) {
        let s = r.summary
        if r.version == 0 {
            print("Checked \"\(r.feedId)\" in \(Output.seconds(elapsed)); nothing was written.")
        } else {
        print("Feed \"\(r.feedId)\" version \(r.version) imported in \(Output.seconds(elapsed)) "
              + "(read and copy \(Output.seconds(r.loadSeconds)), keys and indexes \(Output.seconds(r.indexSeconds)), swap \(Output.seconds(r.swapSeconds))).")
        }
        if let first = s.firstServiceDate, let last = s.lastServiceDate {
            print("Service from \(first.iso8601) to \(last.iso8601)" + (s.feedVersion.map { ", feed version \($0)" } ?? "") + ".")
        }
        print("")
        print("\(Output.pad("file", 22)) \(Output.pad("rows read", 10, right: true)) \(Output.pad("loaded", 10, right: true)) \(Output.pad("skipped", 8, right: true))")
        for f in s.files where f.present {
            print("\(Output.pad(f.file, 22)) \(Output.pad(Output.grouped(f.rowsRead), 10, right: true)) \(Output.pad(Output.grouped(f.rowsLoaded), 10, right: true)) \(Output.pad(Output.grouped(f.rowsSkipped), 8, right: true))")
        }
        let absent = s.files.filter { !$0.present }.map(\.file)
        if !absent.isEmpty { print("Not in the feed (optional): \(absent.joined(separator: ", "))") }
        print("")
        let entries = s.issues.sorted
        if entries.isEmpty {
            print("No problems found.")
            return
        }
        let counts = GTFSIssue.Severity.allCases.map { sev in (sev, s.issues.count(sev)) }.filter { $0.1 > 0 }
        print("Issues: " + counts.map { "\(Output.grouped($0.1)) \($0.0.rawValue)\($0.1 == 1 ? "" : "s")" }.joined(separator: ", "))
        for e in entries {
            print("  \(e.kind.severity.rawValue) \(e.kind.code) in \(e.kind.file): \(Output.grouped(e.count))")
            for ex in e.examples { print("      \(ex.location): \(ex.message)") }
            if e.count > e.examples.count { print("      … and \(Output.grouped(e.count - e.examples.count)) more") }
        }
    }

    struct Out: Encodable {
        let id: String; let version: Int; let seconds: Double
        let firstDate: String?; let lastDate: String?
        let rows: [String: Int]; let skipped: [String: Int]
        let issues: [GTFSIssueLog.Entry]
        /// The import was refused (a fatal problem, or a row error with --strict): nothing changed.
        var refused = false
    }

    /// The report of a refused import: version 0, the problem that stopped it.
    static func json(refused issue: GTFSIssue, feedId: String, seconds: Double) -> String {
        var log = GTFSIssueLog()
        log.add(issue)
        let out = Out(id: feedId, version: 0, seconds: seconds, firstDate: nil, lastDate: nil, rows: [:], skipped: [:], issues: log.sorted, refused: true)
        let e = JSONEncoder()
        e.outputFormatting = [.sortedKeys]
        return String(decoding: (try? e.encode(out)) ?? Data(), as: UTF8.self)
    }

    static func json(_ r: ImportResult) -> String {
        let s = r.summary
        let out = Out(id: r.feedId, version: r.version, seconds: r.totalSeconds,
                      firstDate: s.firstServiceDate?.iso8601, lastDate: s.lastServiceDate?.iso8601,
                      rows: s.rowsLoaded, skipped: Dictionary(uniqueKeysWithValues: s.files.map { (String($0.file.dropLast(4)), $0.rowsSkipped) }),
                      issues: s.issues.sorted)
        let e = JSONEncoder()
        e.outputFormatting = [.sortedKeys]
        return String(decoding: (try? e.encode(out)) ?? Data(), as: UTF8.self)
    }
}
