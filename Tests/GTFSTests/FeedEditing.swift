import Foundation
import Testing
import GTFS

// Editing copies of real feeds for the one-defect tests (FeedLoaderBrokenInputTests and the
// canonical rule suites), written once here.

/// A modified copy of a bundled feed in a folder; deleted after `body`.
func withFeed<T>(_ zip: String = "google-sample.zip", _ body: (FeedFolder) throws -> T) throws -> T {
    let folder = try FeedFolder(unzipping: bundledFeed(zip))
    defer { folder.delete() }
    return try body(folder)
}

/// The lines of a file without their line ends (LF or CRLF), the header first.
func lines(_ feed: FeedFolder, _ name: String) throws -> [String] {
    try feed.text(name).split(whereSeparator: { $0 == "\n" || $0 == "\r\n" }).map(String.init)
}

/// The file made of these lines.
func writeLines(_ feed: FeedFolder, _ name: String, _ lines: [String]) throws {
    try feed.write(name, lines.joined(separator: "\n") + "\n")
}

/// The 1-based number a line appended to `name` will have.
func nextLine(_ feed: FeedFolder, _ name: String) throws -> Int {
    let b = try feed.bytes(name)
    let breaks = b.filter { $0 == 0x0A }.count
    return b.isEmpty ? 1 : b.last == 0x0A ? breaks + 1 : breaks + 2
}

/// Appends lines (adding the line end the file lacks, if any).
func appendLines(_ feed: FeedFolder, _ name: String, _ lines: [String]) throws {
    let b = try feed.bytes(name)
    try feed.write(name, b + (b.last == 0x0A || b.isEmpty ? [] : [0x0A]) + Array(lines.map { $0 + "\n" }.joined().utf8))
}

/// What changed between two tallies of notices (after minus before, changes only).
func changes(from before: [String: Int], to after: [String: Int]) -> [String: Int] {
    Set(before.keys).union(after.keys).reduce(into: [:]) { d, k in
        let delta = (after[k] ?? 0) - (before[k] ?? 0)
        if delta != 0 { d[k] = delta }
    }
}

/// Rows read but not loaded, per file.
func skipped(_ summary: GTFSLoadSummary) -> [String: Int] {
    Dictionary(uniqueKeysWithValues: summary.files.map { ($0.file, $0.rowsSkipped) })
}

/// The key a notice is tallied under: our code, the canonical code, our action.
func key(_ code: String, _ canonical: String?, _ severity: GTFSIssue.Severity) -> String {
    "\(code) \(canonical ?? "-") \(severity.rawValue)"
}

/// Every notice counted by our code, canonical code and action (all files together).
func tally(_ summary: GTFSLoadSummary) -> [String: Int] {
    summary.issues.entries.reduce(into: [:]) { $0[key($1.kind.code, $1.kind.canonical, $1.kind.severity), default: 0] += $1.count }
}

/// Rows loaded, per file.
func loaded(_ summary: GTFSLoadSummary) -> [String: Int] {
    Dictionary(uniqueKeysWithValues: summary.files.map { ($0.file, $0.rowsLoaded) })
}

/// `counts` with `deltas` added.
func adding(_ counts: [String: Int], _ deltas: [String: Int]) -> [String: Int] {
    deltas.reduce(into: counts) { $0[$1.key, default: 0] += $1.value }
}

/// The loaded row of `file` whose `column` is `id` (the sink must keep `file`).
func row(_ sink: RecordingSink, _ file: String, _ column: String, _ id: String,
         sourceLocation: SourceLocation = #_sourceLocation) throws -> [String: Value] {
    try #require(sink.rows(file).first { $0[column] == .text(id) }, "no \(column) \(id) in \(file)", sourceLocation: sourceLocation)
}

/// The bytes of `s` to a check of field bytes.
func parses(_ s: String, _ check: (UnsafeBufferPointer<UInt8>) -> Bool) -> Bool {
    Array(s.utf8).withUnsafeBufferPointer(check)
}

/// The kept notices of a canonical code, by file and line.
func notices(_ summary: GTFSLoadSummary, canonical: String) -> [GTFSIssue] {
    summary.issues.entries.filter { $0.kind.canonical == canonical }.flatMap(\.examples)
        .sorted { ($0.file, $0.line ?? 0) < ($1.file, $1.line ?? 0) }
}

/// The shared real feeds (in `TRANSIT_SHARED_DATA`/gtfs).
let sharedFeedFiles = [
    "bart-2018.zip", "bydgoszcz-2020.zip", "caltrain.zip", "google-sample.zip", "mexico-city-2018.zip", "milan-atm-2014.zip",
    "nyc-subway-2018.zip", "porto-alegre-eptc-2019.zip", "porto-alegre-trensurb-2019.zip", "sacramento-sacrt-2024.zip",
    "vilnius-2015.zip", "wmata-rail-2026.zip",
]

/// Our code and action, the canonical code and its severity, and the place.
func checkNotice(_ issue: GTFSIssue, _ code: String, _ canonical: String, _ severity: GTFSIssue.Severity,
                 _ canonicalSeverity: CanonicalNotice.Severity, file: String, line: Int?, field: String?, value: String?,
                 sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(issue.code == code, sourceLocation: sourceLocation)
    #expect(issue.canonical == canonical, sourceLocation: sourceLocation)
    #expect(issue.severity == severity, sourceLocation: sourceLocation)
    #expect(issue.canonicalSeverity == canonicalSeverity, sourceLocation: sourceLocation)
    #expect(CanonicalNotice.rules[canonical]?.severity == canonicalSeverity, sourceLocation: sourceLocation)
    #expect(issue.file == file, sourceLocation: sourceLocation)
    #expect(issue.line == line, sourceLocation: sourceLocation)
    #expect(issue.field == field, sourceLocation: sourceLocation)
    #expect(issue.value == value, sourceLocation: sourceLocation)
}
