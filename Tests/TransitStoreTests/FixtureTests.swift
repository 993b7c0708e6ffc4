import Foundation
import GTFS
import Testing
import TransitTesting

/// The test oracles and fixtures themselves: the independent CSV row counter, the URL
/// rewriting of TestDatabase and the file-breaking helpers (no database needed).
@Suite("Test fixtures")
struct FixtureTests {
    func count(_ s: String) -> Int { CSVRowCounter.countDataRows(in: Data(s.utf8)) }

    @Test("the row counter: line ends, blank lines, quotes, BOM, no final line end")
    func rowCounter() {
        #expect(count("") == 0)
        #expect(count("a,b") == 0)
        #expect(count("a,b\n") == 0)
        #expect(count("a,b\n1,2") == 1)
        #expect(count("a,b\n1,2\n") == 1)
        #expect(count("a,b\r\n1,2\r\n3,4\r\n") == 2)
        #expect(count("a,b\r1,2\r3,4") == 2)
        #expect(count("a,b\n\n1,2\n\r\n\n3,4\n\n") == 2)
        #expect(count("\u{FEFF}a,b\n1,2\n") == 1)
        #expect(count("a,b\n\"x\ny\",2\n3,\"p,q\"\n") == 2)
        #expect(count("a,b\n\"he said \"\"hi\"\"\n\",2\n3,4\n") == 2)
        #expect(count("a,b\n\"never closed,2\n3,4\n") == 1)
        #expect(count("a,b\n  \n1,2\n") == 2)   // a line of spaces is a (bad) record, not blank
        #expect(count("a,b\nx\"y,2\n3,4\n") == 2) // a quote inside an unquoted field is a character
        let lines = CSVRowCounter.scan(Data("h\n\"a\r\nb\rc\"\n\nz\n".utf8))
        #expect(lines.recordLines == [2, 6])
    }

    @Test("TestDatabase.url swaps the database name and keeps the rest")
    func urlRewriting() throws {
        #expect(try TestDatabase.url("postgresql://postgres@localhost:22729/transit?host=/tmp/transit-pg-1234", withDatabase: "t_1")
                == "postgresql://postgres@localhost:22729/t_1?host=/tmp/transit-pg-1234")
        #expect(try TestDatabase.url("postgresql://u:p@h:5432/db", withDatabase: "t_2") == "postgresql://u:p@h:5432/t_2")
        #expect(try TestDatabase.url("postgres://h", withDatabase: "t_3") == "postgres://h/t_3")
        #expect(try TestDatabase.url("postgresql://h?sslmode=disable", withDatabase: "t_4") == "postgresql://h/t_4?sslmode=disable")
        #expect(throws: TestSetupError.self) { try TestDatabase.url("host=/tmp dbname=x", withDatabase: "t") }
    }

    @Test("FeedFolder edits keep the other bytes: drop a column, set a field, truncate, insert")
    func folderEdits() throws {
        let dir = try FeedFixtures.makeTemporaryDirectory()
        let folder = FeedFolder(url: dir)
        defer { folder.remove() }
        try folder.write("f.txt", Data("\u{FEFF}id, name,desc\r\n1,\"a, b\",x\r\n2,\"say \"\"hi\"\"\",y\r\n".utf8))
        #expect(try folder.header("f.txt") == ["id", "name", "desc"])
        #expect(try folder.field("f.txt", line: 3, "name") == "say \"hi\"")
        try folder.setField("f.txt", line: 2, "desc", to: "z")
        #expect(try folder.line("f.txt", 2) == "1,\"a, b\",z")
        try folder.dropColumn("f.txt", "name")
        #expect(try folder.read("f.txt") == Data("\u{FEFF}id,desc\r\n1,z\r\n2,y\r\n".utf8))
        try folder.insertBytes("f.txt", [0xFF], atByteOffset: try folder.byteOffset("f.txt", line: 3))
        #expect(try folder.read("f.txt").suffix(6) == Data([0xFF]) + Data("2,y\r\n".utf8))
        try folder.truncate("f.txt", atByteOffset: 3)
        #expect(try folder.read("f.txt") == Data([0xEF, 0xBB, 0xBF]))
    }

    @Test("the shared feeds and the bundled ones are found")
    func feedsFound() throws {
        for name in ["google-sample", "caltrain", "bart-2018"] {
            #expect(FileManager.default.fileExists(atPath: try FeedFixtures.bundledFeed(name)))
        }
        for name in ["bydgoszcz-2020", "porto-alegre-eptc-2019", "wmata-rail-2026"] {
            #expect(FileManager.default.fileExists(atPath: try FeedFixtures.sharedFeed(name)))
        }
        #expect(FileManager.default.isExecutableFile(atPath: try TransitBinary.path()))
    }

    /// Needs `zip` (Scripts/setup.sh installs it): without it the test fails, naming the tool.
    @Test("a folder zipped back opens as the same feed")
    func zipBack() throws {
        _ = try ProcessRunner.findTool("zip")
        let folder = try FeedFixtures.unzip(FeedFixtures.bundledFeed("google-sample"))
        defer { folder.remove() }
        let zipPath = folder.url.appendingPathComponent("again.zip").path
        let names = folder.fileNames
        try folder.zip(to: zipPath)
        let source = try openFeed(at: zipPath)
        #expect(source.fileNames == names)
        #expect(source.size(of: "stop_times.txt") == (try folder.read("stop_times.txt")).count)
    }
}
