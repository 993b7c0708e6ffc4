/// The walkable streets as loaded from the database (`TransitStore.StreetStore`), before
/// the walk graph is built from them: one row per edge of the `street_edges` tables of the
/// current street versions, their end nodes by OpenStreetMap id. Plain arrays, no
/// behaviour: `WalkGraph(tables)` is what searches.
///
/// An edge is a piece of one way between two nodes where ways meet (or a way ends or is
/// cut), or a line across a pedestrian area between two of its entrances. Its geometry is
/// `[source] + inner points + [target]`; walking it costs its length in either direction.
public struct StreetTables: Sendable, Equatable {
    /// Each node's OpenStreetMap id and position (WGS84 degrees).
    public var nodeId: [Int64] = []
    public var nodeLatitude: [Double] = []
    public var nodeLongitude: [Double] = []

    /// Each edge's end nodes (indexes into the node arrays).
    public var edgeSource: [Int32] = []
    public var edgeTarget: [Int32] = []
    /// Geodesic meters along the edge's geometry.
    public var edgeLength: [Float] = []
    /// The OpenStreetMap way (negative: a relation, for an area given as a multipolygon).
    public var edgeWay: [Int64] = []
    /// Index into `names`, or -1 for an unnamed way.
    public var edgeName: [Int32] = []
    public var edgeKind: [StreetKind] = []
    public var edgeFlags: [StreetFlags] = []
    /// Inner points of edge `e`: `innerLatitude[innerOffsets[e] ..< innerOffsets[e + 1]]`
    /// (`innerOffsets.count == edgeCount + 1`).
    public var innerOffsets: [Int32] = [0]
    public var innerLatitude: [Double] = []
    public var innerLongitude: [Double] = []

    /// Street names, each once.
    public var names: [String] = []

    /// The street versions these rows come from: region id -> version.
    public var versions: [String: Int] = [:]

    public var nodeCount: Int { nodeId.count }
    public var edgeCount: Int { edgeSource.count }

    public init() {}
}

/// What kind of way an edge belongs to: what a walking step calls it.
public enum StreetKind: UInt8, Sendable, CaseIterable {
    /// A road open to vehicles (residential, tertiary … primary, unclassified, living street, road).
    case road = 0
    /// A service road, alley, driveway or track.
    case service = 1
    /// A footway, path, cycleway, bridleway, corridor or platform.
    case footway = 2
    /// `highway=pedestrian` as a line: a pedestrian street.
    case pedestrian = 3
    /// `highway=steps`.
    case steps = 4
    /// A crossing of a road (`footway=crossing`, `highway=crossing` ways).
    case crossing = 5
    /// The outline of a pedestrian area (a square) or a line across it between two entrances.
    case area = 6

    /// The `kind` column of `street_edges`.
    public init?(column: Int) { self.init(rawValue: UInt8(clamping: column)) }
}

/// Facts about an edge that decide who may walk it.
public struct StreetFlags: OptionSet, Sendable, Hashable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }
    /// Steps: a wheelchair query never takes it.
    public static let steps = StreetFlags(rawValue: 1)
    /// `wheelchair=no`: a wheelchair query never takes it.
    public static let noWheelchair = StreetFlags(rawValue: 2)
    /// A line across a pedestrian area (not a mapped way).
    public static let acrossArea = StreetFlags(rawValue: 4)
    /// A steep incline (`incline` beyond ±6 % or `up`/`down`) or a rough surface
    /// (`gravel`, `sand`, `dirt`, `grass`, `mud`, `ground`, `unpaved`…): said in the steps.
    public static let rough = StreetFlags(rawValue: 8)

    /// Ways a wheelchair may not take.
    public static let wheelchairBarred: StreetFlags = [.steps, .noWheelchair]
}
