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
        let journeys = try #require(answer["itineraries"] as? [[String: Any]])
        #expect(answer["recommended"] as? Int == 0)
        #expect(journeys.count == 5, "the default: five alternatives")
        let departures = journeys.compactMap { $0["departure"] as? String }
        #expect(departures == departures.sorted() && departures.count == 5)
        #expect(journeys.allSatisfy { !(($0["labels"] as? [String]) ?? []).isEmpty })
        let query = try #require(answer["query"] as? [String: Any])
        #expect(query["timeZone"] as? String == "America/Los_Angeles" && query["window"] as? Int == 60)
        let first = try #require(journeys.first)
        #expect((first["labels"] as? [String])?.contains("earliest-arrival") == true)
        // Leaves the origin at 08:34 to walk 100 m to the 08:36 train (as the plain output says).
        #expect((first["departure"] as? String)?.hasPrefix("2018-06-05T08:34") == true, "\(first["departure"] ?? "")")
        #expect((first["arrival"] as? String)?.hasPrefix("2018-06-05T09:04") == true, "\(first["arrival"] ?? "")")
        let legs = try #require(first["legs"] as? [[String: Any]])
        #expect(legs.map { $0["mode"] as? String } == ["WALK", "SUBWAY", "WALK"])
        #expect((legs[1]["instruction"] as? String)?.hasPrefix("Take metro ") == true)
        #expect((legs[1]["intermediateStops"] as? [[String: Any]])?.count == 5)
        // The ride follows its shape from shapes.txt, not straight lines between stations.
        #expect(legs[1]["geometrySource"] as? String == "shape")
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
        // The ride's line on the map is the leg's geometry: many points along the shape.
        let rideLine = try #require((lines[1]["geometry"] as? [String: Any])?["coordinates"] as? [[Double]])
        #expect(rideLine.count > 50)
    }

    @Test("plain text: the alternatives side by side, then the steps of the earliest arrival")
    func plainText() throws {
        let feed = try FeedFixtures.bundledFeed("bart-2018")
        let r = try TransitBinary.run(["plan", "stop:POWL", "stop:CIVC", "--at", "2018-06-05T17:10:00", "--num", "3", "--gtfs", feed],
                                      databaseURL: nil)
        #expect(r.status == 0, "stderr: \(r.stderr)")
        let lines = r.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first == "Powell St. → Civic Center/UN Plaza, leave at 17:10 on Tuesday 2018-06-05 (America/Los_Angeles)")
        #expect(lines.contains { $0.hasPrefix("  #  Leave  Arrive") })
        #expect(lines.contains { $0.hasPrefix("  2  17:10  17:23") && $0.hasSuffix("on foot") }, "\(lines)")
        #expect(lines.contains("Steps of option 1 (earliest arrival):"))
        #expect(lines.contains { $0.contains("Take metro") && $0.contains("get off at Civic Center/UN Plaza") })

        // No itinerary: a plain sentence and a failing status; --json gives the code.
        let far = try TransitBinary.run(["plan", "stop:12TH", "37.76,-122.58", "--at", "2018-06-05T08:30:00", "--gtfs", feed],
                                        databaseURL: nil)
        #expect(far.status != 0 && far.stderr.contains("The destination is outside the area this service covers"), "\(far.stderr)")
        let json = try TransitBinary.run(["plan", "stop:12TH", "stop:SFIA", "--at", "2031-01-07T08:00:00", "--json", "--gtfs", feed],
                                         databaseURL: nil)
        let error = (try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])?["error"] as? [String: Any]
        #expect(error?["code"] as? String == "OUTSIDE_SERVICE_PERIOD")
        #expect(((error?["details"] as? [String: Any])?["feeds"] as? [[String: Any]])?.first?["end"] as? String == "2019-07-01")
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
            {"from":"stop:12TH","to":"stop:SFIA","time":"2018-06-05T08:30:00","numItineraries":2,"modes":"SUBWAY","wheelchair":true}
            {"from":"stop:12TH","to":"stop:SFIA","time":"2018-06-05T08:30:00","modes":"ZEPPELIN"}

            """.utf8).write(to: input)
        let r = try TransitBinary.run(["plan", "--batch", input.path, "--gtfs", feed], databaseURL: nil)
        #expect(r.status == 0, "stderr: \(r.stderr)")
        let lines = r.stdout.split(separator: "\n").map { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        #expect(lines.count == 5)
        #expect((lines[3]?["itineraries"] as? [[String: Any]])?.count == 2)
        #expect(((lines[3]?["notices"] as? [[String: Any]])?.first)?["code"] as? String == "WHEELCHAIR")
        #expect((lines[4]?["error"] as? [String: Any])?["code"] as? String == "BAD_PARAMETER")
        #expect((lines[0]?["itineraries"] as? [[String: Any]])?.first?["arrival"] as? String == "2018-06-05T09:14:00-07:00")
        #expect((lines[1]?["error"] as? [String: Any])?["code"] as? String == "UNKNOWN_STOP")
        #expect((lines[2]?["error"] as? [String: Any])?["code"] as? String == "BAD_PARAMETER")
    }
}
