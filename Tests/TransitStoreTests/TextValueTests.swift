import Foundation
import GTFS
import Testing
import TransitStore
import TransitTesting

/// Text reaches PostgreSQL exactly as the feed wrote it (after CSV unquoting and trimming):
/// COPY's special characters (backslash, tab, line ends, `\N`, `\.`) are escaped, and line
/// numbers in reports count the line breaks inside quoted fields.
@Suite("Text values through COPY")
struct TextValueTests {
    @Test("backslashes, tabs, quotes, line breaks, \\N, \\. and emoji are stored byte for byte")
    func oddText() throws {
        let folder = try FeedFixtures.unzip(FeedFixtures.bundledFeed("google-sample"))
        defer { folder.remove() }
        // stop_id,stop_name,stop_desc,stop_lat,stop_lon,zone_id,stop_url
        try folder.replaceLine("stops.txt", 2, with: #"FUR_CREEK_RES,"back\slash \N tab"# + "\t" + #"here ""quoted"", comma",\.,36.425288,-117.133162,,"#)
        try folder.replaceLine("stops.txt", 3, with: Data("BEATTY_AIRPORT,\"multi\r\nline\rcr 🚌\",  spaced  ,36.868446,-116.784582,,".utf8))
        // A bad row after the two line breaks inside quotes: its physical line is reported.
        try folder.appendLine("stops.txt", "EXTRA_STOP,Extra,,north,-116.4,,")
        let physicalLines = try CSVRowCounter.scan(folder.read("stops.txt"))
        let extraLine = try #require(physicalLines.recordLines.last)

        try withTestDatabase { _, db in
            let r = try FeedImporter(db: db).importFeed(at: folder.path, feedId: "odd")
            #expect(try db.query("SELECT stop_name, stop_desc FROM gtfs.stops WHERE feed_id = 'odd' AND stop_id = 'FUR_CREEK_RES'")
                    == [[#"back\slash \N tab"# + "\t" + #"here "quoted", comma"#, #"\."#]])
            #expect(try db.query("SELECT stop_name, stop_desc FROM gtfs.stops WHERE feed_id = 'odd' AND stop_id = 'BEATTY_AIRPORT'")
                    == [["multi\r\nline\rcr 🚌", "spaced"]])
            #expect(try db.scalar("SELECT encode(convert_to(stop_name, 'UTF8'), 'hex') FROM gtfs.stops WHERE feed_id = 'odd' AND stop_id = 'BEATTY_AIRPORT'")
                    == "6d756c74690d0a6c696e650d637220f09f9a8c")

            // The bad row: its line is the physical line, counting the breaks inside quotes.
            #expect(extraLine == 13)
            let bad = try #require(examples(r.summary, code: "BAD_COORDINATE", file: "stops.txt").first)
            #expect(bad.line == extraLine)
            #expect(bad.field == "stop_lat")
            #expect(bad.value == "north")
            #expect(try rowCount(db, "stops", feedId: "odd") == 9)
            // Nothing else was disturbed: every stop time still finds its stop.
            #expect(try rowCount(db, "stop_times", feedId: "odd") == 28)
            #expect(r.summary.issues.count(.rowError) == 1)
            #expect(try ReferentialIntegrity.broken(db, feedId: "odd").isEmpty)
        }
    }

    @Test("a field larger than the COPY buffer (3 MB) is stored whole")
    func hugeField() throws {
        let folder = try FeedFixtures.unzip(FeedFixtures.bundledFeed("google-sample"))
        defer { folder.remove() }
        let big = String(repeating: "x", count: 3_000_000) + #"\t"# + "\t" + "end"
        try folder.setField("stops.txt", line: 2, "stop_desc", to: "\"" + big + "\"")
        try withTestDatabase { _, db in
            let r = try FeedImporter(db: db).importFeed(at: folder.path, feedId: "big")
            #expect(r.summary.issues.count(.rowError) == 0)
            #expect(try db.query("SELECT length(stop_desc), md5(stop_desc) FROM gtfs.stops WHERE feed_id = 'big' AND stop_id = 'FUR_CREEK_RES'")
                    == [[String(big.utf8.count), md5Hex(big)]])
            #expect(try rowCount(db, "stops", feedId: "big") == 9)
            #expect(try rowCount(db, "stop_times", feedId: "big") == 28)
        }
    }

    /// md5 computed by PostgreSQL itself on a literal, for comparison.
    func md5Hex(_ s: String) -> String? {
        guard let db = try? TestDatabase.environmentURL(), let conn = try? PGConnection(url: db) else { return nil }
        return try? conn.scalar("SELECT md5($1)", [s])
    }
}
