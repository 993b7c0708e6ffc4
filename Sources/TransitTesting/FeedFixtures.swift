import Foundation

/// Where the test feeds are, and scratch copies of them to break on purpose.
///
/// - Shared feeds (`../shared/data/gtfs/*.zip`, described in its SOURCES.md): the folder
///   named by `TRANSIT_SHARED_DATA` (Scripts/test.sh sets it), else `<repo>/../shared/data`.
/// - Bundled feeds: `<repo>/Data/*.zip`.
public enum FeedFixtures {
    /// The repository root: the nearest folder above this source file holding Package.swift.
    public static func repositoryRoot(filePath: String = #filePath) -> URL {
        var dir = URL(fileURLWithPath: filePath).deletingLastPathComponent()
        while dir.path != "/" {
            if FileManager.default.fileExists(atPath: dir.appendingPathComponent("Package.swift").path) { return dir }
            dir = dir.deletingLastPathComponent()
        }
        // Sources/TransitTesting/FeedFixtures.swift: two levels up.
        return URL(fileURLWithPath: filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    }

    /// The shared data folder (holding `gtfs/` and `SOURCES.md`).
    public static func sharedDataDirectory() throws -> URL {
        if let env = ProcessInfo.processInfo.environment["TRANSIT_SHARED_DATA"], !env.isEmpty {
            let url = URL(fileURLWithPath: env, isDirectory: true)
            guard FileManager.default.fileExists(atPath: url.appendingPathComponent("gtfs").path) else {
                throw TestSetupError("TRANSIT_SHARED_DATA=\(env) has no gtfs/ folder")
            }
            return url
        }
        let fallback = repositoryRoot().deletingLastPathComponent().appendingPathComponent("shared/data", isDirectory: true)
            .standardizedFileURL
        guard FileManager.default.fileExists(atPath: fallback.appendingPathComponent("gtfs").path) else {
            throw TestSetupError("""
                the shared GTFS feeds are not found: set TRANSIT_SHARED_DATA to the shared data folder \
                (Scripts/test.sh does when ../shared/data exists); looked in \(fallback.path)
                """)
        }
        return fallback
    }

    /// The feeds of the shared `gtfs/` folder, as its SOURCES.md lists them (smallest first).
    /// Tests that run on "every shared feed" take their cases from here, not from a listing
    /// of the folder: a missing folder or feed then fails the case that needs it (through
    /// `sharedFeed`) instead of leaving nothing to run.
    public static let sharedFeedNames = [
        "google-sample", "caltrain", "bart-2018", "porto-alegre-trensurb-2019", "mexico-city-2018",
        "sacramento-sacrt-2024", "milan-atm-2014", "wmata-rail-2026", "vilnius-2015", "nyc-subway-2018",
        "porto-alegre-eptc-2019", "bydgoszcz-2020",
    ]

    /// Path of a shared feed, e.g. `sharedFeed("bydgoszcz-2020")` (the `.zip` is optional).
    public static func sharedFeed(_ name: String) throws -> String {
        let file = name.hasSuffix(".zip") ? name : name + ".zip"
        let url = try sharedDataDirectory().appendingPathComponent("gtfs").appendingPathComponent(file)
        guard FileManager.default.fileExists(atPath: url.path) else {
            throw TestSetupError("shared feed \(file) not found at \(url.path)")
        }
        return url.path
    }

    /// Path of a feed bundled with the repository in `Data/`, e.g. `bundledFeed("google-sample")`.
    public static func bundledFeed(_ name: String) throws -> String {
        let file = name.hasSuffix(".zip") ? name : name + ".zip"
        let url = repositoryRoot().appendingPathComponent("Data").appendingPathComponent(file)
        guard FileManager.default.fileExists(atPath: url.path) else {
            throw TestSetupError("bundled feed \(file) not found at \(url.path)")
        }
        return url.path
    }

    /// Path of a feed: the bundled copy in `Data/` when there is one, else the shared one.
    public static func feed(_ name: String) throws -> String {
        try (try? bundledFeed(name)) ?? sharedFeed(name)
    }

    /// A new empty temporary folder (the caller removes it, e.g. with `FeedFolder.remove()`).
    public static func makeTemporaryDirectory(prefix: String = "transit-test") throws -> URL {
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("\(prefix)-\(UUID().uuidString.prefix(8))", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// Unpacks a zipped feed into a new temporary folder with `/usr/bin/unzip` (so the test
    /// oracle does not read the zip the way the importer does).
    public static func unzip(_ zipPath: String) throws -> FeedFolder {
        let dir = try makeTemporaryDirectory(prefix: "feed-" + URL(fileURLWithPath: zipPath).deletingPathExtension().lastPathComponent)
        let result = try ProcessRunner.run(executable: ProcessRunner.findTool("unzip"), ["-q", "-o", zipPath, "-d", dir.path])
        guard result.status == 0 else {
            try? FileManager.default.removeItem(at: dir)
            throw TestSetupError("unzip \(zipPath) failed (\(result.status)): \(result.stderr)")
        }
        // Some zips store read-only files: make them writable so tests can break them.
        for name in (try? FileManager.default.subpathsOfDirectory(atPath: dir.path)) ?? [] {
            let p = dir.appendingPathComponent(name).path
            var isDir: ObjCBool = false
            _ = FileManager.default.fileExists(atPath: p, isDirectory: &isDir)
            try? FileManager.default.setAttributes([.posixPermissions: isDir.boolValue ? 0o755 : 0o644], ofItemAtPath: p)
        }
        return FeedFolder(url: dir)
    }
}

/// An unpacked feed in a scratch folder, with helpers to break one of its files.
///
/// Lines are physical lines of the file (1-based, the header is line 1), the numbering the
/// importer reports; line ends (LF or CRLF) are kept as the file has them.
public struct FeedFolder: Sendable {
    public let url: URL
    public init(url: URL) { self.url = url }

    public var path: String { url.path }

    public func fileURL(_ file: String) -> URL { url.appendingPathComponent(file) }

    public var fileNames: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted()
    }

    public func contains(_ file: String) -> Bool { FileManager.default.fileExists(atPath: fileURL(file).path) }

    public func read(_ file: String) throws -> Data { try Data(contentsOf: fileURL(file)) }

    public func write(_ file: String, _ data: Data) throws { try data.write(to: fileURL(file)) }

    public func delete(_ file: String) throws { try FileManager.default.removeItem(at: fileURL(file)) }

    /// Deletes the whole folder.
    public func remove() { try? FileManager.default.removeItem(at: url) }

    // MARK: Lines

    /// The file split into physical lines, each with its own line end (the last may have none).
    public func lines(_ file: String) throws -> [Data] { FeedFolder.splitLines(try read(file)) }

    public static func splitLines(_ data: Data) -> [Data] {
        var out: [Data] = []
        let bytes = [UInt8](data)
        var start = 0
        var i = 0
        while i < bytes.count {
            if bytes[i] == 0x0A {
                out.append(Data(bytes[start...i]))
                start = i + 1
            }
            i += 1
        }
        if start < bytes.count { out.append(Data(bytes[start...])) }
        return out
    }

    /// The line end of a line (`\r\n`, `\n` or empty) and the line without it.
    public static func splitLineEnd(_ line: Data) -> (content: Data, end: Data) {
        let b = [UInt8](line)
        if b.count >= 2 && b[b.count - 2] == 0x0D && b[b.count - 1] == 0x0A { return (Data(b.dropLast(2)), Data([0x0D, 0x0A])) }
        if b.last == 0x0A { return (Data(b.dropLast()), Data([0x0A])) }
        return (line, Data())
    }

    /// Line `number` (1-based) as text without its line end.
    public func line(_ file: String, _ number: Int) throws -> String {
        let all = try lines(file)
        guard number >= 1 && number <= all.count else { throw TestSetupError("\(file) has no line \(number)") }
        return String(decoding: FeedFolder.splitLineEnd(all[number - 1]).content, as: UTF8.self)
    }

    /// The parts one after another. Not `reduce(Data(), +)`: that copies everything so far
    /// at each step, and on bydgoszcz's 583,000 stop_times lines a debug build took minutes.
    public static func joined(_ parts: [Data]) -> Data {
        var out = Data(capacity: parts.reduce(0) { $0 + $1.count })
        for p in parts { out.append(p) }
        return out
    }

    /// Replaces the content of line `number` (its line end is kept).
    public func replaceLine(_ file: String, _ number: Int, with content: Data) throws {
        var all = try lines(file)
        guard number >= 1 && number <= all.count else { throw TestSetupError("\(file) has no line \(number)") }
        all[number - 1] = content + FeedFolder.splitLineEnd(all[number - 1]).end
        try write(file, FeedFolder.joined(all))
    }

    public func replaceLine(_ file: String, _ number: Int, with content: String) throws {
        try replaceLine(file, number, with: Data(content.utf8))
    }

    /// Adds a line at the end (after a line end, in the file's own style).
    public func appendLine(_ file: String, _ content: String) throws {
        var data = try read(file)
        let lineEnd = data.contains(0x0D) ? Data([0x0D, 0x0A]) : Data([0x0A])
        if let last = data.last, last != 0x0A { data.append(lineEnd) }
        data.append(Data(content.utf8))
        data.append(lineEnd)
        try write(file, data)
    }

    /// The first line (after the header) whose content satisfies `predicate`; 1-based.
    public func firstLine(_ file: String, where predicate: (String) -> Bool) throws -> Int? {
        let all = try lines(file)
        for (i, l) in all.enumerated().dropFirst() {
            if predicate(String(decoding: FeedFolder.splitLineEnd(l).content, as: UTF8.self)) { return i + 1 }
        }
        return nil
    }

    // MARK: Fields

    /// The header's column names (BOM and surrounding spaces removed).
    public func header(_ file: String) throws -> [String] {
        var first = try line(file, 1)
        if first.hasPrefix("\u{FEFF}") { first.removeFirst() }
        return CSVLine.split(first).map { CSVLine.unquote($0).trimmingCharacters(in: .whitespaces) }
    }

    /// Index of a column in the header.
    public func columnIndex(_ file: String, _ column: String) throws -> Int {
        guard let i = try header(file).firstIndex(of: column) else { throw TestSetupError("\(file) has no column \(column)") }
        return i
    }

    /// Value of `column` on line `number` (quotes removed).
    public func field(_ file: String, line number: Int, _ column: String) throws -> String {
        let fields = CSVLine.split(try line(file, number))
        let i = try columnIndex(file, column)
        return i < fields.count ? CSVLine.unquote(fields[i]) : ""
    }

    /// Sets `column` on line `number` to raw bytes (written as they are, unquoted).
    public func setField(_ file: String, line number: Int, _ column: String, to value: Data) throws {
        let i = try columnIndex(file, column)
        let all = try lines(file)
        guard number >= 2 && number <= all.count else { throw TestSetupError("\(file) has no data line \(number)") }
        var fields = CSVLine.splitBytes(FeedFolder.splitLineEnd(all[number - 1]).content)
        guard i < fields.count else { throw TestSetupError("\(file):\(number) has no field \(column)") }
        fields[i] = value
        try replaceLine(file, number, with: CSVLine.join(fields))
    }

    public func setField(_ file: String, line number: Int, _ column: String, to value: String) throws {
        try setField(file, line: number, column, to: Data(value.utf8))
    }

    /// Removes a column from every line of the file (the header included).
    public func dropColumn(_ file: String, _ column: String) throws {
        let i = try columnIndex(file, column)
        let out = try lines(file).map { line -> Data in
            let (content, end) = FeedFolder.splitLineEnd(line)
            var fields = CSVLine.splitBytes(content)
            if content.isEmpty { return line }
            if i < fields.count { fields.remove(at: i) }
            return CSVLine.join(fields) + end
        }
        try write(file, FeedFolder.joined(out))
    }

    // MARK: Bytes

    /// Cuts the file at a byte offset.
    public func truncate(_ file: String, atByteOffset offset: Int) throws {
        let data = try read(file)
        try write(file, data.prefix(offset))
    }

    /// Byte offset where line `number` (1-based) starts.
    public func byteOffset(_ file: String, line number: Int) throws -> Int {
        let all = try lines(file)
        guard number >= 1 && number <= all.count else { throw TestSetupError("\(file) has no line \(number)") }
        return all.prefix(number - 1).reduce(0) { $0 + $1.count }
    }

    /// Inserts raw bytes at a byte offset.
    public func insertBytes(_ file: String, _ bytes: [UInt8], atByteOffset offset: Int) throws {
        var data = try read(file)
        data.insert(contentsOf: bytes, at: data.startIndex + offset)
        try write(file, data)
    }

    /// Zips the folder's files (at the archive root) with `/usr/bin/zip`, when installed.
    /// Folders are valid feeds for the importer, so tests rarely need this.
    public func zip(to zipPath: String) throws {
        let zipTool = try ProcessRunner.findTool("zip")
        try? FileManager.default.removeItem(atPath: zipPath)
        let result = try ProcessRunner.run(executable: zipTool, ["-q", "-X", "-j", zipPath] + fileNames.map { fileURL($0).path })
        guard result.status == 0 else { throw TestSetupError("zip failed (\(result.status)): \(result.stderr)") }
    }
}

/// Splits one CSV line into fields, quote-aware; fields keep their quotes so that a line
/// can be put back together byte for byte.
public enum CSVLine {
    public static func splitBytes(_ line: Data) -> [Data] {
        var fields: [Data] = []
        var current = Data()
        var inQuotes = false
        var atFieldStart = true
        for c in line {
            if inQuotes {
                current.append(c)
                if c == 0x22 { inQuotes = false }
                continue
            }
            if c == 0x2C {
                fields.append(current)
                current = Data()
                atFieldStart = true
                continue
            }
            if c == 0x22 && (atFieldStart || current.last == 0x22) { inQuotes = true }
            current.append(c)
            atFieldStart = false
        }
        fields.append(current)
        return fields
    }

    public static func split(_ line: String) -> [String] {
        splitBytes(Data(line.utf8)).map { String(decoding: $0, as: UTF8.self) }
    }

    /// Removes surrounding quotes and undoes doubled quotes.
    public static func unquote(_ field: String) -> String {
        let t = field.trimmingCharacters(in: .whitespaces)
        guard t.count >= 2, t.hasPrefix("\""), t.hasSuffix("\"") else { return field }
        return String(t.dropFirst().dropLast()).replacingOccurrences(of: "\"\"", with: "\"")
    }

    public static func join(_ fields: [Data]) -> Data {
        var out = Data()
        for (i, f) in fields.enumerated() {
            if i > 0 { out.append(0x2C) }
            out.append(f)
        }
        return out
    }
}

extension FeedFixtures {
    /// A tiny feed (in a new temporary folder; the caller removes it) for shapes and
    /// wheelchair fields:
    ///
    /// - shapes.txt: shapes `B`, `A`, `a` (first seen in that order; byte order `A`, `B`,
    ///   `a`), their rows interleaved and out of shape_pt_sequence order: `A` 1, 3, 2 with
    ///   shape_dist_traveled 0, 250.5, empty (by sequence: 0, NaN, 250.5; latitudes 52.00,
    ///   52.01, 52.02); `B` 30, 10, 20 without distances (by sequence: latitudes 52.11,
    ///   52.12, 52.13); `a` one point (52.5, 21.5, 7);
    /// - trips: `T1` shape `B`, wheelchair_accessible 1; `T2` shape `nope` (no such shape:
    ///   an UNKNOWN_SHAPE warning, stored anyway), 2; `T3` no shape, empty; `T4` shape `A`, 0;
    /// - stops: station `P` wheelchair_boarding 1; its children `C1` (empty) and `C2` (2);
    ///   `S3` (0).
    public static func makeShapesFeed() throws -> FeedFolder {
        let folder = FeedFolder(url: try makeTemporaryDirectory(prefix: "shapes-feed"))
        try folder.write("agency.txt", Data("agency_name,agency_url,agency_timezone\nA,http://a,UTC\n".utf8))
        try folder.write("stops.txt", Data("""
            stop_id,stop_name,stop_lat,stop_lon,location_type,parent_station,wheelchair_boarding
            P,Station,52.0,21.0,1,,1
            C1,Platform 1,52.0001,21.0001,0,P,
            C2,Platform 2,52.0002,21.0002,0,P,2
            S3,Street,52.01,21.01,0,,0

            """.utf8))
        try folder.write("routes.txt", Data("route_id,route_short_name,route_type\nR,1,3\n".utf8))
        try folder.write("calendar.txt", Data("""
            service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date
            WK,1,1,1,1,1,0,0,20240101,20241231

            """.utf8))
        try folder.write("shapes.txt", Data("""
            shape_id,shape_pt_lat,shape_pt_lon,shape_pt_sequence,shape_dist_traveled
            B,52.13,21.13,30,
            A,52.00,21.00,1,0
            B,52.11,21.11,10,
            a,52.5,21.5,7,
            A,52.02,21.02,3,250.5
            B,52.12,21.12,20,
            A,52.01,21.01,2,

            """.utf8))
        try folder.write("trips.txt", Data("""
            route_id,service_id,trip_id,shape_id,wheelchair_accessible
            R,WK,T1,B,1
            R,WK,T2,nope,2
            R,WK,T3,,
            R,WK,T4,A,0

            """.utf8))
        try folder.write("stop_times.txt", Data("""
            trip_id,arrival_time,departure_time,stop_id,stop_sequence
            T1,8:00:00,8:00:00,C1,1
            T1,8:10:00,8:10:00,S3,2
            T2,9:00:00,9:00:00,C2,1
            T2,9:10:00,9:10:00,S3,2
            T3,10:00:00,10:00:00,S3,1
            T3,10:10:00,10:10:00,C1,2
            T4,11:00:00,11:00:00,S3,1
            T4,11:10:00,11:10:00,C2,2

            """.utf8))
        return folder
    }
}
