import Foundation
import GTFS
import Testing
import TransitStore
import TransitTesting

/// `transit plan` in each language: `--lang`, else `LANG`; the same words in process, from
/// the database and through a server (`--server` asks it with `lang`).
@Suite("transit plan --lang", .serialized)
struct LanguageCLITests {
    @Test("--lang zh-Hans and LANG=zh_CN.UTF-8 print the same Chinese; a server's answer reads the same; --lang fr is refused")
    func languages() throws {
        let state = try FeedFixtures.makeTemporaryDirectory(prefix: "plan-state")
        defer { try? FileManager.default.removeItem(at: state) }
        let feed = try FeedFixtures.feed("bart-2018.zip")
        let trip = ["37.8044,-122.2712", "37.7700,-122.4180", "--at", "2018-06-05T08:30:00"]
        let flag = try TripPlannerCLITests.plan(trip + ["--lang", "zh-Hans"], feed: feed, state: state)
        let env = try TripPlannerCLITests.plan(trip, feed: feed, env: ["LANG": "zh_CN.UTF-8"], state: state)
        let english = try TripPlannerCLITests.plan(trip, feed: feed, state: state)
        let over = try TripPlannerCLITests.plan(trip + ["--lang", "en"], feed: feed, env: ["LANG": "zh_CN.UTF-8"], state: state)
        #expect(flag.status == 0 && flag.stdout.contains("方案 1 的步骤（最早到达）：") && flag.stdout.contains("步行 100 米"), "\(flag.stdout)")
        #expect(flag.stdout == env.stdout)
        #expect(english.stdout.contains("Steps of option 1 (earliest arrival):") && over.stdout == english.stdout)
        // The columns line up in a terminal: a Chinese character takes two columns.
        let rows = flag.stdout.split(separator: "\n").filter { $0.hasPrefix("  ") && $0.contains("分钟") && !$0.contains(".") }
        #expect(rows.count >= 2)
        let bad = try TripPlannerCLITests.plan(trip + ["--lang", "fr"], feed: feed, state: state)
        #expect(bad.status != 0 && bad.stderr.contains("en and zh-Hans"), "\(bad.stderr)")
        // A refusal, in Chinese.
        let far = try TripPlannerCLITests.plan(["37.8044,-122.2712", "48.8566,2.3522", "--at", "2018-06-05T08:30:00", "--lang", "zh"],
                                               feed: feed, state: state)
        #expect(far.status != 0 && far.stderr.contains("终点不在本服务覆盖的区域内"), "\(far.stderr)")

        // Through a server: the same text as in process from the same database.
        let db = try TestDatabase()
        defer { db.drop() }
        _ = try FeedImporter(db: try db.connect()).importFeed(at: FeedFixtures.feed("bart-2018.zip"), feedId: "bart-2018")
        let server = try ServerProcess(databaseURL: db.url)
        try server.waitUntil("bart served") { h in (h["feeds"] as? [Any])?.count == 1 }
        let local = try TripPlannerCLITests.plan(trip + ["--lang", "zh-Hans"], feed: nil, env: ["DATABASE_URL": db.url], state: state)
        let remote = try TripPlannerCLITests.plan(trip + ["--lang", "zh-Hans", "--server", "http://127.0.0.1:\(server.port)"], feed: nil, state: state)
        #expect(local.status == 0 && local.stdout == remote.stdout && local.stdout == flag.stdout, "\(local.stderr) \(remote.stderr)")
    }
}
