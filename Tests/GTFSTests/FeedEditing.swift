import Foundation
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
