import Foundation
import GTFS
import Testing
import TransitStore
import TransitTesting

/// `transit validate` and `transit import --json` as an agency runs them: the report in its
/// three formats, the day it judges on, and a report in every case, a refused feed too.
@Suite("transit validate")
struct ValidateCLITests {
    struct Report: Decodable {
        struct Sample: Decodable { let file: String; let line: Int?; let field: String?; let value: String?; let message: String }
        struct Notice: Decodable {
            let code: String?; let severity: String?; let ours: String; let action: String; let count: Int; let samples: [Sample]
        }
        let today: String
        let refused: Bool
        let counts: [String: Int]
        let notices: [Notice]
        func notice(_ code: String) -> Notice? { notices.first { $0.code == code } }
    }

    func validate(_ args: [String]) throws -> (ProcessRunner.Result, Report?) {
        let r = try TransitBinary.run(["validate"] + args, databaseURL: nil, timeout: 120)
        let report = try? JSONDecoder().decode(Report.self, from: Data(r.stdout.utf8))
        return (r, report)
    }

    @Test("one broken colour in a real feed: the canonical code, its severity, our action and the place, as JSON")
    func brokenColour() throws {
        let folder = try FeedFixtures.unzip(FeedFixtures.bundledFeed("caltrain"))
        defer { folder.remove() }
        try folder.setField("routes.txt", line: 3, "route_color", to: "GREEN")
        let (r, report) = try validate([folder.path, "--format", "json", "--today", "2019-01-01"])
        #expect(r.status == 0, "\(r.stderr)")
        let json = try #require(report, "not a report: \(r.stdout.prefix(400))")
        let colour = try #require(json.notice("invalid_color"))
        #expect(colour.severity == "ERROR" && colour.ours == "BAD_COLOR" && colour.action == "field error" && colour.count == 1)
        let place = try #require(colour.samples.first)
        #expect(place.file == "routes.txt" && place.line == 3 && place.field == "route_color" && place.value == "GREEN")
        #expect(json.counts["ERROR"] == 1)
        #expect(json.today == "2019-01-01")
        #expect(!json.refused)
    }

    @Test("--today decides the date rules: three of caltrain's six calendars had ended on 2019-01-01, all six by 2030")
    func today() throws {
        let feed = try FeedFixtures.bundledFeed("caltrain")
        let (_, before) = try validate([feed, "--format", "json", "--today", "2019-01-01"])
        let (_, after) = try validate([feed, "--format", "json", "--today", "2030-01-01"])
        let b = try #require(before), a = try #require(after)
        // WD20090302 and its two siblings ended on 2009-08-30; the others on 2019-08-31.
        #expect(b.notice("expired_calendar")?.count == 3)
        #expect(b.notice("expired_calendar")?.samples.map(\.value) == ["SN20090302", "ST20090302", "WD20090302"])
        let ended = try #require(a.notice("expired_calendar"))
        #expect(ended.count == 6 && ended.severity == "WARNING" && ended.action == "warning")
        #expect(a.notice("trip_coverage_not_active_for_next7_days")?.count == 1)
        let (bad, _) = try validate([feed, "--today", "2019-13-01"])
        #expect(bad.status != 0 && bad.stderr.contains("--today"), "\(bad.stderr)")
    }

    @Test("the table and the HTML page: the same notices; the page is one file with no script and nothing fetched")
    func tableAndPage() throws {
        let folder = try FeedFixtures.unzip(FeedFixtures.bundledFeed("caltrain"))
        defer { folder.remove() }
        try folder.setField("routes.txt", line: 3, "route_color", to: "<b>")
        let (table, _) = try validate([folder.path, "--today", "2019-01-01"])
        #expect(table.status == 0)
        #expect(table.stdout.contains("invalid_color") && table.stdout.contains("BAD_COLOR") && table.stdout.contains("routes.txt:3"), "\(table.stdout)")
        let page = folder.url.appendingPathComponent("report.html").path
        let (written, _) = try validate([folder.path, "--today", "2019-01-01", "--format", "html", "--output", page])
        #expect(written.status == 0 && written.stderr.contains("Wrote the report"), "\(written.stderr)")
        let html = try String(contentsOfFile: page, encoding: .utf8)
        #expect(html.hasPrefix("<!DOCTYPE html>") && html.contains("invalid_color") && html.contains("routes.txt:3"))
        #expect(html.contains("&lt;b&gt;") && !html.contains("\"<b>\""), "the value is escaped")
        for asset in ["<script", "<link", "src=", "url(", "@import"] { #expect(!html.contains(asset), "the page loads \(asset)") }
    }

    @Test("a refused feed: exit 1 and still a report, from validate and from import --check --json")
    func refused() throws {
        let folder = try FeedFixtures.unzip(FeedFixtures.bundledFeed("caltrain"))
        defer { folder.remove() }
        try folder.dropColumn("stop_times.txt", "stop_id")
        let (r, report) = try validate([folder.path, "--format", "json"])
        #expect(r.status == 1)
        let json = try #require(report, "no report: \(r.stdout.prefix(300)) \(r.stderr)")
        #expect(json.refused)
        let n = try #require(json.notice("missing_required_column"))
        #expect(n.ours == "MISSING_COLUMN" && n.action == "fatal" && n.samples.first?.field == "stop_id")

        let check = try TransitBinary.run(["import", "--check", "--json", folder.path], databaseURL: nil, timeout: 60)
        #expect(check.status == 1)
        let out = try #require(try JSONSerialization.jsonObject(with: Data(check.stdout.utf8)) as? [String: Any], "stdout: \(check.stdout)")
        #expect(out["refused"] as? Bool == true && out["version"] as? Int == 0)
        let issues = try #require(out["issues"] as? [[String: Any]])
        let kind = try #require(issues.first?["kind"] as? [String: Any])
        #expect(kind["code"] as? String == "MISSING_COLUMN" && kind["canonical"] as? String == "missing_required_column")
        #expect(check.stderr.contains("import failed"), "the person at the terminal is told too")
    }

    @Test("import --json into a database: a refused feed prints its report too, and nothing changes")
    func refusedImport() throws {
        try withTestDatabase { testDB, db in
            let folder = try FeedFixtures.unzip(FeedFixtures.bundledFeed("caltrain"))
            defer { folder.remove() }
            try folder.dropColumn("trips.txt", "route_id")
            let r = try TransitBinary.run(["import", folder.path, "--feed", "ct", "--json"], databaseURL: testDB.url)
            #expect(r.status == 1)
            let out = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any], "stdout: \(r.stdout)")
            #expect(out["refused"] as? Bool == true && out["id"] as? String == "ct")
            #expect(try FeedCatalog(db: db).list().isEmpty)
        }
    }
}
