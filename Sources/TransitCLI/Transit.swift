import ArgumentParser
import Foundation
import GTFS
import TransitStore

struct Transit: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "transit",
        abstract: "A transit routing service: GTFS feeds into PostgreSQL, and trips across them.",
        subcommands: [ImportCommand.self, FeedsCommand.self, PlanCommand.self, CoverageCommand.self, ServeCommand.self, BenchCommand.self, OpenAPICommand.self]
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
struct CLIError: Error, CustomStringConvertible {
    let description: String
    init(_ message: String) { description = message }
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

    static func err(_ s: String) { FileHandle.standardError.write(Data((s + "\n").utf8)) }
    static func errRaw(_ s: String) { FileHandle.standardError.write(Data(s.utf8)) }

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

func runReportingErrors(_ body: () throws -> Void) throws {
    do { try body() } catch let e as CLIError {
        Output.err("error: \(e.description)")
        throw ExitCode.failure
    } catch let e as StoreError {
        Output.err("error: \(e.message)")
        throw ExitCode.failure
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
