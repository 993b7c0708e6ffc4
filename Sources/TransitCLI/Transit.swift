import ArgumentParser
import Foundation
import GTFS
import PlanJSON
import Planner
import TransitStore

struct Transit: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "transit",
        abstract: "A transit routing service: GTFS feeds into PostgreSQL, and trips across them.",
        subcommands: [ImportCommand.self, ValidateCommand.self, ImportOSMCommand.self, FeedsCommand.self, PlanCommand.self, FollowCommand.self, CoverageCommand.self, ServeCommand.self, BenchCommand.self, OpenAPICommand.self]
    )
}

/// Where the database is: `--database`, else `DATABASE_URL`.
struct DatabaseOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("PostgreSQL connection URL (default: $DATABASE_URL).", valueName: "url"))
    var database: String?

    func url() throws -> String {
        guard let url = database ?? ProcessInfo.processInfo.environment["DATABASE_URL"], !url.isEmpty else {
            throw CLIError("no database given: set DATABASE_URL or pass --database (start one with: eval \"$(Scripts/postgres.sh start)\")")
        }
        return url
    }

    func connect() throws -> PGConnection {
        let url = try url()
        do { return try PGConnection(url: url) } catch let e as StoreError { throw CLIError(e.message) }
    }
}

/// A message for the person at the terminal; printed without a stack trace, exit 1.
/// With `--json` it is the API's error object instead (`{"error": {"code", "message",
/// "details"}}` on standard output): `code` is the API's code where one fits
/// (`UNKNOWN_STOP`, `BAD_PARAMETER`), else the command's own (`AMBIGUOUS_PLACE`,
/// `OPTION_OUT_OF_RANGE`, `SERVER_UNREACHABLE`, `NO_RECENT_TRIP`).
struct CLIError: Error, CustomStringConvertible {
    let description: String
    let code: String
    let details: [String: PlanDetail]
    init(_ message: String, code: String = "BAD_REQUEST", details: [String: PlanDetail] = [:]) {
        description = message; self.code = code; self.details = details
    }

    /// The API's error object for this error.
    var json: String {
        PlanAnswerJSON.encode(["error": ["code": code, "message": description, "details": details.mapValues(\.json)] as [String: Any]])
    }
}

enum Output {
    static let stdoutIsTerminal = isatty(STDOUT_FILENO) == 1
    static let stderrIsTerminal = isatty(STDERR_FILENO) == 1
    static let stdinIsTerminal = isatty(STDIN_FILENO) == 1
    /// Questions may be asked: a person at a terminal on both ends.
    static var interactive: Bool { stdinIsTerminal && stdoutIsTerminal }
    /// Colour on a terminal, unless NO_COLOR (https://no-color.org) is set or TERM is dumb.
    static let colour: Bool = {
        let env = ProcessInfo.processInfo.environment
        return stdoutIsTerminal && (env["NO_COLOR"] ?? "").isEmpty && env["TERM"] != "dumb"
    }()

    /// A line on standard error, after whatever standard output holds (a note printed
    /// before an error stays before it when both go to one file or terminal).
    static func err(_ s: String) {
        fflush(nil)
        FileHandle.standardError.write(Data((clearProgress() + s + "\n").utf8))
    }
    static func errRaw(_ s: String) { FileHandle.standardError.write(Data(s.utf8)) }

    /// The columns text is wrapped to: the terminal's width when standard output is one
    /// (`$COLUMNS` when the terminal does not say); otherwise `$COLUMNS` when set (a
    /// pipe into a pager, the tests), else 80.
    static let width: Int = {
        if stdoutIsTerminal {
            var size = winsize()
            if ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 { return Int(size.ws_col) }
        }
        if let c = ProcessInfo.processInfo.environment["COLUMNS"].flatMap({ Int($0) }), c > 0 { return c }
        return 80
    }()

    /// Columns of the progress line on the terminal now (0: none), to be written over.
    nonisolated(unsafe) static var progressShown = 0

    /// What takes the progress line off the terminal: a carriage return, spaces over
    /// it, a carriage return (no escape sequences: a dumb terminal, NO_COLOR).
    static func clearProgress() -> String {
        guard progressShown > 0 else { return "" }
        defer { progressShown = 0 }
        return "\r" + String(repeating: " ", count: progressShown) + "\r"
    }

    /// Progress of long work on standard error, one line written over in place: only on
    /// a terminal (a log or a pipe gets the final line alone, see `progressDone`), never
    /// on standard output. An empty line takes it away.
    static func progress(_ s: String) {
        guard stderrIsTerminal && ProcessInfo.processInfo.environment["TERM"] != "dumb" else { return }
        errRaw(clearProgress() + s)
        progressShown = s.count
    }

    /// The line that ends a progress line: on a terminal (over the progress), or anywhere
    /// with `TRANSIT_VERBOSE` set.
    static func progressDone(_ s: String) {
        if stderrIsTerminal || ProcessInfo.processInfo.environment["TRANSIT_VERBOSE"] != nil { err(s) }
    }

    static func grouped(_ n: Int) -> String {
        let s = String(n)
        var out = ""
        for (i, c) in s.reversed().enumerated() {
            if i > 0 && i % 3 == 0 && c != "-" { out.append(",") }
            out.append(c)
        }
        return String(out.reversed())
    }

    static func seconds(_ s: Double) -> String { String(format: s < 10 ? "%.2f s" : "%.1f s", s) }

    static func rate(_ rows: Int, _ seconds: Double) -> String {
        guard seconds > 0.001, rows >= 10_000 else { return "" }
        let r = Double(rows) / seconds
        return r >= 1_000_000 ? String(format: "%.2fM rows/s", r / 1_000_000) : String(format: "%.0fk rows/s", r / 1000)
    }

    static func pad(_ s: String, _ n: Int, right: Bool = false) -> String {
        s.count >= n ? s : (right ? String(repeating: " ", count: n - s.count) + s : s + String(repeating: " ", count: n - s.count))
    }
}

/// Runs a command's work; a `CLIError` or `StoreError` becomes one line `error: …` on
/// standard error (or, with `json`, the API's error object on standard output) and exit 1.
func runReportingErrors(json: Bool = false, _ body: () throws -> Void) throws {
    func report(_ e: CLIError) throws -> Never {
        if json {
            fflush(nil)
            FileHandle.standardOutput.write(Data((e.json + "\n").utf8))
        } else {
            Output.err("error: \(e.description)")
        }
        throw ExitCode.failure
    }
    do { try body() } catch let e as CLIError {
        try report(e)
    } catch let e as StoreError {
        try report(CLIError(e.message, code: "DATABASE_ERROR"))
    }
}

/// Why a declared place name cannot be used, or nil when it can.
func placeProblem(_ name: String) -> String? {
    let t = name.trimmingCharacters(in: .whitespaces)
    if t.isEmpty { return "the place is empty" }
    if t.count > 120 { return "the place is \(t.count) characters long; at most 120" }
    if t.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) { return "the place contains control characters" }
    return nil
}

/// `--place FEED=NAME` options: checked (`validatePlaces`), then as a map.
func validatePlaces(_ places: [String]) throws {
    for p in places {
        guard let eq = p.firstIndex(of: "="), eq != p.startIndex else {
            throw ValidationError("--place \"\(p)\" is not FEED=NAME, e.g. --place bart-2018=\"San Francisco Bay Area\"")
        }
        if let problem = placeProblem(String(p[p.index(after: eq)...])) { throw ValidationError("--place \"\(p)\": \(problem)") }
    }
}

func placeMap(_ places: [String]) -> [(feed: String, place: String)] {
    places.compactMap { p in
        guard let eq = p.firstIndex(of: "=") else { return nil }
        return (String(p[..<eq]), p[p.index(after: eq)...].trimmingCharacters(in: .whitespaces))
    }
}
