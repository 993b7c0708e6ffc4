import Foundation
import Geo
import Streets
import TransitStore

/// Streets for the tests: small `StreetTables` built in code, and the shared OpenStreetMap
/// extracts imported into a test database once per test process (the import takes a while).
public enum StreetFixtures {
    // MARK: Built in code

    /// One edge of `tables(nodes:edges:)`: end nodes by index, inner points, kind and flags.
    public struct Edge: Sendable {
        public var source: Int, target: Int
        public var inner: [Coordinate]
        public var kind: StreetKind
        public var flags: StreetFlags
        public var name: String?
        public init(_ source: Int, _ target: Int, inner: [Coordinate] = [], kind: StreetKind = .road,
                    flags: StreetFlags = [], name: String? = nil) {
            self.source = source; self.target = target; self.inner = inner; self.kind = kind; self.flags = flags; self.name = name
        }
    }

    /// Tables holding `nodes` (OpenStreetMap ids 1, 2, …) and `edges`, their lengths the sum
    /// of the geodesic distances along their points, as the importer computes them.
    public static func tables(nodes: [Coordinate], edges: [Edge], region: String = "test") -> StreetTables {
        var t = StreetTables()
        t.nodeId = nodes.indices.map { Int64($0 + 1) }
        t.nodeLatitude = nodes.map(\.latitude)
        t.nodeLongitude = nodes.map(\.longitude)
        var nameIndex: [String: Int32] = [:]
        for (i, e) in edges.enumerated() {
            t.edgeSource.append(Int32(e.source)); t.edgeTarget.append(Int32(e.target))
            let points = [nodes[e.source]] + e.inner + [nodes[e.target]]
            t.edgeLength.append(Float(zip(points, points.dropFirst()).reduce(0) { $0 + Geodesic.distance($1.0, $1.1) }))
            t.edgeWay.append(Int64(1000 + i))
            if let name = e.name {
                let n = nameIndex[name] ?? Int32(t.names.count)
                if nameIndex[name] == nil { nameIndex[name] = n; t.names.append(name) }
                t.edgeName.append(n)
            } else {
                t.edgeName.append(-1)
            }
            t.edgeKind.append(e.kind)
            t.edgeFlags.append(e.kind == .steps ? e.flags.union(.steps) : e.flags)
            t.innerLatitude += e.inner.map(\.latitude); t.innerLongitude += e.inner.map(\.longitude)
            t.innerOffsets.append(Int32(t.innerLatitude.count))
        }
        t.versions = [region: 1]
        return t
    }

    /// A square grid of `size` × `size` nodes `spacing` meters apart (north and east of
    /// `origin`), every neighbouring pair joined: `2 · size · (size − 1)` edges. Node
    /// `row * size + column`; edges east first, then north.
    public static func grid(origin: Coordinate, size: Int, spacing: Double) -> (nodes: [Coordinate], edges: [Edge]) {
        var nodes: [Coordinate] = []
        for r in 0..<size {
            let west = Geodesic.destination(from: origin, azimuthDegrees: 0, meters: Double(r) * spacing)
            for c in 0..<size { nodes.append(Geodesic.destination(from: west, azimuthDegrees: 90, meters: Double(c) * spacing)) }
        }
        var edges: [Edge] = []
        for r in 0..<size { for c in 0..<size - 1 { edges.append(Edge(r * size + c, r * size + c + 1)) } }
        for r in 0..<size - 1 { for c in 0..<size { edges.append(Edge(r * size + c, (r + 1) * size + c)) } }
        return (nodes, edges)
    }

    // MARK: The shared extracts

    /// An extract imported into this process's street database, with the GTFS feeds it pairs with.
    public struct Imported: @unchecked Sendable {
        /// The region id it was imported as (`milan`, `porto-alegre`).
        public let region: String
        public let tables: StreetTables
        /// The database holding it (kept for the whole test process).
        public let database: TestDatabase
        /// What the import said (its `table` holds the edges: `id, source, target, length_m, …`).
        public let summary: StreetImportSummary
        /// Seconds the OpenStreetMap import took.
        public let importSeconds: Double
    }

    /// The shared extracts and their feeds: region -> (osm file, feeds).
    public static let extracts: [String: (osm: String, feeds: [String])] = [
        "milan": ("milan-small.osm.pbf", ["milan-atm-2014"]),
        "porto-alegre": ("porto-alegre.osm.pbf", ["porto-alegre-eptc-2019", "porto-alegre-trensurb-2019"]),
    ]

    /// Path of a shared OpenStreetMap extract, e.g. `sharedExtract("milan-small.osm.pbf")`.
    public static func sharedExtract(_ file: String) throws -> URL {
        let url = try FeedFixtures.sharedDataDirectory().appendingPathComponent("osm").appendingPathComponent(file)
        guard FileManager.default.fileExists(atPath: url.path) else {
            throw TestSetupError("shared OpenStreetMap extract \(file) not found at \(url.path)")
        }
        return url
    }

    nonisolated(unsafe) private static var cache: [String: Result<Imported, Error>] = [:]
    private static let lock = NSLock()

    /// `region` ("milan" or "porto-alegre") imported once per test process: its feeds, then its
    /// extract (`StreetImporter`), read back with `StreetStore.load`. Later calls (and
    /// concurrent ones, which wait) get the same tables.
    public static func imported(_ region: String) throws -> Imported {
        lock.lock()
        defer { lock.unlock() }
        if let result = cache[region] { return try result.get() }
        let result = Result { try importRegion(region) }
        cache[region] = result
        return try result.get()
    }

    private static func importRegion(_ region: String) throws -> Imported {
        guard let extract = extracts[region] else { throw TestSetupError("no shared extract for region \(region)") }
        let database = try TestDatabase()
        let db = try database.connect()
        for feed in extract.feeds { _ = try FeedImporter(db: db).importFeed(at: FeedFixtures.sharedFeed(feed), feedId: feed) }
        let started = Date()
        let summary = try StreetImporter(db: db).importOSM(file: sharedExtract(extract.osm), region: region, progress: { _ in })
        let seconds = Date().timeIntervalSince(started)
        guard let tables = try StreetStore(db: db).load(regions: [region]) else {
            throw TestSetupError("the import of \(extract.osm) left no street version for region \(region)")
        }
        return Imported(region: region, tables: tables, database: database, summary: summary, importSeconds: seconds)
    }
}
