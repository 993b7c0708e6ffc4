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
/// How the overlay is laid out (docs/routing-model.md, "Realtime"): each static route's day
/// that an applied update changes (times, skipped stops, a cancellation) is taken off that
/// route (`Timetable.routeRemovedDays`) and runs as new routes appended after the static
/// ones: the same stops, every trip of that route and day (updated or as scheduled,
/// cancelled ones left out), skipped stops neither boarding nor alighting, on a service
/// running that date only, split so that no trip overtakes another. Static routes and
/// trips keep their indexes; `staticTrip(of:)` and `staticRoute(of:)` map the new ones back.
public final class RealtimeState: Sendable {
    /// The timetable with the updates applied: the router reads this one when a request
    /// asks for realtime (the routing model's "Realtime": exactly as if the static feed had
    /// the updated times, without cancelled trips or skipped stops).
    public let timetable: Timetable
    /// Per feed with a message: what its message held and what became of it.
    public let reports: [RealtimeFeedReport]
    /// The messages applied, by feed id (their alerts and vehicles are read from here).
    public let messages: [String: RealtimeMessage]
    /// The timetable the updates were applied to.
    public let staticTimetable: Timetable
    /// The messages' vehicles with a position, their routes resolved (`RealtimeVehicles`).
    public let vehicles: [RealtimeVehicle]
    /// (static trip, day) -> the applied update's outcome.
    let trips: [TripDay: RealtimeTrip]
    // New trip (index - staticTimetable.tripCount) -> its static trip.
    let newTripStatic: [TripIndex]
    // New route (index - staticTimetable.routeCount) -> the static route it copies.
    let newRouteStatic: [RouteIndex]

    struct TripDay: Hashable, Sendable { var trip: TripIndex; var day: Int32 }

    public convenience init(timetable: Timetable, reports: [RealtimeFeedReport], messages: [String: RealtimeMessage]) {
        self.init(timetable: timetable, reports: reports, messages: messages, staticTimetable: timetable, trips: [:],
                  newTripStatic: [], newRouteStatic: [])
    }

    init(timetable: Timetable, reports: [RealtimeFeedReport], messages: [String: RealtimeMessage], staticTimetable: Timetable,
         trips: [TripDay: RealtimeTrip], newTripStatic: [TripIndex], newRouteStatic: [RouteIndex], vehicles: [RealtimeVehicle] = []) {
        self.timetable = timetable
        self.vehicles = vehicles
        self.reports = reports
        self.messages = messages
        self.staticTimetable = staticTimetable
        self.trips = trips
        self.newTripStatic = newTripStatic
        self.newRouteStatic = newRouteStatic
    }

    /// Applies each feed's message (feed id -> its latest message) to `network`'s
    /// timetable. Never throws: what cannot be applied is counted in the reports, by reason.
    public static func build(network: TransitNetwork, messages: [String: RealtimeMessage]) -> RealtimeState {
        var builder = OverlayBuilder(network: network)
        for feed in messages.keys.sorted() { builder.apply(feedId: feed, messages[feed]!) }
        return builder.finish(messages: messages, vehicles: RealtimeVehicles.resolve(network: network, messages: messages))
    }

    /// The static trip a trip of `timetable` stands for (itself unless it is a new one).
    public func staticTrip(of t: TripIndex) -> TripIndex {
        t.index < staticTimetable.tripCount ? t : newTripStatic[t.index - staticTimetable.tripCount]
    }

    /// The static route a route of `timetable` copies (itself unless it is a new one); its
    /// positions are the same.
    public func staticRoute(of r: RouteIndex) -> RouteIndex {
        r.index < staticTimetable.routeCount ? r : newRouteStatic[r.index - staticTimetable.routeCount]
    }

    /// What an applied update made of static trip `t` on `day` (days since firstDay); nil
    /// when no applied update names them.
    public func update(ofStaticTrip t: TripIndex, day: Int) -> RealtimeTrip? { trips[TripDay(trip: t, day: Int32(day))] }

    /// Every applied update's outcome (cancelled, changed or unchanged trips), in no order.
    public var updatedTrips: [RealtimeTrip] { Array(trips.values) }

    /// Whether an update was applied (a trip changed, cancelled, or confirmed on time).
    public var hasUpdates: Bool { !trips.isEmpty }

    /// How many trips the overlay added as trips of new routes, and how many routes.
    public var addedTrips: Int { newTripStatic.count }
    public var addedRoutes: Int { newRouteStatic.count }
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
