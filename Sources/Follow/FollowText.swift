import Foundation

/// The sentence that opens a stream (and the terminal's first line of a follow).
public enum FollowText {
    /// A clock time as the answers show it, in `zone` (a departure's minute).
    public static func clock(_ t: Int64, zone: String) -> String { FollowWords.clock(t, zone) }

    public static func following(_ trip: FollowedTrip, rides: [MatchedRide]) -> String {
        let parts = zip(trip.rides, rides).map { r, m in
            "\(FollowWords.line(m)) from \(m.boardName) at \(FollowWords.clock(r.plannedDeparture, m.zone)) to \(m.alightName) (\(FollowWords.clock(r.plannedArrival, m.zone, arrival: true)))"
        }
        return "Following your trip: " + parts.joined(separator: ", then ") + "."
    }
}
