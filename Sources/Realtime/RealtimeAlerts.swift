import GTFSRealtime

/// What an alert is matched against: one ride (or one stop) of an answer, by the feed's
/// own ids, and the time it takes place.
public struct AlertTarget: Sendable, Equatable {
    public var feedId: String
    public var agencyId: String?
    public var routeId: String?
    public var routeType: Int?
    public var directionId: Int?
    public var tripId: String?
    /// The trip's service date, "YYYYMMDD".
    public var startDate: String?
    /// The stops it concerns (a ride: where it is boarded and left).
    public var stopIds: [String]
    /// POSIX seconds: from boarding to alighting.
    public var from: Int64
    public var to: Int64

    public init(feedId: String, agencyId: String? = nil, routeId: String? = nil, routeType: Int? = nil, directionId: Int? = nil,
                tripId: String? = nil, startDate: String? = nil, stopIds: [String] = [], from: Int64, to: Int64) {
        self.feedId = feedId; self.agencyId = agencyId; self.routeId = routeId; self.routeType = routeType
        self.directionId = directionId; self.tripId = tripId; self.startDate = startDate; self.stopIds = stopIds
        self.from = from; self.to = to
    }
}

public enum RealtimeAlerts {
    /// The alerts of `messages[target.feedId]` that concern `target`: active at some moment
    /// between `from` and `to` (an alert without active periods always is), and naming it
    /// in one of their informed entities, where an entity names it when every field it
    /// gives matches (GTFS-Realtime's EntitySelector: `route_id` and `stop_id` together
    /// mean that stop on that route). In the message's order, each once.
    public static func matching(_ target: AlertTarget, in messages: [String: RealtimeMessage]) -> [RealtimeMessage.Alert] {
        guard let message = messages[target.feedId] else { return [] }
        return message.alerts.filter { alert in
            active(alert, from: target.from, to: target.to) && alert.informedEntities.contains { names($0, target) }
        }
    }

    static func active(_ alert: RealtimeMessage.Alert, from: Int64, to: Int64) -> Bool {
        alert.activePeriods.isEmpty || alert.activePeriods.contains { p in
            (p.start ?? .min) <= to && from <= (p.end ?? .max)
        }
    }

    static func names(_ e: RealtimeMessage.InformedEntity, _ t: AlertTarget) -> Bool {
        var any = false
        if let a = e.agencyId { guard a == t.agencyId else { return false }; any = true }
        if let r = e.routeId { guard r == t.routeId else { return false }; any = true }
        if let r = e.routeType { guard r == t.routeType else { return false }; any = true }
        if let d = e.directionId {
            // A direction alone names nothing; with a route it narrows it.
            guard d == t.directionId else { return false }
        }
        if let trip = e.trip {
            if let id = trip.tripId { guard id == t.tripId else { return false }; any = true }
            if let date = trip.startDate { guard date == t.startDate else { return false } }
            if trip.tripId == nil, let r = trip.routeId { guard r == t.routeId else { return false }; any = true }
        }
        if let s = e.stopId { guard t.stopIds.contains(s) else { return false }; any = true }
        return any
    }
}
