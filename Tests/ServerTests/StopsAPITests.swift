import Foundation
import GTFS
import Testing
import TransitModel
import TransitStore
import TransitTesting

/// `GET /v1/stops` over real feeds loaded from the database: no two rows of an answer
/// read the same, for every stop name of the feeds; a stop_code finds its stop (the code
/// read back from the database); the first row is the main place of what was typed, else the busiest.
@Suite("GET /v1/stops on real feeds", .serialized)
struct StopsAPITests {
    /// What a person reads of a row: everything but the id and the coordinates.
    static func reading(_ row: [String: Any]) -> String {
        let routes = (row["routes"] as? [[String: Any]] ?? []).map { ($0["shortName"] as? String) ?? ($0["id"] as? String ?? "") }
        return [row["feed"], row["name"], row["kind"], row["platformCode"], row["distinction"]].map { "\($0 ?? "")" }.joined(separator: " | ")
            + " | " + routes.joined(separator: ",")
    }

    static func encoded(_ s: String) -> String {
        s.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? s
    }

    @Test("no identical rows for any stop name; codes found; the main place, then the busiest, first")
    func rows() throws {
        let db = try TestDatabase()
        defer { db.drop() }
        let conn = try db.connect()
        let feeds = [("bydgoszcz-2020", "bydgoszcz"), ("sacramento-sacrt-2024", "sacrt")]
        for (file, id) in feeds { _ = try FeedImporter(db: conn).importFeed(at: FeedFixtures.sharedFeed(file), feedId: id) }
        let server = try ServerProcess(databaseURL: db.url)
        try server.waitUntil("both feeds served") { h in (h["feeds"] as? [Any])?.count == 2 }

        var queries = 0, distinguished = 0
        for (file, id) in feeds {
            let (snapshot, _) = try SnapshotSink.load(path: FeedFixtures.sharedFeed(file), feedId: id)
            for name in Set(snapshot.stops.map(\.name)).sorted() where !name.trimmingCharacters(in: .whitespaces).isEmpty {
                let r = try server.request("/v1/stops?limit=50&query=" + Self.encoded(name))
                #expect(r.status == 200, "\(name): \(r.text.prefix(200))")
                let rows = r.json?["stops"] as? [[String: Any]] ?? []
                let readings = rows.map(Self.reading)
                #expect(Set(readings).count == readings.count, "\(id): \(name): \(readings)")
                #expect(Set(rows.map { "\($0["feed"]!) \($0["id"]!)" }).count == rows.count, "\(id): \(name) lists a stop twice")
                queries += 1
                distinguished += rows.filter { $0["distinction"] != nil }.count
            }
            // Stop codes, as the database gives them back.
            var rng = SeededRandom(seed: 5)
            let coded = snapshot.stops.filter { $0.stopCode != nil && $0.locationType == 0 }
            for _ in 0..<(coded.isEmpty ? 0 : 40) {
                let stop = coded[Int.random(in: 0..<coded.count, using: &rng)]
                let r = try server.request("/v1/stops?limit=50&query=" + Self.encoded(stop.stopCode!))
                let rows = r.json?["stops"] as? [[String: Any]] ?? []
                // A stop with no service is not found at all; one with service by its code.
                if let row = rows.first(where: { $0["id"] as? String == stop.stopId }) {
                    #expect(row["score"] as? Double == 4 && row["foundBy"] != nil, "\(stop.stopCode!): \(row)")
                }
            }
        }
        #expect(queries > 3000 && distinguished > 500, "\(queries) queries, \(distinguished) rows told apart")

        // The main place first: Dworzec Główny's six poles lead "Dworzec" ("główny" says
        // main), though Dworzec Wschód's seven are busier; then Wschód's.
        let dworzec = try server.request("/v1/stops?query=Dworzec&limit=10").json?["stops"] as? [[String: Any]] ?? []
        #expect(dworzec.first?["name"] as? String == "Dworzec Główny", "\(dworzec.map(Self.reading))")
        let calls = dworzec.compactMap { $0["callsPerDay"] as? Int }
        #expect(calls.count == dworzec.count, "\(dworzec.map(Self.reading))")
        // A place's stops together, the busiest of them first.
        let glowny = zip(dworzec, calls).filter { $0.0["name"] as? String == "Dworzec Główny" }.map(\.1)
        #expect(glowny.count == 6 && glowny == glowny.sorted(by: >) && dworzec.prefix(6).allSatisfy { $0["name"] as? String == "Dworzec Główny" })
        let wschod = zip(dworzec, calls).filter { $0.0["name"] as? String == "Dworzec Wschód" }.map(\.1)
        #expect(wschod.count == 4 && wschod == wschod.sorted(by: >) && dworzec.dropFirst(6).allSatisfy { $0["name"] as? String == "Dworzec Wschód" })
        // Found by its code (sacramento's codes are its stop ids: "stop code" said first).
        let code = try server.request("/v1/stops?query=103").json?["stops"] as? [[String: Any]] ?? []
        #expect(code.first?["id"] as? String == "103" && code.first?["foundBy"] as? String == "stop code", "\(code.first ?? [:])")
        _ = server.stop()
    }
}
