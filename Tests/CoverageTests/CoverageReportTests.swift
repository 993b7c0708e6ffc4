import Coverage
import FeedNetwork
import Foundation
import Geo
import GTFS
import Testing
import Timetable
import TransitModel

/// The coverage report's text for three bundled feeds (two of them touching), compared
/// with `Tests/Golden/coverage-report.txt`; re-record on purpose with
/// `TRANSIT_RECORD_GOLDEN=1` and review the diff. Markdown and JSON carry the same data.
@Suite struct CoverageReportTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// BART and Caltrain with their places declared (as `transit import --place` does);
    /// the sample feed without, which the notes point out.
    static func report() throws -> CoverageReport {
        var parts = try ["bart-2018", "caltrain", "google-sample"].map {
            try SnapshotSink.load(path: root.appendingPathComponent("Data/\($0).zip").path, feedId: $0).0
        }
        parts[0].feedInfo[0].place = "San Francisco Bay Area"
        parts[1].feedInfo[0].place = "San Francisco Peninsula"
        let network = try TimetableBuilder.build(FeedSnapshot.merging(parts))
        return CoverageReport.make(try CoverageBuilder.regions(network), timetable: network, today: ServiceDate(year: 2019, month: 1, day: 1)!)
    }

    @Test("golden text: table, union, notes")
    func goldenText() throws {
        let text = try Self.report().text()
        let url = Self.root.appendingPathComponent("Tests/Golden/coverage-report.txt")
        if ProcessInfo.processInfo.environment["TRANSIT_RECORD_GOLDEN"] != nil {
            try Data(text.utf8).write(to: url)
            return
        }
        let recorded = try #require(try? String(contentsOf: url, encoding: .utf8), "no golden file: record with TRANSIT_RECORD_GOLDEN=1")
        #expect(recorded == text, "the report differs from \(url.lastPathComponent):\n\(text)")
    }

    @Test("one export for the feeds of one city together: valid, around every stop of both")
    func combinedExport() throws {
        let parts = try ["bart-2018", "caltrain"].map {
            try SnapshotSink.load(path: Self.root.appendingPathComponent("Data/\($0).zip").path, feedId: $0).0
        }
        let network = try TimetableBuilder.build(FeedSnapshot.merging(parts))
        let regions = try CoverageBuilder.regions(network)
        let combined = try CoverageBuilder.combinedExport(regions, timetable: network)
        let geo = try #require(try JSONSerialization.jsonObject(with: Data(CoverageExport.text(combined.export).utf8)) as? [String: Any])
        #expect(CoverageRegionTests.validate(geo).isEmpty, "\(CoverageRegionTests.validate(geo))")
        let stops = regions.flatMap(\.servedStops).map { network.coordinate(ofStop: $0)! }
        #expect(stops.allSatisfy { c in combined.export.contains { CoverageRegionTests.inside(c, $0) } })
        #expect(combined.exportKm2 / combined.exactKm2 < 1.5)
    }

    @Test("the report says what is doubtful, and Markdown and JSON carry the same regions")
    func notesAndForms() throws {
        let r = try Self.report()
        #expect(r.regions.map(\.feedId) == ["bart-2018", "caltrain", "google-sample"])
        #expect(r.unions.map(\.feeds) == [["bart-2018", "caltrain"]])
        let sum = r.regions[0].exactAreaKm2 + r.regions[1].exactAreaKm2
        #expect(r.unions[0].areaKm2 < sum && r.unions[0].areaKm2 > sum * 0.9, "they touch at Millbrae: a little overlap")
        #expect(r.notes.contains("google-sample: service ended on 2010-12-31"))
        #expect(r.regions.map(\.name) == ["Bay Area Rapid Transit, San Francisco Bay Area", "Caltrain, San Francisco Peninsula",
                                           "Demo Transit Authority"])
        #expect(r.regions.map(\.publisher) == ["Bay Area Rapid Transit", nil, nil], "the sample's feed_info.txt has a header and no row")
        #expect(r.notes.contains { $0.hasPrefix("google-sample: no place declared") })
        #expect(!r.notes.contains { $0.hasPrefix("bart-2018: no place") || $0.hasPrefix("caltrain: no place") })
        // Furnace Creek, 58 km out with 2 trips a day, is reached, not covered: listed apart,
        // not noted as an isolated stop of the region.
        #expect(!r.notes.contains { $0.hasPrefix("google-sample: stop FUR_CREEK_RES") })
        #expect(r.text().contains("google-sample also reached: Furnace Creek Resort (Demo), 2 trips a day"))
        #expect(!r.notes.contains { $0.hasPrefix("bart-2018: stop") }, "stations kilometres apart are normal for a metro")
        #expect(r.problems.values.allSatisfy { $0.isEmpty })
        let md = r.markdown()
        #expect(md.contains("| bart-2018 | San Francisco Bay Area | metro | Bay Area Rapid Transit |"))
        #expect(md.contains("## Notes"))
        let json = r.json()
        #expect((json["regions"] as? [[String: Any]])?.map { $0["feed"] as? String } == ["bart-2018", "caltrain", "google-sample"])
    }
}
