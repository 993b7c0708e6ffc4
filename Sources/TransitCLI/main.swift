import ArgumentParser
import Foundation
import NIOCore
import NIOPosix

// `transit serve`: Swift's tasks run on NIO's event loops rather than on a pool of their
// own, so a request is read, handled and answered on its connection's thread; with two
// pools every request crossed from one to the other and back (measured on 2 cores at 16
// connections: p99 40 → 36 ms, requests/s +10%, medians of 5 alternating runs). This has
// to happen before any task runs, hence a main.swift and not `@main`.
if CommandLine.arguments.dropFirst().first == "serve" {
    NIOSingletons.unsafeTryInstallSingletonPosixEventLoopGroupAsConcurrencyGlobalExecutor()
}
await Transit.start()

extension Transit {
    /// Called from a function, not from the top level: there, `main()` resolved to the
    /// synchronous one, which prints the help of async commands instead of running them.
    ///
    /// As `main()`, except that an error of the command line itself (an unknown option,
    /// a value that is not a number) starts with the same `error: ` as every other error
    /// of `transit` (the parser's own is `Error: `), and `transit plan --json` answers
    /// it as the API's error object on standard output.
    static func start() async {
        let command: ParsableCommand
        do { command = try parseAsRoot() } catch { reportUsageError(error) }
        do {
            if var asyncCommand = command as? AsyncParsableCommand { try await asyncCommand.run() } else {
                var plain = command
                try plain.run()
            }
        } catch let e as ExitCode {
            exit(withError: e)
        } catch {
            // Anything a command did not turn into its own message: still `error: …`.
            reportUsageError(error)
        }
    }

    /// A command line that could not be read (or an error no command turned into its own
    /// message): help and `--version` as the parser does them, anything else as
    /// `error: …` and, for the command line, the usage (or JSON, see `start`).
    static func reportUsageError(_ error: Error) -> Never {
        let code = exitCode(for: error)
        guard code != .success else { exit(withError: error) }
        let args = CommandLine.arguments.dropFirst()
        if args.first == "plan" && args.contains("--json") {
            let e = CLIError(message(for: error), code: "BAD_PARAMETER")
            FileHandle.standardOutput.write(Data((e.json + "\n").utf8))
            exit(withError: code)
        }
        var text = fullMessage(for: error)
        guard !text.isEmpty else { exit(withError: error) }
        if text.hasPrefix("Error: ") { text = "error: " + text.dropFirst("Error: ".count) }
        FileHandle.standardError.write(Data((text + "\n").utf8))
        exit(withError: code)
    }
}
