import Foundation
import Testing
import GTFS
import TransitModel


// Fixture helpers for GTFSTests; the seeded generator comes from TransitTesting.

/// The repository root, derived from this file's path (Tests/GTFSTests/TestSupport.swift).
var repoRoot: URL {
    URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
}

/// A feed bundled in `<repo>/Data/`.
func bundledFeed(_ name: String) -> String { repoRoot.appendingPathComponent("Data/\(name)").path }

/// The shared data folder: `TRANSIT_SHARED_DATA`, else `<repo>/../shared/data`.
var sharedDataDirectory: String {
    if let env = ProcessInfo.processInfo.environment["TRANSIT_SHARED_DATA"], !env.isEmpty { return env }
    return repoRoot.deletingLastPathComponent().appendingPathComponent("shared/data").standardizedFileURL.path
}

/// A zip in the shared `gtfs/` folder, or nil when it is not there.
func sharedFeed(_ name: String) -> String? {
    let path = sharedDataDirectory + "/gtfs/" + name
    return FileManager.default.fileExists(atPath: path) ? path : nil
}

/// Every zip in the shared `gtfs/` folder, sorted (empty when the folder is missing: only
/// for checking that the folder holds what the tests expect, never as a list of cases).
func sharedFolderListing() -> [String] {
    let dir = sharedDataDirectory + "/gtfs"
    return ((try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []).filter { $0.hasSuffix(".zip") }.sorted()
}

/// A shared feed's path, or a thrown error naming the missing file.
func requireSharedFeed(_ name: String) throws -> String {
    guard let path = sharedFeed(name) else {
        throw MissingSharedFeed(path: sharedDataDirectory + "/gtfs/" + name)
    }
    return path
}

struct MissingSharedFeed: Error, CustomStringConvertible {
    let path: String
    var description: String { "\(path) is missing: set TRANSIT_SHARED_DATA to the shared data folder" }
}

/// A fresh temporary folder; remove it with `removeTemporary`.
func makeTemporaryDirectory(_ label: String = "gtfs") throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("GTFSTests-\(label)-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}

func removeTemporary(_ url: URL) { try? FileManager.default.removeItem(at: url) }

/// Removes the temporary folders made with `label` (left behind by a child process that crashed).
func removeTemporaries(label: String) {
    let tmp = FileManager.default.temporaryDirectory
    for name in (try? FileManager.default.contentsOfDirectory(atPath: tmp.path)) ?? [] where name.hasPrefix("GTFSTests-\(label)-") {
        removeTemporary(tmp.appendingPathComponent(name))
    }
}

struct UnzipFailed: Error, CustomStringConvertible {
    let status: Int32
    let output: String
    var description: String { "unzip exited with \(status): \(output)" }
}

/// Unzips `zip` into a new temporary folder with /usr/bin/unzip; the files are writable.
func unzipToTemporary(_ zip: String, label: String? = nil) throws -> URL {
    let dir = try makeTemporaryDirectory(label ?? (zip as NSString).lastPathComponent)
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/unzip")
    process.arguments = ["-q", "-o", zip, "-d", dir.path]
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = pipe
    try process.run()
    let output = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else {
        removeTemporary(dir)
        throw UnzipFailed(status: process.terminationStatus, output: String(decoding: output, as: UTF8.self))
    }
    for name in try FileManager.default.contentsOfDirectory(atPath: dir.path) {
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: dir.appendingPathComponent(name).path)
    }
    return dir
}

/// A modifiable copy of a feed in a folder.
struct FeedFolder {
    let url: URL
    var path: String { url.path }

    init(unzipping zip: String, label: String? = nil) throws { url = try unzipToTemporary(zip, label: label) }

    func file(_ name: String) -> URL { url.appendingPathComponent(name) }

    func bytes(_ name: String) throws -> [UInt8] { Array(try Data(contentsOf: file(name))) }
    func text(_ name: String) throws -> String { String(decoding: try bytes(name), as: UTF8.self) }

    func write(_ name: String, _ bytes: [UInt8]) throws { try Data(bytes).write(to: file(name)) }
    func write(_ name: String, _ text: String) throws { try write(name, Array(text.utf8)) }
    func append(_ name: String, _ text: String) throws { try write(name, try bytes(name) + Array(text.utf8)) }
    func remove(_ name: String) throws { try FileManager.default.removeItem(at: file(name)) }
    /// Replaces the first occurrence of `old` (which must be there).
    func replace(_ name: String, _ old: String, with new: String) throws {
        let t = try text(name)
        guard let r = t.range(of: old) else { throw FixtureError("\(old.debugDescription) not in \(name)") }
        try write(name, t.replacingCharacters(in: r, with: new))
    }

    func delete() { removeTemporary(url) }
}

struct FixtureError: Error, CustomStringConvertible {
    let description: String
    init(_ d: String) { description = d }
}

/// A Swift copy of a `GTFSValue` (whose raw bytes are only valid during `row`).
enum Value: Equatable, CustomStringConvertible {
    case null
    case int(Int)
    case date(ServiceDate)
    case text(String)

    init(_ v: GTFSValue) {
        switch v {
        case .null: self = .null
        case .int(let i): self = .int(i)
        case .date(let d): self = .date(d)
        case .raw(let b): self = .text(String(decoding: b, as: UTF8.self))
        }
    }

    var description: String {
        switch self {
        case .null: "null"
        case .int(let i): "\(i)"
        case .date(let d): d.iso8601
        case .text(let s): s.debugDescription
        }
    }
}

/// A row sink without a database: counts rows per file and keeps the values of the files
/// asked for, converted to Swift values inside `row`.
final class RecordingSink: GTFSRowSink {
    private let keep: Set<String>
    private(set) var begun: [String] = []
    private(set) var ended: [String] = []
    private(set) var rowCounts: [String: Int] = [:]
    /// file name -> rows, each row a column name -> value map.
    private(set) var rows: [String: [[String: Value]]] = [:]
    private var current: GTFSFileSpec?

    init(keeping files: Set<String> = []) { keep = files }

    func beginFile(_ spec: GTFSFileSpec) throws {
        #expect(current == nil, "beginFile(\(spec.fileName)) inside \(current?.fileName ?? "")")
        current = spec
        begun.append(spec.fileName)
    }

    func row(_ values: UnsafeBufferPointer<GTFSValue>) throws {
        guard let spec = current else { Issue.record("row outside a file"); return }
        #expect(values.count == spec.columns.count)
        rowCounts[spec.fileName, default: 0] += 1
        if spec.fileName == "stop_times.txt", case .raw(let b) = values[0] { stopTimesOfTrip[String(decoding: b, as: UTF8.self), default: 0] += 1 }
        if keep.contains(spec.fileName) {
            var row: [String: Value] = [:]
            for (i, column) in spec.columns.enumerated() { row[column.name] = Value(values[i]) }
            rows[spec.fileName, default: []].append(row)
        }
    }

    /// Trips taken back (`leaveOut`), and stop_times rows per trip to take them back from.
    private(set) var leftOut: [String] = []
    private var stopTimesOfTrip: [String: Int] = [:]

    func leaveOut(trips: [String]) throws {
        #expect(current?.fileName == "stop_times.txt")
        leftOut += trips
        for t in trips { rowCounts["stop_times.txt", default: 0] -= stopTimesOfTrip[t] ?? 0 }
        rows["stop_times.txt"]?.removeAll { if case .text(let id)? = $0["trip_id"] { return trips.contains(id) }; return false }
    }

    func endFile(_ spec: GTFSFileSpec) throws {
        #expect(current == spec)
        current = nil
        ended.append(spec.fileName)
    }

    func rows(_ file: String) -> [[String: Value]] { rows[file] ?? [] }
}

/// Loads a feed (folder or zip) into a recording sink.
func loadFeed(_ path: String, strict: Bool = false, keeping files: Set<String> = []) throws -> (GTFSLoadSummary, RecordingSink) {
    let sink = RecordingSink(keeping: files)
    let summary = try GTFSFeedLoader(source: try openFeed(at: path), strict: strict).load(into: sink)
    return (summary, sink)
}

/// All issues the summary kept as examples.
func examples(_ summary: GTFSLoadSummary) -> [GTFSIssue] { summary.issues.entries.flatMap(\.examples) }

/// The kept examples of one code.
func issues(_ summary: GTFSLoadSummary, _ code: String) -> [GTFSIssue] { examples(summary).filter { $0.code == code } }

/// The fatal error `body` throws, or nil (recorded as a test issue).
func thrownFatal(_ body: () throws -> Void, sourceLocation: SourceLocation = #_sourceLocation) -> GTFSIssue? {
    do {
        try body()
        Issue.record("expected a GTFSFatalError, nothing was thrown", sourceLocation: sourceLocation)
    } catch let error as GTFSFatalError {
        return error.issue
    } catch {
        Issue.record("expected a GTFSFatalError, got \(error)", sourceLocation: sourceLocation)
    }
    return nil
}
