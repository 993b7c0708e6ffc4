import Coverage
import Dispatch
import FeedNetwork
import Follow
import Foundation
import Planner
import Realtime
import Synchronization
import Timetable
import TransitModel
import TransitStore

/// One timetable as the server answers from it: the planner over it, the stop search,
/// the feeds' catalogue rows, and the coverage regions (worked out in the background
/// after the timetable is swapped in: plans do not need them, only `/v1/coverage` does).
public final class ServedTimetable: Sendable {
    public let planner: JourneyPlanner
    /// The stop search, made at its first use (the reloader asks for it right after the swap).
    private let stopSearch: StopSearchSlot
    public var stops: StopSearch { stopSearch.value }
    /// The catalogue rows of the feeds in this timetable, by feed index.
    public let feeds: [FeedRecord]
    public let loadedAt: Date
    public let loadSeconds: Double
    /// Street region -> version of the streets walked on (empty: none loaded, beelines).
    public let streetVersions: [String: Int]
    /// Followed trips' rides found in this timetable, and its itineraries made into trips to follow.
    public let matcher: TripMatcher
    private let coverageState = Mutex<CoverageState>(.building)
    private let networkMapSlot = Mutex<NetworkMap?>(nil)

    /// The network as the page's map background (`/v1/network`), made at its first request.
    public var networkMap: NetworkMap {
        if let m = networkMapSlot.withLock({ $0 }) { return m }
        let m = NetworkMap(self)
        networkMapSlot.withLock { $0 = m }
        return m
    }
    private let realtimeSlot = Mutex<(state: RealtimeState?, builtAt: Date?, builtSeconds: Double, swaps: Int)>((nil, nil, 0, 0))

    public enum CoverageState: Sendable {
        case building
        case ready(CoverageReport)
        case failed(String)
    }

    @_optimize(none)  // see TransitAPI: the optimizer takes minutes on this glue
    public init(_ assembly: PlannerAssembly, feeds: [FeedRecord], loadedAt: Date, loadSeconds: Double, streetVersions: [String: Int] = [:]) {
        self.streetVersions = streetVersions
        self.planner = assembly.planner
        self.stopSearch = assembly.stopSearch
        self.feeds = feeds
        self.loadedAt = loadedAt
        self.loadSeconds = loadSeconds
        matcher = TripMatcher(network: assembly.planner.network,
                              versions: Dictionary(feeds.map { ($0.id, String($0.version)) }, uniquingKeysWith: { a, _ in a }))
    }

    public var timetable: Timetable { planner.timetable }
    /// The timetable and what is beside it (names, shapes, stop grids).
    public var network: TransitNetwork { planner.network }
    public var coverage: CoverageState { coverageState.withLock { $0 } }

    /// The realtime state built for this timetable from the latest messages (nil: no
    /// realtime source). A request takes it once, with the timetable, and uses it to the end.
    public var realtime: RealtimeState? { realtimeSlot.withLock { $0.state } }
    /// When the realtime state was last swapped in, how long its build took (overlay and
    /// router), and how many states were swapped in so far.
    public var realtimeBuilt: (at: Date?, seconds: Double, swaps: Int) { realtimeSlot.withLock { ($0.builtAt, $0.builtSeconds, $0.swaps) } }

    /// Swaps in a realtime state built for this timetable (`RealtimeFeeds`).
    public func setRealtime(_ state: RealtimeState, builtSeconds: Double) {
        realtimeSlot.withLock { $0 = (state, Date(), builtSeconds, $0.swaps + 1) }
    }

    /// Works out the coverage regions (seconds on a large feed); call once, off the
    /// request path.
    public func buildCoverage() {
        let state: CoverageState
        do {
            let regions = try CoverageBuilder.regions(network, levels: planner.serviceLevels)
            let today = ServiceDate(daysSinceEpoch: Int32(Date().timeIntervalSince1970 / 86_400))
            state = .ready(CoverageReport.make(regions, timetable: network, today: today))
        } catch {
            state = .failed("\(error)")
        }
        coverageState.withLock { $0 = state }
    }

    /// Feed id -> version of what this timetable holds.
    public var versions: [String: Int] { Dictionary(uniqueKeysWithValues: feeds.map { ($0.id, $0.version) }) }
}

/// What the server serves now, swapped whole when a new feed version arrives, and what it
/// knows of the database. Requests take the current timetable once and use it to the end,
/// so a swap never mixes two versions in one answer.
public final class LiveTimetable: Sendable {
    private let current = Mutex<ServedTimetable?>(nil)
    private let realtimeBuilder = Mutex<(@Sendable (ServedTimetable) -> Void)?>(nil)
    private let listeners = Mutex<[@Sendable (ServedTimetable) -> Void]>([])
    private let database = Mutex<DatabaseStatus>(DatabaseStatus())
    public let startedAt = Date()

    public struct DatabaseStatus: Sendable {
        public var reachable = false
        /// When the state was last confirmed (nil: never reached).
        public var checkedAt: Date?
        /// Why it is unreachable, in plain words.
        public var problem: String?
        /// The last reload that failed, and why (the old timetable stays).
        public var reloadProblem: String?
    }

    public init() {}

    public var served: ServedTimetable? { current.withLock { $0 } }
    public var databaseStatus: DatabaseStatus { database.withLock { $0 } }

    /// Serves `new` from now on; with realtime sources, its realtime state is built first.
    public func swap(_ new: ServedTimetable) {
        realtimeBuilder.withLock { $0 }?(new)
        current.withLock { $0 = new }
        changed(new)
    }

    /// Calls `listener` after each swap and each new realtime state of the timetable served
    /// (on the thread that made it).
    public func addListener(_ listener: @escaping @Sendable (ServedTimetable) -> Void) {
        listeners.withLock { $0.append(listener) }
    }

    /// Tells the listeners that `served` changed (a new realtime state), when it is the one served.
    public func changed(_ served: ServedTimetable) {
        guard current.withLock({ $0 === served }) else { return }
        for l in listeners.withLock({ $0 }) { l(served) }
    }

    /// What builds each new timetable's realtime state before it is swapped in.
    public func setRealtimeBuilder(_ build: @escaping @Sendable (ServedTimetable) -> Void) {
        realtimeBuilder.withLock { $0 = build }
    }

    public func setDatabase(reachable: Bool, problem: String? = nil) {
        database.withLock { $0.reachable = reachable; $0.checkedAt = Date(); $0.problem = reachable ? nil : problem }
    }

    public func setReloadProblem(_ problem: String?) { database.withLock { $0.reloadProblem = problem } }
}
