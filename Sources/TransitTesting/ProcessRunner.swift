import Foundation

/// Runs programs for tests: the `transit` binary, unzip, zip.
///
/// Output goes to temporary files rather than pipes, so a chatty child can never block on
/// a full pipe, and a test can watch the output of a child that is still running.
public enum ProcessRunner {
    public struct Result: Sendable {
        public let status: Int32
        /// True when the child ended by a signal (`status` is then the signal number).
        public let signaled: Bool
        public let stdout: String
        public let stderr: String
    }

    /// A child that is still running, with its output files.
    public final class Running: @unchecked Sendable {
        public let process: Process
        public let stdoutURL: URL
        public let stderrURL: URL
        private let dir: URL

        init(process: Process, dir: URL) {
            self.process = process
            self.dir = dir
            stdoutURL = dir.appendingPathComponent("stdout")
            stderrURL = dir.appendingPathComponent("stderr")
        }

        public var pid: Int32 { process.processIdentifier }
        public var isRunning: Bool { process.isRunning }

        /// What the child wrote to standard error so far.
        public var stderrSoFar: String { (try? String(contentsOf: stderrURL, encoding: .utf8)) ?? "" }
        public var stdoutSoFar: String { (try? String(contentsOf: stdoutURL, encoding: .utf8)) ?? "" }

        /// Sends a signal (SIGKILL by default) to the child.
        public func kill(_ signal: Int32 = SIGKILL) {
            if process.isRunning { _ = Foundation.kill(process.processIdentifier, signal) }
        }

        /// Waits for the child to end (killing it after `timeout` seconds) and collects its output.
        public func wait(timeout: Double = 300) -> Result {
            let deadline = Date().addingTimeInterval(timeout)
            while process.isRunning && Date() < deadline { usleep(20_000) }
            if process.isRunning {
                kill()
            }
            process.waitUntilExit()
            let result = Result(status: process.terminationStatus,
                                signaled: process.terminationReason == .uncaughtSignal,
                                stdout: stdoutSoFar, stderr: stderrSoFar)
            try? FileManager.default.removeItem(at: dir)
            return result
        }
    }

    /// Finds a tool in /usr/bin, /bin, /usr/local/bin or PATH.
    public static func findTool(_ name: String) throws -> String {
        var dirs = ["/usr/bin", "/bin", "/usr/local/bin"]
        dirs += (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map(String.init)
        for d in dirs {
            let p = (d as NSString).appendingPathComponent(name)
            if FileManager.default.isExecutableFile(atPath: p) { return p }
        }
        throw TestSetupError("\(name) is not installed (looked in \(dirs.joined(separator: ":")))")
    }

    /// Starts a program. `environment` replaces the whole environment when given; use
    /// `environment(setting:removing:)` to derive one from the current one.
    public static func start(executable: String, _ arguments: [String], environment: [String: String]? = nil,
                             currentDirectory: String? = nil) throws -> Running {
        let dir = try FeedFixtures.makeTemporaryDirectory(prefix: "proc")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        if let environment { process.environment = environment }
        if let currentDirectory { process.currentDirectoryURL = URL(fileURLWithPath: currentDirectory) }
        let running = Running(process: process, dir: dir)
        _ = FileManager.default.createFile(atPath: running.stdoutURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: running.stderrURL.path, contents: nil)
        let out = try FileHandle(forWritingTo: running.stdoutURL)
        let err = try FileHandle(forWritingTo: running.stderrURL)
        defer {
            try? out.close()
            try? err.close()
        }
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()
        return running
    }

    /// Runs a program to completion.
    public static func run(executable: String, _ arguments: [String], environment: [String: String]? = nil,
                           currentDirectory: String? = nil, timeout: Double = 300) throws -> Result {
        try start(executable: executable, arguments, environment: environment, currentDirectory: currentDirectory)
            .wait(timeout: timeout)
    }

    /// The current environment with some variables set and others removed.
    public static func environment(setting: [String: String] = [:], removing: [String] = []) -> [String: String] {
        var env = ProcessInfo.processInfo.environment
        for k in removing { env.removeValue(forKey: k) }
        for (k, v) in setting { env[k] = v }
        return env
    }
}

/// The `transit` executable built next to the test bundle.
public enum TransitBinary {
    /// `TRANSIT_BIN` when set; else a `transit` file in the build folder of the running test
    /// bundle (found by walking up from the bundle and from argv[0]).
    public static func path() throws -> String {
        if let env = ProcessInfo.processInfo.environment["TRANSIT_BIN"], !env.isEmpty {
            guard FileManager.default.isExecutableFile(atPath: env) else {
                throw TestSetupError("TRANSIT_BIN=\(env) is not an executable file")
            }
            return env
        }
        var starts = [Bundle.main.bundleURL, Bundle.main.executableURL ?? Bundle.main.bundleURL]
        if let arg0 = ProcessInfo.processInfo.arguments.first {
            starts.append(URL(fileURLWithPath: arg0).standardizedFileURL.resolvingSymlinksInPath())
        }
        var looked: [String] = []
        for start in starts {
            var dir = start
            for _ in 0..<6 {
                let candidate = dir.appendingPathComponent("transit")
                looked.append(dir.path)
                var isDir: ObjCBool = false
                if FileManager.default.fileExists(atPath: candidate.path, isDirectory: &isDir), !isDir.boolValue,
                   FileManager.default.isExecutableFile(atPath: candidate.path) {
                    return candidate.path
                }
                if dir.path == "/" { break }
                dir = dir.deletingLastPathComponent()
            }
        }
        throw TestSetupError("""
            the transit executable was not found next to the tests (looked in \(Set(looked).sorted().joined(separator: ", "))): \
            build it with `swift build --build-tests` (or --product transit), or set TRANSIT_BIN
            """)
    }

    /// Runs `transit` with arguments; `databaseURL` sets DATABASE_URL (nil removes it).
    public static func run(_ arguments: [String], databaseURL: String?, timeout: Double = 300) throws -> ProcessRunner.Result {
        try ProcessRunner.run(executable: path(), arguments, environment: environment(databaseURL: databaseURL),
                              currentDirectory: FeedFixtures.repositoryRoot().path, timeout: timeout)
    }

    /// Starts `transit` without waiting for it.
    /// `setting`: more environment variables (e.g. `TRANSIT_TOKEN_SECRET`).
    public static func start(_ arguments: [String], databaseURL: String?, setting: [String: String] = [:]) throws -> ProcessRunner.Running {
        try ProcessRunner.start(executable: path(), arguments, environment: environment(databaseURL: databaseURL).merging(setting) { $1 },
                                currentDirectory: FeedFixtures.repositoryRoot().path)
    }

    /// Wide output (`COLUMNS`): the tests read whole lines; `transit plan` wraps to 80
    /// columns when not on a terminal. English whatever the machine's locale (`transit plan` follows `LANG`).
    static func environment(databaseURL: String?) -> [String: String] {
        let english = ["COLUMNS": "250", "LANG": "C.UTF-8"], locale = ["LC_ALL", "LC_MESSAGES"]
        if let databaseURL { return ProcessRunner.environment(setting: english.merging(["DATABASE_URL": databaseURL]) { $1 }, removing: locale) }
        return ProcessRunner.environment(setting: english, removing: ["DATABASE_URL"] + locale)
    }
}
