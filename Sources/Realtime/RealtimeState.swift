import FeedNetwork
import GTFSRealtime
import Timetable
import TransitModel

/// The realtime state a request routes on: the timetable as the feeds' latest
/// GTFS-Realtime messages change it, built beside the served one and swapped in whole
/// (a request takes one `RealtimeState` and sees nothing else), with what was applied and
/// what was not. The static timetable is never changed: `timetable` shares its arrays
/// where nothing changed.
///
/// CONTRACT (issue 21): this file is the interface the parts are built against. The body
/// of `build` below is a placeholder that applies nothing; the overlay replaces it.
public final class RealtimeState: Sendable {
    /// The timetable with the updates applied: the router reads this one when a request
    /// asks for realtime (the routing model's "Realtime": exactly as if the static feed had
    /// the updated times, without cancelled trips or skipped stops).
    public let timetable: Timetable
    /// Per feed with a message: what its message held and what became of it.
    public let reports: [RealtimeFeedReport]
    /// The messages applied, by feed id (their alerts and vehicles are read from here).
    public let messages: [String: RealtimeMessage]

    public init(timetable: Timetable, reports: [RealtimeFeedReport], messages: [String: RealtimeMessage]) {
        self.timetable = timetable
        self.reports = reports
        self.messages = messages
    }

    /// Applies each feed's message (feed id -> its latest message) to `network`'s
    /// timetable. Never throws: what cannot be applied is counted in the reports, by reason.
    public static func build(network: TransitNetwork, messages: [String: RealtimeMessage]) -> RealtimeState {
        let reports = messages.keys.sorted().map { feed -> RealtimeFeedReport in
            let m = messages[feed]!
            return RealtimeFeedReport(feedId: feed, messageTime: m.timestamp, tripUpdates: m.tripUpdates.count,
                                      applied: 0, rejected: m.tripUpdates.isEmpty ? [:] : ["not-implemented": m.tripUpdates.count])
        }
        return RealtimeState(timetable: network.timetable, reports: reports, messages: messages)
    }
}

/// What became of one feed's message.
public struct RealtimeFeedReport: Sendable, Equatable {
    public var feedId: String
    /// The message's header time (POSIX seconds).
    public var messageTime: Int64?
    /// TripUpdate entities in the message.
    public var tripUpdates: Int
    /// TripUpdates applied (a trip's times changed, or the trip cancelled).
    public var applied: Int
    /// TripUpdates not applied, by reason (a short code: `unknown-trip`, `times-backwards`,
    /// `added-trip`, …), each counted once.
    public var rejected: [String: Int]
    /// The first few problems, one line each: the entity id and what is wrong.
    public var samples: [String]

    public init(feedId: String, messageTime: Int64? = nil, tripUpdates: Int = 0, applied: Int = 0,
                rejected: [String: Int] = [:], samples: [String] = []) {
        self.feedId = feedId; self.messageTime = messageTime; self.tripUpdates = tripUpdates
        self.applied = applied; self.rejected = rejected; self.samples = samples
    }
}
