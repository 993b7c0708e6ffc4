import ArgumentParser
import Coverage
import Foundation
import GTFS
import TransitModel
import TransitStore

struct ValidateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "validate",
        abstract: "Check a GTFS feed against the canonical GTFS rules and report what is wrong, without a database.",
        discussion: """
            Runs every rule the importer runs (each problem with its file, line, field and value, \
            and MobilityData's canonical notice code and severity beside ours) plus the rules \
            about dates, judged on --today (default: today). The report groups the notices by \
            code, with counts and the first samples: as a table on the terminal, as JSON, or as \
            one HTML page with no external assets. Exit status 0 when the feed can be loaded \
            (whatever it holds), 1 when the importer would refuse it (the report says why).
            """
    )

    @Argument(help: "The feed: a GTFS .zip file or a folder of .txt files.")
    var feed: String

    @Option(help: ArgumentHelp("The day the feed is judged on, YYYY-MM-DD (default: today): services that have ended, a feed about to expire.", valueName: "date"))
    var today: String?

    @Option(help: ArgumentHelp("table, json or html.", valueName: "format"))
    var format: ReportFormat = .table

    @Option(help: ArgumentHelp("Write the report to this file instead of standard output.", valueName: "file"))
    var output: String?

    @Option(help: ArgumentHelp("Samples kept for each code (each with its place).", valueName: "n"))
    var samples: Int = 5

    enum ReportFormat: String, ExpressibleByArgument, CaseIterable { case table, json, html }

    func validate() throws {
        if let today, ServiceDate.parse(iso8601: today) == nil { throw ValidationError("--today \"\(today)\" is not a date YYYY-MM-DD") }
        if samples < 1 || samples > 10_000 { throw ValidationError("--samples must be from 1 to 10000") }
    }

    func run() throws {
        try runReportingErrors {
            let day = today.flatMap { ServiceDate.parse(iso8601: $0) } ?? ServiceDate.today
            let started = Date()
            var report: ValidationReport
            do {
                let summary = try GTFSFeedLoader(source: openFeed(at: feed), today: day, examplesPerKind: samples).load(into: DiscardingSink())
                report = ValidationReport(feed: feed, today: day, seconds: Date().timeIntervalSince(started), summary: summary, samples: samples)
            } catch let fatal as GTFSFatalError {
                report = ValidationReport(feed: feed, today: day, seconds: Date().timeIntervalSince(started), refusal: fatal.issue)
            }
            let text: String
            switch format {
            case .table: text = report.table(width: output == nil ? Output.width : 120)
            case .json: text = report.json + "\n"
            case .html: text = report.html
            }
            if let output {
                do { try Data(text.utf8).write(to: URL(fileURLWithPath: output)) } catch {
                    throw CLIError("cannot write the report to \(output): \(error.localizedDescription)")
                }
                Output.err("Wrote the report to \(output): \(report.headline)")
            } else {
                print(text, terminator: "")
            }
            if report.refused { throw ExitCode.failure }
        }
    }
}

extension ServiceDate {
    /// The local calendar day now.
    static var today: ServiceDate {
        let c = Calendar.current.dateComponents([.year, .month, .day], from: Date())
        return ServiceDate(year: c.year!, month: c.month!, day: c.day!)!
    }
}

/// A feed's notices grouped by code, for `transit validate`: what the canonical rules say
/// (code, severity) beside what the importer does (its code, its action).
struct ValidationReport: Encodable {
    struct Sample: Encodable {
        let file: String
        let line: Int?
        let field: String?
        let value: String?
        let message: String
        var place: String {
            var s = file
            if let line { s += ":\(line)" }
            if let field { s += " \(field)" }
            if let value { s += " \"\(value)\"" }
            return s
        }
    }
    struct Notice: Encodable {
        /// The canonical code, nil when the canonical rules have none for it.
        let code: String?
        /// ERROR, WARNING or INFO (canonical); nil for our own notices.
        let severity: String?
        /// Our code and what the importer does (fatal, row error, field error, warning, note).
        let ours: String
        let action: String
        let count: Int
        let summary: String?
        let samples: [Sample]
    }
    let feed: String
    let today: String
    let seconds: Double
    /// The importer would refuse the feed (a fatal notice); nothing after it was checked.
    let refused: Bool
    /// Counts by canonical severity (ERROR, WARNING, INFO), and of our own notices ("OTHER").
    let counts: [String: Int]
    let notices: [Notice]
    let rowsLoaded: [String: Int]
    let rowsSkipped: [String: Int]

    init(feed: String, today: ServiceDate, seconds: Double, summary: GTFSLoadSummary, samples: Int) {
        var groups: [String: (first: GTFSIssueLog.Entry, count: Int, samples: [GTFSIssue])] = [:]
        var order: [String] = []
        for e in summary.issues.entries {
            let key = "\(e.kind.canonical ?? "")|\(e.kind.code)|\(e.kind.severity.rawValue)"
            if groups[key] == nil { order.append(key); groups[key] = (e, 0, []) }
            groups[key]!.count += e.count
            groups[key]!.samples += e.examples.prefix(max(0, samples - groups[key]!.samples.count))
        }
        let notices = order.map { k -> Notice in
            let g = groups[k]!
            return ValidationReport.notice(g.first.kind.canonical, ours: g.first.kind.code, action: g.first.kind.severity, count: g.count, samples: g.samples)
        }
        self.init(feed: feed, today: today, seconds: seconds, refused: false, notices: notices,
                  rowsLoaded: summary.rowsLoaded,
                  rowsSkipped: Dictionary(uniqueKeysWithValues: summary.files.filter(\.present).map { (String($0.file.dropLast(4)), $0.rowsSkipped) }))
    }

    init(feed: String, today: ServiceDate, seconds: Double, refusal: GTFSIssue) {
        self.init(feed: feed, today: today, seconds: seconds, refused: true,
                  notices: [ValidationReport.notice(refusal.canonical, ours: refusal.code, action: refusal.severity, count: 1, samples: [refusal])],
                  rowsLoaded: [:], rowsSkipped: [:])
    }

    private init(feed: String, today: ServiceDate, seconds: Double, refused: Bool, notices: [Notice], rowsLoaded: [String: Int], rowsSkipped: [String: Int]) {
        self.feed = feed
        self.today = today.iso8601
        self.seconds = seconds
        self.refused = refused
        // Canonical errors first, then warnings, infos, our own; by count within each.
        func rank(_ n: Notice) -> Int { ["ERROR": 0, "WARNING": 1, "INFO": 2][n.severity ?? ""] ?? 3 }
        self.notices = notices.sorted { (rank($0), -$0.count, $0.code ?? "", $0.ours) < (rank($1), -$1.count, $1.code ?? "", $1.ours) }
        var counts = ["ERROR": 0, "WARNING": 0, "INFO": 0, "OTHER": 0]
        for n in notices { counts[n.severity ?? "OTHER", default: 0] += n.count }
        self.counts = counts
        self.rowsLoaded = rowsLoaded
        self.rowsSkipped = rowsSkipped
    }

    private static func notice(_ canonical: String?, ours: String, action: GTFSIssue.Severity, count: Int, samples: [GTFSIssue]) -> Notice {
        let rule = canonical.flatMap { CanonicalNotice.rules[$0] }
        return Notice(code: canonical, severity: rule?.severity.rawValue, ours: ours, action: action.rawValue, count: count,
                      summary: rule?.summary, samples: samples.map { Sample(file: $0.file, line: $0.line, field: $0.field, value: $0.value, message: $0.message) })
    }

    var headline: String {
        func n(_ k: String, _ word: String) -> String { let c = counts[k] ?? 0; return "\(Output.grouped(c)) \(word)\(c == 1 ? "" : "s")" }
        let what = "\(n("ERROR", "error")), \(n("WARNING", "warning")), \(n("INFO", "info notice"))"
            + ((counts["OTHER"] ?? 0) > 0 ? ", \(n("OTHER", "other note"))" : "")
        return refused ? "refused: the importer cannot load this feed (\(notices.first?.ours ?? ""))" : what
    }

    var json: String {
        let e = JSONEncoder()
        e.outputFormatting = [.sortedKeys]
        return String(decoding: (try? e.encode(self)) ?? Data(), as: UTF8.self)
    }

    func table(width: Int) -> String {
        var out = "Validated \(feed) on \(today) in \(Output.seconds(seconds)): \(headline).\n"
        if !refused, let st = rowsLoaded["stop_times"] { out += "Loaded \(Output.grouped(st)) stop times of \(Output.grouped(rowsLoaded["trips"] ?? 0)) trips; "
            + "skipped \(Output.grouped(rowsSkipped.values.reduce(0, +))) rows.\n" }
        guard !notices.isEmpty else { return out + "No problems found.\n" }
        out += "\n" + Output.pad("severity", 8) + "  " + Output.pad("canonical code", 40) + "  " + Output.pad("our code", 26) + "  "
            + Output.pad("action", 11) + "  " + Output.pad("count", 9, right: true) + "\n"
        for n in notices {
            out += Output.pad(n.severity ?? "-", 8) + "  " + Output.pad(n.code ?? "-", 40) + "  " + Output.pad(n.ours, 26) + "  "
                + Output.pad(n.action, 11) + "  " + Output.pad(Output.grouped(n.count), 9, right: true) + "\n"
            for s in n.samples {
                let line = "    \(s.place): \(s.message)"
                out += (line.count > width ? String(line.prefix(max(20, width - 1))) + "…" : line) + "\n"
            }
            if n.count > n.samples.count { out += "    … and \(Output.grouped(n.count - n.samples.count)) more\n" }
        }
        return out
    }

    /// One page an agency can open anywhere: styles inline, no scripts, no external assets.
    var html: String {
        // XML's escaping is HTML's too (and drops control characters a feed may hold).
        func esc(_ s: String) -> String { CoverageSVG.escape(s) }
        let name = URL(fileURLWithPath: feed).lastPathComponent
        var h = """
            <!DOCTYPE html>
            <html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
            <title>GTFS validation: \(esc(name))</title>
            <style>
            body{font:15px/1.45 system-ui,sans-serif;margin:2em auto;max-width:70em;padding:0 1em;color:#1a1a1a}
            h1{font-size:1.5em}table{border-collapse:collapse;width:100%}th,td{text-align:left;padding:.35em .6em;border-bottom:1px solid #ddd;vertical-align:top}
            td.n{text-align:right;font-variant-numeric:tabular-nums}.ERROR{color:#b00020;font-weight:600}.WARNING{color:#8a5a00;font-weight:600}.INFO{color:#1a5fb4}
            code{font-size:.95em}details summary{cursor:pointer}ul{margin:.3em 0;padding-left:1.2em}.muted{color:#555}
            </style></head><body>
            <h1>GTFS validation: \(esc(name))</h1>
            <p>Judged on \(esc(today)) in \(esc(Output.seconds(seconds))): <strong>\(esc(headline))</strong>.</p>

            """
        if !refused, let st = rowsLoaded["stop_times"] {
            h += "<p class=\"muted\">Loaded \(Output.grouped(st)) stop times of \(Output.grouped(rowsLoaded["trips"] ?? 0)) trips; skipped \(Output.grouped(rowsSkipped.values.reduce(0, +))) rows.</p>\n"
        }
        if notices.isEmpty {
            h += "<p>No problems found.</p>\n"
        } else {
            h += "<table><thead><tr><th>Severity</th><th>Canonical code</th><th>What it checks</th><th>Our code</th><th>What the importer does</th><th>Count</th></tr></thead><tbody>\n"
            for n in notices {
                let sev = n.severity ?? "—"
                h += "<tr><td class=\"\(esc(n.severity ?? ""))\">\(esc(sev))</td><td><code>\(esc(n.code ?? "—"))</code></td><td>\(esc(n.summary ?? ""))</td>"
                    + "<td><code>\(esc(n.ours))</code></td><td>\(esc(n.action))</td><td class=\"n\">\(Output.grouped(n.count))</td></tr>\n"
                h += "<tr><td></td><td colspan=\"5\"><details><summary>\(n.samples.count == n.count ? "Where" : "The first \(n.samples.count) of \(Output.grouped(n.count))")</summary><ul>"
                for s in n.samples { h += "<li><code>\(esc(s.place))</code>: \(esc(s.message))</li>" }
                h += "</ul></details></td></tr>\n"
            }
            h += "</tbody></table>\n"
        }
        h += "<p class=\"muted\">Canonical codes and severities are MobilityData's GTFS Schedule notices; a row error skips the row (or leaves its trip out), a field error drops the value and keeps the row.</p>\n</body></html>\n"
        return h
    }
}
