import Foundation
import Testing
import TransitTesting

/// `transit plan --follow` in process: BART's real static feed and messages, the clock
/// replayed at 600 times the speed; the trip, then one line per event until arrival, and
/// the refusals of `transit follow`.
@Suite("transit plan --follow, transit follow", .serialized)
struct FollowCLITests {
    @Test("the chosen option followed to arrival in the stream's words; tokens refused plainly")
    func follow() throws {
        guard let dir = try RealtimePlanCLITests.bart() else { Issue.record("BART's realtime data is missing (../shared/data/gtfs-rt/bart)"); return }
        let state = try FeedFixtures.makeTemporaryDirectory(prefix: "follow-state")
        defer { try? FileManager.default.removeItem(at: state) }
        let feed = dir.appendingPathComponent("bart-rt.zip").path
        let r = try TripPlannerCLITests.plan(["12th St", "San Francisco Airport", "--at", "2019-08-07 10:55", "--follow",
                                              "--realtime", "bart-rt=\(dir.appendingPathComponent("bart-trip-updates.pb").path)",
                                              "--realtime", "bart-rt=\(dir.appendingPathComponent("bart-alerts.pb").path)",
                                              "--clock", "2019-08-07T10:58:00-07:00x600"], feed: feed, state: state)
        #expect(r.status == 0, "\(r.stderr)")
        let lines = r.stdout.split(separator: "\n").map(String.init)
        let start = try #require(lines.firstIndex { $0.hasPrefix("Following your trip: metro Yellow") }, "\(r.stdout)")
        let events = Array(lines[(start + 1)...])
        // The 11:00 train, 5 minutes late (already in the plan: no delay to tell), the
        // alert, the boarding, getting off, arrival.
        #expect(events.count == 5, "\(events)")
        #expect(events.first?.hasPrefix("[10:58] Alert for metro Yellow") == true)
        #expect(events.contains { $0.hasPrefix("[11:00] Metro Yellow towards San Francisco International Airport leaves 12th St. Oakland City Center in 5 min (11:05).") })
        #expect(events.contains { $0.contains("Get off metro Yellow at San Francisco International Airport in 5 min (11:48).") })
        #expect(events.last?.hasSuffix("You have arrived (11:48).") == true)

        // transit follow: a token not signed with the key given, and no key at all.
        let follow = { (env: [String: String]) in
            try ProcessRunner.run(executable: TransitBinary.path(), ["follow", "AQEEYmFydAEy", "--gtfs", feed],
                                  environment: ProcessRunner.environment(setting: env, removing: ["DATABASE_URL", "TRANSIT_TOKEN_SECRET"]),
                                  currentDirectory: FeedFixtures.repositoryRoot().path, timeout: 120)
        }
        let unsigned = try follow(["TRANSIT_TOKEN_SECRET": "0123456789abcdef0123"])
        #expect(unsigned.status == 1 && unsigned.stderr.contains("not a trip token signed with that key"), "\(unsigned.stderr)")
        let keyless = try follow([:])
        #expect(keyless.status == 1 && keyless.stderr.contains("--server URL"), "\(keyless.stderr)")
    }
}
