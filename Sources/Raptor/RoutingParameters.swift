/// The routing model's parameters (`docs/routing-model.md`), checked when built.
public struct RoutingParameters: Sendable, Equatable, Codable {
    /// Meters per second.
    public var walkSpeed: Double = 1.33
    /// Ratio of walked to beeline distance.
    public var walkDetourFactor: Double = 1.3
    /// Largest walkMeters from the origin to a first stop, and from a last stop to the destination.
    public var maxAccessWalk: Double = 1000
    /// Largest walkMeters of a footpath between two distinct stops.
    public var maxTransferWalk: Double = 500
    /// Largest walkMeters for which a walk-only itinerary is offered.
    public var maxDirectWalk: Double = 2000
    /// Seconds added to every change between two vehicles.
    public var transferSlack: Int = 120
    /// Most changes between vehicles in one itinerary.
    public var maxTransfers: Int = 6

    public init() {}

    /// The parameters' names as the model and the APIs spell them.
    public static let names = ["walkSpeed", "walkDetourFactor", "maxAccessWalk", "maxTransferWalk",
                               "maxDirectWalk", "transferSlack", "maxTransfers"]

    /// Checks every value; `footpathBeelineMeters` is the timetable's footpath radius.
    public func validate(footpathBeelineMeters: Double = .infinity) throws(ParameterError) {
        func check(_ ok: Bool, _ name: String, _ value: String, _ allowed: String) throws(ParameterError) {
            if !ok { throw ParameterError(parameter: name, value: value, allowed: allowed) }
        }
        try check(walkSpeed.isFinite && walkSpeed >= 0.1 && walkSpeed <= 10, "walkSpeed", "\(walkSpeed)", "0.1 to 10 meters per second")
        try check(walkDetourFactor.isFinite && walkDetourFactor >= 1 && walkDetourFactor <= 3, "walkDetourFactor", "\(walkDetourFactor)", "1 to 3")
        try check(maxAccessWalk.isFinite && maxAccessWalk >= 0 && maxAccessWalk <= 5000, "maxAccessWalk", "\(maxAccessWalk)", "0 to 5000 meters")
        let transferCap = (footpathBeelineMeters * walkDetourFactor).rounded(.down)
        try check(maxTransferWalk.isFinite && maxTransferWalk >= 0 && maxTransferWalk <= min(5000, transferCap),
                  "maxTransferWalk", "\(maxTransferWalk)", "0 to \(Int(min(5000, transferCap))) meters (this timetable's footpath radius × walkDetourFactor)")
        try check(maxDirectWalk.isFinite && maxDirectWalk >= 0 && maxDirectWalk <= 20_000, "maxDirectWalk", "\(maxDirectWalk)", "0 to 20000 meters")
        try check(transferSlack >= 0 && transferSlack <= 3600, "transferSlack", "\(transferSlack)", "0 to 3600 seconds")
        try check(maxTransfers >= 0 && maxTransfers <= 12, "maxTransfers", "\(maxTransfers)", "0 to 12")
    }

    /// walkMeters for a beeline distance.
    @inlinable public func walkMeters(beeline: Double) -> Double { beeline * walkDetourFactor }

    /// walkSeconds for a beeline distance: ceil(walkMeters / walkSpeed).
    @inlinable public func walkSeconds(beeline: Double) -> Int64 { Int64((beeline * walkDetourFactor / walkSpeed).rounded(.up)) }
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
