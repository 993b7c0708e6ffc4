import Foundation
import Testing
import TransitStore
import TransitTesting

/// `transit plan` as a person uses it: the real binary, real feeds. The text (colour off)
/// is compared with `Tests/Golden/plan-<feed>.txt` (re-record on purpose with
/// `TRANSIT_RECORD_GOLDEN=1` and review the diff); the steps printed are the API's legs;
/// a name that fits several places is chosen in a pseudo-terminal; the output is the same
/// in process and through `--server`.
@Suite("transit plan: the terminal trip planner", .serialized)
struct TripPlannerCLITests {
    /// Arguments of one run, and the environment it adds.
    struct Run: Sendable { let args: [String]; var env: [String: String] = [:] }

    /// "Now" for times without a date: a Saturday, outside every feed's dates.
    static let now = "2026-11-21T10:00:00Z"

    static func feeds() throws -> [(id: String, path: String, runs: [Run])] {
        [
            ("bart-2018", try FeedFixtures.bundledFeed("bart-2018"), [
                Run(args: ["12th St", "San Francisco Airport", "--at", "2018-06-05T08:30"]),
                // A name that fits two stations: without a terminal, the error lists them.
                Run(args: ["Dublin", "Powell", "--at", "2018-06-05T09:00"]),
                Run(args: ["Dublin/Pleasanton", "Powell", "--at", "2018-06-05 09:00"]),
                // Typos, an arrive-by time in words with no date (today is outside the dates).
                Run(args: ["Embarcaderro", "Civic Center", "--arrive-by", "5:30pm"], env: ["TRANSIT_NOW": now]),
                Run(args: ["Downtown Berkeley", "Dublin/Pleasanton", "--at", "tuesday 10:00", "--option", "2"], env: ["TRANSIT_NOW": now]),
                // Street corners: walks at both ends.
                Run(args: ["37.8044,-122.2712", "37.7700,-122.4180", "--at", "2018-06-05T08:30"]),
                // Failures, each with a plain message.
                Run(args: ["Hogwarts Plaza", "Civic Center", "--at", "2018-06-05T08:30"]),
                Run(args: ["40.7128,-74.0060", "Civic Center", "--at", "2018-06-05T08:30"]),
                Run(args: ["12th St", "San Francisco Airport", "--at", "2031-01-07T08:15"]),
                Run(args: ["12th St", "San Francisco Airport", "--at", "2018-06-05T08:30", "--option", "9"]),
            ]),
            ("bydgoszcz-2020", try FeedFixtures.sharedFeed("bydgoszcz-2020"), [
                Run(args: ["Dworzec Główny", "Rondo Jagiellonów", "--at", "2020-05-04T08:30"]),
                Run(args: ["dworzec glowny", "rondo jagielonow", "--at", "monday 8:30"], env: ["TRANSIT_NOW": now]),
                Run(args: ["Dworzec", "Rondo Jagiellonów", "--at", "2020-05-04T08:30"]),
                Run(args: ["Plac Kościeleckich", "Dworzec Wschód", "--arrive-by", "2020-05-04T17:45"]),
            ]),
        ]
    }

    static let goldenDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Golden")

    /// Runs `transit plan ARGS --gtfs FEED` without a terminal and without a database.
    static func plan(_ args: [String], feed: String?, env: [String: String] = [:], state: URL) throws -> ProcessRunner.Result {
        // Wide, so that these goldens show each line whole; PlanInterfacesTests sets
        // COLUMNS to show the wrapping (an empty COLUMNS: the default, 80).
        // English whatever the machine's locale, unless `env` says otherwise (LANG).
        var setting = ["NO_COLOR": "1", "TRANSIT_STATE_DIR": state.path, "COLUMNS": "250", "LANG": "C.UTF-8"]
        for (k, v) in env { setting[k] = v }
        return try ProcessRunner.run(executable: TransitBinary.path(), ["plan"] + args + (feed.map { ["--gtfs", $0] } ?? []),
                                     environment: ProcessRunner.environment(setting: setting,
                                                                            removing: ["DATABASE_URL", "TRANSIT_NOW", "LC_ALL", "LC_MESSAGES"]),
                                     currentDirectory: FeedFixtures.repositoryRoot().path, timeout: 300)
    }

    /// The numbered steps a text answer prints ("  2. 08:38  Take tram 8 …"), without numbers and times.
    static func printedSteps(_ text: String) -> [String] {
        text.split(separator: "\n").compactMap { line in
            guard let r = line.range(of: #"^  ?\d+\. \d\d:\d\d  "#, options: .regularExpression) else { return nil }
            let sentence = String(line[r.upperBound...])
            return sentence == "Arrive" ? nil : sentence
        }
    }

    static func legInstructions(_ json: String, option: Int? = nil) throws -> [String] {
        let o = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let its = try #require(o["itineraries"] as? [[String: Any]])
        let i = option ?? (o["recommended"] as? Int ?? 0)
        return (its[i]["legs"] as? [[String: Any]] ?? []).compactMap { $0["instruction"] as? String }
    }

    @Test("golden text on two real feeds, colour off", arguments: ["bart-2018", "bydgoszcz-2020"])
    func golden(_ feedId: String) throws {
        let (_, path, runs) = try #require(try Self.feeds().first { $0.id == feedId })
        let state = try FeedFixtures.makeTemporaryDirectory(prefix: "plan-state")
        defer { try? FileManager.default.removeItem(at: state) }
        var text = ""
        for run in runs {
            let r = try Self.plan(run.args, feed: path, env: run.env, state: state)
            text += "$ " + (run.env["TRANSIT_NOW"].map { "TRANSIT_NOW=\($0) " } ?? "")
                + "transit plan " + run.args.map { $0.contains(" ") || $0.isEmpty ? "\"\($0)\"" : $0 }.joined(separator: " ") + "\n"
            text += r.stdout
            // Errors (stderr), without the timetable's notes about the feed itself.
            text += r.stderr.split(separator: "\n").filter { !$0.hasPrefix("note:") && !$0.hasPrefix("Timetable:") }.map { $0 + "\n" }.joined()
            if r.status != 0 { text += "(exit \(r.status))\n" }
            text += "\n"
            #expect(!r.signaled, "\(run.args): crashed")
        }
        try PlanInterfacesTests.compare(text, golden: "plan-\(feedId).txt")
    }

    @Test("the steps printed are the API's legs: count, order, sentences; --json is the API's answer")
    func stepsAreTheLegs() throws {
        let state = try FeedFixtures.makeTemporaryDirectory(prefix: "plan-state")
        defer { try? FileManager.default.removeItem(at: state) }
        let bart = try FeedFixtures.bundledFeed("bart-2018"), bydgoszcz = try FeedFixtures.sharedFeed("bydgoszcz-2020")
        let cases: [([String], String)] = [
            (["Downtown Berkeley", "Dublin/Pleasanton", "--at", "2018-06-05T10:00"], bart),
            (["37.8044,-122.2712", "37.7700,-122.4180", "--at", "2018-06-05T08:30"], bart),
            (["Dworzec Główny", "Rondo Jagiellonów", "--at", "2020-05-04T08:30"], bydgoszcz),
            (["Plac Kościeleckich", "Dworzec Wschód", "--arrive-by", "2020-05-04T17:45", "--option", "2"], bydgoszcz),
        ]
        for (args, feed) in cases {
            let text = try Self.plan(args, feed: feed, state: state)
            let json = try Self.plan(args.filter { $0 != "--option" && $0 != "2" } + ["--json"], feed: feed, state: state)
            try #require(text.status == 0 && json.status == 0, "\(args): \(text.stderr) \(json.stderr)")
            let option = args.firstIndex(of: "--option").map { Int(args[$0 + 1])! - 1 }
            let legs = try Self.legInstructions(json.stdout, option: option)
            let steps = Self.printedSteps(text.stdout)
            #expect(!legs.isEmpty)
            #expect(steps == legs, "\(args): printed \(steps.count) steps, the API has \(legs.count) legs")
            // Five steps in the list, five lines on the map, same order.
            let o = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
            let its = o?["itineraries"] as? [[String: Any]] ?? []
            let features = ((its[option ?? 0]["map"] as? [String: Any])?["features"] as? [[String: Any]]) ?? []
            let lines = features.filter { ($0["properties"] as? [String: Any])?["role"] as? String == "leg" }
            #expect(lines.count == legs.count)
        }
    }

    @Test("a name that fits several places: a numbered choice in a terminal; colour there, none with NO_COLOR; recent trips")
    func interactiveChoice() throws {
        let state = try FeedFixtures.makeTemporaryDirectory(prefix: "plan-state")
        defer { try? FileManager.default.removeItem(at: state) }
        let bart = try FeedFixtures.bundledFeed("bart-2018")
        var env = ProcessRunner.environment(setting: ["TERM": "xterm-256color", "TRANSIT_STATE_DIR": state.path],
                                            removing: ["NO_COLOR", "DATABASE_URL", "TRANSIT_NOW"])
        let binary = try TransitBinary.path(), root = FeedFixtures.repositoryRoot().path

        let t = try PseudoTerminal(executable: binary, ["plan", "Dublin", "Powell", "--at", "2018-06-05T09:00", "--gtfs", bart],
                                   environment: env, currentDirectory: root)
        #expect(t.waitFor("Number (1–2"), "no prompt: \(t.screen)")
        #expect(t.plainScreen.contains("Which \"Dublin\" do you mean?"))
        #expect(t.plainScreen.contains("  1. Dublin/Pleasanton ("))
        #expect(t.plainScreen.contains("  2. West Dublin/Pleasanton ("))
        t.type("2\n")
        #expect(t.finish() == 0, "\(t.screen)")
        let screen = t.plainScreen
        #expect(screen.contains("West Dublin/Pleasanton → Powell St., leave at 09:00 on Tuesday 2018-06-05"), "\(screen)")
        #expect(screen.contains("Steps of option 1"))
        // Route colours as escape sequences; the same words without them.
        #expect(t.screen.contains("\u{1B}[1;38;2;"), "no colour on a terminal")
        let steps = Self.printedSteps(screen)
        #expect(!steps.isEmpty && steps.allSatisfy { !$0.contains("\u{1B}") })

        // No places: the recent trips to pick from; the one just planned first.
        env["NO_COLOR"] = "1"
        let r = try PseudoTerminal(executable: binary, ["plan", "--at", "2018-06-05T10:00", "--gtfs", bart], environment: env, currentDirectory: root)
        #expect(r.waitFor("Number (1–1"), "no prompt: \(r.screen)")
        #expect(r.screen.contains("Recent trips:\n  1. West Dublin/Pleasanton → Powell St."))
        r.type("\n")
        #expect(r.finish() == 0, "\(r.screen)")
        #expect(r.screen.contains("West Dublin/Pleasanton → Powell St., leave at 10:00"))
        #expect(!r.screen.contains("\u{1B}["), "NO_COLOR: no escape sequences")

        // --again without a terminal: the last trip, at the time given.
        let again = try Self.plan(["--again", "--at", "2018-06-05T11:00"], feed: bart, state: state)
        #expect(again.status == 0, "\(again.stderr)")
        #expect(again.stdout.hasPrefix("West Dublin/Pleasanton → Powell St., leave at 11:00"), "\(again.stdout.prefix(200))")
        // No places, no terminal: an error that lists the recent trips.
        let none = try Self.plan([], feed: bart, state: state)
        #expect(none.status != 0 && none.stderr.contains("Recent trips: West Dublin/Pleasanton → Powell St."), "\(none.stderr)")
    }

    @Test("--server gives the same output as in process; --map draws the trip")
    func serverAndMap() throws {
        let db = try TestDatabase()
        defer { db.drop() }
        _ = try FeedImporter(db: try db.connect()).importFeed(at: FeedFixtures.bundledFeed("bart-2018"), feedId: "bart")
        // The same token key for the server and the command: the same tripTokens.
        let server = try ServerProcess(databaseURL: db.url, setting: testTokenSecret)
        try server.waitUntil("the feed served") { h in (h["feeds"] as? [Any])?.count == 1 }
        let state = try FeedFixtures.makeTemporaryDirectory(prefix: "plan-state")
        defer { try? FileManager.default.removeItem(at: state); _ = server.stop() }
        for args in [["Downtown Berkeley", "Dublin/Pleasanton", "--at", "2018-06-05T10:00"],
                     ["37.8044,-122.2712", "Civic Center", "--arrive-by", "2018-06-05T18:00", "--option", "2"],
                     ["Dublin", "Powell", "--at", "2018-06-05T09:00"],
                     ["12th St", "San Francisco Airport", "--at", "2031-01-07T08:15"]] {
            let local = try Self.plan(args + ["--database", db.url], feed: nil, state: state)
            let remote = try Self.plan(args + ["--server", "http://127.0.0.1:\(server.port)"], feed: nil, state: state)
            #expect(local.stdout == remote.stdout, "\(args):\n\(local.stdout)\n---\n\(remote.stdout)")
            #expect(local.stderr.split(separator: "\n").last == remote.stderr.split(separator: "\n").last, "\(args)")
            #expect(local.status == remote.status)
            let localJSON = try Self.plan(args.filter { $0 != "--option" && $0 != "2" } + ["--json", "--database", db.url], feed: nil,
                                          env: testTokenSecret, state: state)
            let remoteJSON = try Self.plan(args.filter { $0 != "--option" && $0 != "2" } + ["--json", "--server", "http://127.0.0.1:\(server.port)"], feed: nil,
                                           state: state)
            if localJSON.stdout.hasPrefix("{\"error\":null") {
                #expect(localJSON.stdout.contains("\"tripToken\":\"AQ"), "in process with the key, the tokens too")
            }
            #expect(localJSON.stdout == remoteJSON.stdout, "\(args): --json differs between in process and --server")
        }
        let svg = state.appendingPathComponent("trip.svg")
        let r = try Self.plan(["Downtown Berkeley", "Dublin/Pleasanton", "--at", "2018-06-05T10:00", "--map", svg.path, "--database", db.url],
                              feed: nil, state: state)
        #expect(r.status == 0 && r.stdout.contains("Map of option 1: \(svg.path)"), "\(r.stderr)")
        let text = try String(contentsOf: svg, encoding: .utf8)
        for needle in ["id=\"network\"", "id=\"legs\"", "data-role=\"start\"", "data-role=\"destination\"", "#2E7D32", "#C62828"] {
            #expect(text.contains(needle), "the map has no \(needle)")
        }
    }
}
