import Foundation
import GTFS
import Testing
import TransitStore
import TransitTesting

/// Real feeds broken in every way of `FeedMutation`, imported over a good version of the
/// same feed id: each ends in one of the importer's three outcomes with a message naming
/// the file (and line, for a row), never a crash or a hang; a refused import leaves every
/// table as it was, an accepted one is the next version. Here on the bundled feeds;
/// `TRANSIT_MUTATION_FEEDS=all Scripts/test.sh --filter MutatedFeedTests` runs every shared feed
/// (or a list of them by name, with commas).
@Suite("Mutated real feeds", .serialized)
struct MutatedFeedTests {
    /// Feeds as `bundled:NAME` or `shared:NAME`, resolved (or failed, naming the missing
    /// file) by the test itself: a missing feed must not leave the test with nothing to run.
    static var feeds: [String] {
        let env = ProcessInfo.processInfo.environment["TRANSIT_MUTATION_FEEDS"] ?? ""
        if env == "all" { return FeedFixtures.sharedFeedNames.map { "shared:" + $0 } }
        if !env.isEmpty {   // shared feeds by name: sacramento-sacrt-2024,bart-2018
            return env.split(separator: ",").map { "shared:" + $0 }
        }
        return ["caltrain", "google-sample", "bart-2018"].map { "bundled:" + $0 }
    }

    static func path(_ feed: String) throws -> String {
        if feed.hasPrefix("bundled:") { return try FeedFixtures.bundledFeed(String(feed.dropFirst(8))) }
        return try FeedFixtures.sharedFeed(String(feed.dropFirst(7)))
    }

    /// What `transit import --json` printed: enough to judge the outcome.
    struct ImportJSON: Decodable {
        let version: Int
        let issues: [GTFSIssueLog.Entry]
    }

    /// The binary, not the library: a crash or a hang then shows as the child's death (killed
    /// after 10 minutes) instead of taking the test runner down, and `TRANSIT_BIN` can point at
    /// a release build (`Scripts/reliability.sh` does, for every shared feed).
    @Test("every mutation of a real feed: one of three outcomes, the place named, nothing half-changed",
          .timeLimit(.minutes(60)), arguments: feeds)
    func mutations(_ feed: String) throws {
        let zip = try Self.path(feed)
        let name = URL(fileURLWithPath: zip).deletingPathExtension().lastPathComponent
        try withTestDatabase { testDB, conn in
            for (feed, id) in [(zip, "m"), (try FeedFixtures.bundledFeed("google-sample"), "other")] {
                let r = try TransitBinary.run(["import", feed, "--feed", id], databaseURL: testDB.url, timeout: 600)
                try #require(r.status == 0, "the good \(id) feed did not import: \(r.stderr.suffix(800))")
            }
            var version = 1
            var outcomes: [String] = []
            for mutation in FeedMutation.allCases {
                let folder = try FeedFixtures.unzip(zip)
                defer { folder.remove() }
                guard let what = try mutation.apply(to: folder) else { outcomes.append("\(mutation.rawValue): not applicable"); continue }
                let label = "\(name), \(mutation.rawValue) (\(what))"
                var problems: [String] = []
                let outcome: String
                let before = try TableChecksums.snapshot(conn)
                let started = Date()
                let run = try TransitBinary.run(["import", folder.path, "--feed", "m", "--json"], databaseURL: testDB.url, timeout: 600)
                let seconds = Date().timeIntervalSince(started)
                let refusal = run.stderr.range(of: #"import failed: fatal (\S+) at ([^\n]+)"#, options: .regularExpression)
                if run.signaled {
                    outcome = "crashed or hung (signal \(run.status))"
                    problems.append("\(outcome) after \(Int(seconds)) s: \(run.stderr.suffix(800))")
                } else if run.status == 0 {
                    version += 1
                    do {
                        let result = try JSONDecoder().decode(ImportJSON.self, from: Data(run.stdout.utf8))
                        if result.version != version { problems.append("imported as version \(result.version), not \(version)") }
                        let counted = result.issues.filter { [.rowError, .fieldError, .warning].contains($0.kind.severity) }
                        let skipped = counted.filter { $0.kind.severity == .rowError }.reduce(0) { $0 + $1.count }
                        let fieldErrors = counted.filter { $0.kind.severity == .fieldError }.reduce(0) { $0 + $1.count }
                        let warnings = counted.filter { $0.kind.severity == .warning }.reduce(0) { $0 + $1.count }
                        if mutation.mustBeFatal { problems.append("imported, but it should have been refused") }
                        if skipped + fieldErrors + warnings == 0 && mutation.mustBeReported { problems.append("imported without a word") }
                        for ex in counted.flatMap(\.examples) {
                            if ex.file.isEmpty || !ex.location.contains(ex.file) { problems.append("\(ex) does not name its file") }
                            if ex.line == nil && ex.field != nil { problems.append("\(ex) names a field but no line") }
                        }
                        let first = counted.first?.examples.first.map { " (first: \($0.code) at \($0.location))" } ?? ""
                        outcome = "imported, \(skipped) rows skipped, \(fieldErrors) field errors, \(warnings) warnings\(first)"
                    } catch {
                        outcome = "imported, unreadable summary"
                        problems.append("the --json summary does not decode (\(error)): \(run.stdout.prefix(300))")
                    }
                } else if run.status == 1, let refusal {
                    let line = String(run.stderr[refusal].dropFirst("import failed: fatal ".count))
                    outcome = "refused, \(line)"
                    if mutation.isValidFeed { problems.append("refused, but a valid if odd feed must import") }
                    let file = line.split(separator: " at ").last.map { String($0.prefix { $0 != ":" && $0 != " " }) } ?? ""
                    if !file.hasSuffix(".txt") && !file.hasSuffix(".zip") && file != folder.path.split(separator: "/").last.map(String.init) {
                        problems.append("the refusal does not name the file: \(line)")
                    }
                    let after = try TableChecksums.snapshot(conn)
                    if after != before { problems.append("a refused import changed \(TableChecksums.differences(before, after))") }
                    if try catalogVersion(conn, "m") != version { problems.append("the catalog's version moved") }
                } else {
                    outcome = "failed without a GTFS refusal (status \(run.status))"
                    problems.append("\(outcome): \(run.stderr.suffix(800))")
                }
                for p in problems { Issue.record("\(label): \(p)") }
                outcomes.append("\(mutation.rawValue): \(outcome)")
                // One line per case as it ends, for Scripts/reliability.sh's table and progress.
                let verdict = problems.isEmpty ? "ok" : "FAIL"
                FileHandle.standardError.write(Data("RELIABILITY\tmutation\t\(name): \(mutation.rawValue)\t\(verdict)\t\(outcome), \(String(format: "%.1f", seconds)) s\n".utf8))
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
