import CLibPQ
import Foundation
import Geo
import Streets
#if canImport(Glibc)
import Glibc
#endif

/// What `StreetImporter.importOSM` did, for the summary (`transit import-osm`).
public struct StreetImportSummary: Sendable, Codable, Equatable {
    public var region: String
    /// 1 for the first load of this region, then 2, 3, …
    public var version: Int
    /// The edges table of this version (`streets.edges_<n>`).
    public var table: String
    public var seconds: Double
    public var osm2pgsqlSeconds: Double
    /// Peak resident memory in bytes: this process (VmHWM) and osm2pgsql (its maxrss).
    public var peakMemoryBytes: Int
    public var osm2pgsqlPeakMemoryBytes: Int
    /// Ways in the extract, and the walkable ones kept.
    public var waysRead: Int
    public var waysKept: Int
    /// Kept ways (and area outlines) that reference nodes missing from the extract, and those nodes.
    public var waysCut: Int
    public var missingNodes: Int
    public var edges: Int
    /// Edges by `StreetKind` name (`road`, `footway`, … `area`).
    public var edgesByKind: [String: Int]
    /// Pedestrian areas and the straight edges across them.
    public var areas: Int
    public var crossingEdges: Int
    public var nodes: Int
    /// Stops of the loaded feeds inside the extract's bounding box, and those within 100 m of an edge.
    public var stopsInBox: Int
    public var stopsCovered: Int
    /// The extract's bounding box: min longitude, min latitude, max longitude, max latitude.
    public var bbox: [Double]
}

/// A street import that cannot go on: a plain sentence; the database is as it was.
public struct StreetImportError: Error, Sendable, CustomStringConvertible {
    public let message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

/// Loads an OpenStreetMap extract (`.osm.pbf`) as a new street version of a region.
///
/// osm2pgsql (flex output, the walkable style below) writes the ways and areas into a
/// staging schema of this load; the edges are built here, the area crossings decided by
/// PostGIS, and the edges copied into a fresh table that becomes current, with the
/// catalogue row, in one transaction at the very end. A load that fails or is killed
/// leaves the current versions as they were; its staging schema is dropped by the next load.
public struct StreetImporter {
    private let db: PGConnection

    public init(db: PGConnection) { self.db = db }

    /// The region id for a file: its name without `.osm.pbf` (`milan-small`).
    public static func defaultRegion(for path: String) -> String {
        var name = (path as NSString).lastPathComponent.lowercased()
        for suffix in [".osm.pbf", ".pbf", ".osm"] where name.hasSuffix(suffix) { name = String(name.dropLast(suffix.count)); break }
        let cleaned = String(name.map { ($0.isASCII && ($0.isLetter || $0.isNumber || "._-".contains($0))) ? $0 : "-" })
        return cleaned.isEmpty ? "streets" : String(cleaned.prefix(63))
    }

    /// Creates the `streets` schema and its catalogue, with PostGIS (and pgRouting when installed).
    public static func ensureSchema(_ db: PGConnection) throws {
        do { try db.execute("CREATE EXTENSION IF NOT EXISTS postgis") } catch let e as StoreError {
            throw StreetImportError("PostGIS is not available in this PostgreSQL (CREATE EXTENSION postgis failed: "
                                    + "\(e.message.split(separator: "\n").first ?? "")); install it: Scripts/setup.sh")
        }
        if try db.scalar("SELECT count(*) FROM pg_available_extensions WHERE name = 'pgrouting'") == "1" {
            try? db.execute("CREATE EXTENSION IF NOT EXISTS pgrouting")
        }
        try db.execute("""
            CREATE SCHEMA IF NOT EXISTS streets;
            CREATE SEQUENCE IF NOT EXISTS streets.load_seq;
            CREATE TABLE IF NOT EXISTS streets.versions (
                region text PRIMARY KEY, version int NOT NULL, table_name text NOT NULL, source text NOT NULL,
                imported_at timestamptz NOT NULL, counts jsonb NOT NULL, bbox float8[] NOT NULL, seconds float8 NOT NULL)
            """)
    }

    /// Imports `file` as the next version of `region` (default: the file's stem).
    /// `anyArea`: load even when the extract covers no stop of the loaded feeds.
    public func importOSM(file: URL, region: String? = nil, anyArea: Bool = false,
                          progress: (String) -> Void = { _ in }) throws -> StreetImportSummary {
        let started = Date()
        let path = file.path
        var isDir: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDir), !isDir.boolValue else {
            throw StreetImportError("there is no file \(path)")
        }
        let region = region ?? Self.defaultRegion(for: path)
        guard FeedImporter.isValidFeedId(region) else {
            throw StreetImportError("the region id \"\(region)\" is not allowed: use 1–63 letters, digits, '.', '_' or '-'")
        }
        guard let tool = Self.findTool("osm2pgsql") else {
            throw StreetImportError("osm2pgsql is not installed (it reads the extract): install osm2pgsql: Scripts/setup.sh")
        }
        // One street load at a time (a session lock: a killed load's goes with its connection),
        // so any staging schema found now was left by a load that died.
        try db.query("SELECT pg_advisory_lock(7467)")
        defer { _ = try? db.query("SELECT pg_advisory_unlock(7467)") }
        try Self.ensureSchema(db)
        for row in try db.query("SELECT nspname FROM pg_namespace WHERE nspname LIKE 'streets\\_stage\\_%'") {
            if let name = row[0] { try db.execute("DROP SCHEMA \(db.identifier(name)) CASCADE") }
        }
        let n = Int(try db.scalar("SELECT nextval('streets.load_seq')") ?? "0") ?? 0
        let stage = "streets_stage_\(n)"
        try db.execute("CREATE SCHEMA \(stage)")
        defer { try? db.execute("DROP SCHEMA IF EXISTS \(stage) CASCADE") }

        let t0 = Date()
        let childPeak = try runOsm2pgsql(tool: tool, file: path, schema: stage, progress: progress)
        let osmSeconds = Date().timeIntervalSince(t0)

        progress("reading the ways")
        let extract = try readStage(stage)
        let (stopsInBox, feedBoxes) = try stopsInside(extract.bbox)
        if stopsInBox == 0 && !feedBoxes.isEmpty && !anyArea {
            let box = Self.boxText(extract.bbox)
            throw StreetImportError("the extract \((path as NSString).lastPathComponent) (\(box)) covers no stop of the loaded feeds ("
                                    + feedBoxes.map { "\($0.0): \(Self.boxText($0.1))" }.joined(separator: "; ")
                                    + "); nothing was loaded. Pass --any-area to load it anyway.")
        }
        progress("building the edges")
        var build = EdgeBuilder(extract)
        build.buildWays()
        try build.addCrossings(try crossingPairs(stage, build.entrances()))

        progress("writing \(build.edgeCount) edges")
        let table = "streets.edges_\(n)"
        try db.execute("BEGIN")
        var summary: StreetImportSummary
        do {
            try db.execute("SET LOCAL maintenance_work_mem = '256MB'")
            try db.execute("""
                CREATE TABLE \(table) (id int PRIMARY KEY, source bigint NOT NULL, target bigint NOT NULL,
                    length_m float8 NOT NULL, cost float8 NOT NULL, way_id bigint NOT NULL, name text, highway text,
                    kind smallint NOT NULL, flags smallint NOT NULL, geom geometry(LineString, 4326) NOT NULL)
                """)
            try db.beginCopy("COPY \(table) FROM STDIN")
            try build.writeCopy(to: db)
            try db.endCopy()
            try db.execute("CREATE INDEX ON \(table) USING gist (geom); ANALYZE \(table)")
            let covered = try stopsCovered(table: table, bbox: extract.bbox)
            let old = try db.query("SELECT version, table_name FROM streets.versions WHERE region = $1 FOR UPDATE", [region]).first
            let version = (old?[0].flatMap { Int($0) } ?? 0) + 1
            summary = StreetImportSummary(
                region: region, version: version, table: table, seconds: 0, osm2pgsqlSeconds: osmSeconds,
                peakMemoryBytes: 0, osm2pgsqlPeakMemoryBytes: childPeak,
                waysRead: extract.waysRead, waysKept: extract.ways.count, waysCut: build.waysCut, missingNodes: build.missingNodes,
                edges: build.edgeCount, edgesByKind: build.edgesByKind, areas: extract.areas.count, crossingEdges: build.crossingCount,
                nodes: build.nodeCount, stopsInBox: stopsInBox, stopsCovered: covered, bbox: extract.bbox)
            let counts = String(decoding: try JSONEncoder.sorted.encode([
                "ways_read": summary.waysRead, "ways_kept": summary.waysKept, "ways_cut": summary.waysCut,
                "missing_nodes": summary.missingNodes, "edges": summary.edges, "areas": summary.areas,
                "crossing_edges": summary.crossingEdges, "nodes": summary.nodes, "stops_covered": covered]), as: UTF8.self)
            try db.query("""
                INSERT INTO streets.versions (region, version, table_name, source, imported_at, counts, bbox, seconds)
                VALUES ($1, $2, $3, $4, now(), $5::jsonb, $6::float8[], $7)
                ON CONFLICT (region) DO UPDATE SET version = EXCLUDED.version, table_name = EXCLUDED.table_name,
                    source = EXCLUDED.source, imported_at = EXCLUDED.imported_at, counts = EXCLUDED.counts,
                    bbox = EXCLUDED.bbox, seconds = EXCLUDED.seconds
                """, [region, String(version), table, (path as NSString).lastPathComponent, counts,
                      "{" + extract.bbox.map { String($0) }.joined(separator: ",") + "}", String(Date().timeIntervalSince(started))])
            if let oldTable = old?[1] ?? nil, oldTable != table { try db.execute("DROP TABLE IF EXISTS \(oldTable)") }
            // Delivered to LISTENers only when this transaction commits.
            try db.query("SELECT pg_notify($1, $2)", [FeedCatalog.changeChannel, "streets \(region) \(version)"])
            try db.execute("COMMIT")
        } catch {
            if db.isConnected { try? db.execute("ROLLBACK") }
            throw error
        }
        summary.seconds = Date().timeIntervalSince(started)
        summary.peakMemoryBytes = Self.peakMemory()
        return summary
    }

    // MARK: osm2pgsql

    static func findTool(_ name: String) -> String? {
        let dirs = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map(String.init)
        return dirs.map { "\($0)/\(name)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// Runs osm2pgsql into `schema`; returns its peak memory in bytes. Its progress lines
    /// become ours; a failure becomes a plain error.
    private func runOsm2pgsql(tool: String, file: String, schema: String, progress: (String) -> Void) throws -> Int {
        // Unique per call: two imports into two databases may stage under the same schema
        // name in one process at once (the tests do), and each removes its own file.
        let style = FileManager.default.temporaryDirectory.appendingPathComponent("transit-walkable-\(getpid())-\(schema)-\(UUID().uuidString).lua")
        try Self.walkableStyle.write(to: style, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: style) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = ["--create", "--slim", "--output=flex", "--style=\(style.path)", "-d", db.conninfo,
                             "--middle-schema=\(schema)", "--prefix=osm", "--cache=200", "--log-progress=true", file]
        var env = ProcessInfo.processInfo.environment
        env["TRANSIT_STREETS_SCHEMA"] = schema
        process.environment = env
        let errPipe = Pipe()
        process.standardError = errPipe
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        var errors: [String] = []
        var pending = Data()
        let handle = errPipe.fileHandleForReading
        func line(_ raw: Substring) {
            // "2026-11-25 08:45:36  Processing: Node(10k 10.0k/s) …": the part after the timestamp.
            var text = raw.trimmingCharacters(in: .whitespaces)
            if let r = text.range(of: #"^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\s+"#, options: .regularExpression) { text.removeSubrange(r) }
            if text.hasPrefix("ERROR:") { errors.append(String(text.dropFirst(6)).trimmingCharacters(in: .whitespaces)) }
            else if text.hasPrefix("Processing:") || text.hasPrefix("Reading input") || text.hasPrefix("Done postprocessing") || text.contains(" took ") {
                progress("osm2pgsql: " + text)
            }
        }
        while true {
            let chunk = handle.availableData
            if chunk.isEmpty { break }
            pending.append(chunk)
            var text = String(decoding: pending, as: UTF8.self)
            if let last = text.lastIndex(where: { $0 == "\n" || $0 == "\r" }) {
                let done = text[..<last]
                for l in done.split(whereSeparator: { $0 == "\n" || $0 == "\r" }) { line(l) }
                text = String(text[text.index(after: last)...])
                pending = Data(text.utf8)
            }
        }
        if !pending.isEmpty { line(Substring(String(decoding: pending, as: UTF8.self))) }
        process.waitUntilExit()
        var usage = rusage()
        getrusage(RUSAGE_CHILDREN.rawValue, &usage)
        let peak = Int(usage.ru_maxrss) * 1024
        guard process.terminationStatus == 0 && errors.isEmpty else {
            let reason = errors.last ?? "it stopped with status \(process.terminationStatus)"
            let lower = reason.lowercased()
            if ["pbf", "protobuf", "eof", "zlib", "osmium", "blob", "xml", "opl", "format"].contains(where: { lower.contains($0) }) {
                throw StreetImportError("the file is not a complete OpenStreetMap PBF extract: \(reason) (osm2pgsql, reading \(file)); nothing was changed")
            }
            throw StreetImportError("osm2pgsql failed: \(reason); nothing was changed")
        }
        return peak
    }

    /// Peak resident memory of this process in bytes (VmHWM), 0 when unknown.
    static func peakMemory() -> Int {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }) else { return 0 }
        return (Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0) * 1024
    }

    static func boxText(_ b: [Double]) -> String {
        String(format: "longitude %.4f to %.4f, latitude %.4f to %.4f", b[0], b[2], b[1], b[3])
    }

    // MARK: Reading the staging tables

    private func readStage(_ s: String) throws -> Extract {
        var x = Extract()
        x.waysRead = Int(try db.scalar("SELECT count(*) FROM \(s).osm_ways") ?? "0") ?? 0
        try db.copyOut("COPY (SELECT way_id, nodes, highway, name, wheelchair, surface, incline, footway FROM \(s).walk_ways ORDER BY way_id) TO STDOUT") { row in
            let f = CopyFields(row)
            x.ways.append(Extract.Way(id: f.int(0), nodes: f.ints(1), highway: f.text(2) ?? "", name: f.text(3),
                                      wheelchair: f.text(4), surface: f.text(5), incline: f.text(6), footway: f.text(7)))
        }
        // Areas: a closed way's nodes, or the member ways' node lists of a multipolygon (-relation id).
        var areaIndex: [Int64: Int] = [:]
        try db.copyOut("""
            COPY (SELECT CASE osm_type WHEN 'R' THEN -osm_id ELSE osm_id END, nodes, name, wheelchair, surface, geom IS NOT NULL
                  FROM \(s).walk_areas ORDER BY 1) TO STDOUT
            """) { row in
            let f = CopyFields(row)
            let id = f.int(0)
            areaIndex[id] = x.areas.count
            x.areas.append(Extract.Area(id: id, outlines: id > 0 ? [f.ints(1)] : [], name: f.text(2), wheelchair: f.text(3),
                                        surface: f.text(4), hasPolygon: f.text(5) == "t"))
        }
        try db.copyOut("""
            COPY (SELECT -a.osm_id, w.nodes FROM \(s).walk_areas a CROSS JOIN LATERAL unnest(a.member_ways) WITH ORDINALITY m(id, i)
                  JOIN \(s).osm_ways w ON w.id = m.id WHERE a.osm_type = 'R' ORDER BY a.osm_id, m.i) TO STDOUT
            """) { row in
            let f = CopyFields(row)
            if let i = areaIndex[f.int(0)] { x.areas[i].outlines.append(f.ints(1)) }
        }
        try db.copyOut("""
            COPY (SELECT n.id, n.lat, n.lon FROM \(s).osm_nodes n WHERE n.id IN (
                SELECT unnest(nodes) FROM \(s).walk_ways UNION SELECT unnest(nodes) FROM \(s).walk_areas
                UNION SELECT unnest(w.nodes) FROM \(s).walk_areas a JOIN \(s).osm_ways w ON w.id = ANY (a.member_ways))) TO STDOUT
            """) { row in
            let f = CopyFields(row)
            x.nodeIndex[f.int(0)] = Int32(x.nodeId.count)
            x.nodeId.append(f.int(0))
            x.nodeLat.append(Double(f.int(1)) / 1e7)
            x.nodeLon.append(Double(f.int(2)) / 1e7)
        }
        if let b = try db.query("SELECT min(lon), min(lat), max(lon), max(lat) FROM \(s).osm_nodes").first, b[0] != nil {
            x.bbox = b.map { (Double($0 ?? "0") ?? 0) / 1e7 }
        }
        return x
    }

    /// Stops of loaded feeds inside `bbox`, and each loaded feed's stop box (empty: no feed loaded).
    private func stopsInside(_ b: [Double]) throws -> (Int, [(String, [Double])]) {
        guard try db.scalar("SELECT to_regclass('gtfs.stops') IS NOT NULL") == "t" else { return (0, []) }
        let inside = Int(try db.scalar("""
            SELECT count(*) FROM gtfs.stops WHERE stop_lon BETWEEN $1 AND $3 AND stop_lat BETWEEN $2 AND $4
            """, b.map { String($0) }) ?? "0") ?? 0
        let feeds = try db.query("""
            SELECT feed_id, min(stop_lon), min(stop_lat), max(stop_lon), max(stop_lat) FROM gtfs.stops
            WHERE stop_lat IS NOT NULL GROUP BY feed_id ORDER BY feed_id
            """).map { r in (r[0] ?? "", r[1...].map { Double($0 ?? "0") ?? 0 }) }
        return (inside, feeds)
    }

    /// Stops inside `bbox` within 100 m of an edge of `table` (the degree test narrows, the geography one decides).
    private func stopsCovered(table: String, bbox b: [Double]) throws -> Int {
        guard try db.scalar("SELECT to_regclass('gtfs.stops') IS NOT NULL") == "t" else { return 0 }
        return Int(try db.scalar("""
            SELECT count(*) FROM gtfs.stops s WHERE s.stop_lon BETWEEN $1 AND $3 AND s.stop_lat BETWEEN $2 AND $4
              AND EXISTS (SELECT 1 FROM \(table) e, LATERAL (SELECT ST_SetSRID(ST_MakePoint(s.stop_lon, s.stop_lat), 4326) AS p) q
                          WHERE ST_DWithin(e.geom, q.p, 0.002) AND ST_DWithin(e.geom::geography, q.p::geography, 100))
            """, b.map { String($0) }) ?? "0") ?? 0
    }

    /// The pairs of entrances of each area joined by a straight line that lies inside it:
    /// decided by PostGIS (`ST_Covers`, holes excluded) in one statement.
    private func crossingPairs(_ s: String, _ entrances: [(area: Int64, node: Int64, lat: Double, lon: Double)]) throws -> [(Int64, Int64, Int64)] {
        guard !entrances.isEmpty else { return [] }
        try db.execute("CREATE TABLE \(s).entrances (area bigint, node bigint, lat float8, lon float8)")
        try db.beginCopy("COPY \(s).entrances FROM STDIN")
        var text = ""
        for e in entrances { text += "\(e.area)\t\(e.node)\t\(e.lat)\t\(e.lon)\n" }
        try Array(text.utf8).withUnsafeBytes { try db.putCopyData($0) }
        try db.endCopy()
        var pairs: [(Int64, Int64, Int64)] = []
        try db.copyOut("""
            COPY (SELECT a.area, a.node, b.node FROM \(s).entrances a
                  JOIN \(s).entrances b ON b.area = a.area AND b.node > a.node
                  JOIN \(s).walk_areas w ON w.osm_id = abs(a.area) AND w.osm_type = CASE WHEN a.area < 0 THEN 'R' ELSE 'W' END
                  WHERE ST_Covers(w.geom, ST_MakeLine(ST_SetSRID(ST_MakePoint(a.lon, a.lat), 4326), ST_SetSRID(ST_MakePoint(b.lon, b.lat), 4326)))
                  ORDER BY 1, 2, 3) TO STDOUT
            """) { row in
            let f = CopyFields(row)
            pairs.append((f.int(0), f.int(1), f.int(2)))
        }
        return pairs
    }
}

/// The staging tables as read: kept ways, areas, and the nodes they use that the extract holds.
struct Extract {
    struct Way {
        var id: Int64; var nodes: [Int64]; var highway: String; var name: String?
        var wheelchair: String?; var surface: String?; var incline: String?; var footway: String?
    }
    struct Area {
        var id: Int64; var outlines: [[Int64]]; var name: String?; var wheelchair: String?; var surface: String?; var hasPolygon: Bool
    }
    var waysRead = 0
    var ways: [Way] = []
    var areas: [Area] = []
    var nodeIndex: [Int64: Int32] = [:]
    var nodeId: [Int64] = []
    var nodeLat: [Double] = []
    var nodeLon: [Double] = []
    var bbox: [Double] = [0, 0, 0, 0]
}

/// One row of `COPY … TO STDOUT` text: tab-separated fields (`\N` is NULL).
struct CopyFields {
    private var fields: [ArraySlice<UInt8>] = []
    init(_ row: UnsafeBufferPointer<UInt8>) {
        var bytes = Array(row)
        if bytes.last == UInt8(ascii: "\n") { bytes.removeLast() }
        fields = bytes.split(separator: UInt8(ascii: "\t"), omittingEmptySubsequences: false)
    }
    func text(_ i: Int) -> String? {
        let f = fields[i]
        if f.count == 2 && f.first == UInt8(ascii: "\\") && f.last == UInt8(ascii: "N") { return nil }
        guard f.contains(UInt8(ascii: "\\")) else { return String(decoding: f, as: UTF8.self) }
        var out: [UInt8] = []
        var escaped = false
        for c in f {
            if escaped {
                switch c {
                case UInt8(ascii: "t"): out.append(9)
                case UInt8(ascii: "n"): out.append(10)
                case UInt8(ascii: "r"): out.append(13)
                default: out.append(c)
                }
                escaped = false
            } else if c == UInt8(ascii: "\\") { escaped = true } else { out.append(c) }
        }
        return String(decoding: out, as: UTF8.self)
    }
    func int(_ i: Int) -> Int64 {
        var v: Int64 = 0, neg = false
        for c in fields[i] { if c == UInt8(ascii: "-") { neg = true } else if c >= 48 && c <= 57 { v = v * 10 + Int64(c - 48) } }
        return neg ? -v : v
    }
    /// An `int8[]` field (`{1,2,3}`).
    func ints(_ i: Int) -> [Int64] {
        var out: [Int64] = []
        var v: Int64 = 0, neg = false, any = false
        for c in fields[i] {
            if c >= 48 && c <= 57 { v = v * 10 + Int64(c - 48); any = true } else if c == UInt8(ascii: "-") { neg = true } else if any || c == UInt8(ascii: ",") {
                if any { out.append(neg ? -v : v) }
                v = 0; neg = false; any = false
            }
        }
        if any { out.append(neg ? -v : v) }
        return out
    }
}

/// Splits the kept ways and area outlines into edges, as the routing model says.
struct EdgeBuilder {
    let x: Extract
    var waysCut = 0
    var missingNodes = 0
    /// Pieces of ways after cutting at missing nodes: node indexes, and who they belong to.
    private var runs: [(nodes: [Int32], owner: Int)] = []
    /// Owners: ways first (index into x.ways), then area outlines (x.ways.count + area index).
    private var wayCountAt: [Int32] = []
    private var useCount: [Int32] = []

    var edgeSource: [Int64] = [], edgeTarget: [Int64] = [], edgeLength: [Double] = []
    var edgeWay: [Int64] = [], edgeOwner: [Int] = [], edgeKind: [StreetKind] = [], edgeFlags: [StreetFlags] = []
    var pointOffsets: [Int] = [0]
    var points: [Int32] = []
    var crossingCount = 0

    init(_ extract: Extract) { x = extract }

    var edgeCount: Int { edgeSource.count }
    var nodeCount: Int { Set(edgeSource).union(edgeTarget).count }
    var edgesByKind: [String: Int] {
        var out: [String: Int] = [:]
        for k in edgeKind { out["\(k)", default: 0] += 1 }
        return out
    }

    mutating func buildWays() {
        var missing = Set<Int64>()
        wayCountAt = Array(repeating: 0, count: x.nodeId.count)
        useCount = Array(repeating: 0, count: x.nodeId.count)
        func cut(_ nodes: [Int64], owner: Int) -> Bool {
            var run: [Int32] = []
            var cutHere = false
            func flush() { if run.count >= 2 { runs.append((run, owner)) }; run = [] }
            for id in nodes {
                guard let i = x.nodeIndex[id] else { missing.insert(id); cutHere = true; flush(); continue }
                if run.last != i { run.append(i) }
            }
            flush()
            return cutHere
        }
        for (w, way) in x.ways.enumerated() where cut(way.nodes, owner: w) { waysCut += 1 }
        for (a, area) in x.areas.enumerated() { for outline in area.outlines where cut(outline, owner: x.ways.count + a) { waysCut += 1 } }
        missingNodes = missing.count
        for r in runs {
            let closed = r.nodes.count > 2 && r.nodes.first == r.nodes.last
            for i in r.nodes.indices where !(closed && i == r.nodes.count - 1) {
                useCount[Int(r.nodes[i])] += 1
                if r.owner < x.ways.count { wayCountAt[Int(r.nodes[i])] += 1 }
            }
        }
        for r in runs {
            var start = 0
            for i in 1..<r.nodes.count where i == r.nodes.count - 1 || useCount[Int(r.nodes[i])] >= 2 {
                let piece = Array(r.nodes[start...i])
                if piece.first == piece.last && piece.count >= 3 {
                    // A loop with no other junction: two edges, so that source and target differ.
                    let mid = piece.count / 2
                    addEdge(Array(piece[...mid]), owner: r.owner)
                    addEdge(Array(piece[mid...]), owner: r.owner)
                } else if piece.first != piece.last {
                    addEdge(piece, owner: r.owner)
                }
                start = i
            }
        }
    }

    private mutating func addEdge(_ nodes: [Int32], owner: Int, crossing: Bool = false) {
        var length = 0.0
        for i in 1..<nodes.count {
            let a = Int(nodes[i - 1]), b = Int(nodes[i])
            length += Geodesic.distance(Coordinate(latitude: x.nodeLat[a], longitude: x.nodeLon[a]),
                                        Coordinate(latitude: x.nodeLat[b], longitude: x.nodeLon[b]))
        }
        var kind: StreetKind, flags: StreetFlags = [], wayId: Int64
        if owner < x.ways.count {
            let w = x.ways[owner]
            wayId = w.id
            kind = Self.kind(highway: w.highway, footway: w.footway)
            if kind == .steps { flags.insert(.steps) }
            if w.wheelchair == "no" { flags.insert(.noWheelchair) }
            if Self.isRough(surface: w.surface, incline: w.incline) { flags.insert(.rough) }
        } else {
            let a = x.areas[owner - x.ways.count]
            wayId = a.id
            kind = .area
            if crossing { flags.insert(.acrossArea) }
            if a.wheelchair == "no" { flags.insert(.noWheelchair) }
            if Self.isRough(surface: a.surface, incline: nil) { flags.insert(.rough) }
        }
        edgeSource.append(x.nodeId[Int(nodes.first!)])
        edgeTarget.append(x.nodeId[Int(nodes.last!)])
        edgeLength.append(length)
        edgeWay.append(wayId)
        edgeOwner.append(owner)
        edgeKind.append(kind)
        edgeFlags.append(flags)
        points.append(contentsOf: nodes)
        pointOffsets.append(points.count)
    }

    static func kind(highway: String, footway: String?) -> StreetKind {
        if footway == "crossing" || highway == "crossing" { return .crossing }
        switch highway {
        case "steps": return .steps
        case "pedestrian": return .pedestrian
        case "service", "track": return .service
        case "footway", "path", "cycleway", "bridleway", "corridor", "platform": return .footway
        default: return .road
        }
    }

    static let roughSurfaces: Set<String> = ["gravel", "fine_gravel", "sand", "dirt", "grass", "mud", "ground", "unpaved",
                                             "earth", "pebblestone", "rock", "woodchips", "grass_paver", "compacted"]

    static func isRough(surface: String?, incline: String?) -> Bool {
        if let surface, roughSurfaces.contains(surface) { return true }
        guard let incline else { return false }
        if incline == "up" || incline == "down" { return true }
        if incline.hasSuffix("%"), let v = Double(incline.dropLast().trimmingCharacters(in: .whitespaces)) { return abs(v) > 6 }
        if incline.hasSuffix("°"), let v = Double(incline.dropLast().trimmingCharacters(in: .whitespaces)) { return abs(v) > 3.43 }
        return false
    }

    /// Each area's entrances (outline nodes on a kept way), at most 64: most kept ways first, then by node id.
    func entrances() -> [(area: Int64, node: Int64, lat: Double, lon: Double)] {
        var out: [(area: Int64, node: Int64, lat: Double, lon: Double)] = []
        for area in x.areas where area.hasPolygon {
            var seen = Set<Int32>()
            for outline in area.outlines { for id in outline { if let i = x.nodeIndex[id], wayCountAt[Int(i)] > 0 { seen.insert(i) } } }
            let ranked = seen.sorted { (wayCountAt[Int($0)], x.nodeId[Int($1)]) > (wayCountAt[Int($1)], x.nodeId[Int($0)]) }.prefix(64)
            for i in ranked { out.append((area.id, x.nodeId[Int(i)], x.nodeLat[Int(i)], x.nodeLon[Int(i)])) }
        }
        return out
    }

    /// Adds the straight edges across areas (pairs from PostGIS: area id, node, node).
    mutating func addCrossings(_ pairs: [(Int64, Int64, Int64)]) throws {
        var areaIndex: [Int64: Int] = [:]
        for (i, a) in x.areas.enumerated() { areaIndex[a.id] = i }
        for (area, a, b) in pairs {
            guard let ai = areaIndex[area], let na = x.nodeIndex[a], let nb = x.nodeIndex[b] else { continue }
            addEdge([na, nb], owner: x.ways.count + ai, crossing: true)
            crossingCount += 1
        }
    }

    /// Sends every edge as COPY text rows (geometry as hex EWKB).
    func writeCopy(to db: PGConnection) throws {
        var buf: [UInt8] = []
        buf.reserveCapacity(1 << 20)
        let hex = Array("0123456789ABCDEF".utf8)
        func put(_ s: String) { buf.append(contentsOf: s.utf8) }
        func putText(_ s: String?) {
            guard let s else { put("\\N"); return }
            for c in s.utf8 {
                switch c {
                case 92: put("\\\\")
                case 9: put("\\t")
                case 10: put("\\n")
                case 13: put("\\r")
                default: buf.append(c)
                }
            }
        }
        func putHex<T>(_ v: T) {
            withUnsafeBytes(of: v) { for b in $0 { buf.append(hex[Int(b >> 4)]); buf.append(hex[Int(b & 15)]) } }
        }
        for e in 0..<edgeCount {
            let owner = edgeOwner[e]
            let name: String?, highway: String
            if owner < x.ways.count { name = x.ways[owner].name; highway = x.ways[owner].highway }
            else { name = x.areas[owner - x.ways.count].name; highway = "pedestrian" }
            let cost = edgeKind[e] == .steps ? edgeLength[e] * 2 : edgeLength[e]
            put("\(e + 1)\t\(edgeSource[e])\t\(edgeTarget[e])\t\(edgeLength[e])\t\(cost)\t\(edgeWay[e])\t")
            putText(name); put("\t"); putText(highway)
            put("\t\(edgeKind[e].rawValue)\t\(edgeFlags[e].rawValue)\t")
            // EWKB, little-endian: LineString with SRID 4326.
            putHex(UInt8(1)); putHex(UInt32(0x2000_0002).littleEndian); putHex(UInt32(4326).littleEndian)
            putHex(UInt32(pointOffsets[e + 1] - pointOffsets[e]).littleEndian)
            for p in pointOffsets[e]..<pointOffsets[e + 1] {
                let i = Int(points[p])
                putHex(x.nodeLon[i].bitPattern.littleEndian); putHex(x.nodeLat[i].bitPattern.littleEndian)
            }
            put("\n")
            if buf.count > 1 << 20 { try buf.withUnsafeBytes { try db.putCopyData($0) }; buf.removeAll(keepingCapacity: true) }
        }
        try buf.withUnsafeBytes { try db.putCopyData($0) }
    }
}

extension StreetImporter {
    /// The osm2pgsql flex style: the walkable ways and pedestrian areas of the routing
    /// model ("Streets"), into the schema named by `TRANSIT_STREETS_SCHEMA`.
    static let walkableStyle = #"""
    local schema = os.getenv('TRANSIT_STREETS_SCHEMA') or 'public'

    local ways = osm2pgsql.define_table{
        name = 'walk_ways', schema = schema,
        ids = { type = 'way', id_column = 'way_id' },
        columns = {
            { column = 'nodes', sql_type = 'int8[]' },
            { column = 'highway', type = 'text' },
            { column = 'name', type = 'text' },
            { column = 'foot', type = 'text' },
            { column = 'access', type = 'text' },
            { column = 'wheelchair', type = 'text' },
            { column = 'surface', type = 'text' },
            { column = 'incline', type = 'text' },
            { column = 'footway', type = 'text' },
            { column = 'area', type = 'text' },
        }
    }

    -- A closed way (its nodes) or a multipolygon relation (its member ways, whose node
    -- lists are in the middle table).
    local areas = osm2pgsql.define_table{
        name = 'walk_areas', schema = schema,
        ids = { type = 'any', type_column = 'osm_type', id_column = 'osm_id' },
        columns = {
            { column = 'nodes', sql_type = 'int8[]' },
            { column = 'member_ways', sql_type = 'int8[]' },
            { column = 'name', type = 'text' },
            { column = 'wheelchair', type = 'text' },
            { column = 'surface', type = 'text' },
            { column = 'geom', type = 'multipolygon', projection = 4326 },
        }
    }

    local roads = {
        footway = true, path = true, pedestrian = true, steps = true, living_street = true,
        residential = true, service = true, track = true, unclassified = true, road = true,
        tertiary = true, tertiary_link = true, secondary = true, secondary_link = true,
        primary = true, primary_link = true, cycleway = true, bridleway = true,
        corridor = true, platform = true,
    }
    local footYes = { yes = true, designated = true, permissive = true }

    local function array(list)
        return '{' .. table.concat(list, ',') .. '}'
    end

    local function allowed(tags)
        if tags.foot == 'no' then return false end
        if (tags.access == 'no' or tags.access == 'private') and not footYes[tags.foot] then return false end
        return true
    end

    local function walkable(tags)
        local h = tags.highway
        if not h or not allowed(tags) then return false end
        if h == 'trunk' or h == 'trunk_link' then return footYes[tags.foot] == true end
        return roads[h] == true
    end

    function osm2pgsql.process_way(object)
        local t = object.tags
        if t.area == 'yes' then
            if object.is_closed and t.highway == 'pedestrian' and allowed(t) then
                areas:insert{
                    nodes = array(object.nodes), name = t.name, wheelchair = t.wheelchair, surface = t.surface,
                    geom = object:as_multipolygon(),
                }
            end
            return  -- another area (a car park, a platform's surface): not a line to walk
        end
        if not walkable(t) then return end
        ways:insert{
            nodes = array(object.nodes), highway = t.highway, name = t.name, foot = t.foot,
            access = t.access, wheelchair = t.wheelchair, surface = t.surface,
            incline = t.incline, footway = t.footway, area = t.area,
        }
    end

    function osm2pgsql.process_relation(object)
        local t = object.tags
        if t.type ~= 'multipolygon' or t.highway ~= 'pedestrian' or not allowed(t) then return end
        local members = {}
        for _, m in ipairs(object.members) do
            if m.type == 'w' then members[#members + 1] = m.ref end
        end
        areas:insert{
            member_ways = array(members), name = t.name, wheelchair = t.wheelchair, surface = t.surface,
            geom = object:as_multipolygon(),
        }
    end
    """#
}
