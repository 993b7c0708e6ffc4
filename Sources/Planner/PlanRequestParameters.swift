import TransitModel

/// The declarations of the plan request's parameters that the planner itself checks
/// (`answer`): how many itineraries and how long a window. The API, the command line and
/// the fuzz checks read the same declarations; the values are `JourneyPlanner`'s.
public enum PlanRequestParameters {
    public static let numItineraries = ParameterSpec(
        "numItineraries", .integer(1...JourneyPlanner.maxItineraries, default: JourneyPlanner.defaultItineraries),
        "At most this many itineraries")
    /// Minutes. One limit for every face (API, `transit plan`, `--batch`); the planner
    /// works in seconds (`PlanQuery.window`).
    public static let window = ParameterSpec(
        "window", .integer(0...180, default: JourneyPlanner.defaultWindow / 60), unit: .minutes,
        "Minutes after (arrive-by: before) the time in which later (earlier) departures are offered as alternatives; 0 for none")
    /// `PlanQuery.streets`.
    public static let streets = ParameterSpec(
        "streets", .boolean(default: true),
        "Walk along the streets where they are loaded; false: every walk is the beeline × walkDetourFactor")
    /// `PlanQuery.realtime`.
    public static let realtime = ParameterSpec(
        "realtime", .boolean(default: true),
        "Route on the GTFS-Realtime updates where a message is loaded (delays, cancellations, skipped stops); false: on the timetable as planned")
}
