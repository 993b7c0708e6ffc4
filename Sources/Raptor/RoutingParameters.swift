import TransitModel

/// The routing model's parameters (`docs/routing-model.md`), checked when built.
/// Each is declared once in `RoutingParameters.Spec` (range, default, unit, meaning); the
/// defaults below, `validate`, the API's checks and document and the command line's help
/// are made from those declarations.
public struct RoutingParameters: Sendable, Equatable, Codable {
    /// Meters per second.
    public var walkSpeed: Double = Spec.walkSpeed.numberDefault
    /// Ratio of walked to beeline distance.
    public var walkDetourFactor: Double = Spec.walkDetourFactor.numberDefault
    /// Largest walkMeters from the origin to a first stop, and from a last stop to the destination.
    public var maxAccessWalk: Double = Spec.maxAccessWalk.numberDefault
    /// Largest walkMeters of a footpath between two distinct stops.
    public var maxTransferWalk: Double = Spec.maxTransferWalk.numberDefault
    /// Largest walkMeters for which a walk-only itinerary is offered.
    public var maxDirectWalk: Double = Spec.maxDirectWalk.numberDefault
    /// Seconds added to every change between two vehicles.
    public var transferSlack: Int = Spec.transferSlack.integerDefault
    /// Most changes between vehicles in one itinerary.
    public var maxTransfers: Int = Spec.maxTransfers.integerDefault

    public init() {}

    /// The declarations of the model's parameters: the one place their ranges and defaults
    /// are written.
    public enum Spec {
        public static let walkSpeed = ParameterSpec("walkSpeed", .number(0.1...10, default: 1.33), unit: .metersPerSecond,
                                                    "Walking speed in meters per second")
        public static let walkDetourFactor = ParameterSpec("walkDetourFactor", .number(1...3, default: 1.3),
                                                           "Walked distance over beeline distance")
        public static let maxAccessWalk = ParameterSpec("maxAccessWalk", .number(0...5000, default: 1000), unit: .meters,
                                                        "Longest walk to the first and from the last stop, in meters")
        public static let maxTransferWalk = ParameterSpec("maxTransferWalk", .number(0...5000, default: 500), unit: .meters,
                                                          "Longest walk between two stops, in meters; at most the timetable's footpath radius × walkDetourFactor")
        public static let maxDirectWalk = ParameterSpec("maxDirectWalk", .number(0...20_000, default: 2000), unit: .meters,
                                                        "Longest walk-only itinerary, in meters")
        public static let transferSlack = ParameterSpec("transferSlack", .integer(0...3600, default: 120), unit: .seconds,
                                                        "Seconds added to every change between vehicles")
        public static let maxTransfers = ParameterSpec("maxTransfers", .integer(0...12, default: 6),
                                                       "Most changes between vehicles")
        /// In the order the model and the APIs list them.
        public static let all = [walkSpeed, walkDetourFactor, maxAccessWalk, maxTransferWalk, maxDirectWalk, transferSlack, maxTransfers]
    }

    /// The parameters' names as the model and the APIs spell them.
    public static let names = Spec.all.map(\.name)

    /// Checks every value; `footpathBeelineMeters` is the timetable's footpath radius.
    public func validate(footpathBeelineMeters: Double = .infinity) throws(ParameterError) {
        func check(_ spec: ParameterSpec, _ value: Double) throws(ParameterError) {
            guard value.isFinite, spec.numberRange.contains(value) else {
                throw ParameterError(parameter: spec.name, value: "\(value)", allowed: spec.rangeWords ?? "")
            }
        }
        func check(_ spec: ParameterSpec, _ value: Int) throws(ParameterError) {
            guard spec.integerRange.contains(value) else {
                throw ParameterError(parameter: spec.name, value: "\(value)", allowed: spec.rangeWords ?? "")
            }
        }
        try check(Spec.walkSpeed, walkSpeed)
        try check(Spec.walkDetourFactor, walkDetourFactor)
        try check(Spec.maxAccessWalk, maxAccessWalk)
        let range = Spec.maxTransferWalk.numberRange
        let transferCap = min(range.upperBound, (footpathBeelineMeters * walkDetourFactor).rounded(.down))
        guard maxTransferWalk.isFinite && maxTransferWalk >= range.lowerBound && maxTransferWalk <= transferCap else {
            throw ParameterError(parameter: "maxTransferWalk", value: "\(maxTransferWalk)",
                                 allowed: "\(ParameterSpec.plain(range.lowerBound)) to \(Int(transferCap)) meters (this timetable's footpath radius × walkDetourFactor)")
        }
        try check(Spec.maxDirectWalk, maxDirectWalk)
        try check(Spec.transferSlack, transferSlack)
        try check(Spec.maxTransfers, maxTransfers)
    }

    /// walkMeters for a beeline distance.
    @inlinable public func walkMeters(beeline: Double) -> Double { beeline * walkDetourFactor }

    /// walkSeconds for a beeline distance: ceil(walkMeters / walkSpeed).
    @inlinable public func walkSeconds(beeline: Double) -> Int64 { Int64((beeline * walkDetourFactor / walkSpeed).rounded(.up)) }

    /// walkSeconds for a walk of `walkMeters` (a street walk): ceil(walkMeters / walkSpeed).
    @inlinable public func walkSeconds(walkMeters: Double) -> Int64 { Int64((walkMeters / walkSpeed).rounded(.up)) }
}

/// A parameter out of its allowed range: which one, the value, and what is allowed.
public struct ParameterError: Error, Sendable, Equatable, CustomStringConvertible {
    public let parameter: String
    public let value: String
    public let allowed: String
    public init(parameter: String, value: String, allowed: String) {
        self.parameter = parameter; self.value = value; self.allowed = allowed
    }
    public var description: String { "\(parameter) = \(value) is not allowed: use \(allowed)" }
}
