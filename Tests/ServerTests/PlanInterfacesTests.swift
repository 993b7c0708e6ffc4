import Foundation
import Testing
import TransitStore
import TransitTesting

/// `transit plan` and `transit serve` at their edges (issue 19, "Interfaces"), on real
/// feeds, recorded as golden text like `TripPlannerCLITests` (re-record on purpose with
/// `TRANSIT_RECORD_GOLDEN=1` and review the diff):
///
/// - `Tests/Golden/plan-interfaces.txt`: every failure with `--json` as the API's error
///   object on standard output and a failing status, and as one `error: …` line
///   without; `--again --option 2` (the table just seen), `--back`; the text wrapped to
///   80 and 40 columns.
/// - `Tests/Golden/plan-server-parity.txt`: times in words planned through a server of two
///   feeds, which must read exactly as in process.
@Suite("transit plan: errors, --again, --back, wrapping, --server parity", .serialized)
struct PlanInterfacesTests {
    typealias Run = TripPlannerCLITests.Run

    /// Runs, in order, sharing one recent-trips state; each printed as `$ transit plan …`,
    /// its standard output, its standard error (without the timetable's lines), its status.
    static func transcript(_ runs: [Run], feed: String?, state: URL) throws -> String {
        var text = ""
        for run in runs {
            let r = try TripPlannerCLITests.plan(run.args, feed: feed, env: run.env, state: state)
            let shownEnv = run.env.filter { $0.key != "TRANSIT_STATE_DIR" }.sorted { $0.key < $1.key }
            text += "$ " + shownEnv.map { "\($0.key)=\($0.value) " }.joined()
                + "transit plan " + run.args.map { $0.contains(" ") || $0.isEmpty ? "\"\($0)\"" : $0 }.joined(separator: " ") + "\n"
            text += r.stdout
            let errors = r.stderr.split(separator: "\n").filter { !$0.hasPrefix("note:") && !$0.hasPrefix("Timetable:") }
            if !errors.isEmpty { text += "[stderr]\n" + errors.map { $0 + "\n" }.joined() }
            if r.status != 0 { text += "(exit \(r.status))\n" }
            text += "\n"
            #expect(!r.signaled, "\(run.args): crashed")
        }
        return text
    }

    static func compare(_ text: String, golden name: String) throws {
        let url = TripPlannerCLITests.goldenDirectory.appendingPathComponent(name)
        if ProcessInfo.processInfo.environment["TRANSIT_RECORD_GOLDEN"] != nil {
            try Data(text.utf8).write(to: url)
            return
        }
        let recorded = try #require(try? String(contentsOf: url, encoding: .utf8), "no golden file \(url.path): record it with TRANSIT_RECORD_GOLDEN=1")
        if recorded != text {
            let a = recorded.split(separator: "\n", omittingEmptySubsequences: false), b = text.split(separator: "\n", omittingEmptySubsequences: false)
            let line = (0..<min(a.count, b.count)).first { a[$0] != b[$0] } ?? min(a.count, b.count)
            Issue.record("""
                the text differs from \(name) at line \(line + 1):
                  recorded: \(line < a.count ? String(a[line]) : "(end)")
                  now:      \(line < b.count ? String(b[line]) : "(end)")
                """)
        }
    }

    static let errorRuns: [Run] = [
        Run(args: ["Hogwarts Plaza", "Civic Center", "--at", "2018-06-05T08:30", "--json"]),
        Run(args: ["Dublin", "Powell", "--at", "2018-06-05T09:00", "--json"]),
        Run(args: ["12th St", "Powell", "--at", "25:99", "--json"]),
        Run(args: ["12th St", "Powell", "--at", "25:99"]),
        Run(args: ["12th St", "Powell", "--num", "many", "--json"]),
        Run(args: ["12th St", "Powell", "--num", "many"]),
        Run(args: ["12th St", "San Francisco Airport", "--at", "2018-06-05T08:30", "--option", "9", "--json"]),
        Run(args: ["12th St", "San Francisco Airport", "--at", "2031-01-07T08:15", "--json"]),
        // A note, then the error it explains.
        Run(args: ["12th St", "Civic Center", "--at", "monday 8:30", "--modes", "TRAM"], env: ["TRANSIT_NOW": TripPlannerCLITests.now]),
        Run(args: ["12th St", "Civic Center", "--at", "monday 8:30", "--modes", "TRAM", "--json"], env: ["TRANSIT_NOW": TripPlannerCLITests.now]),
        Run(args: ["--again", "--json"]),
    ]

    @Test("golden: errors as JSON and as one error: line; --again --option 2; --back; 80 and 40 columns")
    func golden() throws {
        let bart = try FeedFixtures.bundledFeed("bart-2018")
        let state = try FeedFixtures.makeTemporaryDirectory(prefix: "plan-state")
        defer { try? FileManager.default.removeItem(at: state) }
        var text = "# Failures: with --json, the API's error object on standard output; without, one error: line.\n\n"
        text += try Self.transcript(Self.errorRuns, feed: bart, state: state)
        // Not a server at all: refused at once.
        text += try Self.transcript([Run(args: ["12th St", "Powell", "--server", "http://127.0.0.1:1", "--json"]),
                                     Run(args: ["12th St", "Powell", "--server", "http://127.0.0.1:1"])], feed: nil, state: state)

        text += "# The table just seen, again: --again --option 2 keeps its time; --back plans the way back.\n\n"
        text += try Self.transcript([
            Run(args: ["Downtown Berkeley", "Dublin/Pleasanton", "--at", "tuesday 10:00"], env: ["TRANSIT_NOW": TripPlannerCLITests.now]),
            Run(args: ["--again", "--option", "2"], env: ["TRANSIT_NOW": "2026-11-21T23:50:00Z"]),
            Run(args: ["--back", "--at", "2018-06-05T17:30"]),
            Run(args: ["--again", "--option", "3"]),
            Run(args: ["--back", "--arrive-by", "2018-06-05T12:00", "--num", "2"]),
        ], feed: bart, state: state)

        text += "# Wrapped to the width: 80 columns when not a terminal, $COLUMNS when set.\n\n"
        let bydgoszcz = try FeedFixtures.sharedFeed("bydgoszcz-2020")
        text += try Self.transcript([
            Run(args: ["Dworzec Główny", "Rondo Jagiellonów", "--at", "2020-05-04T08:30"], env: ["COLUMNS": ""]),
            Run(args: ["Dworzec Główny", "Rondo Jagiellonów", "--at", "2020-05-04T08:30", "--option", "3"], env: ["COLUMNS": "40"]),
        ], feed: bydgoszcz, state: state)
        try Self.compare(text, golden: "plan-interfaces.txt")

        // The checks behind the text: JSON on standard output for every failure, status 1.
        for run in Self.errorRuns where run.args.contains("--json") {
            let r = try TripPlannerCLITests.plan(run.args, feed: bart, env: run.env, state: state)
            #expect(r.status != 0, "\(run.args): status 0")
            let o = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any]
            let e = o?["error"] as? [String: Any]
            #expect(e?["code"] is String && e?["message"] is String && e?["details"] is [String: Any], "\(run.args): \(r.stdout)")
            #expect(!r.stderr.contains("error:"), "\(run.args): an error line besides the JSON: \(r.stderr)")
        }
        for run in Self.errorRuns where !run.args.contains("--json") {
            let r = try TripPlannerCLITests.plan(run.args, feed: bart, env: run.env, state: state)
            let lines = r.stderr.split(separator: "\n").filter { !$0.hasPrefix("note:") && !$0.hasPrefix("Timetable:") && !$0.hasPrefix("Usage:") && !$0.hasPrefix("  See") && !$0.isEmpty }
            #expect(r.status != 0 && lines.first?.hasPrefix("error: ") == true, "\(run.args): \(r.stderr)")
        }
    }

    @Test("golden: the map of a trip on WMATA's yellow and orange lines: the title whole, light lines on a dark casing")
    func mapGolden() throws {
        let wmata = try FeedFixtures.sharedFeed("wmata-rail-2026")
        let state = try FeedFixtures.makeTemporaryDirectory(prefix: "plan-state")
        defer { try? FileManager.default.removeItem(at: state) }
        var text = "# transit plan --map: the SVG's title, and each leg's casing under its colour (data-casing=\"dark\" under\n"
            + "# a colour with less than 3:1 contrast on white: WMATA's yellow FFD100, orange ED8B00, silver 919D9D).\n\n"
        let runs: [[String]] = [
            ["Huntington", "L'Enfant Plaza", "--at", "2026-05-05T08:30"],
            ["Vienna", "Metro Center", "--at", "2026-05-05T08:30"],
            ["Shady Grove", "Gallery Place", "--at", "2026-05-05T08:30"],
        ]
        for args in runs {
            let svg = state.appendingPathComponent("map.svg")
            let run = Run(args: args + ["--map", svg.path])
            let r = try TripPlannerCLITests.plan(run.args, feed: wmata, env: run.env, state: state)
            try #require(r.status == 0, "\(args): \(r.stderr)")
            let doc = try String(contentsOf: svg, encoding: .utf8)
            text += "$ transit plan " + args.map { $0.contains(" ") ? "\"\($0)\"" : $0 }.joined(separator: " ")
                + " --map map.svg\n"
            let lines = doc.split(separator: "\n").map(String.init)
            text += (lines.first { $0.hasPrefix("<text id=\"title\"") } ?? "(no title)") + "\n"
            // Casings and legs pair up in leg order: the colour and the casing of each.
            let casings = lines.drop { !$0.hasPrefix("<g id=\"legs-casing\"") }.dropFirst().prefix { $0 != "</g>" }
            let legs = lines.drop { !$0.hasPrefix("<g id=\"legs\"") }.dropFirst().prefix { $0 != "</g>" }
            #expect(casings.count == legs.count)
            func attribute(_ name: String, _ line: String) -> String? {
                guard let r = line.range(of: name + "=\"") else { return nil }
                return String(line[r.upperBound...].prefix { $0 != "\"" })
            }
            for (casing, leg) in zip(casings, legs) {
                let colour = attribute("stroke", leg) ?? "?"
                text += "  leg \(attribute("data-leg", leg) ?? "?") \(attribute("data-mode", leg) ?? "?") \(colour): casing \(attribute("stroke", casing) ?? "white (the group's)")\n"
                let light = colour.count == 7 && ItinerarySVGContrast.light(colour)
                #expect((attribute("data-casing", casing) == "dark") == (light && attribute("data-mode", leg) != "walk"), "\(leg)")
            }
            text += "\n"
        }
        try Self.compare(text, golden: "plan-map.txt")
    }

    @Test("progress on a terminal while the timetable loads and coverage is worked out; none in a pipe, nothing on stdout")
    func progress() throws {
        let caltrain = try FeedFixtures.bundledFeed("caltrain")
        let env = ProcessRunner.environment(setting: ["TERM": "xterm-256color", "NO_COLOR": "1"], removing: ["DATABASE_URL", "TRANSIT_VERBOSE"])
        let t = try PseudoTerminal(executable: try TransitBinary.path(), ["coverage", "--gtfs", caltrain, "--today", "2019-01-01"],
                                   environment: env, currentDirectory: FeedFixtures.repositoryRoot().path)
        #expect(t.finish() == 0, "\(t.screen)")
        for line in ["Timetable: reading \(caltrain)…", "Timetable: caltrain: building from 4,560 stop times…",
                     "Timetable: caltrain: 4,560 stop times", "Coverage: working out the regions of 1 feed…", "Coverage: 1 region worked out in "] {
            #expect(t.plainScreen.contains(line), "no \"\(line)\" on the terminal:\n\(t.plainScreen.prefix(600))")
        }
        // Each progress line is written over (a carriage return), not left as a line of its own.
        #expect(!t.plainScreen.contains("Coverage: working out the regions of 1 feed…\n"))
        // In a pipe: standard output is the report alone, standard error quiet (unless TRANSIT_VERBOSE).
        let piped = try ProcessRunner.run(executable: try TransitBinary.path(), ["coverage", "--gtfs", caltrain, "--today", "2019-01-01"],
                                          environment: env, currentDirectory: FeedFixtures.repositoryRoot().path)
        #expect(piped.status == 0 && !piped.stdout.contains("Coverage:") && !piped.stdout.contains("Timetable:"))
        #expect(piped.stderr.isEmpty, "\(piped.stderr)")
        var verbose = env
        verbose["TRANSIT_VERBOSE"] = "1"
        let logged = try ProcessRunner.run(executable: try TransitBinary.path(), ["coverage", "--gtfs", caltrain, "--today", "2019-01-01"],
                                           environment: verbose, currentDirectory: FeedFixtures.repositoryRoot().path)
        let lines = logged.stderr.split(separator: "\n")
        #expect(lines.count == 2 && lines[0].hasPrefix("Timetable: caltrain: 4,560 stop times") && lines[1].hasPrefix("Coverage: 1 region worked out in "),
                "\(logged.stderr)")
    }

    @Test("--again --option N is option N of the table just seen, whatever the clock says now")
    func againKeepsTheTable() throws {
        let bart = try FeedFixtures.bundledFeed("bart-2018")
        let state = try FeedFixtures.makeTemporaryDirectory(prefix: "plan-state")
        defer { try? FileManager.default.removeItem(at: state) }
        let first = try TripPlannerCLITests.plan(["12th St", "Powell", "--at", "now"], feed: bart, env: ["TRANSIT_NOW": "2026-11-24T16:00:00Z"], state: state)
        try #require(first.status == 0, "\(first.stderr)")
        let again = try TripPlannerCLITests.plan(["--again", "--option", "2"], feed: bart, env: ["TRANSIT_NOW": "2026-11-25T03:00:00Z"], state: state)
        try #require(again.status == 0, "\(again.stderr)")
        // The same header and table; the steps are option 2's.
        // (The first run's note on the date it moved to is not repeated: the header says the date.)
        let table = { (s: String) in
            (s.components(separatedBy: "\nSteps of option").first ?? "").split(separator: "\n").filter { !$0.hasPrefix("Note:") }
        }
        #expect(table(first.stdout) == table(again.stdout), "\(first.stdout)\n---\n\(again.stdout)")
        #expect(again.stdout.contains("Steps of option 2"))
        // --back: the places swapped, planned at the time given.
        let back = try TripPlannerCLITests.plan(["--back", "--at", "2018-06-05T18:00"], feed: bart, state: state)
        #expect(back.status == 0 && back.stdout.hasPrefix("Powell St. → 12th St. Oakland City Center, leave at 18:00"), "\(back.stdout.prefix(200)) \(back.stderr)")
    }

    @Test("--server plans times in words on the dates of the feed serving the start, as in process (two feeds)")
    func serverParity() throws {
        let db = try TestDatabase()
        defer { db.drop() }
        _ = try FeedImporter(db: try db.connect()).importFeed(at: FeedFixtures.bundledFeed("bart-2018"), feedId: "bart")
        _ = try FeedImporter(db: try db.connect()).importFeed(at: FeedFixtures.sharedFeed("bydgoszcz-2020"), feedId: "bydgoszcz")
        let server = try ServerProcess(databaseURL: db.url)
        try server.waitUntil("both feeds served") { h in (h["feeds"] as? [Any])?.count == 2 }
        let state = try FeedFixtures.makeTemporaryDirectory(prefix: "plan-state")
        defer { try? FileManager.default.removeItem(at: state); _ = server.stop() }
        let now = ["TRANSIT_NOW": TripPlannerCLITests.now]
        let runs: [Run] = [
            // Bydgoszcz's dates (2020) and zone (Europe/Warsaw: "now" is 11:00 there, not 10:00).
            Run(args: ["Dworzec Główny", "Rondo Jagiellonów", "--at", "monday 8:30"], env: now),
            Run(args: ["53.1347,17.9927", "Rondo Jagiellonów", "--arrive-by", "17:45"], env: now),
            Run(args: ["Dworzec Główny", "Rondo Jagiellonów"], env: now),
            // BART's dates: both feeds together end in 2020, when BART has no service.
            Run(args: ["12th St", "Powell", "--at", "tuesday 8:30"], env: now),
            Run(args: ["stop:bart:12TH", "Powell", "--at", "9:00"], env: now),
        ]
        var text = "# Two feeds (bart, bydgoszcz) in one server; TRANSIT_NOW=\(TripPlannerCLITests.now). Each run through\n"
            + "# --server reads exactly as with --database (checked); the server's text is recorded.\n\n"
        for run in runs {
            let local = try TripPlannerCLITests.plan(run.args + ["--database", db.url], feed: nil, env: run.env, state: state)
            let remote = try TripPlannerCLITests.plan(run.args + ["--server", "http://127.0.0.1:\(server.port)"], feed: nil, env: run.env, state: state)
            #expect(local.stdout == remote.stdout, "\(run.args):\n\(local.stdout)\n--- server:\n\(remote.stdout)")
            #expect(local.status == remote.status)
            #expect(!remote.stdout.contains("outside the timetable's dates (2009"), "\(run.args): the dates of both feeds together")
        }
        text += try Self.transcript(runs.map { Run(args: $0.args + ["--server", "http://127.0.0.1:\(server.port)"], env: $0.env) },
                                    feed: nil, state: state)
            .replacingOccurrences(of: "http://127.0.0.1:\(server.port)", with: "http://127.0.0.1:PORT")
        try Self.compare(text, golden: "plan-server-parity.txt")
    }

    @Test("CORS: preflight 204 on every path; Allow-Origin only for the origins given; errors carry it too")
    func cors() throws {
        let db = try TestDatabase()
        defer { db.drop() }
        _ = try FeedImporter(db: try db.connect()).importFeed(at: FeedFixtures.bundledFeed("bart-2018"), feedId: "bart")
        let open = try ServerProcess(databaseURL: db.url, arguments: ["--cors-origin", "https://maps.example.org", "--cors-origin", "http://localhost:3000"])
        let closed = try ServerProcess(databaseURL: db.url)
        defer { _ = open.stop(); _ = closed.stop() }
        try open.waitUntil("the feed served") { h in (h["feeds"] as? [Any])?.count == 1 }
        try closed.waitUntil("the feed served") { h in (h["feeds"] as? [Any])?.count == 1 }
        let paths = ["/v1/plan", "/v1/coverage", "/v1/coverage/bart.geojson", "/v1/stops", "/v1/stops/POWL", "/v1/health", "/openapi.json"]
        // The preflight is in the document, as every answer is.
        let v = try validator(open)
        for path in paths {
            expectConforms(v, path, try open.request(path, method: "OPTIONS", headers: ["Origin": "https://maps.example.org"]), method: "OPTIONS")
        }
        for server in [open, closed] {
            for path in paths {
                let r = try server.request(path, method: "OPTIONS", headers: ["Origin": "https://maps.example.org", "Access-Control-Request-Method": "GET"])
                #expect(r.status == 204, "OPTIONS \(path): \(r.status) \(r.text)")
                #expect(r.headers["access-control-allow-methods"] == "GET, OPTIONS", "\(path): \(r.headers)")
                #expect(r.headers["access-control-allow-headers"] != nil && r.headers["access-control-max-age"] == "600", "\(path): \(r.headers)")
                #expect(r.headers["access-control-allow-origin"] == (server === open ? "https://maps.example.org" : nil), "\(path): \(r.headers)")
            }
            // Not an API path: still 404.
            #expect(try server.request("/nowhere", method: "OPTIONS").status == 404)
        }
        // Answers and errors: the origin allowed is echoed, with Vary: Origin; another origin gets nothing.
        let ok = try open.request("/v1/stops?query=powell", headers: ["Origin": "http://localhost:3000"])
        #expect(ok.status == 200 && ok.headers["access-control-allow-origin"] == "http://localhost:3000" && ok.headers["vary"] == "Origin")
        let bad = try open.request("/v1/plan?from=nowhere", headers: ["Origin": "https://maps.example.org"])
        #expect(bad.status == 400 && bad.headers["access-control-allow-origin"] == "https://maps.example.org")
        let other = try open.request("/v1/health", headers: ["Origin": "https://evil.example"])
        #expect(other.status == 200 && other.headers["access-control-allow-origin"] == nil)
        #expect(try closed.request("/v1/health", headers: ["Origin": "https://maps.example.org"]).headers["access-control-allow-origin"] == nil)

        // Any origin.
        let any = try ServerProcess(databaseURL: db.url, arguments: ["--cors-origin", "*"])
        defer { _ = any.stop() }
        try any.waitUntil("the feed served") { h in (h["feeds"] as? [Any])?.count == 1 }
        let star = try any.request("/v1/health", headers: ["Origin": "https://anyone.example"])
        #expect(star.headers["access-control-allow-origin"] == "*" && star.headers["vary"] == nil)
        // A wrong origin is refused at start, in one sentence.
        let wrong = try TransitBinary.run(["serve", "--cors-origin", "example.org/path"], databaseURL: db.url)
        #expect(wrong.status != 0 && wrong.stderr.hasPrefix("error: --cors-origin example.org/path is not an origin"), "\(wrong.stderr)")
    }
}

/// WCAG contrast with white, computed here again (not the renderer's function) so that
/// the golden's check does not take the renderer's word for it.
enum ItinerarySVGContrast {
    static func light(_ hex: String) -> Bool {
        let v = Int(hex.dropFirst(), radix: 16) ?? 0
        let c = [v >> 16 & 255, v >> 8 & 255, v & 255].map { x -> Double in
            let s = Double(x) / 255
            return s <= 0.03928 ? s / 12.92 : pow((s + 0.055) / 1.055, 2.4)
        }
        let luminance = 0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2]
        return 1.05 / (luminance + 0.05) < 3
    }
}
