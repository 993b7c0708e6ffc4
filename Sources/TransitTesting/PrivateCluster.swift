import Foundation

/// A PostgreSQL cluster of a test's own (`Scripts/postgres.sh` with `TRANSIT_PG_BASE`), for
/// the fault tests that stop and restart the database: the checkout's shared cluster keeps
/// serving every other test meanwhile.
public final class PrivateCluster: @unchecked Sendable {
    /// The cluster's folder (data, socket, logs) in /tmp.
    public let base: String
    /// `postgresql://…/transit` of the running cluster (set by `start`).
    public private(set) var url = ""

    /// Creates and starts a cluster named after `name` and this process.
    public init(name: String) throws {
        // The socket path (base + "/.s.PGSQL.NNNNN") must stay under 107 bytes.
        base = "/tmp/transit-pg-\(name)-\(getpid())"
        try start()
    }

    /// Starts the cluster (again, after `stop`); a crash (`stop(immediate: true)`) recovers here.
    public func start() throws {
        let r = try script(["start"])
        guard r.status == 0, let line = r.stdout.split(separator: "\n").first(where: { $0.hasPrefix("export DATABASE_URL=") }) else {
            throw TestSetupError("could not start a private PostgreSQL in \(base): \(r.stderr)")
        }
        url = String(line.dropFirst("export DATABASE_URL=".count)).trimmingCharacters(in: CharacterSet(charactersIn: "'"))
    }

    /// Stops the cluster: a fast shutdown (what `systemctl stop` does: sessions are ended,
    /// open transactions rolled back), or `immediate`, which is what a crash looks like.
    public func stop(immediate: Bool = false) throws {
        let r = try script(["stop"] + (immediate ? ["--immediate"] : []))
        guard r.status == 0 else { throw TestSetupError("could not stop the private PostgreSQL in \(base): \(r.stderr)") }
    }

    /// Stops the cluster and deletes its folder.
    public func remove() {
        _ = try? script(["stop", "--purge"])
    }

    /// Runs Scripts/postgres.sh with posix_spawn and waitpid, not Foundation's `Process`: on
    /// Linux `Process` sees its child end only when every holder of a socket it hands the
    /// child has closed it, and the postmaster that `pg_ctl` leaves running holds it for good,
    /// so `start` would never return.
    private func script(_ arguments: [String]) throws -> (status: Int32, stdout: String, stderr: String) {
        let root = FeedFixtures.repositoryRoot()
        let dir = try FeedFixtures.makeTemporaryDirectory(prefix: "pgscript")
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("stdout").path, err = dir.appendingPathComponent("stderr").path
        let path = root.appendingPathComponent("Scripts/postgres.sh").path
        var env = ProcessRunner.environment(setting: ["TRANSIT_PG_BASE": base], removing: ["TRANSIT_PG_PORT"])
        env.removeValue(forKey: "DATABASE_URL")
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, out, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_addopen(&actions, 2, err, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        let envp = env.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, path, &actions, nil, argv, envp)
        guard spawned == 0 else { throw TestSetupError("could not run \(path): \(String(cString: strerror(spawned)))") }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        let read = { (p: String) in (try? String(contentsOfFile: p, encoding: .utf8)) ?? "" }
        // WIFEXITED/WEXITSTATUS are macros Swift does not import.
        let exited = status & 0x7f == 0
        return (exited ? (status >> 8) & 0xff : 128 + (status & 0x7f), read(out), read(err))
    }
}
