import FeedNetwork
import Streets
import Synchronization
import Timetable
import TransitModel

/// What requests are planned on, built from one snapshot in one place for the server, the
/// terminal planner and the benchmark alike: the timetable, the planner over it and the
/// stop search. Immutable once built; a reload builds a new one.
public struct PlannerAssembly: Sendable {
    public let network: TransitNetwork
    public var timetable: Timetable { network.timetable }
    public let planner: JourneyPlanner
    /// The stop search, built at its first use (`StopSearchSlot`).
    public let stopSearch: StopSearchSlot
    public var stops: StopSearch { stopSearch.value }

    /// Builds the timetable from `snapshot` (its places already declared), then the planner
    /// and the stop search over it, walking along `streets` when given. Throws what
    /// `TimetableBuilder.build` throws.
    public static func assemble(_ snapshot: FeedSnapshot, streets: StreetTables? = nil) throws -> PlannerAssembly {
        assemble(try TimetableBuilder.build(snapshot, streets: streets))
    }

    /// The same with the walk graph already built.
    public static func assemble(_ snapshot: FeedSnapshot, graph: WalkGraph?) throws -> PlannerAssembly {
        assemble(try TimetableBuilder.build(snapshot, graph: graph))
    }

    /// The planner and the stop search over a network already built (the benchmark measures
    /// the timetable's memory between the two steps).
    public static func assemble(_ network: TransitNetwork) -> PlannerAssembly {
        PlannerAssembly(network: network, planner: JourneyPlanner(network: network), stopSearch: StopSearchSlot(network))
    }
}

/// A stop search made at its first use, once, whoever asks first (others wait for it): plans
/// between stop ids and coordinates need none, so a server answers them while it is built
/// (all shared feeds: 0.3 s of a 0.55 s planner assembly; `transit serve` starts building it
/// right after the timetable is swapped in).
public final class StopSearchSlot: Sendable {
    private let network: TransitNetwork
    private let slot = Mutex<StopSearch?>(nil)

    public init(_ network: TransitNetwork) { self.network = network }

    public var value: StopSearch {
        slot.withLock { s in
            if let s { return s }
            let made = StopSearch(network: network)
            s = made
            return made
        }
    }
}
