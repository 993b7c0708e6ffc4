import Foundation
import Streets
import Testing
import TransitStore
import TransitTesting

/// The OpenStreetMap extracts of the shared data, or nil when the shared data is not here.
private func extract(_ name: String) -> URL? {
    guard let dir = try? FeedFixtures.sharedDataDirectory() else { return nil }
    let url = dir.appendingPathComponent("osm/\(name).osm.pbf")
    return FileManager.default.fileExists(atPath: url.path) ? url : nil
}

private let haveExtracts = extract("milan-small") != nil && extract("porto-alegre") != nil

private func count(_ db: PGConnection, _ sql: String, _ params: [String?] = []) throws -> Int {
    Int(try db.scalar(sql, params) ?? "-1") ?? -1
}

private func stagingSchemas(_ db: PGConnection) throws -> Int {
    try count(db, "SELECT count(*) FROM pg_namespace WHERE nspname LIKE 'streets\\_stage\\_%'")
}

private func currentTable(_ db: PGConnection, _ region: String) throws -> String? {
    try db.scalar("SELECT table_name FROM streets.versions WHERE region = $1", [region])
}

/// Imports that must fail: the error's message.
private func failure(_ body: () throws -> StreetImportSummary) -> String? {
    do { _ = try body(); return nil } catch { return "\(error)" }
}

@Suite("transit import-osm: OpenStreetMap streets in PostgreSQL", .serialized,
       .enabled(if: haveExtracts, "the OpenStreetMap extracts of the shared data are not here (set TRANSIT_SHARED_DATA)"))
struct StreetImportTests {
    @Test("both extracts load: the edges, their geometry and lengths, the areas crossed, nothing unwalkable; StreetStore reads them")
    func importsBothExtracts() throws {
        try withTestDatabase { _, db in
            let milan = try StreetImporter(db: db).importOSM(file: extract("milan-small")!)
            let porto = try StreetImporter(db: db).importOSM(file: extract("porto-alegre")!)
            for s in [milan, porto] {
                print("\(s.region): \(s.waysRead) ways read, \(s.waysKept) kept, \(s.waysCut) cut at \(s.missingNodes) missing nodes, "
                      + "\(s.edges) edges, \(s.nodes) nodes, \(s.areas) areas, \(s.crossingEdges) crossings, \(s.edgesByKind), "
                      + String(format: "%.2f s (osm2pgsql %.2f s), peak %d MB, osm2pgsql %d MB", s.seconds, s.osm2pgsqlSeconds,
                               s.peakMemoryBytes >> 20, s.osm2pgsqlPeakMemoryBytes >> 20))
                #expect(s.version == 1)
                #expect(s.waysRead > s.waysKept && s.waysKept > 1000)
                #expect(try count(db, "SELECT count(*) FROM \(s.table)") == s.edges)
                #expect(s.edgesByKind.values.reduce(0, +) == s.edges)
                #expect(try count(db, "SELECT count(DISTINCT n) FROM (SELECT source n FROM \(s.table) UNION ALL SELECT target FROM \(s.table)) u") == s.nodes)
                // Geometry ends at the end nodes, the length is the geodesic length, steps cost double.
                #expect(try count(db, "SELECT count(*) FROM \(s.table) WHERE ST_NPoints(geom) < 2 OR source = target") == 0)
                #expect(try count(db, "SELECT count(*) FROM \(s.table) WHERE abs(length_m - ST_Length(geom::geography)) > 0.01 * length_m + 0.01") == 0)
                #expect(try count(db, "SELECT count(*) FROM \(s.table) WHERE cost <> (CASE WHEN kind = 4 THEN 2 ELSE 1 END) * length_m") == 0)
                // Whatever the model leaves out never becomes an edge.
                #expect(try count(db, "SELECT count(*) FROM \(s.table) WHERE highway IN ('motorway', 'motorway_link', 'construction', 'proposed')") == 0)
                #expect(try stagingSchemas(db) == 0)
            }
            #expect(milan.waysRead == 69043)
            // Ways the extract tags motorway (4059164) or foot=no (4013165, a primary road).
            #expect(try count(db, "SELECT count(*) FROM \(milan.table) WHERE way_id IN (4059164, 4013165)") == 0)
            // Piazza del Duomo (relation 3856622) is crossed by straight lines between its entrances.
            let duomo = try count(db, "SELECT count(*) FROM \(milan.table) WHERE way_id = -3856622 AND kind = 6 AND flags & 4 = 4 AND ST_NPoints(geom) = 2")
            print("Piazza del Duomo: \(duomo) crossing edges")
            #expect(duomo > 0)
            #expect(try count(db, "SELECT count(*) FROM \(milan.table) WHERE way_id = -3856622 AND flags & 4 = 0") > 0, "its outline is walkable too")
            #expect(milan.crossingEdges == (try count(db, "SELECT count(*) FROM \(milan.table) WHERE flags & 4 = 4")))

            // StreetStore: one StreetTables of both regions, nodes merged by OSM id.
            let store = StreetStore(db: db)
            #expect(try store.versions() == ["milan-small": 1, "porto-alegre": 1])
            let clock = ContinuousClock()
            var tables: StreetTables?
            let took = try clock.measure { tables = try store.load() }
            let t = try #require(tables)
            print("StreetStore.load: \(t.edgeCount) edges, \(t.nodeCount) nodes, \(t.innerLatitude.count) inner points, \(t.names.count) names in \(took)")
            #expect(t.edgeCount == milan.edges + porto.edges)
            #expect(t.nodeCount == milan.nodes + porto.nodes)
            #expect(t.versions == ["milan-small": 1, "porto-alegre": 1])
            #expect(t.innerOffsets.count == t.edgeCount + 1 && Int(t.innerOffsets.last!) == t.innerLatitude.count)
            #expect(t.innerLatitude.count == (try count(db, "SELECT sum(ST_NPoints(geom) - 2) FROM (SELECT geom FROM \(milan.table) UNION ALL SELECT geom FROM \(porto.table)) u")))
            #expect(Set(t.nodeId).count == t.nodeCount)
            #expect(t.edgeName.allSatisfy { $0 >= -1 && $0 < t.names.count })
            // One edge checked field by field against its row.
            let row = try #require(try db.query("SELECT source, target, length_m, way_id, name, ST_Y(ST_StartPoint(geom)) FROM \(milan.table) WHERE name IS NOT NULL ORDER BY id LIMIT 1").first)
            let e = try #require(t.edgeSource.indices.first { t.nodeId[Int(t.edgeSource[$0])] == Int64(row[0]!)! && t.nodeId[Int(t.edgeTarget[$0])] == Int64(row[1]!)! && t.edgeWay[$0] == Int64(row[3]!)! })
            #expect(t.names[Int(t.edgeName[e])] == row[4]!)
            #expect(abs(Double(t.edgeLength[e]) - Double(row[2]!)!) < 0.01)
            #expect(abs(t.nodeLatitude[Int(t.edgeSource[e])] - Double(row[5]!)!) < 1e-9)
            #expect(try store.load(regions: ["porto-alegre"])?.edgeCount == porto.edges)
            // Edges in id order, nodes and names numbered as the edges name them: rows moved
            // on disk (an update writes new row versions at the end) give the same tables.
            try db.execute("UPDATE \(milan.table) SET name = name WHERE id % 3 = 0")
            #expect(try count(db, "SELECT count(*) FROM (SELECT id, lag(id) OVER () AS before FROM \(milan.table)) r WHERE id < before") > 0,
                    "the rows are out of id order on disk")
            #expect(try store.load() == t)
        }
    }

    @Test("a re-import is the next version, announced by NOTIFY; the old table goes")
    func reimportNotifies() throws {
        try withTestDatabase { testDB, db in
            let first = try StreetImporter(db: db).importOSM(file: extract("porto-alegre")!)
            let listener = try testDB.connect()
            try listener.execute("LISTEN \(FeedCatalog.changeChannel)")
            let second = try StreetImporter(db: db).importOSM(file: extract("porto-alegre")!)
            #expect(second.version == 2 && second.edges == first.edges && second.table != first.table)
            let heard = try listener.waitForNotifications(timeout: 10)
            #expect(heard.map(\.payload) == ["streets porto-alegre 2"])
            #expect(try db.scalar("SELECT to_regclass($1) IS NULL", [first.table]) == "t")
            #expect(try StreetStore(db: db).versions() == ["porto-alegre": 2])
            #expect(try stagingSchemas(db) == 0)
        }
    }

    @Test("a truncated extract fails plainly and the previous version stays current")
    func truncatedExtract() throws {
        try withTestDatabase { _, db in
            let first = try StreetImporter(db: db).importOSM(file: extract("porto-alegre")!)
            let dir = try FeedFixtures.makeTemporaryDirectory()
            defer { try? FileManager.default.removeItem(at: dir) }
            let cut = dir.appendingPathComponent("porto-alegre.osm.pbf")
            try Data(try Data(contentsOf: extract("porto-alegre")!).prefix(100_000)).write(to: cut)
            let message = failure { try StreetImporter(db: db).importOSM(file: cut) }
            #expect(message?.contains("the file is not a complete OpenStreetMap PBF extract") == true, "\(message ?? "it loaded")")
            #expect(try StreetStore(db: db).versions() == ["porto-alegre": 1])
            #expect(try currentTable(db, "porto-alegre") == first.table)
            #expect(try count(db, "SELECT count(*) FROM \(first.table)") == first.edges)
            #expect(try stagingSchemas(db) == 0)
            let missing = failure { try StreetImporter(db: db).importOSM(file: dir.appendingPathComponent("nowhere.osm.pbf")) }
            #expect(missing?.contains("there is no file") == true, "\(missing ?? "it loaded")")
        }
    }

    @Test("kill -9 of transit import-osm mid-load changes nothing current; the next load succeeds")
    func killedLoad() throws {
        _ = try TransitBinary.path()
        try withTestDatabase { testDB, db in
            let first = try StreetImporter(db: db).importOSM(file: extract("milan-small")!)
            let child = try TransitBinary.start(["import-osm", extract("milan-small")!.path], databaseURL: testDB.url)
            while child.isRunning && !child.stderrSoFar.contains("osm2pgsql:") { usleep(5_000) }
            try #require(child.isRunning, "the load ended before it could be killed: \(child.stderrSoFar.suffix(500))")
            child.kill(SIGKILL)
            let killed = child.wait(timeout: 30)
            #expect(killed.signaled && killed.status == SIGKILL)
            #expect(try StreetStore(db: db).versions() == ["milan-small": 1])
            #expect(try count(db, "SELECT count(*) FROM \(first.table)") == first.edges)
            let next = try StreetImporter(db: db).importOSM(file: extract("milan-small")!)
            #expect(next.version == 2 && next.edges == first.edges)
            #expect(try stagingSchemas(db) == 0, "the dead load's staging schema was dropped")
        }
    }

    @Test("an extract covering no stop of the loaded feeds is refused unless --any-area; stops covered are counted")
    func wrongArea() throws {
        try withTestDatabase { _, db in
            _ = try FeedImporter(db: db).importFeed(at: FeedFixtures.sharedFeed("milan-atm-2014"), feedId: "milan")
            let message = failure { try StreetImporter(db: db).importOSM(file: extract("porto-alegre")!) }
            #expect(message?.contains("covers no stop of the loaded feeds") == true && message?.contains("milan:") == true, "\(message ?? "it loaded")")
            #expect(try StreetStore(db: db).versions().isEmpty)
            let milan = try StreetImporter(db: db).importOSM(file: extract("milan-small")!)
            print("Milan: \(milan.stopsInBox) stops in the extract, \(milan.stopsCovered) within 100 m of a street")
            #expect(milan.stopsInBox == 516 && milan.stopsCovered > 500 && milan.stopsCovered <= 516)
            let anyway = try StreetImporter(db: db).importOSM(file: extract("porto-alegre")!, anyArea: true)
            #expect(anyway.version == 1 && anyway.stopsInBox == 0)
        }
    }

    @Test("ways cut at nodes missing from the extract keep their runs of present nodes")
    func cutWays() throws {
        guard let osmium = ProcessRunner.environment()["PATH"]?.split(separator: ":").map({ "\($0)/osmium" })
            .first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
            print("osmium is not installed: the cut-ways check is skipped")
            return
        }
        try withTestDatabase { _, db in
            let dir = try FeedFixtures.makeTemporaryDirectory()
            defer { try? FileManager.default.removeItem(at: dir) }
            // A bounding box cut of the "simple" strategy keeps only the nodes inside: ways crossing its edge lose nodes.
            let small = dir.appendingPathComponent("centre.osm.pbf")
            let run = try ProcessRunner.run(executable: osmium, ["extract", "-s", "simple", "-b", "-51.24,-30.05,-51.20,-30.02",
                                                                  extract("porto-alegre")!.path, "-o", small.path])
            try #require(run.status == 0, "\(run.stderr)")
            let s = try StreetImporter(db: db).importOSM(file: small)
            print("centre of Porto Alegre: \(s.waysCut) ways cut at \(s.missingNodes) missing nodes, \(s.edges) edges")
            #expect(s.waysCut > 0 && s.missingNodes > 0)
            #expect(try count(db, "SELECT count(*) FROM \(s.table) WHERE NOT ST_Covers(ST_MakeEnvelope(-51.24, -30.05, -51.20, -30.02, 4326), geom)") == 0)
        }
    }

    @Test("without osm2pgsql the CLI says how to install it and changes nothing")
    func noOsm2pgsql() throws {
        _ = try TransitBinary.path()
        try withTestDatabase { testDB, db in
            let run = try ProcessRunner.run(executable: TransitBinary.path(), ["import-osm", extract("porto-alegre")!.path],
                                            environment: ProcessRunner.environment(setting: ["DATABASE_URL": testDB.url, "PATH": "/nonexistent"]))
            #expect(run.status != 0)
            #expect(run.stderr.contains("install osm2pgsql: Scripts/setup.sh"), "\(run.stderr)")
            #expect(try StreetStore(db: db).versions().isEmpty)
        }
    }
}
