import Foundation
import Testing
import TransitTesting

/// `transit plan --json` prints itineraries whose legs and map agree, straight from a
/// bundled feed file (no database).
@Suite("transit plan")
struct PlanCLITests {
    @Test("--json: legs, summary and a map with one line per leg, in order")
    func jsonItineraries() throws {
        let feed = try FeedFixtures.bundledFeed("bart-2018")
        let r = try TransitBinary.run(["plan", "37.8044,-122.2712", "37.7700,-122.4180", "--at", "2018-06-05T08:30:00",
                                       "--json", "--gtfs", feed], databaseURL: nil)
        #expect(r.status == 0, "stderr: \(r.stderr)")
        let answer = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        #expect(answer["error"] is NSNull)
        let journeys = try #require(answer["journeys"] as? [[String: Any]])
        let first = try #require(journeys.first)
        // Leaves the origin at 08:34 to walk 100 m to the 08:36 train (as the plain output says).
        #expect((first["departure"] as? String)?.hasPrefix("2018-06-05T08:34") == true, "\(first["departure"] ?? "")")
        #expect((first["arrival"] as? String)?.hasPrefix("2018-06-05T09:04") == true, "\(first["arrival"] ?? "")")
        let legs = try #require(first["legs"] as? [[String: Any]])
        #expect(legs.map { $0["mode"] as? String } == ["WALK", "SUBWAY", "WALK"])
        #expect((legs[1]["instruction"] as? String)?.hasPrefix("Take metro ") == true)
        #expect((legs[1]["intermediateStops"] as? [[String: Any]])?.count == 5)
        let map = try #require(first["map"] as? [String: Any])
        #expect(map["type"] as? String == "FeatureCollection")
        let features = try #require(map["features"] as? [[String: Any]])
        let lines = features.filter { ($0["geometry"] as? [String: Any])?["type"] as? String == "LineString" }
        #expect(lines.compactMap { ($0["properties"] as? [String: Any])?["legIndex"] as? Int } == Array(legs.indices))
        let pins = features.filter { ($0["geometry"] as? [String: Any])?["type"] as? String == "Point" }
        #expect((pins.first?["properties"] as? [String: Any])?["role"] as? String == "start")
        #expect((pins.last?["properties"] as? [String: Any])?["role"] as? String == "destination")
        let summary = try #require(first["summary"] as? [String: Any])
        #expect(summary["rides"] as? Int == 1 && summary["modes"] as? [String] == ["SUBWAY"])
    }

    @Test("--batch: one answer per line, errors in place")
    func batch() throws {
        let feed = try FeedFixtures.bundledFeed("bart-2018")
        let input = FileManager.default.temporaryDirectory.appendingPathComponent("plan-batch-\(UUID().uuidString).jsonl")
        defer { try? FileManager.default.removeItem(at: input) }
        try Data("""
            {"from":"stop:12TH","to":"stop:SFIA","time":"2018-06-05T08:30:00"}
            {"from":"stop:NOPE","to":"stop:SFIA","time":"2018-06-05T08:30:00"}
            {"from":"stop:12TH","to":"stop:SFIA","time":"2018-06-05T08:30:00","walkSpeed":0}

            """.utf8).write(to: input)
        let r = try TransitBinary.run(["plan", "--batch", input.path, "--gtfs", feed], databaseURL: nil)
        #expect(r.status == 0, "stderr: \(r.stderr)")
        let lines = r.stdout.split(separator: "\n").map { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        #expect(lines.count == 3)
        #expect((lines[0]?["journeys"] as? [[String: Any]])?.first?["arrival"] as? String == "2018-06-05T09:14:00-07:00")
        #expect((lines[1]?["error"] as? [String: Any])?["code"] as? String == "UNKNOWN_STOP")
        #expect((lines[2]?["error"] as? [String: Any])?["code"] as? String == "BAD_PARAMETER")
    }
}
