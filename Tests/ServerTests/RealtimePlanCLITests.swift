import GTFSRealtime
import Foundation
import Testing
import TransitTesting

/// `transit plan --realtime` on BART's real static feed and its real messages of
/// 2019-08-07 (issue 21): the golden text `Tests/Golden/plan-realtime.txt` shows a late
/// ride ("11:05 (+5 min)"), the alert under its step, the line that says which message the
/// answer was planned on, and the refusals (a feed not loaded, bytes that are no message).
/// Re-record on purpose with `TRANSIT_RECORD_GOLDEN=1` and review the diff.
@Suite("transit plan --realtime: late rides and alerts in the text", .serialized)
struct RealtimePlanCLITests {
    static func bart() throws -> URL? {
        let url = try FeedFixtures.sharedDataDirectory().appendingPathComponent("gtfs-rt/bart")
        return FileManager.default.fileExists(atPath: url.appendingPathComponent("bart-rt.zip").path) ? url : nil
    }

    @Test("golden: a late ride with its delay in minutes and the alert under its step; the refusals")
    func golden() throws {
        guard let dir = try Self.bart() else { Issue.record("BART's realtime data is missing (../shared/data/gtfs-rt/bart)"); return }
        let state = try FeedFixtures.makeTemporaryDirectory(prefix: "plan-state")
        defer { try? FileManager.default.removeItem(at: state) }
        let garbage = state.appendingPathComponent("garbage.pb")
        try Data("<html>503 Service Unavailable</html>".utf8).write(to: garbage)
        let updates = dir.appendingPathComponent("bart-trip-updates.pb").path, alerts = dir.appendingPathComponent("bart-alerts.pb").path
        let feed = dir.appendingPathComponent("bart-rt.zip").path
        let trip = ["12th St", "San Francisco Airport", "--at", "2019-08-07 10:40"]
        let runs: [[String]] = [
            // The 11:00 Yellow line train leaves 304 s late and arrives 202 s late.
            trip + ["--option", "2", "--realtime", "bart-rt=\(updates)", "--realtime", "bart-rt=\(alerts)"],
            // The same without realtime: the timetable's times, no alert.
            trip + ["--option", "2"],
            // A message that names no feed loaded, and bytes that are no message.
            trip + ["--realtime", "caltrain=\(updates)"],
            trip + ["--realtime", "bart-rt=\(garbage.path)"],
        ]
        var text = "# transit plan --realtime on BART's feed of 2019-08-07 and its TripUpdates and Alert of 10:45:21.\n\n"
        for args in runs {
            let r = try TripPlannerCLITests.plan(args, feed: feed, state: state)
            #expect(!r.signaled, "\(args): crashed")
            // Paths as the reader would write them.
            func shown(_ s: String) -> String {
                s.replacingOccurrences(of: dir.path, with: "$BART").replacingOccurrences(of: state.path, with: "$TMP")
            }
            text += "$ transit plan " + args.map { $0.contains(" ") ? "\"\(shown($0))\"" : shown($0) }.joined(separator: " ")
                + " --gtfs $BART/bart-rt.zip\n"
            text += shown(r.stdout)
            let errors = r.stderr.split(separator: "\n").filter { !$0.hasPrefix("note:") && !$0.hasPrefix("Timetable:") }
            if !errors.isEmpty { text += "[stderr]\n" + errors.map { shown(String($0)) + "\n" }.joined() }
            if r.status != 0 { text += "(exit \(r.status))\n" }
            text += "\n"
        }
        try PlanInterfacesTests.compare(text, golden: "plan-realtime.txt")

        // The checks behind the text.
        let late = try TripPlannerCLITests.plan(runs[0], feed: feed, state: state)
        #expect(late.status == 0)
        #expect(late.stdout.contains("at 11:05 (+5 min) from 12th St. Oakland City Center"), "\(late.stdout)")
        #expect(late.stdout.contains("Alert: There is a major delay at Montgomery St."), "\(late.stdout)")
        #expect(late.stdout.contains("Realtime: bart-rt's message of 10:45:21"), "\(late.stdout)")
        let plain = try TripPlannerCLITests.plan(runs[1], feed: feed, state: state)
        #expect(plain.status == 0 && !plain.stdout.contains("min)") && !plain.stdout.contains("Alert:") && !plain.stdout.contains("Realtime:"))
        #expect(plain.stdout.contains("at 11:00 from 12th St. Oakland City Center"), "\(plain.stdout)")
        for args in runs[2...] {
            let r = try TripPlannerCLITests.plan(args, feed: feed, state: state)
            #expect(r.status != 0 && r.stderr.contains("error:"), "\(args): \(r.stderr)")
        }
        // The JSON says the same: the ride's delays and scheduled times, its alert, the message used.
        let json = try TripPlannerCLITests.plan(runs[0] + ["--json"], feed: feed, state: state)
        let o = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let its = try #require(o["itineraries"] as? [[String: Any]])
        let rides = its.flatMap { ($0["legs"] as? [[String: Any]] ?? []).filter { $0["trip"] != nil } }
        let delayed = try #require(rides.first { ($0["departureDelaySeconds"] as? Int) == 304 }, "no ride 304 s late")
        #expect(delayed["arrivalDelaySeconds"] as? Int == 202 && delayed["realtime"] as? Bool == true)
        #expect((delayed["instruction"] as? String)?.contains("at 11:05 (+5 min)") == true)
        #expect((delayed["alerts"] as? [[String: Any]])?.first?["id"] as? String == "BSA_187874")
        let used = try #require((o["realtime"] as? [[String: Any]])?.first)
        #expect(used["feed"] as? String == "bart-rt" && used["messageTime"] as? String == "2019-08-07T17:45:21+00:00" && used["applied"] as? Int == 48)

        // A message of our own: the same train passing two of its stops without stopping.
        let passed = try #require(delayed["intermediateStops"] as? [[String: Any]])
        try #require(passed.count > 3)
        let skip = [passed[1], passed[3]].compactMap { $0["stopId"] as? String }
        let names = [passed[1], passed[3]].compactMap { $0["name"] as? String }
        let tripId = try #require(delayed["trip"] as? String)
        let own = RealtimeMessage(timestamp: 1_565_199_921, tripUpdates: [RealtimeMessage.TripUpdate(
            entityId: "skipping", trip: RealtimeMessage.TripDescriptor(tripId: tripId, startDate: "20190807"),
            stopTimeUpdates: skip.map { RealtimeMessage.StopTimeUpdate(stopId: $0, scheduleRelationship: .skipped) })])
        let file = state.appendingPathComponent("skipping.pb")
        try Data(own.encoded()).write(to: file)
        let skipping = try TripPlannerCLITests.plan(trip + ["--option", "2", "--realtime", "bart-rt=\(file.path)"], feed: feed, state: state)
        #expect(skipping.status == 0)
        #expect(skipping.stdout.contains("Does not stop at \(names.joined(separator: ", "))"), "\(skipping.stdout)\n\(skipping.stderr)")
    }
}
