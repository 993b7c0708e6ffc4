import Foundation
import TransitModel

/// The sentence that opens a stream (and the terminal's first line of a follow).
public enum FollowText {
    /// A clock time as the answers show it, in `zone` (a departure's minute).
    public static func clock(_ t: Int64, zone: String) -> String { FollowWords.clock(t, zone) }

    public static func following(_ trip: FollowedTrip, rides: [MatchedRide], language: Language = .en) -> String {
        let parts = zip(trip.rides, rides).map { r, m in
            Catalogue.text("follow.ride", language, ["line": FollowWords.line(m, language), "stop": m.boardName,
                                                     "time": FollowWords.clock(r.plannedDeparture, m.zone), "end": m.alightName,
                                                     "endTime": FollowWords.clock(r.plannedArrival, m.zone, arrival: true)])
        }
        return Catalogue.text("follow.following", language, ["parts": parts.joined(separator: Catalogue.text("follow.then", language))])
    }
}
