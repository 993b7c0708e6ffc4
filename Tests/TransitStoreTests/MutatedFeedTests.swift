import Foundation
import GTFS
import Testing
import TransitStore
import TransitTesting

/// Real feeds broken in every way of `FeedMutation`, imported over a good version of the
/// same feed id: each ends in one of the importer's three outcomes with a message naming
/// the file (and line, for a row), never a crash or a hang; a refused import leaves every
/// table as it was, an accepted one is the next version. Here on the bundled feeds;
/// `TRANSIT_MUTATION_FEEDS=all Scripts/test.sh --filter MutatedFeedTests` runs every shared feed.
@Suite("Mutated real feeds", .serialized)
struct MutatedFeedTests {
    static var feeds: [String] {
        let env = ProcessInfo.processInfo.environment["TRANSIT_MUTATION_FEEDS"] ?? ""
        if env == "all" {
            let dir = (try? FeedFixtures.sharedDataDirectory().appendingPathComponent("gtfs").path) ?? ""
            return ((try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []).filter { $0.hasSuffix(".zip") }.sorted()
                .map { dir + "/" + $0 }
        }
        return ["caltrain", "google-sample", "bart-2018"].compactMap { try? FeedFixtures.bundledFeed($0) }
    }

    @Test("every mutation of a real feed: one of three outcomes, the place named, nothing half-changed",
          .timeLimit(.minutes(30)), arguments: feeds)
    func mutations(_ zip: String) throws {
        let name = URL(fileURLWithPath: zip).deletingPathExtension().lastPathComponent
        try withTestDatabase { _, conn in
            _ = try FeedImporter(db: conn).importFeed(at: zip, feedId: "m")
            _ = try FeedImporter(db: conn).importFeed(at: FeedFixtures.bundledFeed("google-sample"), feedId: "other")
            var version = 1
            var outcomes: [String] = []
            for mutation in FeedMutation.allCases {
                let folder = try FeedFixtures.unzip(zip)
                defer { folder.remove() }
                guard let what = try mutation.apply(to: folder) else { outcomes.append("\(mutation.rawValue): not applicable"); continue }
                let label = "\(name), \(mutation.rawValue) (\(what))"
                let before = try TableChecksums.snapshot(conn)
                let started = Date()
                do {
                    let result = try FeedImporter(db: conn).importFeed(at: folder.path, feedId: "m")
                    version += 1
                    #expect(result.version == version, "\(label): imported as version \(result.version)")
                    let issues = result.summary.issues
                    let reported = issues.count(.rowError) + issues.count(.warning)
                    #expect(!mutation.mustBeFatal, "\(label): imported, but it should have been refused")
                    #expect(reported > 0 || !mutation.mustBeReported, "\(label): imported without a word")
                    for entry in issues.entries where entry.kind.severity == .rowError || entry.kind.severity == .warning {
                        for ex in entry.examples {
                            #expect(!ex.file.isEmpty && ex.location.contains(ex.file), "\(label): \(ex) does not name its file")
                            #expect(ex.line != nil || ex.field == nil, "\(label): \(ex) names a field but no line")
                        }
                    }
                    outcomes.append("\(mutation.rawValue): imported, \(issues.count(.rowError)) rows skipped, \(issues.count(.warning)) warnings"
                                    + (issues.first.map { " (first: \($0.code) at \($0.location))" } ?? ""))
                } catch let fatal as GTFSFatalError {
                    #expect(!fatal.issue.file.isEmpty && fatal.issue.location.contains(fatal.issue.file),
                            "\(label): the refusal does not name the file: \(fatal)")
                    let after = try TableChecksums.snapshot(conn)
                    #expect(after == before, "\(label): a refused import changed \(TableChecksums.differences(before, after))")
                    #expect(try catalogVersion(conn, "m") == version)
                    outcomes.append("\(mutation.rawValue): refused, \(fatal.issue.code) at \(fatal.issue.location)")
                } catch {
                    Issue.record("\(label): neither imported nor refused with a GTFS error: \(type(of: error)): \(error)")
                }
                // A hang shows as a time limit; this says which case was slow.
                #expect(Date().timeIntervalSince(started) < 600, "\(label): took \(Int(Date().timeIntervalSince(started))) s")
            }
            // The other feed was never touched.
            #expect(try catalogVersion(conn, "other") == 1)
            print("\(name):\n  " + outcomes.joined(separator: "\n  "))
        }
    }

    @Test("the CSV records the mutations edit: quotes, commas and line ends inside fields")
    func records() {
        let r = FeedMutation.records(Data("a,\"b,c\",d\r\n1,\"x\ny\",3\n\n4,5,6".utf8))
        #expect(r.map { $0.map { String(decoding: $0, as: UTF8.self) } } == [["a", "\"b,c\"", "d"], ["1", "\"x\ny\"", "3"], ["4", "5", "6"]])
    }
}
