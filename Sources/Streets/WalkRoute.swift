import Geo

/// How a walk's length was found (the routing model's "Streets").
public enum WalkModel: String, Sendable, Equatable {
    /// Along the street network: both ends snapped to a walkable edge.
    case streets
    /// `beeline × walkDetourFactor`: no streets loaded there, or an end too far from any.
    case beeline
}

/// One instruction of a walk along streets: what a person follows on the way.
public struct WalkStep: Sendable, Equatable {
    public enum Action: String, Sendable, Equatable, CaseIterable {
        /// The first step: "Head north on Via Torino".
        case depart
        case continueOn = "continue"
        case slightLeft = "slight-left", left, sharpLeft = "sharp-left"
        case slightRight = "slight-right", right, sharpRight = "sharp-right"
        case uTurn = "u-turn"
        /// "Take the steps" (up or down unknown).
        case steps
        /// "Cross Corso Buenos Aires": a crossing of a road, named after the road crossed
        /// where the way itself has no name.
        case cross
        /// "Cross Piazza del Duomo": across a pedestrian area.
        case crossArea = "cross-area"
    }
    public var action: Action
    /// The way's name, or nil for an unnamed one (then `kind` names it: "the footpath").
    public var street: String?
    public var kind: StreetKind
    /// Meters walked on this step (its real length, steps not doubled).
    public var meters: Double
    /// For `.depart`: the compass direction walked first ("north", "north-east", …).
    public var heading: String?
    /// Where the step starts: an index into the walk's `geometry`.
    public var pointIndex: Int

    public init(action: Action, street: String?, kind: StreetKind, meters: Double, heading: String? = nil, pointIndex: Int) {
        self.action = action; self.street = street; self.kind = kind; self.meters = meters
        self.heading = heading; self.pointIndex = pointIndex
    }
}

/// A walk between two places as the routing model found it, with what a map draws and a
/// person reads.
public struct WalkRoute: Sendable, Equatable {
    public var model: WalkModel
    /// Real meters along `geometry` (steps not doubled): what a person is told.
    public var meters: Double
    /// The model's walk meters (steps doubled, see the routing model): what the time and
    /// the walking limits are reckoned on.
    public var walkMeters: Double
    /// From the start place to the end place: for `.streets` the start, its snapped point,
    /// the edges walked, the end's snapped point and the end; for `.beeline` the two ends.
    public var geometry: [Coordinate]
    /// Empty for `.beeline`.
    public var steps: [WalkStep]

    public init(model: WalkModel, meters: Double, walkMeters: Double, geometry: [Coordinate], steps: [WalkStep]) {
        self.model = model; self.meters = meters; self.walkMeters = walkMeters; self.geometry = geometry; self.steps = steps
    }
}
