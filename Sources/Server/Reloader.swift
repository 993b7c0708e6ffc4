import Foundation
import Logging
import Planner
import Timetable
import TransitModel
import TransitStore

/// Keeps the served timetable in step with the database: LISTENs on the feeds' change
/// channel (imports and removals NOTIFY on commit, street imports too: `streets REGION
/// VERSION`), loads the feeds and the streets and builds a new timetable
/// beside the one being served, and swaps it in. Any number of servers sharing one
/// database each do this on their own. When the database is down it says so (in the log
/// and `/v1/health`), keeps serving what it has, and reconnects with growing pauses.
///
/// Runs on its own thread: libpq is blocking, and loading is seconds of CPU that must not
/// hold up request handling.
public final class Reloader: @unchecked Sendable {
    let url: String
    let live: LiveTimetable
    let feeds: [String]?
    let places: [String: String]
    let logger: Logger
    /// Seconds between checks when nothing is heard: catches a notification missed while
    /// the connection was down, and finds a dead database for `/v1/health`.
    let quietCheck: Double

    /// Where the built timetables' images are (`NetworkLoad`): read on start and on each new
    /// version when current, written after a build.
    let images: ImageFolder

    public init(url: String, live: LiveTimetable, feeds: [String]?, places: [String: String] = [:], images: ImageFolder = .none,
                logger: Logger, quietCheck: Double = 5) {
        self.url = url; self.live = live; self.feeds = feeds; self.places = places; self.logger = logger
        self.quietCheck = quietCheck; self.images = images
    }

    /// The server's only way to the database, used for every session it opens (the
    /// snapshot loader's extra connections are duplicates of it): read-only at the
    /// database, so no bug in this process can write. Request handlers hold no connection
    /// at all; they answer from the in-memory timetable. The SQL this process sends is
    /// fixed text in TransitStore (the feed ids it names come from the catalogue or the
    /// command line, escaped or bound as parameters), never anything from a request.
    public static func connect(url: String) throws -> PGConnection {
        try PGConnection(url: url, readOnly: true)
    }

    public func start() {
        let thread = Thread { [self] in self.run() }
        thread.name = "transit-reloader"
        thread.start()
    }

    @_optimize(none)  // see TransitAPI: the optimizer takes minutes on this glue
    private func run() {
        var pause = 1.0
        while true {
            do {
                let db = try Self.connect(url: url)
                try db.execute("LISTEN \(FeedCatalog.changeChannel)")
                if !live.databaseStatus.reachable && live.databaseStatus.checkedAt != nil {
                    logger.info("database reachable again at \(db.displayURL)")
                }
                live.setDatabase(reachable: true)
                pause = 1
                try reloadIfChanged(db)
                while true {
                    let heard = try db.waitForNotifications(timeout: quietCheck)
                    if heard.isEmpty { _ = try db.scalar("SELECT 1") }
                    live.setDatabase(reachable: true)
                    // Payloads: "FEED VERSION" for feeds, "streets REGION VERSION" for streets.
                    let streets = heard.map(\.payload).filter { $0.hasPrefix("streets ") }
                    let feeds = heard.map(\.payload).filter { !$0.hasPrefix("streets ") }
                    if !feeds.isEmpty { logger.info("feeds changed: \(feeds.joined(separator: ", "))") }
                    if !streets.isEmpty { logger.info("streets changed: \(streets.map { $0.dropFirst(8) }.joined(separator: ", "))") }
                    try reloadIfChanged(db)
                }
            } catch {
                let message = (error as? StoreError)?.message ?? "\(error)"
                live.setDatabase(reachable: false, problem: message)
                logger.error("\(message); \(live.served == nil ? "no timetable yet" : "still serving the timetable loaded") — retrying in \(Int(pause)) s")
                Thread.sleep(forTimeInterval: pause)
                pause = min(30, pause * 2)
            }
        }
    }

    /// Loads a new timetable when the feeds' or the streets' versions differ from the served ones.
    @_optimize(none)  // see TransitAPI: the optimizer takes minutes on this glue
    private func reloadIfChanged(_ db: PGConnection) throws {
        while true {
            var versions = try FeedCatalog(db: db).versions()
            if let feeds { versions = versions.filter { feeds.contains($0.key) } }
            // `feeds` named but not (yet) imported: the loader would refuse; wait for them.
            if let feeds, versions.count < Set(feeds).count {
                live.setReloadProblem("waiting for feeds not loaded yet: \(Set(feeds).subtracting(versions.keys).sorted().joined(separator: ", "))")
                return
            }
            // Read before the load, like the catalogue below: what is loaded is at least this new.
            let streetVersions = try StreetStore(db: db).versions()
            if let served = live.served, served.versions == versions, served.streetVersions == streetVersions { return }
            if versions.isEmpty {
                if live.served == nil { return }   // nothing loaded, nothing served: wait
            }
            let started = Date()
            do {
                // The catalogue read before the load: the data loaded is at least this new,
                // so a version committed meanwhile is seen as a change on the next round.
                let records = try FeedCatalog(db: db).list()
                // The image of these versions when there is one, else the feeds (and the
                // streets, when any are loaded, side by side) read and built.
                let loaded = try NetworkLoad.load(db: db, feeds: feeds, streets: !streetVersions.isEmpty, places: places, images: images)
                switch loaded.origin {
                case .image(let path): logger.info("timetable read from its image \(path)")
                case .built(let path, let note):
                    if let path { logger.info("timetable image written: \(path)") }
                    if let note { logger.info("timetable image: \(note)") }
                }
                let named = loaded.network.snapshot
                let byId = Dictionary(uniqueKeysWithValues: records.map { ($0.id, $0) })
                let networkSeconds = Date().timeIntervalSince(started)
                let assembly = PlannerAssembly.assemble(loaded.network)
                let assemblySeconds = Date().timeIntervalSince(started) - networkSeconds
                let served = ServedTimetable(assembly,
                                             feeds: named.feedIds.compactMap { byId[$0] },
                                             loadedAt: Date(), loadSeconds: Date().timeIntervalSince(started),
                                             streetVersions: streetVersions)
                live.swap(served)
                live.setReloadProblem(nil)
                let walking = streetVersions.isEmpty ? "" : ", streets \(streetVersions.sorted { $0.key < $1.key }.map { "\($0.key) v\($0.value)" }.joined(separator: ", "))"
                logger.info("serving \(served.feeds.map { "\($0.id) v\($0.version)" }.joined(separator: ", "))\(walking) (loaded in \(String(format: "%.2f", served.loadSeconds)) s: timetable \(String(format: "%.2f", networkSeconds)) s, planner \(String(format: "%.2f", assemblySeconds)) s)")
                // The stop search (plans by id or coordinates answer without it), then the
                // coverage regions, beside the requests.
                let coverage = Thread { _ = served.stops; served.buildCoverage() }
                coverage.name = "transit-coverage"
                coverage.start()
            } catch let e as StoreError where e.code == .connectionFailed {
                throw e
            } catch {
                // A feed that cannot be built (or vanished meanwhile): keep the old one.
                live.setReloadProblem("\(error)")
                logger.error("cannot load the new feeds (still serving the old timetable): \(error)")
                return
            }
        }
    }
}
