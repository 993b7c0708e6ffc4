import Foundation
import Streets
import TransitModel

/// What a timetable is built from, read from the database: the feeds' snapshot and, when
/// asked, the walk graph of the current street versions.
///
/// The two are read side by side: the streets on another connection (`db.duplicate()`)
/// and a thread of their own, where the walk graph is also built, while `db` reads the
/// feeds. On Milan (milan-atm-2014 + milan-small, 2 cores) the streets' read (0.065 s)
/// and the graph's build (0.03 s) overlap the feeds' (0.12 s): with the step-free
/// footpaths' shortcut and the binary read, the load and build with streets went from
/// 2.06x the load without them to 1.4-1.5x (`Scripts/bench-streets.sh`). When no other
/// connection can be opened the streets are read after the feeds, on `db`.
public struct NetworkSources: Sendable {
    public var snapshot: FeedSnapshot
    /// Nil when not asked for or when no street version is loaded.
    public var streets: WalkGraph?

    /// Loads `feeds` (nil: every loaded feed; see `SnapshotLoader.load`) and, with
    /// `streets`, the street versions' walk graph. Throws what either load throws (the
    /// feeds' error first).
    public static func load(db: PGConnection, feeds: [String]? = nil, streets: Bool) throws -> NetworkSources {
        guard streets else { return NetworkSources(snapshot: try SnapshotLoader(db: db).load(feeds: feeds), streets: nil) }
        guard let other = try? db.duplicate() else {
            let snapshot = try SnapshotLoader(db: db).load(feeds: feeds)
            return NetworkSources(snapshot: snapshot, streets: try StreetStore(db: db).load().map(WalkGraph.init))
        }
        let side = StreetsOnTheSide(other)
        side.start()
        let snapshot: FeedSnapshot
        do { snapshot = try SnapshotLoader(db: db).load(feeds: feeds) } catch {
            _ = side.wait()
            throw error
        }
        return NetworkSources(snapshot: snapshot, streets: try side.wait().get())
    }
}

/// The streets read and their graph built on a thread of its own, on a connection of its
/// own (closed when done).
private final class StreetsOnTheSide: @unchecked Sendable {
    private let condition = NSCondition()
    private var db: PGConnection?
    private var result: Result<WalkGraph?, Error>?

    init(_ db: PGConnection) { self.db = db }

    func start() {
        let thread = Thread { [self] in
            condition.lock()
            let db = self.db!
            condition.unlock()
            let r = Result<WalkGraph?, Error> { try StreetStore(db: db).load().map(WalkGraph.init) }
            condition.lock()
            result = r
            self.db = nil  // closes the connection
            condition.broadcast()
            condition.unlock()
        }
        thread.name = "transit-streets-load"
        thread.start()
    }

    func wait() -> Result<WalkGraph?, Error> {
        condition.lock()
        defer { condition.unlock() }
        while result == nil { condition.wait() }
        return result!
    }
}
