import Foundation
import Testing
import TransitStore
import TransitTesting

private let haveMilan = (try? StreetFixtures.sharedExtract("milan-small.osm.pbf")) != nil
    && (try? FeedFixtures.sharedFeed("milan-atm-2014")) != nil

/// Streets imported while a server runs reach it as feed versions do: through NOTIFY, a
/// rebuild beside the served timetable (the streets read and their graph built beside the
/// feeds, `NetworkSources`), and a swap.
@Suite("HTTP API: streets reach a running server", .serialized,
       .enabled(if: haveMilan, "the Milan feed and extract of the shared data are not here (set TRANSIT_SHARED_DATA)"))
struct StreetReloadTests {
    /// Across Piazza del Duomo to Castello Sforzesco (the golden text's first trip).
    static let planPath = "/v1/plan?from=45.46420,9.19040&to=45.46990,9.17990&time=2014-10-28T10:00:00"

    static func walkModels(_ plan: [String: Any]?) -> Set<String> {
        let itineraries = plan?["itineraries"] as? [[String: Any]] ?? []
        return Set(itineraries.flatMap { ($0["legs"] as? [[String: Any]] ?? []).compactMap { $0["walkModel"] as? String } })
    }

    @Test("an import-osm while a server answers: it walks along the streets after, and /v1/health lists their version")
    func streetsArrive() throws {
        let db = try TestDatabase()
        defer { db.drop() }
        let conn = try db.connect()
        _ = try FeedImporter(db: conn).importFeed(at: FeedFixtures.sharedFeed("milan-atm-2014"), feedId: "milan-atm-2014")
        let server = try ServerProcess(databaseURL: db.url)
        let v = try validator(server)
        try server.waitUntil("milan served", timeout: 300) { h in (h["feeds"] as? [[String: Any]])?.first?["version"] as? Int == 1 }
        let before = try server.request("/v1/health")
        #expect((before.json?["streets"] as? [Any])?.isEmpty == true)
        expectConforms(v, "/v1/health", before)
        let beeline = try server.request(Self.planPath)
        #expect(beeline.status == 200)
        #expect(Self.walkModels(beeline.json) == ["beeline"], "\(beeline.text.prefix(400))")

        _ = try StreetImporter(db: conn).importOSM(file: StreetFixtures.sharedExtract("milan-small.osm.pbf"), region: "milan", progress: { _ in })
        try server.waitUntil("streets served", timeout: 300) { h in
            (h["streets"] as? [[String: Any]])?.contains { $0["region"] as? String == "milan" && $0["version"] as? Int == 1 } == true
        }
        let after = try server.request("/v1/health")
        expectConforms(v, "/v1/health", after)
        #expect(((after.json?["timetable"] as? [String: Any])?["streetEdges"] as? Int ?? 0) > 80_000)
        let streets = try server.request(Self.planPath)
        #expect(streets.status == 200)
        expectConforms(v, "/v1/plan", streets)
        #expect(Self.walkModels(streets.json).contains("streets"), "\(streets.text.prefix(400))")
        // The walk-only answer crosses the square on named streets.
        let steps = (streets.json?["itineraries"] as? [[String: Any]] ?? []).flatMap { ($0["legs"] as? [[String: Any]] ?? []).flatMap { $0["walkSteps"] as? [[String: Any]] ?? [] } }
        #expect(steps.contains { ($0["street"] as? String)?.isEmpty == false })

        let end = server.stop()
        #expect(end.stderr.contains("streets changed: milan 1"), "heard through NOTIFY: \(end.stderr.suffix(800))")
        #expect(end.stderr.contains("streets milan v1"), "\(end.stderr.suffix(800))")
    }
}
